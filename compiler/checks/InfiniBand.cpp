// The checks of the InfiniBand output (docs/backends.md#infiniband), and the fabric
// they hold for: which devices and ports are in it, their host names, and their
// NodeDescriptions (64 bytes in the protocol: cut, with a warning).
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "checks/HostNames.h"
#include "checks/InfiniBand.h"
#include "diag/Diag.h"
#include "ir/InfiniBand.h"
#include "passes/Passes.h"

#include <algorithm>
#include <cctype>

namespace fabc::checks {
namespace {
using ir::None;
namespace ib = ir::ib;

// NodeDescription is 64 bytes; ibsim keeps 63 and a NUL.
constexpr size_t MaxDesc = 63;

bool isIbPort(const ir::Fabric &F, uint32_t port) {
  uint32_t l = F.portLink[port];
  return l != None && ib::isLink(F, l);
}

// The engines opensm.conf.fragment may name: upstream OpenSM's tree engines and NVIDIA's
// adaptive-routing ones (MLNX_OFED and UFM's OpenSM; upstream 3.3 has no ar_*).
constexpr const char *Engines[] = {"ftree", "ar_ftree", "updn", "ar_updn", "dnup", "minhop"};

} // namespace

// OpenSM's routing_engine: policy infiniband's, checked, else NVIDIA's default on NVIDIA
// (Quantum) switches, adaptive routing on, and upstream's ftree (minhop on one tier) on
// others (docs/backends.md, opensm.conf.fragment).
bool ibRoutingEngine(const ir::Fabric &F, InfinibandSubnet &v, DiagEngine &diags, const std::string &where) {
  const ir::PolicyBlock *pb = F.policyBlock("infiniband");
  const ir::Setting *s = pb ? pb->get(F.strings, "routing_engine") : nullptr;
  if (!s) {
    bool nvidia = true;
    for (uint32_t d : v.switches) {
      std::string vendor(F.strings.str(F.modelOf(d).vendor));
      for (char &c : vendor)
        c = char(std::tolower((unsigned char)c));
      nvidia &= vendor == "nvidia" || vendor == "mellanox";
    }
    // ftree last: upstream OpenSM skips the ar_* engines it does not have ("cannot find or
    // setup routing engine") and would otherwise fall back to minhop.
    v.routingEngine = nvidia ? (v.topTier >= 2 ? "ar_ftree,ar_updn,ftree" : "ar_updn")
                             : v.topTier >= 2 ? "ftree" : "minhop";
    return true;
  }
  std::vector<std::string> names;
  if (s->type == ir::Setting::String) {
    std::string_view t = F.strings.str(s->str);
    size_t at = 0;
    do {
      size_t comma = std::min(t.find(',', at), t.size());
      std::string_view e = t.substr(at, comma - at);
      while (!e.empty() && e.front() == ' ')
        e.remove_prefix(1);
      while (!e.empty() && e.back() == ' ')
        e.remove_suffix(1);
      names.emplace_back(e);
      at = comma + 1;
    } while (at <= t.size());
  } else if (s->type == ir::Setting::StringList) {
    for (uint32_t e : s->strs)
      names.emplace_back(F.strings.str(e));
  }
  auto known = [](const std::string &e) {
    return std::find_if(std::begin(Engines), std::end(Engines), [&](const char *k) { return e == k; }) !=
           std::end(Engines);
  };
  auto bad = std::find_if(names.begin(), names.end(), [&](const std::string &e) { return !known(e); });
  if (names.empty() || bad != names.end()) {
    Diagnostic *d = diags.report(DiagCode::E0350, s->loc,
                                 names.empty() ? std::string("routing_engine must name OpenSM routing engines")
                                               : fmt::format("'{}' is not an OpenSM routing engine fabc knows", *bad));
    DiagEngine::note(d, {}, "one of ftree, ar_ftree, updn, ar_updn, dnup, minhop, or several in the order OpenSM "
                            "tries them: routing_engine = \"ar_ftree,ar_updn\"");
    return false;
  }
  if ((names[0] == "ftree" || names[0] == "ar_ftree") && v.topTier < 2) {
    Diagnostic *d = diags.report(DiagCode::E0351, s->loc,
                                 "{} needs a fat tree of two or more switch tiers; {} has one", names[0], where);
    DiagEngine::note(d, {}, "use updn, ar_updn or minhop, or give the switches their tiers (tier = \"spine\")");
    return false;
  }
  v.engineFromPolicy = true;
  for (size_t i = 0; i < names.size(); ++i)
    v.routingEngine += (i ? "," : "") + names[i];
  return true;
}

bool checkInfiniband(const ir::Fabric &F, Analyses &an, DiagEngine &diags) {
  InfinibandPlan &v = an.infiniband;
  v = InfinibandPlan();
  v.checked = true;
  std::vector<uint8_t> member(F.numDevices(), 0);
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (ib::isSwitch(F, d)) {
      v.switches.push_back(d);
      member[d] = 1;
      if (F.devTier[d] != ir::Tier::Unknown)
        v.topTier = std::max<uint32_t>(v.topTier, ir::tierIndex(F.devTier[d]));
    }
  if (v.switches.empty()) {
    Diagnostic *d = diags.report(DiagCode::W0157, F.loc, "fabric '{}' has no InfiniBand switch: no InfiniBand "
                                 "file written", F.name);
    DiagEngine::note(d, {}, "add protocol = \"infiniband\" to the InfiniBand switch models");
    return true; // nothing to write is a warning, not a failure
  }
  v.empty = false;
  v.hostGroups.assign(F.layouts.size(), 0);
  unsigned offLeaf = 0;
  for (uint32_t l = 0; l < F.numLinks(); ++l) {
    if (!ib::isLink(F, l))
      continue;
    ++v.links;
    for (uint32_t p : {F.linkA[l], F.linkB[l]}) {
      uint32_t d = F.portDevice[p];
      if (ib::isSwitch(F, d))
        continue;
      uint32_t s = F.portDevice[F.otherEnd(l, p)];
      if (F.devTier[s] != ir::Tier::Leaf && offLeaf++ < 20) {
        Diagnostic *dg = diags.report(DiagCode::W0153, passes::linkRange(F, l),
                                      "'{}' is linked to '{}', an InfiniBand switch of tier {}, not a leaf",
                                      F.portName(p), F.deviceName(s), ir::tierIndex(F.devTier[s]));
        passes::noteLinkInstances(dg, F, l);
        DiagEngine::note(dg, {}, "OpenSM's ftree routing expects every HCA on a leaf (tier 1) switch");
      } else if (F.devTier[s] != ir::Tier::Leaf) {
        diags.tally(DiagCode::W0153, passes::linkRange(F, l));
      }
      member[d] = 1;
      v.hostGroups[F.devLayout[d]] |= uint64_t(1) << std::min<uint32_t>(F.portGroup(p), 63);
    }
  }
  v.nameOf.assign(F.numDevices(), None);
  uint32_t firstUnpinned = None;
  for (uint32_t d = 0; d < F.numDevices(); ++d) {
    if (!member[d])
      continue;
    if (!F.devGuid[d]) // the GUID pass reported why
      return false;
    v.nameOf[d] = uint32_t(v.devs.size());
    v.devs.push_back(d);
    if (!ib::isSwitch(F, d)) {
      // OpenSM's compute nodes (cn_guid_file): the HCAs of compute systems; storage and
      // management systems (a UFM appliance) are I/O nodes to ftree.
      // After --guids-from, only the ports whose real GUIDs were discovered: a compiled
      // GUID no adapter has would make OpenSM's ftree find no compute node (W0350).
      bool compute = F.modelOf(d).kind == ir::ModelKind::System && F.devRole[d] == ir::Role::Compute;
      uint32_t base = F.devPortBase[d];
      for (uint32_t p = base; p < base + F.layoutOf(d).ports; ++p)
        if (isIbPort(F, p)) {
          v.hcaPorts.push_back(p);
          if (compute && (!F.guidsFromDiscovery || ib::hcaPin(F, p)))
            v.cnPorts.push_back(p);
          else if (compute && v.cnUnpinned++ == 0)
            firstUnpinned = p;
        }
    }
  }
  if (v.cnUnpinned) {
    Diagnostic *d = diags.report(DiagCode::W0350, {F.devLoc[F.portDevice[firstUnpinned]], 1},
                                 "{} of {} compute HCA ports got no GUID from the discovery (the first: '{}'): "
                                 "cn_guids.txt leaves {} out{}",
                                 v.cnUnpinned, v.cnUnpinned + v.cnPorts.size(), F.portName(firstUnpinned),
                                 v.cnUnpinned == 1 ? "it" : "them",
                                 v.cnPorts.empty() ? ", and opensm.conf.fragment names no cn_guid_file" : "");
    passes::noteInstances(d, F, F.portDevice[firstUnpinned]);
    DiagEngine::note(d, {}, "discover the whole fabric; an HCA is found by its description, 'host port' or "
                            "rdma-ndd's 'host mlx5_N' on the port the design cables it to");
  }
  if (!ibRoutingEngine(F, v, diags, "this InfiniBand fabric"))
    return false;
  if (!checkHostNames(F, diags, v.devs, &v.names))
    return false;
  // An HCA's NodeDescription is "host port" (the way rdma-ndd writes "hostname mlx5_0");
  // a switch's is its host name, which the rule keeps within 63 bytes.
  v.hcaDescriptions.reserve(v.hcaPorts.size());
  size_t truncated = 0;
  std::vector<uint8_t> cut(v.hcaPorts.size(), 0);
  for (uint32_t q : v.hcaPorts) {
    std::string s = v.names[v.nameOf[F.portDevice[q]]] + ' ' + names::portLabel(F, q);
    if (s.size() > MaxDesc) {
      cut[v.hcaDescriptions.size()] = 1;
      ++truncated;
      s.resize(MaxDesc);
    }
    v.hcaDescriptions.push_back(std::move(s));
  }
  if (truncated) {
    // The first cut one in the order fabric.net lists them: by switch, then its ports.
    uint32_t first = None;
    for (uint32_t s : v.switches) {
      uint32_t base = F.devPortBase[s];
      for (uint32_t p = base; p < base + F.layoutOf(s).ports && first == None; ++p) {
        if (!isIbPort(F, p))
          continue;
        uint32_t q = F.otherEnd(F.portLink[p], p);
        if (ib::isSwitch(F, F.portDevice[q]))
          continue;
        if (cut[std::lower_bound(v.hcaPorts.begin(), v.hcaPorts.end(), q) - v.hcaPorts.begin()])
          first = F.portDevice[q];
      }
      if (first != None)
        break;
    }
    Diagnostic *d = diags.report(DiagCode::W0152, {F.devLoc[first], 1},
                                 "{} InfiniBand node description{} longer than {} bytes, cut (first: '{}')", truncated,
                                 truncated == 1 ? " is" : "s are", MaxDesc, F.deviceName(first));
    passes::noteInstances(d, F, first);
    DiagEngine::note(d, {}, "shorter instance names keep the descriptions whole and unique");
  }
  return splitInfinibandPlanes(F, v, diags);
}

} // namespace fabc::checks
