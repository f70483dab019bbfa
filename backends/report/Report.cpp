// The design report (report/index.html): one self-contained HTML page an architect or
// a buyer reads instead of the JSON: summary, latency, energy with the CPO what-if,
// BOM, the topology drawn tier by tier, and every diagnostic with its source line.
//
// No script, no external resource: the charts and the drawing are inline SVG written
// here. Its figures come from the same analyses as the JSON outputs (Analyses::bom(),
// Analyses::energy(), the measured ir::Metrics), and every key figure carries
// data-json="FILE:PATH" data-value="..." so a test can check it against bom.json and
// energy.json. Every string from the design or the catalog is escaped. The page's size
// does not grow with the fabric: tables are per model and SKU, the drawing is capped.
#include "backends/Common.h"
#include "analysis/Energy.h"
#include "backends/report/ReportKit.h"
#include "backends/report/ReportPage.h"
#include "diag/Diag.h"

#include <cmath>
#include <map>
#include <set>

namespace fabc {
namespace {
using namespace report;
using ir::None;

// A source file as the page names it: its base name, so that the page is the same
// whatever directory or path the design was built from (docs/pipelines.md).
std::string_view shownPath(std::string_view p) {
  size_t s = p.rfind('/');
  return s == std::string_view::npos ? p : p.substr(s + 1);
}

const char *kCss = R"CSS(
:root{--ink:#0f172a;--ink2:#334155;--muted:#64748b;--line:#e2e8f0;--soft:#f8fafc;--accent:#2563eb;--est:#b45309;--warn:#b45309;--err:#b91c1c}
*{box-sizing:border-box}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:#fff}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
header.top{background:#0f172a;color:#e2e8f0;padding:26px 0 20px}
header.top .wrap,main,footer{max-width:1240px;margin:0 auto;padding-left:40px;padding-right:40px}
header.top .eyebrow{text-transform:uppercase;letter-spacing:.12em;font-size:11px;color:#94a3b8}
header.top h1{margin:4px 0 6px;font-size:30px;color:#fff;font-weight:650;letter-spacing:-.01em}
header.top .meta{color:#cbd5e1;font-size:13px}
header.top .meta code{color:#fff}
nav.toc{border-bottom:1px solid var(--line);background:var(--soft)}
nav.toc ul{max-width:1240px;margin:0 auto;padding:8px 40px;list-style:none;display:flex;gap:22px;flex-wrap:wrap}
nav.toc a{color:var(--ink2);text-decoration:none;font-weight:550;font-size:13px}
nav.toc a:hover{color:var(--accent)}
main{padding-top:4px;padding-bottom:32px}
section{margin-top:30px}
h2{font-size:20px;margin:0 0 14px;padding-bottom:6px;border-bottom:2px solid var(--ink);font-weight:650}
h3{font-size:15px;margin:22px 0 8px;color:var(--ink2);font-weight:650}
p{margin:6px 0 10px}
.lead{color:var(--ink2);max-width:900px}
.callout{margin-top:14px;border-left:4px solid #f59e0b;background:#fffbeb;color:#78350f;padding:8px 12px;border-radius:4px;font-size:13px;max-width:900px}
.callout a{color:#78350f}
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;margin:8px 0 6px}
.card{border:1px solid var(--line);border-radius:8px;padding:11px 14px;background:#fff}
.card .k{color:var(--muted);font-size:11.5px;text-transform:uppercase;letter-spacing:.05em;font-weight:600}
.card .v{font-size:23px;font-weight:650;font-variant-numeric:tabular-nums;line-height:1.3;margin-top:2px}
.card .s{color:var(--muted);font-size:12px}
.card.hl{border-color:#86efac;background:#f0fdf4}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;margin:6px 0 8px;font-size:13px}
th{text-align:left;font-size:11.5px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;border-bottom:1.5px solid var(--ink2);padding:6px 10px;font-weight:650}
td{border-bottom:1px solid var(--line);padding:5px 10px;vertical-align:top}
th.n,td.n{text-align:right;white-space:nowrap}
tbody tr:nth-child(even){background:var(--soft)}
td.muted,.muted{color:var(--muted)}
abbr.est,.est-badge{display:inline-block;margin-left:4px;padding:0 5px;border-radius:3px;background:#fef3c7;color:var(--est);font-size:10.5px;font-weight:700;text-decoration:none;border:1px solid #fcd34d;line-height:16px;vertical-align:1px;letter-spacing:.02em;text-transform:none;cursor:help}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:22px}
.grid3{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:18px}
figure{margin:10px 0 14px}
figcaption{font-weight:650;color:var(--ink2);font-size:13.5px;margin-bottom:4px}
.chart.small{max-width:520px}
ul.legend{list-style:none;margin:2px 0 6px;padding:0;display:flex;flex-wrap:wrap;gap:6px 16px;font-size:12px;color:var(--ink2)}
ul.legend li{display:flex;align-items:center;gap:6px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px}
.swatch.hatched{background:repeating-linear-gradient(45deg,#94a3b8 0 3px,#e2e8f0 3px 6px)}
.swatch.line{height:4px;width:18px;border-radius:2px}
.swatch.node-switch{background:#fff;border:1.5px solid #0e7490}
.swatch.node-system{background:#eef2ff;border:1.5px solid #4f46e5}
.swatch.node-block{background:#fff;border:1.5px solid #334155;box-shadow:2px -2px 0 -0.5px #fff,2px -2px 0 1px #334155}
svg.plot,svg.topology{width:100%;height:auto;display:block}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
svg .grid{stroke:#e2e8f0;stroke-width:1}
svg .axis{stroke:#475569;stroke-width:1}
svg .tick{font-size:11px;fill:#64748b}
svg .label{font-size:12.5px;fill:#1e293b;font-weight:550}
svg .total{font-size:12.5px;fill:#0f172a;font-weight:650}
svg .value{font-size:11px;fill:#0f172a;font-weight:600}
svg .est-mark{fill:#b45309;font-size:11px;font-weight:700}
svg.topology rect.pod{fill:#f8fafc;stroke:#cbd5e1;stroke-dasharray:4 3}
svg.topology .pod-label{font-size:11px;fill:#475569;font-weight:600;paint-order:stroke;stroke:#f8fafc;stroke-width:4px}
svg.topology .links path{fill:none;stroke-opacity:.55;stroke-linecap:round}
svg.topology .link-count{font-size:10px;fill:#0f172a;paint-order:stroke;stroke:#fff;stroke-width:3px}
svg.topology .node rect{fill:#fff;stroke:#0e7490;stroke-width:1.5}
svg.topology .node.system rect{fill:#eef2ff;stroke:#4f46e5}
svg.topology .node.block rect{stroke:#334155}
svg.topology .node.system.block rect{stroke:#4338ca}
svg.topology .node rect.stack{fill:#fff}
svg.topology .node text{font-size:11px;fill:#0f172a;font-weight:600}
svg.topology .node text.sub{font-size:10px;fill:#475569;font-weight:500}
svg.topology .tier{font-size:13px;font-weight:700;fill:#0f172a}
svg.topology .tier-sub{font-size:11px;fill:#64748b}
.topo-frame{border:1px solid var(--line);border-radius:8px;padding:10px 12px;background:#fff}
.whatif{display:grid;grid-template-columns:1fr 1fr;gap:0;border:1px solid var(--line);border-radius:8px;overflow:hidden;margin:8px 0}
.whatif>div{padding:12px 16px}
.whatif>div+div{border-left:1px solid var(--line);background:#f0fdf4}
.whatif h4{margin:0 0 6px;font-size:13px;text-transform:uppercase;letter-spacing:.05em;color:var(--ink2)}
.whatif table{margin:0}
.whatif td{border:0;padding:2px 0}
.savings{margin:10px 0}
.note{color:var(--muted);font-size:12.5px}
.diag{border:1px solid var(--line);border-left:4px solid var(--warn);border-radius:6px;padding:8px 12px;margin:8px 0;background:#fff;break-inside:avoid}
.diag.error{border-left-color:var(--err)}
.diag .head{font-weight:600}
.sev{display:inline-block;text-transform:uppercase;font-size:10.5px;font-weight:700;letter-spacing:.05em;padding:0 6px;border-radius:3px;color:#fff;background:var(--warn);margin-right:6px;vertical-align:1px}
.diag.error .sev{background:var(--err)}
.diag .code{color:var(--muted);font-weight:500;margin-left:6px}
.diag .loc{color:var(--muted);font-size:12px;margin-top:2px}
pre.src{background:#0f172a;color:#e2e8f0;border-radius:5px;padding:7px 10px;margin:6px 0 4px;overflow-x:auto;white-space:pre;tab-size:8}
pre.src .ln{color:#64748b;user-select:none}
pre.src .caret{color:#4ade80;font-weight:700}
ul.notes{margin:4px 0 0;padding-left:18px;font-size:13px;color:var(--ink2)}
.ok{color:#15803d;font-weight:600}
.bad{color:var(--err);font-weight:600}
footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:12px;padding-bottom:30px}
@media (max-width:900px){.grid2,.whatif{grid-template-columns:1fr}.cards{grid-template-columns:repeat(2,1fr)}}
table.narrow{width:auto;min-width:420px}
@media print{
  @page{size:A4;margin:14mm 12mm}
  body{font-size:11.5px}
  header.top{background:none;color:var(--ink);padding:0 0 8px;border-bottom:2px solid var(--ink)}
  header.top h1{color:var(--ink)}
  header.top .meta,header.top .meta code,header.top .eyebrow{color:var(--ink2)}
  header.top .wrap,main,footer{max-width:none;padding-left:0;padding-right:0}
  nav.toc{display:none}
  section{margin-top:18px}
  h2{break-after:avoid}
  figure,table,.card,.whatif,.topo-frame{break-inside:avoid}
  .cards{grid-template-columns:repeat(4,1fr);gap:8px}
  .card{padding:7px 9px}
  .card .v{font-size:17px}
  .whatif{grid-template-columns:1fr 1fr}
  th,td{padding:4px 6px}
  table{font-size:11px}
  pre.src{background:#f1f5f9;color:#0f172a;white-space:pre-wrap}
}
)CSS";
} // namespace

namespace report {

// The scoped policies' scopes (analysis::measureScopes): each element's counts and its
// rated ratio both ways. The first 32 rows of a scope; summary.json lists them all.
std::string scopesTable(const ir::Fabric &F) {
  std::string buf;
  for (const ir::ScopeStats &S : F.metrics.scopes) {
    if (!S.known)
      continue;
    bool tier = S.tier != ir::Tier::Unknown;
    std::string per(F.strings.str(S.name));
    buf += fmt::format("<h3>Per {}{}</h3><table class=\"scope\" data-per=\"{}\"><thead><tr><th>{}</th>"
                       "<th class=\"n\">GPUs</th><th class=\"n\">Switches</th><th class=\"n\">Links inside</th>"
                       "<th class=\"n\">Links across its edge</th><th class=\"n\">{}</th><th class=\"n\">{}</th>"
                       "<th class=\"n\">Oversubscription, down:up</th><th class=\"n\">The same, up:down</th></tr></thead><tbody>",
                       esc(per), tier ? fmt::format(", {} switches", ir::tierName(S.tier)) : std::string(), esc(per),
                       esc(per), tier ? "Worst switch down" : "In from below", tier ? "Worst switch up" : "Out upwards");
    size_t shown = 0;
    for (const ir::ScopeElement &e : S.elements) {
      if (shown++ == 32)
        break;
      double down = tier ? e.worstDown : e.down, up = tier ? e.worstUp : e.up;
      bool rated = tier ? e.worstSwitch != ir::None : up > 0;
      buf += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                         "<td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                         "<td class=\"n\">{}</td></tr>",
                         esc(e.name), count(e.gpus), count(e.switches), count(e.links), count(e.boundaryLinks),
                         esc(bandwidth(down)), rated ? esc(bandwidth(up)) : "\xE2\x80\x94",
                         rated ? ir::downUpText(down / up) : "not rated", rated ? ir::upDownText(down / up) : "");
    }
    buf += "</tbody></table>";
    if (S.elements.size() > 32)
      buf += fmt::format("<p class=\"note\">The first 32 of {} (summary.json's scopes lists every one).</p>",
                         count(S.elements.size()));
  }
  return buf;
}

void Page::header() {
  const char *tiers[] = {"no switch tier", "single-tier", "two-tier", "three-tier", "four-tier"};
  buf += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  // No fetches at all, even by accident: the page is read offline from disk.
  buf += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">\n";
  buf += fmt::format("<meta name=\"generator\" content=\"fabc {}\">\n<title>{} \xE2\x80\x94 fabc design report</title>\n",
                     esc(ctx.info.version), esc(F.name));
  buf += "<style>";
  buf += kCss;
  buf += "</style>\n</head>\n<body>\n";
  buf += fmt::format("<header class=\"top\"><div class=\"wrap\"><div class=\"eyebrow\">fabc design report</div>"
                     "<h1 id=\"fabric-name\">{}</h1><div class=\"meta\">{} \xC2\xB7 {} GPU{} \xC2\xB7 {} device{} "
                     "\xC2\xB7 {} link{} \xC2\xB7 from <code>{}</code> \xC2\xB7 fabc {}</div>",
                     esc(F.name), tiers[std::min<uint32_t>(M.topTier, 4)], count(M.gpus), M.gpus == 1 ? "" : "s",
                     count(F.numDevices()), F.numDevices() == 1 ? "" : "s", count(F.numLinks()),
                     F.numLinks() == 1 ? "" : "s", esc(shownPath(ctx.info.input)), esc(ctx.info.version));
  bool anyEstimate = !E.estimates.empty() || latencyEstimate;
  if (anyEstimate)
    buf += "<div class=\"callout\" id=\"estimate-callout\">Figures marked <abbr class=\"est\">est.</abbr> rest on catalog "
           "estimates, not on a confirmed vendor figure: see <a href=\"#estimates\">estimated figures</a>. Counts, "
           "bandwidths and lengths are exact for the design as written.</div>";
  buf += "</div></header>\n<nav class=\"toc\"><ul><li><a href=\"#summary\">Summary</a></li><li><a "
         "href=\"#latency\">Latency</a></li><li><a href=\"#energy\">Energy</a></li><li><a href=\"#reliability\">Reliability</a></li><li><a href=\"#bom\">Bill of "
         "materials</a></li><li><a href=\"#topology\">Topology</a></li><li><a href=\"#diagnostics\">Diagnostics</a></li>"
         "</ul></nav>\n<main>\n";
}

void Page::summary() {
  buf += "<section id=\"summary\"><h2>Summary</h2><div class=\"cards\">";
  buf += card("GPUs", count(bom.gpus), dataAttrs("bom:summary.gpus", std::to_string(bom.gpus)),
              fmt::format("in {} systems ({} compute)", count(bom.systems), count(bom.computeSystems)));
  buf += card("NVLink domains", count(M.nvlinkDomains), "",
              M.largestNvlinkDomain ? fmt::format("largest: {} GPUs", count(M.largestNvlinkDomain)) : "");
  std::string perTier;
  for (uint32_t t = 1; t < ir::Metrics::MaxTier; ++t)
    if (bom.switchesByTier[t])
      perTier += fmt::format("{}{} <span{}>{}</span>", perTier.empty() ? "" : " \xC2\xB7 ", tierName(t),
                             dataAttrs(fmt::format("bom:summary.switches_by_tier.{}", tierName(t)),
                                       std::to_string(bom.switchesByTier[t])),
                             count(bom.switchesByTier[t]));
  buf += card("Switches", count(bom.switches), dataAttrs("bom:summary.switches", std::to_string(bom.switches)), perTier);
  buf += card("Links", count(F.numLinks()), dataAttrs("bom:summary.links", std::to_string(F.numLinks())),
              fmt::format("{} of cable", esc(length(bom.totalLength))));
  buf += card("Bisection bandwidth", bandwidth(M.bisection),
              " id=\"bisection\"" + dataAttrs("summary:bisection_gbps", fixed(M.bisection / 1e9, 0)),
              M.gpus ? fmt::format("{} per GPU", esc(bandwidth(2 * M.bisection / double(M.gpus)))) : "");
  buf += card("Worst GPU-to-GPU latency", duration(M.worstLatency),
              " id=\"worst-latency\"" + dataAttrs("summary:worst_latency_ns", fixed(M.worstLatency * 1e9, 1)),
              fmt::format("{} switch{}, {} of cable", M.worstHops, M.worstHops == 1 ? "" : "es", esc(length(M.worstFibre))),
              latencyEstimate);
  buf += card("IT power", power(E.it), dataAttrs("energy:it_power_w", fixed(E.it, 1)),
              fmt::format("{} at the facility (PUE {:g})", esc(power(E.facility())), E.pue), !E.estimates.empty());
  buf += card("Transceivers per GPU", fixed(bom.transceiversPerGpu(), 2),
              dataAttrs("bom:summary.transceivers_per_gpu", fixed(bom.transceiversPerGpu(), 3)),
              fmt::format("{} transceivers: {}", count(bom.xcvrTotal), BomSummary::TransceiversPerGpuNote));
  buf += "</div>\n";

  // Tiers: switches, capacity, oversubscription.
  buf += "<h3>Switch tiers</h3><table id=\"tiers\"><thead><tr><th>Tier</th><th class=\"n\">Switches</th><th>Models</th>"
         "<th class=\"n\">Downlink capacity</th><th class=\"n\">Uplink capacity</th><th class=\"n\">Oversubscription "
         "(worst switch)</th><th>Worst switch</th></tr></thead><tbody>";
  std::vector<std::map<uint32_t, uint64_t>> models(ir::Metrics::MaxTier);
  for (uint32_t d = 0; d < F.numDevices(); ++d)
    if (ir::isSwitchTier(F.devTier[d]))
      ++models[ir::tierIndex(F.devTier[d])][F.devModel[d]];
  for (uint32_t t = M.topTier; t >= 1; --t) {
    const ir::TierStats &ts = M.tiers[t];
    std::string ms;
    for (const auto &kv : models[t])
      ms += fmt::format("{}{} \xC3\x97 {}", ms.empty() ? "" : ", ", count(kv.second), esc(modelLabel(F, kv.first)));
    // Both readings: down:up here, up:down as papers write it at the layer above.
    std::string over = ts.upBandwidth > 0 && ts.worstSwitch != None
                           ? fmt::format("{:.2f}:1 <span class=\"muted\">({} at the {})</span>", ts.maxOversubscription,
                                         ir::upDownText(ts.maxOversubscription), tierName(t + 1))
                       : t == M.topTier                             ? "top tier"
                                                                    : "no uplinks";
    buf += fmt::format("<tr data-tier=\"{}\"><td>{}</td><td class=\"n\"{}>{}</td><td>{}</td><td class=\"n\">{}</td>"
                       "<td class=\"n\">{}</td><td class=\"n\" data-oversubscription=\"{:.4f}\">{}</td><td class=\"mono\">{}"
                       "</td></tr>",
                       tierName(t), tierName(t),
                       dataAttrs(fmt::format("bom:summary.switches_by_tier.{}", tierName(t)),
                                 std::to_string(bom.switchesByTier[t])),
                       count(ts.switches), ms, esc(bandwidth(ts.downBandwidth)),
                       ts.upBandwidth > 0 ? esc(bandwidth(ts.upBandwidth)) : "\xE2\x80\x94", ts.maxOversubscription, over,
                       ts.worstSwitch != None ? esc(F.deviceName(ts.worstSwitch)) : "");
  }
  if (!M.topTier)
    buf += "<tr><td colspan=\"7\" class=\"muted\">The fabric has no switch tiers.</td></tr>";
  buf += "</tbody></table>";
  buf += "<p class=\"note\">Oversubscription: a switch's downlink over its uplink bandwidth, down:up (1:1 is "
         "non-blocking); papers write the same ratio up:down at the layer above (7:1 at a leaf is 1:7 at the spine). "
         "Bisection: half the narrowest tier's capacity.</p>";
  buf += scopesTable(F);

  buf += "<h3>Links by tier</h3><table id=\"links-by-tier\" class=\"narrow\"><thead><tr><th>Between</th><th class=\"n\">Links</th>"
         "</tr></thead><tbody>";
  for (const auto &kv : bom.linksByTierPair) {
    std::string key = fmt::format("{}-{}", tierName(kv.first.first), tierName(kv.first.second));
    buf += fmt::format("<tr><td>{} \xE2\x80\x93 {}</td><td class=\"n num\"{}>{}</td></tr>", tierName(kv.first.first),
                       tierName(kv.first.second), dataAttrs("bom:summary.cables_by_tier." + key, std::to_string(kv.second)),
                       count(kv.second));
  }
  buf += "</tbody></table></section>\n";
}

void Page::latency() {
  buf += "<section id=\"latency\"><h2>Latency</h2><p class=\"lead\">Worst-case GPU-to-GPU paths, one way: switches "
         "crossed \xC3\x97 their port-to-port latency, plus 4.9 ns per metre of fibre, plus the NIC latency at both ends. "
         "Each path climbs the worst way to the switch where it turns and comes down the worst way again.</p>";
  std::string podName = M.podKind == ir::GroupKind::Pod ? "pod"
                        : M.podKind == ir::GroupKind::Su ? "SU"
                                                         : "pod";
  std::string podScope = M.podKind == ir::GroupKind::Other
                             ? "the design declares no pod or su groups: the whole fabric is one pod"
                             : fmt::format("{} {} groups; the path turns at a switch serving one {} only", count(M.pods),
                                           ir::groupKindName(M.podKind), podName);
  struct Row {
    std::string id, label, scope;
    double latency;
    uint32_t hops;
    double fibre;
    uint32_t via;
  };
  std::vector<Row> rows;
  rows.push_back({"latency-pod", "Within one " + podName, podScope, M.podPath.latency, M.podPath.hops,
                  M.podPath.fibre, M.podPath.via});
  if (F.buildings.size() > 1)
    rows.push_back({"latency-cross-building", "Across buildings", "GPUs in two different buildings",
                    M.crossBuildingPath.latency, M.crossBuildingPath.hops, M.crossBuildingPath.fibre,
                    M.crossBuildingPath.via});
  const ir::Reachability &reach = M.resilience.reach;
  double covers = reach.pairs > 0 ? reach.networkPairs / reach.pairs : 1;
  std::string worstScope =
      covers >= 1 ? std::string("any two GPUs; the latency policy checks this one")
                  : fmt::format("the {} of GPU endpoint pairs with a network path; {} meet only through an NVLink "
                                "domain{} and are not covered; the latency policy checks this one",
                                share(covers), share(reach.pairs > 0 ? reach.nvlinkOnlyPairs / reach.pairs : 0),
                                reach.unreachablePairs > 0
                                    ? fmt::format(", {} not at all,", share(reach.unreachablePairs / reach.pairs))
                                    : std::string());
  rows.push_back({"latency-worst", "Worst overall", worstScope, M.worstLatency, M.worstHops, M.worstFibre, M.worstVia});
  buf += "<table id=\"latency-table\"><thead><tr><th>Path</th><th class=\"n\">Latency</th><th class=\"n\">Switches</th>"
         "<th class=\"n\">Cable</th><th class=\"n\">Fibre delay</th><th>Turns at</th><th>Scope</th></tr></thead><tbody>";
  std::vector<Bar> bars;
  for (const Row &r : rows) {
    bool has = r.latency > 0;
    double fibre = r.fibre * ir::FibreDelayPerMetre;
    buf += fmt::format("<tr id=\"{}\" data-latency-s=\"{:.6e}\" data-hops=\"{}\" data-fibre-m=\"{:.1f}\"><td>{}</td>"
                       "<td class=\"n\"><b>{}</b>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>"
                       "<td class=\"mono\">{}</td><td class=\"muted\">{}</td></tr>",
                       r.id, r.latency, r.hops, r.fibre, esc(r.label), has ? esc(duration(r.latency)) : "no such path",
                       has ? estMark(latencyEstimate) : "", has ? std::to_string(r.hops) : "\xE2\x80\x94",
                       has ? esc(length(r.fibre)) : "\xE2\x80\x94", has ? esc(duration(fibre)) : "\xE2\x80\x94",
                       r.via != None ? esc(F.deviceName(r.via)) : "", esc(r.scope));
    if (has) {
      Bar b;
      b.label = r.label;
      b.estimate = latencyEstimate;
      b.segments.push_back({std::max(0.0, r.latency - fibre), 0, "", "", latencyEstimate});
      b.segments.push_back({fibre, 1, "", "", false});
      bars.push_back(b);
    }
  }
  buf += "</tbody></table>";
  buf += fmt::format("<p id=\"latency-coverage\"{}>The paths cover {} of GPU endpoint pairs: those with a network path.</p>",
                     dataAttrs("summary:worst_latency_covers_pairs", fixed(covers, 4)), share(covers));
  for (const ir::Policy &p : F.policies)
    if (p.kind == ir::PolicyKind::Latency && !p.roundTrips)
      buf += fmt::format("<p>Latency SLO: {} \xE2\x80\x94 {}</p>", esc(duration(p.max)),
                         M.worstLatency <= p.max ? "<span class=\"ok\">met</span>" : "<span class=\"bad\">exceeded</span>");
  if (latencyEstimate)
    buf += fmt::format("<p class=\"note\">Switch and NIC latencies are catalog estimates: {}.</p>",
                       esc(latencyEstimateNote));
  bool noNic = false;
  for (const auto &kv : bom.devices) {
    const ir::Model &m = F.models[kv.first];
    noNic |= m.kind == ir::ModelKind::System && m.gpus && !m.latency.known;
  }
  if (noNic)
    buf += fmt::format("<p class=\"note\" id=\"nic-latency\">A GPU system model gives no NIC latency: its paths count "
                       "option nic_latency, {} at each end.</p>",
                       esc(duration(F.options.gpuNicLatency)));
  if (!bars.empty())
    stackedBars(buf, "latency-chart", "Where the time goes",
                {{"switches and NICs", "#0891b2"}, {"fibre (4.9 ns/m)", "#eab308"}}, bars, Unit::Time);
  latencyMatrix();
  buf += "</section>\n";
}


void Page::topologySection() {
  buf += "<section id=\"topology\"><h2>Topology</h2><p class=\"lead\">The fabric tier by tier, the top tier at the top. "
         "Lines are bundles of links between the boxes they join, as wide as the log of their count and coloured by "
         "media.</p><div class=\"topo-frame\">";
  topology(buf, F, collapse);
  buf += "</div></section>\n";
}

// Spaces up to a byte column, one per character (UTF-8), tabs kept so the caret aligns.
std::string caretLine(std::string_view line, uint32_t col, uint32_t len) {
  std::string r;
  for (uint32_t i = 0; i + 1 < col && i < line.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80)
      continue;
    r += c == '\t' ? '\t' : ' ';
  }
  r += '^';
  uint32_t chars = 0;
  for (uint32_t i = col - 1; i < line.size() && i < col - 1 + len; ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80)
      ++chars;
  for (uint32_t i = 1; i < chars; ++i)
    r += '~';
  return r;
}

void Page::diagnostics() {
  const std::vector<Diagnostic> &all = ctx.diags.all();
  const SourceManager *sm = ctx.sources;
  unsigned shown = unsigned(all.size()), total = ctx.diags.errors() + ctx.diags.warnings();
  buf += fmt::format("<section id=\"diagnostics\" data-diagnostics=\"{}\"><h2>Diagnostics</h2>", shown);
  if (all.empty()) {
    buf += "<p class=\"ok\">None: the design compiled without warnings.</p></section>\n";
    return;
  }
  buf += fmt::format("<p class=\"lead\">{} warning{} and {} error{} from the compiler, each with the line it points "
                     "at. <code>fabc explain CODE</code> says what a code means and how to fix it.</p>",
                     ctx.diags.warnings(), ctx.diags.warnings() == 1 ? "" : "s", ctx.diags.errors(),
                     ctx.diags.errors() == 1 ? "" : "s");
  auto where = [&](SourceRange r) -> std::string {
    if (!sm || !r.begin.valid())
      return "";
    LineCol lc = sm->lineCol(r.begin);
    return fmt::format("{}:{}:{}", shownPath(sm->path(r.begin.file)), lc.line, lc.col);
  };
  auto source = [&](SourceRange r) -> std::string {
    if (!sm || !r.begin.valid())
      return "";
    std::string_view line = sm->lineText(r.begin);
    if (line.size() > 400)
      return "";
    LineCol lc = sm->lineCol(r.begin);
    std::string ln = std::to_string(lc.line);
    return fmt::format("<pre class=\"src\"><span class=\"ln\">{} \xE2\x94\x82 </span>{}\n<span class=\"ln\">{} "
                       "\xE2\x94\x82 </span><span class=\"caret\">{}</span></pre>",
                       ln, esc(line), std::string(ln.size(), ' '), esc(caretLine(line, lc.col, r.length)));
  };
  for (const Diagnostic &d : all) {
    const DiagInfo &info = diagInfo(d.code);
    bool err = d.severity == Severity::Error;
    buf += fmt::format("<div class=\"diag {}\" data-code=\"FAB-{}\"><div class=\"head\"><span class=\"sev\">{}</span>{}"
                       "<span class=\"code\">[FAB-{}] {}</span></div>",
                       err ? "error" : "warning", info.code, err ? "error" : "warning", esc(d.message), info.code,
                       esc(info.summary));
    std::string w = where(d.range);
    if (!w.empty())
      buf += fmt::format("<div class=\"loc mono\">{}</div>", esc(w));
    buf += source(d.range);
    if (!d.notes.empty()) {
      buf += "<ul class=\"notes\">";
      for (const DiagNote &n : d.notes) {
        std::string nw = where(n.range);
        buf += fmt::format("<li>note: {}{}{}</li>", esc(n.message),
                           nw.empty() ? "" : fmt::format(" <span class=\"muted mono\">({})</span>", esc(nw)), source(n.range));
      }
      buf += "</ul>";
    }
    buf += "</div>\n";
  }
  if (total > shown)
    buf += fmt::format("<p class=\"note\">{} more not kept (error limit; see --error-limit).</p>", total - shown);
  buf += "</section>\n";
}

void Page::footer() {
  buf += fmt::format("</main>\n<footer>Generated by fabc {} from <code>{}</code>. Catalog figures carry their source in "
                     "the catalog (stdlib); the ones that are estimates are marked <abbr class=\"est\">est.</abbr> here "
                     "and listed in energy/energy.json. The same build's bom/bom.json and energy/energy.json hold every "
                     "figure on this page.</footer>\n</body>\n</html>\n",
                     esc(ctx.info.version), esc(shownPath(ctx.info.input)));
}

} // namespace report

bool runReport(BackendContext &ctx) {
  Page p(ctx);
  const ir::Fabric &F = ctx.F;
  p.collapse = ctx.an.report.collapse; // checked by checks::checkReport
  // Latency figures rest on the switches' and GPU systems' latency figures.
  std::set<std::string> estimated;
  for (const auto &kv : p.bom.devices) {
    const ir::Model &m = F.models[kv.first];
    bool onPath = m.kind == ir::ModelKind::Switch || (m.kind == ir::ModelKind::System && m.gpus);
    if (!onPath)
      continue;
    if (m.latency.estimate || (m.kind == ir::ModelKind::Switch && !m.latency.known))
      estimated.insert(std::string(F.strings.str(m.name)) + (m.latency.known ? "" : " (no figure: counted as 0)"));
  }
  p.latencyEstimate = !estimated.empty();
  for (const std::string &e : estimated)
    p.latencyEstimateNote += (p.latencyEstimateNote.empty() ? "" : ", ") + e;

  p.out = ctx.out.open("report/index.html");
  if (!p.out)
    return failOpen(ctx);
  p.header();
  p.flush();
  p.summary();
  p.flush();
  p.latency();
  p.flush();
  p.energy();
  p.flush();
  p.reliability();
  p.flush();
  p.bomSection();
  p.flush();
  p.topologySection();
  p.flush();
  p.diagnostics();
  p.footer();
  p.flush();
  return true;
}

} // namespace fabc