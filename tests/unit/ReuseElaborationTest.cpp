// The elaboration reused across an edit of options and policies (compiler/reuse/ReuseSettings.cpp,
// Compilation::reuseElaboration), and the checked IR across an edit of only the figures
// of checked policies (Compilation::reusePasses): for each edit, the diagnostics, the
// values a hover shows and what the passes computed must be what compiling the edited
// text afresh gives, and the reuse must happen exactly when the edit lies where it may.
#include "CompareCompiles.h"
#include "Compilation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace fabc;
using fabc::test::describe;
using fabc::test::edit;
using fabc::test::valuesByPlace;

namespace {

// Hosts unplaced: every link's length is the default cable length, which picks the cable
// (a DAC to 3 m, an AOC to 100 m, none past that: FAB-E0106 or the like).
const char *kDesign = R"(let n = 4;
model S : switch { port p[8] { speed = 400 Gb/s; } power = 500 W source "t"; }
model N : system { port n[1] { speed = 400 Gb/s; } power = 1000 W source "t"; gpus = 1; }
model D : cable { media = "DAC"; speed = 400 Gb/s; reach = 3 m source "t"; power = 0 W source "t"; }
model A : cable { media = "AOC"; speed = 400 Gb/s; reach = 100 m source "t"; power = 0 W source "t"; }

template pod(k) {
  leaf : S;
  host[k] : N;
  for i in 0 .. k { link host[i].n[0] -- leaf.p[i]; }
}

fabric f {
  pods[2] : pod(n);
  spine : S;
  link spine.p[0] -- pods[0].leaf.p[7];
  link spine.p[1] -- pods[1].leaf.p[7];
  policy power { max = 9 kW; }
}
option default_cable_length = 2 m;
option pue = 1.3;
)";

const std::string kDesignText = kDesign;

struct Result {
  std::shared_ptr<Compilation> c;
  std::shared_ptr<BindingValues> values;
};

// The outputs whose rules run after the passes: none, or the language server's (the
// default backends).
std::vector<std::string> outputs;

Result compile(const std::string &text, const Result *base = nullptr, const std::vector<std::string> &includes = {},
               CompileOptions::Keep keep = CompileOptions::Keep::Yes, bool recheckPolicies = true) {
  CompileOptions o;
  o.standardSearchPath = false;
  o.includes = includes;
  o.keepElaborated = keep;
  o.recheckPolicies = recheckPolicies;
  o.outputs = outputs;
  auto values = std::make_shared<BindingValues>();
  o.values = values.get();
  if (base) {
    o.reuse = Compilation::reuseBase(base->c);
    o.reuseValues = base->values.get();
  }
  auto c = std::make_shared<Compilation>(o);
  c->diags().setFormat(DiagFormat::Json);
  c->run(CompileInput::source("t.fab", text));
  return {c, values};
}

// What the passes computed, and the options they read.
std::string facts(const ir::Fabric &F) {
  std::string out = fmt::format("{} devices, {} links, {} strings; options {} {} {} {} at {}\n", F.numDevices(),
                                F.numLinks(), F.strings.size(), F.options.defaultCableLength, F.options.cableSlack,
                                F.options.pue, F.options.gpuNicLatency, F.options.defaultCableLengthLoc.begin.offset);
  for (size_t l = 0; l < F.numLinks(); ++l)
    out += fmt::format("link {} {}: {} m {} cable {} optics {} {} at {}\n", F.linkA[l], F.linkB[l], F.linkLength[l],
                       ir::mediaName(F.linkMedia[l]), F.linkCable[l], F.linkOpticA[l], F.linkOpticB[l],
                       F.linkLoc(uint32_t(l)).offset);
  // Places, field by field (not through Fabric::forEachPlace, which they check).
  for (const ir::Model &m : F.models)
    if (m.loc.begin.file == 0)
      out += fmt::format("model at {}+{}\n", m.loc.begin.offset, m.loc.length);
  for (const ir::TemplateInstance &t : F.instances.instances)
    out += fmt::format("instance at {}+{}\n", t.at.begin.offset, t.at.length);
  for (const ir::Group &g : F.groups)
    out += fmt::format("group at {}+{}\n", g.loc.begin.offset, g.loc.length);
  for (const ir::Rack &r : F.racks)
    out += fmt::format("rack at {}+{}\n", r.loc.begin.offset, r.loc.length);
  for (const ir::Hall &h : F.halls)
    out += fmt::format("hall at {}+{}\n", h.loc.begin.offset, h.loc.length);
  for (const ir::Policy &p : F.policies)
    out += fmt::format("policy at {}+{} max {} per {} at {}\n", p.loc.begin.offset, p.loc.length, p.max, p.per,
                       p.perLoc.begin.offset);
  // What the validate pass measured (a reused checked IR's are its base's, places moved).
  const ir::Metrics &M = F.metrics;
  out += fmt::format("metrics: bisection {} top tier {} worst latency {} groups {}\n", M.bisection, M.topTier,
                     M.worstLatency, M.groupStats.size());
  for (const ir::ScopeStats &sc : M.scopes)
    for (const ir::ScopeElement &e : sc.elements)
      out += fmt::format("scope {} {} at {}+{}: {} W, {} down {} up\n", sc.name, e.name, e.loc.begin.offset,
                         e.loc.length, e.power, e.down, e.up);
  out += fmt::format("fabric at {}+{}\n", F.loc.begin.offset, F.loc.length);
  for (size_t d = 0; d < F.numDevices(); ++d)
    out += fmt::format("device {} {} at {}: {} W\n", F.deviceName(uint32_t(d)), F.devTier[d] == ir::Tier::Leaf,
                       F.devLoc[d].offset, F.devPower.empty() ? 0.f : F.devPower[d]);
  return out;
}

// Compiles `text` reusing `base`, and afresh: the same diagnostics, values and computed
// IR; whether the elaboration or the checked IR was reused is returned.
bool sameAsFresh(const Result &base, const std::string &text, Result *out = nullptr,
                 const std::vector<std::string> &includes = {}) {
  Result reused = compile(text, &base, includes), fresh = compile(text, nullptr, includes);
  EXPECT_EQ(describe(*reused.c), describe(*fresh.c)) << text;
  EXPECT_EQ(valuesByPlace(*reused.values), valuesByPlace(*fresh.values)) << text;
  bool passesRan = !fresh.c->fabric().linkMedia.empty();
  EXPECT_EQ(passesRan, !reused.c->fabric().linkMedia.empty()) << text;
  if (passesRan) {
    EXPECT_EQ(facts(reused.c->fabric()), facts(fresh.c->fabric())) << text;
    EXPECT_EQ(fabc::test::passFacts(reused.c->fabric()), fabc::test::passFacts(fresh.c->fabric())) << text;
  }
  if (out)
    *out = reused;
  EXPECT_FALSE(reused.c->elaborationReused() && reused.c->passesReused());
  return reused.c->elaborationReused() || reused.c->passesReused();
}

double firstLength(const Result &r) { return r.c->fabric().linkLength.at(0); }

} // namespace

TEST(ReuseElaboration, AnOptionsValue) {
  Result base = compile(kDesign), r;
  // The passes' warnings (the power policy without racks, single uplinks) come again.
  ASSERT_NE(describe(*base.c).find("single uplink"), std::string::npos);
  EXPECT_FALSE(base.c->elaborationReused());
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "= 2 m", "= 3 m"), &r)); // same length
  EXPECT_EQ(firstLength(r), 3); // unplaced: the default, without slack
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "= 2 m", "= 50 m"), &r)); // longer: an AOC now
  EXPECT_EQ(firstLength(r), 50);
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "= 2 m", "= 2 km"))); // no cable reaches: the media pass reports
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "pue = 1.3", "pue = 1.45")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "= 2 m", "= 2 m + 1 m"))); // the same tokens but for some
}

TEST(ReuseElaboration, OptionsAddedAndRemoved) {
  Result base = compile(kDesign);
  EXPECT_TRUE(sameAsFresh(base, std::string(kDesign) + "option cable_slack = 0 m;\n"));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "option pue = 1.3;\n", "")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "option pue = 1.3;\n", "option pue = 1.3; option nic_latency = 1 us;\n")));
  // A comment typed after the options: the check itself is reused (decision 0621).
  Result r;
  EXPECT_FALSE(sameAsFresh(base, std::string(kDesign) + "// a note", &r));
  EXPECT_NE(r.c->base(), nullptr);
}

TEST(ReuseElaboration, ChainedEdits) {
  // Each reuse keeps the same elaborated IR for the next one.
  Result r = compile(kDesign);
  for (const char *len : {"5 m", "70 m", "1 m", "300 m", "2 m"}) {
    std::string text = edit(kDesign, "2 m;", std::string(len) + ";");
    Result next;
    EXPECT_TRUE(sameAsFresh(r, text, &next)) << len;
    r = next;
  }
}

TEST(ReuseElaboration, PlacesMovedPastTheEdit) {
  // Above the fabric: a longer value moves every place the IR holds after it (the
  // models', devices', links', instances'), compared with a fresh compile's.
  std::string above = edit(kDesign, "option default_cable_length = 2 m;\n", "");
  above = "option default_cable_length = 2 m;\n" + above;
  Result base = compile(above), r;
  EXPECT_TRUE(sameAsFresh(base, edit(above, "= 2 m", "= 3 m")));         // the same length
  EXPECT_TRUE(sameAsFresh(base, edit(above, "= 2 m", "= 30 m"), &r));    // longer
  EXPECT_TRUE(sameAsFresh(base, edit(above, "= 2 m", "= 2000 m")));      // no cable: at the moved links
  EXPECT_TRUE(sameAsFresh(base, edit(above, "length = 2 m;\n", "length = 2 m;\noption pue = 1.1;\n")));
  EXPECT_TRUE(sameAsFresh(r, edit(above, "= 2 m", "= 4 m")));            // chained: shorter again
}

TEST(ReuseElaboration, NotWhenTheEditReachesWhatElaborationReads) {
  Result base = compile(kDesign);
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let n = 4;", "let n = 3;")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "= 2 m;", "= 2 W;")));         // FAB-E0025: a diagnostic
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "= 2 m;", "= 2 m")));          // a syntax error
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "option pue", "option pew"))); // an unknown option
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "spine : S;", "spine : S; leaf2 : S;"))); // a device
  // An option also set in the fabric, after the top level's: evaluated after it again.
  std::string inFabric = edit(kDesign, "  spine : S;", "  spine : S;\n  option cable_slack = 2 m;");
  Result b2 = compile(inFabric);
  EXPECT_TRUE(sameAsFresh(b2, edit(inFabric, "= 2 m;\noption pue", "= 3 m;\noption pue")));
  EXPECT_TRUE(sameAsFresh(b2, edit(inFabric, "cable_slack = 2 m", "cable_slack = 3 m")));
  // Longer, in the fabric: the places after it move (the links', the policy's, the
  // fabric's end).
  EXPECT_TRUE(sameAsFresh(b2, edit(inFabric, "cable_slack = 2 m", "cable_slack = 2.5 m")));
  // An option that reads a let: the let's edit is compiled in full.
  std::string named = edit(kDesign, "= 2 m;", "= n * 1 m;");
  Result b3 = compile(named);
  EXPECT_TRUE(sameAsFresh(b3, edit(named, "n * 1 m", "n * 2 m")));
  EXPECT_FALSE(sameAsFresh(b3, edit(named, "let n = 4;", "let n = 5;")));
}

TEST(ReuseElaboration, NotFromABaseWhoseElaborationReported) {
  // A warning of elaboration (an unused template parameter): nothing kept to reuse.
  std::string warned = edit(kDesign, "template pod(k) {", "template pod(k, unused) {");
  warned = edit(warned, "pod(n);", "pod(n, 1);");
  Result base = compile(warned);
  ASSERT_NE(describe(*base.c).find("never used"), std::string::npos);
  EXPECT_FALSE(sameAsFresh(base, edit(warned, "= 2 m", "= 3 m")));
}

TEST(ReuseElaboration, NotWithoutSettings) {
  // The base kept nothing: its main file sets no option and no policy.
  std::string none = edit(edit(kDesign, "option default_cable_length = 2 m;\n", ""), "option pue = 1.3;\n", "");
  none = edit(none, "  policy power { max = 9 kW; }\n", "");
  Result base = compile(none), r;
  EXPECT_FALSE(sameAsFresh(base, none + "option nic_latency = 1 us;\n"));
  // A lengths' option: the checked IR is reused, what reads the lengths run again
  // (decision 0651), which needs nothing kept either.
  EXPECT_TRUE(sameAsFresh(base, none + "option cable_slack = 1 m;\n", &r));
  EXPECT_TRUE(r.c->physicalRerun());
  // pue no pass reads: the checked IR is reused instead, which needs nothing kept.
  EXPECT_TRUE(sameAsFresh(base, none + "option pue = 1.2;\n", &r));
  EXPECT_TRUE(r.c->passesReused());
}

TEST(ReuseElaboration, APolicysNumbers) {
  Result base = compile(kDesign), r;
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 5 kW"), &r));
  ASSERT_EQ(r.c->fabric().policies.size(), 1u);
  EXPECT_EQ(r.c->fabric().policies[0].max, 5000);
  // Longer: only the fabric's closing brace and top-level options follow it.
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 12.5 kW"), &r));
  EXPECT_EQ(r.c->fabric().policies[0].max, 12500);
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 9 kW * 2 / 3"))); // more tokens
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 0.001 kW"))); // the power check reports
  // Not numbers only: the strings interned could differ from a fresh run's.
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "max = 9 kW;", "max = 9 kW; per = \"rack\";")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 9 W"))); // another unit
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "  policy power { max = 9 kW; }\n", "")));
  // A policy before statements that hold places: they move.
  std::string early = edit(kDesign, "  spine : S;", "  policy nvlink { max = 72; }\n  spine : S;");
  Result b2 = compile(early);
  EXPECT_TRUE(sameAsFresh(b2, edit(early, "max = 72", "max = 64")));
  EXPECT_TRUE(sameAsFresh(b2, edit(early, "max = 72", "max = 144")));
  EXPECT_TRUE(sameAsFresh(b2, edit(early, "max = 72", "max = 7")));
}

TEST(ReuseElaboration, NotWhenASettingNeedsTheFabricsScope) {
  // A policy that reads a binding of the fabric's body: the settings-only run has none.
  std::string named = edit(kDesign, "  policy power { max = 9 kW; }", "  let budget = 9 kW;\n  policy power { max = budget; }");
  Result base = compile(named);
  EXPECT_FALSE(sameAsFresh(base, edit(named, "= 2 m", "= 3 m")));
  EXPECT_FALSE(sameAsFresh(base, edit(named, "budget = 9 kW", "budget = 8 kW")));
  // A top-level let: the same value without the fabric's scope (unless the fabric's body
  // names it again).
  std::string global = edit(edit(kDesign, "let n = 4;", "let n = 4;\nlet budget = 9 kW;"), "max = 9 kW", "max = budget * 1");
  Result bg = compile(global);
  EXPECT_TRUE(sameAsFresh(bg, edit(global, "budget * 1", "budget * 2")));
  std::string shadowed = edit(global, "  spine : S;", "  let budget = 3 kW;\n  spine : S;");
  Result bs = compile(shadowed);
  EXPECT_FALSE(sameAsFresh(bs, edit(shadowed, "budget * 1", "budget * 2")));
  // A policy in a template: evaluated with its instances.
  std::string inTemplate = edit(kDesign, "  leaf : S;", "  leaf : S;\n  policy nvlink { max = 72; }");
  Result b2 = compile(inTemplate);
  EXPECT_FALSE(sameAsFresh(b2, edit(inTemplate, "= 2 m", "= 3 m")));
  // A parts policy is the elaborator's (a model named), never evaluated again: an edit
  // of it elaborates; one of another policy beside it reuses.
  std::string parts = edit(kDesign, "  policy power", "  policy parts { tier = \"leaf\"; cable = A; }\n  policy power");
  Result b3 = compile(parts);
  EXPECT_FALSE(sameAsFresh(b3, edit(parts, "cable = A", "cable = D")));
  EXPECT_TRUE(sameAsFresh(b3, edit(parts, "max = 9 kW", "max = 8 kW")));
}

TEST(ReuseElaboration, TheExamples) {
  // In every example, digits of its settings (the lines of its options and policies, up
  // to eight a file): each replaced (the same length) and, every other one, a digit put
  // before it (longer). Each edit is compiled reusing the example and afresh, with the
  // same result; the replacements in the fabric's last statements must reuse.
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto &dir : fs::directory_iterator(FABC_EXAMPLES_DIR))
    for (const auto &f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".fab")
        files.push_back(f.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 8u);
  int edits = 0, reused = 0, rechecked = 0;
  outputs = {"summary", "bom", "cabling", "energy", "hosts"}; // the language server's
  for (const fs::path &f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<std::string> inc = {f.parent_path().string(), FABC_STDLIB_DIR};
    Result base = compile(text, nullptr, inc);
    ASSERT_TRUE(base.c->elaborated()) << f;
    int n = 0;
    for (size_t line = 0; line < text.size() && n < 8; line = text.find('\n', line) + 1) {
      size_t end = text.find('\n', line);
      std::string_view l(text.data() + line, (end == std::string::npos ? text.size() : end) - line);
      if (l.rfind("  policy ", 0) != 0 && l.rfind("  option ", 0) != 0 && l.rfind("option ", 0) != 0)
        continue;
      size_t eq = l.find('=');
      for (size_t k = eq; eq != std::string_view::npos && k < l.size() && n < 8; ++k) {
        if (l[k] < '0' || l[k] > '9' || l.substr(k).find("//") < l.substr(k).find(';') ||
            std::count(l.begin(), l.begin() + k, '"') % 2) // a comment's, a string's (a name)
          continue;
        size_t at = line + k;
        std::string same = text;
        same[at] = same[at] == '1' ? '2' : '1';
        bool lastInFabric = text.compare(text.find('\n', at) + 1, 1, "}") == 0 ||
                            text.find("\n  ", text.find('\n', at)) > text.find("\n}", at);
        Result r;
        bool a = sameAsFresh(base, same, &r, inc);
        EXPECT_TRUE(a || !lastInFabric) << f << " at " << at;
        reused += a;
        rechecked += r.c->passesReused();
        ++edits;
        if (n % 2 == 0) {
          std::string longer = text;
          longer.insert(at, "5");
          reused += sameAsFresh(base, longer, nullptr, inc);
          ++edits;
        }
        ++n;
        k = l.find_first_not_of("0123456789.", k) - 1; // the next number
        if (k + 1 == 0)
          break;
      }
    }
  }
  outputs.clear();
  EXPECT_GE(edits, 40);
  EXPECT_GE(reused, 30);
  EXPECT_GE(rechecked, 10) << "edits of checked policies' figures";
}

TEST(ReuseElaboration, KeptOnceSettingsAreEdited) {
  // The language server's way: nothing kept at the open; the first edit of settings is
  // compiled in full and keeps its IR; the next ones reuse it; an edit of anything else
  // lets it go.
  using Keep = CompileOptions::Keep;
  // The NIC latency, which the measures read: an edit of it reuses the elaboration. (An
  // edit of a policy's figures or of the lengths' options reuses the checked IR instead,
  // kept or not.)
  const std::string design = edit(kDesign, "option pue", "option nic_latency = 2 us;\noption pue");
  Result open = compile(design, nullptr, {}, Keep::AfterSettingsEdit);
  std::string t1 = edit(design, "= 2 us", "= 3 us"), t2 = edit(design, "= 2 us", "= 4 us");
  Result e1 = compile(t1, &open, {}, Keep::AfterSettingsEdit);
  EXPECT_FALSE(e1.c->elaborationReused());
  Result e2 = compile(t2, &e1, {}, Keep::AfterSettingsEdit);
  EXPECT_TRUE(e2.c->elaborationReused());
  std::string t3 = edit(t2, "spine : S;", "spine : S; extra : S;");
  Result e3 = compile(t3, &e2, {}, Keep::AfterSettingsEdit);
  EXPECT_FALSE(e3.c->elaborationReused());
  Result e4 = compile(edit(t3, "= 4 us", "= 5 us"), &e3, {}, Keep::AfterSettingsEdit);
  EXPECT_FALSE(e4.c->elaborationReused()); // e3 kept nothing: this one keeps
  Result e5 = compile(edit(t3, "= 4 us", "= 6 us"), &e4, {}, Keep::AfterSettingsEdit);
  EXPECT_TRUE(e5.c->elaborationReused());
  EXPECT_EQ(describe(*e5.c), describe(*compile(edit(t3, "= 4 us", "= 6 us")).c));
  // A policy's figures from e5, whose IR is a copy: its checked IR reused.
  Result e6 = compile(edit(edit(t3, "= 4 us", "= 6 us"), "max = 9 kW", "max = 5 kW"), &e5, {}, Keep::AfterSettingsEdit);
  EXPECT_TRUE(e6.c->passesReused());
}

TEST(ReusePasses, APolicysFigures) {
  // The checked IR reused: its measurements, the passes' diagnostics but the checks',
  // and the checks run again for the new figures.
  Result base = compile(kDesign), r;
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "max = 9 kW", "max = 5 kW"), &r));
  EXPECT_TRUE(r.c->passesReused());
  EXPECT_FALSE(r.c->elaborationReused());
  EXPECT_NE(describe(*r.c).find("checks nothing"), std::string::npos); // the power check's, again
  // The leaves are 4:1 oversubscribed: a bound below that is an error.
  std::string over = edit(kDesign, "  policy power", "  policy oversubscription { max = 5; }\n  policy power");
  Result ob = compile(over);
  EXPECT_EQ(describe(*ob.c).find("oversubscribed"), std::string::npos);
  EXPECT_TRUE(sameAsFresh(ob, edit(over, "max = 5;", "max = 3;"), &r));
  EXPECT_TRUE(r.c->passesReused());
  EXPECT_NE(describe(*r.c).find("oversubscribed"), std::string::npos);
  // Chained: from a reused one, and back to no report.
  Result r2;
  EXPECT_TRUE(sameAsFresh(r, edit(over, "max = 5;", "max = 4.5;"), &r2));
  EXPECT_TRUE(r2.c->passesReused());
  EXPECT_EQ(describe(*r2.c).find("oversubscribed"), std::string::npos);
  // An option a pass reads, a policy the passes read, or more than numbers: not this reuse.
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "pue = 1.3", "pue = 1.3; option nic_latency = 1 us"), &r));
  EXPECT_FALSE(r.c->passesReused());
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "max = 9 kW;", "max = 9 kW; per = \"rack\";")));
  // Turned off (the bench's before): the elaboration reused instead.
  Result off = compile(edit(kDesign, "max = 9 kW", "max = 5 kW"), &base, {}, CompileOptions::Keep::Yes, false);
  EXPECT_FALSE(off.c->passesReused());
  EXPECT_TRUE(off.c->elaborationReused());
}

TEST(ReusePasses, ScopedPoliciesAndPlacesMoved) {
  // Scoped policies (measured per element, whose places move with a longer figure), a
  // latency bound and an nvlink bound before other statements.
  std::string scoped = edit(kDesign, "  policy power { max = 9 kW; }",
                            "  group pod p0 { pods[0].leaf; pods[0].host[*]; }\n"
                            "  group pod p1 { pods[1].leaf; pods[1].host[*]; }\n"
                            "  policy power { per = \"pod\"; max = 5 kW; }\n"
                            "  policy oversubscription { per = \"pod\"; max = 2; }\n"
                            "  policy latency { max = 5 us; }");
  scoped = edit(scoped, "  spine : S;", "  policy nvlink { max = 72; }\n  spine : S;");
  Result base = compile(scoped), r;
  ASSERT_FALSE(base.c->fabric().metrics.scopes.empty());
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"max = 5 kW", "max = 4 kW"},    // the same length
           {"max = 5 kW", "max = 4.25 kW"}, // longer: the scopes' and links' places after it move
           {"max = 5 kW", "max = 1 kW"},    // each pod over its budget
           {"max = 2;", "max = 0.5;"},      // oversubscribed
           {"max = 5 us", "max = 0.001 us"}, // the latency bound broken
           {"max = 72", "max = 1"},         // before the spine and its links
           {"max = 72", "max = 7200"}}) {
    EXPECT_TRUE(sameAsFresh(base, edit(scoped, from, to), &r)) << to;
    EXPECT_TRUE(r.c->passesReused()) << to;
  }
  // Two edits at once, one a figure and one a lengths' option: what reads the lengths
  // runs again, and the checks.
  EXPECT_TRUE(sameAsFresh(base, edit(edit(scoped, "max = 5 kW", "max = 4 kW"), "= 2 m", "= 3 m"), &r));
  EXPECT_TRUE(r.c->physicalRerun());
}

TEST(ReusePasses, WithTheOutputsRules) {
  // The language server checks the default outputs after the passes: run again on the
  // reused IR (the energy budget reads the policies too).
  outputs = {"summary", "bom", "cabling", "energy", "hosts"};
  Result base = compile(kDesign), r;
  for (const char *to : {"max = 5 kW", "max = 0.5 kW", "max = 90 kW"}) {
    EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "max = 9 kW", to), &r)) << to;
    EXPECT_TRUE(r.c->passesReused()) << to;
  }
  outputs.clear();
}

TEST(ReusePasses, SettingsOnlyTheChecksAndOutputsRead) {
  // pue (the power checks, the energy budget), spares (the BOM), the BGP and BFD
  // hardening (the output rules): no pass reads them.
  outputs = {"summary", "bom", "cabling", "energy", "hosts"};
  std::string text = edit(kDesign, "  policy power", "  policy spares { switch_percent = 5; cable_percent = 2; }\n"
                                                     "  policy bfd { interval = 300 ms; multiplier = 3; }\n  policy power");
  Result base = compile(text), r;
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"pue = 1.3", "pue = 1.45"},
           {"pue = 1.3", "pue = 1.3 * 1.1"},                           // more tokens, at the top level
           {"switch_percent = 5", "switch_percent = 12.5"},            // longer, in the fabric
           {"multiplier = 3", "multiplier = 4"}}) {
    EXPECT_TRUE(sameAsFresh(base, edit(text, from, to), &r)) << to;
    EXPECT_TRUE(r.c->passesReused()) << to;
  }
  // Read by a pass: the measurements (the NIC latency).
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"pue = 1.3", "pue = 1.3; option nic_latency = 1 us"}}) {
    EXPECT_TRUE(sameAsFresh(base, edit(text, from, to), &r)) << to;
    EXPECT_FALSE(r.c->passesReused()) << to;
    EXPECT_TRUE(r.c->elaborationReused()) << to;
  }
  outputs.clear();
}

TEST(ReusePasses, EarlyCutoffAtTheLengths) {
  // The lengths' options: the lengths are computed again on the copy, and when they come
  // out as the base's nothing after them sees the edit; else what reads them runs again
  // on the copy (decision 0651). Unplaced, every link takes the default length (and no
  // slack); placed, every link its route plus the slack.
  std::string placed = edit(kDesign, "  policy power { max = 9 kW; }\n",
                            "  building dc { hall h0 { row_pitch = 3 m; rack_width = 0.6 m; tray_drop = 2 m; "
                            "rack_units = 48; } }\n"
                            "  place pods[0].host[*] in dc.h0 { row = 0; rack = 0; };\n"
                            "  place pods[1].host[*] in dc.h0 { row = 0; rack = 1; };\n"
                            "  place pods[0].leaf in dc.h0 { row = 1; rack = 0; };\n"
                            "  place pods[1].leaf in dc.h0 { row = 1; rack = 1; };\n"
                            "  place spine in dc.h0 { row = 2; rack = 0; };\n"
                            "  policy power { max = 9 kW; }\n");
  outputs = {"summary", "bom", "cabling", "energy", "hosts"};
  struct Case {
    const std::string *text;
    std::string from, to;
    bool cutoff;
  };
  for (const Case &c : std::vector<Case>{
           {&placed, "length = 2 m", "length = 3 m", true},       // no link takes the default
           {&placed, "length = 2 m", "length = 2000 m", true},    // longer
           {&placed, "pue = 1.3", "pue = 1.3; option cable_slack = 1 m", true}, // the slack's default, written
           {&placed, "pue = 1.3", "pue = 1.3; option cable_slack = 3 m", false}, // every length longer
           {&placed, "pue = 1.3", "pue = 1.3; option cable_slack = 80 m", false}, // no cable reaches: media reports
           {&kDesignText, "= 2 m", "= 3 m", false},  // every link takes the default
           {&kDesignText, "= 2 m", "= 2 km", false}, // media reports
           {&kDesignText, "pue = 1.3", "pue = 1.3; option cable_slack = 3 m", true}}) { // no link routed
    Result base = compile(*c.text), r;
    EXPECT_TRUE(sameAsFresh(base, edit(*c.text, c.from, c.to), &r)) << c.to;
    EXPECT_TRUE(r.c->passesReused()) << c.to;
    EXPECT_EQ(r.c->physicalRerun(), !c.cutoff) << c.to;
    EXPECT_FALSE(r.c->elaborationReused()) << c.to;
  }
  // Chained: a cutoff from a cutoff, then one that changes the lengths, then one from it.
  Result a = compile(placed), b, c, d;
  EXPECT_TRUE(sameAsFresh(a, edit(placed, "length = 2 m", "length = 4 m"), &b));
  EXPECT_TRUE(b.c->passesReused());
  std::string slack = edit(edit(placed, "length = 2 m", "length = 4 m"), "pue = 1.3", "pue = 1.3; option cable_slack = 3 m");
  EXPECT_TRUE(sameAsFresh(b, slack, &c));
  EXPECT_TRUE(c.c->physicalRerun());
  EXPECT_TRUE(sameAsFresh(c, edit(slack, "length = 4 m", "length = 5 m"), &d));
  EXPECT_TRUE(d.c->passesReused());
  EXPECT_FALSE(d.c->physicalRerun());
  // And one that changes the lengths again, from a rerun's IR.
  Result e;
  EXPECT_TRUE(sameAsFresh(c, edit(slack, "cable_slack = 3 m", "cable_slack = 70 m"), &e));
  EXPECT_TRUE(e.c->physicalRerun());
  outputs.clear();
}

TEST(ReusePasses, BesideAnEditOfWhatNothingReads) {
  // An unused let edited since the base (the editor's last full check, which decision
  // 0621 kept across that edit), and then a policy or an option: the let's hunk changes
  // nothing elaboration reads, so the settings' reuses still apply.
  std::string text = edit(kDesign, "let n = 4;", "let n = 4;\nlet spare = 2 km;");
  Result base = compile(text), r;
  std::string letEdited = edit(text, "spare = 2 km", "spare = 3 km");
  EXPECT_TRUE(sameAsFresh(base, edit(letEdited, "max = 9 kW", "max = 5 kW"), &r));
  EXPECT_TRUE(r.c->passesReused());
  EXPECT_TRUE(sameAsFresh(base, edit(letEdited, "= 2 m;", "= 3 m;"), &r)); // the lengths change
  EXPECT_TRUE(r.c->physicalRerun());
  // A let added, unused: its name is a string the base's bindings did not intern (the
  // ids after it would differ from a fresh run's), so compiled.
  EXPECT_FALSE(sameAsFresh(base, edit(edit(text, "let n = 4;", "let n = 4;\nlet more = 1;"), "max = 9 kW", "max = 5 kW")));
  // A let the fabric reads, or one a setting reads: compiled.
  EXPECT_FALSE(sameAsFresh(base, edit(edit(text, "let n = 4;", "let n = 3;"), "max = 9 kW", "max = 5 kW")));
  std::string read = edit(text, "max = 9 kW", "max = 9 kW + spare * 0 W / 1 m");
  Result rb = compile(read);
  EXPECT_FALSE(sameAsFresh(rb, edit(edit(read, "spare = 2 km", "spare = 3 km"), "max = 9 kW", "max = 5 kW")));
  // On the line next to an option's: one hunk holds both.
  std::string adjacent = text + "let spare2 = 5 km;\n";
  Result ba = compile(adjacent);
  EXPECT_TRUE(sameAsFresh(ba, edit(edit(adjacent, "spare2 = 5 km", "spare2 = 6 km"), "pue = 1.3", "pue = 1.4"), &r));
  EXPECT_TRUE(r.c->passesReused());
  // A template and a let edited in one hunk: each is skipped where it is declared, so
  // neither counts as named elsewhere.
  std::string pair = edit(kDesign, "let n = 4;", "let n = 4;\ntemplate spareT() { }\nlet spare = 2 km;");
  Result bp = compile(pair);
  EXPECT_TRUE(sameAsFresh(
      bp, edit(edit(edit(pair, "spareT() { }", "spareT() { x : S; }"), "spare = 2 km", "spare = 3 km"), "max = 9 kW", "max = 5 kW"),
      &r));
  EXPECT_TRUE(r.c->passesReused());
  // A let whose value now reports: compiled.
  EXPECT_FALSE(sameAsFresh(base, edit(edit(text, "spare = 2 km", "spare = 2 km + 1 W"), "max = 9 kW", "max = 5 kW")));
}

TEST(ReusePasses, EveryReaderInTheTable) {
  // Each Lengths and Checks row of ir/Settings.def, set in the design and then its value
  // edited, with the outputs whose rules read them: the same as compiling afresh, and a
  // Checks row's edit reuses the checked IR. A row marked so while a pass reads it would
  // differ from the fresh compile here; a row added as Lengths or Checks needs a case.
  outputs = {"summary", "bom", "cabling", "energy", "hosts", "report", "dot", "sonic", "nvue"};
  struct Case {
    std::string add; // beside `option pue` (an option) or before `policy power` (a policy)
    std::string from, to;
    bool reused = true; // a Checks row's edit reuses the checked IR
  };
  const std::map<std::string, Case> cases = {
      {"default_cable_length", {"", "length = 2 m", "length = 3 m"}},
      {"cable_slack", {"option cable_slack = 1 m;\n", "slack = 1 m", "slack = 2 m"}},
      {"pue", {"", "pue = 1.3", "pue = 1.45"}},
      {"report_collapse", {"option report_collapse = 64;\n", "collapse = 64", "collapse = 2"}},
      {"dot_max_nodes", {"option dot_max_nodes = 1000;\n", "nodes = 1000", "nodes = 3"}},
      // A string the base did not intern: compiled (the pool's ids would differ from a
      // fresh run's), but what the passes computed is the same.
      {"nvue_release", {"option nvue_release = \"5.15\";\n", "\"5.15\"", "\"5.9\"", false}},
      {"sonic_release", {"option sonic_release = \"202605\";\n", "\"202605\"", "\"202305\"", false}},
      {"power", {"", "max = 9 kW", "max = 5 kW"}},
      {"oversubscription", {"  policy oversubscription { max = 5; }\n", "max = 5;", "max = 3;"}},
      {"latency", {"  policy latency { max = 5 us; }\n", "max = 5 us", "max = 0.001 us"}},
      {"nvlink", {"  policy nvlink { max = 72; }\n", "max = 72", "max = 1"}},
      // A boolean is more than numbers: compiled, but what the passes computed is the same.
      {"rail_optimized",
       {"  policy rail_optimized { rail_only = true; }\n", "rail_only = true", "rail_only = false", false}},
      {"spares", {"  policy spares { switch_percent = 5; }\n", "switch_percent = 5", "switch_percent = 12.5"}},
      {"bgp", {"  policy bgp { max_prefix = 100; }\n", "max_prefix = 100", "max_prefix = 2"}},
      {"storm_control", {"  policy storm_control { broadcast = 1000; }\n", "broadcast = 1000", "broadcast = 20"}},
      {"bfd", {"  policy bfd { interval = 300 ms; multiplier = 3; }\n", "multiplier = 3", "multiplier = 40"}},
  };
  size_t checked = 0;
  for (const SettingRead &row : settingReaders()) {
    if (row.reader == SettingReader::Passes)
      continue;
    auto it = cases.find(std::string(row.name));
    ASSERT_NE(it, cases.end()) << row.name << ": a Lengths or Checks row with no case here";
    const Case &c = it->second;
    std::string text = row.policy ? edit(kDesign, "  policy power", c.add + "  policy power")
                                  : edit(kDesign, "option pue", c.add + "option pue");
    ASSERT_NE(text.find(c.from), std::string::npos) << row.name;
    const std::string edited = edit(text, c.from, c.to);
    Result base = compile(text), r;
    EXPECT_EQ(describe(*base.c).find("error"), std::string::npos) << row.name << "\n" << describe(*base.c);
    sameAsFresh(base, edited, &r);
    // A Checks row: the checked IR reused, and compiled afresh, the passes computed the
    // same both ways; only the settings differ.
    if (row.reader == SettingReader::Checks) {
      EXPECT_EQ(r.c->passesReused(), c.reused) << row.name;
      auto withoutSettings = [](std::string f) {
        std::string out;
        std::istringstream in(f);
        for (std::string line; std::getline(in, line);)
          if (line.rfind("policy at", 0) != 0 && line.find("; options ") == std::string::npos)
            out += line + "\n";
        return out;
      };
      EXPECT_EQ(withoutSettings(facts(compile(text).c->fabric())), withoutSettings(facts(compile(edited).c->fabric())))
          << row.name;
    }
    ++checked;
  }
  EXPECT_EQ(checked, cases.size()) << "a case for a row that is no longer Lengths or Checks";
  outputs.clear();
}
