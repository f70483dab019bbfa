#pragma once
// The fabric as built against the design: discovered nodes are matched to the design's
// devices by the names fabc's own outputs give them (host names; an HCA's "host port"
// NodeDescription; SONiC, Cumulus and the design's port names) and by GUID where known,
// then every planned cable of the verified scope is found, or reported missing,
// miswired (with the one action that fixes it: a swap of two cable ends, or a move of
// one to a free port), unexpected, or degraded (width, speed). docs/bring-up.md walks
// through it; tools print the Result (text, JSON, the CSV work order).
#include "diag/Diag.h"
#include "discovery/Observed.h"
#include "ir/Fabric.h"

#include <string>
#include <vector>

namespace fabc::verify {

struct Options {
  std::string scope; // a group ("su[1]" or "su1") or a building; empty: the whole design
};

// A cable end as the people on the floor find it.
struct EndInfo {
  uint32_t dev = ir::None, port = ir::None; // design device and port, when known
  std::string device;                       // host name, or the discovered name
  std::string port_;                        // panel name: "port 3" (InfiniBand switch), "swp3", "cx0"
  std::string designPort;                   // "p[2]": the design's name, when known
  std::string rack;                         // rack name, empty when unplaced
  uint32_t u = 0;                           // rack unit, 0 when unplaced
};

enum class FaultKind : uint8_t { Missing, Unexpected, Miswired, Degraded, UnknownDevice };
const char *faultKindName(FaultKind k);

struct Fault {
  FaultKind kind;
  DiagCode code;
  std::string message;      // what is wrong (the diagnostic's text)
  std::string action;       // what to do, in words: "swap the cables in leaf3 port 7 and port 8"
  std::vector<EndInfo> ends; // the cable ends the action touches (the work order's rows: the first)
  std::string where;        // "file:line" of the discovery, or of the design's link
};

struct Result {
  bool foreign = false;     // no discovered node is of the design (FAB-E0185)
  uint64_t planned = 0;     // planned cables in scope
  uint64_t matched = 0;     // found as planned
  uint64_t discovered = 0;  // discovered cables with an end in scope
  uint64_t unknownNodes = 0; // discovered nodes with cables that are not of the design (FAB-W0180 for the first 20)
  std::vector<Fault> faults; // in order: miswired, missing, unexpected, degraded, unknown
  uint64_t errors() const;
};

// Compares. Reports each fault as a diagnostic too (at the design's link for a missing
// cable, at the discovery's line otherwise). False when `opts.scope` names nothing
// (`error` says why): a usage error.
bool verifyFabric(const ir::Fabric &F, const discovery::Observed &obs, const Options &opts, SourceManager &sm,
                  DiagEngine &diags, Result &out, std::string &error);

} // namespace fabc::verify
