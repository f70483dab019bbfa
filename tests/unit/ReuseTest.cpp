// A compilation that reuses its base's check across an edit (compiler/reuse/ReuseCheck.cpp): for
// each edit, what it gives (diagnostics, their places, the values a hover shows) must be
// what compiling the edited text afresh gives, and it must reuse exactly when the edit
// lies in top-level lets that nothing else names.
#include "CompareCompiles.h"
#include "Compilation.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace fabc;
using fabc::test::describe;
using fabc::test::edit;
using fabc::test::valuesByPlace;

namespace {

const char *kDesign = R"(let racks = 2;
let spare = 2 km;

model S : switch { port p[8] { speed = 400 Gb/s; } power = 500 W source "t"; }
model N : system { port n[1] { speed = 400 Gb/s; } power = 1000 W source "t"; gpus = 1; }
model C : cable { media = "AOC"; speed = 400 Gb/s; reach = 100 m source "t"; power = 0 W source "t"; }

template pod(k, unused) {
  leaf : S;
  let width = k * 2;
  host[width] : N;
  for i in 0 .. width { link host[i].n[0] -- leaf.p[i]; }
}

fabric f {
  pods[racks] : pod(2, 1);
  spineless : S;
  link spineless.p[0] -- pods[0].leaf.p[7];
  link spineless.p[1] -- pods[9].leaf.p[7];
}
)";

struct Result {
  std::shared_ptr<Compilation> c;
  std::shared_ptr<BindingValues> values;
  // The values of the compilation a later one reuses: this one's, or its base's.
  std::shared_ptr<BindingValues> baseValues;
};

Result compile(const std::string &text, const Result *base = nullptr) {
  CompileOptions o;
  o.standardSearchPath = false;
  auto values = std::make_shared<BindingValues>();
  o.values = values.get();
  if (base) {
    o.reuse = Compilation::reuseBase(base->c);
    o.reuseValues = base->baseValues.get();
  }
  auto c = std::make_shared<Compilation>(o);
  c->diags().setFormat(DiagFormat::Json);
  c->run(CompileInput::source("t.fab", text));
  return {c, values, c->base() ? base->baseValues : values};
}

// Compiles `text` reusing `base`, and afresh: the same diagnostics and values; whether
// it reused is returned.
bool sameAsFresh(const Result &base, const std::string &text, Result *out = nullptr) {
  Result reused = compile(text, &base), fresh = compile(text);
  EXPECT_EQ(describe(*reused.c), describe(*fresh.c)) << text;
  EXPECT_EQ(valuesByPlace(*reused.values), valuesByPlace(*fresh.values)) << text;
  EXPECT_EQ(reused.c->diags().hasErrors(), fresh.c->diags().hasErrors());
  if (reused.c->base()) {
    EXPECT_EQ(reused.c->fabric().numDevices(), fresh.c->fabric().numDevices());
    EXPECT_EQ(reused.c->fabric().numLinks(), fresh.c->fabric().numLinks());
  }
  if (out)
    *out = reused;
  return reused.c->base() != nullptr;
}

TEST(Reuse, BaseHasDiagnosticsAfterTheLets) {
  Result base = compile(kDesign);
  ASSERT_TRUE(base.c->reusable());
  std::string d = describe(*base.c);
  EXPECT_NE(d.find("never used"), std::string::npos) << d; // W0104, in the template
  EXPECT_NE(d.find("pods[9]"), std::string::npos) << d;    // an error in the fabric's body
}

TEST(Reuse, AnUnreadLetsValue) {
  Result base = compile(kDesign);
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "2 km", "30 km")));  // longer: every place after moves
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "2 km", "2000 m"))); // the same value, written otherwise
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "2 km", "2 km + 5 W"))); // FAB-E0025 in the let
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "let spare = 1 / 0;")));
}

TEST(Reuse, LetsAddedRemovedRenamed) {
  Result base = compile(kDesign);
  EXPECT_TRUE(sameAsFresh(base, "let fresh = 5;\n" + std::string(kDesign)));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;\n", "")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "// let spare = 2 km;")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare", "let other")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "let spare = 2 km; let more = spare * 2;")));
}

TEST(Reuse, NotWhenTheEditReachesWhatIsRead) {
  Result base = compile(kDesign);
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let racks = 2;", "let racks = 3;"))); // the fabric reads it
  // A new let may read what the fabric reads: nothing reads the new one.
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare", "let racks2 = racks; let spare")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare", "let width"))); // a name the template writes
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare", "let S")));     // a model's name
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "k * 2", "k * 3")));         // in a template
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;\n", "let spare = 2 km;\n// "))); // a blank line
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "model S", "// model S")));   // a model commented out
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;\n\n", "let spare = 2 km; // ")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;\n", "let spare = 2 km; param q = 1;\n")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;\n", "let spare = 2 km; /* ")));
  // Two edits: the region between them holds a model.
  EXPECT_FALSE(sameAsFresh(base, edit(edit(kDesign, "2 km", "3 km"), "1000 W", "1001 W")));
}

TEST(Reuse, UnknownNamesSuggestFromEveryBinding) {
  // The fabric's unknown name is suggested from the top-level names: renaming an unread
  // let can change that suggestion, so the check is not reused.
  std::string text = edit(kDesign, "pods[racks]", "pods[rackz]");
  Result base = compile(text);
  EXPECT_FALSE(sameAsFresh(base, edit(text, "let spare", "let rackq")));
}

TEST(Reuse, ACommentAtTheEnd) {
  // What an editor does at the end of a file: a let, then a comment typed after it.
  std::string text = std::string(kDesign) + "let typed = 1;\n// ";
  Result base = compile(text);
  EXPECT_TRUE(sameAsFresh(base, text + "more words"));
  EXPECT_TRUE(sameAsFresh(base, edit(text + "x", "let typed = 1;", "let typed = 1 + 1 W;")));
  EXPECT_TRUE(sameAsFresh(compile(kDesign), text));
}

TEST(Reuse, TemplatesAndFunctionsNothingUses) {
  // A template being written before its first instance, key by key; a function.
  std::string tmpl = "template spare_pod(n) {\n  leaf[n] : S;\n  let w = n * 2;\n}\n";
  std::string with = edit(kDesign, "fabric f {", tmpl + "fabric f {");
  Result base = compile(kDesign), withBase = compile(with);
  EXPECT_TRUE(sameAsFresh(base, with));
  for (size_t cut : {10, 25, 40, 48})
    sameAsFresh(base, edit(kDesign, "fabric f {", tmpl.substr(0, cut) + "\nfabric f {")); // half typed: as fresh
  EXPECT_TRUE(sameAsFresh(withBase, edit(with, "n * 2", "n * 3 + 1 W")));      // an error inside: not elaborated
  EXPECT_TRUE(sameAsFresh(withBase, edit(with, "leaf[n] : S;", "leaf[n] : Nope;")));
  EXPECT_TRUE(sameAsFresh(withBase, edit(with, tmpl, "")));                    // removed
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "fn twice(x) = 2 * x;\nlet spare = twice(1 km);")));
  EXPECT_TRUE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "fn twice(x) = 2 * x / 0;\nlet spare = twice(1 km);")));
  // Instantiated, or named by something else: compiled.
  EXPECT_FALSE(sameAsFresh(withBase, edit(with, "pods[racks] : pod(2, 1);", "pods[racks] : spare_pod(2);")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "fabric f {", "template S() { }\nfabric f {")));
  EXPECT_FALSE(sameAsFresh(base, edit(kDesign, "let spare = 2 km;", "fn racks() = 1;\nlet spare = 2 km;")));
  // The fabric names an unknown template: its did-you-mean reads every template's name.
  std::string unknown = edit(with, "spineless : S;", "spineless : spare_pud(1);");
  EXPECT_FALSE(sameAsFresh(compile(unknown), edit(unknown, "n * 2", "n * 4")));
}

TEST(Reuse, EditsApartAreHunks) {
  // A comment typed at the end and a let edited above a model: two hunks, the model
  // between them the same text.
  std::string text = std::string(kDesign) + "// ";
  Result base = compile(text), r;
  ASSERT_TRUE(sameAsFresh(base, edit(text, "2 km", "3 km") + "typed", &r));
  EXPECT_EQ(r.c->shift().hunks.size(), 2u);
  // A let inserted, another removed, a third edited, lines apart.
  std::string lets = "let a1 = 1;\nlet racks = 2;\nlet a2 = 2;\nlet a3 = 3;\n" + edit(kDesign, "let racks = 2;\n", "");
  Result b2 = compile(lets), r2;
  ASSERT_TRUE(sameAsFresh(b2, edit(edit(lets, "let a1 = 1;\n", ""), "let a3 = 3;", "let a3 = 4;\nlet a4 = a3;"), &r2));
  EXPECT_EQ(r2.c->shift().hunks.size(), 2u);
  // A template edited between two let edits: not reused.
  EXPECT_FALSE(sameAsFresh(b2, edit(edit(edit(lets, "a1 = 1", "a1 = 5"), "a3 = 3", "a3 = 6"), "k * 2", "k * 3")));
}

TEST(Reuse, ChainsFromTheLastFullCheck) {
  Result base = compile(kDesign), one, two;
  ASSERT_TRUE(sameAsFresh(base, edit(kDesign, "2 km", "3 km"), &one));
  EXPECT_EQ(Compilation::reuseBase(one.c), base.c);
  ASSERT_TRUE(sameAsFresh(one, edit(kDesign, "2 km", "4 km + 1 W"), &two));
  EXPECT_EQ(two.c->base(), base.c);
  EXPECT_TRUE(sameAsFresh(two, edit(kDesign, "2 km", "5 km")));
  // The shift maps the base's places to the text of the edit: one hunk, the let's line.
  ASSERT_EQ(two.c->shift().hunks.size(), 1u);
  const TextShift::Hunk &h = two.c->shift().hunks[0];
  EXPECT_EQ(h.newEnd - h.newBegin - (h.oldEnd - h.oldBegin), std::string(" + 1 W").size());
}

TEST(Reuse, CleanDesignValuesInTemplates) {
  std::string clean = edit(kDesign, "  link spineless.p[1] -- pods[9].leaf.p[7];\n", "");
  Result base = compile(clean), r;
  ASSERT_FALSE(base.c->diags().hasErrors()) << describe(*base.c);
  ASSERT_TRUE(sameAsFresh(base, edit(clean, "2 km", "20 km"), &r));
  // `width`, inside the template: its value is the base's, keyed by the new tree.
  bool found = false;
  for (const auto &kv : r.values->values)
    found |= kv.first->name() == "width" && kv.second.text == "4";
  EXPECT_TRUE(found);
}

// Random edits, biased to the top-level lets (lines inserted at a line's start, spans
// deleted, bytes replaced): whether reused or not, the result is a fresh compile's.
TEST(Reuse, RandomEditsMatchAFreshCompile) {
  const std::string text = "let u0 = 1;\nlet u1 = u0 + 1;\n" + std::string(kDesign) + "let tail = 3;\n";
  Result base = compile(text);
  static const char *const lines[] = {"let q = 3;\n", "let z = u0 + 1;\n", "// ", "let ", "let w = 2 km + 5 W;\n",
                                      "/* ", " */", "\n", "let k = 1 / 0;\n", "let racks = 9;\n",
                                      "let a = rackz;\n", "let spare = spare;\n",
                                      "template tt(n) { x[n] : S; }\n", "fn ff(x) = x + 1;\n", "let g = ff(2);\n",
                                      "template pod(k) { }\n", "template t2() {\n"};
  std::mt19937 rng(621);
  int reused = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string edited = text;
    for (int e = 0, n = int(rng() % 3) + 1; e < n; ++e) {
      // Half the edits in the first lines (the lets), the rest anywhere.
      size_t at = rng() % (rng() % 2 ? 60 : edited.size());
      switch (rng() % 3) {
      case 0:
        at = edited.rfind('\n', at);
        edited.insert(at == std::string::npos ? 0 : at + 1, lines[rng() % (sizeof lines / sizeof *lines)]);
        break;
      case 1: edited.erase(at, rng() % 12); break;
      default: edited[at] = "0123456789 ;=+-*/xkm\n"[rng() % 21]; break;
      }
    }
    reused += sameAsFresh(base, edited);
    if (HasFailure())
      return;
  }
  // Most edits land outside the lets or break the text; enough of them reuse.
  EXPECT_GT(reused, 100) << reused;
}

} // namespace
