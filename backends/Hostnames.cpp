#include "backends/Hostnames.h"

#include "diag/Diag.h"
#include "passes/Addressing.h"

#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace fabc::names {

static void appendLabel(std::string_view path, std::string &h) {
  for (char c : path) {
    if (c == '[' || c == ']')
      continue;
    h += c == '.' || c == '_' ? '-' : char(std::tolower((unsigned char)c));
  }
}

std::string label(std::string_view path) {
  std::string h;
  h.reserve(path.size());
  appendLabel(path, h);
  return h;
}

// The switch-config backends' rule, so that a switch has one name in every output.
std::string hostName(const ir::Fabric &F, uint32_t dev) { return passes::hostName(F, dev); }

std::string portLabel(const ir::Fabric &F, uint32_t port) {
  uint32_t idx = 0;
  uint32_t g = F.portGroup(port, &idx);
  std::string h;
  appendLabel(F.strings.str(F.modelOf(F.portDevice[port]).ports[g].name), h);
  return h + std::to_string(idx);
}

bool hostNames(const ir::Fabric &F, DiagEngine &diags, const std::vector<uint32_t> &devs,
               std::vector<std::string> &out) {
  out.clear();
  out.reserve(devs.size());
  llvm::StringMap<uint32_t> seen;
  unsigned reported = 0;
  for (uint32_t d : devs) {
    out.push_back(hostName(F, d));
    const std::string &h = out.back();
    bool valid = !h.empty() && h.size() <= 63 && h.front() != '-' && h.back() != '-';
    if (!valid) {
      if (reported++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::E0135, {F.devLoc[d], 1},
                                      "'{}' gives the host name '{}', which is not a valid RFC 1123 host name",
                                      F.deviceName(d), h);
        DiagEngine::note(dg, {}, "host names are 1 to 63 letters, digits and '-', neither starting nor ending with '-'");
      }
      continue;
    }
    auto ins = seen.try_emplace(h, d);
    if (!ins.second && reported++ < 20) {
      Diagnostic *dg = diags.report(DiagCode::E0135, {F.devLoc[d], 1}, "'{}' and '{}' both get the host name '{}'",
                                    F.deviceName(ins.first->second), F.deviceName(d), h);
      DiagEngine::note(dg, {F.devLoc[ins.first->second], 1}, "the first one is declared here");
    }
  }
  return reported == 0;
}

std::string hostlist(std::vector<std::string> hosts) {
  // (prefix, width) -> numbers; width 0: unpadded numbers.
  std::map<std::pair<std::string, size_t>, std::vector<uint64_t>> ranged;
  std::vector<std::string> plain;
  for (std::string &h : hosts) {
    size_t i = h.size();
    while (i > 0 && std::isdigit((unsigned char)h[i - 1]))
      --i;
    size_t digits = h.size() - i;
    if (!digits || digits > 18 || i == 0) {
      plain.push_back(std::move(h));
      continue;
    }
    size_t width = digits > 1 && h[i] == '0' ? digits : 0;
    ranged[{h.substr(0, i), width}].push_back(std::stoull(h.substr(i)));
  }
  std::vector<std::string> parts;
  for (auto &kv : ranged) {
    std::vector<uint64_t> &v = kv.second;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    auto num = [&](uint64_t x) {
      std::string s = std::to_string(x);
      if (s.size() < kv.first.second)
        s.insert(0, kv.first.second - s.size(), '0');
      return s;
    };
    if (v.size() == 1) {
      parts.push_back(kv.first.first + num(v[0]));
      continue;
    }
    std::string r = kv.first.first + "[";
    for (size_t a = 0; a < v.size();) {
      size_t b = a;
      while (b + 1 < v.size() && v[b + 1] == v[b] + 1)
        ++b;
      if (a)
        r += ',';
      r += num(v[a]);
      if (b > a)
        r += '-' + num(v[b]);
      a = b + 1;
    }
    parts.push_back(r + "]");
  }
  for (std::string &p : plain)
    parts.push_back(std::move(p));
  std::sort(parts.begin(), parts.end());
  parts.erase(std::unique(parts.begin(), parts.end()), parts.end());
  std::string out;
  for (const std::string &p : parts)
    out += (out.empty() ? "" : ",") + p;
  return out;
}

} // namespace fabc::names
