// fabc diff OLD NEW: both compiled with the same options, compared (analysis/Diff), and
// printed as a recabling plan in working order (unplug, remove, change, install, move,
// replace, plug), switch by switch counts, setting changes, the bill-of-materials delta
// the groups whose counts changed and the power delta: a function per section. Text or JSON, streamed through one 64 KiB
// buffer. --time-stages times the two compilations, each section of the comparison and
// the printing.
#include "Commands.h"
#include "diag/SarifContext.h"
#include "StageTimer.h"

#include "analysis/Diff.h"
#include "backends/Backend.h"
#include "backends/FormatVersions.h"

namespace fabc::cli {
namespace {
using namespace analysis;

// The keys of the records the plan has millions of (cables and their ends, devices),
// quoted when fabc is compiled.
namespace keys {
constexpr JsonKey a("a"), b("b"), device("device"), port("port"), rack("rack"), u("u"), transceiver("transceiver"),
    speed("speed_gbps"), media("media"), length("length_m"), sku("cable_sku"), model("model"), tier("tier"),
    role("role");
} // namespace keys

// ---- output ----
// Text and JSON both go through one buffer handed to the file every JsonWriter::FlushAt
// bytes: the plan is streamed, never held whole, and nothing is allocated per line.
class Writer {
public:
  Writer(bool json, FILE *out) : json_(json), out_(out), j_(buf_, 2, [out](std::string_view s) { write(out, s); }) {}
  ~Writer() { flush(); }
  bool json() const { return json_; }
  JsonWriter &j() { return j_; }
  template <typename... Args> void print(fmt::format_string<Args...> f, Args &&...args) {
    fmt::format_to(fmt::appender(buf_), f, std::forward<Args>(args)...);
    if (buf_.size() >= JsonWriter::FlushAt)
      flush();
  }
  void text(std::string_view s) { append(buf_, s); }
  void flush() {
    if (json_)
      j_.flush();
    else if (buf_.size()) {
      write(out_, view(buf_));
      buf_.clear();
    }
  }

  void jsonEnd(const DiffEnd &e) {
    j_.beginObject(JsonLayout::Inline);
    j_.key(keys::device).string(e.device);
    j_.key(keys::port).string(e.port);
    j_.key(keys::rack).stringOrNull(e.rack);
    j_.key(keys::u).integer(e.u);
    j_.key(keys::transceiver).stringOrNull(e.xcvr);
    j_.endObject();
  }
  void jsonCable(const DiffCable &c) {
    j_.beginObject(JsonLayout::Inline);
    j_.key(keys::a);
    jsonEnd(c.a);
    j_.key(keys::b);
    jsonEnd(c.b);
    j_.key(keys::speed).general(c.gbps);
    j_.key(keys::media).string(c.media);
    j_.key(keys::length).rawNumber(c.length); // "{:.2f}" text, as the diff compares it
    j_.key(keys::sku).string(c.sku);
    j_.endObject();
  }
  // "a/p -- b/q"
  void textEnds(const DiffCable &c) {
    text(c.a.device), text("/"), text(c.a.port), text(" -- "), text(c.b.device), text("/"), text(c.b.port);
  }
  // "a/p -- b/q (MMF, 5.60 m, MPO-OM4)"
  void textCable(const DiffCable &c) {
    textEnds(c);
    text(" ("), text(c.media), text(", "), text(c.length), text(" m");
    if (!c.sku.empty())
      text(", "), text(c.sku);
    text(")");
  }
  void jsonDevice(const DiffDevice &d) {
    j_.beginObject(JsonLayout::Inline);
    j_.key(keys::device).string(d.name);
    j_.key(keys::model).string(d.model);
    j_.key(keys::tier).string(d.tier);
    j_.key(keys::role).string(d.role);
    j_.key(keys::rack).stringOrNull(d.rack);
    j_.key(keys::u).integer(d.u);
    j_.endObject();
  }
  void textDevice(const DiffDevice &d) {
    text(d.name), text(" ("), text(d.model);
    if (!d.rack.empty()) {
      text(", rack "), text(d.rack);
      if (d.u)
        text(" U"), appendUint(buf_, d.u);
    }
    text(")");
  }
  // {"what": [old, new], ...}, null for an unset side.
  void jsonChanges(const DiffChanges &c) {
    j_.beginObject(JsonLayout::Inline);
    for (const auto &ch : c) {
      j_.key(std::get<0>(ch)).beginArray(JsonLayout::Inline);
      j_.stringOrNull(std::get<1>(ch));
      j_.stringOrNull(std::get<2>(ch));
      j_.endArray();
    }
    j_.endObject();
  }
  // "what old -> new; ...", (none) for an unset side.
  void textChanges(const DiffChanges &c) {
    auto v = [](const std::string &s) { return s.empty() ? std::string_view("(none)") : std::string_view(s); };
    for (size_t i = 0; i < c.size(); ++i) {
      if (i)
        text("; ");
      text(std::get<0>(c[i])), text(" "), text(v(std::get<1>(c[i]))), text(" -> "), text(v(std::get<2>(c[i])));
    }
  }

  // A list: in JSON an array under `key`, in text a numbered step (skipped if empty).
  template <typename Fn> void list(const char *key, const std::string &heading, size_t n, Fn item) {
    if (json_) {
      j_.key(key).beginArray();
      for (size_t i = 0; i < n; ++i)
        item(i);
      j_.endArray();
      return;
    }
    if (!n)
      return;
    print("  {}. {}\n", ++step_, heading);
    for (size_t i = 0; i < n; ++i) {
      text("       ");
      item(i);
      text("\n");
      if (buf_.size() >= JsonWriter::FlushAt)
        flush();
    }
  }

private:
  static void write(FILE *out, std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); }
  bool json_;
  FILE *out_;
  TextBuffer buf_;
  JsonWriter j_; // JSON only: writes into buf_, streamed to out_
  unsigned step_ = 0;
};

std::string plural(uint64_t n, const char *one, const char *many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

struct Side {
  const ir::Fabric &F;
  const std::string &file; // as given on the command line
};

// The revision's reliability (issue 18), old and new: expected failures, touches and links
// down per year, the bisection left after losing the costliest switch, single points of
// failure, network islands. Its own function, beside the recabling plan.
void printReliability(Writer &w, const ReliabilityFigures &a, const ReliabilityFigures &b) {
  struct Row {
    const char *key, *label;
    double o, n;
    int decimals;
  };
  const Row rows[] = {
      {"failures_per_year", "failures per year", a.failuresPerYear, b.failuresPerYear, 3},
      {"touches_per_year", "field replacements per year", a.touchesPerYear, b.touchesPerYear, 3},
      {"links_down_per_year", "links down per year", a.linksDownPerYear, b.linksDownPerYear, 3},
      {"costliest_switch_bisection_share", "bisection after losing the costliest switch", a.costliestShare,
       b.costliestShare, 4},
      {"single_points_of_failure", "single points of failure", double(a.singlePoints), double(b.singlePoints), 0},
      {"network_islands", "network islands", double(a.islands), double(b.islands), 0},
  };
  if (w.json()) {
    JsonWriter &j = w.j();
    j.key("reliability").beginObject();
    for (const Row &r : rows) {
      j.key(r.key).beginObject(JsonLayout::Inline);
      j.key("old").fixed(r.o, r.decimals);
      j.key("new").fixed(r.n, r.decimals);
      j.key("delta").fixed(r.n - r.o, r.decimals);
      j.endObject();
    }
    j.key("rail_only").beginObject(JsonLayout::Inline);
    j.key("old").boolean(a.railOnly);
    j.key("new").boolean(b.railOnly);
    j.endObject();
    j.key("unrated_parts").beginObject(JsonLayout::Inline);
    j.key("old").integer(a.unrated);
    j.key("new").integer(b.unrated);
    j.endObject();
    j.key("estimate").boolean(a.estimate || b.estimate);
    j.endObject();
    return;
  }
  w.print("\nreliability (old -> new){}:\n",
          a.unrated || b.unrated ? fmt::format(", {} -> {} parts state no failure rate (counted as none)", a.unrated, b.unrated)
          : a.estimate || b.estimate ? ", estimate: rests on catalog failure rates marked 'estimate'" : "");
  for (const Row &r : rows) {
    if (r.decimals == 4)
      w.print("  {}: {:.1f}% -> {:.1f}%\n", r.label, 100 * r.o, 100 * r.n);
    else
      w.print("  {}: {:.{}f} -> {:.{}f} ({:+.{}f})\n", r.label, r.o, r.decimals, r.n, r.decimals, r.n - r.o, r.decimals);
  }
  if (a.railOnly != b.railOnly)
    w.print("  rail-only: {} -> {}\n", a.railOnly ? "yes" : "no", b.railOnly ? "yes" : "no");
}

// The plan's sections, one function each, in the order they are written. Each writes its
// text or its JSON members.

// Both designs and the counts. False in text when there is nothing more to write.
bool printHeader(Writer &w, const Side &sa, const Side &sb, const FabricDiff &D) {
  const DiffStats &st = D.stats;
  if (w.json()) {
    JsonWriter &j = w.j();
    auto side = [&](const char *key, const Side &s, double pw) {
      j.key(key).beginObject(JsonLayout::Inline);
      j.key("file").string(s.file);
      j.key("fabric").string(s.F.name);
      j.key("gpus").integer(s.F.metrics.gpus);
      j.key("devices").integer(s.F.numDevices());
      j.key("cables").integer(s.F.numLinks());
      j.key("it_power_w").fixed(pw, 1);
      j.endObject();
    };
    side("old", sa, D.powerOld);
    side("new", sb, D.powerNew);
    j.key("summary").beginObject(JsonLayout::Inline);
    j.key("devices_added").integer(st.devicesAdded);
    j.key("devices_removed").integer(st.devicesRemoved);
    j.key("devices_changed").integer(st.devicesChanged);
    j.key("cables_added").integer(st.cablesAdded);
    j.key("cables_removed").integer(st.cablesRemoved);
    j.key("cables_moved").integer(st.cablesMoved);
    j.key("cables_changed").integer(st.cablesChanged);
    j.key("cables_unchanged").integer(st.cablesUnchanged);
    j.key("settings_changed").integer(st.settingsChanged);
    j.key("bom_lines_changed").integer(st.bomLines);
    j.endObject();
    return true;
  }
  auto side = [&](const char *tag, const Side &s, double pw) {
    w.print("{} {}: fabric '{}', {} GPUs, {}, {}, {} IT power{}\n", tag, s.file, s.F.name, s.F.metrics.gpus,
            plural(s.F.numDevices(), "device", "devices"), plural(s.F.numLinks(), "cable", "cables"),
            formatQuantity(pw, dims::Power), s.F.metrics.usesEstimates ? " (estimate)" : "");
  };
  side("---", sa, D.powerOld);
  side("+++", sb, D.powerNew);
  if (!st.any()) {
    w.print("no differences\n");
    return false;
  }
  w.print("devices: {} added, {} removed, {} changed; cables: {} added, {} removed, {} moved, {} replaced, {} "
          "unchanged\n\nrecabling plan, in working order:\n",
          st.devicesAdded, st.devicesRemoved, st.devicesChanged, st.cablesAdded, st.cablesRemoved, st.cablesMoved,
          st.cablesChanged, st.cablesUnchanged);
  return true;
}

// The recabling plan: unplug, remove, change, install, move, replace, plug.
void printSteps(Writer &w, const FabricDiff &D) {
  const DiffNames &A = D.oldNames, &B = D.newNames;
  JsonWriter &j = w.j();
  w.list("cables_removed", "unplug " + plural(D.cabRemoved.size(), "cable", "cables"), D.cabRemoved.size(), [&](size_t i) {
    DiffCable c = diffCable(A, D.cabRemoved[i]);
    w.json() ? w.jsonCable(c) : (w.text("- "), w.textCable(c));
  });
  w.list("devices_removed", "remove " + plural(D.devRemoved.size(), "device", "devices"), D.devRemoved.size(),
         [&](size_t i) {
           DiffDevice d = diffDevice(A, D.devRemoved[i]);
           w.json() ? w.jsonDevice(d) : (w.text("- "), w.textDevice(d));
         });
  w.list("devices_changed", "change " + plural(D.devChanged.size(), "device", "devices") + " in place",
         D.devChanged.size(), [&](size_t i) {
           uint32_t d = D.devChanged[i];
           DiffDevice o = diffDevice(A, D.devNewToOld[d]), n = diffDevice(B, d);
           DiffChanges c = deviceChanges(o, n);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("device").string(n.name);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else {
             w.text("~ "), w.text(n.name), w.text(": ");
             w.textChanges(c);
           }
         });
  w.list("devices_added", "install " + plural(D.devAdded.size(), "device", "devices"), D.devAdded.size(), [&](size_t i) {
    DiffDevice d = diffDevice(B, D.devAdded[i]);
    w.json() ? w.jsonDevice(d) : (w.text("+ "), w.textDevice(d));
  });
  w.list("cables_moved", "move " + plural(D.cabMoved.size(), "cable", "cables") + " (same devices, other ports)",
         D.cabMoved.size(), [&](size_t i) {
           DiffCable o = diffCable(A, D.cabMoved[i].first), n = diffCable(B, D.cabMoved[i].second);
           DiffChanges c = cableChanges(o, n, false);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("old");
             w.jsonCable(o);
             j.key("new");
             w.jsonCable(n);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else {
             w.text("> "), w.textEnds(o), w.text("  =>  "), w.textEnds(n);
             if (!c.empty())
               w.text(": "), w.textChanges(c);
           }
         });
  w.list("cables_changed", "replace " + plural(D.cabChanged.size(), "cable", "cables") + " (same ports)",
         D.cabChanged.size(), [&](size_t i) {
           DiffCable o = diffCable(A, D.linkNewToOld[D.cabChanged[i]]), n = diffCable(B, D.cabChanged[i]);
           DiffChanges c = cableChanges(o, n, true);
           if (w.json()) {
             j.beginObject(JsonLayout::Inline);
             j.key("a").string(std::string(n.a.device) + "/" + n.a.port);
             j.key("b").string(std::string(n.b.device) + "/" + n.b.port);
             j.key("changes");
             w.jsonChanges(c);
             j.endObject();
           } else {
             w.text("~ "), w.textEnds(n), w.text(": ");
             w.textChanges(c);
           }
         });
  w.list("cables_added", "plug " + plural(D.cabAdded.size(), "cable", "cables"), D.cabAdded.size(), [&](size_t i) {
    DiffCable c = diffCable(B, D.cabAdded[i]);
    w.json() ? w.jsonCable(c) : (w.text("+ "), w.textCable(c));
  });
}

// Switches whose configuration must be pushed again.
void printSwitches(Writer &w, const FabricDiff &D) {
  const DiffNames &B = D.newNames;
  if (w.json()) {
    JsonWriter &j = w.j();
    j.key("switches").beginArray();
    for (uint32_t d : D.switches) {
      const SwitchTouch &t = D.touch[d];
      j.beginObject(JsonLayout::Inline);
      j.key("device").string(B.device(d));
      j.key("unplugged").integer(t.unplugged);
      j.key("plugged").integer(t.plugged);
      j.key("moved").integer(t.moved);
      j.key("replaced").integer(t.replaced);
      j.key("changed").boolean(D.changedDev[d]);
      j.endObject();
    }
    j.endArray();
    return;
  }
  if (D.switches.empty())
    return;
  w.print("\nswitches to reconfigure ({}):\n", D.switches.size());
  for (uint32_t d : D.switches) {
    const SwitchTouch &t = D.touch[d];
    w.print("  {}: {} unplugged, {} plugged, {} moved, {} replaced{}\n", B.device(d), t.unplugged, t.plugged, t.moved,
            t.replaced, D.changedDev[d] ? ", device changed (see step above)" : "");
  }
}

void printSettings(Writer &w, const FabricDiff &D) {
  if (w.json()) {
    JsonWriter &j = w.j();
    j.key("settings").beginArray();
    for (auto &s : D.settings) {
      j.beginObject(JsonLayout::Inline);
      j.key("setting").string(std::get<0>(s));
      j.key("old").stringOrNull(std::get<1>(s));
      j.key("new").stringOrNull(std::get<2>(s));
      j.endObject();
    }
    j.endArray();
    return;
  }
  if (D.settings.empty())
    return;
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

void printBom(Writer &w, const FabricDiff &D) {
  if (w.json()) {
    JsonWriter &j = w.j();
    j.key("bom").beginArray();
    for (auto &kv : D.bom) {
      const BomKey &bk = kv.first;
      j.beginObject(JsonLayout::Inline);
      j.key("category").string(bk.category);
      j.key("sku").string(bk.sku);
      j.key("media").stringOrNull(bk.media);
      j.key("order_length_m");
      bk.length < 0 ? j.null() : j.general(bk.length);
      j.key("old").integer(kv.second.first);
      j.key("new").integer(kv.second.second);
      j.key("delta").integer(int64_t(kv.second.second) - int64_t(kv.second.first));
      j.endObject();
    }
    j.endArray();
    return;
  }
  if (D.bom.empty())
    return;
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

// Declared groups (pods, planes, ...) whose GPUs, switches, links or bisection changed.
void printGroups(Writer &w, const FabricDiff &D) {
  if (w.json()) {
    JsonWriter &j = w.j();
    auto side = [&](const char *key, const GroupSide &g) {
      j.key(key);
      if (!g.present) {
        j.null();
        return;
      }
      j.beginObject(JsonLayout::Inline);
      j.key("gpus").integer(g.gpus);
      j.key("switches").integer(g.switches);
      j.key("links").integer(g.links);
      j.key("boundary_links").integer(g.boundaryLinks);
      if (g.bisectionGbps >= 0)
        j.key("bisection_gbps").fixed(g.bisectionGbps, 0);
      j.endObject();
    };
    j.key("groups").beginArray();
    for (const GroupDelta &g : D.groups) {
      j.beginObject(JsonLayout::Inline);
      j.key("kind").string(g.kind);
      j.key("name").string(g.name);
      side("old", g.old);
      side("new", g.now);
      j.endObject();
    }
    j.endArray();
    return;
  }
  if (D.groups.empty())
    return;
  w.print("\ngroups (old -> new):\n");
  for (const GroupDelta &g : D.groups) {
    w.print("  {} {}: ", g.kind, g.name);
    const GroupSide &o = g.old, &n = g.now;
    auto bisection = [](double gbps) { return formatQuantity(gbps * 1e9, dims::Bandwidth); };
    if (!o.present || !n.present) {
      const GroupSide &x = o.present ? o : n;
      w.print("{} ({} GPU{}, {} switch{}, {} link{}{}{})\n", o.present ? "removed" : "added", x.gpus,
              x.gpus == 1 ? "" : "s", x.switches, x.switches == 1 ? "" : "es", x.links, x.links == 1 ? "" : "s",
              x.bisectionGbps >= 0 ? ", bisection " : "", x.bisectionGbps >= 0 ? bisection(x.bisectionGbps) : "");
      continue;
    }
    const char *sep = "";
    auto field = [&](const char *what, uint64_t a, uint64_t b) {
      if (a == b)
        return;
      w.print("{}{} {} -> {} ({:+d})", sep, what, a, b, int64_t(b) - int64_t(a));
      sep = ", ";
    };
    field("gpus", o.gpus, n.gpus);
    field("switches", o.switches, n.switches);
    field("links", o.links, n.links);
    field("boundary links", o.boundaryLinks, n.boundaryLinks);
    if (o.bisectionGbps != n.bisectionGbps)
      w.print("{}bisection {} -> {}", sep, bisection(o.bisectionGbps), bisection(n.bisectionGbps));
    w.print("\n");
  }
}

void printPower(Writer &w, const FabricDiff &D) {
  if (w.json()) {
    JsonWriter &j = w.j();
    j.key("it_power_w").beginObject(JsonLayout::Inline);
    j.key("old").fixed(D.powerOld, 1);
    j.key("new").fixed(D.powerNew, 1);
    j.key("delta").fixed(D.powerNew - D.powerOld, 1);
    j.key("estimate").boolean(D.powerEstimate);
    j.endObject();
    return;
  }
  w.print("\nIT power: {} -> {} ({}{}){}\n", formatQuantity(D.powerOld, dims::Power), formatQuantity(D.powerNew, dims::Power),
          D.powerNew >= D.powerOld ? "+" : "-", formatQuantity(std::abs(D.powerNew - D.powerOld), dims::Power),
          D.powerEstimate ? ", estimate: rests on catalog figures marked 'estimate'" : "");
}

// Writes the plan from `sa` (old) to `sb` (new).
void printDiff(const Side &sa, const Side &sb, const FabricDiff &D, bool json, FILE *out) {
  Writer w(json, out);
  if (json) {
    w.j().beginObject();
    w.j().key("format_version").string(formats::Diff);
  }
  if (!printHeader(w, sa, sb, D))
    return;
  printSteps(w, D);
  printSwitches(w, D);
  printSettings(w, D);
  printBom(w, D);
  printGroups(w, D);
  printPower(w, D);
  printReliability(w, D.reliabilityOld, D.reliabilityNew);
  if (json)
    w.j().endObject();
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
  setDiagInput(o.inputs[0]); // each finish() hands its input's diagnostics over
  a.diags().finish();
  bool okB = b.run(CompileInput::file(o.inputs[1]));
  setDiagInput(o.inputs[1]);
  b.diags().finish();
  if (a.ioError() || b.ioError() || !okA || !okB) {
    timer.report();
    return a.ioError() || b.ioError() ? ExitUsage : ExitErrors;
  }
  const ir::Fabric &A = a.fabric(), &B = b.fabric();
  FabricDiff D = compareFabrics(a.analyses(), b.analyses(), [&](const char *stage) { timer(stage); });
  timer("diff print");
  printDiff({A, o.inputs[0]}, {B, o.inputs[1]}, D, o.diffJson, stdout);
  timer.report();
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return ExitUsage;
  return o.exitCode && D.stats.any() ? ExitDiffers : ExitOk;
}

} // namespace fabc::cli
