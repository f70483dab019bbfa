// fabc verify DESIGN --discovered FILE...: compile the design (Compilation), read the
// discovery (compiler/discovery, streamed), compare (compiler/verify), and print: the
// summary and numbered work order (text), one JSON document, the CSV work order for the
// people on the floor. Exit 0 when the fabric matches, 1 when it does not (or the design
// has errors), 2 when a discovery file cannot be read whole.
#include "Commands.h"
#include "StageTimer.h"

#include "backends/Backend.h"
#include "discovery/Observed.h"
#include "verify/Verify.h"

#include <cstdio>

namespace fabc::cli {
namespace {
using verify::EndInfo;
using verify::Fault;

struct Request {
  std::vector<std::string> discovered;
  std::string scope;
};

std::string js(std::string_view s) { return jsonString(s); }

std::string endJson(const EndInfo &e) {
  return fmt::format("{{\"device\": {}, \"port\": {}, \"design_port\": {}, \"rack\": {}, \"u\": {}}}", js(e.device),
                     js(e.port_), e.designPort.empty() ? "null" : js(e.designPort), e.rack.empty() ? "null" : js(e.rack),
                     e.u);
}

void printText(const ir::Fabric &F, const Request &r, const verify::Result &res, FILE *out) {
  uint64_t errors = 0, warnings = 0;
  for (const Fault &f : res.faults)
    (diagInfo(f.code).severity == Severity::Error ? errors : warnings)++;
  fmt::print(out, "fabc: verified '{}'{} against {} discovery file{}: {} cables planned, {} as planned, {} discovered",
             F.name, r.scope.empty() ? "" : fmt::format(" (scope {})", r.scope), r.discovered.size(),
             r.discovered.size() == 1 ? "" : "s", res.planned, res.matched, res.discovered);
  if (res.foreign) {
    fmt::print(out, "; the discovery is of another fabric\n");
    return;
  }
  if (!errors && !warnings) {
    fmt::print(out, "; the fabric matches\n");
    return;
  }
  fmt::print(out, "; {} fault{}, {} warning{}\n", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  unsigned step = 0;
  for (const Fault &f : res.faults) {
    if (f.action.empty())
      continue;
    if (!step)
      fmt::print(out, "work order:\n");
    std::string place;
    if (!f.ends.empty() && !f.ends[0].rack.empty())
      place = fmt::format(" [rack {}{}]", f.ends[0].rack, f.ends[0].u ? fmt::format(" U{}", f.ends[0].u) : "");
    fmt::print(out, "  {:>3}. {}{}\n", ++step, f.action, place);
  }
}

void printJson(const ir::Fabric &F, const Request &r, const verify::Result &res, FILE *out) {
  fmt::print(out, "{{\n  \"fabric\": {},\n  \"scope\": {},\n  \"discovered_files\": [", js(F.name),
             r.scope.empty() ? "null" : js(r.scope));
  for (size_t i = 0; i < r.discovered.size(); ++i)
    fmt::print(out, "{}{}", i ? ", " : "", js(r.discovered[i]));
  fmt::print(out,
             "],\n  \"foreign\": {},\n  \"planned\": {},\n  \"as_planned\": {},\n  \"discovered\": {},\n  "
             "\"matches\": {},\n  \"faults\": [",
             res.foreign ? "true" : "false", res.planned, res.matched, res.discovered,
             !res.foreign && res.errors() == 0 ? "true" : "false");
  for (size_t i = 0; i < res.faults.size(); ++i) {
    const Fault &f = res.faults[i];
    fmt::print(out, "{}\n    {{\"kind\": \"{}\", \"code\": \"FAB-{}\", \"severity\": \"{}\", \"message\": {}, "
                    "\"action\": {}, \"where\": {}, \"ends\": [",
               i ? "," : "", verify::faultKindName(f.kind), diagInfo(f.code).code,
               diagInfo(f.code).severity == Severity::Error ? "error" : "warning", js(f.message),
               f.action.empty() ? "null" : js(f.action), f.where.empty() ? "null" : js(f.where));
    for (size_t k = 0; k < f.ends.size(); ++k)
      fmt::print(out, "{}{}", k ? ", " : "", endJson(f.ends[k]));
    fmt::print(out, "]}}");
  }
  fmt::print(out, "{}]\n}}\n", res.faults.empty() ? "" : "\n  ");
}

// One row per action, at the end where it is done: step, action, rack, U, device, port,
// the design's port name, the far end, the fault and its code.
bool writeWorkOrder(const std::string &path, const verify::Result &res, std::string &err) {
  std::string text = "step,rack,u,device,port,design_port,action,far_device,far_port,fault,code\n";
  unsigned step = 0;
  for (const Fault &f : res.faults) {
    if (f.action.empty() || f.ends.empty())
      continue;
    const EndInfo &e = f.ends[0];
    const EndInfo *o = f.ends.size() > 1 ? &f.ends[1] : nullptr;
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},FAB-{}\n", ++step, csvField(e.rack), e.u ? std::to_string(e.u) : "",
                        csvField(e.device), csvField(e.port_), csvField(e.designPort), csvField(f.action),
                        o ? csvField(o->device) : "", o ? csvField(o->port_) : "", verify::faultKindName(f.kind),
                        diagInfo(f.code).code);
  }
  return replaceFileAtomically(path, text, err);
}


} // namespace

int verifyCommand(Options &o) {
  if (o.inputs.empty())
    return usageError("verify takes a design and discovery files: fabc verify DESIGN --discovered FILE...");
  if (!o.stopAfter.empty()) // the comparison reads what every pass produces
    return usageError("--stop-after does not apply to verify");
  Request r;
  r.discovered = o.discovered;
  r.discovered.insert(r.discovered.end(), o.inputs.begin() + 1, o.inputs.end());
  r.scope = o.scope;
  if (r.discovered.empty())
    return usageError("verify needs the discovered fabric: --discovered FILE (ibnetdiscover, lldpctl -f json, "
                      "SONiC show lldp table)");
  StageTimer timer(o.timeStages);
  Compilation c(compileOptions(o, false));
  DiagEngine &diags = c.diags();
  setupDiags(o, diags);
  c.onStage([&](const char *stage) { timer(stage); });
  if (!c.run(CompileInput::file(o.inputs[0]))) {
    diags.finish();
    timer.report();
    return c.ioError() ? ExitUsage : ExitErrors;
  }
  const ir::Fabric &F = c.fabric();
  timer("discovery");
  discovery::Observed obs;
  discovery::ReadLimits limits;
  limits.maxPorts = std::max<uint64_t>(2 * uint64_t(F.numPorts()), 1u << 20);
  bool readable = true;
  for (const std::string &file : r.discovered)
    readable &= discovery::readDiscovery(file, "", limits, obs, c.sources(), diags);
  if (!readable) {
    diags.finish();
    timer.report();
    return ExitUsage;
  }
  timer("verify");
  verify::Options vo;
  vo.scope = r.scope;
  verify::Result res;
  std::string err;
  if (!verify::verifyFabric(F, obs, vo, c.sources(), diags, res, err)) {
    diags.finish();
    return usageError(err);
  }
  diags.finish();
  timer.report();
  if (o.diffJson)
    printJson(F, r, res, stdout);
  else if (!o.quiet)
    printText(F, r, res, stdout);
  if (!o.workOrder.empty() && !writeWorkOrder(o.workOrder, res, err)) {
    fmt::print(stderr, "fabc: error: cannot write the work order: {}\n", err);
    return ExitUsage;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return ExitUsage;
  return res.errors() || diags.hasErrors() ? ExitErrors : ExitOk;
}

} // namespace fabc::cli
