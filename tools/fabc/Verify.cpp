// fabc verify DESIGN --discovered FILE...: compile the design (Compilation), read the
// discovery (compiler/discovery, streamed), compare (compiler/verify), and print: the
// summary and numbered work order (text), one JSON document, the CSV work order for the
// people on the floor. Exit 0 when the fabric matches, 1 when it does not (or the design
// has errors), 2 when a discovery file cannot be read whole.
#include "Commands.h"
#include "diag/SarifContext.h"
#include "StageTimer.h"

#include "backends/Backend.h"
#include "backends/FormatVersions.h"
#include "support/Json.h"
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

void endJson(JsonWriter &J, const EndInfo &e) {
  J.beginObject(JsonLayout::Inline);
  J.key("device").string(e.device);
  J.key("port").string(e.port_);
  J.key("design_port").stringOrNull(e.designPort);
  J.key("rack").stringOrNull(e.rack);
  J.key("u").integer(e.u);
  J.endObject();
}

void printText(const ir::Fabric &F, const Request &r, const verify::Result &res, FILE *out) {
  uint64_t errors = 0, warnings = 0;
  for (const Fault &f : res.faults)
    (diagInfo(f.code).severity == Severity::Error ? errors : warnings)++;
  fmt::print(out, "fabc: verified '{}'{} against {}: {} planned, {} as planned, {} discovered", F.name,
             r.scope.empty() ? "" : fmt::format(" (scope {})", r.scope), plural(r.discovered.size(), "discovery file"),
             plural(res.planned, "cable"), res.matched, res.discovered);
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
  JsonWriter J([out](std::string_view t) { std::fwrite(t.data(), 1, t.size(), out); });
  J.beginObject();
  J.key("format_version").string(formats::Verify);
  J.key("fabric").string(F.name);
  J.key("scope").stringOrNull(r.scope);
  J.key("discovered_files").beginArray(JsonLayout::Inline);
  for (const std::string &d : r.discovered)
    J.string(d);
  J.endArray();
  J.key("foreign").boolean(res.foreign);
  J.key("planned").integer(res.planned);
  J.key("as_planned").integer(res.matched);
  J.key("discovered").integer(res.discovered);
  J.key("matches").boolean(!res.foreign && res.errors() == 0);
  J.key("faults").beginArray();
  for (const Fault &f : res.faults) {
    J.beginObject(JsonLayout::Inline);
    J.key("kind").string(verify::faultKindName(f.kind));
    J.key("code").string(std::string("FAB-") + diagInfo(f.code).code);
    J.key("severity").string(diagInfo(f.code).severity == Severity::Error ? "error" : "warning");
    J.key("message").string(f.message);
    J.key("action").stringOrNull(f.action);
    J.key("where").stringOrNull(f.where);
    J.key("ends").beginArray(JsonLayout::Inline);
    for (const EndInfo &e : f.ends)
      endJson(J, e);
    J.endArray();
    J.endObject();
  }
  J.endArray();
  J.endObject();
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
  setDiagInput(o.inputs[0]);
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
