#include "diag/DiagCodes.h"
#include "diag/Diag.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace fabc;

static std::string render(DiagEngine &d, FILE *f) {
  d.finish();
  std::fflush(f);
  std::rewind(f);
  std::string s;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    s.append(buf, n);
  return s;
}

TEST(Diag, ClangStyleTextWithCaret) {
  SourceManager sm;
  uint32_t id = sm.add("a.fab", "fabric f {\n  x = 2 km + 5 W;\n}\n");
  FILE *f = std::tmpfile();
  DiagEngine d(sm);
  d.setOutput(f);
  Diagnostic *dg = d.report(DiagCode::E0025, {{id, 19}, 1}, "cannot add length and power");
  DiagEngine::note(dg, {}, "both sides need the same dimension");
  std::string out = render(d, f);
  EXPECT_NE(out.find("a.fab:2:9: error: cannot add length and power [FAB-E0025]"), std::string::npos) << out;
  EXPECT_NE(out.find("  x = 2 km + 5 W;\n        ^\n"), std::string::npos) << out;
  EXPECT_NE(out.find("fabc: note: both sides need the same dimension"), std::string::npos) << out;
  EXPECT_EQ(d.errors(), 1u);
}

TEST(Diag, WerrorAndDisable) {
  SourceManager sm;
  FILE *f = std::tmpfile();
  DiagEngine d(sm);
  d.setOutput(f);
  d.setWarningsAsErrors(true);
  d.disable(DiagCode::W0103);
  d.report(DiagCode::W0103, {}, "silenced");
  d.report(DiagCode::W0101, {}, "promoted");
  std::string out = render(d, f);
  EXPECT_EQ(out.find("silenced"), std::string::npos);
  EXPECT_NE(out.find("error: promoted [FAB-W0101]"), std::string::npos) << out;
  EXPECT_EQ(d.errors(), 1u);
}

// -Werror=CODE promotes one warning; -w drops the others, never a promoted one or an error.
TEST(Diag, PromoteOneAndIgnoreWarnings) {
  SourceManager sm;
  FILE *f = std::tmpfile();
  DiagEngine d(sm);
  d.setOutput(f);
  d.promote(DiagCode::W0101);
  d.report(DiagCode::W0101, {}, "promoted");
  d.report(DiagCode::W0103, {}, "still a warning");
  d.setIgnoreWarnings(true);
  d.report(DiagCode::W0103, {}, "ignored");
  d.report(DiagCode::W0101, {}, "promoted under -w");
  d.report(DiagCode::E0040, {}, "an error");
  d.setWarningsAsErrors(true); // -w -Werror: -w wins
  d.report(DiagCode::W0100, {}, "ignored too");
  std::string out = render(d, f);
  EXPECT_NE(out.find("error: promoted [FAB-W0101]"), std::string::npos) << out;
  EXPECT_NE(out.find("warning: still a warning [FAB-W0103]"), std::string::npos) << out;
  EXPECT_EQ(out.find("ignored"), std::string::npos) << out;
  EXPECT_NE(out.find("error: promoted under -w [FAB-W0101]"), std::string::npos) << out;
  EXPECT_NE(out.find("error: an error [FAB-E0040]"), std::string::npos) << out;
  EXPECT_EQ(d.errors(), 3u);
  EXPECT_EQ(d.warnings(), 1u);
}

TEST(Diag, ErrorLimitBoundsOutput) {
  SourceManager sm;
  FILE *f = std::tmpfile();
  DiagEngine d(sm);
  d.setOutput(f);
  d.setErrorLimit(3);
  for (int i = 0; i < 10; ++i)
    d.report(DiagCode::E0040, {}, "port in use");
  EXPECT_TRUE(d.tooManyErrors());
  EXPECT_EQ(d.all().size(), 3u);
  std::string out = render(d, f);
  EXPECT_NE(out.find("7 more diagnostics not shown"), std::string::npos) << out;
}

TEST(Diag, CodesAreFoundInAnySpelling) {
  DiagCode c;
  ASSERT_NE(findDiag("FAB-E0042", &c), nullptr);
  EXPECT_EQ(c, DiagCode::E0042);
  EXPECT_NE(findDiag("e0042"), nullptr);
  EXPECT_EQ(findDiag("E9999"), nullptr);
}

