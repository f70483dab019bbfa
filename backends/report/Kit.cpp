// Escaping, number formatting and the report's inline SVG charts.
#include "backends/report/ReportKit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace fabc::report {

std::string esc(std::string_view s) {
  std::string r;
  r.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&': r += "&amp;"; break;
    case '<': r += "&lt;"; break;
    case '>': r += "&gt;"; break;
    case '"': r += "&quot;"; break;
    case '\'': r += "&#39;"; break;
    case '\0': r += "\xEF\xBF\xBD"; break; // U+FFFD: NUL is never valid HTML text
    default: r += c;
    }
  }
  return r;
}

static std::string groupThousands(std::string digits) {
  size_t dot = digits.find('.');
  size_t end = dot == std::string::npos ? digits.size() : dot;
  size_t start = digits[0] == '-' ? 1 : 0;
  for (size_t i = end; i > start + 3; i -= 3)
    digits.insert(i - 3, ",");
  return digits;
}

std::string number(double v, int decimals) {
  if (!std::isfinite(v))
    return "n/a";
  return groupThousands(fmt::format("{:.{}f}", v, decimals));
}
std::string count(uint64_t n) { return groupThousands(std::to_string(n)); }
std::string fixed(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }
std::string share(double v) { return fmt::format("{:.1f} %", 100 * v); }

// Three or four significant digits, the unit chosen by magnitude.
static std::string scaled(double v, std::initializer_list<std::pair<double, const char *>> steps) {
  if (!std::isfinite(v))
    return "n/a";
  auto best = steps.begin();
  for (auto it = steps.begin(); it != steps.end(); ++it)
    if (std::fabs(v) >= it->first)
      best = it;
  double x = v / best->first;
  if (x == 0)
    return fmt::format("0 {}", best->second);
  double a = std::fabs(x);
  int decimals = a >= 10 ? 1 : a >= 1 ? 2 : 3;
  if (best == steps.begin() && a >= 100)
    decimals = 0;
  return number(x, decimals) + " " + best->second;
}

std::string power(double w) { return scaled(w, {{1, "W"}, {1e3, "kW"}, {1e6, "MW"}, {1e9, "GW"}}); }
std::string bandwidth(double b) { return scaled(b, {{1e9, "Gb/s"}, {1e12, "Tb/s"}, {1e15, "Pb/s"}}); }
std::string duration(double s) { return scaled(s, {{1e-9, "ns"}, {1e-6, "\xC2\xB5s"}, {1e-3, "ms"}, {1, "s"}}); }
std::string length(double m) { return scaled(m, {{1, "m"}, {1e3, "km"}}); }

std::string formatUnit(double v, Unit u) {
  switch (u) {
  case Unit::Power: return power(v);
  case Unit::Time: return duration(v);
  case Unit::Count: break;
  case Unit::Rate: return number(v, 2);
  }
  return count(uint64_t(std::llround(v)));
}

std::string dataAttrs(std::string_view key, std::string_view value) {
  if (key.empty())
    return "";
  return fmt::format(" data-json=\"{}\" data-value=\"{}\"", esc(key), esc(value));
}

std::string textAttrs(std::string_view key, std::string_view text) {
  return fmt::format(" data-json=\"{}\" data-text=\"{}\"", esc(key), esc(text));
}

const char *mediaColor(ir::Media m) {
  switch (m) {
  case ir::Media::DAC: return "#64748b";
  case ir::Media::ACC: return "#94a3b8";
  case ir::Media::AOC: return "#d97706";
  case ir::Media::MMF: return "#06b6d4";
  case ir::Media::SMF: return "#eab308";
  case ir::Media::DCI: return "#7c3aed";
  default: return "#cbd5e1";
  }
}

namespace {
// Axis ticks at 1, 2 or 5 times a power of ten, about five of them.
std::vector<double> ticks(double max) {
  std::vector<double> t;
  if (!(max > 0))
    return {0};
  double raw = max / 5, p = std::pow(10, std::floor(std::log10(raw)));
  double step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
  for (double v = 0; v <= max * (1 + 1e-9) + step; v += step) {
    t.push_back(v);
    if (v >= max)
      break;
  }
  return t;
}
std::string num(double v) { return fmt::format("{:.1f}", v); }

// An axis label: round ticks read "500 kW", not "500.0 kW".
std::string tickLabel(double v, Unit u) {
  std::string s = formatUnit(v, u);
  size_t dot = s.find('.'), sp = s.find(' ');
  if (dot != std::string::npos && sp != std::string::npos && dot < sp &&
      s.find_first_not_of('0', dot + 1) == sp)
    s.erase(dot, sp - dot);
  return s;
}

void hatch(std::string &out, std::string_view id) {
  out += fmt::format("<defs><pattern id=\"{}-est\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                     "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"#ffffff\" "
                     "fill-opacity=\"0.4\"/></pattern></defs>",
                     id);
}
} // namespace

void stackedBars(std::string &out, std::string_view id, std::string_view title, const std::vector<Series> &series,
                 const std::vector<Bar> &bars, Unit unit) {
  std::vector<bool> used(series.size(), false);
  bool anyEstimate = false;
  double max = 0;
  for (const Bar &b : bars) {
    double sum = 0;
    for (const Segment &s : b.segments) {
      if (s.value > 0)
        used[s.series] = true;
      sum += std::max(0.0, s.value);
      anyEstimate |= s.estimate && s.value > 0;
    }
    max = std::max(max, sum);
  }
  std::vector<double> tk = ticks(max);
  double axisMax = tk.back() > 0 ? tk.back() : 1;
  const double W = 960, L = 170, R = 130, top = 8, barH = 22, gap = 14;
  double plotW = W - L - R, H = top + bars.size() * (barH + gap) + 28;
  out += fmt::format("<figure class=\"chart\" id=\"{}\"><figcaption>{}</figcaption><ul class=\"legend\">", esc(id),
                     esc(title));
  for (size_t i = 0; i < series.size(); ++i)
    if (used[i])
      out += fmt::format("<li><span class=\"swatch\" style=\"background:{}\"></span>{}</li>", series[i].color,
                         esc(series[i].label));
  if (anyEstimate)
    out += "<li><span class=\"swatch hatched\"></span>rests on catalog estimates</li>";
  out += "</ul>";
  out += fmt::format("<svg class=\"plot\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\" "
                     "xmlns=\"http://www.w3.org/2000/svg\">",
                     num(W), num(H), esc(title));
  hatch(out, id);
  double axisY = top + bars.size() * (barH + gap);
  for (double t : tk) {
    double x = L + plotW * t / axisMax;
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>"
                       "<text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>",
                       num(x), num(top - 4), num(axisY), num(axisY + 16), esc(tickLabel(t, unit)));
  }
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar &b = bars[i];
    double y = top + i * (barH + gap) + gap / 2, x = L, sum = 0;
    out += fmt::format("<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", num(L - 10),
                       num(y + barH / 2 + 4), esc(b.label));
    for (const Segment &s : b.segments) {
      if (!(s.value > 0))
        continue;
      double w = plotW * s.value / axisMax;
      std::string tip = fmt::format("{} \xC2\xB7 {}: {}{}", b.label, series[s.series].label, formatUnit(s.value, unit),
                                    s.estimate ? " (estimate)" : "");
      out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}><title>{}</title></rect>",
                         num(x), num(y), fmt::format("{:.2f}", w), num(barH), series[s.series].color,
                         dataAttrs(s.key, s.value_text), esc(tip));
      if (s.estimate)
        out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"url(#{}-est)\"/>", num(x), num(y),
                           fmt::format("{:.2f}", w), num(barH), esc(id));
      x += w;
      sum += s.value;
    }
    out += fmt::format("<text class=\"total\" x=\"{}\" y=\"{}\"{}>{}{}</text>", num(x + 8), num(y + barH / 2 + 4),
                       dataAttrs(b.totalKey, b.totalText), esc(formatUnit(sum, unit)),
                       b.estimate ? "<tspan class=\"est-mark\"> est.</tspan>" : "");
  }
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\"/>", num(L), num(top - 4),
                     num(axisY));
  out += "</svg></figure>\n";
}

void columnChart(std::string &out, std::string_view id, std::string_view title, std::string_view color,
                 const std::vector<Column> &cols, std::string_view xLabel) {
  double max = 0;
  for (const Column &c : cols)
    max = std::max(max, c.value);
  std::vector<double> tk = ticks(max);
  double axisMax = tk.back() > 0 ? tk.back() : 1;
  const double W = 380, L = 46, R = 8, top = 18, plotH = 150;
  double plotW = W - L - R, H = top + plotH + 44;
  double slot = cols.empty() ? plotW : plotW / double(cols.size());
  double barW = std::min(48.0, slot * 0.72);
  out += fmt::format("<figure class=\"chart small\" id=\"{}\"><figcaption>{}</figcaption>", esc(id), esc(title));
  out += fmt::format("<svg class=\"plot\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\" "
                     "xmlns=\"http://www.w3.org/2000/svg\">",
                     num(W), num(H), esc(title));
  double base = top + plotH;
  for (double t : tk) {
    double y = base - plotH * t / axisMax;
    out += fmt::format("<line class=\"grid\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>"
                       "<text class=\"tick\" x=\"{3}\" y=\"{4}\" text-anchor=\"end\">{5}</text>",
                       num(L), num(W - R), num(y), num(L - 6), num(y + 4), esc(count(uint64_t(std::llround(t)))));
  }
  for (size_t i = 0; i < cols.size(); ++i) {
    const Column &c = cols[i];
    double h = plotH * c.value / axisMax, cx = L + slot * (double(i) + 0.5);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}><title>{}: {}</title></rect>",
                       num(cx - barW / 2), num(base - h), num(barW), fmt::format("{:.2f}", h), color,
                       dataAttrs(c.key, c.value_text), esc(c.label), esc(count(uint64_t(std::llround(c.value)))));
    out += fmt::format("<text class=\"value\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", num(cx),
                       num(base - h - 4), esc(count(uint64_t(std::llround(c.value)))));
    out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", num(cx),
                       num(base + 15), esc(c.label));
  }
  out += fmt::format("<line class=\"axis\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/>", num(L), num(W - R), num(base));
  out += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", num(L + plotW / 2),
                     num(base + 36), esc(xLabel));
  out += "</svg></figure>\n";
}

} // namespace fabc::report
