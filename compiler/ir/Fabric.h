#pragma once
// The Fabric IR: the flat, elaborated design every pass and backend reads.
//
// Data-oriented for a million GPUs: devices, ports and links live in parallel arrays
// indexed by 32-bit ids; names are interned once and a device's full name
// ("pod[3].leaf[12]") is composed on demand from its NameNode chain, never stored.
// Over 600 lines: the one IR, its arrays and the small structs they hold, read by every
// pass and backend; the instance tree (Instances.h), units and addresses are apart.
#include "diag/Source.h"
#include "ir/Instances.h"
#include "ir/Units.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/Allocator.h>
#include <llvm/Support/StringSaver.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <functional>
#include <string_view>
#include <vector>

namespace fabc::ir {

constexpr uint32_t None = UINT32_MAX;

// Interned strings: id 0 is the empty string.
class StringPool {
public:
  StringPool() { intern(""); }
  // strs_ and recent_ point into map_'s keys: a copy interns o's strings anew, in order
  // (the same ids); moving keeps them where they are.
  StringPool(const StringPool &o) { *this = o; }
  StringPool &operator=(const StringPool &o) {
    if (this == &o)
      return *this;
    map_.clear();
    strs_.clear();
    std::fill(std::begin(recent_), std::end(recent_), Recent{});
    strs_.reserve(o.strs_.size());
    for (std::string_view s : o.strs_)
      strs_.push_back(map_.try_emplace(s, uint32_t(strs_.size())).first->getKey());
    return *this;
  }
  StringPool(StringPool &&o) noexcept : map_(std::move(o.map_)), strs_(std::move(o.strs_)) {
    std::copy(std::begin(o.recent_), std::end(o.recent_), recent_);
    std::fill(std::begin(o.recent_), std::end(o.recent_), Recent{});
  }
  StringPool &operator=(StringPool &&o) noexcept {
    map_ = std::move(o.map_);
    strs_ = std::move(o.strs_);
    std::copy(std::begin(o.recent_), std::end(o.recent_), recent_);
    std::fill(std::begin(o.recent_), std::end(o.recent_), Recent{});
    return *this;
  }
  uint32_t intern(std::string_view s) {
    // The names an explicit file's links repeat (a node's on its eight links, `cx`, `p`)
    // are found in a small table of recent ones before the hash map: a compare instead of
    // a hash and a probe (4 % of a 100k-link file's compile).
    Recent &r = recent_[s.empty() ? 0 : (s.size() * 7 + uint8_t(s.back()) + uint8_t(s.front()) * 3) % kRecent];
    // (An empty view may have no data: memcmp may not be given a null pointer.)
    if (r.size == s.size() && (s.empty() || std::memcmp(r.data, s.data(), s.size()) == 0))
      return r.id;
    auto it = map_.try_emplace(s, uint32_t(strs_.size()));
    if (it.second)
      strs_.push_back(it.first->getKey());
    r = {it.first->getKey().data(), uint32_t(s.size()), it.first->second};
    return it.first->second;
  }
  // None if never interned.
  uint32_t lookup(std::string_view s) const {
    auto it = map_.find(s);
    return it == map_.end() ? None : it->second;
  }
  std::string_view str(uint32_t id) const { return strs_[id]; }
  size_t size() const { return strs_.size(); }

private:
  struct Recent {
    const char *data = nullptr;
    uint32_t size = UINT32_MAX, id = 0; // an empty slot matches nothing
  };
  static constexpr size_t kRecent = 64;
  llvm::StringMap<uint32_t> map_;
  std::vector<std::string_view> strs_;
  Recent recent_[kRecent];
};

// A catalog figure with its provenance.
struct Figure {
  double value = 0;
  bool known = false;
  bool estimate = false; // 'estimate "..."' in the catalog: outputs must say so
  bool bounded = false;  // 'estimate LOW..HIGH "..."': the catalog states how far off it may be
  uint32_t source = 0;   // interned source or estimate text
  double low = 0, high = 0; // the bounds when `bounded` (low <= value <= high)
  // The bounds, the value itself where none are stated: a figure without bounds is taken
  // as exact, and the outputs that use these say which such estimates they rest on.
  double lo() const { return bounded ? low : value; }
  double hi() const { return bounded ? high : value; }
};

enum class ModelKind : uint8_t { Gpu, System, Nic, Switch, NvSwitch, Optic, Cable };
const char *modelKindName(ModelKind k);

// The link layer a switch or NIC speaks (model property `protocol`); the switch-config
// backends generate configurations only for the protocol they target.
enum class Protocol : uint8_t { Unspecified, Ethernet, InfiniBand };

// Media classes in order of reach; the media pass takes the first that fits.
enum class Media : uint8_t { None, DAC, ACC, AOC, MMF, SMF, DCI, Count };
const char *mediaName(Media m);
Media mediaFromName(std::string_view s);

struct PortGroup {
  uint32_t name = 0;
  uint32_t count = 0;        // native ports (cage ports), before breakout
  double speed = 0;          // b/s per native port
  uint32_t lanes = 0;        // electrical lanes per native port, 0 = not stated
  double laneRate = 0;       // b/s per lane (`lane_rate`, or speed / lanes), 0 = not stated
  uint32_t form = 0;         // interned form factor: "OSFP", "QSFP112", ...
  uint32_t portsPerCage = 1; // logical ports sharing one cage (twin-port OSFP = 2)
  bool cpo = false;          // co-packaged optics: fibre attaches directly, no transceiver
  uint32_t breakoutMask = 1; // bit k set: a 1:2^k breakout is allowed
  // SONiC: the breakout modes the platform's platform.json names for a cage of this
  // group, verbatim ("2x400G[200G,100G,50G,40G,25G,10G]"); interned, empty if unknown.
  std::vector<uint32_t> sonicBreakoutModes;
  // The link layers this port shape runs (`protocols`): bit 1 << Protocol. 0 = any. A
  // ConnectX-8 cage is 1 x 800G XDR on InfiniBand only; on Ethernet it is 2 x 400GbE,
  // another shape (docs/decisions/0291-nic-shapes-per-protocol.md).
  uint8_t protocols = 0;
  SourceRange loc;
};

struct Model {
  uint32_t name = 0;
  ModelKind kind = ModelKind::System;
  uint32_t vendor = 0, sku = 0, description = 0;
  Figure power;          // device: whole-box power; optic: per transceiver
  Figure latency;        // switch port-to-port, NIC latency
  Figure reach;          // optic/cable maximum length
  Figure price;          // optional, USD per unit
  Figure lasers;         // optic: lasers per transceiver (CPO what-if)
  // Reliability (analysis/Reliability.h): failures per unit-year (an annualized failure
  // rate, 0.01 = 1%), from `afr` or `mtbf` (8,760 h / MTBF). afr: the part itself (a
  // switch, NIC, transceiver, cable or CPO engine per port); nicAfr: a system's NIC, one
  // per port of its first port group; laserAfr: a CPO engine's external laser source,
  // per laser (`lasers`).
  Figure afr, nicAfr, laserAfr;
  // cable: cuts per km of route between buildings per year (`afr_per_km`, decision
  // 0501); a route between two buildings fails as one, whatever links it carries.
  Figure afrPerKm;
  uint32_t gpus = 0;     // system: GPUs in the box
  uint32_t gpuModel = None;
  uint32_t nvlinkDomain = 0; // system: GPUs joined by NVLink inside the box
  uint32_t hosts = 1;        // system: separate servers (each its own OS) in the box; a rack-scale system > 1
  // system: NIC ports of the first port group per GPU (`ports_per_gpu`): GPU g owns ports
  // [g * n, (g + 1) * n), one GPU endpoint with several ports (planes, dual-ToR).
  uint32_t portsPerGpu = 1;
  // system: how a GPU's several ports are used (`bond`): independent ports (None), one
  // LACP bond on one switch (Lacp), or one bond across switches (McLag: an MC-LAG pair
  // with a peer link; EvpnMh: an EVPN multihoming Ethernet segment), whose members must
  // sit on two or more switches (FAB-E0307). The bonds themselves: Fabric::bonds.
  enum class Bond : uint8_t { None, Lacp, McLag, EvpnMh } bond = Bond::None;
  bool multiChassis() const { return bond == Bond::McLag || bond == Bond::EvpnMh; }
  uint32_t rackUnits = 0;
  // optic/cable
  Media media = Media::None;
  double speed = 0;         // b/s per logical port served
  uint32_t form = 0;
  uint32_t portsPerUnit = 1; // twin-port transceivers serve two logical ports
  // optic: fibre connectors on its face (0: one per logical port). Fewer connectors than
  // ports means each connector carries several ports' lanes, fanned out by a splitter.
  uint32_t connectors = 0;
  uint32_t legs = 1;         // cable: far-end connectors of a splitter (fan-out) fibre, 1 = straight
  bool cpoEngine = false;    // an optical engine inside a CPO switch (energy what-if)
  // `sku = none source "why"`: the part has no orderable part number (a generic class,
  // a CPO engine inside a switch), and why; the catalog lint accepts it instead of a SKU.
  uint32_t skuNoneReason = 0;
  // optic/cable: the lengths the vendor sells (m, ascending, `order_lengths = [...]`);
  // empty: the generic steps of standardLength. `orderLengthsNote` is its provenance.
  std::vector<double> orderLengths;
  Figure orderLengthsNote;
  uint32_t interface = 0;    // optic: optical interface per logical port ("SR4", "DR4", "DR8"); both ends match
  // Lane structure per logical port served (optic, cable, CPO engine): `lanes` x
  // `lane_rate` = speed. An optic's line side; its host (electrical) side is the same
  // unless `host_lanes` / `host_lane_rate` say otherwise (a gearbox). 0 = not stated.
  uint32_t lanes = 0, hostLanes = 0;
  double laneRate = 0, hostLaneRate = 0;
  uint32_t base = None;      // a derived model (`model X : BASE { ... }`): the model it starts from
  bool catalog = false;      // declared in a file of the stdlib (the tie rule prefers the user's parts)
  // Where each property was set (interned key): in a derived model an override's own
  // place, else the base's. Diagnostics about a figure point here.
  std::vector<std::pair<uint32_t, SourceRange>> propLocs;
  SourceRange propLoc(uint32_t key) const {
    for (const auto &kv : propLocs)
      if (kv.first == key)
        return kv.second;
    return loc;
  }
  uint32_t electricalLanes() const { return hostLanes ? hostLanes : lanes; }
  double electricalLaneRate() const { return hostLanes ? hostLaneRate : laneRate; }
  Protocol protocol = Protocol::Unspecified; // switch / NIC: "ethernet" or "infiniband"
  // switch: SONiC's platform and HwSKU names (DEVICE_METADATA), and the egress lossless
  // pool of the SKU's buffer template (a data size, in bits like every size; 0: unknown).
  uint32_t sonicPlatform = 0, sonicHwsku = 0;
  double sonicEgressLosslessPool = 0;
  // switch, NIC, system: the largest MTU (the IP MTU, Linux's: the frame less its Ethernet
  // header and FCS) its Ethernet ports take, as a data size (bits); unknown: not checked
  // (passes/Roce.h checkEthernet, FAB-E0213).
  Figure maxMtu;
  std::vector<PortGroup> ports;
  SourceRange loc;
};

// A port group as laid out on one device (after breakout).
struct GroupLayout {
  uint32_t offset = 0; // first port of the group, relative to the device's first port
  uint32_t count = 0;  // logical ports
  uint32_t breakout = 1;
  double speed = 0;    // b/s per logical port
  uint32_t lanes = 0;
  uint32_t portsPerCage = 1; // logical ports per cage (after breakout)
};
struct Layout {
  uint32_t model = 0;
  std::vector<GroupLayout> groups;
  uint32_t ports = 0;
};

// One element of the instance tree: a template instance, an array element or a device.
struct NameNode {
  uint32_t parent = None;
  uint32_t name = 0;   // interned
  int64_t index = -1;  // -1: not an array element
};

enum class Role : uint8_t { Compute, Storage, Management, Switch };
const char *roleName(Role r);

// A device's tier: end systems at 0, switch tiers counting up from the leaves. The
// numbers order the tiers (code compares them), and a tier indexes per-tier arrays
// through tierIndex. Unknown: a switch the design does not tier and no link reaches
// from below; it compares above every tier, so test for it first.
enum class Tier : uint8_t { EndSystem = 0, Leaf, Spine, Core, Super, Unknown = 255 };
constexpr unsigned NumTiers = 5; // EndSystem..Super
constexpr unsigned tierIndex(Tier t) { return unsigned(t); }
constexpr bool isSwitchTier(Tier t) { return t >= Tier::Leaf && t <= Tier::Super; }
// "system", "leaf", "spine", "core", "super"; "untiered" for Unknown. The one name table:
// outputs and the language ('tier = "spine"') spell tiers this way.
const char *tierName(Tier t);
const char *tierName(unsigned index); // by tierIndex, for loops over per-tier arrays
Tier tierFromName(std::string_view name); // a tierName back; Unknown for anything else

enum class GroupKind : uint8_t { NvLink, Rail, Su, Pod, Plane, Other };
GroupKind groupKindFromName(std::string_view s);
const char *groupKindName(GroupKind k);

// The devices of a group, however the group stores them: for (uint32_t d : g.devices()).
class GroupDevices {
public:
  class iterator {
  public:
    iterator(const uint32_t *list, uint32_t i) : list_(list), i_(i) {}
    uint32_t operator*() const { return list_ ? list_[i_] : i_; }
    iterator &operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator &o) const { return i_ != o.i_; }
    bool operator==(const iterator &o) const { return i_ == o.i_; }

  private:
    const uint32_t *list_; // null: the ids count up from begin
    uint32_t i_;
  };
  GroupDevices(const uint32_t *list, uint32_t begin, uint32_t end) : list_(list), begin_(begin), end_(end) {}
  iterator begin() const { return {list_, begin_}; }
  iterator end() const { return {list_, end_}; }
  uint32_t size() const { return end_ - begin_; }
  bool empty() const { return begin_ == end_; }
  uint32_t front() const { return *begin(); }

private:
  const uint32_t *list_;
  uint32_t begin_, end_;
};

struct Group {
  GroupKind kind = GroupKind::Other;
  uint32_t kindName = 0;
  uint32_t node = None;           // its name
  // A template's devices are one id range [begin, end) (contiguous); a group statement
  // lists its members. Read either through devices().
  uint32_t begin = 0, end = 0;
  bool contiguous = true;
  std::vector<uint32_t> members;  // sorted, unique device ids when not contiguous
  SourceRange loc;
  GroupDevices devices() const {
    return contiguous ? GroupDevices(nullptr, begin, end) : GroupDevices(members.data(), 0, uint32_t(members.size()));
  }
};

struct Building {
  uint32_t name = 0;
  double hallDistance = 50; // m, default route between two halls of the building
  uint32_t site = None;     // into Fabric::sites: `site = "NAME"` on the building
  SourceRange loc;
};
// A site: the buildings that name it (decision 0411). It has no block of its own.
struct Site {
  uint32_t name = 0;
  SourceRange loc; // the first building's `site` value
};
struct Hall {
  uint32_t name = 0, building = 0;
  double rowPitch = 3.0, rackWidth = 0.6, trayDrop = 2.0; // m
  uint32_t rackUnits = 48;
  SourceRange loc;
};
struct Rack {
  uint32_t hall = 0;
  int64_t row = 0, pos = 0;
  uint32_t usedU = 0;
  SourceRange loc; // first place statement
};
struct Span {
  uint32_t a = 0, b = 0; // buildings, or sites when `sites`
  double length = 0;     // m, as written
  double routeFactor = 1; // fibre route / length (a straight-line length times the detour)
  bool sites = false;    // between two sites: the route between any building of one and any of the other
  SourceRange loc;
  double route() const { return length * routeFactor; }
};

enum class PolicyKind : uint8_t { Power, Oversubscription, Latency, NvLink, RailOptimized };
struct Policy {
  PolicyKind kind;
  uint32_t scope = 0;     // power: "rack", "hall" or "building"; oversubscription: tier name
  // `per` naming a group kind or an instance array (power, oversubscription): the policy
  // holds in each element of that scope on its own (analysis::measureScopes, decision
  // 0321). None: power per `scope`, oversubscription over the whole fabric.
  uint32_t per = None;
  SourceRange perLoc;     // the value of `per`
  bool tierGiven = false; // oversubscription: `tier` written (scoped: rate that tier's switches inside)
  double max = 0;         // SI value (W, ratio, s, GPUs)
  bool railOnly = false;  // rail_optimized: `rail_only = true`, rails are meant to be isolated
  // latency with `between`: a round trip between two places (building or site names,
  // resolved by the check), `max` the budget of `roundTrips` sequential round trips.
  uint32_t placeA = None, placeB = None;
  uint32_t roundTrips = 0; // 0: the worst one-way path of the whole fabric (`max`)
  bool workflow = false;   // written as `round_trips` + `workflow` (else `round_trip`)
  SourceRange betweenLoc;
  SourceRange loc;
};

// A chosen part: `optic = MODEL` / `cable = MODEL` on a link, an instance (or one of
// its port groups: optic_<group>) or `policy parts` for a tier. The media pass takes it
// instead of choosing, or reports why it does not fit (FAB-E0058).
struct PartChoice {
  uint32_t optic = None, cable = None; // models
  SourceRange opticLoc, cableLoc;      // where each was chosen
  bool operator==(const PartChoice &o) const { return optic == o.optic && cable == o.cable && opticLoc.begin == o.opticLoc.begin && cableLoc.begin == o.cableLoc.begin; }
};

// Host-facing addressing (policy addressing host_pool / host_scheme): how the GPU NICs on
// the leaves are addressed. P2p: a /31 per NIC-leaf link, the leaf port the even address
// (the host's gateway), the NIC the odd one. Leaf / Rail: one subnet per leaf (or per
// rail on a leaf) behind a VLAN interface (SVI) on the leaf, the SVI the subnet's first
// address, the NICs the next ones.
enum class HostScheme : uint8_t { None, P2p, Leaf, Rail };
const char *hostSchemeName(HostScheme s); // "none", "p2p", "leaf", "rail"
// One host subnet of the Leaf and Rail schemes (an SVI on its leaf).
// A subnet of a multi-chassis bond group (ir::BondGroup) is on every switch of the group:
// one entry per switch, the first the subnet's own (copy false), the others copies with
// the same base, so that hostNetsOf finds it on each. Its gateway is the group's shared
// (anycast) address base + 1; switch i of the group has its own address base + 2 + i; the
// NICs follow from base + 2 + shared.
struct HostNet {
  uint32_t base = 0;     // IPv4, host byte order; the gateway (SVI) is base + 1
  uint32_t leaf = None;  // the switch the SVI lives on
  uint32_t rail = None;  // Rail scheme: the rail; Leaf scheme: None
  uint16_t vlan = 0;
  uint8_t len = 0;
  uint8_t shared = 0;    // switches sharing the subnet (a bond group's), 0 when on one leaf only
  uint8_t member = 0;    // this entry's switch: its index in the group
  bool copy = false;     // a copy of the subnet for a further switch of its group
};

// Bonds (passes/Bonds.cpp, for GPUs whose system model declares `bond`): GPU g of device
// `device` bonds its ports of the first port group that reach a routed switch; `group`
// is the set of switches they land on (ir::BondGroup), `local` its number in the group
// (1, 2, ...: the MC-LAG id, the EVPN-MH segment's local-id).
struct Bond {
  uint32_t device = None, gpu = 0;
  uint32_t group = None;
  uint32_t local = 0;
};
// The switches one or more bonds land on: one switch (LACP), or an MC-LAG pair or an
// EVPN-MH redundancy group. Peer links: the links between the two switches of an MC-LAG
// pair, which become its peer link (an L2 port channel, no BGP session): linkPeerLink.
struct BondGroup {
  uint32_t first = 0, count = 0; // its switches: Fabric::bondGroupSwitches[first, first + count), sorted
  uint8_t kind = 0;              // Model::Bond as a number: Lacp, McLag or EvpnMh
  uint32_t bonds = 0;            // bonds in the group
  uint32_t index = 0;            // among the multi-chassis groups, from 0 (the MLAG or ES system MAC)
};

// One entry of the prefix-lists every fabric BGP session filters with, in and out:
// base/len with ge..le (ge == le == len: the prefix exactly). List 0 holds the switch
// loopbacks, list 1 the host subnets.
struct PrefixRule {
  uint32_t base = 0;
  uint8_t len = 0, ge = 0, le = 0;
  uint8_t list = 0;
};
enum : uint8_t { PrefixListLoopbacks = 0, PrefixListHosts = 1 };

struct Options {
  double defaultCableLength = 10; // m, for links without placement or length
  double cableSlack = 1.0;        // m, added to every routed length
  double pue = 1.25;              // energy report: facility power / IT power
  double gpuNicLatency = 0;       // s, added at both ends of a path (NIC model latency wins)
  SourceRange defaultCableLengthLoc;
};

// A value of an option or policy property listed in Settings.def.
struct Setting {
  enum Type : uint8_t { Number, String, Bool, List, StringList } type = Number;
  uint32_t name = 0;
  double number = 0;     // SI units
  Dim dim;
  uint32_t str = 0;      // interned
  bool boolean = false;
  std::vector<double> list;
  std::vector<uint32_t> strs; // StringList: interned
  SourceRange loc;       // the value
};
struct PolicyBlock {
  uint32_t kind = 0;
  std::vector<Setting> props;
  SourceRange loc;
  const Setting *get(const StringPool &sp, std::string_view name) const {
    for (const Setting &s : props)
      if (sp.str(s.name) == name)
        return &s;
    return nullptr;
  }
};

enum LinkFlags : uint8_t {
  LinkLengthExplicit = 1,
  LinkLengthAssumed = 2,
  LinkInterBuilding = 4,
};

// What the validation passes measured; backends read it, never recompute it.
struct TierStats {
  uint32_t switches = 0;
  double downBandwidth = 0, upBandwidth = 0; // b/s, sums over the tier
  double maxOversubscription = 0;            // worst switch: down / up
  uint32_t worstSwitch = None;
  double worstDown = 0, worstUp = 0;         // b/s of that switch
};
// An oversubscription ratio r (down / up) both ways: "7:1", down:up as fabc rates the
// lower side of a boundary, and "1:7", up:down as papers write it at the layer above
// ("1:7 at the aggregation layer"). At most two decimals: 48/7 is "6.86:1" and "1:6.86".
std::string downUpText(double r);
std::string upDownText(double r);
// Light in fibre, one way (reference/hardware.md: 4.9 us/km): the latency pass's figure.
constexpr double FibreDelayPerMetre = 4.9e-9; // s/m
// One worst-case GPU-to-GPU path of a kind (analysis::measureLatency).
struct PathStats {
  double latency = 0;  // s; 0: the fabric has no such path
  uint32_t hops = 0;   // switches crossed
  double fibre = 0;    // m of cable
  uint32_t via = None; // the switch where the path turns
  double nic = 0;      // s of it in the NICs at both ends (latency matrix only)
};
// The worst one-way GPU-to-GPU path between two places (buildings, or sites), a <= b
// (a == b: two GPUs of the same place), analysis::measureLatencyMatrix. A round trip is
// twice it.
struct PlacePath {
  uint32_t a = 0, b = 0;
  PathStats path;
};
// What the fabric keeps when switches of one tier fail (analysis::measureResilience):
// the bisection after losing the worst `lose` of them at once (the two kinds of term of
// the bisection estimate each lose their k largest contributions), and the worst pod's
// share of its intact uplink capacity.
struct TierLoss {
  uint8_t tier = 0;                // tierIndex
  uint32_t lose = 0;               // switches lost at once (capped at the tier's count)
  double bisection = 0;            // b/s left, worst case
  double podUplinkShare = 1;       // worst pod: uplink capacity left / intact (1: no pod uplinks)
  uint32_t worstPod = None;        // its index among the pods (Metrics::pods order)
  uint32_t worstSwitch = None;     // the switch of the tier whose loss alone costs most bisection
  double worstSwitchBisection = 0; // b/s left without it
};
// Losing every link between two buildings (a span cut).
struct SpanLoss {
  uint32_t a = 0, b = 0;  // buildings, a < b
  uint32_t links = 0;
  double bandwidth = 0;   // b/s across
  double bisection = 0;   // b/s left without them
};
// A switch whose loss cuts GPUs off from the rest (an articulation point of the device
// graph, systems forwarding over NVLink).
struct SinglePoint {
  uint32_t device = None;
  uint64_t gpus = 0;      // GPUs outside the largest piece left
};
// Which GPU endpoints (the GPUs of compute systems, each owning `ports_per_gpu` ports of
// its system's first port group; one port each by default) reach each other over the
// switches alone (they share a network island: a plane, say), only by forwarding through
// a system's NVLink domain, or not at all.
struct Reachability {
  uint64_t endpoints = 0;
  uint32_t islands = 0;        // network islands holding endpoints
  uint32_t joined = 0;         // groups of islands joined through NVLink (components of the whole)
  double pairs = 0, networkPairs = 0, nvlinkOnlyPairs = 0, unreachablePairs = 0;
  bool railOnly = false;       // several islands, all joined through NVLink domains
  uint32_t island0 = None, island1 = None; // a port of two GPU endpoints that share no island (example)
};
// Counts of one named group (analysis::measureGroups), every kind but nvlink: its GPUs
// (a plane: the GPU endpoints with a port in it; any other kind: the GPUs of its compute
// systems), switches, links with both ends in it and links with one. A plane also has its
// own bisection (its switches' tier terms, as measureTiers) and the GPU endpoints that
// have no port in it (FAB-E0306), with the first of them.
struct GroupStats {
  uint32_t group = None;        // index into Fabric::groups
  uint64_t gpus = 0;
  uint32_t switches = 0;
  uint64_t links = 0, boundaryLinks = 0;
  double bisection = 0;         // b/s, planes only
  uint64_t missingGpus = 0;     // planes only
  uint32_t missingDevice = None, missingGpu = 0;
};
// One element of a policy's scope (analysis::measureScopes): a group of the scope's kind,
// an element of the instance array, a rack, hall or building. Down: the bandwidth entering
// its switches from below (host links, links from lower-tier switches outside it); up: the
// bandwidth leaving its switches for higher-tier switches outside it.
struct ScopeElement {
  std::string name;
  SourceRange loc;              // its group statement or instance; empty for a placement
  uint64_t gpus = 0;
  uint32_t switches = 0;
  uint64_t links = 0, boundaryLinks = 0;
  double down = 0, up = 0;      // b/s
  double power = 0;             // W, devices and their transceivers
  // With a tier: the worst switch of that tier inside (down / up of that switch).
  uint32_t worstSwitch = None;
  double worstDown = 0, worstUp = 0;
};
// A scope a policy names with `per`, resolved: its elements in order.
struct ScopeStats {
  uint32_t name = 0;            // interned, as written
  bool known = false;           // false: FAB-E0370
  std::string kind;             // "group", "pod", "array", "placement"
  Tier tier = Tier::Unknown;    // the tier rated inside, Unknown: the boundary
  std::vector<ScopeElement> elements;
};
// The racks placed: how many, what they hold, the fullest's GPUs and switches, and the
// links with both ends in one rack.
struct RackCounts {
  uint32_t racks = 0;
  uint64_t gpusPlaced = 0, switchesPlaced = 0, maxGpus = 0, linksInside = 0;
  uint32_t maxSwitches = 0;
};
// The resilience measures, one part per step that writes it. The steps run at the same
// time (analysis::measure), so each resets its own part whole and touches no other: a
// field goes in the part of the step that writes it.
// analysis::measureResilience:
struct ResilienceLosses {
  TierLoss tiers[NumTiers];    // by tierIndex, lose = 1
  std::vector<TierLoss> asked; // one per `policy resilience`, in declaration order
  uint32_t worstSwitch = None; // the switch whose loss costs most bisection, any tier
  double worstSwitchBisection = 0;
  std::vector<SpanLoss> spans;
};
// analysis::measureSinglePoints:
struct SinglePointStats {
  std::vector<SinglePoint> singlePoints; // by GPUs cut off, most first; at most 100 kept
  uint32_t singlePointCount = 0;
  uint64_t gpusBehindSinglePoints = 0;   // sum over every single point
};
struct ResilienceStats : ResilienceLosses, SinglePointStats {
  Reachability reach; // analysis::measureReachability
};

// What the design measures, filled by the measuring steps of compiler/analysis/Measure.h
// (tiers, counts, latency paths) and by the transceiver and power passes; the validation
// checks compare it with the policies, and every output reads it.
struct Metrics {
  static constexpr unsigned MaxTier = NumTiers;
  TierStats tiers[MaxTier];      // by tierIndex; [0] (end systems) unused
  uint32_t topTier = 0;          // tierIndex of the highest switch tier, 0: none
  uint64_t gpus = 0;
  uint64_t systems = 0;
  uint32_t nvlinkDomains = 0, largestNvlinkDomain = 0;
  double worstLatency = 0;       // s, GPU to GPU over the switch tiers
  uint32_t worstHops = 0;        // switches on that path
  double worstFibre = 0;         // m of cable on that path
  uint32_t worstVia = None;      // the top switch where that path turns
  // Pods are the design's pod groups, else its su groups (podKind says which), else the
  // whole fabric is one pod (podKind Other, pods 0). podPath turns at a switch that
  // serves one pod's GPUs only; crossBuildingPath joins GPUs in two buildings.
  GroupKind podKind = GroupKind::Other;
  uint32_t pods = 0;
  PathStats podPath, crossBuildingPath;
  // Between every two buildings holding GPUs with a network path (and every two sites),
  // in (a, b) order; empty for a design without placed GPUs.
  std::vector<PlacePath> buildingPaths, sitePaths;
  double bisection = 0;          // b/s
  uint64_t transceivers = 0, cpoPorts = 0;
  bool usesEstimates = false;    // a figure behind the energy budget is an estimate
  // analysis::measureResilience, measureSinglePoints and measureReachability, at once:
  // each resets and writes only its own part (ResilienceStats).
  ResilienceStats resilience;
  std::vector<GroupStats> groupStats; // analysis::measureGroups, in declaration order
  std::vector<ScopeStats> scopes;     // analysis::measureScopes: one per (per, tier) the policies name
  RackCounts racks;
};

// Room in v for at least n items. An array that must grow at least doubles, so that a
// run of calls asking a little more each time still costs linear time in all.
template <typename V> void reserveAtLeast(V &v, size_t n) {
  if (n > v.capacity())
    v.reserve(std::max(n, 2 * v.capacity()));
}

class Fabric {
public:
  StringPool strings;
  std::string name;
  SourceRange loc;

  std::vector<Model> models;
  std::vector<Layout> layouts;
  std::vector<NameNode> nodes;
  InstanceTree instances; // the template instances among the nodes (ir/Instances.h)

  // Devices (parallel arrays).
  std::vector<uint32_t> devModel, devLayout, devNode, devPortBase, devRack;
  std::vector<Tier> devTier;
  std::vector<Role> devRole;
  std::vector<uint16_t> devU;   // lowest rack unit (1-based), 0 = unplaced in a rack
  std::vector<SourceLoc> devLoc;

  // Ports.
  std::vector<uint32_t> portDevice, portLink;

  // Links.
  std::vector<uint32_t> linkA, linkB; // ports
  std::vector<float> linkLength;      // m
  std::vector<uint8_t> linkFlags;
  std::vector<Media> linkMediaReq;    // asked for on the link, None = choose
  // Where each link was written, as runs: a run starts at link `first` and holds until
  // the next run's first. A loop's links share its link statement's place, so the
  // million-GPU bench design keeps a few dozen runs instead of 8 bytes per link (25 MB);
  // an explicit file, a run per link. linkLoc() and the two appends keep it so.
  struct LinkLocRun {
    uint32_t first;
    SourceLoc loc;
  };
  std::vector<LinkLocRun> linkLocRuns;
  SourceLoc linkLoc(uint32_t link) const;
  void appendLinkLoc(uint32_t link, SourceLoc loc); // link: the next one, numbered
  void copyLinkLocs(uint32_t begin, uint32_t end, uint32_t to); // [begin, end) as links to..
  // Calls fn(range) on every place elaboration records (models and their port groups and
  // properties, devices, links, instances, groups, the physical layout, part choices) and
  // the validate pass measures (the policies' scope elements), but the settings' (options,
  // policies) and the fabric's own range; false as soon as fn returns false. A SourceLoc
  // is passed as a range of length 0. Compilation's reuse of an elaboration or of a
  // checked IR moves them past an edit (compiler/reuse/ReuseSettings.cpp). A place field added to the
  // IR is added here.
  bool forEachPlace(const std::function<bool(SourceRange &)> &fn);
  // Chosen parts (PartChoice). Index 0 of partChoices is "none"; linkChoice and
  // devChoice stay empty when no link or instance chooses (most designs), else hold one
  // index per link or device. A device's choice is a set: one PartChoice per port group.
  std::vector<PartChoice> partChoices{1};
  std::vector<uint32_t> linkChoice;                   // into partChoices
  std::vector<uint32_t> devChoice;                    // into devChoiceSets
  std::vector<std::vector<uint32_t>> devChoiceSets{1}; // per port group, into partChoices
  uint32_t tierChoice[NumTiers] = {};                 // by tierIndex, into partChoices
  // Filled by the media pass.
  std::vector<Media> linkMedia;
  std::vector<uint32_t> linkCable;             // cable/fibre model, None = none in the catalog
  std::vector<uint32_t> linkOpticA, linkOpticB; // transceiver model per end, None = no transceiver
  std::vector<uint8_t> linkXcvrA, linkXcvrB;   // transceivers counted at this end (a cage counts once)
  std::vector<uint8_t> linkCableUnits;         // cables counted for this link (a twin-port DAC serves a cage)

  std::vector<Group> groups;
  std::vector<Building> buildings;
  std::vector<Site> sites;
  std::vector<Hall> halls;
  std::vector<Rack> racks;
  std::vector<Span> spans;
  std::vector<Policy> policies;
  Options options;
  std::vector<Setting> extraOptions;     // Settings.def options, as written
  std::vector<PolicyBlock> extraPolicies; // Settings.def policies, as written
  // The last assignment wins, as for the core options.
  const Setting *option(std::string_view name) const {
    for (size_t i = extraOptions.size(); i-- > 0;)
      if (strings.str(extraOptions[i].name) == name)
        return &extraOptions[i];
    return nullptr;
  }
  const PolicyBlock *policyBlock(std::string_view kind) const {
    for (const PolicyBlock &p : extraPolicies)
      if (strings.str(p.kind) == kind)
        return &p;
    return nullptr;
  }

  // Addressing, as the design states it (instance properties asn / loopback; 0 = not
  // given) and as the addressing pass completes it.
  std::vector<uint32_t> devAsn;
  std::vector<uint32_t> devLoopback; // IPv4, host byte order
  std::vector<uint32_t> linkSubnet;  // IPv4 /31 base per link, 0 = unnumbered
  std::vector<uint64_t> devGuid;     // InfiniBand node GUID, 0 = none
  // HCA GUIDs a discovery reported, per end-system port (fabc build --guids-from,
  // verify/PinGuids.cpp), sorted by port: real adapters do not follow devGuid + 2i, so
  // ir::ib::hcaGuid looks here first. guidsFromDiscovery: the GUIDs were pinned from a
  // discovery, so an HCA port not in hcaPins has an invented GUID no adapter has.
  struct HcaGuidPin {
    uint32_t port;
    uint64_t node, portGuid;
  };
  std::vector<HcaGuidPin> hcaPins;
  // Host NIC MACs an LLDP discovery reported (fabc build --guids-from, verify/PinMacs.h),
  // sorted by port: the hosts output matches each such NIC by its MAC (netplan `match` and
  // `set-name`). 0 from nicMac: none known.
  struct NicMacPin {
    uint32_t port;
    uint64_t mac;
  };
  std::vector<NicMacPin> nicMacs;
  uint64_t nicMac(uint32_t port) const {
    auto it = std::lower_bound(nicMacs.begin(), nicMacs.end(), port,
                               [](const NicMacPin &p, uint32_t x) { return p.port < x; });
    return it != nicMacs.end() && it->port == port ? it->mac : 0;
  }
  bool guidsFromDiscovery = false;
  // Host-facing addressing (passes/HostAddressing.h). With a scheme, linkHostAddr has one
  // entry per link: the NIC end's address of a NIC-to-leaf link, 0 for every other link;
  // linkHostNet (Leaf and Rail schemes) the index of its subnet in hostNets, which are
  // sorted by leaf, then rail.
  HostScheme hostScheme = HostScheme::None;
  uint32_t hostPoolBase = 0;
  uint8_t hostPoolLen = 0;
  std::vector<uint32_t> linkHostAddr;
  std::vector<uint32_t> linkHostNet;
  std::vector<HostNet> hostNets;
  // The prefix-lists every fabric BGP session filters with, per addressing domain (one
  // entry for the shared plan; decision 0521), filled by the addressing pass, lists in
  // order. A switch filters with its own domain's: routePolicyOf.
  std::vector<std::vector<PrefixRule>> routePolicies;
  // Per device, the addressing domain of a routed switch; empty for the shared plan.
  std::vector<uint32_t> devDomain;
  uint32_t domainOf(uint32_t dev) const { return devDomain.empty() ? 0 : devDomain[dev]; }
  const std::vector<PrefixRule> &routePolicyOf(uint32_t dev) const {
    static const std::vector<PrefixRule> none;
    uint32_t k = domainOf(dev);
    return k < routePolicies.size() ? routePolicies[k] : none;
  }
  // Addressing domains (passes/AddressDomains.h, decision 0481): one entry per domain when
  // policy addressing's `per` splits the plan, in the scope's order; empty for the shared
  // plan (addressPer empty). The ASN range is what its switches got; a pool slice's
  // length 0: not numbered (p2p with BGP unnumbered; the host slice without a host
  // scheme). The host slice numbers the NICs on the domain's leaves (decision 0521).
  struct AddressDomain {
    std::string name;
    uint32_t switches = 0;
    uint32_t asnFirst = 0, asnLast = 0;
    uint32_t lbBase = 0, p2pBase = 0, hostBase = 0;
    uint8_t lbLen = 0, p2pLen = 0, hostLen = 0;
  };
  std::string addressPer;
  std::vector<AddressDomain> addressDomains;
  // Bonds (passes/Bonds.h), all empty when no system model declares one: the bonds in
  // device and GPU order, their groups, per port its bond (None: none), per link its
  // bond's number on its switch end (0: none; the PortChannel / bond name's number; a
  // backend gives the peer link's port channel the number after the switch's last bond)
  // and whether it is an MC-LAG peer link.
  std::vector<Bond> bonds;
  std::vector<BondGroup> bondGroups;
  std::vector<uint32_t> bondGroupSwitches;
  std::vector<uint32_t> portBond;
  std::vector<uint16_t> linkBondNo;
  std::vector<uint8_t> linkPeerLink;
  uint32_t bondOf(uint32_t port) const { return portBond.empty() ? None : portBond[port]; }
  bool isPeerLink(uint32_t link) const { return !linkPeerLink.empty() && linkPeerLink[link]; }
  // The EVPN-VXLAN overlay that EVPN multihoming runs on (passes/Overlay.h; decision
  // 0511), empty without an EVPN-MH bond group or when it cannot be written (FAB-W0400).
  // Per device: kVtep for a switch of an EVPN-MH group (its VTEP's source address is its
  // loopback, its host VLANs map to VNIs, BGP's l2vpn-evpn address family advertises
  // them), kEvpnTransit for a routed neighbour of a VTEP that only carries the address
  // family (a spine), 0 otherwise. Per host net (hostNets): its VNI, 0 for none.
  static constexpr uint8_t kEvpnTransit = 1, kVtep = 2;
  std::vector<uint8_t> devEvpn;
  std::vector<uint32_t> hostNetVni;
  bool isVtep(uint32_t d) const { return !devEvpn.empty() && devEvpn[d] == kVtep; }
  bool runsEvpn(uint32_t d) const { return !devEvpn.empty() && devEvpn[d] != 0; }

  // Filled by the passes.
  std::vector<float> devPower;       // W, the device itself
  std::vector<float> devOpticPower;  // W, transceivers plugged into its cages
  Metrics metrics;

  size_t numDevices() const { return devModel.size(); }
  size_t numPorts() const { return portDevice.size(); }
  size_t numLinks() const { return linkA.size(); }
  // Room in the arrays elaboration appends to (devModel .. devGuid, portDevice, portLink,
  // linkA .. linkMediaReq, and the part choices once any are made) for at least these counts
  // (reserveAtLeast).
  void reserveElaborated(size_t devices, size_t ports, size_t links);
  // Per model: 1 when some device is of it (the catalog holds many a design does not use).
  std::vector<uint8_t> modelsInUse() const {
    std::vector<uint8_t> used(models.size(), 0);
    for (uint32_t m : devModel)
      used[m] = 1;
    return used;
  }

  const Model &modelOf(uint32_t dev) const { return models[devModel[dev]]; }
  const Layout &layoutOf(uint32_t dev) const { return layouts[devLayout[dev]]; }
  // Port group index of a port, and its index within the group.
  uint32_t portGroup(uint32_t port, uint32_t *indexInGroup = nullptr) const;
  double portSpeed(uint32_t port) const;
  uint32_t otherEnd(uint32_t link, uint32_t port) const {
    return linkA[link] == port ? linkB[link] : linkA[link];
  }

  // Calls fn(group, groupLayout, firstPort) for every cage of a device: the unit that
  // holds one transceiver or copper plug (a twin-port OSFP cage is two logical ports).
  template <typename Fn> void forEachCage(uint32_t dev, Fn &&fn) const {
    const Layout &l = layouts[devLayout[dev]];
    uint32_t base = devPortBase[dev];
    for (uint32_t g = 0; g < l.groups.size(); ++g) {
      const GroupLayout &gl = l.groups[g];
      for (uint32_t c = 0; c < gl.count; c += gl.portsPerCage)
        fn(g, gl, base + gl.offset + c);
    }
  }

  // Names, composed from the instance tree.
  void appendNodeName(uint32_t node, std::string &out) const;
  std::string nodeName(uint32_t node) const;
  std::string deviceName(uint32_t dev) const { return nodeName(devNode[dev]); }
  // "leaf[3]/p[17]": the device name and the port's group and index.
  std::string portName(uint32_t port) const;
  void appendPortName(uint32_t port, std::string &out) const;

  // The building of a device, None when unplaced.
  uint32_t buildingOf(uint32_t dev) const {
    return devRack[dev] == None ? None : halls[racks[devRack[dev]].hall].building;
  }
  uint32_t gpusOf(uint32_t dev) const { return modelOf(dev).gpus; }
  std::string rackName(uint32_t rack) const;
  // The fibre route (m) between two buildings: their own span, else the span between
  // their sites (decision 0411); -1 when no span gives it. Linear in spans.
  double routeBetween(uint32_t buildingA, uint32_t buildingB) const;
};

} // namespace fabc::ir
