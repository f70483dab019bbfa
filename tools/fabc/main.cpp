// fabc: the fabric compiler's command line. The library (compiler/) compiles; this folder
// parses the options (Options.cpp), runs a command (one file each) and prints.
#include "Commands.h"
#include "HugePages.h"
#include "diag/SarifContext.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace fabc::cli {

namespace {
int printUsage(Options &) {
  fmt::print("{}", usageText());
  return ExitOk;
}
} // namespace

const std::vector<CommandSpec> &commandTable() {
  // A null help: an alias, not listed.
  static const std::vector<CommandSpec> table = {
      {"build", "build FILE", "check the design and write its outputs (to -o DIR)", buildCommand, CmdBuild},
      {"check", "check FILE...", "check designs only, for CI and pre-commit (no outputs)", checkCommand, CmdCheck},
      {"diff", "diff OLD NEW",
       "compile two revisions and print the recabling plan between them (--format=json)", diffCommand, CmdDiff},
      {"verify", "verify FILE DISC...",
       "compare the design with the fabric as built: ibnetdiscover, lldpctl -f json, SONiC 'show lldp table' "
       "(docs/bring-up.md)",
       verifyCommand, CmdVerify},
      {"import", "import DISC...",
       "write a design (-o OUT.fab) from a discovered fabric: ibnetdiscover, lldpctl -f json, SONiC 'show lldp "
       "table' (docs/bring-up.md)",
       importCommand, CmdImport},
      {"export", "export FILE",
       "write the evaluated design as data (-o DIR): export/design.json, --format=yaml, or --format=netbox for "
       "NetBox's CSV bulk import (docs/export.md)",
       exportCommand, CmdExport},
      {"sweep", "sweep FILE -D NAME=VALUES...",
       "build the design over a grid of parameter values (-D su=1..18 -D cpo=false,true) in parallel: a table "
       "(sweep.csv, sweep.json), a chart (sweep.svg) and the largest design that passes (-o DIR)",
       sweepCommand, CmdSweep},
      {"fmt", "fmt FILE...",
       "print FILE in the canonical layout (-i: rewrite it, --check: list files that would change)", fmtCommand,
       CmdFmt},
      {"explain", "explain CODE", "describe a diagnostic code, e.g. fabc explain E0042 (--list: every code)",
       explainCommand, CmdExplain},
      {"lsp", "lsp", "the language server (LSP 3.17 on stdin/stdout) for editors (docs/lsp.md)", lspCommand, CmdLsp},
      {"backends", "backends", "list the output backends for --emit", backendsCommand, CmdOther},
      {"completion", "completion SHELL", "print the bash or zsh completion script (source <(fabc completion bash))",
       completionCommand, CmdOther},
      {"version", "version", "print the version and where the stdlib is", versionCommand, CmdOther},
      {"parse-diff", nullptr, nullptr, parseDiffCommand, CmdCompile},
      {"--version", nullptr, nullptr, versionCommand, CmdOther},
      // "fabc help build" is build's help (Options.cpp, the -h option).
      {"help", nullptr, nullptr,
       [](Options &o) {
         if (o.inputs.empty())
           return printUsage(o);
         const CommandSpec *c = findCommand(o.inputs[0]);
         if (!c || !c->help)
           return usageError("no command '" + o.inputs[0] + "'");
         fmt::print("{}", commandHelp(*c));
         return ExitOk;
       },
       CmdOther},
      {"--help", nullptr, nullptr, printUsage, CmdOther},
      {"-h", nullptr, nullptr, printUsage, CmdOther},
      {"--help-hidden", nullptr, nullptr,
       [](Options &) {
         fmt::print("{}", usageText(true));
         return ExitOk;
       },
       CmdOther},
      {"--man", nullptr, nullptr,
       [](Options &) {
         fmt::print("{}", manPage());
         return ExitOk;
       },
       CmdOther},
  };
  return table;
}

const CommandSpec *findCommand(const std::string &name) {
  for (const CommandSpec &c : commandTable())
    if (name == c.name)
      return &c;
  return nullptr;
}

namespace {

// SARIF's default root: the git repository the working directory is in (a ".git" directory
// or file, as in a worktree), else the working directory.
std::string defaultSarifRoot() {
  llvm::SmallString<256> cwd;
  if (llvm::sys::fs::current_path(cwd))
    return "";
  for (llvm::StringRef d = cwd; !d.empty(); d = llvm::sys::path::parent_path(d)) {
    llvm::SmallString<256> git(d);
    llvm::sys::path::append(git, ".git");
    if (llvm::sys::fs::exists(git))
      return d.str();
  }
  return std::string(cwd.str());
}

int run(int argc, char **argv) {
  Options o;
  int rc = parseArgs(argc, argv, o);
  if (rc >= 0)
    return rc;
  if (!o.diagOutput.empty() && o.format == DiagFormat::Text) {
    llvm::StringRef ext = llvm::sys::path::extension(o.diagOutput);
    if (ext == ".sarif")
      o.format = DiagFormat::Sarif;
    else if (ext == ".json")
      o.format = DiagFormat::Json;
    else
      return usageError("--diagnostics-output writes a JSON or SARIF document: add --diagnostics-format=sarif "
                        "(or json), or name the file *.sarif or *.json");
  }
  DiagReport report;
  if (o.format != DiagFormat::Text)
    o.report = &report;
  if (o.format == DiagFormat::Sarif) {
    llvm::SmallString<256> root(o.sarifRoot.empty() ? defaultSarifRoot() : o.sarifRoot);
    if (!root.empty()) {
      llvm::sys::fs::make_absolute(root);
      llvm::sys::path::remove_dots(root, true);
      while (root.size() > 1 && root.back() == '/')
        root.pop_back();
    }
    setSarifRoot(std::string(root.str()));
  }
  const CommandSpec *c = findCommand(o.command); // parseArgs knows it
  rc = c->run(o);
  if (!o.report)
    return rc;
  if (!o.diagOutput.empty()) {
    std::string err;
    char *buf = nullptr;
    size_t len = 0;
    FILE *mem = ::open_memstream(&buf, &len);
    if (mem) {
      report.print(mem, o.format);
      std::fclose(mem);
    }
    std::string doc = buf ? std::string(buf, len) : std::string();
    std::free(buf);
    if (!mem || !replaceFileAtomically(o.diagOutput, doc, err)) {
      fmt::print(stderr, "fabc: error: cannot write '{}': {}\n", o.diagOutput, err);
      return ExitUsage;
    }
  } else if (!usageErrorPrinted()) {
    report.print(stderr, o.format);
  }
  return rc;
}

struct ThreadArgs {
  int argc;
  char **argv;
  int result;
};

void *threadMain(void *p) {
  auto *a = static_cast<ThreadArgs *>(p);
  // Memory is bounded by the limits, but a limit raised past the machine (or a ulimit)
  // must end in a message, not an abort. Outputs are never half-written either way:
  // OutputDir's destructor removes its temporaries.
  try {
    a->result = run(a->argc, a->argv);
  } catch (const std::bad_alloc &) {
    std::fflush(stdout);
    std::fputs("fabc: error: out of memory (lower --max-file-size or the elaboration limits, or allow more memory)\n",
               stderr);
    a->result = ExitUsage;
  }
  return nullptr;
}

} // namespace
} // namespace fabc::cli

int main(int argc, char **argv) {
  using namespace fabc::cli;
  useCommandLineHeap();
  // The pipeline runs on a thread with a large stack, so that deep but legal nesting
  // in a design never meets the 8 MB default.
  ThreadArgs args{argc, argv, ExitUsage};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(256) << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, threadMain, &args) != 0)
    return run(argc, argv);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  return args.result;
}
