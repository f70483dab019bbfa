// The buffer tables SONiC's own template writes for the dynamic buffer model
// (sonic-buildimage files/build_templates/buffers_config.j2 with NVIDIA Spectrum's
// device/mellanox/.../buffers_defaults_objects.j2), and the management tables.
#include "backends/sonic/Tables.h"

#include "ir/Address.h"

#include <algorithm>
#include <string>

namespace fabc::sonic {

namespace {
// Queue or PG ranges over 0..6 (the template's: queue 7 is left alone) around the
// lossless priority: "0-2", "3", "4-6" for priority 3.
std::vector<std::pair<std::string, bool>> ranges(int lossless) {
  std::vector<std::pair<std::string, bool>> out;
  auto add = [&](int a, int b, bool ll) {
    if (a > b)
      return;
    out.emplace_back(a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b), ll);
  };
  if (lossless < 0 || lossless > 6) {
    add(0, 6, false);
    return out;
  }
  add(0, lossless - 1, false);
  add(lossless, lossless, true);
  add(lossless + 1, 6, false);
  return out;
}

void profile(JsonWriter &j, const char *name, const char *th, const char *pool, const char *size) {
  j.key(name).beginObject();
  j.key("dynamic_th").string(th);
  j.key("pool").string(pool);
  j.key("size").string(size);
  j.endObject();
}

void pool(JsonWriter &j, const char *name, const char *type, double size) {
  j.key(name).beginObject();
  j.key("mode").string("dynamic");
  if (size > 0)
    j.key("size").quotedInteger(uint64_t(size));
  j.key("type").string(type);
  j.endObject();
}

void ipKeys(JsonWriter &j, const std::vector<uint32_t> &addrs, void (*fields)(JsonWriter &, const ManagementPlan &, uint32_t),
            const ManagementPlan &m) {
  std::vector<std::string> keys;
  for (uint32_t a : addrs)
    keys.push_back(ir::ipv4String(a));
  std::vector<size_t> order(keys.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  for (size_t i : order) {
    j.key(keys[i]).beginObject();
    fields(j, m, uint32_t(i));
    j.endObject();
  }
}
} // namespace

void bufferPg(JsonWriter &j, const PortNames &p, int lossless) {
  j.key("BUFFER_PG").beginObject();
  for (std::string_view port : p.piped) {
    // PG 0 carries lossy traffic; the lossless PG's "NULL" profile asks the dynamic
    // buffer manager to size its headroom from speed, MTU and CABLE_LENGTH.
    if (lossless != 0) {
      j.keyf("{}|0", port).beginObject();
      j.key("profile").string("ingress_lossy_profile");
      j.endObject();
    }
    if (lossless >= 0) {
      j.keyf("{}|{}", port, lossless).beginObject();
      j.key("profile").string("NULL");
      j.endObject();
    }
  }
  j.endObject();
}

void bufferPool(JsonWriter &j, double egressLosslessPool) {
  j.key("BUFFER_POOL").beginObject();
  pool(j, "egress_lossless_pool", "egress", egressLosslessPool);
  pool(j, "egress_lossy_pool", "egress", 0);
  pool(j, "ingress_lossless_pool", "ingress", 0);
  pool(j, "ingress_lossy_pool", "ingress", 0);
  j.endObject();
}

void bufferProfileLists(JsonWriter &j, const PortNames &p, bool egress) {
  j.key(egress ? "BUFFER_PORT_EGRESS_PROFILE_LIST" : "BUFFER_PORT_INGRESS_PROFILE_LIST").beginObject();
  for (std::string_view port : p.plain) {
    j.key(port).beginObject();
    j.key("profile_list").string(egress ? "egress_lossless_profile,egress_lossy_profile"
                                        : "ingress_lossless_profile,ingress_lossy_profile");
    j.endObject();
  }
  j.endObject();
}

void bufferProfile(JsonWriter &j) {
  j.key("BUFFER_PROFILE").beginObject();
  profile(j, "egress_lossless_profile", "7", "egress_lossless_pool", "0");
  profile(j, "egress_lossy_profile", "7", "egress_lossy_pool", "9216");
  profile(j, "ingress_lossless_profile", "7", "ingress_lossless_pool", "0");
  profile(j, "ingress_lossy_profile", "3", "ingress_lossy_pool", "0");
  profile(j, "q_lossy_profile", "3", "egress_lossy_pool", "0");
  j.endObject();
}

void bufferQueue(JsonWriter &j, const PortNames &p, int lossless) {
  std::vector<std::pair<std::string, bool>> rs = ranges(lossless);
  j.key("BUFFER_QUEUE").beginObject();
  for (std::string_view port : p.piped)
    for (auto &[r, ll] : rs) {
      j.keyf("{}|{}", port, r).beginObject();
      j.key("profile").string(ll ? "egress_lossless_profile" : "q_lossy_profile");
      j.endObject();
    }
  j.endObject();
}

void defaultLosslessParameter(JsonWriter &j) {
  j.key("DEFAULT_LOSSLESS_BUFFER_PARAMETER").beginObject();
  j.key("AZURE").beginObject();
  j.key("default_dynamic_th").string("0");
  j.endObject();
  j.endObject();
}

void losslessTrafficPattern(JsonWriter &j) {
  j.key("LOSSLESS_TRAFFIC_PATTERN").beginObject();
  j.key("AZURE").beginObject();
  j.key("mtu").string("1024");
  j.key("small_packet_percentage").string("50");
  j.endObject();
  j.endObject();
}

void mgmtTables(JsonWriter &j, const ManagementPlan &m, uint32_t index) {
  if (m.addresses) {
    j.key("MGMT_INTERFACE").beginObject();
    j.keyf("eth0|{}/{}", ir::ipv4String(m.address(index)), m.len).beginObject();
    if (m.gateway)
      j.key("gwaddr").string(ir::ipv4String(m.gateway));
    j.endObject();
    j.endObject();
    j.key("MGMT_PORT").beginObject();
    j.key("eth0").beginObject();
    j.key("admin_status").string("up");
    j.key("alias").string("eth0");
    j.endObject();
    j.endObject();
  }
  if (m.vrf) {
    j.key("MGMT_VRF_CONFIG").beginObject();
    j.key("vrf_global").beginObject();
    j.key("mgmtVrfEnabled").string("true");
    j.endObject();
    j.endObject();
  }
}

void ntp(JsonWriter &j, const ManagementPlan &m) {
  if (m.ntp.empty())
    return;
  j.key("NTP").beginObject();
  j.key("global").beginObject();
  j.key("src_intf").string("eth0");
  j.key("vrf").string(m.vrf ? "mgmt" : "default");
  j.endObject();
  j.endObject();
  j.key("NTP_SERVER").beginObject();
  ipKeys(j, m.ntp, [](JsonWriter &j, const ManagementPlan &, uint32_t) {
    j.key("association_type").string("server");
    j.key("iburst").string("on");
  }, m);
  j.endObject();
}

void syslog(JsonWriter &j, const ManagementPlan &m) {
  if (m.syslog.empty())
    return;
  j.key("SYSLOG_SERVER").beginObject();
  ipKeys(j, m.syslog, [](JsonWriter &j, const ManagementPlan &m, uint32_t) {
    if (m.vrf)
      j.key("vrf").string("mgmt");
  }, m);
  j.endObject();
}

void tacplus(JsonWriter &j, const ManagementPlan &m) {
  if (m.tacacs.empty())
    return;
  j.key("TACPLUS_SERVER").beginObject();
  // Priority by declaration order: the first server listed is asked first.
  ipKeys(j, m.tacacs, [](JsonWriter &j, const ManagementPlan &m, uint32_t i) {
    if (!m.tacacsSecret.empty()) // tacacs_secret, resolved from its reference (sonic-system-tacacs.yang)
      j.key("passkey").string(m.tacacsSecret);
    j.key("priority").quotedInteger(m.tacacs.size() - i);
    j.key("tcp_port").string("49");
    if (m.vrf)
      j.key("vrf").string("mgmt");
  }, m);
  j.endObject();
}

} // namespace fabc::sonic
