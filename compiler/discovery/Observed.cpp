// The observed-links model and the entry point that detects a discovery file's format.
#include "diag/DiagCodes.h"
#include "discovery/Observed.h"

#include "discovery/LineReader.h"
#include "diag/Diag.h"

#include <cctype>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc::discovery {

std::string hostKey(std::string_view name) {
  std::string h(name.substr(0, name.find('.')));
  for (char &c : h)
    c = char(std::tolower((unsigned char)c));
  return h;
}

const char *formatName(Format f) {
  switch (f) {
  case Format::Ibnetdiscover: return "ibnetdiscover";
  case Format::LldpJson: return "lldpctl json";
  case Format::SonicLldpTable: return "SONiC show lldp table";
  }
  return "?";
}

uint32_t Observed::nodeByGuid(uint64_t guid, std::string_view name, bool isSwitch, Where at, bool *clash) {
  auto it = byGuid_.find(guid);
  if (it != byGuid_.end()) {
    Node &n = nodes[it->second];
    if (!name.empty()) {
      if (n.name == 0) {
        n.name = strings.intern(name);
      } else if (strings.str(n.name) != name && clash) {
        *clash = true;
      }
    }
    n.isSwitch |= isSwitch;
    return it->second;
  }
  Node n;
  n.name = strings.intern(name);
  n.guid = guid;
  n.isSwitch = isSwitch;
  n.at = at;
  nodes.push_back(n);
  byGuid_[guid] = uint32_t(nodes.size() - 1);
  return uint32_t(nodes.size() - 1);
}

uint32_t Observed::nodeByName(std::string_view name, Where at) {
  auto r = byName_.try_emplace(name, uint32_t(nodes.size()));
  if (r.second) {
    Node n;
    n.name = strings.intern(name);
    n.at = at;
    nodes.push_back(n);
  }
  return r.first->second;
}

uint32_t Observed::linkAt(const End &e) const {
  auto it = byEnd_.find(key(e));
  return it == byEnd_.end() ? ir::None : it->second;
}

uint32_t Observed::link(const Link &l, uint32_t *other) {
  uint32_t la = linkAt(l.a), lb = linkAt(l.b);
  auto same = [&](const End &x, const End &y) { return key(x) == key(y); };
  for (uint32_t k : {la, lb}) {
    if (k == ir::None)
      continue;
    const Link &o = links[k];
    bool match = (same(o.a, l.a) && same(o.b, l.b)) || (same(o.a, l.b) && same(o.b, l.a));
    if (!match) {
      if (other)
        *other = k;
      return ir::None;
    }
  }
  if (la != ir::None) { // the second sighting, from the other end
    Link &o = links[la];
    o.confirmed = true;
    if (!o.width)
      o.width = l.width;
    if (!o.laneRate) {
      o.laneRate = l.laneRate;
      o.sdr = l.sdr;
    }
    return la;
  }
  links.push_back(l);
  uint32_t id = uint32_t(links.size() - 1);
  byEnd_[key(l.a)] = id;
  byEnd_[key(l.b)] = id;
  return id;
}

SourceRange Observed::at(SourceManager &sm, const DiagEngine &diags, Where w, std::string_view lineText, uint32_t col,
                         uint32_t len) const {
  if (w.file == UINT32_MAX || diags.tooManyErrors())
    return {};
  // A caret under a megabyte-long line helps nobody: keep a prefix.
  std::string text(lineText.substr(0, 400));
  uint32_t f = sm.addLine(files[w.file], w.line, std::move(text));
  return {{f, std::min<uint32_t>(col, uint32_t(std::min<size_t>(lineText.size(), 400)))}, std::max(len, 1u)};
}

SourceRange Observed::atLine(SourceManager &sm, const DiagEngine &diags, Where w) const {
  if (w.file == UINT32_MAX || w.file >= files.size() || diags.tooManyErrors())
    return {};
  return at(sm, diags, w, lineText(w));
}

std::string Observed::lineText(Where w) const {
  constexpr uint64_t Step = 4096;
  std::string line;
  int fd = ::open(files[w.file].c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || w.line == 0)
    return line;
  if (lineIndex_.size() < files.size())
    lineIndex_.resize(files.size());
  std::vector<LineMark> &idx = lineIndex_[w.file];
  std::vector<char> buf(1 << 16);
  if (idx.empty()) {
    idx.push_back({1, 0});
    uint64_t base = 0;
    uint32_t lineNo = 1;
    ssize_t n;
    while ((n = ::read(fd, buf.data(), buf.size())) > 0) {
      for (const char *p = buf.data(), *e = p + n; (p = static_cast<const char *>(std::memchr(p, '\n', size_t(e - p))));) {
        uint64_t start = base + uint64_t(++p - buf.data());
        if (++lineNo == 0)
          break; // past 2^32 lines: later lines keep the last mark
        if (start - idx.back().offset >= Step)
          idx.push_back({lineNo, start});
      }
      base += uint64_t(n);
    }
  }
  // From the last mark at or before the line, to the line's start: under Step bytes.
  auto mark = std::upper_bound(idx.begin(), idx.end(), w.line, [](uint32_t l, const LineMark &m) { return l < m.line; });
  uint64_t off = std::prev(mark)->offset;
  uint32_t at = std::prev(mark)->line;
  ssize_t n = ::pread(fd, buf.data(), Step + 401, off_t(off));
  size_t i = 0;
  while (n > 0 && at < w.line && i < size_t(n)) {
    const char *nl = static_cast<const char *>(std::memchr(buf.data() + i, '\n', size_t(n) - i));
    if (!nl)
      break;
    i = size_t(nl - buf.data()) + 1;
    ++at;
  }
  if (n > 0 && at == w.line) {
    line.assign(buf.data() + i, std::min<size_t>(size_t(n) - i, 400));
    if (line.size() < 400 && i + line.size() == size_t(n) && size_t(n) == Step + 401) { // cut by the read: again from the line
      ssize_t k = ::pread(fd, buf.data(), 400, off_t(off + i));
      line.assign(buf.data(), k > 0 ? size_t(k) : 0);
    }
    line.resize(std::min(line.find('\n'), line.size()));
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
  }
  ::close(fd);
  return line;
}

void Reader::addLink(const Link &l, std::string_view lineText) {
  if (full)
    return;
  if (limits.maxPorts && obs.links.size() * 2 >= limits.maxPorts) {
    diags.report(DiagCode::E0189, obs.at(sm, diags, l.at, lineText),
                 "the discovery lists more than {} ports, more than the design could explain", limits.maxPorts);
    full = true;
    ok = false;
    return;
  }
  uint32_t other = ir::None;
  if (obs.link(l, &other) != ir::None)
    return;
  const Link &o = obs.links[other];
  auto endName = [&](const End &e) {
    std::string s(obs.strings.str(obs.nodes[e.node].name));
    if (e.number)
      s += fmt::format(" port {}", e.number);
    else
      s += fmt::format(" {}", obs.strings.str(e.name));
    return s;
  };
  auto same = [](const End &x, const End &y) { return x.node == y.node && x.number == y.number && x.name == y.name; };
  // x: the end of `l` that `o` holds; `o` links it to y, `l` to another.
  bool atA = obs.linkAt(l.a) == other;
  const End &x = atA ? l.a : l.b, &mine = atA ? l.b : l.a;
  const End &y = same(o.a, x) ? o.b : o.a;
  Diagnostic *d = diags.report(DiagCode::E0184, obs.at(sm, diags, l.at, lineText),
                               "'{}' is reported linked to '{}', but also to '{}'", endName(x), endName(mine),
                               endName(y));
  DiagEngine::note(d, {}, fmt::format("first reported at {}:{}", obs.files[o.at.file], o.at.line));
  ok = false;
}

uint32_t Reader::addNode(std::string_view name, uint64_t guid, bool isSwitch, Where at, std::string_view lineText) {
  uint64_t maxNodes = limits.maxNodes ? limits.maxNodes : limits.maxPorts;
  if (maxNodes && obs.nodes.size() >= maxNodes && !full) {
    diags.report(DiagCode::E0189, obs.at(sm, diags, at, lineText),
                 "the discovery lists more than {} nodes, more than {} can hold", maxNodes,
                 limits.maxNodes ? "an import" : "the design could explain");
    full = true;
    ok = false;
  }
  bool clash = false;
  uint32_t n = obs.nodeByGuid(guid, name, isSwitch, at, &clash);
  if (clash && clashReported.insert(guid).second) { // once a GUID: every peer line repeats it
    Diagnostic *d = diags.report(DiagCode::E0183, obs.at(sm, diags, at, lineText),
                                 "GUID 0x{:016x} is reported for '{}' and for '{}'", guid, name,
                                 obs.strings.str(obs.nodes[n].name));
    DiagEngine::note(d, {}, fmt::format("first reported at {}:{}", obs.files[obs.nodes[n].at.file],
                                        obs.nodes[n].at.line));
  }
  ok &= !clash;
  return n;
}

std::string Reader::clean(std::string_view s, Where at, std::string_view lineText) {
  std::string r;
  r.reserve(s.size());
  bool bad = false;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = (unsigned char)s[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool valid = n && i + n <= s.size() && (n == 1 || c >= 0xC2);
    for (size_t k = 1; valid && k < n; ++k)
      valid = ((unsigned char)s[i + k] & 0xC0) == 0x80;
    if (valid && c < 0x20)
      valid = false; // control characters: escaped too
    if (!valid) {
      r += fmt::format("\\x{:02x}", c);
      bad |= c >= 0x80;
      ++i;
      continue;
    }
    r.append(s.substr(i, n));
    i += n;
  }
  if (bad && !warnedUtf8) {
    warnedUtf8 = true;
    Diagnostic *d = diags.report(DiagCode::W0183, obs.at(sm, diags, at, lineText),
                                 "name is not valid UTF-8: read as '{}'", r);
    DiagEngine::note(d, {}, "further invalid names in this file are escaped the same way, without a warning");
  }
  return r;
}

bool LineReader::next(std::string &line) {
  line.clear();
  tooLong_ = false;
  bool any = false;
  for (;;) {
    if (pos_ == end_) {
      if (eof_)
        break;
      end_ = std::fread(buf_, 1, sizeof buf_, in_);
      pos_ = 0;
      if (end_ == 0) {
        eof_ = true;
        error_ = std::ferror(in_) != 0;
        break;
      }
    }
    any = true;
    const char *start = buf_ + pos_;
    const char *nl = static_cast<const char *>(std::memchr(start, '\n', end_ - pos_));
    size_t n = nl ? size_t(nl - start) : end_ - pos_;
    if (line.size() + n > maxLine_) {
      tooLong_ = true;
      n = std::min(n, maxLine_ > line.size() ? maxLine_ - line.size() : 0);
      line.append(start, n);
      if (!nl) {
        pos_ = end_;
        continue;
      }
    } else {
      line.append(start, n);
    }
    if (nl) {
      pos_ = size_t(nl - buf_) + 1;
      ++lineNo_;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      lastHadNewline_ = true;
      return true;
    }
    pos_ = end_;
  }
  if (!any)
    return false;
  ++lineNo_;
  lastHadNewline_ = false;
  return true;
}

namespace {
std::string stem(const std::string &path) {
  size_t s = path.rfind('/');
  std::string base = s == std::string::npos ? path : path.substr(s + 1);
  size_t dot = base.find('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}
} // namespace

bool readDiscovery(const std::string &path, const std::string &localName, const ReadLimits &limits, Observed &obs,
                   SourceManager &sm, DiagEngine &diags) {
  struct stat st;
  std::FILE *in = nullptr;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || !(in = std::fopen(path.c_str(), "rb"))) {
    diags.report(DiagCode::E0180, {}, "cannot read discovery file '{}': {}", path,
                 errno && !(::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) ? std::strerror(errno)
                                                                                      : "not a regular file");
    return false;
  }
  // The format, from the first character that is not blank: '{' or '[' is JSON; a
  // "LocalPort" header or "Capability codes" SONiC's table; else ibnetdiscover text.
  char head[4096];
  size_t n = std::fread(head, 1, sizeof head, in);
  std::string_view h(head, n);
  size_t first = h.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    std::fclose(in);
    diags.report(DiagCode::E0180, {}, "discovery file '{}' is empty", path);
    return false;
  }
  Format fmt = Format::Ibnetdiscover;
  if (h[first] == '{' || h[first] == '[')
    fmt = Format::LldpJson;
  else if (h.find("LocalPort") != std::string_view::npos || h.find("Capability codes") != std::string_view::npos)
    fmt = Format::SonicLldpTable;
  obs.files.push_back(path);
  obs.formats.push_back(fmt);
  Reader r{obs, sm, diags, limits, uint32_t(obs.files.size() - 1)};
  std::string local = localName.empty() ? stem(path) : localName;
  bool ok;
  if (fmt == Format::LldpJson) {
    if (uint64_t(st.st_size) > limits.maxJsonBytes) {
      std::fclose(in);
      diags.report(DiagCode::E0189, {}, "LLDP file '{}' is {} bytes, more than {} (one host's neighbours are a few kB)",
                   path, uint64_t(st.st_size), limits.maxJsonBytes);
      return false;
    }
    std::string text(h);
    char buf[65536];
    size_t k;
    while ((k = std::fread(buf, 1, sizeof buf, in)) > 0)
      text.append(buf, k);
    ok = parseLldpJson(text, local, r);
  } else {
    std::rewind(in);
    ok = fmt == Format::Ibnetdiscover ? parseIbnetdiscover(in, r) : parseSonicLldpTable(in, local, r);
  }
  bool ioError = std::ferror(in) != 0;
  std::fclose(in);
  if (ioError) {
    diags.report(DiagCode::E0180, {}, "error reading discovery file '{}'", path);
    return false;
  }
  return ok && r.ok;
}

} // namespace fabc::discovery
