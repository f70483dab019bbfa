#include "backends/FsTree.h"

#include <atomic>
#include <cstdint>
#include <vector>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fabc::fstree {
namespace {

struct Dirent64 { // the kernel's linux_dirent64
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

bool dots(const char *n) { return n[0] == '.' && (n[1] == 0 || (n[1] == '.' && n[2] == 0)); }

void removeTree(int dirFd, const char *name, int depth) {
  if (::unlinkat(dirFd, name, 0) == 0 || errno == ENOENT)
    return; // a file or a symbolic link (never followed)
  int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  // Entries removed while reading may hide others on some file systems: read again
  // until a pass removes nothing. The depth bound keeps the stack small (a tree fabc
  // writes is 4 levels deep; a deeper one is left for the next build).
  for (int pass = 0; depth < 48 && pass < 8; ++pass) {
    bool removed = false;
    ::lseek(fd, 0, SEEK_SET);
    alignas(8) char buf[2048];
    long n;
    while ((n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
      for (long off = 0; off < n;) {
        auto *d = reinterpret_cast<Dirent64 *>(buf + off);
        off += d->d_reclen;
        if (!dots(d->d_name)) {
          removeTree(fd, d->d_name, depth + 1);
          removed = true;
        }
      }
    if (!removed)
      break;
  }
  ::close(fd);
  ::unlinkat(dirFd, name, AT_REMOVEDIR);
}

// The signal-time registry: fixed storage, read by the handler without locks.
struct Slot {
  volatile sig_atomic_t armed = 0;
  std::atomic<bool> used{false};
  int fd = -1;
  long tid = 0; // the thread that writes into it
  char name[256] = {};
};
Slot slots[8];
// Idle, Committing (a signal waits) or Dying (the handler removes the staging tree, and
// no commit may start): one atomic state, so the handler and a commit on another thread
// never both proceed.
enum { Idle, Committing, Dying };
std::atomic<int> state{Idle};
static_assert(std::atomic<int>::is_always_lock_free, "used in a signal handler");
volatile sig_atomic_t pending = 0;
const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

void cleanupArmed() {
  for (Slot &s : slots)
    if (s.armed) {
      s.armed = 0;
      removeTree(s.fd, s.name, 0);
    }
}

void dieOf(int sig) {
  struct sigaction dfl;
  std::memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig); // blocked while in the handler: delivered, with the default action, on return
}

void onSignal(int sig) {
  int saved = errno;
  // Run where the staging directory is written: on another thread the writer would go
  // on creating files while this removes them. The signal is passed on to that thread.
  long self = ::syscall(SYS_gettid);
  for (Slot &s : slots)
    if (s.armed && s.tid != self && ::syscall(SYS_tgkill, ::getpid(), s.tid, sig) == 0) {
      errno = saved;
      return;
    }
  int expected = Idle;
  if (!state.compare_exchange_strong(expected, Dying) && expected == Committing) {
    pending = sig;
    errno = saved;
    return;
  }
  cleanupArmed();
  dieOf(sig);
  errno = saved;
}

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < sizeof caught / sizeof *caught; ++i) {
      struct sigaction old;
      if (::sigaction(caught[i], nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
        continue; // ignored (nohup) or handled by the embedding program: leave it
      struct sigaction sa;
      std::memset(&sa, 0, sizeof sa);
      sa.sa_handler = onSignal;
      sigfillset(&sa.sa_mask);
      sa.sa_flags = SA_RESTART;
      ::sigaction(caught[i], &sa, nullptr);
    }
  });
}

} // namespace

bool validRel(std::string_view r) {
  if (r.empty() || r.front() == '/' || r.back() == '/')
    return false;
  for (size_t start = 0; start <= r.size();) {
    size_t e = r.find('/', start);
    if (e == std::string_view::npos)
      e = r.size();
    std::string_view c = r.substr(start, e - start);
    if (c.empty() || c == "." || c == "..")
      return false;
    start = e + 1;
  }
  return true;
}

std::pair<std::string_view, std::string_view> splitRel(std::string_view rel) {
  size_t slash = rel.rfind('/');
  if (slash == std::string_view::npos)
    return {std::string_view(), rel};
  return {rel.substr(0, slash), rel.substr(slash + 1)};
}

int walk(int root, std::string_view relDir, bool make, std::string_view *failedAt) {
  int fd = root;
  for (size_t start = 0; start < relDir.size();) {
    size_t e = relDir.find('/', start);
    if (e == std::string_view::npos)
      e = relDir.size();
    std::string comp(relDir.substr(start, e - start));
    if (make && ::mkdirat(fd, comp.c_str(), 0777) != 0 && errno != EEXIST) {
      int err = errno;
      if (fd != root)
        ::close(fd);
      if (failedAt)
        *failedAt = relDir.substr(0, e);
      errno = err;
      return -1;
    }
    int next = ::openat(fd, comp.c_str(), DirFlags);
    int err = errno;
    struct stat st; // O_DIRECTORY answers ENOTDIR for a symbolic link: say which it is
    if (next < 0 && err == ENOTDIR && ::fstatat(fd, comp.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      err = ELOOP;
    if (fd != root)
      ::close(fd);
    if (next < 0) {
      if (failedAt)
        *failedAt = relDir.substr(0, e);
      errno = err;
      return -1;
    }
    fd = next;
    start = e + 1;
  }
  return fd;
}

std::vector<std::pair<std::string, unsigned char>> list(int dirFd) {
  std::vector<std::pair<std::string, unsigned char>> r;
  int dup = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
  DIR *d = dup < 0 ? nullptr : ::fdopendir(dup);
  if (!d) {
    if (dup >= 0)
      ::close(dup);
    return r;
  }
  while (dirent *e = ::readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
      r.emplace_back(e->d_name, e->d_type);
  ::closedir(d);
  return r;
}

bool writeAll(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0)
        errno = EIO;
      return false;
    }
    s.remove_prefix(size_t(n));
  }
  return true;
}

bool writeFileAt(int dirFd, const char *name, std::string_view text) {
  int fd = ::openat(dirFd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    return false;
  bool ok = writeAll(fd, text);
  int err = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  errno = err;
  return ok;
}

void removeAt(int dirFd, const char *name) { removeTree(dirFd, name, 0); }

bool isStagingName(std::string_view name, std::string_view prefix) {
  if (name.size() != prefix.size() + RandomNameSize || name.substr(0, prefix.size()) != prefix)
    return false;
  for (char c : name.substr(prefix.size()))
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

bool markStaging(int stagingFd) {
  int fd = ::openat(stagingFd, StagingMarker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    return errno == EEXIST;
  ::close(fd);
  return true;
}

bool removeIfLeftover(int dirFd, const std::string &name) {
  int fd = ::openat(dirFd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  bool removed = false;
  bool marked = ::fstatat(fd, StagingMarker, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) { // no build holds it: a killed build's
    if (marked) {
      removeTree(dirFd, name.c_str(), 0);
      removed = true;
    } else {
      // No marker: a build killed (SIGKILL) between its mkdirat and the marker left it
      // empty. rmdir takes only an empty directory; a live build that lost it that way
      // makes another (makeStaging checks the inode after its flock).
      removed = ::unlinkat(dirFd, name.c_str(), AT_REMOVEDIR) == 0;
    }
  }
  ::close(fd);
  return removed;
}

void removeUnlocked(int dirFd, std::string_view prefix) {
  int dup = ::fcntl(dirFd, F_DUPFD_CLOEXEC, 0);
  DIR *d = dup < 0 ? nullptr : ::fdopendir(dup);
  if (!d) {
    if (dup >= 0)
      ::close(dup);
    return;
  }
  std::vector<std::string> names;
  while (dirent *e = ::readdir(d))
    if (isStagingName(e->d_name, prefix))
      names.push_back(e->d_name);
  ::closedir(d);
  for (const std::string &n : names)
    removeIfLeftover(dirFd, n);
}

bool isTmpLeftover(std::string_view name) {
  size_t at = name.rfind(".fabc-tmp-");
  if (at == std::string_view::npos || at == 0 || at + 10 == name.size())
    return false;
  for (char c : name.substr(at + 10))
    if (c < '0' || c > '9')
      return false;
  return true;
}

std::string randomName() {
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  unsigned char raw[8];
  if (::getrandom(raw, sizeof raw, 0) != ssize_t(sizeof raw)) { // no entropy source: still unlikely to repeat
    uint64_t x = uint64_t(::getpid()) * 0x9E3779B97F4A7C15ull ^ uint64_t(::time(nullptr)) ^ uint64_t(uintptr_t(raw));
    std::memcpy(raw, &x, sizeof raw);
  }
  std::string s;
  for (unsigned char c : raw)
    s += alphabet[c % 36];
  static_assert(sizeof raw == RandomNameSize, "isStagingName knows the length");
  return s;
}

int arm(int dirFd, const std::string &name) {
  install();
  if (name.size() >= sizeof slots[0].name)
    return -1;
  for (int i = 0; i < int(sizeof slots / sizeof *slots); ++i) {
    bool expected = false;
    if (!slots[i].used.compare_exchange_strong(expected, true))
      continue;
    slots[i].fd = dirFd;
    slots[i].tid = ::syscall(SYS_gettid);
    std::memcpy(slots[i].name, name.c_str(), name.size() + 1);
    slots[i].armed = 1;
    return i;
  }
  return -1;
}

void disarm(int slot) {
  if (slot < 0)
    return;
  slots[slot].armed = 0;
  slots[slot].used = false;
}

bool dying() { return state.load() == Dying; }

bool defer() {
  int expected = Idle;
  return state.compare_exchange_strong(expected, Committing);
}

void undefer() {
  int expected = Committing;
  if (!state.compare_exchange_strong(expected, Idle))
    return;
  if (int sig = pending) {
    state = Dying;
    pending = 0;
    cleanupArmed();
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
  }
}

} // namespace fabc::fstree
