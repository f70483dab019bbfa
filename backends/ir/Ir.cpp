// ir/ir.json: a deterministic dump of the IR, streamed through the one JSON writer (no
// document is built; a 100k-link design costs a buffer). Names are strings, ids are the
// IR's own; what a pass has not produced yet (--stop-after) is left out.
#include "backends/ir/Ir.h"

#include "backends/Common.h"
#include "ir/Address.h"
#include "passes/HostAddressing.h"

#include "support/Json.h"

#include <llvm/ADT/StringRef.h>

#include <cmath>

namespace fabc {
namespace {
using ir::None;

// The dumper speaks in attributes and nested objects; this adapter writes them through
// the one JSON writer (compiler/support/Json.h), which owns commas, escaping and
// numbers. Top-level keys are one a line, arrays one element a line, each element on
// one line (Inline): the file diffs and FileChecks line by line.
class J_ {
public:
  explicit J_(JsonWriter &w) : w_(w) {}
  void attribute(std::string_view k, std::nullptr_t) { w_.key(k).null(); }
  void attribute(std::string_view k, bool v) { w_.key(k).boolean(v); }
  void attribute(std::string_view k, const char *v) { w_.key(k).string(v); }
  void attribute(std::string_view k, std::string_view v) { w_.key(k).string(v); }
  void attribute(std::string_view k, const std::string &v) { w_.key(k).string(v); }
  void attribute(std::string_view k, llvm::StringRef v) { w_.key(k).string(std::string_view(v.data(), v.size())); }
  template <typename T> std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>> attribute(std::string_view k, T v) {
    w_.key(k).integer(v);
  }
  void attributeBegin(std::string_view k) { w_.key(k); }
  void attributeEnd() {}
  template <typename Fn> void attributeObject(std::string_view k, Fn fn) {
    w_.key(k).beginObject(JsonLayout::Inline);
    fn();
    w_.endObject();
  }
  template <typename Fn> void attributeArray(std::string_view k, Fn fn) {
    w_.key(k).beginArray(JsonLayout::Inline);
    fn();
    w_.endArray();
  }
  template <typename Fn> void object(Fn fn) {
    w_.beginObject(JsonLayout::Inline);
    fn();
    w_.endObject();
  }
  template <typename Fn> void array(Fn fn) {
    w_.beginArray(JsonLayout::Inline);
    fn();
    w_.endArray();
  }
  void value(std::nullptr_t) { w_.null(); }
  void value(bool v) { w_.boolean(v); }
  void value(std::string_view v) { w_.string(v); }
  void value(const std::string &v) { w_.string(v); }
  void value(const char *v) { w_.string(v); }
  template <typename T> std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>> value(T v) {
    w_.integer(v);
  }
  JsonWriter &writer() { return w_; }

private:
  JsonWriter &w_;
};

class Dumper {
public:
  Dumper(const ir::Fabric &F, JsonWriter &w) : F(F), w_(w), J(w) {}

  void run() {
    w_.beginObject();
    attr("format", [&](J_ &J) { J.value("fabc-ir"); });
    attr("version", [&](J_ &J) { J.value(1); });
    attr("fabric", [&](J_ &J) { J.value(F.name); });
    models();
    devices();
    links();
    groups();
    places();
    settings();
    metrics();
    w_.endObject();
  }

private:
  template <typename Fn> void attr(const char *key, Fn value) {
    w_.key(key);
    value(J);
  }
  // An array, one element a line: each(J, i) writes element i.
  template <typename Fn> void array(const char *key, size_t n, Fn each) {
    w_.key(key).beginArray();
    for (size_t i = 0; i < n; ++i)
      each(J, i);
    w_.endArray();
  }

  // Floats (lengths, powers) in their shortest exact form, doubles to 15 digits (a unit
  // conversion's last bit is noise); not finite: null, never invalid JSON.
  static void num(J_ &J, double v) { J.writer().rawNumber(fmt::format("{:.15g}", v)); } // not finite: null
  static void num(J_ &J, float v) { J.writer().shortest(v); } // lengths and powers are floats: their shortest form
  template <typename T> static void numAttr(J_ &J, llvm::StringRef key, T v) {
    J.attributeBegin(key);
    num(J, v);
    J.attributeEnd();
  }
  void str(J_ &J, llvm::StringRef key, uint32_t id) { J.attribute(key, llvm::StringRef(F.strings.str(id))); }
  void modelAttr(J_ &J, llvm::StringRef key, uint32_t m) {
    if (m == None)
      J.attribute(key, nullptr);
    else
      str(J, key, F.models[m].name);
  }
  void figure(J_ &J, llvm::StringRef key, const ir::Figure &f) {
    if (!f.known)
      return;
    J.attributeObject(key, [&] {
      numAttr(J, "value", f.value);
      if (f.estimate)
        J.attribute("estimate", true);
      if (f.source)
        str(J, "source", f.source);
    });
  }

  void models() {
    array("models", F.models.size(), [&](J_ &J, size_t i) {
      const ir::Model &m = F.models[i];
      J.object([&] {
        str(J, "name", m.name);
        J.attribute("kind", ir::modelKindName(m.kind));
        if (m.sku)
          str(J, "sku", m.sku);
        if (m.vendor)
          str(J, "vendor", m.vendor);
        figure(J, "power_w", m.power);
        figure(J, "latency_s", m.latency);
        figure(J, "reach_m", m.reach);
        figure(J, "price_usd", m.price);
        if (m.gpus)
          J.attribute("gpus", m.gpus);
        if (m.rackUnits)
          J.attribute("rack_units", m.rackUnits);
        if (m.media != ir::Media::None)
          J.attribute("media", ir::mediaName(m.media));
        if (m.speed)
          numAttr(J, "speed_bps", m.speed);
        if (m.form)
          str(J, "form", m.form);
        if (!m.ports.empty())
          J.attributeArray("ports", [&] {
            for (const ir::PortGroup &g : m.ports)
              J.object([&] {
                str(J, "name", g.name);
                J.attribute("count", g.count);
                numAttr(J, "speed_bps", g.speed);
                J.attribute("lanes", g.lanes);
                if (g.form)
                  str(J, "form", g.form);
                J.attribute("ports_per_cage", g.portsPerCage);
                J.attribute("cpo", g.cpo);
              });
          });
      });
    });
  }

  void devices() {
    std::string name;
    array("devices", F.numDevices(), [&](J_ &J, size_t i) {
      uint32_t d = uint32_t(i);
      J.object([&] {
        J.attribute("id", d);
        J.attribute("name", F.deviceName(d));
        modelAttr(J, "model", F.devModel[d]);
        if (F.devTier[d] == ir::Tier::Unknown)
          J.attribute("tier", nullptr);
        else
          J.attribute("tier", ir::tierIndex(F.devTier[d]));
        J.attribute("role", ir::roleName(F.devRole[d]));
        if (F.devRack[d] == None)
          J.attribute("rack", nullptr);
        else
          J.attribute("rack", F.rackName(F.devRack[d]));
        J.attribute("u", F.devU[d]);
        if (!F.devPower.empty()) {
          numAttr(J, "power_w", F.devPower[d]);
          numAttr(J, "optic_power_w", F.devOpticPower[d]);
        }
        if (F.devAsn[d])
          J.attribute("asn", F.devAsn[d]);
        if (F.devLoopback[d])
          J.attribute("loopback", ipv4(F.devLoopback[d]));
        if (F.devGuid[d])
          J.attribute("guid", fmt::format("0x{:016x}", F.devGuid[d]));
        // Every port of the device, in order, with its link (null: free).
        J.attributeArray("ports", [&] {
          const ir::Layout &l = F.layoutOf(d);
          for (uint32_t p = F.devPortBase[d]; p < F.devPortBase[d] + l.ports; ++p)
            J.object([&] {
              name = F.portName(p);
              J.attribute("name", llvm::StringRef(name).substr(name.find('/') + 1));
              if (F.portLink[p] == None)
                J.attribute("link", nullptr);
              else
                J.attribute("link", F.portLink[p]);
            });
        });
      });
    });
  }

  void links() {
    array("links", F.numLinks(), [&](J_ &J, size_t i) {
      uint32_t l = uint32_t(i);
      J.object([&] {
        J.attribute("id", l);
        J.attribute("a", F.portName(F.linkA[l]));
        J.attribute("b", F.portName(F.linkB[l]));
        numAttr(J, "length_m", F.linkLength[l]);
        uint8_t fl = F.linkFlags[l];
        if (fl & ir::LinkLengthExplicit)
          J.attribute("length_explicit", true);
        if (fl & ir::LinkLengthAssumed)
          J.attribute("length_assumed", true);
        if (fl & ir::LinkInterBuilding)
          J.attribute("inter_building", true);
        if (F.linkMediaReq[l] != ir::Media::None)
          J.attribute("media_requested", ir::mediaName(F.linkMediaReq[l]));
        if (!F.linkMedia.empty()) {
          J.attribute("media", ir::mediaName(F.linkMedia[l]));
          modelAttr(J, "cable", F.linkCable[l]);
          modelAttr(J, "optic_a", F.linkOpticA[l]);
          modelAttr(J, "optic_b", F.linkOpticB[l]);
        }
        if (!F.linkXcvrA.empty()) {
          J.attribute("transceivers_a", F.linkXcvrA[l]);
          J.attribute("transceivers_b", F.linkXcvrB[l]);
          J.attribute("cable_units", F.linkCableUnits[l]);
        }
        if (!F.linkSubnet.empty() && F.linkSubnet[l])
          J.attribute("subnet", ipv4(F.linkSubnet[l]) + "/31");
        if (passes::isHostLink(F, uint32_t(l))) {
          J.attribute("host_address", ipv4(F.linkHostAddr[l]) + "/" + std::to_string(passes::hostPrefixLen(F, uint32_t(l))));
          J.attribute("host_gateway", ipv4(passes::hostGateway(F, uint32_t(l))));
          if (!F.linkHostNet.empty())
            J.attribute("host_vlan", F.hostNets[F.linkHostNet[l]].vlan);
        }
      });
    });
  }

  void groups() {
    array("groups", F.groups.size(), [&](J_ &J, size_t i) {
      const ir::Group &g = F.groups[i];
      J.object([&] {
        J.attribute("kind", ir::groupKindName(g.kind));
        if (g.kindName)
          str(J, "kind_name", g.kindName);
        if (g.node == None)
          J.attribute("name", nullptr);
        else
          J.attribute("name", F.nodeName(g.node));
        J.attributeArray("devices", [&] {
          if (g.contiguous)
            for (uint32_t d = g.begin; d < g.end; ++d)
              J.value(F.deviceName(d));
          else
            for (uint32_t d : g.members)
              J.value(F.deviceName(d));
        });
      });
    });
  }

  void places() {
    array("buildings", F.buildings.size(), [&](J_ &J, size_t i) {
      const ir::Building &b = F.buildings[i];
      J.object([&] {
        str(J, "name", b.name);
        numAttr(J, "hall_distance_m", b.hallDistance);
        if (b.site != ir::None)
          str(J, "site", F.sites[b.site].name);
      });
    });
    array("halls", F.halls.size(), [&](J_ &J, size_t i) {
      const ir::Hall &h = F.halls[i];
      J.object([&] {
        str(J, "name", h.name);
        str(J, "building", F.buildings[h.building].name);
        numAttr(J, "row_pitch_m", h.rowPitch);
        numAttr(J, "rack_width_m", h.rackWidth);
        numAttr(J, "tray_drop_m", h.trayDrop);
        J.attribute("rack_units", h.rackUnits);
      });
    });
    array("racks", F.racks.size(), [&](J_ &J, size_t i) {
      uint32_t r = uint32_t(i);
      J.object([&] {
        J.attribute("name", F.rackName(r));
        J.attribute("row", F.racks[r].row);
        J.attribute("position", F.racks[r].pos);
        J.attribute("used_u", F.racks[r].usedU);
      });
    });
    array("spans", F.spans.size(), [&](J_ &J, size_t i) {
      const ir::Span &s = F.spans[i];
      J.object([&] {
        str(J, "a", s.sites ? F.sites[s.a].name : F.buildings[s.a].name);
        str(J, "b", s.sites ? F.sites[s.b].name : F.buildings[s.b].name);
        numAttr(J, "length_m", s.length);
        if (s.sites)
          J.attribute("between_sites", true);
        if (s.routeFactor != 1)
          numAttr(J, "route_factor", s.routeFactor);
      });
    });
  }

  void setting(J_ &J, const ir::Setting &s) {
    J.attributeBegin(llvm::StringRef(F.strings.str(s.name)));
    switch (s.type) {
    case ir::Setting::Number:
      if (s.dim.none())
        num(J, s.number);
      else
        J.value(formatQuantity(s.number, s.dim));
      break;
    case ir::Setting::String:
      J.value(llvm::StringRef(F.strings.str(s.str)));
      break;
    case ir::Setting::Bool:
      J.value(s.boolean);
      break;
    case ir::Setting::List:
      J.array([&] {
        for (double v : s.list)
          num(J, v);
      });
      break;
    case ir::Setting::StringList:
      J.array([&] {
        for (uint32_t v : s.strs)
          J.value(llvm::StringRef(F.strings.str(v)));
      });
      break;
    }
    J.attributeEnd();
  }

  void settings() {
    static const char *kinds[] = {"power", "oversubscription", "latency", "nvlink", "rail_optimized"};
    attr("options", [&](J_ &J) {
      J.object([&] {
        const ir::Options &o = F.options;
        numAttr(J, "default_cable_length_m", o.defaultCableLength);
        numAttr(J, "cable_slack_m", o.cableSlack);
        numAttr(J, "pue", o.pue);
        numAttr(J, "nic_latency_s", o.gpuNicLatency);
        for (const ir::Setting &s : F.extraOptions)
          setting(J, s);
      });
    });
    array("policies", F.policies.size() + F.extraPolicies.size(), [&](J_ &J, size_t i) {
      if (i < F.policies.size()) {
        const ir::Policy &p = F.policies[i];
        J.object([&] {
          J.attribute("kind", kinds[size_t(p.kind)]);
          if (p.scope)
            str(J, "scope", p.scope);
          if (p.per != ir::None)
            str(J, "per", p.per);
          numAttr(J, "max", p.max);
        });
        return;
      }
      const ir::PolicyBlock &b = F.extraPolicies[i - F.policies.size()];
      J.object([&] {
        str(J, "kind", b.kind);
        for (const ir::Setting &s : b.props)
          setting(J, s);
      });
    });
  }

  void metrics() {
    const ir::Metrics &M = F.metrics;
    attr("metrics", [&](J_ &J) {
      J.object([&] {
        J.attribute("gpus", M.gpus);
        J.attribute("systems", M.systems);
        J.attribute("top_tier", M.topTier);
        J.attribute("nvlink_domains", M.nvlinkDomains);
        J.attribute("largest_nvlink_domain", M.largestNvlinkDomain);
        numAttr(J, "worst_latency_s", M.worstLatency);
        J.attribute("worst_hops", M.worstHops);
        numAttr(J, "bisection_bps", M.bisection);
        J.attribute("transceivers", M.transceivers);
        J.attribute("cpo_ports", M.cpoPorts);
        J.attribute("uses_estimates", M.usesEstimates);
      });
    });
  }

  static std::string ipv4(uint32_t a) {
    return ir::ipv4String(a);
  }

  const ir::Fabric &F;
  JsonWriter &w_;
  J_ J;
};

} // namespace

void dumpIr(const ir::Fabric &F, const std::function<void(std::string_view)> &sink) {
  JsonWriter w([&sink](std::string_view t) { sink(t); });
  Dumper(F, w).run();
}

bool runIr(BackendContext &ctx) {
  OutFile *out = ctx.out.open("ir/ir.json");
  if (!out)
    return failOpen(ctx);
  {
    JsonWriter w([out](std::string_view t) { out->write(t); });
    Dumper(ctx.F, w).run();
  }
  out->close();
  return true;
}

} // namespace fabc
