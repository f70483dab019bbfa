#include "diag/DiagCodes.h"
#include "loader/Imports.h"
#include "loader/Streams.h"
#include "diag/Diag.h"

#include <cerrno>
#include <cstdio>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {

namespace {
// Reads an open descriptor: a regular file of at most maxSize bytes. O_NONBLOCK at open
// keeps a FIFO from blocking; fstat on the descriptor (not the path) leaves no window
// between the check and the read.
// One read(2), retried when a signal interrupts it; the message of errno on a failure.
ssize_t readOnce(int fd, char *p, size_t n, std::string &error) {
  ssize_t r;
  while ((r = ::read(fd, p, n)) < 0 && errno == EINTR) {
  }
  if (r < 0)
    error = std::strerror(errno);
  return r;
}

bool readFd(int fd, uint64_t maxSize, std::string &out, std::string &error) {
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
    return false;
  }
  if (uint64_t(st.st_size) > maxSize) {
    error = "too large: " + std::to_string(st.st_size) + " bytes, the limit is " + std::to_string(maxSize) +
            " (--max-file-size)";
    return false;
  }
  out.resize(size_t(st.st_size));
  size_t n = 0;
  while (n < out.size()) {
    ssize_t r = readOnce(fd, &out[n], out.size() - n, error);
    if (r < 0)
      return false;
    if (r == 0)
      break;
    n += size_t(r);
  }
  out.resize(n);
  return true;
}

struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
};

std::string realPath(const std::string &p) {
  char buf[PATH_MAX];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : std::string();
}
} // namespace

bool readStream(int fd, uint64_t maxSize, std::string &out, std::string &error) {
  // Reads in blocks until the end or one byte past the limit: a stream has no size to check
  // first, and an endless one (/dev/zero) must end in the limit's error, not fill memory.
  out.clear();
  char buf[65536];
  for (;;) {
    size_t want = size_t(std::min<uint64_t>(sizeof buf, maxSize + 1 - out.size()));
    ssize_t r = readOnce(fd, buf, want, error);
    if (r < 0)
      return false;
    if (r == 0)
      return true;
    out.append(buf, size_t(r));
    if (out.size() > maxSize) {
      error = "too large: more than " + std::to_string(maxSize) + " bytes, the limit (--max-file-size)";
      out.clear();
      return false;
    }
  }
}

// A file named on the command line: a regular file, or a stream (/dev/stdin, a pipe,
// <(process substitution), a FIFO) read to its end; at most maxSize bytes either way.
bool readSource(const std::string &path, uint64_t maxSize, std::string &out, std::string &error) {
  Fd f(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (f.fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat st;
  if (::fstat(f.fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode))) {
    // A pipe or device: opened without blocking (a FIFO with no writer), read blocking.
    int flags = ::fcntl(f.fd, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
      error = std::strerror(errno);
      return false;
    }
    return readStream(f.fd, maxSize, out, error);
  }
  return readFd(f.fd, maxSize, out, error);
}

namespace {
bool isFile(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Opens `rel` below the directory `root` (both real paths, `rel` without '.', '..' or
// symbolic links) one component at a time with O_NOFOLLOW, so that nothing swapped in
// after realpath() can lead the read outside `root`.
int openBelow(const std::string &root, const std::string &rel) {
  int dir = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  size_t from = 0;
  while (dir >= 0) {
    size_t slash = rel.find('/', from);
    bool last = slash == std::string::npos;
    std::string part = rel.substr(from, last ? std::string::npos : slash - from);
    int next = ::openat(dir, part.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY));
    int saved = errno;
    ::close(dir);
    errno = saved;
    if (last || next < 0)
      return next;
    dir = next;
    from = slash + 1;
  }
  return -1;
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
    // An import is known by its real path (key_, set by import()); the main file by its
    // real path too when it has one, so that importing it back is a cycle.
    std::string key = key_.empty() ? realPath(name) : std::move(key_);
    key_.clear();
    if (key.empty())
      key = name;
    uint32_t id = sm_.add(name, std::move(text));
    unsigned before = diags_.errors();
    ast::File *f = parseFile(id, sm_, diags_, ctx_, opts_.parse);
    bool catalog = catalog_;
    catalog_ = false;
    if (!f)
      return nullptr;
    f->catalog = catalog;
    state_[key] = 1;
    ids_[key] = id;
    // A file with syntax errors keeps the statements that parse (the language server
    // indexes them), but its imports are not followed but for the language server:
    // nothing is compiled past a syntax error, and the errors of the files it imports
    // would bury it.
    if (diags_.errors() == before || opts_.importsPastSyntaxErrors)
      for (ast::Import &imp : f->imports)
        import(imp);
    state_[key] = 2;
    out_.files.push_back(f);
    return f;
  }

private:
  void import(ast::Import &imp) {
    const std::string p(imp.path);
    bool dotdot = p == ".." || p.rfind("../", 0) == 0 || p.find("/../") != std::string::npos ||
                  (p.size() >= 3 && p.compare(p.size() - 3, 3, "/..") == 0);
    if (p.empty() || p[0] == '/' || dotdot) {
      Diagnostic *d = diags_.report(DiagCode::E0012, imp.range, "import '{}' leaves the search path", p);
      DiagEngine::note(d, {}, "name the file relative to a search directory and add that directory with -I");
      return;
    }
    // The first search directory that holds the name. Files are known by their real
    // path: "lib.fab" and "./lib.fab" are one file, loaded once, and a name that a
    // symbolic link leads out of its search directory is refused unread.
    std::string found, real, root;
    for (const std::string &dir : opts_.searchPath) {
      std::string cand = dir.empty() ? p : dir + "/" + p;
      if (!isFile(cand))
        continue;
      found = cand;
      root = realPath(dir.empty() ? "." : dir);
      real = realPath(cand);
      break;
    }
    if (found.empty()) {
      Diagnostic *d = diags_.report(DiagCode::E0010, imp.range, "cannot find '{}' on the import path", p);
      std::string dirs;
      for (const std::string &dir : opts_.searchPath)
        dirs += (dirs.empty() ? "" : ", ") + dir;
      DiagEngine::note(d, {}, "searched: " + (dirs.empty() ? std::string("(no directories)") : dirs));
      return;
    }
    bool inside = !root.empty() && real.size() > root.size() + (root == "/" ? 0 : 1) &&
                  real.compare(0, root.size(), root) == 0 && (root == "/" || real[root.size()] == '/');
    if (!inside) {
      Diagnostic *d = diags_.report(DiagCode::E0012, imp.range, "import '{}' leaves the search path", p);
      DiagEngine::note(d, {}, "'" + found + "' is a symbolic link (or lies under one) to a file outside its search "
                              "directory; fabc reads imports only inside the search path");
      return;
    }
    auto it = state_.find(real);
    if (it != state_.end()) {
      imp.file = ids_[real];
      if (it->second == 1) {
        Diagnostic *d = diags_.report(DiagCode::E0011, imp.range, "import cycle: '{}' imports itself", found);
        DiagEngine::note(d, {}, "move the shared declarations into a file that both import");
      }
      return; // already loaded (or a cycle, reported)
    }
    std::string text, err;
    bool overlaid = opts_.overlay && opts_.overlay(real, text);
    Fd f(overlaid ? -1 : openBelow(root, real.substr(root == "/" ? 1 : root.size() + 1)));
    if (!overlaid && (f.fd < 0 || !readFd(f.fd, opts_.maxFileSize, text, err))) {
      if (f.fd < 0)
        err = errno == ELOOP ? "a symbolic link changed while it was read" : std::strerror(errno);
      diags_.report(err.rfind("too large", 0) == 0 ? DiagCode::E0005 : DiagCode::E0001, imp.range,
                    "cannot read '{}': {}", found, err);
      return;
    }
    key_ = real;
    catalog_ = false;
    for (const std::string &c : opts_.catalogDirs)
      catalog_ |= !c.empty() && realPath(c) == root;
    uint32_t id = uint32_t(sm_.size()); // the id loadText gives it, if it gets that far
    loadText(found, std::move(text), imp.range);
    if (sm_.size() > id)
      imp.file = id;
  }

  const LoadOptions &opts_;
  SourceManager &sm_;
  DiagEngine &diags_;
  ast::Context &ctx_;
  LoadedProgram &out_;
  bool catalog_ = false; // the file import() is about to load is in a catalog directory
  std::map<std::string, int> state_; // by real path: 1 loading, 2 done
  std::map<std::string, uint32_t> ids_; // by real path: the file's SourceManager id
  std::string key_;                   // the real path of the file import() hands to loadText
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

ast::File *parseDefines(const std::vector<std::pair<std::string, std::string>> &defines, SourceManager &sm,
                        DiagEngine &diags, ast::Context &ctx) {
  std::string text;
  for (auto &d : defines)
    text += "param " + d.first + " = " + d.second + ";\n";
  uint32_t id = sm.add("<command line>", text);
  unsigned before = diags.errors();
  ast::File *f = parseFile(id, sm, diags, ctx);
  if (!f || diags.errors() != before)
    return nullptr;
  // Exactly one statement per line, the param of that line's -D: anything else came
  // from inside a VALUE ("2; import ...", "2; param other = 3").
  auto lineOf = [&](SourceRange r) { return sm.lineCol(r.begin).line; };
  auto reject = [&](SourceRange r, size_t line) {
    const auto &d = defines[std::min(line, defines.size()) - 1];
    Diagnostic *dg = diags.report(DiagCode::E0014, r, "-D {}: '{}' is not one expression", d.first, d.second);
    DiagEngine::note(dg, {}, "-D NAME=VALUE takes one Fabric expression, e.g. -D su=2 or -D speed=\"400 Gb/s\"");
    return nullptr;
  };
  if (!f->imports.empty())
    return reject(f->imports[0].range, lineOf(f->imports[0].range));
  if (!f->models.empty())
    return reject(f->models[0]->range, lineOf(f->models[0]->range));
  if (!f->templates.empty())
    return reject(f->templates[0]->range, lineOf(f->templates[0]->range));
  if (!f->functions.empty())
    return reject(f->functions[0]->range, lineOf(f->functions[0]->range));
  if (!f->fabrics.empty())
    return reject(f->fabrics[0]->range, lineOf(f->fabrics[0]->range));
  std::vector<uint8_t> seen(defines.size() + 1, 0);
  for (const ast::Stmt *st : f->topLevel) {
    size_t line = lineOf(st->range);
    if (line == 0 || line > defines.size())
      return reject(st->range, defines.size());
    if (st->kind != ast::Stmt::Param || st->name() != defines[line - 1].first || seen[line]++)
      return reject(st->range, line);
  }
  return f;
}

} // namespace fabc
