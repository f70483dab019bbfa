// fabc sweep: one design compiled over a grid of parameter values (-D su=1..18 -D
// cpo=false,true), each point a `fabc build --emit=summary` of its own in a child process,
// as many at once as --jobs says. A point that fails or crashes is a row of the table, never
// the sweep's end. The table (sweep.csv, sweep.json) holds the figures summary.json gives;
// sweep.svg plots GPUs against facility power, one line per value of the other parameters.
// docs/cli.md, "fabc sweep"; docs/decisions/0331.
#include "Commands.h"

#include "backends/Backend.h"
#include "backends/FormatVersions.h"
#include "backends/OutputDir.h"

#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Program.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace fabc::cli {

namespace {

constexpr size_t MaxPoints = 10000;

struct Param {
  std::string name;
  std::vector<std::string> values;
};

// A figure of the table: its column name and where summary.json has it.
struct Column {
  const char *name;
  const char *help;
  double (*get)(const llvm::json::Object &s); // NaN: not in this point's summary
};

double num(const llvm::json::Object *o, llvm::StringRef k) {
  if (!o)
    return NAN;
  if (auto v = o->getNumber(k))
    return *v;
  return NAN;
}
const llvm::json::Object *obj(const llvm::json::Object *o, llvm::StringRef k) { return o ? o->getObject(k) : nullptr; }
// Sums (or takes the largest of) a number over summary.json's tiers.
double overTiers(const llvm::json::Object &s, llvm::StringRef k, bool largest) {
  const llvm::json::Array *tiers = s.getArray("tiers");
  if (!tiers)
    return NAN;
  double r = largest ? NAN : 0;
  for (const llvm::json::Value &t : *tiers)
    if (const llvm::json::Object *to = t.getAsObject()) {
      double v = num(to, k);
      if (std::isnan(v))
        continue;
      r = largest ? (std::isnan(r) ? v : std::max(r, v)) : r + v;
    }
  return r;
}

const std::vector<Column> &columns() {
  static const std::vector<Column> c = {
      {"gpus", "GPUs", [](const llvm::json::Object &s) { return num(&s, "gpus"); }},
      {"systems", "GPU systems", [](const llvm::json::Object &s) { return num(&s, "systems"); }},
      {"switches", "switches, every tier", [](const llvm::json::Object &s) { return overTiers(s, "switches", false); }},
      {"links", "links", [](const llvm::json::Object &s) { return num(&s, "links"); }},
      {"transceivers", "pluggable transceivers", [](const llvm::json::Object &s) { return num(&s, "transceivers"); }},
      {"cpo_ports", "switch ports with co-packaged optics", [](const llvm::json::Object &s) { return num(&s, "cpo_ports"); }},
      {"it_power_w", "IT power, W", [](const llvm::json::Object &s) { return num(obj(&s, "power"), "it_power_w"); }},
      {"facility_power_w", "facility power (IT x PUE), W",
       [](const llvm::json::Object &s) { return num(obj(&s, "power"), "facility_power_w"); }},
      {"interconnect_power_w", "interconnect power, W",
       [](const llvm::json::Object &s) { return num(obj(&s, "power"), "interconnect_power_w"); }},
      {"cpo_saved_w", "power CPO would save at equal bandwidth, W",
       [](const llvm::json::Object &s) {
         const llvm::json::Object *c = obj(obj(&s, "power"), "cpo_savings");
         return c && c->getBoolean("applies").getValueOr(false) ? num(c, "saved_w") : NAN;
       }},
      {"failures_per_year", "expected part failures per year",
       [](const llvm::json::Object &s) { return num(obj(&s, "reliability"), "failures_per_year"); }},
      {"bisection_gbps", "bisection bandwidth, Gb/s", [](const llvm::json::Object &s) { return num(&s, "bisection_gbps"); }},
      {"worst_latency_ns", "worst GPU-to-GPU latency, ns",
       [](const llvm::json::Object &s) { return num(&s, "worst_latency_ns"); }},
      {"max_oversubscription", "largest oversubscription of any tier (down:up)",
       [](const llvm::json::Object &s) { return overTiers(s, "max_oversubscription", true); }},
  };
  return c;
}

// The position of column `name` among the chosen ones; -1 when it was not chosen.
int columnIndex(const std::vector<const Column *> &cols, std::string_view name) {
  for (size_t k = 0; k < cols.size(); ++k)
    if (name == cols[k]->name)
      return int(k);
  return -1;
}

enum class Status : uint8_t { Ok, Errors, Failed };
const char *statusName(Status s) { return s == Status::Ok ? "ok" : s == Status::Errors ? "errors" : "failed"; }

struct Point {
  std::vector<uint32_t> at; // the index of each parameter's value
  Status status = Status::Failed;
  int exitStatus = -1;
  unsigned errors = 0, warnings = 0;
  std::string firstError; // "FAB-E0033 file:line:col: message", or why the build did not run
  std::vector<double> figures; // per chosen column
};

// "1..18" (inclusive, integers), "a,b,c" (commas outside brackets and quotes) or one value.
bool parseValues(const std::string &name, const std::string &v, std::vector<std::string> &out, std::string &err) {
  size_t dots = v.find("..");
  auto isInt = [](llvm::StringRef s) {
    long long x;
    return !s.empty() && !s.getAsInteger(10, x);
  };
  if (dots != std::string::npos && isInt(llvm::StringRef(v).substr(0, dots)) &&
      isInt(llvm::StringRef(v).substr(dots + 2))) {
    long long lo = 0, hi = 0;
    llvm::StringRef(v).substr(0, dots).getAsInteger(10, lo);
    llvm::StringRef(v).substr(dots + 2).getAsInteger(10, hi);
    if (lo > hi) {
      err = fmt::format("-D {}={} is an empty range (from {} up to {}: the range is inclusive, low..high)", name, v, lo,
                        hi);
      return false;
    }
    if (uint64_t(hi - lo) >= MaxPoints) {
      err = fmt::format("-D {}={} has more than {} values", name, v, MaxPoints);
      return false;
    }
    for (long long x = lo; x <= hi; ++x)
      out.push_back(std::to_string(x));
    return true;
  }
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= v.size(); ++i) {
    char c = i < v.size() ? v[i] : ',';
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '(') {
      ++depth;
    } else if ((c == ']' || c == ')') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      if (i == start) {
        err = fmt::format("-D {}={} has an empty value in its list", name, v);
        return false;
      }
      out.push_back(v.substr(start, i - start));
      start = i + 1;
    }
  }
  return true;
}

// Reads the child's JSON diagnostics (its stderr) into the point.
void readDiagnostics(const std::string &path, Point &p) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buf)->getBuffer());
  const llvm::json::Object *o = doc ? doc->getAsObject() : nullptr;
  if (!o) {
    if (!doc)
      llvm::consumeError(doc.takeError());
    // Not a JSON document: a usage error or a crash printed text. Keep its first line.
    llvm::StringRef text = (*buf)->getBuffer().split('\n').first.trim();
    if (p.firstError.empty() && !text.empty())
      p.firstError = text.str();
    return;
  }
  p.errors = unsigned(o->getInteger("errors").getValueOr(0));
  p.warnings = unsigned(o->getInteger("warnings").getValueOr(0));
  if (const llvm::json::Array *ds = o->getArray("diagnostics"))
    for (const llvm::json::Value &d : *ds) {
      const llvm::json::Object *dd = d.getAsObject();
      if (!dd || dd->getString("severity").getValueOr("") != "error")
        continue;
      std::string where;
      if (const llvm::json::Object *loc = dd->getObject("location"))
        where = fmt::format(" {}:{}:{}", llvm::sys::path::filename(loc->getString("file").getValueOr("")).str(),
                            loc->getInteger("line").getValueOr(0), loc->getInteger("column").getValueOr(0));
      p.firstError = fmt::format("{}{}: {}", dd->getString("code").getValueOr("").str(), where,
                                 dd->getString("message").getValueOr("").str());
      break;
    }
}

void readSummary(const std::string &path, const std::vector<const Column *> &cols, Point &p) {
  p.figures.assign(cols.size(), NAN);
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return;
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse((*buf)->getBuffer());
  if (!doc) {
    llvm::consumeError(doc.takeError());
    return;
  }
  if (const llvm::json::Object *s = doc->getAsObject())
    for (size_t k = 0; k < cols.size(); ++k)
      p.figures[k] = cols[k]->get(*s);
}

// The figure as the table prints it: integers as integers, others with 3 decimals; empty
// (CSV) or null (JSON) when the point has no summary.
void appendFigure(TextBuffer &b, double v) {
  if (std::isnan(v))
    return;
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    fmt::format_to(fmt::appender(b), "{}", int64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{:.3f}", v);
}

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

// GPUs (x) against facility power in MW (y): one line per combination of the values of
// every parameter but the first swept one (cpo=false and cpo=true in -D su=1..18 -D cpo=...).
std::string chart(const std::vector<Param> &params, const std::vector<Point> &points,
                  const std::vector<const Column *> &cols, const std::string &fabric) {
  int gx = columnIndex(cols, "gpus"), py = columnIndex(cols, "facility_power_w");
  const double W = 720, H = 440, L = 80, R = 170, T = 40, B = 60;
  std::string s = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                              "font-family=\"sans-serif\" font-size=\"12\">\n<title>{}: GPUs against facility power</title>\n"
                              "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
                              W, H, W, H, xmlEscape(fabric));
  size_t first = 0;
  while (first < params.size() && params[first].values.size() < 2)
    ++first;
  std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> series;
  double xmax = 0, ymax = 0;
  for (const Point &p : points) {
    if (gx < 0 || py < 0 || p.status != Status::Ok || std::isnan(p.figures[gx]) || std::isnan(p.figures[py]))
      continue;
    std::string label;
    for (size_t k = 0; k < params.size(); ++k)
      if (k != first && params[k].values.size() > 1)
        label += (label.empty() ? "" : " ") + params[k].name + "=" + params[k].values[p.at[k]];
    auto it = std::find_if(series.begin(), series.end(), [&](const auto &x) { return x.first == label; });
    if (it == series.end())
      it = series.insert(series.end(), {label, {}});
    double x = p.figures[gx], y = p.figures[py] / 1e6;
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

} // namespace

const char *sweepColumnNames() {
  static const std::string names = [] {
    std::string r;
    for (const Column &c : columns())
      r += std::string(r.empty() ? "" : " ") + c.name;
    return r;
  }();
  return names.c_str();
}

int sweepCommand(Options &o) {
  if (o.inputs.size() != 1)
    return usageError("sweep takes one input file (and -D NAME=VALUES to sweep)");
  // Every point reads the design again: a pipe can be read once.
  if (o.inputs[0] == "-" || !llvm::sys::fs::is_regular_file(o.inputs[0]))
    return usageError("sweep reads '" + o.inputs[0] + "' once per point: give it a regular file");
  // The grid: every -D in order; a name given twice takes its last values, as in build.
  std::vector<Param> params;
  for (const auto &[name, value] : o.defines) {
    std::vector<std::string> vals;
    std::string err;
    if (!parseValues(name, value, vals, err))
      return usageError(err);
    auto it = std::find_if(params.begin(), params.end(), [&](const Param &p) { return p.name == name; });
    if (it != params.end())
      it->values = std::move(vals);
    else
      params.push_back({name, std::move(vals)});
  }
  size_t total = 1;
  for (const Param &p : params)
    if ((total *= p.values.size()) > MaxPoints)
      return usageError(fmt::format("the sweep has more than {} points: narrow a range", MaxPoints));
  bool swept = std::any_of(params.begin(), params.end(), [](const Param &p) { return p.values.size() > 1; });
  if (!swept)
    return usageError("sweep needs a parameter with several values, e.g. -D su=1..18 or -D cpo=false,true");
  std::vector<const Column *> cols;
  if (o.sweepColumns.empty()) {
    for (const Column &c : columns())
      cols.push_back(&c);
  } else {
    for (const std::string &n : o.sweepColumns) {
      auto it = std::find_if(columns().begin(), columns().end(), [&](const Column &c) { return n == c.name; });
      if (it == columns().end()) {
        std::string names;
        for (const Column &c : columns())
          names += std::string(names.empty() ? "" : ", ") + c.name;
        return usageError("unknown column '" + n + "' in --columns (one of: " + names + ")");
      }
      cols.push_back(&*it);
    }
  }

  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<128> scratch;
  if (exe.empty() || llvm::sys::fs::createUniqueDirectory("fabc-sweep", scratch)) {
    fmt::print(stderr, "fabc: error: cannot start the sweep ({})\n",
               exe.empty() ? "cannot find the fabc executable" : "cannot make a scratch directory");
    return ExitUsage;
  }
  // The options every point shares.
  std::vector<std::string> common = {exe, "build", o.inputs[0], "--emit=summary", "-q", "--diagnostics-format=json"};
  for (const std::string &i : o.includes)
    common.insert(common.end(), {"-I", i});
  if (!o.top.empty())
    common.insert(common.end(), {"--top", o.top});
  if (o.werror)
    common.push_back("-Werror");
  if (o.noWarnings)
    common.push_back("-w");
  for (const std::string &c : o.promoted)
    common.push_back("-Werror=" + c);
  for (const std::string &c : o.disabled)
    common.push_back("-Wno-" + c);
  if (o.limitsSet)
    common.insert(common.end(), {fmt::format("--max-devices={}", o.limits.maxDevices),
                                 fmt::format("--max-links={}", o.limits.maxLinks),
                                 fmt::format("--max-steps={}", o.limits.maxSteps),
                                 fmt::format("--max-depth={}", o.limits.maxDepth),
                                 fmt::format("--max-value-size={}", o.limits.maxValueSize)});
  common.push_back(fmt::format("--max-file-size={}", o.maxFileSize));

  std::vector<Point> points(total);
  for (size_t i = 0; i < total; ++i) { // the last parameter varies fastest
    points[i].at.resize(params.size());
    size_t rest = i;
    for (size_t k = params.size(); k-- > 0;) {
      points[i].at[k] = uint32_t(rest % params[k].values.size());
      rest /= params[k].values.size();
    }
  }
  unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  struct Running {
    llvm::sys::ProcessInfo pi;
    size_t point;
  };
  std::vector<Running> running;
  auto pathOf = [&](size_t i, const char *what) {
    llvm::SmallString<128> p(scratch);
    llvm::sys::path::append(p, fmt::format("p{}{}", i, what));
    return std::string(p.str());
  };
  auto finish = [&](size_t i, int rc, const std::string &msg) {
    Point &p = points[i];
    p.exitStatus = rc;
    readDiagnostics(pathOf(i, ".err"), p);
    p.status = rc == ExitOk ? Status::Ok : rc == ExitErrors ? Status::Errors : Status::Failed;
    if (rc < 0 || (rc > ExitErrors && p.firstError.empty()))
      p.firstError = msg.empty() ? fmt::format("the build ended with status {}", rc) : msg;
    readSummary(pathOf(i, "/summary.json"), cols, p);
  };
  size_t next = 0;
  while (next < total || !running.empty()) {
    while (next < total && running.size() < jobs) {
      std::vector<std::string> args = common;
      for (size_t k = 0; k < params.size(); ++k)
        args.insert(args.end(), {"-D", params[k].name + "=" + params[k].values[points[next].at[k]]});
      args.insert(args.end(), {"-o", pathOf(next, "")});
      std::vector<llvm::StringRef> argv(args.begin(), args.end());
      std::string err = pathOf(next, ".err");
      llvm::Optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(err)};
      std::string msg;
      bool failed = false;
      llvm::sys::ProcessInfo pi = llvm::sys::ExecuteNoWait(exe, argv, llvm::None, redirects, 0, &msg, &failed);
      if (failed || pi.Pid == llvm::sys::ProcessInfo::InvalidPid)
        finish(next, -1, "cannot run fabc: " + msg);
      else
        running.push_back({pi, next});
      ++next;
    }
    bool reaped = false;
    for (size_t k = 0; k < running.size();) {
      std::string msg;
      llvm::sys::ProcessInfo r = llvm::sys::Wait(running[k].pi, 0, false, &msg);
      if (r.Pid == 0) { // still running
        ++k;
        continue;
      }
      finish(running[k].point, r.ReturnCode, msg);
      running.erase(running.begin() + k);
      reaped = true;
    }
    if (!reaped && !running.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  llvm::sys::fs::remove_directories(scratch);

  // The largest design that passes: the most GPUs among the points built without an error.
  int gpuCol = columnIndex(cols, "gpus");
  long best = -1;
  size_t failed = 0;
  double bestGpus = -1;
  for (size_t i = 0; i < total; ++i) {
    if (points[i].status != Status::Ok) {
      ++failed;
      continue;
    }
    double g = gpuCol >= 0 ? points[i].figures[gpuCol] : 0;
    if (!std::isnan(g) && g > bestGpus)
      bestGpus = g, best = long(i);
  }
  auto pointName = [&](size_t i) {
    std::string s;
    for (size_t k = 0; k < params.size(); ++k)
      s += (s.empty() ? "" : " ") + params[k].name + "=" + params[k].values[points[i].at[k]];
    return s;
  };

  OutputDir out(o.outSet ? o.outDir : "fabc-sweep");
  OutFile *csv = out.open("sweep.csv"), *json = csv ? out.open("sweep.json") : nullptr,
          *svg = json ? out.open("sweep.svg") : nullptr;
  if (!svg) {
    fmt::print(stderr, "fabc: error: {}\n", out.error());
    return ExitUsage;
  }
  TextBuffer b;
  for (const Param &p : params)
    append(b, csvField(p.name)), append(b, ",");
  append(b, "status,errors,warnings");
  for (const Column *c : cols)
    append(b, ","), append(b, c->name);
  append(b, ",first_error\n");
  for (size_t i = 0; i < total; ++i) {
    const Point &p = points[i];
    for (size_t k = 0; k < params.size(); ++k)
      append(b, csvField(params[k].values[p.at[k]])), append(b, ",");
    fmt::format_to(fmt::appender(b), "{},{},{}", statusName(p.status), p.errors, p.warnings);
    for (double v : p.figures)
      append(b, ","), appendFigure(b, v);
    append(b, ","), append(b, csvField(p.firstError)), append(b, "\n");
  }
  csv->write(b);
  {
    JsonWriter j(sinkTo(*json));
    j.beginObject();
    j.key("format_version").string(formats::Sweep);
    j.key("generator").string("fabc " FABC_VERSION);
    j.key("design").string(o.inputs[0]);
    j.key("parameters").beginArray();
    for (const Param &p : params) {
      j.beginObject(JsonLayout::Inline);
      j.key("name").string(p.name);
      j.key("values").beginArray(JsonLayout::Inline);
      for (const std::string &v : p.values)
        j.string(v);
      j.endArray();
      j.endObject();
    }
    j.endArray();
    j.key("points").beginArray(JsonLayout::BlockOpenWhenEmpty);
    for (size_t i = 0; i < total; ++i) {
      const Point &p = points[i];
      j.beginObject(JsonLayout::Inline);
      j.key("parameters").beginObject(JsonLayout::Inline);
      for (size_t k = 0; k < params.size(); ++k)
        j.key(params[k].name).string(params[k].values[p.at[k]]);
      j.endObject();
      j.key("status").string(statusName(p.status));
      j.key("exit_status").integer(p.exitStatus);
      j.key("errors").integer(p.errors);
      j.key("warnings").integer(p.warnings);
      j.key("first_error").stringOrNull(p.firstError);
      j.key("figures").beginObject(JsonLayout::Inline);
      for (size_t k = 0; k < cols.size(); ++k) {
        j.key(cols[k]->name);
        if (std::isnan(p.figures[k]))
          j.null();
        else
          j.shortest(p.figures[k]);
      }
      j.endObject();
      j.endObject();
    }
    j.endArray();
    j.key("failed_points").integer(uint64_t(failed));
    j.key("largest_passing");
    if (best < 0)
      j.null();
    else
      j.integer(best);
    j.endObject();
  }
  svg->write(chart(params, points, cols, o.inputs[0]));
  if (!out.commit()) {
    fmt::print(stderr, "fabc: error: {}\n", out.error());
    return ExitUsage;
  }
  if (!o.quiet) {
    fmt::print("fabc: swept '{}' over {} -> {} (sweep.csv, sweep.json, sweep.svg)\n", o.inputs[0],
               plural(total, "point"), out.dir());
    if (best >= 0)
      fmt::print("fabc: the largest design that passes every check: {} ({:g} GPUs)\n", pointName(size_t(best)), bestGpus);
    else
      fmt::print("fabc: no point passes every check\n");
    for (size_t i = 0; i < total && failed; ++i)
      if (points[i].status != Status::Ok)
        fmt::print("fabc: {}: {}{}\n", pointName(i), statusName(points[i].status),
                   points[i].firstError.empty() ? "" : ": " + points[i].firstError);
  }
  return failed ? ExitErrors : ExitOk;
}

} // namespace fabc::cli
