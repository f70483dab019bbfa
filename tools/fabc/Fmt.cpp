// fabc fmt: print, check or rewrite sources in the canonical layout (docs/fmt.md).
#include "diag/DiagCodes.h"
#include "Compilation.h"
#include "ast/Format.h"
#include "Commands.h"
#include "diag/SarifContext.h"
#include "UnifiedDiff.h"
#include "loader/Imports.h"
#include "loader/Streams.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc::cli {

bool replaceFileAtomically(const std::string &path, const std::string &text, std::string &err) {
  // Through a symlink, replace its target, not the link.
  std::string target = path;
  if (char *real = ::realpath(path.c_str(), nullptr)) {
    target = real;
    std::free(real);
  }
  struct stat st;
  mode_t mode = 0644;
  if (::stat(target.c_str(), &st) == 0)
    mode = st.st_mode & 07777;
  // A fresh name beside the target (O_EXCL, retried on a collision): a PID names no
  // process uniquely (PID 1 in every container), and a stale file of one must not block.
  int fd = -1;
  llvm::SmallString<256> tmpPath;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(target + ".fabc-tmp-%%%%%%%%", fd, tmpPath,
                                                          llvm::sys::fs::OF_None, 0600)) {
    err = target + ".fabc-tmp-*: " + ec.message();
    return false;
  }
  std::string tmp(tmpPath.str());
  bool ok = true;
  for (size_t done = 0; ok && done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      ok = false;
    else
      done += size_t(n);
  }
  if (ok)
    ok = ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
  if (!ok)
    err = tmp + ": " + std::strerror(errno);
  if (::close(fd) != 0 && ok) {
    err = tmp + ": " + std::strerror(errno);
    ok = false;
  }
  if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) {
    err = target + ": " + std::strerror(errno);
    ok = false;
  }
  if (!ok)
    ::unlink(tmp.c_str());
  return ok;
}

int fmtCommand(Options &r) {
  if (r.inputs.empty()) {
    fmt::print(stderr, "fabc: error: fmt takes one or more files, or '-' for stdin\n");
    return 2;
  }
  if (r.inPlace && (r.fmtCheck || r.fmtDiff)) {
    fmt::print(stderr, "fabc: error: fmt: -i and {} exclude each other\n", r.fmtCheck ? "--check" : "--diff");
    return 2;
  }
  int worst = 0;
  for (const std::string &path : r.inputs) {
    SourceManager sm;
    DiagEngine diags(sm);
    diags.setFormat(r.format);
    diags.setReport(r.report);
    diags.setColor(useColor(r));
    setDiagInput(path);
    std::string text, err;
    if (path == "-") {
      if (r.inPlace) {
        fmt::print(stderr, "fabc: error: fmt -i cannot rewrite stdin\n");
        return 2;
      }
      if (!readStream(0, r.maxFileSize, text, err)) {
        bool tooLarge = err.rfind("too large", 0) == 0;
        diags.report(tooLarge ? DiagCode::E0005 : DiagCode::E0001, {}, "cannot read '<stdin>': {}", err);
        diags.finish();
        worst = std::max(worst, tooLarge ? 1 : 2);
        continue;
      }
    } else if (!readSource(path, r.maxFileSize, text, err)) {
      diags.report(err.rfind("too large", 0) == 0 ? DiagCode::E0005 : DiagCode::E0001, {}, "cannot read '{}': {}", path, err);
      diags.finish();
      worst = std::max(worst, err.rfind("too large", 0) == 0 ? 1 : 2);
      continue;
    }
    uint32_t id = sm.add(path == "-" ? "<stdin>" : path, text);
    FormatOptions fo;
    fo.width = r.width;
    fo.parse.maxTokens = std::max<uint64_t>(r.maxFileSize / CompileOptions::kBytesPerToken, 1024);
    fo.parse.engine = r.parser;
    std::string out;
    bool ok = formatSource(id, sm, diags, out, fo);
    diags.finish();
    if (!ok) {
      worst = std::max(worst, 1);
      continue;
    }
    bool changed = out != text;
    std::string name = path == "-" ? "<stdin>" : path;
    if (r.fmtDiff) {
      // Like ruff format --diff and rustfmt --check: the diff on stdout, exit 1 if any.
      // --check with it adds nothing: --diff lists the files in its headers.
      if (changed) {
        std::string d = unifiedDiff(text, out, name, name);
        std::fwrite(d.data(), 1, d.size(), stdout);
        worst = std::max(worst, 1);
      }
    } else if (r.fmtCheck) {
      if (changed) {
        fmt::print("{}\n", path == "-" ? "<stdin>" : path);
        worst = std::max(worst, 1);
      }
    } else if (r.inPlace) {
      if (changed && !replaceFileAtomically(path, out, err)) {
        fmt::print(stderr, "fabc: error: cannot rewrite '{}': {}\n", path, err);
        worst = 2;
      }
    } else {
      std::fwrite(out.data(), 1, out.size(), stdout);
    }
  }
  std::fflush(stdout);
  if (std::ferror(stdout))
    return 2;
  return worst;
}

} // namespace fabc::cli
