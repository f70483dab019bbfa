// ibnetdiscover's topology output (infiniband-diags; the format ibsim also reads), line
// by line:
//
//   switchguid=0x2fabc0000000001(2fabc0000000001)
//   Switch	8 "S-02fabc0000000001"		# "su0-leaf0" base port 0 lid 1 lmc 0
//   [1]	"H-02fabc0000000003"[1](2fabc0000000004) 		# "su0-node0 cx0" lid 3 4xNDR
//   Ca	1 "H-02fabc0000000003"		# "su0-node0 cx0"
//   [1](2fabc0000000004) 	"S-02fabc0000000001"[1]		# lid 3 lmc 0 "su0-leaf0" lid 1 4xNDR
//
// A node record is a header (Switch, Ca, Rt) and one line per connected port; the
// "key=value" lines and '#' comments between them are skipped. Every link appears at
// both of its ends; a peer that never gets a record of its own means the file was cut.
#include "diag/DiagCodes.h"
#include "discovery/LineReader.h"
#include "discovery/Observed.h"

#include "diag/Diag.h"

#include <llvm/ADT/DenseSet.h>

#include <cctype>

namespace fabc::discovery {
namespace {

// Per-lane data rate of an InfiniBand speed name (b/s).
double laneRate(std::string_view s) {
  static const struct {
    const char *name;
    double rate;
  } rates[] = {{"SDR", 2.5e9},   {"DDR", 5e9},     {"QDR", 10e9},   {"FDR10", 10.3125e9}, {"FDR", 14.0625e9},
               {"EDR", 25.78125e9}, {"HDR", 53.125e9}, {"NDR", 106.25e9}, {"XDR", 212.5e9}};
  for (const auto &r : rates)
    if (s == r.name)
      return r.rate;
  return 0;
}

struct Cursor {
  std::string_view s;
  size_t i = 0;
  void blanks() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
      ++i;
  }
  bool eat(char c) {
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  bool number(uint64_t &v, int base = 10) {
    size_t start = i;
    v = 0;
    while (i < s.size() && std::isxdigit((unsigned char)s[i]) && (base == 16 || std::isdigit((unsigned char)s[i]))) {
      int d = std::isdigit((unsigned char)s[i]) ? s[i] - '0' : (std::tolower((unsigned char)s[i]) - 'a' + 10);
      if (v > (UINT64_MAX - d) / base)
        return false;
      v = v * base + d;
      ++i;
    }
    return i > start && i - start <= 20;
  }
  // "S-0002c90000000000": the kind letter and the GUID.
  bool nodeId(char &kind, uint64_t &guid) {
    if (!eat('"') || i + 2 > s.size())
      return false;
    kind = s[i];
    i += 1;
    if (!eat('-') || !number(guid, 16))
      return false;
    return eat('"');
  }
  // "(2fabc0000000004)": a port GUID, if any (0 when absent).
  bool optGuid(uint64_t *out = nullptr) {
    uint64_t g = 0;
    if (out)
      *out = 0;
    if (!eat('('))
      return true;
    if (!number(g, 16) || !eat(')'))
      return false;
    if (out)
      *out = g;
    return true;
  }
};

// The quoted description after '#': from the first '"' to the last one of the line.
bool commentDescription(std::string_view line, std::string_view &desc, size_t &col) {
  size_t hash = line.find('#');
  if (hash == std::string_view::npos)
    return false;
  size_t open = line.find('"', hash);
  size_t close = line.rfind('"');
  if (open == std::string_view::npos || close <= open)
    return false;
  desc = line.substr(open + 1, close - open - 1);
  col = open + 1;
  return true;
}

// "4xNDR" in the comment, if any: the last token of the form <width>x<speed>.
void widthSpeed(std::string_view line, Link &l) {
  size_t hash = line.find('#');
  if (hash == std::string_view::npos)
    return;
  size_t close = line.rfind('"');
  size_t p = close == std::string_view::npos || close < hash ? hash : close;
  std::string_view rest = line.substr(p + 1);
  size_t i = 0;
  while (i < rest.size()) {
    while (i < rest.size() && std::isspace((unsigned char)rest[i]))
      ++i;
    size_t j = i;
    while (j < rest.size() && !std::isspace((unsigned char)rest[j]))
      ++j;
    std::string_view tok = rest.substr(i, j - i);
    size_t x = tok.find('x');
    if (x > 0 && x != std::string_view::npos && x <= 2 && std::isdigit((unsigned char)tok[0])) {
      unsigned w = 0;
      for (size_t k = 0; k < x; ++k)
        w = std::isdigit((unsigned char)tok[k]) ? w * 10 + unsigned(tok[k] - '0') : 0;
      double r = laneRate(tok.substr(x + 1));
      if (w && w <= 12 && r) {
        l.width = uint8_t(w);
        l.laneRate = r;
        l.sdr = tok.substr(x + 1) == "SDR";
      }
    }
    i = j;
  }
}

} // namespace

bool parseIbnetdiscover(std::FILE *in, Reader &r) {
  LineReader lines(in, r.limits.maxLineBytes);
  std::string line;
  uint32_t current = ir::None;           // the node whose record we are in
  KeySet headers;                        // GUIDs with a record
  KeyMap<std::pair<uint64_t, Where>> peers; // GUIDs seen only as peers so far: GUID, where first
  unsigned records = 0;
  Observed &obs = r.obs;
  auto malformed = [&](std::string_view what, size_t col) {
    r.diags.report(DiagCode::E0181, obs.at(r.sm, r.diags, {r.file, lines.lineNo()}, line, uint32_t(col)),
                   "malformed ibnetdiscover line: {}", what);
    r.ok = false;
  };
  while (!r.full && lines.next(line)) {
    if (r.diags.tooManyErrors())
      break;
    Where at{r.file, lines.lineNo()};
    if (!lines.lastHadNewline())
      break; // a last line without its newline: the file is cut (reported below)
    if (lines.tooLong()) {
      malformed(fmt::format("longer than {} bytes", r.limits.maxLineBytes), 0);
      continue;
    }
    std::string_view s = line;
    size_t first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
      current = ir::None; // a blank line ends a record
      continue;
    }
    if (s[first] == '#')
      continue;
    Cursor c{s, first};
    if (s[first] == '[') {
      // A port line of the current record.
      if (current == ir::None) {
        malformed("a port line outside a node record", first);
        continue;
      }
      uint64_t local, remote, guid, localPortGuid, peerPortGuid;
      char kind;
      c.eat('[');
      if (!c.number(local) || !c.eat(']') || local == 0 || local > 254) {
        malformed("expected a port number '[N]' from 1 to 254 (255 is reserved)", first);
        continue;
      }
      if (!c.optGuid(&localPortGuid)) {
        malformed("expected a port GUID '(hex)'", c.i);
        continue;
      }
      // "[ext N]": a front-panel number, after the port number (newer infiniband-diags).
      if (s.compare(c.i, 5, "[ext ") == 0) {
        size_t close = s.find(']', c.i);
        c.i = close == std::string_view::npos ? s.size() : close + 1;
      }
      c.blanks();
      size_t peerCol = c.i;
      // Port 0 is a switch's management port, which no cable reaches; GUID 0 is no node's.
      if (!c.nodeId(kind, guid) || guid >= FirstReservedKey || guid == 0 || !c.eat('[') || !c.number(remote) ||
          !c.eat(']') || remote == 0 || remote > 254) {
        malformed("expected the peer '\"S-<guid>\"[N]' or '\"H-<guid>\"[N]' (a GUID other than 0, N from 1 to 254)",
                  peerCol);
        continue;
      }
      if (!c.optGuid(&peerPortGuid)) {
        malformed("expected a port GUID '(hex)' after the peer port", c.i);
        continue;
      }
      c.blanks();
      if (c.i < s.size() && s[c.i] != '#' && !(s[c.i] == 'w' || s[c.i] == 's')) { // ibsim's w=N / s=N options
        malformed("unexpected text after the peer", c.i);
        continue;
      }
      std::string_view desc;
      size_t descCol = 0;
      std::string name;
      if (commentDescription(s, desc, descCol))
        name = r.clean(desc, at, line);
      if (!headers.count(guid) && !peers.count(guid))
        peers[guid] = {guid, at};
      uint32_t peer = r.addNode(name, guid, kind == 'S', at, line);
      // An HCA's port 1 GUID (fabc build --guids-from writes it to cn_guids.txt): a
      // ConnectX-4 or later reports its node GUID there, ibsim the node GUID + 1.
      if (local == 1 && localPortGuid && !obs.nodes[current].isSwitch)
        obs.nodes[current].portGuid = localPortGuid;
      if (remote == 1 && peerPortGuid && kind != 'S' && peer != ir::None && !obs.nodes[peer].portGuid)
        obs.nodes[peer].portGuid = peerPortGuid;
      Link l;
      l.a = {current, uint32_t(local), 0};
      l.b = {peer, uint32_t(remote), 0};
      l.at = at;
      widthSpeed(s, l);
      r.addLink(l, line);
      continue;
    }
    // A node header: "Switch N "S-guid" # "desc" ...", "Ca N "H-guid" # "desc"", "Rt ...".
    size_t word = c.i;
    while (c.i < s.size() && std::isalpha((unsigned char)s[c.i]))
      ++c.i;
    std::string_view type = s.substr(word, c.i - word);
    if (c.i < s.size() && s[c.i] == '=')
      continue; // vendid=, devid=, sysimgguid=, switchguid=, caguid=, rtguid=
    bool isSwitch = type == "Switch";
    if (!isSwitch && type != "Ca" && type != "Hca" && type != "Rt") {
      malformed("expected a node record (Switch, Ca, Rt), a port line '[N] ...' or a key=value line", first);
      current = ir::None;
      continue;
    }
    uint64_t ports, guid;
    char kind;
    c.blanks();
    if (!c.number(ports) || ports == 0 || ports > 254) {
      malformed("expected the number of ports (1 to 254) after the node type", c.i);
      current = ir::None;
      continue;
    }
    c.blanks();
    size_t idCol = c.i;
    if (!c.nodeId(kind, guid) || guid >= FirstReservedKey || guid == 0) {
      malformed("expected the node id '\"S-<guid>\"' or '\"H-<guid>\"' (a GUID other than 0)", idCol);
      current = ir::None;
      continue;
    }
    std::string_view desc;
    size_t descCol = 0;
    std::string name;
    if (commentDescription(s.substr(c.i), desc, descCol))
      name = r.clean(desc, at, line);
    if (!headers.insert(guid).second) {
      Diagnostic *d = r.diags.report(DiagCode::E0183, obs.at(r.sm, r.diags, at, line, uint32_t(idCol), 20),
                                     "GUID 0x{:016x} has two node records", guid);
      uint32_t n = obs.findGuid(guid);
      if (n != ir::None)
        DiagEngine::note(d, {}, fmt::format("the first is '{}' at {}:{}", obs.strings.str(obs.nodes[n].name),
                                            obs.files[obs.nodes[n].at.file], obs.nodes[n].at.line));
      r.ok = false;
      current = ir::None;
      continue;
    }
    peers.erase(guid);
    uint32_t before = uint32_t(obs.nodes.size());
    current = r.addNode(name, guid, isSwitch, at, line);
    if (current < before)
      obs.nodes[current].at = at; // known as a peer so far: its record is where it is
    obs.nodes[current].ports = uint32_t(ports);
    ++records;
  }
  if (lines.error())
    return false;
  if (!lines.lastHadNewline() && lines.lineNo()) {
    r.diags.report(DiagCode::E0182, obs.at(r.sm, r.diags, {r.file, lines.lineNo()}, line, uint32_t(line.size())),
                   "the ibnetdiscover output ends in the middle of a line: the file is cut");
    r.ok = false;
  } else if (!peers.empty() && !r.full && !r.diags.tooManyErrors()) {
    // The earliest reference to a node without a record.
    uint64_t guid = 0;
    Where first{UINT32_MAX, UINT32_MAX};
    for (auto &kv : peers)
      if (kv.second.second.line < first.line)
        first = kv.second.second, guid = kv.second.first;
    uint32_t n = obs.findGuid(guid);
    Diagnostic *d = r.diags.report(DiagCode::E0182, obs.atLine(r.sm, r.diags, first),
                                   "{} node{} linked to but never listed (first: '{}', GUID 0x{:016x}): the "
                                   "ibnetdiscover output is cut",
                                   peers.size(), peers.size() == 1 ? " is" : "s are",
                                   n == ir::None ? "" : obs.strings.str(obs.nodes[n].name), guid);
    DiagEngine::note(d, {}, "ibnetdiscover lists every node it reaches; run it again and keep its whole output");
    r.ok = false;
  }
  if (!records && r.ok) {
    r.diags.report(DiagCode::E0180, {}, "'{}' holds no node record of ibnetdiscover output (nor LLDP)",
                   obs.files[r.file]);
    r.ok = false;
  }
  return r.ok;
}

} // namespace fabc::discovery
