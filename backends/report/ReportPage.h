#pragma once
// The report page being written (Report.cpp: header, summary, latency, topology,
// diagnostics; ReportCards.cpp: the energy and BOM sections; ReportReliability.cpp: reliability) and the small helpers the
// sections share.
#include "backends/Common.h"
#include "analysis/Energy.h"
#include "backends/report/ReportKit.h"

#include <string>
#include <string_view>

namespace fabc::report {

inline const char *const kCategoryColors[] = {"#4f46e5", "#a5b4fc", "#0891b2", "#67e8f9", "#f59e0b", "#e11d48"};

inline std::string estMark(bool e) {
  return e ? "<abbr class=\"est\" title=\"rests on catalog estimates (no confirmed vendor figure)\">est.</abbr>" : "";
}

// Standard order lengths are round: "7 m", "1.5 m", "1.3 km".
inline std::string orderLength(double m) { return m >= 1000 ? fmt::format("{:g} km", m / 1000) : fmt::format("{:g} m", m); }

inline std::string modelLabel(const ir::Fabric &F, uint32_t m) {
  const ir::Model &x = F.models[m];
  return std::string(F.strings.str(x.sku ? x.sku : x.name));
}

// One figure card: label, value (with its JSON key), a line of context.
inline std::string card(std::string_view label, std::string_view value, std::string_view attrs, std::string_view sub,
                 bool estimate = false, bool highlight = false) {
  return fmt::format("<div class=\"card{}\"><div class=\"k\">{}{}</div><div class=\"v num\"{}>{}</div>{}</div>",
                     highlight ? " hl" : "", esc(label), estMark(estimate), attrs, esc(value),
                     sub.empty() ? "" : fmt::format("<div class=\"s\">{}</div>", sub));
}

struct Page {
  BackendContext &ctx;
  const ir::Fabric &F;
  const ir::Metrics &M;
  const BomSummary &bom;
  const EnergyModel &E;
  bool latencyEstimate = false;
  std::string latencyEstimateNote;
  uint32_t collapse = 64;
  OutFile *out = nullptr;
  std::string buf;

  Page(BackendContext &c) : ctx(c), F(c.F), M(c.F.metrics), bom(c.an.bom()), E(c.an.energy()) {}
  void flush() {
    out->write(buf);
    buf.clear();
  }

  void header();
  void summary();
  void latency();
  void latencyMatrix(); // ReportLatency.cpp
  void energy();
  void reliability(); // ReportReliability.cpp
  void bomSection();
  void topologySection();
  void diagnostics();
  void footer();
};

} // namespace fabc::report
