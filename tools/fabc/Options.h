#pragma once
// The command line's options and commands, as tables: one entry per option (spelling,
// argument, the commands that use it, help) and per command. The tables are the single
// source of the usage text, the per-command help, the man page fabc(1) and the bash and zsh
// completions (Help.cpp; CMake generates the man page and completions from this binary).
#include "Compilation.h"
#include "diag/Diag.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fabc::cli {

constexpr int ExitOk = 0, ExitErrors = 1, ExitUsage = 2, ExitDiffers = 3;

struct Options {
  std::string command;
  std::vector<std::string> inputs;
  std::string outDir = "fabc-out";
  std::vector<std::string> emit;
  std::vector<std::string> includes;
  std::vector<std::pair<std::string, std::string>> defines;
  std::string top;
  std::string stopAfter;
  DiagFormat format = DiagFormat::Text;
  int color = -1; // -1 auto
  bool werror = false, noWarnings = false, timeStages = false, quiet = false;
  std::vector<std::string> promoted; // -Werror=CODE
  bool limitsSet = false; // a --max-devices/links/steps/depth option was given
  bool inPlace = false, fmtCheck = false, fmtDiff = false, list = false, diffJson = false, exitCode = false;
  unsigned width = 100;
  uint64_t maxFileSize = 256ull << 20; // CompileOptions::maxFileSize
  ParserEngine parser = ParserEngine::Auto; // --parser (hidden)
  DiagReport *report = nullptr; // JSON/SARIF: one document for all inputs
  std::vector<std::string> disabled;
  unsigned errorLimit = 50;
  ElabLimits limits;
  std::vector<std::string> discovered; // verify: --discovered
  std::string scope, workOrder;        // verify: --scope, --work-order
  bool outSet = false;                 // -o given (import: the file, else stdout)
  double importSpeed = 0;              // import: --speed, b/s
  std::vector<std::string> guidsFrom;  // build, check: --guids-from
  std::string diagOutput;              // --diagnostics-output: the JSON/SARIF document's file
  std::string sarifRoot;               // --sarif-root (default: the git repository's root, or .)
  std::string exportFormat = "json";   // export: --format (json, yaml, netbox)
  unsigned jobs = 0;                   // sweep: --jobs (0: one per core)
  std::vector<std::string> sweepColumns; // sweep: --columns
  std::string sweepFile;                 // build: --sweep, a sweep.json the report draws
};

// Which commands an option applies to: a command takes its own options only (parseArgs
// rejects the others, naming the commands that take them); the usage text, man page and
// completions list them per command.
enum Cmd : uint32_t {
  CmdBuild = 1, CmdCheck = 2, CmdDiff = 4, CmdFmt = 8, CmdExplain = 16, CmdVerify = 32, CmdImport = 64, CmdLsp = 128,
  CmdOther = 256, // backends, version, completion: the options every command takes only
  CmdExport = 512,
  CmdSweep = 1024,
  CmdAll = 2047,
  CmdCompile = CmdBuild | CmdCheck | CmdDiff | CmdVerify | CmdLsp | CmdExport, // every command that compiles a design
  // The compile options sweep passes on to the build of each point.
  CmdCompileOrSweep = CmdCompile | CmdSweep,
};

enum class Arg : uint8_t {
  None,   // a flag: exact spelling
  Value,  // "--name=V" or "--name V"; a one-letter option also "-xV"
  Prefix, // the spelling is a prefix, the rest is the value ("-Wno-CODE")
};

struct OptionSpec {
  const char *spelling;
  const char *alias; // a second spelling ("--quiet" for -q), or nullptr
  Arg arg;
  uint32_t commands; // Cmd bits
  // The usage column ("-o DIR") and help. A null help joins this entry's usage with the
  // next entry's on one line (options documented together). Hidden options are listed
  // by --help-hidden only.
  const char *usage;
  const char *help;
  bool hidden;
  // Applies the option: -1 to go on, else the exit status to stop with (a usage error).
  int (*apply)(Options &o, const std::string &arg, const std::string &value);
  // What the shell completes for the value: nullptr (nothing known), "file", "dir",
  // "backends" (a comma-separated list of them), "codes" (warning codes), "passes", or the
  // choices themselves, space-separated ("text json sarif").
  const char *complete;
  // Commands for which a "dir" value names a file instead (-o is import's output .fab).
  uint32_t fileFor = 0;
};
const std::vector<OptionSpec> &optionTable();

struct CommandSpec {
  const char *name;
  const char *usage; // "build FILE"
  const char *help;
  int (*run)(Options &o);
  uint32_t bit; // the Cmd bit of the options it takes
};
const std::vector<CommandSpec> &commandTable();
const CommandSpec *findCommand(const std::string &name);

// Help.cpp: everything printed from the tables.
// The usage text (`hidden`: with the developer options).
std::string usageText(bool hidden = false);
// One command's usage, its description and the options it takes ("fabc build --help").
std::string commandHelp(const CommandSpec &c);
// The man page fabc(1), in roff (man -l, groff -man).
std::string manPage();
// A completion script for "bash" or "zsh"; empty for another shell.
std::string completionScript(const std::string &shell);

// Parses argv into `o`: -1 on success, else the exit status to return.
int parseArgs(int argc, char **argv, Options &o);

// "fabc: error: MSG" and the hint to run --help; returns ExitUsage.
int usageError(const std::string &msg);
// Whether usageError printed (a JSON/SARIF document then stays off stderr: never text and a
// document on one stream).
bool usageErrorPrinted();

// "1 file", "2 files", "2 switches": the count and the noun, plural unless one (`many`:
// the plural where it is not NOUN + "s").
std::string plural(uint64_t n, const char *noun, const char *many = nullptr);

} // namespace fabc::cli
