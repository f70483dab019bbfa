// fabc import FILE... [-o OUT.fab]: read the discovery (compiler/discovery, streamed),
// recognize models from the stdlib catalog, and write the design (compiler/import) to
// OUT.fab (atomically) or stdout. Exit 0 when written (warnings allowed), 2 when a
// discovery file cannot be read whole, 1 when the design does not compile (the importer
// compiles it first: FAB-E0191, nothing written).
#include "Commands.h"
#include "diag/SarifContext.h"
#include "StageTimer.h"

#include "discovery/Observed.h"
#include "import/Import.h"

#include <cstdio>
#include <cstring>

namespace fabc::cli {
namespace {

// The stdlib files whose models fabc import recognizes.
const char *const CatalogFiles[] = {"nvidia/switches.fab", "nvidia/systems.fab"};

} // namespace

int importCommand(Options &o) {
  if (o.inputs.empty())
    return usageError("import takes discovery files: fabc import FILE... [-o OUT.fab]");
  StageTimer timer(o.timeStages);
  // The catalog: the stdlib's switch and system models, compiled as a library.
  timer("catalog");
  CompileOptions co = compileOptions(o, /*allowLibrary=*/true);
  co.outputs.clear();
  Compilation cat(co);
  std::string src;
  for (const char *f : CatalogFiles)
    src += fmt::format("import \"{}\";\n", f);
  bool catalogOk = cat.run(CompileInput::source("<fabc import catalog>", src));
  import::Catalog catalog;
  if (catalogOk) {
    catalog.F = &cat.fabric();
    for (const ir::Model &m : cat.fabric().models) {
      std::string path = m.loc.begin.valid() ? std::string(cat.sources().path(m.loc.begin.file)) : "";
      std::string file;
      for (const char *f : CatalogFiles)
        if (path.size() >= std::strlen(f) && path.compare(path.size() - std::strlen(f), std::string::npos, f) == 0)
          file = f;
      catalog.fileOf.push_back(file);
    }
  } else {
    fmt::print(stderr, "fabc: warning: the stdlib catalog did not compile: no model is recognized\n");
  }

  timer("discovery");
  SourceManager sm;
  DiagEngine diags(sm);
  setupDiags(o, diags);
  discovery::Observed obs;
  discovery::ReadLimits limits;
  // Past a million-GPU fabric's discovery (about 6.3 M link ends, 1.05 M nodes), and what an
  // imported design can hold in memory (~1 KiB a node: 2 M nodes stay near 2 GiB).
  limits.maxPorts = uint64_t(1) << 24;
  limits.maxNodes = uint64_t(1) << 21;
  bool readable = true;
  for (const std::string &file : o.inputs) {
    setDiagInput(file);
    readable &= discovery::readDiscovery(file, "", limits, obs, sm, diags);
    if (o.report)
      diags.finish(); // hands this file's diagnostics over with it as their input
  }
  if (!readable) {
    diags.finish();
    timer.report();
    return ExitUsage;
  }
  timer("import");
  import::Options io;
  io.fabricName = o.top;
  if (io.fabricName.empty() && o.outSet) { // pod.fab: fabric pod
    std::string base = o.outDir.substr(o.outDir.rfind('/') + 1);
    io.fabricName = base.substr(0, base.find('.'));
  }
  io.inputs = o.inputs;
  io.check = &co; // the design is compiled before it is written (FAB-E0191)
  if (o.importSpeed > 0)
    io.defaultSpeed = o.importSpeed;
  std::string text;
  import::Summary sum;
  bool ok = import::importFabric(obs, catalog, io, sm, diags, text, sum);
  timer("write");
  diags.finish();
  if (!ok || diags.hasErrors()) {
    timer.report();
    return ExitErrors;
  }
  if (o.outSet) {
    std::string err;
    if (!replaceFileAtomically(o.outDir, text, err)) {
      fmt::print(stderr, "fabc: error: cannot write '{}': {}\n", o.outDir, err);
      return ExitUsage;
    }
    if (!o.quiet && o.format == DiagFormat::Text)
      fmt::print("fabc: imported {}, {}, {} ({} to complete{}) -> {}\n", plural(sum.switches, "switch", "switches"),
                 plural(sum.hosts, "host"), plural(sum.links, "link"), plural(sum.unknownModels, "model"),
                 sum.omittedLinks ? fmt::format(", {} left out", plural(sum.omittedLinks, "link")) : "", o.outDir);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  timer.report();
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return ExitUsage;
  return ExitOk;
}

} // namespace fabc::cli
