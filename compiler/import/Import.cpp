// fabc import (Import.h): devices and their ports from the observed fabric, models
// recognized or declared, port speeds settled so that every link's ends agree, then the
// design's text (Write.cpp).
#include "diag/DiagCodes.h"
#include "import/ImportState.h"

#include "ast/HandLexer.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace fabc::import {
namespace {
using discovery::Observed;

// The lexer's own keyword list: a word it reads as a keyword cannot name a device.
bool isKeyword(std::string_view s) { return hand::isKeyword(s); }

// Lower-case alphanumeric words: "MF0;sw-01:MQM9700/U1" -> mf0 sw 01 mqm9700 u1.
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> r;
  std::string w;
  for (char c : s) {
    if (std::isalnum((unsigned char)c)) {
      w += char(std::tolower((unsigned char)c));
    } else if (!w.empty()) {
      r.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty())
    r.push_back(std::move(w));
  return r;
}

bool containsWords(const std::vector<std::string> &text, const std::vector<std::string> &what) {
  if (what.empty() || what.size() > text.size())
    return false;
  for (size_t i = 0; i + what.size() <= text.size(); ++i)
    if (std::equal(what.begin(), what.end(), text.begin() + i))
      return true;
  return false;
}

} // namespace

// The nominal per-lane rate of an InfiniBand signalling rate (ibnetdiscover's 4xNDR is
// 4 x 106.25 Gb/s on the wire, 400 Gb/s nominal).
double nominalLaneRate(double rate) {
  static const std::pair<double, double> table[] = {{2.5e9, 2.5e9},       {5e9, 5e9},         {10e9, 10e9},
                                                    {10.3125e9, 10e9},    {14.0625e9, 14e9},  {25.78125e9, 25e9},
                                                    {53.125e9, 50e9},     {106.25e9, 100e9},  {212.5e9, 200e9}};
  for (auto &t : table)
    if (rate == t.first)
      return t.second;
  return rate;
}

namespace {

// "MF0;sw-ib-01:MQM9700/U1" (the NodeDescription NVIDIA's managed switches report): the
// host name and the part number.
bool switchDescription(std::string_view d, std::string &host, std::string &part) {
  size_t semi = d.find(';'), colon = d.find(':', semi == std::string_view::npos ? 0 : semi);
  if (semi == std::string_view::npos || colon == std::string_view::npos || colon <= semi + 1)
    return false;
  host = std::string(d.substr(semi + 1, colon - semi - 1));
  size_t slash = d.find('/', colon);
  part = std::string(d.substr(colon + 1, (slash == std::string_view::npos ? d.size() : slash) - colon - 1));
  return true;
}

// An adapter's default NodeDescription ("MT4129 ConnectX7   Mellanox Technologies"):
// it names no host.
bool defaultCaDescription(std::string_view d) {
  return d.size() > 3 && d[0] == 'M' && d[1] == 'T' && std::isdigit((unsigned char)d[2]);
}

} // namespace

std::string identifier(std::string_view name) {
  std::string r;
  for (char c : name)
    r += std::isalnum((unsigned char)c) ? c : '_';
  while (!r.empty() && r.back() == '_') // a host name never ends with '-'
    r.pop_back();
  if (r.empty() || !std::isalpha((unsigned char)r[0]) || isKeyword(r))
    r.insert(0, "n");
  return cutIdentifier(std::move(r), 63);
}

// At most `max` characters, never ending with '_' (a host name never ends with '-').
std::string cutIdentifier(std::string r, size_t max) {
  if (r.size() > max)
    r.resize(max);
  while (r.size() > 1 && r.back() == '_')
    r.pop_back();
  return r;
}

std::string groupIdentifier(std::string_view name) {
  std::string r;
  for (char c : name)
    r += std::isalnum((unsigned char)c) || c == '_' ? c : '_';
  if (r.empty() || std::isdigit((unsigned char)r[0]))
    r.insert(0, "p");
  if (isKeyword(r))
    r += "_";
  return r;
}

// ---------------------------------------------------------------------------------------
// Devices and ports

uint32_t Importer::device(std::string raw, std::string full, bool isSwitch, bool ib, discovery::Where at) {
  Dev d;
  d.raw = std::move(raw);
  d.full = std::move(full);
  d.isSwitch = isSwitch;
  d.ib = ib;
  d.at = at;
  devs.push_back(std::move(d));
  return uint32_t(devs.size() - 1);
}

uint32_t Importer::port(uint32_t dev, const std::string &key, uint32_t number) {
  Dev &d = devs[dev];
  auto ins = d.byKey.try_emplace(key, uint32_t(d.ports.size()));
  if (ins.second) {
    Port p;
    p.name = key;
    p.number = number;
    d.ports.push_back(std::move(p));
  }
  return ins.first->second;
}

void Importer::collectDevices() {
  nodeDev.assign(obs.nodes.size(), None);
  caPort.assign(obs.nodes.size(), std::string());
  llvm::StringMap<uint32_t> hosts; // host name -> device, for HCAs and LLDP nodes
  llvm::StringMap<uint32_t> caOwner, caNext; // "device\nport" -> the HCA node, the next _hcaN
  uint64_t caRenamed = 0;
  for (uint32_t n = 0; n < obs.nodes.size(); ++n) {
    const discovery::Node &N = obs.nodes[n];
    std::string name(obs.strings.str(N.name));
    if (N.guid && N.isSwitch) {
      std::string host, part;
      if (!switchDescription(name, host, part))
        host = name;
      if (host.empty())
        host = fmt::format("switch-{:016x}", N.guid);
      uint32_t d = device(host, name, true, true, N.at);
      devs[d].guid = N.guid;
      devs[d].part = part;
      devs[d].ibPorts = N.ports;
      nodeDev[n] = d;
      continue;
    }
    if (N.guid) { // an HCA: "host port"
      std::string host, port;
      size_t sp = name.rfind(' ');
      if (!name.empty() && !defaultCaDescription(name) && sp != std::string::npos && sp > 0 && sp + 1 < name.size()) {
        host = name.substr(0, name.find_last_not_of(' ', sp) + 1);
        port = name.substr(sp + 1);
      } else {
        host = fmt::format("hca-{:016x}", N.guid);
        port = "hca0";
      }
      auto it = hosts.find(host);
      uint32_t d = it != hosts.end() ? it->second : device(host, host, false, true, N.at);
      hosts[host] = d;
      nodeDev[n] = d;
      // Two HCAs with one description (a copied node_desc): each keeps its own port,
      // the second "PORT_hca2", and so on, never merged into one.
      std::string k = fmt::format("{}\n{}", d, port);
      auto owner = caOwner.try_emplace(k, n);
      if (!owner.second) {
        uint32_t &next = caNext.try_emplace(k, 2).first->second;
        std::string alt;
        do
          alt = fmt::format("{}_hca{}", port, next++);
        while (!caOwner.try_emplace(fmt::format("{}\n{}", d, alt), n).second);
        if (caRenamed++ < 20) {
          Diagnostic *dg = diags.report(DiagCode::W0185, obs.atLine(sm, diags, N.at),
                                        "HCAs 0x{:016x} and 0x{:016x} both report '{}': this one is imported as port '{}'",
                                        N.guid, obs.nodes[owner.first->second].guid, name, alt);
          DiagEngine::note(dg, {}, "give each HCA its own description (node_desc: 'host port'), or rename the port in "
                                   "the design");
        }
        port = alt;
      }
      caPort[n] = port;
      continue;
    }
    // LLDP: one device per system name.
    auto it = hosts.find(name);
    uint32_t d = it != hosts.end() ? it->second : device(name, name, N.isSwitch, false, N.at);
    hosts[name] = d;
    devs[d].isSwitch |= N.isSwitch;
    if (N.descr && devs[d].descr.empty())
      devs[d].descr = std::string(obs.strings.str(N.descr));
    nodeDev[n] = d;
  }
  // The ends of every link.
  linkEnds.resize(obs.links.size());
  for (uint32_t k = 0; k < obs.links.size(); ++k) {
    const discovery::Link &L = obs.links[k];
    for (int side = 0; side < 2; ++side) {
      const discovery::End &e = side ? L.b : L.a;
      const discovery::Node &N = obs.nodes[e.node];
      uint32_t d = nodeDev[e.node];
      uint32_t p;
      if (N.guid && N.isSwitch) {
        p = port(d, fmt::format("{}", e.number), e.number);
      } else if (N.guid) {
        std::string key = caPort[e.node] + (e.number > 1 ? fmt::format("_{}", e.number) : "");
        p = port(d, key, 0);
        if (e.number <= 1)
          devs[d].ports[p].guid = N.guid;
      } else {
        p = port(d, std::string(obs.strings.str(e.name)), 0);
      }
      linkEnds[k][side] = {d, p};
    }
  }
  // An LLDP node whose ports are named like a switch's is one (the host a file was
  // taken on says nothing about itself).
  for (Dev &d : devs) {
    if (d.ib || d.isSwitch)
      continue;
    for (const Port &p : d.ports)
      if (p.name.rfind("swp", 0) == 0 || p.name.rfind("Ethernet", 0) == 0)
        d.isSwitch = true;
  }
}

// ---------------------------------------------------------------------------------------
// Names: identifiers, unique, the original kept where the host name differs.

void Importer::nameDevices() {
  // Unique as host names: identifiers that differ in case only would share one.
  auto key = [](std::string s) {
    for (char &c : s)
      c = char(std::tolower((unsigned char)c));
    return s;
  };
  llvm::StringMap<uint32_t> used;     // lower-case identifier -> device
  llvm::StringMap<uint32_t> nextSuffix; // lower-case identifier -> the suffix to try next
  constexpr unsigned Shown = 20;       // FAB-W0185 per collision, then one count
  uint64_t renamed = 0;
  for (uint32_t i = 0; i < devs.size(); ++i) {
    Dev &d = devs[i];
    std::string base = d.raw;
    // A fully qualified name: the host name is its first label.
    size_t dot = base.find('.');
    if (dot != std::string::npos && dot > 0 && !d.ib)
      base = base.substr(0, dot);
    std::string id = identifier(base);
    if (!used.try_emplace(key(id), i).second) {
      // The next suffix of this base, remembered: unmanaged switches all report one
      // NodeDescription, and probing from _2 each time is quadratic. The suffix goes
      // within the 63 characters (the base is cut to make room).
      uint32_t first = used[key(id)];
      uint32_t &k = nextSuffix.try_emplace(key(id), 2).first->second;
      std::string s;
      do {
        std::string suffix = fmt::format("_{}", k++);
        s = cutIdentifier(id, 63 - suffix.size()) + suffix;
      } while (!used.try_emplace(key(s), i).second);
      if (renamed++ < Shown) {
        Diagnostic *dg = diags.report(DiagCode::W0185, obs.atLine(sm, diags, d.at),
                                      "'{}' and '{}' both become '{}': this one is imported as '{}'", d.full,
                                      devs[first].full, id, s);
        DiagEngine::note(dg, {}, "give the devices distinct names (NodeDescription, system name), or rename it in the design");
      }
      id = s;
    }
    d.ident = id;
    std::string host;
    for (char c : id)
      host += c == '_' ? '-' : char(std::tolower((unsigned char)c));
    if (host != d.full)
      d.comment = d.full;
  }
  if (renamed > Shown)
    diags.report(DiagCode::W0185, {}, "{} more devices share a name with another and are imported with a suffix",
                 renamed - Shown);
}

// ---------------------------------------------------------------------------------------
// Models

// A catalog model that the device's description, part number or name names, and whose
// ports take the ports seen. Sets each port's group and index.
bool Importer::recognize(Dev &d) {
  if (!cat.F)
    return false;
  std::vector<std::string> text = words(d.part + " " + d.descr + " " + d.raw);
  const ir::Fabric &C = *cat.F;
  for (uint32_t m = 0; m < C.models.size(); ++m) {
    const ir::Model &M = C.models[m];
    if (M.ports.empty() || cat.fileOf[m].empty())
      continue;
    if (d.isSwitch != (M.kind == ir::ModelKind::Switch) || (!d.isSwitch && M.kind != ir::ModelKind::System))
      continue;
    if (d.isSwitch && (d.ib ? M.protocol != ir::Protocol::InfiniBand : M.protocol == ir::Protocol::InfiniBand))
      continue;
    bool named = containsWords(text, words(C.strings.str(M.name))) ||
                 (M.sku && containsWords(text, words(C.strings.str(M.sku))));
    if (!named)
      continue;
    uint32_t total = 0;
    for (const ir::PortGroup &g : M.ports)
      total += g.count;
    std::vector<std::pair<uint32_t, uint32_t>> at(d.ports.size()); // group, index
    bool fits = true;
    if (d.isSwitch && d.ib) {
      for (size_t i = 0; i < d.ports.size() && fits; ++i) {
        uint32_t k = d.ports[i].number - 1, g = 0;
        fits = d.ports[i].number >= 1 && k < total;
        while (fits && k >= M.ports[g].count)
          k -= M.ports[g++].count;
        at[i] = {g, k};
      }
    } else if (d.isSwitch) { // Cumulus swpN, SONiC EthernetN, on a one-group switch without breakout
      fits = M.ports.size() == 1;
      uint32_t lanes = M.ports[0].lanes;
      for (size_t i = 0; i < d.ports.size() && fits; ++i) {
        const std::string &n = d.ports[i].name;
        uint64_t v = 0;
        size_t digits = n.find_first_of("0123456789");
        fits = digits != std::string::npos && n.find_first_not_of("0123456789", digits) == std::string::npos &&
               n.size() - digits < 9;
        if (!fits)
          break;
        v = std::stoull(n.substr(digits));
        std::string prefix = n.substr(0, digits);
        if (prefix == "swp" && v >= 1 && v <= total)
          at[i] = {0, uint32_t(v - 1)};
        else if (prefix == "Ethernet" && lanes && v % lanes == 0 && v / lanes < total)
          at[i] = {0, uint32_t(v / lanes)};
        else
          fits = false;
      }
    } else { // a system: its ports in name order are the first group's
      std::vector<uint32_t> order(d.ports.size());
      for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
      std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return d.ports[a].name < d.ports[b].name; });
      fits = d.ports.size() <= M.ports[0].count;
      for (uint32_t k = 0; k < order.size() && fits; ++k)
        at[order[k]] = {0, k};
    }
    if (!fits)
      continue;
    for (size_t i = 0; i < d.ports.size(); ++i) {
      d.ports[i].group = at[i].first;
      d.ports[i].index = at[i].second;
      d.ports[i].speed = M.ports[at[i].first].speed;
    }
    d.catalogModel = m;
    return true;
  }
  return false;
}

// An undeclared model's port groups, from the port names: "cx3" is cx[3], "mlx5_0"
// mlx5_[0]; an InfiniBand switch's port N is p[N - 1].
void Importer::layOut(Dev &d) {
  if (d.isSwitch && d.ib) {
    d.groups.push_back({"p", std::max<uint32_t>(d.ibPorts, 1)});
    for (Port &p : d.ports) {
      p.group = 0;
      p.index = p.number - 1;
      d.groups[0].count = std::max(d.groups[0].count, p.number);
    }
    return;
  }
  std::map<std::string, std::vector<uint32_t>> byGroup; // group -> ports
  std::map<std::pair<std::string, uint32_t>, uint32_t> taken;
  uint32_t nextOther = 0;
  std::vector<std::pair<std::string, uint32_t>> where(d.ports.size());
  for (uint32_t i = 0; i < d.ports.size(); ++i) {
    const std::string &n = d.ports[i].name;
    size_t e = n.size();
    while (e > 0 && std::isdigit((unsigned char)n[e - 1]))
      --e;
    std::string g = groupIdentifier(n.substr(0, e));
    uint32_t idx = 0;
    if (e < n.size() && n.size() - e <= 4 && !(n[e] == '0' && n.size() - e > 1))
      idx = uint32_t(std::stoul(n.substr(e)));
    else
      g = groupIdentifier(n); // no index, or one too long to be a port number
    // Cumulus numbers its front panel from swp1: swpN is the switch's port N - 1, so
    // that the design names it swpN again (names::swpName).
    if (d.isSwitch && g == "swp" && e == 3 && idx >= 1)
      --idx;
    if (!taken.emplace(std::make_pair(g, idx), i).second) {
      g = "other"; // two names with one place: the second goes to other[], at the next free index
      while (!taken.emplace(std::make_pair(g, nextOther), i).second)
        ++nextOther;
      idx = nextOther++;
    }
    where[i] = {g, idx};
  }
  std::map<std::string, uint32_t> counts;
  for (auto &w : where)
    counts[w.first] = std::max(counts[w.first], w.second + 1);
  std::map<std::string, uint32_t> gid;
  for (auto &c : counts) {
    gid[c.first] = uint32_t(d.groups.size());
    d.groups.push_back({c.first, c.second});
  }
  for (uint32_t i = 0; i < d.ports.size(); ++i) {
    d.ports[i].group = gid[where[i].first];
    d.ports[i].index = where[i].second;
  }
}

} // namespace fabc::import
