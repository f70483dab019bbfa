// Everything printed from the option and command tables: the usage text, a command's
// help, the man page fabc(1) and the bash and zsh completions. CMake runs the built fabc
// to write the man page and the completions (tools/fabc/CMakeLists.txt), so none of them
// is a hand-kept copy of the table.
#include "Options.h"

#include "backends/Backend.h"
#include "passes/Passes.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>

namespace fabc::cli {
namespace {

constexpr size_t Column = 27; // the help column, after a two-space indent

// The text every rendering shares, beside the tables.
const char *const Summary = "the fabric compiler";
const char *const Description =
    "fabc compiles a topology written in the Fabric language (.fab files): GPUs, systems, NICs, switches, optics, "
    "racks, halls and the links between them. It checks the design with clang-style diagnostics, each with a "
    "stable code (fabc explain CODE), and writes its cabling plan, bill of materials, energy budget, switch "
    "configurations and more (fabc backends).";
struct EnvVar {
  const char *name, *help;
};
const EnvVar Environment[] = {
    {"FABC_PATH", "colon-separated directories searched for imports, after -I and before the stdlib"},
    {"NO_COLOR", "when set and not empty, no colour in diagnostics unless --color=always (no-color.org)"},
    {"TERM", "'dumb': no colour in diagnostics unless --color=always"},
};
const char *const ExitStatus[][2] = {
    {"0", "clean"},
    {"1", "errors in the design (fmt --check: files to reformat; verify: the fabric does not match)"},
    {"2", "usage or I/O error (verify: a discovery file cannot be read whole)"},
    {"3", "diff --exit-code: the designs differ"},
};

bool takesOption(const CommandSpec &c, const OptionSpec &s) { return (s.commands & c.bit) != 0; }

// The options section of a help text: `keep` selects the entries; entries with a null
// help are joined with the next one.
template <typename Keep> std::string optionLines(Keep keep) {
  std::string r, left;
  for (const OptionSpec &s : optionTable()) {
    if (!keep(s) || !s.usage)
      continue;
    left += (left.empty() ? "" : " ") + std::string(s.usage);
    if (!s.help)
      continue; // documented with the next entry
    if (left.size() < Column)
      r += fmt::format("  {:<{}}{}\n", left, Column, s.help);
    else
      r += fmt::format("  {}\n  {:<{}}{}\n", left, "", Column, s.help);
    if (s.complete && !std::strcmp(s.complete, "passes")) // --stop-after: which passes there are
      r += fmt::format("  {:<{}}passes: {}\n", "", Column, passes::passNames());
    left.clear();
  }
  return r;
}

// The words of a completion list: the choices, or what a keyword stands for.
std::string completionWords(const char *complete) {
  std::string r;
  auto add = [&](const std::string &w) { r += (r.empty() ? "" : " ") + w; };
  if (!std::strcmp(complete, "backends")) {
    add("all");
    for (const Backend &b : backends())
      add(b.name);
  } else if (!std::strcmp(complete, "codes")) {
    for (size_t i = 0; i < diagCount(); ++i)
      if (diagInfo(DiagCode(i)).severity == Severity::Warning)
        add(diagInfo(DiagCode(i)).code);
  } else if (!std::strcmp(complete, "passes")) {
    std::string names = passes::passNames(); // "a, b, c"
    for (char &ch : names)
      if (ch == ',')
        ch = ' ';
    for (size_t p = 0; (p = names.find("  ")) != std::string::npos;)
      names.erase(p, 1);
    r = names;
  } else {
    r = complete;
  }
  return r;
}

bool isKeyword(const char *complete) {
  return complete && (!std::strcmp(complete, "file") || !std::strcmp(complete, "dir"));
}

// roff: backslashes escaped, '-' as the minus sign of options, no control character at the
// start of a line.
std::string roff(const std::string &s) {
  std::string r;
  for (char c : s) {
    if (c == '\\')
      r += "\\e";
    else if (c == '-')
      r += "\\-";
    else
      r += c;
  }
  if (!r.empty() && (r[0] == '.' || r[0] == '\''))
    r.insert(0, "\\&");
  return r;
}

// "-o DIR" in roff: the option in bold, its metavariable in italics.
std::string roffUsage(const std::string &usage) {
  std::string r;
  size_t p = 0;
  while (p < usage.size()) {
    size_t e = usage.find_first_of(" =,", p);
    std::string word = usage.substr(p, e == std::string::npos ? std::string::npos : e - p);
    bool isOpt = !word.empty() && word[0] == '-';
    if (isOpt && word.compare(0, 5, "-Wno-") == 0)
      r += "\\fB\\-Wno\\-\\fI" + roff(word.substr(5)) + "\\fR";
    else
      r += (isOpt ? "\\fB" : "\\fI") + roff(word) + "\\fR";
    if (e == std::string::npos)
      break;
    r += usage[e] == ' ' ? std::string(" ") : usage[e] == '=' ? std::string("=") : std::string(", ");
    p = e + 1;
    while (p < usage.size() && usage[p] == ' ')
      ++p;
  }
  return r;
}

std::string manCommandOptions(const CommandSpec &c) {
  std::string r;
  for (const OptionSpec &s : optionTable())
    if (!s.hidden && s.usage && s.commands != CmdAll && takesOption(c, s))
      r += (r.empty() ? "" : ", ") + std::string(s.spelling);
  return r;
}

// Zsh's _arguments spec strings: brackets, colons and quotes in descriptions escaped.
std::string zshEscape(const std::string &s) {
  std::string r;
  for (char c : s) {
    if (c == '[' || c == ']' || c == ':' || c == '\\')
      r += '\\';
    if (c == '\'')
      r += "'\\''";
    else
      r += c;
  }
  return r;
}

std::string bashCompletion() {
  std::string r = "# bash completion for fabc(1). Generated by 'fabc completion bash' from fabc's option table:\n"
                   "# do not edit. Installed in share/bash-completion/completions/fabc.\n"
                   "_fabc() {\n"
                   "  local line=${COMP_LINE:0:COMP_POINT}\n"
                   "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
                   "  # The word being completed, '=' included (COMP_WORDBREAKS may split it there).\n"
                   "  local word=${line##*[[:space:]]}\n"
                   "  COMPREPLY=()\n";
  std::string cmds;
  for (const CommandSpec &c : commandTable())
    if (c.help)
      cmds += (cmds.empty() ? "" : " ") + std::string(c.name);
  r += fmt::format("  if [[ $COMP_CWORD -eq 1 ]]; then\n"
                   "    compopt +o filenames 2>/dev/null\n"
                   "    COMPREPLY=($(compgen -W \"{} help\" -- \"$cur\"))\n"
                   "    return\n"
                   "  fi\n",
                   cmds);
  r += "  local cmd=${COMP_WORDS[1]}\n";
  // Values: "--opt=VALUE" in one word, or "-o VALUE" / "--opt VALUE" in two.
  auto valueCase = [&](const OptionSpec &s, const std::string &indent) {
    std::string words = isKeyword(s.complete) ? "" : completionWords(s.complete);
    // Words, not file names: without -o filenames' quoting (it would escape them).
    std::string noFiles = indent + "compopt +o filenames 2>/dev/null\n";
    // File names one a line (mapfile), never split at blanks: "my dir" is one candidate.
    const char *dirs = "mapfile -t COMPREPLY < <(compgen -d -- \"$value\")";
    const char *files = "mapfile -t COMPREPLY < <(compgen -f -- \"$value\")";
    if (!std::strcmp(s.complete, "dir")) {
      std::string fileCmds; // the commands for which this option's value is a file
      for (const CommandSpec &c : commandTable())
        if (c.bit & s.fileFor)
          fileCmds += (fileCmds.empty() ? "" : "|") + std::string(c.name);
      if (fileCmds.empty())
        return fmt::format("{}{}\n", indent, dirs);
      return fmt::format("{0}case $cmd in\n{0}{1}) {2} ;;\n{0}*) {3} ;;\n{0}esac\n", indent, fileCmds, files, dirs);
    }
    if (!std::strcmp(s.complete, "file"))
      return fmt::format("{}{}\n", indent, files);
    if (!std::strcmp(s.complete, "backends")) // a comma-separated list: complete after the last comma
      return noFiles + fmt::format("{0}local done=${{value%,*}}; [[ $done == \"$value\" ]] && done= || done+=,\n"
                                   "{0}COMPREPLY=($(compgen -P \"$done\" -W \"{1}\" -- \"${{value##*,}}\"))\n",
                                   indent, words);
    return noFiles + fmt::format("{}COMPREPLY=($(compgen -W \"{}\" -- \"$value\"))\n", indent, words);
  };
  r += "  local value\n  case $word in\n";
  for (const OptionSpec &s : optionTable())
    if (s.complete && s.arg != Arg::None && std::strlen(s.spelling) > 2) {
      std::string pat = s.arg == Arg::Prefix ? std::string(s.spelling) : std::string(s.spelling) + "=";
      r += fmt::format("  {}*)\n    value=${{word#{}}}\n", pat, pat);
      r += valueCase(s, "    ");
      // Where bash split the word at '=', the reply replaces only what follows it.
      r += fmt::format("    if [[ $cur != {}* && $COMP_WORDBREAKS == *=* ]]; then :; "
                       "else COMPREPLY=(\"${{COMPREPLY[@]/#/{}}}\"); fi\n    return ;;\n",
                       pat, pat);
    }
  r += "  esac\n  value=$cur\n  case $prev in\n";
  for (const OptionSpec &s : optionTable())
    if (s.complete && s.arg == Arg::Value) {
      r += fmt::format("  {})\n", s.spelling);
      r += valueCase(s, "    ");
      r += "    return ;;\n";
    }
  r += "  esac\n  local opts\n  case $cmd in\n";
  for (const CommandSpec &c : commandTable()) {
    if (!c.help)
      continue;
    std::string opts;
    for (const OptionSpec &s : optionTable())
      if (!s.hidden && takesOption(c, s))
        for (const char *sp : {s.spelling, s.alias})
          if (sp)
            opts += (opts.empty() ? "" : " ") + std::string(sp) +
                    (s.arg == Arg::Value && sp[1] == '-' && std::strstr(s.usage, "=") ? "=" : "");
    r += fmt::format("  {}) opts=\"{}\" ;;\n", c.name, opts);
  }
  r += "  help) compopt +o filenames 2>/dev/null; COMPREPLY=($(compgen -W \"" + cmds +
       "\" -- \"$cur\")); return ;;\n";
  r += "  esac\n"
       "  if [[ $cur == -* ]]; then\n"
       "    # Option names: no filename quoting (it would insert '--emit\\=').\n"
       "    compopt +o filenames 2>/dev/null\n"
       "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
       "    # An option that takes '=VALUE' (or -Wno-CODE) goes on without a space.\n"
       "    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=-] ]] && compopt -o nospace 2>/dev/null\n"
       "    return\n"
       "  fi\n"
       "  case $cmd in\n"
       "  explain) compopt +o filenames 2>/dev/null; COMPREPLY=($(compgen -W \"" +
       [] {
         std::string all;
         for (size_t i = 0; i < diagCount(); ++i)
           all += (all.empty() ? "" : " ") + std::string(diagInfo(DiagCode(i)).code);
         return all;
       }() +
       "\" -- \"$cur\")) ;;\n"
       "  completion) compopt +o filenames 2>/dev/null; COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\")) ;;\n"
       "  backends|version) ;;\n"
       "  build|check|diff|verify|fmt)\n"
       "    mapfile -t COMPREPLY < <(compgen -f -X '!*.fab' -- \"$cur\"; compgen -d -- \"$cur\") ;;\n"
       "  *) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
       "  esac\n"
       "}\n"
       "complete -o filenames -F _fabc fabc\n";
  return r;
}

std::string zshCompletion() {
  std::string r = "#compdef fabc\n"
                  "# zsh completion for fabc(1). Generated by 'fabc completion zsh' from fabc's option table:\n"
                  "# do not edit. Installed in share/zsh/site-functions/_fabc.\n\n"
                  "_fabc() {\n"
                  "  local curcontext=$curcontext state line ret=1\n"
                  "  typeset -A opt_args\n"
                  "  _arguments -C '1: :->command' '*:: :->args' && ret=0\n"
                  "  case $state in\n"
                  "  command)\n"
                  "    local -a commands\n"
                  "    commands=(\n";
  for (const CommandSpec &c : commandTable())
    if (c.help)
      r += fmt::format("      '{}:{}'\n", c.name, zshEscape(c.help));
  r += "      'help:print the options of a command (fabc help build)'\n";
  r += "    )\n"
       "    _describe -t commands 'fabc command' commands && ret=0 ;;\n"
       "  args)\n"
       "    case $words[1] in\n";
  std::string names;
  for (const CommandSpec &c : commandTable())
    if (c.help)
      names += (names.empty() ? "" : " ") + std::string(c.name);
  r += "    help) _arguments '1:command:(" + names + ")' && ret=0 ;;\n";
  for (const CommandSpec &c : commandTable()) {
    if (!c.help)
      continue;
    r += fmt::format("    {})\n      _arguments -s \\\n", c.name);
    for (const OptionSpec &s : optionTable()) {
      if (s.hidden || !takesOption(c, s) || !s.usage)
        continue;
      std::string help = zshEscape(s.help ? s.help : "elaboration limit");
      std::string action;
      if (s.complete && !std::strcmp(s.complete, "file"))
        action = "_files";
      else if (s.complete && !std::strcmp(s.complete, "dir"))
        action = c.bit & s.fileFor ? "_files" : "_files -/";
      else if (s.complete && !std::strcmp(s.complete, "backends"))
        action = "_sequence compadd - " + completionWords(s.complete);
      else if (s.complete)
        action = "(" + completionWords(s.complete) + ")";
      std::string meta = "value";
      if (const char *sp = std::strpbrk(s.usage, " ="))
        meta = sp + 1;
      for (const char *sp : {s.spelling, s.alias}) {
        if (!sp)
          continue;
        if (s.arg == Arg::None)
          r += fmt::format("        '{}[{}]' \\\n", sp, help);
        else if (s.arg == Arg::Prefix)
          r += fmt::format("        '{}-[{}]:{}:{}' \\\n", sp, help, zshEscape(meta), action);
        else if (sp[1] == '-')
          r += fmt::format("        '{}=[{}]:{}:{}' \\\n", sp, help, zshEscape(meta), action);
        else
          r += fmt::format("        '{}+[{}]:{}:{}' \\\n", sp, help, zshEscape(meta), action);
      }
    }
    if (!std::strcmp(c.name, "explain")) { // every code, errors too (-Werror=, -Wno- take warnings only)
      std::string all;
      for (size_t i = 0; i < diagCount(); ++i)
        all += (all.empty() ? "" : " ") + std::string(diagInfo(DiagCode(i)).code);
      r += "        '1:code:(" + all + ")' \\\n";
    }
    else if (!std::strcmp(c.name, "completion"))
      r += "        '1:shell:(bash zsh)' \\\n";
    else if (c.bit & CmdCompile || c.bit == CmdFmt)
      r += "        '*:design:_files -g \"*.fab\"' \\\n";
    else if (c.bit == CmdImport)
      r += "        '*:discovery file:_files' \\\n";
    r += "        && ret=0 ;;\n";
  }
  r += "    esac ;;\n"
       "  esac\n"
       "  return ret\n"
       "}\n\n"
       "_fabc \"$@\"\n";
  return r;
}

} // namespace

std::string usageText(bool hidden) {
  std::string r = "usage: fabc <command> [options]\n\ncommands:\n";
  for (const CommandSpec &c : commandTable())
    if (c.help)
      r += fmt::format("  {:<16}  {}\n", c.usage, c.help);
  r += "\n'fabc COMMAND --help' prints a command's own options.\n";
  r += "\noptions:\n";
  r += optionLines([](const OptionSpec &s) { return !s.hidden; });
  if (hidden) {
    r += "\ndeveloper options:\n";
    r += optionLines([](const OptionSpec &s) { return s.hidden; });
  }
  r += "\nenvironment:\n";
  for (const EnvVar &e : Environment)
    r += fmt::format("  {:<{}}{}\n", e.name, Column, e.help);
  r += "\nexit status:\n";
  for (const auto &e : ExitStatus)
    r += fmt::format("  {}  {}\n", e[0], e[1]);
  return r;
}

std::string commandHelp(const CommandSpec &c) {
  std::string r = fmt::format("usage: fabc {} [options]\n\n{}\n", c.usage, c.help);
  std::string opts = optionLines([&](const OptionSpec &s) { return !s.hidden && takesOption(c, s); });
  if (!opts.empty())
    r += "\noptions:\n" + opts;
  return r;
}

std::string manPage() {
  std::string r = fmt::format(".\\\" fabc(1). Generated by 'fabc --man' from fabc's option table: do not edit.\n"
                              ".TH FABC 1 \"\" \"fabc {}\" \"User Commands\"\n.nh\n"
                              ".SH NAME\nfabc \\- {}\n"
                              ".SH SYNOPSIS\n.B fabc\n.I command\n.RI [ options ]\n.RI [ file ...]\n"
                              ".SH DESCRIPTION\n{}\n"
                              ".SH COMMANDS\n",
                              FABC_VERSION, Summary, roff(Description));
  for (const CommandSpec &c : commandTable()) {
    if (!c.help)
      continue;
    std::string usage = c.usage, name = c.name, args = usage.substr(std::min(usage.size(), name.size() + 1));
    r += fmt::format(".TP\n.B {}{}\n{}.\n", roff(name), args.empty() ? "" : " \\fI" + roff(args) + "\\fR",
                     roff(c.help));
    std::string opts = manCommandOptions(c);
    if (!opts.empty())
      r += fmt::format(".br\nOptions: {}.\n", roff(opts));
  }
  r += ".SH OPTIONS\n"
       "An option's value follows it as the next argument or after '='\n"
       "(\\fB\\-\\-emit=bom\\fR, \\fB\\-o out\\fR); a one-letter option's also without a space\n"
       "(\\fB\\-Dsu=2\\fR).\n";
  std::string left;
  for (const OptionSpec &s : optionTable()) {
    if (s.hidden || !s.usage)
      continue;
    left += (left.empty() ? "" : ", ") + roffUsage(s.usage);
    if (!s.help)
      continue;
    r += fmt::format(".TP\n{}\n{}.\n", left, roff(s.help));
    left.clear();
  }
  r += ".SH ENVIRONMENT\n";
  for (const EnvVar &e : Environment)
    r += fmt::format(".TP\n.B {}\n{}.\n", e.name, roff(e.help));
  r += ".SH FILES\n.TP\n.I PREFIX/share/fabc/stdlib\n"
       "The standard library: the hardware catalog (every figure with its source) and the topology\n"
       "templates. An installed fabc finds it next to its own prefix; imports search it last.\n";
  r += ".SH EXIT STATUS\n";
  for (const auto &e : ExitStatus)
    r += fmt::format(".TP\n.B {}\n{}.\n", e[0], roff(e[1]));
  r += ".SH EXAMPLES\n.nf\n"
       "fabc build pod.fab \\-o out \\-D su=2 \\-\\-emit=bom,cabling,energy\n"
       "fabc check designs/*.fab \\-Werror\n"
       "fabc explain E0042\n"
       "fabc fmt \\-i designs/*.fab\n"
       ".fi\n"
       ".SH SEE ALSO\n"
       "The language reference, the diagnostics and the backends' formats are in the\n"
       "documentation (docs/language.md, docs/diagnostics.md, docs/backends.md).\n";
  return r;
}

std::string completionScript(const std::string &shell) {
  if (shell == "bash")
    return bashCompletion();
  if (shell == "zsh")
    return zshCompletion();
  return "";
}

} // namespace fabc::cli
