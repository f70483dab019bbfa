// The catalog lint: every model of stdlib/ has a SKU (or `sku = none source "why"`), and
// every figure it gives (power, latency, reach, price, lasers, order_lengths, max_mtu) carries its
// provenance, `source "..."` or `estimate "..."` (docs/language.md, Catalog conventions).
#include "TestCompile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace fabc {
namespace {

// Every .fab file under stdlib/, as an import path relative to it.
std::vector<std::string> catalogFiles() {
  std::vector<std::string> out;
  std::filesystem::path root(FABC_STDLIB_DIR);
  for (const auto &e : std::filesystem::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".fab")
      out.push_back(std::filesystem::relative(e.path(), root).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

std::unique_ptr<test::Built> compileCatalog(const std::vector<std::string> &files) {
  std::string text;
  for (const std::string &f : files)
    text += "import \"" + f + "\";\n";
  text += "fabric lint { }\n";
  CompileOptions o;
  o.includes.push_back(FABC_STDLIB_DIR);
  auto b = std::make_unique<test::Built>(std::move(o));
  b->diags->setOutput(std::tmpfile());
  b->ok = b->c.run(CompileInput::source("lint.fab", text));
  return b;
}

TEST(CatalogLint, EveryPartHasASkuAndEveryFigureItsProvenance) {
  std::vector<std::string> files = catalogFiles();
  ASSERT_GE(files.size(), 5u) << "stdlib not found at " << FABC_STDLIB_DIR;
  auto b = compileCatalog(files);
  ASSERT_TRUE(b->ok) << "the catalog does not compile";
  const ir::Fabric &F = b->F;
  ASSERT_GE(F.models.size(), 20u);
  std::vector<std::string> faults;
  for (const ir::Model &m : F.models) {
    std::string name(F.strings.str(m.name));
    if (!m.sku && !m.skuNoneReason)
      faults.push_back(name + ": no sku (give the part number, or sku = none source \"why\")");
    auto figure = [&](const char *what, const ir::Figure &f) {
      if (f.known && !f.source)
        faults.push_back(name + "." + what + ": a figure without source or estimate");
    };
    figure("power", m.power);
    figure("latency", m.latency);
    figure("reach", m.reach);
    figure("price", m.price);
    figure("lasers", m.lasers);
    figure("order_lengths", m.orderLengthsNote);
    figure("afr/mtbf", m.afr);
    figure("nic_afr/nic_mtbf", m.nicAfr);
    figure("laser_afr/laser_mtbf", m.laserAfr);
    figure("afr_per_km", m.afrPerKm);
    figure("max_mtu", m.maxMtu);
    // Reliability coverage (issue 18): every network part states its failure rate, a
    // CPO engine its external lasers' too, and a GPU system its NICs'.
    using K = ir::ModelKind;
    if ((m.kind == K::Switch || m.kind == K::Nic || m.kind == K::Optic || m.kind == K::Cable) && !m.afr.known)
      faults.push_back(name + ": no failure rate (afr or mtbf)");
    if (m.cpoEngine && !m.laserAfr.known)
      faults.push_back(name + ": a CPO engine without its lasers' failure rate (laser_afr or laser_mtbf)");
    if (m.kind == K::System && m.gpus && !m.nicAfr.known)
      faults.push_back(name + ": a GPU system without its NICs' failure rate (nic_afr or nic_mtbf)");
    // The CPO comparison's range (decisions 0421, 0501) rests on the optics' power and
    // lasers, and the fibre routes' on afr_per_km: an estimate of these states its bounds
    // (estimate LOW..HIGH), so no range takes one as exact.
    auto bounded = [&](const char *what, const ir::Figure &f) {
      if (f.known && f.estimate && !f.bounded)
        faults.push_back(name + "." + what + ": an estimate without bounds (estimate LOW..HIGH \"why\")");
    };
    if (m.kind == K::Optic) {
      bounded("power", m.power);
      bounded("lasers", m.lasers);
    }
    bounded("afr_per_km", m.afrPerKm);
  }
  std::string all;
  for (const std::string &f : faults)
    all += "\n  " + f;
  EXPECT_TRUE(faults.empty()) << faults.size() << " catalog faults:" << all;
}

// The lint itself: a model without a SKU, and a figure without provenance, are caught.
TEST(CatalogLint, CatchesWhatItChecks) {
  auto b = test::compileText("model X : optic { media = \"SMF\"; power = 5 W; }\n"
                             "model Y : optic { sku = none source \"generic\"; media = \"SMF\"; power = 5 W estimate \"e\"; }\n"
                             "fabric f { }\n");
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  const ir::Model &x = F.models[0], &y = F.models[1];
  EXPECT_EQ(x.sku, 0u);
  EXPECT_EQ(x.skuNoneReason, 0u);
  EXPECT_TRUE(x.power.known && !x.power.source);
  EXPECT_NE(y.skuNoneReason, 0u);
  EXPECT_EQ(F.strings.str(y.skuNoneReason), "generic");
  EXPECT_TRUE(y.power.source != 0 && y.power.estimate);
}

// Failure rates: an MTBF becomes failures per unit-year (8,760 h / MTBF), an AFR is read
// as written (a percent or a fraction), each with its provenance.
TEST(CatalogLint, FailureRates) {
  auto b = test::compileText("model X : optic { media = \"SMF\"; mtbf = 876000 h source \"s\"; laser_afr = 0.5% estimate \"e\"; }\n"
                             "model Y : cable { media = \"DAC\"; afr = 0.002; }\n"
                             "fabric f { }\n");
  ASSERT_TRUE(b->ok);
  const ir::Fabric &F = b->F;
  EXPECT_NEAR(F.models[0].afr.value, 0.01, 1e-12);
  EXPECT_TRUE(F.models[0].afr.source && !F.models[0].afr.estimate);
  EXPECT_NEAR(F.models[0].laserAfr.value, 0.005, 1e-12);
  EXPECT_TRUE(F.models[0].laserAfr.estimate);
  EXPECT_NEAR(F.models[1].afr.value, 0.002, 1e-12);
  EXPECT_TRUE(F.models[1].afr.known && !F.models[1].afr.source);
}

} // namespace
} // namespace fabc
