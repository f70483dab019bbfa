// The chart of a design sweep (SweepChart.h).
#include "backends/report/SweepChart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace fabc {
namespace {
std::string xmlEscape(std::string_view s) {
  std::string r;
  for (char c : s)
    r += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return r;
}

// A round step for an axis of about five ticks.
double niceStep(double span) {
  double raw = span / 5, mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag)
      return m * mag;
  return 10 * mag;
}

} // namespace

std::string sweepChartSvg(const SweepTable &t) {
  const std::vector<SweepTable::Param> &params = t.params;
  const double W = 720, H = 440, L = 80, R = 170, T = 40, B = 60;
  std::string s = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "font-family=\"sans-serif\" font-size=\"12\">\n<title>{}: GPUs against facility power</title>\n"
                              "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
                              W, H, W, H, xmlEscape(t.design));
  size_t first = 0;
  while (first < params.size() && params[first].values.size() < 2)
    ++first;
  std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> series;
  double xmax = 0, ymax = 0;
  for (const SweepTable::Point &p : t.points) {
    if (!p.ok || std::isnan(p.gpus) || std::isnan(p.facility))
      continue;
    std::string label;
    for (size_t k = 0; k < params.size(); ++k)
      if (k != first && params[k].values.size() > 1)
        label += (label.empty() ? "" : " ") + params[k].name + "=" + params[k].values[p.at[k]];
    auto it = std::find_if(series.begin(), series.end(), [&](const auto &x) { return x.first == label; });
    if (it == series.end())
      it = series.insert(series.end(), {label, {}});
    double x = p.gpus, y = p.facility / 1e6;
    it->second.push_back({x, y});
    xmax = std::max(xmax, x);
    ymax = std::max(ymax, y);
  }
  if (series.empty()) {
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no point of the sweep built: nothing to plot</text>\n"
                     "</svg>\n",
                     W / 2, H / 2);
    return s;
  }
  double xs = niceStep(xmax > 0 ? xmax : 1), ys = niceStep(ymax > 0 ? ymax : 1);
  double xtop = std::ceil(xmax / xs) * xs, ytop = std::ceil(ymax / ys) * ys;
  xtop = xtop > 0 ? xtop : xs;
  ytop = ytop > 0 ? ytop : ys;
  auto X = [&](double v) { return L + v / xtop * (W - L - R); };
  auto Y = [&](double v) { return H - B - v / ytop * (H - T - B); };
  s += fmt::format("<g stroke=\"#ccc\">\n");
  for (double v = 0; v <= xtop + xs / 2; v += xs)
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", X(v), Y(0), X(v), Y(ytop));
  for (double v = 0; v <= ytop + ys / 2; v += ys)
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n", X(0), Y(v), X(xtop), Y(v));
  s += "</g>\n<g text-anchor=\"middle\">\n";
  for (double v = 0; v <= xtop + xs / 2; v += xs)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:g}</text>\n", X(v), Y(0) + 18, v);
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">GPUs</text>\n</g>\n<g text-anchor=\"end\">\n", X(xtop / 2), H - 15);
  for (double v = 0; v <= ytop + ys / 2; v += ys)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{:g}</text>\n", X(0) - 6, Y(v) + 4, v);
  s += fmt::format("</g>\n<text x=\"20\" y=\"{:.1f}\" transform=\"rotate(-90 20 {:.1f})\" text-anchor=\"middle\">"
                   "facility power (MW)</text>\n",
                   Y(ytop / 2), Y(ytop / 2));
  static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  for (size_t k = 0; k < series.size(); ++k) {
    auto &pts = series[k].second;
    std::sort(pts.begin(), pts.end());
    const char *c = colors[k % 8];
    std::string line;
    for (const auto &[x, y] : pts)
      line += fmt::format("{}{:.1f},{:.1f}", line.empty() ? "" : " ", X(x), Y(y));
    s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", c, line);
    for (const auto &[x, y] : pts)
      s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", X(x), Y(y), c);
    double ly = T + 20 * double(k);
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>\n"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                     W - R + 15, ly, W - R + 35, ly, c, W - R + 40, ly + 4,
                     xmlEscape(series[k].first.empty() ? "every point" : series[k].first));
  }
  s += "</svg>\n";
  return s;
}

} // namespace fabc
