// fabc diff OLD NEW: both compiled with the same options, compared (analysis/Diff), and
// printed as a recabling plan in working order (unplug, remove, change, install, move,
// replace, plug), switch by switch counts, setting changes, the bill-of-materials delta
// and the power delta. Text or JSON, streamed.
#include "Commands.h"
#include "StageTimer.h"

#include "analysis/Diff.h"
#include "backends/Backend.h"

namespace fabc::cli {
namespace {
using namespace analysis;

// ---- output ----
class Writer {
public:
  Writer(bool json, FILE *out) : json_(json), out_(out) {}
  bool json() const { return json_; }
  template <typename... Args> void print(fmt::format_string<Args...> f, Args &&...args) {
    fmt::print(out_, f, std::forward<Args>(args)...);
  }

  std::string jsonEnd(const DiffEnd &e) const {
    return fmt::format("{{\"device\": {}, \"port\": {}, \"rack\": {}, \"u\": {}, \"transceiver\": {}}}",
                       jsonString(e.device), jsonString(e.port), e.rack.empty() ? "null" : jsonString(e.rack), e.u,
                       e.xcvr.empty() ? "null" : jsonString(e.xcvr));
  }
  std::string jsonCable(const DiffCable &c) const {
    return fmt::format("{{\"a\": {}, \"b\": {}, \"speed_gbps\": {:g}, \"media\": \"{}\", \"length_m\": {}, "
                       "\"cable_sku\": {}}}",
                       jsonEnd(c.a), jsonEnd(c.b), c.gbps, c.media, c.length, jsonString(c.sku));
  }
  static std::string textCable(const DiffCable &c) {
    return fmt::format("{}/{} -- {}/{} ({}, {} m{}{})", c.a.device, c.a.port, c.b.device, c.b.port, c.media, c.length,
                       c.sku.empty() ? "" : ", ", c.sku);
  }
  std::string jsonDevice(const DiffDevice &d) const {
    return fmt::format("{{\"device\": {}, \"model\": {}, \"tier\": \"{}\", \"role\": \"{}\", \"rack\": {}, \"u\": {}}}",
                       jsonString(d.name), jsonString(d.model), d.tier, d.role,
                       d.rack.empty() ? "null" : jsonString(d.rack), d.u);
  }
  static std::string textDevice(const DiffDevice &d) {
    std::string r = d.name + " (" + d.model;
    if (!d.rack.empty())
      r += ", rack " + d.rack + (d.u ? fmt::format(" U{}", d.u) : "");
    return r + ")";
  }
  std::string jsonChanges(const DiffChanges &c) const {
    std::string r = "{";
    for (size_t i = 0; i < c.size(); ++i) {
      auto v = [](const std::string &s) { return s.empty() ? std::string("null") : jsonString(s); };
      r += fmt::format("{}\"{}\": [{}, {}]", i ? ", " : "", std::get<0>(c[i]), v(std::get<1>(c[i])), v(std::get<2>(c[i])));
    }
    return r + "}";
  }
  static std::string textChanges(const DiffChanges &c) {
    std::string r;
    for (size_t i = 0; i < c.size(); ++i) {
      auto v = [](const std::string &s) { return s.empty() ? std::string("(none)") : s; };
      r += fmt::format("{}{} {} -> {}", i ? "; " : "", std::get<0>(c[i]), v(std::get<1>(c[i])), v(std::get<2>(c[i])));
    }
    return r;
  }

  // A list: in JSON an array under `key`, in text a numbered step (skipped if empty).
  template <typename Fn> void list(const char *key, const std::string &heading, size_t n, Fn item) {
    if (json_) {
      print(",\n  \"{}\": [", key);
      for (size_t i = 0; i < n; ++i) {
        print("{}\n    ", i ? "," : "");
        item(i);
      }
      print("{}]", n ? "\n  " : "");
      return;
    }
    if (!n)
      return;
    print("  {}. {}\n", ++step_, heading);
    for (size_t i = 0; i < n; ++i) {
      print("       ");
      item(i);
      print("\n");
    }
  }

private:
  bool json_;
  FILE *out_;
  unsigned step_ = 0;
};

std::string plural(uint64_t n, const char *one, const char *many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

struct Side {
  const ir::Fabric &F;
  const std::string &file; // as given on the command line
};

// Writes the plan from `sa` (old) to `sb` (new).
void printDiff(const Side &sa, const Side &sb, const FabricDiff &D, bool json, FILE *out) {
  const ir::Fabric &A = sa.F, &B = sb.F;
  const DiffStats &st = D.stats;
  Writer w(json, out);
  if (w.json()) {
    auto side = [&](const Side &s, double pw) {
      return fmt::format("{{\"file\": {}, \"fabric\": {}, \"gpus\": {}, \"devices\": {}, \"cables\": {}, "
                         "\"it_power_w\": {:.1f}}}",
                         jsonString(s.file), jsonString(s.F.name), s.F.metrics.gpus, s.F.numDevices(), s.F.numLinks(), pw);
    };
    w.print("{{\n  \"old\": {},\n  \"new\": {},\n", side(sa, D.powerOld), side(sb, D.powerNew));
    w.print("  \"summary\": {{\"devices_added\": {}, \"devices_removed\": {}, \"devices_changed\": {}, "
            "\"cables_added\": {}, \"cables_removed\": {}, \"cables_moved\": {}, \"cables_changed\": {}, "
            "\"cables_unchanged\": {}, \"settings_changed\": {}, \"bom_lines_changed\": {}}}",
            st.devicesAdded, st.devicesRemoved, st.devicesChanged, st.cablesAdded, st.cablesRemoved, st.cablesMoved,
            st.cablesChanged, st.cablesUnchanged, st.settingsChanged, st.bomLines);
  } else {
    auto side = [&](const char *tag, const Side &s, double pw) {
      w.print("{} {}: fabric '{}', {} GPUs, {}, {}, {} IT power{}\n", tag, s.file, s.F.name, s.F.metrics.gpus,
              plural(s.F.numDevices(), "device", "devices"), plural(s.F.numLinks(), "cable", "cables"),
              formatQuantity(pw, dims::Power), s.F.metrics.usesEstimates ? " (estimate)" : "");
    };
    side("---", sa, D.powerOld);
    side("+++", sb, D.powerNew);
    if (!st.any()) {
      w.print("no differences\n");
      return;
    }
    w.print("devices: {} added, {} removed, {} changed; cables: {} added, {} removed, {} moved, {} replaced, {} "
            "unchanged\n\nrecabling plan, in working order:\n",
            st.devicesAdded, st.devicesRemoved, st.devicesChanged, st.cablesAdded, st.cablesRemoved, st.cablesMoved,
            st.cablesChanged, st.cablesUnchanged);
  }

  w.list("cables_removed", "unplug " + plural(D.cabRemoved.size(), "cable", "cables"), D.cabRemoved.size(), [&](size_t i) {
    DiffCable c = diffCable(A, D.cabRemoved[i]);
    w.print("{}", w.json() ? w.jsonCable(c) : "- " + Writer::textCable(c));
  });
  w.list("devices_removed", "remove " + plural(D.devRemoved.size(), "device", "devices"), D.devRemoved.size(),
         [&](size_t i) {
           DiffDevice d = diffDevice(A, D.devRemoved[i]);
           w.print("{}", w.json() ? w.jsonDevice(d) : "- " + Writer::textDevice(d));
         });
  w.list("devices_changed", "change " + plural(D.devChanged.size(), "device", "devices") + " in place",
         D.devChanged.size(), [&](size_t i) {
           uint32_t d = D.devChanged[i];
           DiffDevice o = diffDevice(A, D.devNewToOld[d]), n = diffDevice(B, d);
           DiffChanges c = deviceChanges(o, n);
           if (w.json())
             w.print("{{\"device\": {}, \"changes\": {}}}", jsonString(n.name), w.jsonChanges(c));
           else
             w.print("~ {}: {}", n.name, Writer::textChanges(c));
         });
  w.list("devices_added", "install " + plural(D.devAdded.size(), "device", "devices"), D.devAdded.size(), [&](size_t i) {
    DiffDevice d = diffDevice(B, D.devAdded[i]);
    w.print("{}", w.json() ? w.jsonDevice(d) : "+ " + Writer::textDevice(d));
  });
  w.list("cables_moved", "move " + plural(D.cabMoved.size(), "cable", "cables") + " (same devices, other ports)",
         D.cabMoved.size(), [&](size_t i) {
           DiffCable o = diffCable(A, D.cabMoved[i].first), n = diffCable(B, D.cabMoved[i].second);
           DiffChanges c = cableChanges(o, n, false);
           if (w.json()) {
             w.print("{{\"old\": {}, \"new\": {}, \"changes\": {}}}", w.jsonCable(o), w.jsonCable(n), w.jsonChanges(c));
           } else {
             w.print("> {}/{} -- {}/{}  =>  {}/{} -- {}/{}{}{}", o.a.device, o.a.port, o.b.device, o.b.port, n.a.device,
                     n.a.port, n.b.device, n.b.port, c.empty() ? "" : ": ", Writer::textChanges(c));
           }
         });
  w.list("cables_changed", "replace " + plural(D.cabChanged.size(), "cable", "cables") + " (same ports)",
         D.cabChanged.size(), [&](size_t i) {
           DiffCable o = diffCable(A, D.linkNewToOld[D.cabChanged[i]]), n = diffCable(B, D.cabChanged[i]);
           DiffChanges c = cableChanges(o, n, true);
           if (w.json())
             w.print("{{\"a\": {}, \"b\": {}, \"changes\": {}}}", jsonString(n.a.device + "/" + n.a.port),
                     jsonString(n.b.device + "/" + n.b.port), w.jsonChanges(c));
           else
             w.print("~ {}/{} -- {}/{}: {}", n.a.device, n.a.port, n.b.device, n.b.port, Writer::textChanges(c));
         });
  w.list("cables_added", "plug " + plural(D.cabAdded.size(), "cable", "cables"), D.cabAdded.size(), [&](size_t i) {
    DiffCable c = diffCable(B, D.cabAdded[i]);
    w.print("{}", w.json() ? w.jsonCable(c) : "+ " + Writer::textCable(c));
  });

  if (w.json()) {
    w.print(",\n  \"switches\": [");
    for (size_t i = 0; i < D.switches.size(); ++i) {
      const SwitchTouch &t = D.touch[D.switches[i]];
      w.print("{}\n    {{\"device\": {}, \"unplugged\": {}, \"plugged\": {}, \"moved\": {}, \"replaced\": {}, "
              "\"changed\": {}}}",
              i ? "," : "", jsonString(B.deviceName(D.switches[i])), t.unplugged, t.plugged, t.moved, t.replaced,
              D.changedDev[D.switches[i]] ? "true" : "false");
    }
    w.print("{}],\n  \"settings\": [", D.switches.empty() ? "" : "\n  ");
    for (size_t i = 0; i < D.settings.size(); ++i) {
      auto v = [](const std::string &s) { return s.empty() ? std::string("null") : jsonString(s); };
      w.print("{}\n    {{\"setting\": {}, \"old\": {}, \"new\": {}}}", i ? "," : "", jsonString(std::get<0>(D.settings[i])),
              v(std::get<1>(D.settings[i])), v(std::get<2>(D.settings[i])));
    }
    w.print("{}],\n  \"bom\": [", D.settings.empty() ? "" : "\n  ");
    size_t i = 0;
    for (auto &kv : D.bom) {
      const BomKey &bk = kv.first;
      w.print("{}\n    {{\"category\": \"{}\", \"sku\": {}, \"media\": {}, \"order_length_m\": {}, \"old\": {}, "
              "\"new\": {}, \"delta\": {}}}",
              i++ ? "," : "", bk.category, jsonString(bk.sku), bk.media.empty() ? "null" : jsonString(bk.media),
              bk.length < 0 ? std::string("null") : fmt::format("{:g}", bk.length), kv.second.first, kv.second.second,
              int64_t(kv.second.second) - int64_t(kv.second.first));
    }
    w.print("{}],\n  \"it_power_w\": {{\"old\": {:.1f}, \"new\": {:.1f}, \"delta\": {:.1f}, \"estimate\": {}}}\n}}\n",
            D.bom.empty() ? "" : "\n  ", D.powerOld, D.powerNew, D.powerNew - D.powerOld, D.powerEstimate ? "true" : "false");
    return;
  }

  if (!D.switches.empty()) {
    w.print("\nswitches to reconfigure ({}):\n", D.switches.size());
    for (uint32_t d : D.switches) {
      const SwitchTouch &t = D.touch[d];
      w.print("  {}: {} unplugged, {} plugged, {} moved, {} replaced{}\n", B.deviceName(d), t.unplugged, t.plugged,
              t.moved, t.replaced, D.changedDev[d] ? ", device changed (see step above)" : "");
    }
  }
  if (!D.settings.empty()) {
    w.print("\nsettings:\n");
    for (auto &s : D.settings) {
      const std::string &o = std::get<1>(s), &n = std::get<2>(s);
      if (o.empty())
        w.print("  + {} = {}\n", std::get<0>(s), n);
      else if (n.empty())
        w.print("  - {} = {}\n", std::get<0>(s), o);
      else
        w.print("  ~ {}: {} -> {}\n", std::get<0>(s), o, n);
    }
  }
  if (!D.bom.empty()) {
    w.print("\nbill of materials (old -> new):\n");
    for (auto &kv : D.bom) {
      const BomKey &bk = kv.first;
      std::string what = bk.category + " " + bk.sku;
      if (bk.category == "cable")
        what += fmt::format(" {} m", bk.length);
      w.print("  {}: {} -> {} ({:+d})\n", what, kv.second.first, kv.second.second,
              int64_t(kv.second.second) - int64_t(kv.second.first));
    }
  }
  w.print("\nIT power: {} -> {} ({}{}){}\n", formatQuantity(D.powerOld, dims::Power), formatQuantity(D.powerNew, dims::Power),
          D.powerNew >= D.powerOld ? "+" : "-", formatQuantity(std::abs(D.powerNew - D.powerOld), dims::Power),
          D.powerEstimate ? ", estimate: rests on catalog figures marked 'estimate'" : "");
  return;
}

} // namespace

int diffCommand(Options &o) {
  if (o.inputs.size() != 2)
    return usageError("diff takes two designs: fabc diff OLD NEW");
  if (!o.stopAfter.empty()) // the comparison reads what every pass produces
    return usageError("--stop-after does not apply to diff");
  StageTimer timer(o.timeStages);
  Compilation a(compileOptions(o, false)), b(compileOptions(o, false));
  setupDiags(o, a.diags());
  setupDiags(o, b.diags());
  a.onStage([&](const char *stage) { timer(stage); });
  b.onStage([&](const char *stage) { timer(stage); });
  bool okA = a.run(CompileInput::file(o.inputs[0]));
  a.diags().finish();
  bool okB = b.run(CompileInput::file(o.inputs[1]));
  b.diags().finish();
  timer.report();
  if (a.ioError() || b.ioError())
    return ExitUsage;
  if (!okA || !okB)
    return ExitErrors;
  const ir::Fabric &A = a.fabric(), &B = b.fabric();
  FabricDiff D = compareFabrics(a.analyses(), b.analyses());
  printDiff({A, o.inputs[0]}, {B, o.inputs[1]}, D, o.diffJson, stdout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return ExitUsage;
  return o.exitCode && D.stats.any() ? ExitDiffers : ExitOk;
}

} // namespace fabc::cli
