// Secrets by reference (docs/decisions/0361-secrets-by-reference.md): a design names
// where a secret is, never the secret. "env:NAME" is an environment variable of the
// build, "file:/absolute/path" a file the deployer fills. The reference is resolved when
// the outputs that carry the secret are checked, before anything is written; a
// diagnostic names the reference, never the value.
#include "diag/DiagCodes.h"
#include "checks/OutputChecks.h"

#include "diag/Diag.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace fabc::checks {

namespace {
// The TCP-MD5 key limit of Linux (TCP_MD5SIG_MAXKEYLEN), which also bounds a TACACS+
// key here: SONiC's YANG allows 256, but one rule for every secret keeps it simple.
constexpr size_t MaxSecret = 80;

// Printable ASCII that FRR (one WORD, '!' starts a comment), NVUE's YAML (written
// unquoted or quoted by the writer) and SONiC's TACACS+ passkey pattern ("[^ #,]*")
// all carry as it is.
bool usable(char c) {
  return c > ' ' && c < 0x7f && c != '#' && c != ',' && c != '!' && c != '\'' && c != '"' && c != '\\';
}

bool validEnvName(std::string_view n) {
  if (n.empty() || (n[0] >= '0' && n[0] <= '9'))
    return false;
  for (char c : n)
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}
} // namespace

bool resolveSecret(const ir::Fabric &F, const ir::Setting &s, std::string &out, DiagEngine &diags) {
  std::string_view key = F.strings.str(s.name);
  std::string_view ref = s.type == ir::Setting::String ? F.strings.str(s.str) : std::string_view();
  bool env = ref.substr(0, 4) == "env:", file = ref.substr(0, 5) == "file:";
  std::string_view what = env ? ref.substr(4) : file ? ref.substr(5) : std::string_view();
  if ((!env && !file) || (env && !validEnvName(what)) || (file && !llvm::sys::path::is_absolute(what))) {
    Diagnostic *d = diags.report(DiagCode::E0210, s.loc, "{} is a reference to a secret, \"env:NAME\" or \"file:/path\"", key);
    DiagEngine::note(d, {}, "never write the secret in the design: name the environment variable or the absolute path of "
                            "the file that holds it, for example \"env:FABRIC_BGP_KEY\"");
    return false;
  }
  std::string where = env ? fmt::format("environment variable {}", what) : fmt::format("file {}", what);
  if (env) {
    const char *v = std::getenv(std::string(what).c_str());
    out = v ? v : "";
  } else {
    uint64_t size = 0;
    // A secret is short: a larger file is the wrong file, and is not read.
    if (llvm::sys::fs::file_size(what, size) || size > 4096) {
      Diagnostic *d = diags.report(DiagCode::E0211, s.loc, "{}: the {} cannot be read{}", key, where,
                                   size > 4096 ? " (larger than 4 KiB: not a secret)" : "");
      DiagEngine::note(d, {}, "the deployer writes the secret to that file before the build");
      return false;
    }
    auto buf = llvm::MemoryBuffer::getFile(what, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buf) {
      Diagnostic *d = diags.report(DiagCode::E0211, s.loc, "{}: the {} cannot be read", key, where);
      DiagEngine::note(d, {}, "the deployer writes the secret to that file before the build");
      return false;
    }
    out.assign((*buf)->getBufferStart(), (*buf)->getBufferSize());
    if (!out.empty() && out.back() == '\n') // what `echo KEY > file` writes
      out.pop_back();
    if (!out.empty() && out.back() == '\r')
      out.pop_back();
  }
  if (out.empty()) {
    Diagnostic *d = diags.report(DiagCode::E0211, s.loc, "{}: the {} is {}", key, where, env ? "unset or empty" : "empty");
    DiagEngine::note(d, {}, env ? fmt::format("set it before the build: export {}=...", what)
                                : std::string("the deployer writes the secret to that file before the build"));
    return false;
  }
  bool ok = out.size() <= MaxSecret;
  for (char c : out)
    ok &= usable(c);
  if (!ok) {
    Diagnostic *d = diags.report(DiagCode::E0211, s.loc, "{}: the secret in the {} is {}", key, where,
                                 out.size() > MaxSecret ? "longer than 80 characters" : "not carried as it is by every target");
    DiagEngine::note(d, {}, "use 1 to 80 printable ASCII characters without space, quotes, backslash, '#', ',' or '!'");
    out.clear();
    return false;
  }
  return true;
}

} // namespace fabc::checks
