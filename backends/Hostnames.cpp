#include "backends/Hostnames.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace fabc::names {

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
