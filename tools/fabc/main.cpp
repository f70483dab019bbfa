// fabc: the fabric compiler's command line. The library (compiler/) compiles; this folder
// parses the options (Options.cpp), runs a command (one file each) and prints.
#include "Commands.h"

#include <pthread.h>

#include <cstdio>
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

int run(int argc, char **argv) {
  Options o;
  int rc = parseArgs(argc, argv, o);
  if (rc >= 0)
    return rc;
  DiagReport report;
  if (o.format != DiagFormat::Text)
    o.report = &report;
  if (const CommandSpec *c = findCommand(o.command))
    rc = c->run(o);
  else
    rc = usageError("unknown command '" + o.command + "'");
  if (o.report)
    report.print(stderr, o.format);
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
