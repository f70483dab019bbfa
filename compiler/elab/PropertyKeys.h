#pragma once
// The property keys each kind of block accepts: one table for the elaborator's
// "accepted: ..." notes (FAB-E0033) and the language server's completion.
#include <string>
#include <string_view>

namespace fabc::elab::keys {

// Instances: of a switch, of any other device.
constexpr const char *kSwitchInstance = "tier breakout_<group> optic cable optic_<group> cable_<group> asn loopback guid";
constexpr const char *kInstance = "role breakout_<group> optic cable optic_<group> cable_<group> guid";
constexpr const char *kLink = "count length media pattern optic cable";
// Models by kind: boxes (system, switch, NIC, NVSwitch), optics and cables, GPUs.
constexpr const char *kDeviceModel =
    "vendor sku description power price rack_units latency mtbf afr; switches, NICs and systems: max_mtu; switches and NICs: protocol; switches: "
    "sonic_platform sonic_hwsku sonic_egress_lossless_pool; systems: gpus gpu nvlink_domain hosts ports_per_gpu bond nic_mtbf nic_afr";
constexpr const char *kMediaModel = "vendor sku description power price media speed form reach ports lanes lane_rate "
                                    "order_lengths mtbf afr; optics: lasers laser_mtbf laser_afr interface host_lanes "
                                    "host_lane_rate connectors; cables: legs afr_per_km";
constexpr const char *kGpuModel = "vendor sku description power price latency memory nvlink_bandwidth";
constexpr const char *kPortGroup = "speed lanes lane_rate form ports_per_cage cpo breakouts sonic_breakout_modes protocols";
constexpr const char *kBuilding = "hall_distance site";
constexpr const char *kHall = "row_pitch rack_width tray_drop rack_units";
constexpr const char *kPlace = "row rack u";
constexpr const char *kSpan = "length route_factor";
// Properties whose number is a count of percent (`transceiver_percent = 2` is 2%), unlike
// the shares every other property takes (`min_bisection = 0.9`, `afr = 0.5%`): a percent
// literal given to one is multiplied by 100 where it is read (elab/Settings.cpp).
inline bool takesPercentUnits(std::string_view key) {
  return key == "ecn_probability" || (key.size() > 8 && key.substr(key.size() - 8) == "_percent");
}
// The properties of policy `kind` ("" for none); nullptr if the kind is unknown.
inline const char *policyKeys(std::string_view kind) {
#define CORE_POLICY(K, READER, PROPS) if (kind == #K) return PROPS;
#define POLICY(K, READER, PROPS, HELP) if (kind == #K) return PROPS;
#include "ir/Settings.def"
  return nullptr;
}

// Every policy kind and every option name, space-separated, core ones first.
inline std::string policyKinds() {
  std::string r;
#define CORE_POLICY(K, READER, PROPS) r += " " #K;
#define POLICY(K, READER, PROPS, HELP) r += " " #K;
#include "ir/Settings.def"
  return r.substr(1);
}
inline std::string optionNames() {
  std::string r;
#define CORE_OPTION(N, READER) r += " " #N;
#define OPTION(N, READER, HELP) r += " " #N;
#include "ir/Settings.def"
  return r.substr(1);
}

} // namespace fabc::elab::keys
