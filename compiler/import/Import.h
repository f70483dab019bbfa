#pragma once
// fabc import: the fabric as discovered (compiler/discovery's Observed: ibnetdiscover,
// lldpctl JSON, SONiC's LLDP table) turned into a Fabric design that compiles, so that a
// cluster built without fabc gets its BOM, energy budget and checks:
//
// - one device per switch and per host, named by its node description or system name
//   (sanitised to an identifier whose host name is the discovered one where it can be;
//   the original in a comment where it is not; a deterministic suffix on a collision);
// - models from the catalog where the description or part number names one and its
//   ports fit; otherwise a declared model with a TODO comment and the ports seen;
// - InfiniBand GUIDs pinned (`guid`), every link explicit, ports as discovered.
//
// The text is written in fabc fmt's canonical layout. docs/bring-up.md walks through it;
// docs/decisions/0042-fabc-import-a-design-from-a-discovery.md ("fabc import") records the choices.
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "ir/Fabric.h"

#include <string>
#include <vector>

namespace fabc {
struct CompileOptions;
}

namespace fabc::import {

struct Options {
  std::string fabricName;          // empty: "imported"
  double defaultSpeed = 400e9;     // ports whose speed nothing states (LLDP), with a TODO
  std::vector<std::string> inputs; // the discovery files, for the header comment
  // Compile the text with these options (the search path for the catalog's imports)
  // before handing it over: a failure is FAB-E0191, and importFabric returns false.
  const CompileOptions *check = nullptr;
};

// The catalog the importer recognizes models from: a compiled library (its models) and,
// per model, the file to import for it ("nvidia/switches.fab"), empty if none.
struct Catalog {
  const ir::Fabric *F = nullptr;
  std::vector<std::string> fileOf; // per model of F
};

struct Summary {
  uint64_t switches = 0, hosts = 0, links = 0, unknownModels = 0, omittedLinks = 0;
};

// Writes the design to `out`. Reports into `diags` (renamed collisions FAB-W0185, links
// left out FAB-W0186); false if nothing could be imported.
bool importFabric(const discovery::Observed &obs, const Catalog &cat, const Options &opts, SourceManager &sm,
                  DiagEngine &diags, std::string &out, Summary &sum);

// A Fabric identifier for a discovered name whose host name (passes::hostName's rule) is
// that name where it can be: '-' and other characters become '_', a leading digit or a
// keyword gets an 'n' in front, at most 63 characters. Exposed for the unit tests.
std::string identifier(std::string_view name);
std::string cutIdentifier(std::string id, size_t max);

} // namespace fabc::import
