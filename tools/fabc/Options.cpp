// The option table, the parser it drives and the usage text it prints.
#include "Options.h"

#include "Commands.h"
#include "backends/Backend.h"
#include "passes/Passes.h"

#include <fmt/format.h>
#include <llvm/ADT/StringRef.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace fabc::cli {
namespace {

constexpr int Continue = -1;
const char *closest(const std::string &word, const std::vector<const char *> &names);

bool parseUInt(const std::string &s, uint64_t &out) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::strtoull(s.c_str(), nullptr, 10);
  return true;
}

// "fabc --help" is a command; "fabc build --help" the command's own help.
int help(Options &o, const std::string &, const std::string &) {
  const CommandSpec *c = findCommand(o.command);
  if (o.command == "help" && !o.inputs.empty())
    c = findCommand(o.inputs[0]);
  fmt::print("{}", c && c->help ? commandHelp(*c) : usageText());
  return ExitOk;
}
int manOption(Options &, const std::string &, const std::string &) {
  fmt::print("{}", manPage());
  return ExitOk;
}
int helpHidden(Options &, const std::string &, const std::string &) {
  fmt::print("{}", usageText(true));
  return ExitOk;
}

int noWarning(Options &o, const std::string &a, const std::string &code) {
  const DiagInfo *info = findDiag(code);
  if (!info)
    return usageError("unknown diagnostic code '" + code + "' in " + a + " (fabc explain --list shows them all)");
  // Errors guard the IR every later stage relies on: only warnings can be silenced.
  if (info->severity != Severity::Warning)
    return usageError(a + ": FAB-" + info->code + " is an error; only warnings can be silenced");
  o.disabled.push_back(code);
  return Continue;
}

int promote(Options &o, const std::string &a, const std::string &code) {
  const DiagInfo *info = findDiag(code);
  if (!info)
    return usageError("unknown diagnostic code '" + code + "' in " + a + " (fabc explain --list shows them all)");
  if (info->severity != Severity::Warning)
    return usageError(a + ": FAB-" + info->code + " is an error already; -Werror= takes a warning's code");
  o.promoted.push_back(code);
  return Continue;
}

int diagnosticsFormat(Options &o, const std::string &, const std::string &v);

// --format: diff's and verify's report, export's file format; check prints diagnostics
// only, so there it is --diagnostics-format (the flag CI lines reach for).
int format(Options &o, const std::string &a, const std::string &v) {
  if (o.command == "export") {
    if (v != "json" && v != "yaml" && v != "netbox")
      return usageError("export's --format is json, yaml or netbox, not '" + v + "'");
    o.exportFormat = v;
    return Continue;
  }
  if (o.command == "check")
    return diagnosticsFormat(o, a, v);
  if (v != "text" && v != "json")
    return usageError("--format is text or json, not '" + v + "'" +
                      (v == "sarif" ? " (the diagnostics' format: --diagnostics-format=sarif)" : ""));
  o.diffJson = v == "json";
  return Continue;
}

int width(Options &o, const std::string &, const std::string &v) {
  uint64_t n;
  if (!parseUInt(v, n) || n < 20 || n > 1000)
    return usageError("--width takes a number from 20 to 1000");
  o.width = unsigned(n);
  return Continue;
}

int maxFileSize(Options &o, const std::string &, const std::string &value) {
  std::string v = value;
  uint64_t mul = 1, n;
  if (!v.empty() && (v.back() == 'K' || v.back() == 'M' || v.back() == 'G')) {
    mul = v.back() == 'K' ? 1ull << 10 : v.back() == 'M' ? 1ull << 20 : 1ull << 30;
    v.pop_back();
  }
  if (!parseUInt(v, n) || n == 0 || n > (uint64_t(UINT32_MAX) / mul))
    return usageError("--max-file-size takes a size in bytes (K, M, G suffixes) up to 4 GiB");
  o.maxFileSize = n * mul;
  return Continue;
}

int parser(Options &o, const std::string &, const std::string &v) {
  if (v == "auto")
    o.parser = ParserEngine::Auto;
  else if (v == "antlr")
    o.parser = ParserEngine::AntlrOnly;
  else if (v == "hand")
    o.parser = ParserEngine::HandOnly;
  else
    return usageError("--parser takes auto (default), hand or antlr");
  return Continue;
}

int emit(Options &o, const std::string &, const std::string &v) {
  size_t p = 0;
  while (p <= v.size()) {
    size_t c = v.find(',', p);
    std::string name = v.substr(p, c == std::string::npos ? std::string::npos : c - p);
    if (name == "all") {
      for (const Backend &b : backends())
        if (b.inAll)
          o.emit.push_back(b.name);
    } else if (!name.empty()) {
      if (!findBackend(name)) {
        std::vector<const char *> names{"all"};
        for (const Backend &b : backends())
          names.push_back(b.name);
        const char *near = closest(name, names);
        return usageError("unknown backend '" + name + "'" + (near ? fmt::format("; did you mean '{}'?", near) : "") +
                          " (see 'fabc backends')");
      }
      o.emit.push_back(name);
    }
    if (c == std::string::npos)
      break;
    p = c + 1;
  }
  return Continue;
}

int define(Options &o, const std::string &, const std::string &v) {
  size_t eq = v.find('=');
  std::string name = v.substr(0, eq);
  bool ident = !name.empty() && (std::isalpha((unsigned char)name[0]) || name[0] == '_') &&
               name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                   std::string::npos;
  if (eq == std::string::npos || !ident || eq + 1 >= v.size())
    return usageError("-D takes NAME=VALUE, not '" + v + "'");
  o.defines.push_back({name, v.substr(eq + 1)});
  return Continue;
}

int diagnosticsFormat(Options &o, const std::string &a, const std::string &v) {
  if (v == "text") o.format = DiagFormat::Text;
  else if (v == "json") o.format = DiagFormat::Json;
  else if (v == "sarif") o.format = DiagFormat::Sarif;
  else return usageError(a.substr(0, a.find('=')) + " is text, json or sarif, not '" + v + "'");
  return Continue;
}

int color(Options &o, const std::string &, const std::string &v) {
  if (v == "auto") o.color = -1;
  else if (v == "always") o.color = 1;
  else if (v == "never") o.color = 0;
  else return usageError("--color is auto, always or never");
  return Continue;
}

int errorLimit(Options &o, const std::string &, const std::string &v) {
  uint64_t n;
  if (!parseUInt(v, n) || n > UINT_MAX)
    return usageError("--error-limit takes a number");
  o.errorLimit = unsigned(n);
  return Continue;
}

template <int Which> int limit(Options &o, const std::string &a, const std::string &v) {
  uint64_t n;
  if (!parseUInt(v, n))
    return usageError("limits take a number: " + a);
  o.limitsSet = true;
  if (Which == 0) o.limits.maxDevices = n;
  else if (Which == 1) o.limits.maxLinks = n;
  else if (Which == 2) o.limits.maxSteps = n;
  else if (Which == 4) o.limits.maxValueSize = n;
  else o.limits.maxDepth = uint32_t(std::min<uint64_t>(n, 100000));
  return Continue;
}

int importSpeed(Options &o, const std::string &, const std::string &v) {
  char *end = nullptr;
  double g = std::strtod(v.c_str(), &end);
  std::string rest = end ? std::string(end) : "";
  if (v.empty() || !(g > 0 && g <= 1e6) || (rest != "" && rest != "G" && rest != "Gb/s" && rest != " Gb/s"))
    return usageError("--speed takes a speed in Gb/s, e.g. --speed=400");
  o.importSpeed = g * 1e9;
  return Continue;
}

int stopAfter(Options &o, const std::string &, const std::string &v) {
  if (!passes::findPass(v))
    return usageError("unknown pass '" + v + "' for --stop-after (passes: " + passes::passNames() + ")");
  o.stopAfter = v;
  return Continue;
}

// Flags: set a field.
#define FLAG(field) [](Options &o, const std::string &, const std::string &) { o.field = true; return Continue; }
#define SET(field) [](Options &o, const std::string &, const std::string &v) { o.field = v; return Continue; }

} // namespace

const std::vector<OptionSpec> &optionTable() {
  static const std::vector<OptionSpec> table = {
      {"-h", "--help", Arg::None, CmdAll, "-h, --help", "print this help; after a command, its own (fabc build --help)", false,
       help, nullptr},
      {"--help-hidden", nullptr, Arg::None, CmdAll, "--help-hidden", "this help, with the developer options", true,
       helpHidden, nullptr},
      {"-o", nullptr, Arg::Value, CmdBuild | CmdImport | CmdExport | CmdSweep, "-o DIR",
       "output directory (build, export; default: fabc-out; sweep: fabc-sweep); import: the .fab file (default: stdout)", false,
       [](Options &o, const std::string &, const std::string &v) {
         o.outDir = v;
         o.outSet = true;
         return Continue;
       },
       "dir", CmdImport},
      {"--emit", nullptr, Arg::Value, CmdBuild | CmdCheck | CmdLsp, "--emit=LIST",
       "backends to run, comma-separated, or 'all' (default: see 'fabc backends')", false, emit, "backends"},
      {"-I", nullptr, Arg::Value, CmdCompileOrSweep, "-I DIR",
       "add DIR to the import search path (also FABC_PATH, colon-separated)", false,
       [](Options &o, const std::string &, const std::string &v) {
         o.includes.push_back(v);
         return Continue;
       },
       "dir"},
      {"-D", nullptr, Arg::Value, CmdCompileOrSweep, "-D NAME=VALUE",
       "override 'param NAME' with a Fabric expression, e.g. -D su=2", false, define, nullptr},
      {"--top", nullptr, Arg::Value, CmdCompileOrSweep | CmdImport, "--top NAME",
       "the fabric to build when a file declares several (import: the fabric's name)", false, SET(top), nullptr},
      {"--diagnostics-format", nullptr, Arg::Value, CmdCompile | CmdFmt | CmdImport, "--diagnostics-format=F",
       "text (default), json or sarif", false, diagnosticsFormat, "text json sarif"},
      {"--diagnostics-output", nullptr, Arg::Value, CmdCompile | CmdFmt | CmdImport, "--diagnostics-output=FILE",
       "write the JSON or SARIF document to FILE (atomically) instead of stderr; a .sarif or .json name sets "
       "--diagnostics-format",
       false, SET(diagOutput), "file"},
      {"--sarif-root", nullptr, Arg::Value, CmdCompile | CmdFmt | CmdImport, "--sarif-root=DIR",
       "SARIF: the directory file URIs are relative to (uriBaseId SRCROOT; default: the git repository's root, "
       "else the working directory)",
       false, SET(sarifRoot), "dir"},
      {"--color", nullptr, Arg::Value, CmdCompile | CmdFmt | CmdImport, "--color=WHEN",
       "auto (default: on a terminal, unless NO_COLOR is set or TERM=dumb), always, never", false, color,
       "auto always never"},
      {"-Werror", nullptr, Arg::None, CmdCompileOrSweep, "-Werror", "treat warnings as errors", false, FLAG(werror), nullptr},
      {"-Werror=", nullptr, Arg::Prefix, CmdCompileOrSweep, "-Werror=CODE", "treat one warning as an error, e.g. -Werror=W0101",
       false, promote, "codes"},
      {"-Wno-", nullptr, Arg::Prefix, CmdCompileOrSweep, "-Wno-CODE", "silence one warning, e.g. -Wno-W0101", false,
       noWarning, "codes"},
      {"-w", nullptr, Arg::None, CmdCompileOrSweep, "-w", "silence every warning (but those made errors by -Werror=CODE)",
       false, FLAG(noWarnings), nullptr},
      {"--error-limit", nullptr, Arg::Value, CmdCompile, "--error-limit=N",
       "stop after N errors (default 50; 0: no limit)", false, errorLimit, nullptr},
      {"--max-devices", nullptr, Arg::Value, CmdCompileOrSweep, "--max-devices=N", nullptr, false, limit<0>, nullptr},
      {"--max-links", nullptr, Arg::Value, CmdCompileOrSweep, "--max-links=N", nullptr, false, limit<1>, nullptr},
      {"--max-steps", nullptr, Arg::Value, CmdCompileOrSweep, "--max-steps=N", nullptr, false, limit<2>, nullptr},
      {"--max-value-size", nullptr, Arg::Value, CmdCompileOrSweep, "--max-value-size=N", nullptr, false, limit<4>, nullptr},
      {"--max-depth", nullptr, Arg::Value, CmdCompileOrSweep, "--max-depth=N",
       "elaboration limits (a design past them is an error, never an OOM)", false, limit<3>, nullptr},
      {"--max-file-size", nullptr, Arg::Value, CmdCompileOrSweep | CmdFmt, "--max-file-size=BYTES",
       "largest source file read (default 256 MiB; suffixes K, M, G)", false, maxFileSize, nullptr},
      {"-i", nullptr, Arg::None, CmdFmt, "-i", "fmt: rewrite the files in place (atomically, only if they change)",
       false, FLAG(inPlace), nullptr},
      {"--check", nullptr, Arg::None, CmdFmt, "--check", "fmt: print the files that are not formatted, exit 1 if any",
       false, FLAG(fmtCheck), nullptr},
      {"--diff", nullptr, Arg::None, CmdFmt, "--diff",
       "fmt: print a unified diff of the changes instead (for patch), exit 1 if any", false,
       FLAG(fmtDiff), nullptr},
      {"--width", nullptr, Arg::Value, CmdFmt | CmdLsp, "--width=N",
       "fmt: the line width a brace list must fit to stay on one line (default 100)", false, width, nullptr},
      {"--format", nullptr, Arg::Value, CmdDiff | CmdVerify | CmdCheck | CmdExport, "--format=F",
       "diff, verify: text (default) or json; check: the same as --diagnostics-format; export: json (default), yaml or netbox",
       false, format, "text json sarif yaml netbox"},
      {"--exit-code", nullptr, Arg::None, CmdDiff, "--exit-code", "diff: exit 3 if the designs differ (0 if they do not)",
       false, FLAG(exitCode), nullptr},
      {"--discovered", nullptr, Arg::Value, CmdVerify, "--discovered FILE",
       "verify: a discovery file (repeat it, or list more files after the design)", false,
       [](Options &o, const std::string &, const std::string &v) {
         o.discovered.push_back(v);
         return Continue;
       },
       "file"},
      {"--scope", nullptr, Arg::Value, CmdVerify, "--scope NAME",
       "verify: only the cables inside a group or building (su[1], su1), for a partial bring-up", false, SET(scope),
       nullptr},
      {"--work-order", nullptr, Arg::Value, CmdVerify, "--work-order=FILE",
       "verify: write the fixes as a CSV work order (rack, U, port, action)", false, SET(workOrder), "file"},
      {"--guids-from", nullptr, Arg::Value, CmdBuild | CmdCheck, "--guids-from FILE",
       "build, check: pin what a discovery reports onto the design, matched by name: the GUIDs of an "
       "ibnetdiscover output, the host NIC MACs of a switch's LLDP (repeatable)",
       false,
       [](Options &o, const std::string &, const std::string &v) {
         o.guidsFrom.push_back(v);
         return Continue;
       },
       "file"},
      {"--speed", nullptr, Arg::Value, CmdImport, "--speed=GBPS",
       "import: the port speed in Gb/s where the discovery states none (LLDP; default 400)", false, importSpeed,
       nullptr},
      {"--list", nullptr, Arg::None, CmdExplain, "--list", "explain: every diagnostic code, one a line", false,
       FLAG(list), nullptr},
      {"--time-stages", nullptr, Arg::None, CmdCompile | CmdImport, "--time-stages",
       "print each stage's wall time and the peak memory when it ended to stderr", false, FLAG(timeStages), nullptr},
      {"--stop-after", nullptr, Arg::Value, CmdBuild | CmdCheck, "--stop-after=PASS",
       "stop after pass PASS (build writes --emit=ir only): test a pass on its own", true, stopAfter, "passes"},
      {"--parser", nullptr, Arg::Value, CmdCompile | CmdFmt, "--parser=P",
       "auto (default): the hand-written parser, the grammar's (ANTLR) for syntax errors; antlr, hand: one only",
       true, parser, "auto hand antlr"},
      {"-q", "--quiet", Arg::None, CmdBuild | CmdVerify | CmdImport | CmdExport | CmdSweep, "-q, --quiet", "no summary line", false,
       FLAG(quiet), nullptr},
      {"-j", "--jobs", Arg::Value, CmdSweep, "-j N, --jobs=N",
       "sweep: build N points at once (default: one per core)", false,
       [](Options &o, const std::string &, const std::string &v) {
         uint64_t n;
         if (!parseUInt(v, n) || n == 0 || n > 1024)
           return usageError("--jobs takes a number from 1 to 1024");
         o.jobs = unsigned(n);
         return Continue;
       },
       nullptr},
      {"--columns", nullptr, Arg::Value, CmdSweep, "--columns=LIST",
       "sweep: the figures of the table, comma-separated (default: all; fabc sweep --help lists them)", false,
       [](Options &o, const std::string &, const std::string &v) {
         o.sweepColumns.clear();
         for (llvm::StringRef rest = v; !rest.empty();) {
           auto [name, tail] = rest.split(',');
           if (!name.empty())
             o.sweepColumns.push_back(name.str());
           rest = tail;
         }
         if (o.sweepColumns.empty())
           return usageError("--columns takes a comma-separated list of figures");
         return Continue;
       },
       sweepColumnNames()},
      {"--sweep", nullptr, Arg::Value, CmdBuild, "--sweep=FILE",
       "build: draw a fabc sweep's table (its sweep.json) in the report, GPUs against facility power", false,
       SET(sweepFile), "file"},
      {"--man", nullptr, Arg::None, CmdAll, "--man", "print the man page fabc(1) in roff (the build installs it)",
       true, manOption, nullptr},
  };
  return table;
}

#undef FLAG
#undef SET

// The command being parsed, for the hint of a usage error ("fabc build --help").
static std::string helpCommand;

static bool usageErrorSeen = false;
bool usageErrorPrinted() { return usageErrorSeen; }

int usageError(const std::string &msg) {
  usageErrorSeen = true;
  fmt::print(stderr, "fabc: error: {}\n(run 'fabc {}--help' for usage)\n", msg,
             helpCommand.empty() ? "" : helpCommand + " ");
  return ExitUsage;
}

namespace {

// The closest of `names` to `word` (at most two edits, case-insensitive), or nullptr.
const char *closest(const std::string &word, const std::vector<const char *> &names) {
  const char *best = nullptr;
  unsigned bestDist = 3;
  for (const char *n : names) {
    unsigned d = llvm::StringRef(word).edit_distance(n, true, bestDist);
    if (d < bestDist) {
      bestDist = d;
      best = n;
    }
  }
  return best;
}

// The spellings a command takes (every command's, for an unknown command).
std::vector<const char *> spellings(const CommandSpec *cmd) {
  std::vector<const char *> r;
  for (const OptionSpec &s : optionTable())
    if (s.arg != Arg::Prefix && (!cmd || (s.commands & cmd->bit)))
      for (const char *sp : {s.spelling, s.alias})
        if (sp)
          r.push_back(sp);
  return r;
}

// Whether `a` is option `s`: 0 no, 1 yes (`value` set; `i` moved past a value given as the
// next argument), -2 yes but its value is missing.
int matchOption(const OptionSpec &s, const std::string &a, int argc, char **argv, int &i, std::string &value) {
  size_t n = std::strlen(s.spelling);
  if (s.arg == Arg::None)
    return a == s.spelling || (s.alias && a == s.alias) ? 1 : 0;
  if (s.arg == Arg::Prefix) {
    if (a.compare(0, n, s.spelling) != 0)
      return 0;
    if (a.size() == n)
      return -2;
    value = a.substr(n);
    return 1;
  }
  if (a == s.spelling || (s.spelling[1] == '-' && a == std::string(s.spelling) + "=")) {
    // The value is the next argument ("-D su=2", "--top NAME") or follows '='.
    if (a.back() == '=' || i + 1 >= argc)
      return -2;
    value = argv[++i];
    return 1;
  }
  if (a.size() > n && a.compare(0, n, s.spelling) == 0 && (a[n] == '=' || s.spelling[1] != '-')) {
    value = a.substr(n + (a[n] == '=' ? 1 : 0));
    return 1;
  }
  return 0;
}

// The commands (by name) that take option `s`, for the message about one that does not.
std::string commandsTaking(const OptionSpec &s) {
  std::string r;
  for (const CommandSpec &c : commandTable())
    if (c.help && (s.commands & c.bit))
      r += (r.empty() ? "" : ", ") + std::string(c.name);
  return r;
}

} // namespace

int parseArgs(int argc, char **argv, Options &o) {
  if (argc < 2) {
    fmt::print(stderr, "{}", usageText());
    return ExitUsage;
  }
  o.command = argv[1];
  const CommandSpec *cmd = findCommand(o.command);
  helpCommand = cmd && cmd->help ? o.command : "";
  if (!cmd) {
    std::vector<const char *> names;
    for (const CommandSpec &c : commandTable())
      if (c.help)
        names.push_back(c.name);
    names.push_back("help");
    const char *near = closest(o.command, names);
    return usageError("unknown command '" + o.command + "'" + (near ? fmt::format("; did you mean '{}'?", near) : ""));
  }
  bool optionsEnd = false; // after "--", every argument is an input
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (optionsEnd || a == "-" || a.empty() || a[0] != '-') {
      o.inputs.push_back(a);
      continue;
    }
    if (a == "--") {
      optionsEnd = true;
      continue;
    }
    // Each command takes its own options only: one it ignores would make a command line
    // written from memory pass without doing what it says.
    const OptionSpec *match = nullptr;
    std::string value;
    for (const OptionSpec &s : optionTable()) {
      if (!(s.commands & cmd->bit))
        continue;
      int m = matchOption(s, a, argc, argv, i, value);
      if (m == -2)
        return usageError(fmt::format("{} needs a value: {}", s.arg == Arg::Prefix ? a : s.spelling, s.usage));
      if (m == 1) {
        match = &s;
        break;
      }
    }
    if (match) {
      int rc = match->apply(o, a, value);
      if (rc >= 0)
        return rc;
      continue;
    }
    std::string name = a.substr(0, a.find('='));
    const char *near = closest(name, spellings(cmd));
    std::string mean = near ? fmt::format("; did you mean '{}'?", near) : "";
    for (const OptionSpec &s : optionTable()) {
      int j = i;
      std::string v;
      if (matchOption(s, a, argc, argv, j, v) == 0)
        continue;
      std::string msg = fmt::format("'fabc {}' takes no option '{}' (an option of: {})", o.command, s.spelling,
                                    commandsTaking(s));
      if (!std::strcmp(s.spelling, "--format") && (cmd->bit & (CmdCompile | CmdFmt | CmdImport)))
        msg += "; the diagnostics' format is --diagnostics-format=text|json|sarif";
      return usageError(msg + mean);
    }
    const char *any = near ? near : closest(name, spellings(nullptr));
    return usageError("unknown option '" + a + "'" + (any ? fmt::format("; did you mean '{}'?", any) : ""));
  }
  return Continue;
}

std::string plural(uint64_t n, const char *noun, const char *many) {
  if (n == 1)
    return fmt::format("1 {}", noun);
  return many ? fmt::format("{} {}", n, many) : fmt::format("{} {}s", n, noun);
}

} // namespace fabc::cli
