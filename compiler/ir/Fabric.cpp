#include "ir/Fabric.h"

#include <fmt/format.h>
#include <algorithm>
#include <llvm/ADT/SmallVector.h>

namespace fabc::ir {

const char *hostSchemeName(HostScheme s) {
  switch (s) {
  case HostScheme::None: return "none";
  case HostScheme::P2p: return "p2p";
  case HostScheme::Leaf: return "leaf";
  case HostScheme::Rail: return "rail";
  }
  return "?";
}

const char *modelKindName(ModelKind k) {
  switch (k) {
  case ModelKind::Gpu: return "gpu";
  case ModelKind::System: return "system";
  case ModelKind::Nic: return "nic";
  case ModelKind::Switch: return "switch";
  case ModelKind::NvSwitch: return "nvswitch";
  case ModelKind::Optic: return "optic";
  case ModelKind::Cable: return "cable";
  }
  return "?";
}

static const char *kMediaNames[] = {"none", "DAC", "ACC", "AOC", "MMF", "SMF", "DCI"};
const char *mediaName(Media m) { return kMediaNames[size_t(m)]; }
Media mediaFromName(std::string_view s) {
  for (size_t i = 1; i < size_t(Media::Count); ++i)
    if (s == kMediaNames[i])
      return Media(i);
  return Media::None;
}

namespace {
const char *const kTierNames[NumTiers] = {"system", "leaf", "spine", "core", "super"};
} // namespace

const char *tierName(unsigned index) { return index < NumTiers ? kTierNames[index] : "untiered"; }
const char *tierName(Tier t) { return tierName(tierIndex(t)); }

namespace {
std::string ratioNumber(double r) {
  std::string s = fmt::format("{:.2f}", r);
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}
} // namespace
std::string downUpText(double r) { return ratioNumber(r) + ":1"; }
std::string upDownText(double r) { return "1:" + ratioNumber(r); }

Tier tierFromName(std::string_view name) {
  for (unsigned i = 0; i < NumTiers; ++i)
    if (name == kTierNames[i])
      return Tier(i);
  return Tier::Unknown;
}

const char *roleName(Role r) {
  switch (r) {
  case Role::Compute: return "compute";
  case Role::Storage: return "storage";
  case Role::Management: return "management";
  case Role::Switch: return "switch";
  }
  return "?";
}

static const char *kGroupKinds[] = {"nvlink", "rail", "su", "pod", "plane", "other"};
GroupKind groupKindFromName(std::string_view s) {
  for (size_t i = 0; i < 5; ++i)
    if (s == kGroupKinds[i])
      return GroupKind(i);
  return GroupKind::Other;
}
const char *groupKindName(GroupKind k) { return kGroupKinds[size_t(k)]; }

// The group of a device's port `rel` (counted from its first port); 0 if none holds it.
static uint32_t groupIn(const Layout &l, uint32_t rel, uint32_t *indexInGroup) {
  for (uint32_t g = 0; g < l.groups.size(); ++g) {
    const GroupLayout &gl = l.groups[g];
    if (rel >= gl.offset && rel < gl.offset + gl.count) {
      if (indexInGroup)
        *indexInGroup = rel - gl.offset;
      return g;
    }
  }
  return 0;
}

void Fabric::reserveElaborated(size_t devices, size_t ports, size_t links) {
  for (auto *v : {&devModel, &devLayout, &devNode, &devPortBase, &devRack, &devAsn, &devLoopback})
    reserveAtLeast(*v, devices);
  reserveAtLeast(devTier, devices);
  reserveAtLeast(devRole, devices);
  reserveAtLeast(devU, devices);
  reserveAtLeast(devLoc, devices);
  reserveAtLeast(devGuid, devices);
  if (!devChoice.empty())
    reserveAtLeast(devChoice, devices);
  reserveAtLeast(portDevice, ports);
  reserveAtLeast(portLink, ports);
  reserveAtLeast(linkA, links);
  reserveAtLeast(linkB, links);
  reserveAtLeast(linkLength, links);
  reserveAtLeast(linkFlags, links);
  reserveAtLeast(linkMediaReq, links);
  if (!linkChoice.empty())
    reserveAtLeast(linkChoice, links);
}

uint32_t Fabric::portGroup(uint32_t port, uint32_t *indexInGroup) const {
  uint32_t dev = portDevice[port];
  return groupIn(layouts[devLayout[dev]], port - devPortBase[dev], indexInGroup);
}

namespace {
// The run holding `link`: one past it is the first run that starts after it.
size_t runOf(const std::vector<Fabric::LinkLocRun> &runs, uint32_t link) {
  return size_t(std::partition_point(runs.begin(), runs.end(),
                                     [&](const Fabric::LinkLocRun &x) { return x.first <= link; }) -
                runs.begin()) -
         1; // SIZE_MAX when none holds it
}
} // namespace

SourceLoc Fabric::linkLoc(uint32_t link) const {
  size_t r = runOf(linkLocRuns, link);
  return r < linkLocRuns.size() ? linkLocRuns[r].loc : SourceLoc{};
}

void Fabric::appendLinkLoc(uint32_t link, SourceLoc loc) {
  if (linkLocRuns.empty() || linkLocRuns.back().loc != loc)
    linkLocRuns.push_back({link, loc});
}

bool Fabric::forEachPlace(const std::function<bool(SourceRange &)> &fn) {
  auto loc = [&](SourceLoc &l) {
    SourceRange r{l, 0};
    if (!fn(r))
      return false;
    l = r.begin;
    return true;
  };
  for (Model &m : models) {
    if (!fn(m.loc))
      return false;
    for (PortGroup &g : m.ports)
      if (!fn(g.loc))
        return false;
    for (auto &kv : m.propLocs)
      if (!fn(kv.second))
        return false;
  }
  for (SourceLoc &l : devLoc)
    if (!loc(l))
      return false;
  for (LinkLocRun &r : linkLocRuns)
    if (!loc(r.loc))
      return false;
  for (TemplateInstance &t : instances.instances)
    if (!fn(t.at))
      return false;
  for (Group &g : groups)
    if (!fn(g.loc))
      return false;
  for (Building &b : buildings)
    if (!fn(b.loc))
      return false;
  for (Site &x : sites)
    if (!fn(x.loc))
      return false;
  for (Hall &h : halls)
    if (!fn(h.loc))
      return false;
  for (Rack &r : racks)
    if (!fn(r.loc))
      return false;
  for (Span &x : spans)
    if (!fn(x.loc))
      return false;
  for (PartChoice &c : partChoices)
    if (!fn(c.opticLoc) || !fn(c.cableLoc))
      return false;
  // Filled by the validate pass (a checked IR's; empty after elaboration).
  for (ScopeStats &s : metrics.scopes)
    for (ScopeElement &e : s.elements)
      if (e.loc.begin.valid() && !fn(e.loc))
        return false;
  return true;
}

void Fabric::copyLinkLocs(uint32_t begin, uint32_t end, uint32_t to) {
  const size_t last = linkLocRuns.size(); // the runs appended below are not read
  for (size_t i = runOf(linkLocRuns, begin); begin < end && i < last && linkLocRuns[i].first < end; ++i)
    appendLinkLoc(to + (std::max(linkLocRuns[i].first, begin) - begin), linkLocRuns[i].loc);
}

// Called for every link by the passes and analyses: the device and its layout are read
// once, not again by portGroup.
double Fabric::portSpeed(uint32_t port) const {
  uint32_t dev = portDevice[port];
  const Layout &l = layouts[devLayout[dev]];
  return l.groups[groupIn(l, port - devPortBase[dev], nullptr)].speed;
}

void Fabric::appendNodeName(uint32_t node, std::string &out) const {
  // Collect the chain root-first; it is as deep as the template nesting.
  llvm::SmallVector<uint32_t, 16> chain;
  for (uint32_t c = node; c != None; c = nodes[c].parent)
    chain.push_back(c);
  size_t n = chain.size();
  bool first = true;
  while (n--) {
    const NameNode &nn = nodes[chain[n]];
    if (nn.parent == None && nn.name == 0)
      continue; // the fabric root has no name of its own
    if (!first)
      out += '.';
    first = false;
    out += strings.str(nn.name);
    if (nn.index >= 0)
      fmt::format_to(std::back_inserter(out), "[{}]", nn.index);
  }
}

std::string Fabric::nodeName(uint32_t node) const {
  std::string s;
  appendNodeName(node, s);
  return s;
}

void Fabric::appendPortName(uint32_t port, std::string &out) const {
  uint32_t dev = portDevice[port];
  appendNodeName(devNode[dev], out);
  uint32_t idx = 0;
  uint32_t g = portGroup(port, &idx);
  const Model &m = modelOf(dev);
  fmt::format_to(std::back_inserter(out), "/{}[{}]", strings.str(m.ports[g].name), idx);
}

std::string Fabric::portName(uint32_t port) const {
  std::string s;
  appendPortName(port, s);
  return s;
}

double Fabric::routeBetween(uint32_t ba, uint32_t bb) const {
  // As the length pass reads them (passes/Physical.cpp, computeLengths): the last span
  // written between two places counts, and a span between the buildings wins over their sites'.
  uint32_t sa = buildings[ba].site, sb = buildings[bb].site;
  double building = -1, site = -1;
  for (const Span &s : spans) {
    if (!s.sites && ((s.a == ba && s.b == bb) || (s.a == bb && s.b == ba)))
      building = s.route();
    else if (s.sites && sa != None && sb != None && sa != sb && ((s.a == sa && s.b == sb) || (s.a == sb && s.b == sa)))
      site = s.route();
  }
  return building >= 0 ? building : site;
}

std::string Fabric::rackName(uint32_t rack) const {
  const Rack &r = racks[rack];
  const Hall &h = halls[r.hall];
  return fmt::format("{}.{}.row{}.rack{}", strings.str(buildings[h.building].name), strings.str(h.name),
                     r.row, r.pos);
}

} // namespace fabc::ir
