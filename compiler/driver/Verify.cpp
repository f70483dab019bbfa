// fabc verify's printing: the summary and the numbered work order (text), the JSON
// document, and the CSV work order for the people on the floor. The comparison is
// compiler/verify/; reading the discovery compiler/discovery/.
#include "driver/Commands.h"

#include "diag/Diag.h"

#include <cstdio>

namespace fabc {
namespace {
using verify::EndInfo;
using verify::Fault;

std::string js(std::string_view s) { return "\"" + jsonEscape(s) + "\""; }

std::string endJson(const EndInfo &e) {
  return fmt::format("{{\"device\": {}, \"port\": {}, \"design_port\": {}, \"rack\": {}, \"u\": {}}}", js(e.device),
                     js(e.port_), e.designPort.empty() ? "null" : js(e.designPort), e.rack.empty() ? "null" : js(e.rack),
                     e.u);
}

std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(s);
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

} // namespace

void printVerifyText(const ir::Fabric &F, const VerifyRequest &r, const verify::Result &res, FILE *out) {
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

void printVerifyJson(const ir::Fabric &F, const VerifyRequest &r, const verify::Result &res, FILE *out) {
  fmt::print(out, "{{\n  \"fabric\": {},\n  \"scope\": {},\n  \"discovered_files\": [", js(F.name),
             r.scope.empty() ? "null" : js(r.scope));
  for (size_t i = 0; i < r.discovered.size(); ++i)
    fmt::print(out, "{}{}", i ? ", " : "", js(r.discovered[i]));
  fmt::print(out,
             "],\n  \"foreign\": {},\n  \"planned\": {},\n  \"as_planned\": {},\n  \"discovered\": {},\n  "
             "\"unknown_nodes\": {},\n  \"matches\": {},\n  \"faults\": [",
             res.foreign ? "true" : "false", res.planned, res.matched, res.discovered, res.unknownNodes,
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

} // namespace fabc
