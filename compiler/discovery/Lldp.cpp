// LLDP neighbour tables, as the hosts that run an LLDP agent print them:
//
// - lldpd's `lldpctl -f json` (an "interface" object, or a list of one-key objects when
//   there are several) and `-f json0` (lists everywhere, "name" inside); several
//   documents in one file are read in turn, and a `lldpcli -f json show chassis`
//   document ("local-chassis") names the host the file was taken on;
// - SONiC's `show lldp table`: a header line "LocalPort RemoteDevice RemotePortID ...",
//   a dashed rule, one row per neighbour, a rule and "Total entries: N".
//
// Neither neighbour table names its own host: it is the "local-chassis" document, else
// the name given with the file (default: the file name up to its first '.').
#include "diag/DiagCodes.h"
#include "discovery/LineReader.h"
#include "discovery/Observed.h"
#include "ir/Address.h"

#include "diag/Diag.h"
#include "support/JsonRead.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

namespace fabc::discovery {
namespace {
namespace json = llvm::json;

struct Text {
  std::string_view s;
  std::vector<uint32_t> lineStarts;
  explicit Text(std::string_view t) : s(t) {
    lineStarts.push_back(0);
    for (uint32_t i = 0; i < s.size(); ++i)
      if (s[i] == '\n')
        lineStarts.push_back(i + 1);
  }
  uint32_t lineOf(size_t off) const {
    return uint32_t(std::upper_bound(lineStarts.begin(), lineStarts.end(), uint32_t(off)) - lineStarts.begin());
  }
  // From the line index, not a search: a document on one line holds every neighbour.
  std::string_view line(uint32_t n) const {
    size_t b = lineStarts[n - 1];
    size_t e = n < lineStarts.size() ? lineStarts[n] - 1 : s.size();
    return s.substr(b, e - b);
  }
};

// The end of the JSON value starting at `i` (strings and nesting respected), or npos
// when the text ends first.
size_t valueEnd(std::string_view s, size_t i) {
  int depth = 0;
  bool str = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (str) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        str = false;
      continue;
    }
    if (c == '"')
      str = true;
    else if (c == '{' || c == '[')
      ++depth;
    else if ((c == '}' || c == ']') && --depth == 0)
      return i + 1;
  }
  return std::string_view::npos;
}

// Fetches a string that lldpctl writes as "k": "v" (json) or "k": [{"value": "v"}] (json0).
std::string str(const json::Value *v) {
  if (!v)
    return {};
  if (auto s = v->getAsString())
    return s->str();
  if (const json::Array *a = v->getAsArray())
    if (!a->empty())
      if (const json::Object *o = (*a)[0].getAsObject())
        return str(o->get("value"));
  if (const json::Object *o = v->getAsObject())
    return str(o->get("value"));
  return {};
}
// json0 wraps every object in a one-element list.
const json::Object *obj(const json::Value *v) {
  if (!v)
    return nullptr;
  if (const json::Array *a = v->getAsArray())
    return a->empty() ? nullptr : (*a)[0].getAsObject();
  return v->getAsObject();
}

struct Neighbour {
  std::string local, chassis, port;
  std::string descr;   // the chassis description ("Cumulus Linux ... running on Nvidia SN5600")
  bool bridge = false; // the chassis says it bridges or routes: a switch
  uint64_t mac = 0;    // the port ID when it is a MAC (lldpd's portidsubtype macaddress), 0: none
};

// The fields of a chassis: {"NAME": {...}} (json) or the object itself (json0).
const json::Object *chassisFields(const json::Object *c) {
  if (c && c->size() == 1 && !c->get("id") && !c->get("name"))
    if (const json::Object *inner = c->begin()->second.getAsObject())
      return inner;
  return c;
}

// "capability": [{"type": "Bridge", "enabled": true}, ...] (json0 wraps values in lists).
bool bridges(const json::Object *c) {
  const json::Array *caps = c ? c->getArray("capability") : nullptr;
  if (!caps)
    return false;
  for (const json::Value &v : *caps) {
    const json::Object *o = v.getAsObject();
    if (!o)
      continue;
    std::string type = str(o->get("type"));
    const json::Value *en = o->get("enabled");
    bool on = en && ((en->getAsBoolean() && *en->getAsBoolean()) || str(en) == "true");
    if (on && (type == "Bridge" || type == "Router"))
      return true;
  }
  return false;
}

// A chassis: {"NAME": {...}} (json), {"id": ..., "name": [...]} (json0), or {"id": ...}
// without a name (then its id value).
std::string chassisName(const json::Object *c) {
  if (!c)
    return {};
  if (const json::Value *n = c->get("name"))
    return str(n);
  if (c->size() == 1 && !c->get("id"))
    return c->begin()->first.str();
  if (const json::Object *id = obj(c->get("id")))
    return str(id->get("value"));
  return {};
}

std::string portName(const json::Object *p) {
  if (!p)
    return {};
  const json::Object *id = obj(p->get("id"));
  std::string type = id ? str(id->get("type")) : "";
  if (id && (type == "ifname" || type == "local"))
    return str(id->get("value"));
  std::string d = str(p->get("descr"));
  return d.empty() && id ? str(id->get("value")) : d;
}

void neighbour(const std::string &local, const json::Object *n, std::vector<Neighbour> &out) {
  if (!n)
    return;
  const json::Object *c = obj(n->get("chassis"));
  const json::Object *fields = chassisFields(c);
  const json::Object *port = obj(n->get("port"));
  out.push_back({local, chassisName(c), portName(port), fields ? str(fields->get("descr")) : "", bridges(fields)});
  const json::Object *id = port ? obj(port->get("id")) : nullptr;
  uint64_t mac;
  if (id && str(id->get("type")) == "mac" && ir::parseMac(str(id->get("value")), mac))
    out.back().mac = mac;
}

// The interfaces of an "lldp" object: {"IF": {...}}, [{"IF": {...}}, ...] (json), or
// [{"name": "IF", ...}, ...] (json0).
void interfaces(const json::Value *v, std::vector<Neighbour> &out) {
  if (!v)
    return;
  auto one = [&](const json::Object &o) {
    if (const json::Value *name = o.get("name"); name && name->getAsString()) {
      neighbour(name->getAsString()->str(), &o, out);
      return;
    }
    for (const auto &kv : o)
      neighbour(kv.first.str(), kv.second.getAsObject(), out);
  };
  if (const json::Object *o = v->getAsObject())
    one(*o);
  else if (const json::Array *a = v->getAsArray())
    for (const json::Value &e : *a)
      if (const json::Object *o = e.getAsObject())
        one(*o);
}

// Invalid UTF-8 bytes become U+FFFD so that the JSON parser takes the document; the
// first is reported (the line, in the file as it is).
std::string validUtf8(std::string_view s, size_t &firstBad) {
  std::string r;
  r.reserve(s.size());
  firstBad = std::string_view::npos;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n && i + n <= s.size() && (n == 1 || c >= 0xC2);
    for (size_t k = 1; ok && k < n; ++k)
      ok = ((unsigned char)s[i + k] & 0xC0) == 0x80;
    if (!ok) {
      if (firstBad == std::string_view::npos)
        firstBad = i;
      r += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    r.append(s.substr(i, n));
    i += n;
  }
  return r;
}

// Adds host--neighbour links: the local end by its interface name, the far end by
// its system name and port name.
void addNeighbours(Reader &r, const std::string &host, const std::vector<Neighbour> &ns, const Text &t,
                   size_t from, size_t to) {
  Observed &obs = r.obs;
  size_t cursor = from;
  // Where the interface is written: its name as a JSON string, after the previous one,
  // within its document. A name written with an escape is not found as it reads: the
  // search stops at the first miss (then each line is the last one found), so the
  // document is scanned once, not once per neighbour. Names past 256 bytes are not
  // searched (a search costs the name's length at each candidate).
  bool searching = true;
  std::string quoted;
  for (const Neighbour &n : ns) {
    size_t off = std::string_view::npos;
    if (searching && n.local.size() <= 256 && cursor < to) {
      quoted = "\"" + n.local + "\"";
      off = t.s.substr(0, to).find(quoted, cursor);
      searching = off != std::string_view::npos;
    }
    if (off == std::string_view::npos)
      off = std::min(cursor, t.s.size());
    else
      cursor = off + 1;
    uint32_t line = t.lineOf(off);
    Where at{r.file, line};
    std::string_view text = t.line(line);
    if (n.local.empty() || n.chassis.empty() || n.port.empty()) {
      r.diags.report(DiagCode::E0181, obs.at(r.sm, r.diags, at, text, uint32_t(off - t.lineStarts[line - 1])),
                     "LLDP neighbour without {}", n.local.empty() ? "a local interface name"
                                                  : n.chassis.empty() ? "a system name (chassis)"
                                                                      : "a port name");
      r.ok = false;
      continue;
    }
    uint32_t self = obs.nodeByName(r.clean(host, at, text), at);
    obs.nodes[self].local = true;
    uint32_t peer = obs.nodeByName(r.clean(n.chassis, at, text), at);
    obs.nodes[peer].isSwitch |= n.bridge;
    if (!n.descr.empty() && !obs.nodes[peer].descr)
      obs.nodes[peer].descr = obs.strings.intern(r.clean(n.descr, at, text));
    Link l;
    l.a = {self, 0, obs.strings.intern(r.clean(n.local, at, text))};
    l.b = {peer, 0, obs.strings.intern(r.clean(n.port, at, text))};
    l.at = at;
    r.addLink(l, text);
    if (n.mac)
      obs.setMac(l.b, n.mac);
  }
}

} // namespace

bool parseLldpJson(std::string_view raw, const std::string &localName, Reader &r) {
  size_t bad;
  std::string clean = validUtf8(raw, bad);
  Text t(raw);
  if (bad != std::string_view::npos) {
    uint32_t line = t.lineOf(bad);
    r.diags.report(DiagCode::W0183,
                   r.obs.at(r.sm, r.diags, {r.file, line}, t.line(line), uint32_t(bad - t.lineStarts[line - 1])),
                   "LLDP data is not valid UTF-8: invalid bytes read as U+FFFD");
  }
  std::string host = localName, localDescr;
  bool localBridge = false;
  struct Doc {
    std::vector<Neighbour> ns;
    size_t begin, end; // in `clean`, as close to `raw` as the invalid bytes allow
  };
  std::vector<Doc> docs;
  size_t i = 0, found = 0;
  while (true) {
    i = clean.find_first_not_of(" \t\r\n", i);
    if (i == std::string::npos)
      break;
    size_t end = clean[i] == '{' || clean[i] == '[' ? valueEnd(clean, i) : i + 1;
    size_t stop = end == std::string::npos ? clean.size() : end;
    JsonError jerr;
    std::optional<json::Value> v;
    if (end != std::string::npos)
      v = parseJson(llvm::StringRef(clean).substr(i, stop - i), r.limits.json, jerr);
    if (!v) {
      // A syntax error, a document nested too deep or too large for memory (the
      // offset relative to this document), or the text ends inside it.
      bool truncated = end == std::string::npos;
      std::string msg = truncated ? "the file ends inside a JSON document" : jerr.message;
      size_t at = truncated ? clean.size() : i + jerr.offset;
      at = std::min(at, raw.size() ? raw.size() - 1 : 0);
      // Offsets in `clean` and `raw` differ only past an invalid byte: close enough.
      uint32_t line = t.lineOf(std::min(at, raw.size()));
      r.diags.report(truncated ? DiagCode::E0182 : DiagCode::E0181,
                     r.obs.at(r.sm, r.diags, {r.file, line}, t.line(line),
                              uint32_t(std::min<size_t>(at, raw.size()) - t.lineStarts[line - 1])),
                     truncated ? "the LLDP JSON is cut: {}" : "malformed LLDP JSON: {}", msg);
      r.ok = false;
      return false;
    }
    const json::Object *root = v->getAsObject();
    const json::Object *local = root ? obj(root->get("local-chassis")) : nullptr;
    if (local) {
      const json::Object *c = obj(local->get("chassis"));
      std::string name = chassisName(c);
      if (!name.empty())
        host = name;
      localDescr = str(chassisFields(c) ? chassisFields(c)->get("descr") : nullptr);
      localBridge = bridges(chassisFields(c));
    } else if (const json::Value *lldp = root ? root->get("lldp") : nullptr) {
      std::vector<Neighbour> ns;
      const json::Object *l = obj(lldp);
      if (l)
        interfaces(l->get("interface"), ns);
      docs.push_back({std::move(ns), i, end});
      ++found;
    } else {
      uint32_t line = t.lineOf(std::min(i, raw.size()));
      r.diags.report(DiagCode::E0181, r.obs.at(r.sm, r.diags, {r.file, line}, t.line(line)),
                     "a JSON document without \"lldp\" or \"local-chassis\": not lldpctl -f json output");
      r.ok = false;
    }
    i = end;
  }
  if (!found && r.ok) {
    r.diags.report(DiagCode::E0180, {}, "'{}' holds no LLDP neighbour table", r.obs.files[r.file]);
    return r.ok = false;
  }
  for (Doc &d : docs)
    addNeighbours(r, host, d.ns, t, d.begin, std::min(d.end, raw.size()));
  // What the host says of itself (lldpcli show chassis), on its node.
  for (discovery::Node &N : r.obs.nodes) {
    if (!N.local || r.obs.strings.str(N.name) != host)
      continue;
    N.isSwitch |= localBridge;
    if (!localDescr.empty() && !N.descr)
      N.descr = r.obs.strings.intern(localDescr);
  }
  return r.ok;
}

bool parseSonicLldpTable(std::FILE *in, const std::string &localName, Reader &r) {
  LineReader lines(in, r.limits.maxLineBytes);
  std::string line;
  Observed &obs = r.obs;
  bool header = false, body = false, total = false;
  size_t rows = 0;
  while (lines.next(line)) {
    if (r.full || r.diags.tooManyErrors())
      break;
    Where at{r.file, lines.lineNo()};
    std::string_view s = line;
    size_t first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos || lines.tooLong())
      continue;
    if (!header) {
      header = s.compare(first, 9, "LocalPort") == 0;
      continue;
    }
    if (s[first] == '-') {
      body = !body && !rows;
      continue;
    }
    if (s.compare(first, 14, "Total entries:") == 0) {
      total = true;
      unsigned long n = std::strtoul(line.c_str() + first + 14, nullptr, 10);
      if (n != rows) {
        r.diags.report(DiagCode::E0182, obs.at(r.sm, r.diags, at, line, uint32_t(first)),
                       "the table says {} entries but lists {}: the output is cut", n, rows);
        r.ok = false;
      }
      break;
    }
    // LocalPort RemoteDevice RemotePortID Capability RemotePortDescr: whitespace-separated,
    // the description last (it may hold spaces).
    std::vector<std::pair<std::string_view, size_t>> cols;
    for (size_t i = first; i < s.size();) {
      size_t j = s.find_first_of(" \t", i);
      if (j == std::string_view::npos)
        j = s.size();
      cols.push_back({s.substr(i, j - i), i});
      i = s.find_first_not_of(" \t", j);
      if (i == std::string_view::npos)
        break;
    }
    if (cols.size() < 3) {
      r.diags.report(DiagCode::E0181, obs.at(r.sm, r.diags, at, line, uint32_t(first)),
                     "malformed 'show lldp table' row: expected LocalPort RemoteDevice RemotePortID");
      r.ok = false;
      continue;
    }
    ++rows;
    uint32_t self = obs.nodeByName(r.clean(localName, at, line), at);
    obs.nodes[self].local = true;
    uint32_t peer = obs.nodeByName(r.clean(cols[1].first, at, line), at);
    obs.nodes[self].isSwitch = true; // the table is SONiC's own
    if (cols.size() >= 4 && cols[3].first.find_first_of("BR") != std::string_view::npos)
      obs.nodes[peer].isSwitch = true;
    Link l;
    l.a = {self, 0, obs.strings.intern(r.clean(cols[0].first, at, line))};
    l.b = {peer, 0, obs.strings.intern(r.clean(cols[2].first, at, line))};
    l.at = at;
    r.addLink(l, line);
    uint64_t mac; // RemotePortID: a host's MAC when its lldpd announces MAC port IDs
    if (ir::parseMac(cols[2].first, mac))
      obs.setMac(l.b, mac);
  }
  if (!header) {
    r.diags.report(DiagCode::E0180, {}, "'{}' holds no 'show lldp table' header (LocalPort RemoteDevice ...)",
                   obs.files[r.file]);
    return r.ok = false;
  }
  if (!total && !r.full && !r.diags.tooManyErrors()) {
    r.diags.report(DiagCode::E0182, obs.at(r.sm, r.diags, {r.file, lines.lineNo()}, line, 0),
                   "the table ends without its 'Total entries' line: the output is cut");
    r.ok = false;
  }
  return r.ok;
}

} // namespace fabc::discovery
