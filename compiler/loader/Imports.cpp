#include "loader/Imports.h"
#include "diag/Diag.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <sys/stat.h>

namespace fabc {

bool readSource(const std::string &path, uint64_t maxSize, std::string &out, std::string &error) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return false;
  }
  if (uint64_t(st.st_size) > maxSize) {
    error = "too large: " + std::to_string(st.st_size) + " bytes, the limit is " + std::to_string(maxSize) +
            " (--max-file-size)";
    return false;
  }
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = std::strerror(errno);
    return false;
  }
  out.resize(size_t(st.st_size));
  size_t n = out.empty() ? 0 : std::fread(&out[0], 1, out.size(), f);
  std::fclose(f);
  out.resize(n);
  return true;
}

namespace {
bool isFile(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

class Loader {
public:
  Loader(const LoadOptions &o, SourceManager &sm, DiagEngine &d, ast::Context &c, LoadedProgram &out)
      : opts_(o), sm_(sm), diags_(d), ctx_(c), out_(out) {}

  ast::File *loadText(const std::string &name, std::string text, SourceRange from) {
    if (text.size() > opts_.maxFileSize) {
      diags_.report(DiagCode::E0005, from, "'{}' is {} bytes, more than the limit of {}", name,
                    text.size(), opts_.maxFileSize);
      return nullptr;
    }
    uint32_t id = sm_.add(name, std::move(text));
    ast::File *f = parseFile(id, sm_, diags_, ctx_, opts_.parse);
    if (!f)
      return nullptr;
    state_[name] = 1;
    for (const ast::Import &imp : f->imports)
      import(imp);
    state_[name] = 2;
    out_.files.push_back(f);
    return f;
  }

private:
  void import(const ast::Import &imp) {
    const std::string &p = imp.path;
    bool dotdot = p == ".." || p.rfind("../", 0) == 0 || p.find("/../") != std::string::npos ||
                  (p.size() >= 3 && p.compare(p.size() - 3, 3, "/..") == 0);
    if (p.empty() || p[0] == '/' || dotdot) {
      Diagnostic *d = diags_.report(DiagCode::E0012, imp.range, "import '{}' leaves the search path", p);
      DiagEngine::note(d, {}, "name the file relative to a search directory and add that directory with -I");
      return;
    }
    std::string found;
    for (const std::string &dir : opts_.searchPath) {
      std::string cand = dir.empty() ? p : dir + "/" + p;
      if (isFile(cand)) {
        found = cand;
        break;
      }
    }
    if (found.empty()) {
      Diagnostic *d = diags_.report(DiagCode::E0010, imp.range, "cannot find '{}' on the import path", p);
      std::string dirs;
      for (const std::string &dir : opts_.searchPath)
        dirs += (dirs.empty() ? "" : ", ") + dir;
      DiagEngine::note(d, {}, "searched: " + (dirs.empty() ? std::string("(no directories)") : dirs));
      return;
    }
    auto it = state_.find(found);
    if (it != state_.end()) {
      if (it->second == 1) {
        Diagnostic *d = diags_.report(DiagCode::E0011, imp.range, "import cycle: '{}' imports itself", found);
        DiagEngine::note(d, {}, "move the shared declarations into a file that both import");
      }
      return; // already loaded (or a cycle, reported)
    }
    std::string text, err;
    if (!readSource(found, opts_.maxFileSize, text, err)) {
      diags_.report(err.rfind("too large", 0) == 0 ? DiagCode::E0005 : DiagCode::E0001, imp.range,
                    "cannot read '{}': {}", found, err);
      return;
    }
    loadText(found, std::move(text), imp.range);
  }

  const LoadOptions &opts_;
  SourceManager &sm_;
  DiagEngine &diags_;
  ast::Context &ctx_;
  LoadedProgram &out_;
  std::map<std::string, int> state_; // 1 loading, 2 done
};
} // namespace

bool loadProgramText(const std::string &name, std::string text, const LoadOptions &opts, SourceManager &sm,
                     DiagEngine &diags, ast::Context &ctx, LoadedProgram &out) {
  Loader l(opts, sm, diags, ctx, out);
  out.main = l.loadText(name, std::move(text), {});
  return out.main && !diags.hasErrors();
}

bool loadProgram(const std::string &mainPath, const LoadOptions &opts, SourceManager &sm, DiagEngine &diags,
                 ast::Context &ctx, LoadedProgram &out) {
  std::string text, err;
  if (!readSource(mainPath, opts.maxFileSize, text, err)) {
    diags.report(err.rfind("too large", 0) == 0 ? DiagCode::E0005 : DiagCode::E0001, {}, "cannot read '{}': {}", mainPath, err);
    return false;
  }
  return loadProgramText(mainPath, std::move(text), opts, sm, diags, ctx, out);
}

} // namespace fabc
