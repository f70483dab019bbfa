// OutputDir: staging beside DIR, descriptor-relative writes, one-rename commit. The
// decisions are in docs/decisions/0019-output-directory-staged-beside-dir-and-swapped.md ("Output directory: staged beside DIR and swapped
// in"). Past 600 lines: staging, the two commit modes and their error paths share one
// object state; the descriptor helpers are already apart, in FsTree.
#include "backends/OutputDir.h"
#include "backends/FsTree.h"

#include <llvm/ADT/StringSet.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {
using namespace fstree;
namespace {

std::string describe(int err) {
  // O_NOFOLLOW on a directory component fails with ELOOP (or ENOTDIR): name the cause.
  return err == ELOOP ? "a symbolic link inside the output directory" : std::strerror(err);
}

mode_t umaskValue() {
  static const mode_t m = [] {
    mode_t u = ::umask(022);
    ::umask(u);
    return u;
  }();
  return m;
}

// The previous build's file list, if DIR holds a manifest fabc wrote.
std::optional<std::vector<std::string>> readManifest(int dirFd) {
  int fd = ::openat(dirFd, OutputDir::ManifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  std::string text;
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0 && text.size() < (size_t(256) << 20))
    text.append(buf, size_t(n));
  ::close(fd);
  if (n < 0 || text.rfind("# fabc ", 0) != 0)
    return std::nullopt;
  std::vector<std::string> rels;
  size_t pos = text.find('\n');
  while (pos != std::string::npos && pos + 1 < text.size()) {
    size_t e = text.find('\n', pos + 1);
    std::string line = text.substr(pos + 1, e == std::string::npos ? std::string::npos : e - pos - 1);
    if (!line.empty()) {
      if (!validRel(line) || line == OutputDir::ManifestName)
        return std::nullopt; // not a list fabc wrote: trust none of it
      rels.push_back(line);
    }
    pos = e;
  }
  return rels;
}

// True when the tree below `fd` holds only what a fabc build leaves: the manifest's
// files and their directories, the manifest, temporaries of older versions, and
// staging directories of killed builds (removed here).
bool onlyFabcFiles(int fd, const std::string &prefix, const llvm::StringSet<> &files, const llvm::StringSet<> &dirs) {
  for (auto &[name, type] : list(fd)) {
    std::string rel = prefix + name;
    struct stat st;
    if (::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
      return false;
    if (S_ISREG(st.st_mode)) {
      if (files.count(rel) || (prefix.empty() && (name == OutputDir::ManifestName || name == fstree::StagingMarker)) ||
          fstree::isTmpLeftover(name))
        continue;
      return false;
    }
    if (!S_ISDIR(st.st_mode))
      return false;
    if (prefix.empty() && fstree::isStagingName(name, ".fabc-staging-")) {
      if (fstree::removeIfLeftover(fd, name))
        continue; // a leftover, now removed
      return false; // a running build's, or not fabc's
    }
    if (!dirs.count(rel))
      return false;
    int sub = ::openat(fd, name.c_str(), DirFlags);
    if (sub < 0)
      return false;
    bool ok = onlyFabcFiles(sub, rel + "/", files, dirs);
    ::close(sub);
    if (!ok)
      return false;
  }
  return true;
}

std::string manifestText(const char *header, const std::vector<std::string> &rels) {
  std::string m = std::string("# fabc ") + FABC_VERSION + " " + header + "\n";
  for (const std::string &r : rels)
    m += r + "\n";
  return m;
}

} // namespace

OutFile::~OutFile() {
  if (f_)
    std::fclose(f_);
}

bool OutFile::reopen() {
  if (failed_ || !owner_)
    return false;
  int fd = owner_->openStaged(rel_, O_WRONLY | O_APPEND);
  f_ = fd < 0 ? nullptr : ::fdopen(fd, "ab");
  if (!f_) {
    fail(errno);
    if (fd >= 0)
      ::close(fd);
    return false;
  }
  std::setvbuf(f_, nullptr, _IOFBF, 256 << 10);
  owner_->noteOpen(this);
  return true;
}

void OutFile::writeDirect(std::string_view s) {
  if (std::fflush(f_) != 0) {
    fail(errno);
    return;
  }
  if (!writeAll(::fileno(f_), s))
    fail(errno);
}

void OutFile::park() {
  if (!f_)
    return;
  if (std::fflush(f_) != 0 || std::ferror(f_))
    fail(errno);
  if (std::fclose(f_) != 0)
    fail(errno);
  f_ = nullptr;
}

void OutputDir::noteOpen(OutFile *f) {
  open_.push_back(f);
  if (open_.size() <= MaxOpenFiles)
    return;
  // The oldest entries may have been parked already (commit, abort): skip them.
  size_t i = 0;
  while (i < open_.size() && (open_[i] == f || !open_[i]->f_))
    ++i;
  if (i < open_.size()) {
    open_[i]->park();
    open_.erase(open_.begin() + long(i));
  }
  open_.erase(std::remove_if(open_.begin(), open_.end(), [](OutFile *x) { return !x->f_; }), open_.end());
}

bool OutputDir::fail(const std::string &what, int err) {
  error_ = what + ": " + describe(err);
  return false;
}

std::string OutputDir::stagingPath() const {
  if (stagingName_.empty())
    return "";
  return (parentPath_ == "/" ? "" : parentPath_) + "/" + stagingName_;
}

// Makes `prefix` + random name below fd, locked; retried when a concurrent build's
// cleanup took it between mkdirat and flock. Armed for the signal handler before it
// exists: a signal at any point after mkdirat finds it.
static int makeStaging(int fd, const std::string &prefix, std::string &name, int &slot) {
  for (int attempt = 0; attempt < 32; ++attempt) {
    name = prefix + fstree::randomName();
    fstree::disarm(slot);
    slot = fstree::arm(fd, name);
    if (::mkdirat(fd, name.c_str(), 0700) != 0) {
      if (errno == EEXIST)
        continue;
      int err = errno;
      fstree::disarm(slot);
      slot = -1;
      errno = err;
      return -1;
    }
    if (fstree::dying()) { // the handler may have looked before mkdirat: not left behind
      ::unlinkat(fd, name.c_str(), AT_REMOVEDIR);
      fstree::disarm(slot);
      slot = -1;
      errno = EINTR;
      return -1;
    }
    int root = ::openat(fd, name.c_str(), DirFlags);
    if (root < 0)
      continue;
    struct stat a, b;
    if (::flock(root, LOCK_EX | LOCK_NB) == 0 && ::fstat(root, &a) == 0 &&
        ::fstatat(fd, name.c_str(), &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev) {
      if (!fstree::markStaging(root)) { // unmarked, no later build would remove it if killed
        int err = errno;
        ::close(root);
        ::unlinkat(fd, name.c_str(), AT_REMOVEDIR);
        fstree::disarm(slot);
        slot = -1;
        errno = err;
        return -1;
      }
      return root;
    }
    ::close(root);
  }
  fstree::disarm(slot);
  slot = -1;
  errno = EEXIST;
  return -1;
}

bool OutputDir::begin() {
  if (begun_)
    return rootFd_ >= 0;
  begun_ = true;
  std::string p = dir_.empty() ? "." : dir_;
  while (p.size() > 1 && p.back() == '/')
    p.pop_back();
  std::string canon;
  struct stat st;
  auto real = [&](const std::string &path) {
    char *rp = ::realpath(path.c_str(), nullptr);
    if (!rp)
      return false;
    canon = rp;
    std::free(rp);
    return true;
  };
  if (::lstat(p.c_str(), &st) == 0) { // a symbolic link to a directory: its target is DIR
    if (!real(p))
      return fail(dir_, errno);
    if (::stat(canon.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return fail(dir_, ENOTDIR);
  } else if (errno == ENOENT) {
    size_t slash = p.rfind('/');
    std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : p.substr(0, slash);
    std::string base = slash == std::string::npos ? p : p.substr(slash + 1);
    for (size_t i = 1; i <= parent.size(); ++i) { // DIR's missing parents
      if (i < parent.size() && parent[i] != '/')
        continue;
      std::string d = parent.substr(0, i);
      if (::mkdir(d.c_str(), 0777) == 0)
        madePaths_.push_back(d);
      else if (errno != EEXIST)
        return fail(d, errno);
    }
    if (base == "." || base == "..") {
      if (!real(p))
        return fail(dir_, errno);
    } else {
      if (!real(parent))
        return fail(parent, errno);
      canon = (canon == "/" ? "" : canon) + "/" + base;
    }
  } else {
    return fail(dir_, errno);
  }
  size_t slash = canon.rfind('/');
  parentPath_ = slash == 0 ? "/" : canon.substr(0, slash);
  name_ = canon.substr(slash + 1);
  inside_ = name_.empty();
  parentFd_ = ::open(parentPath_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parentFd_ < 0)
    return fail(parentPath_, errno);
  // DIR mounted on its own (a container volume): no rename crosses into it from beside.
  struct stat ps, ds;
  if (!inside_ && ::fstatat(parentFd_, name_.c_str(), &ds, AT_SYMLINK_NOFOLLOW) == 0 && ::fstat(parentFd_, &ps) == 0 &&
      ds.st_dev != ps.st_dev)
    inside_ = true;
  if (!inside_) {
    std::string prefix = "." + name_ + ".fabc-";
    fstree::removeUnlocked(parentFd_, prefix);
    rootFd_ = makeStaging(parentFd_, prefix, stagingName_, slot_);
    if (rootFd_ < 0 && errno != EACCES && errno != EPERM && errno != EROFS && errno != ENAMETOOLONG)
      return fail(parentPath_, errno);
    inside_ = rootFd_ < 0; // the parent is not writable: stage inside DIR
  }
  if (inside_) {
    int dirFd = name_.empty() ? ::open("/", DirFlags) : ::openat(parentFd_, name_.c_str(), DirFlags);
    if (dirFd < 0 && errno == ENOENT) {
      if (::mkdirat(parentFd_, name_.c_str(), 0777) != 0)
        return fail(dir_, errno);
      madePaths_.push_back(canon);
      dirFd = ::openat(parentFd_, name_.c_str(), DirFlags);
    }
    if (dirFd < 0)
      return fail(dir_, errno);
    ::close(parentFd_);
    parentFd_ = dirFd;
    parentPath_ = canon;
    fstree::removeUnlocked(parentFd_, ".fabc-staging-");
    rootFd_ = makeStaging(parentFd_, ".fabc-staging-", stagingName_, slot_);
    if (rootFd_ < 0)
      return fail(dir_, errno);
  }
  return true;
}

int OutputDir::stagedDir(std::string_view relDir, bool make, std::string *failed) {
  if (cacheFd_ >= 0 && relDir == cacheRel_)
    return cacheFd_;
  if (beforeEnterHook)
    beforeEnterHook(std::string(relDir));
  if (cacheFd_ >= 0 && cacheFd_ != rootFd_)
    ::close(cacheFd_);
  cacheFd_ = -1;
  std::string_view failedAt;
  int fd = walk(rootFd_, relDir, make, &failedAt);
  if (fd < 0) {
    if (failed)
      *failed = dir_ + "/" + std::string(failedAt);
    return -1;
  }
  cacheFd_ = fd;
  cacheRel_ = std::string(relDir);
  return fd;
}

int OutputDir::openStaged(const std::string &rel, int flags, std::string *failed, mode_t mode) {
  auto [dir, base] = splitRel(rel);
  int dfd = stagedDir(dir, flags & O_CREAT, failed);
  if (dfd < 0)
    return -1;
  if (failed)
    *failed = dir_ + "/" + rel;
  return ::openat(dfd, std::string(base).c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

OutFile *OutputDir::open(std::string_view rel, Access access) {
  std::string r(rel);
  if (!validRel(r) || r == ManifestName) {
    error_ = "output path '" + r + "' leaves the output directory";
    return nullptr;
  }
  std::string final = dir_ + "/" + r;
  if (!begin()) {
    abort();
    return nullptr;
  }
  // O_EXCL: never over another file of this build.
  std::string failed = final;
  int fd = openStaged(r, O_WRONLY | O_CREAT | O_EXCL, &failed, access == Access::OwnerOnly ? 0600 : 0666);
  FILE *f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f) {
    int err = errno;
    if (fd >= 0)
      ::close(fd);
    fail(failed, err);
    return nullptr;
  }
  std::setvbuf(f, nullptr, _IOFBF, 256 << 10);
  files_.push_back(std::make_unique<OutFile>(f, r, final));
  files_.back()->owner_ = this;
  noteOpen(files_.back().get());
  return files_.back().get();
}

void OutputDir::closeFds() {
  if (cacheFd_ >= 0 && cacheFd_ != rootFd_)
    ::close(cacheFd_);
  cacheFd_ = -1;
  if (rootFd_ >= 0)
    ::close(rootFd_); // releases the flock
  rootFd_ = -1;
  fstree::disarm(slot_);
  slot_ = -1;
  if (parentFd_ >= 0)
    ::close(parentFd_);
  parentFd_ = -1;
}

void OutputDir::abort() {
  for (auto &f : files_)
    if (f->f_) {
      std::fclose(f->f_);
      f->f_ = nullptr;
    }
  files_.clear();
  open_.clear();
  if (!stagingName_.empty() && parentFd_ >= 0)
    fstree::removeAt(parentFd_, stagingName_.c_str()); // still locked: no other build touches it
  stagingName_.clear();
  closeFds();
  for (auto it = madePaths_.rbegin(); it != madePaths_.rend(); ++it)
    ::rmdir(it->c_str()); // only if still empty: a failed build leaves no directory behind
  madePaths_.clear();
}

std::vector<std::string> OutputDir::written() const {
  std::vector<std::string> r;
  for (auto &f : files_)
    r.push_back(f->final_);
  return r;
}

bool OutputDir::commit() {
  if (!begin()) {
    abort();
    return false;
  }
  for (auto &f : files_) {
    f->park();
    if (f->failed_) {
      fail(f->final_, f->err_);
      abort();
      return false;
    }
  }
  open_.clear();
  std::vector<std::string> rels;
  for (auto &f : files_)
    rels.push_back(f->rel_);
  std::sort(rels.begin(), rels.end());
  // What is committed is what was written: each file still where the build put it,
  // reached without a symbolic link (another process may have changed the tree).
  if (cacheFd_ >= 0 && cacheFd_ != rootFd_)
    ::close(cacheFd_);
  cacheFd_ = -1;
  for (const std::string &rel : rels) {
    auto [dir, base] = splitRel(rel);
    std::string failed = dir_ + "/" + rel;
    int fd = stagedDir(dir, false, &failed);
    struct stat st;
    int err = fd < 0 ? errno : ::fstatat(fd, std::string(base).c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ? errno
                             : S_ISLNK(st.st_mode)                                                       ? ELOOP
                             : S_ISREG(st.st_mode)                                                       ? 0
                                                                                                         : EINVAL;
    if (err) {
      fail(failed, err);
      abort();
      return false;
    }
  }
  // The manifest is written while staging: a full disk fails here, before DIR changes.
  if (!writeFileAt(rootFd_, ManifestName, manifestText("output manifest: the files of one complete build", rels))) {
    fail(dir_ + "/" + ManifestName, errno);
    abort();
    return false;
  }
  // One commit into DIR at a time (builds by other processes wait here).
  while (::flock(parentFd_, LOCK_EX) != 0 && errno == EINTR) {
  }
  // SIGTERM now waits until DIR is consistent (unless it came first: then no commit).
  bool ok = fstree::defer() ? commitLocked(rels) : fail(dir_, EINTR);
  ::flock(parentFd_, LOCK_UN);
  if (ok) {
    if (oldTree_) {
      // DIR is complete: removing the previous tree (slow for thousands of files) holds
      // neither the lock nor the signals; a kill now leaves it to the next build.
      fstree::undefer();
      fstree::removeAt(parentFd_, stagingName_.c_str());
    }
    stagingName_.clear();
    madePaths_.clear();
  } else {
    std::string err = error_;
    auto keep = std::move(files_);
    abort();
    files_ = std::move(keep);
    error_ = err;
  }
  closeFds();
  fstree::undefer(); // a signal that came meanwhile is acted on now
  return ok;
}

bool OutputDir::commitLocked(const std::vector<std::string> &rels) {
  if (cacheFd_ >= 0 && cacheFd_ != rootFd_)
    ::close(cacheFd_);
  cacheFd_ = -1;
  if (inside_)
    return commitInPlace(parentFd_, rels, readManifest(parentFd_).value_or(std::vector<std::string>()));
  // Once the staging directory is DIR, its marker goes (rootFd_ follows the rename; a
  // kill in between leaves it in DIR, where the next build takes it for fabc's own).
  auto unmark = [&] {
    ::unlinkat(rootFd_, fstree::StagingMarker, 0);
    return true;
  };
  struct stat st;
  if (::fstatat(parentFd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT)
      return fail(dir_, errno);
    ::fchmod(rootFd_, 0777 & ~umaskValue());
    if (::renameat2(parentFd_, stagingName_.c_str(), parentFd_, name_.c_str(), RENAME_NOREPLACE) == 0 ||
        (errno == EINVAL && ::renameat(parentFd_, stagingName_.c_str(), parentFd_, name_.c_str()) == 0))
      return unmark();
    return fail(dir_, errno);
  }
  if (!S_ISDIR(st.st_mode))
    return fail(dir_, S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR); // it changed under the build
  int dirFd = ::openat(parentFd_, name_.c_str(), DirFlags);
  if (dirFd < 0)
    return fail(dir_, errno);
  std::vector<std::string> old = readManifest(dirFd).value_or(std::vector<std::string>());
  llvm::StringSet<> files, dirs;
  for (const std::string &r : old) {
    files.insert(r);
    for (size_t s = r.find('/'); s != std::string::npos; s = r.find('/', s + 1))
      dirs.insert(r.substr(0, s));
  }
  if (!onlyFabcFiles(dirFd, "", files, dirs)) { // someone else's files too: keep them
    bool ok = commitInPlace(dirFd, rels, old);
    ::close(dirFd);
    return ok;
  }
  // The previous tree gets the marker before it leaves DIR's name, so that a kill at any
  // point after leaves it to the next build (a kill before: a marker in DIR, which
  // onlyFabcFiles counts as fabc's own). dirFd follows it wherever it is renamed.
  fstree::markStaging(dirFd);
  auto keepOld = [&](int err) {
    ::unlinkat(dirFd, fstree::StagingMarker, 0);
    ::close(dirFd);
    return fail(dir_, err);
  };
  ::fchmod(rootFd_, st.st_mode & 07777);
  if (::renameat2(parentFd_, stagingName_.c_str(), parentFd_, name_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS)
      return keepOld(errno);
    // No exchange on this file system: two renames, DIR briefly absent between them.
    std::string aside = "." + name_ + ".fabc-" + fstree::randomName();
    if (::renameat(parentFd_, name_.c_str(), parentFd_, aside.c_str()) != 0)
      return keepOld(errno);
    if (::renameat(parentFd_, stagingName_.c_str(), parentFd_, name_.c_str()) != 0) {
      int err = errno;
      ::renameat(parentFd_, aside.c_str(), parentFd_, name_.c_str());
      return keepOld(err);
    }
    ::close(dirFd);
    unmark();
    fstree::removeAt(parentFd_, aside.c_str());
    return true;
  }
  ::close(dirFd);
  unmark();
  oldTree_ = true; // the previous build, now under the staging name: removed after the lock
  return true;
}

bool OutputDir::commitInPlace(int dirFd, const std::vector<std::string> &rels, const std::vector<std::string> &old) {
  // 1. Every conflict is found before anything moves: a failed build changes nothing.
  llvm::StringSet<> checked;
  for (const std::string &rel : rels) {
    auto [dir, base] = splitRel(rel);
    bool missing = false;
    for (size_t e = 0; !missing && e <= dir.size(); ++e) {
      if (dir.empty() || (e < dir.size() && dir[e] != '/'))
        continue;
      std::string prefix(dir.substr(0, e));
      if (!checked.insert(prefix).second)
        continue;
      struct stat st;
      if (::fstatat(dirFd, prefix.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        missing = true;
      else if (S_ISLNK(st.st_mode))
        return fail(dir_ + "/" + prefix, ELOOP);
      else if (!S_ISDIR(st.st_mode))
        return fail(dir_ + "/" + prefix, ENOTDIR);
    }
    struct stat st;
    if (!missing && ::fstatat(dirFd, rel.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
      return fail(dir_ + "/" + rel, EISDIR);
  }
  // 2. Until the end, DIR's manifest lists the files of both builds: an interrupted
  // commit leaves no file of either unaccounted for, and no claim of completeness.
  std::vector<std::string> both = rels;
  both.insert(both.end(), old.begin(), old.end());
  std::sort(both.begin(), both.end());
  both.erase(std::unique(both.begin(), both.end()), both.end());
  const char *partial = ".fabc-manifest.partial";
  if (!writeFileAt(rootFd_, partial, manifestText("output manifest (incomplete: a build was interrupted)", both)) ||
      ::renameat(rootFd_, partial, dirFd, ManifestName) != 0)
    return fail(dir_ + "/" + ManifestName, errno);
  // 3. Move each file in, relative to descriptors opened without following links.
  int dst = -1;
  std::string dstRel = "\x01";
  llvm::StringSet<> scanned;
  for (const std::string &rel : rels) {
    auto [dir, base] = splitRel(rel);
    if (dir != dstRel) {
      if (dst >= 0 && dst != dirFd)
        ::close(dst);
      std::string_view failedAt;
      dst = walk(dirFd, dir, true, &failedAt);
      if (dst < 0)
        return fail(dir_ + "/" + std::string(failedAt), errno);
      dstRel = std::string(dir);
      for (std::string_view d = dir;; d = splitRel(d).first) { // an older fabc's temporaries on the way
        if (scanned.insert(d).second)
          if (int fd = walk(dirFd, d, false); fd >= 0) {
            for (auto &[name, type] : list(fd))
              if (fstree::isTmpLeftover(name) && (type == DT_REG || type == DT_UNKNOWN))
                ::unlinkat(fd, name.c_str(), 0);
            if (fd != dirFd)
              ::close(fd);
          }
        if (d.empty())
          break;
      }
    }
    int src = stagedDir(dir, false);
    std::string b(base);
    if (src < 0 || ::renameat(src, b.c_str(), dst, b.c_str()) != 0) {
      int err = errno;
      if (dst != dirFd)
        ::close(dst);
      return fail(dir_ + "/" + rel, err);
    }
  }
  if (dst >= 0 && dst != dirFd)
    ::close(dst);
  // 4. The previous build's files this one no longer writes, and their emptied directories.
  llvm::StringSet<> now;
  for (const std::string &r : rels)
    now.insert(r);
  std::vector<std::string> emptied;
  for (const std::string &rel : old) {
    if (now.count(rel))
      continue;
    auto [dir, base] = splitRel(rel);
    int fd = walk(dirFd, dir, false);
    if (fd < 0)
      continue;
    struct stat st;
    std::string b(base);
    if (::fstatat(fd, b.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      ::unlinkat(fd, b.c_str(), 0);
    if (fd != dirFd)
      ::close(fd);
    for (std::string_view d = dir; !d.empty(); d = splitRel(d).first)
      emptied.emplace_back(d);
  }
  std::sort(emptied.begin(), emptied.end(), [](const std::string &a, const std::string &b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b; // deepest first
  });
  emptied.erase(std::unique(emptied.begin(), emptied.end()), emptied.end());
  for (const std::string &d : emptied) {
    auto [parent, base] = splitRel(d);
    int fd = walk(dirFd, parent, false);
    if (fd < 0)
      continue;
    ::unlinkat(fd, std::string(base).c_str(), AT_REMOVEDIR); // fails, harmlessly, unless empty
    if (fd != dirFd)
      ::close(fd);
  }
  // 5. The manifest last: DIR now holds a complete build.
  if (::renameat(rootFd_, ManifestName, dirFd, ManifestName) != 0)
    return fail(dir_ + "/" + ManifestName, errno);
  fstree::removeAt(parentFd_, stagingName_.c_str()); // empty directories by now
  return true;
}

} // namespace fabc
