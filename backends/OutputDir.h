#pragma once
// The output directory of a build, all-or-nothing. Every file is written into a private
// staging directory beside DIR (`PARENT/.NAME.fabc-XXXXXXXX`), through descriptors only;
// commit swaps it in with one rename when DIR is absent or holds exactly a previous fabc
// build, else moves the files in one by one and keeps every file fabc did not write.
// DIR/.fabc-manifest lists a build's files: it marks a complete build and lets the next
// one remove the files it no longer writes. The contract is in docs/backends.md.
#include "backends/Stream.h"

#include <fmt/format.h>

#include <sys/types.h>

#include <cerrno>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {

class OutputDir;

// A buffered output stream to a file in the staging directory. Only a bounded number of
// them hold an open FILE at a time (a backend may write a file per switch: thousands);
// writing to a parked one reopens it for appending, relative to the staging descriptor.
class OutFile {
public:
  OutFile(FILE *f, std::string rel, std::string final) : f_(f), rel_(std::move(rel)), final_(std::move(final)) {}
  ~OutFile();
  OutFile(const OutFile &) = delete;
  OutFile &operator=(const OutFile &) = delete;

  void write(std::string_view s) {
    if (s.empty())
      return;
    if (closed_) { // a backend bug: the file was finished
      fail(EBADF);
      return;
    }
    if (!f_ && !reopen())
      return;
    if (s.size() >= DirectWrite) {
      writeDirect(s); // a whole file at once: no copy through the FILE buffer
      return;
    }
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
      fail(errno);
  }
  void write(const TextBuffer &b) { write(std::string_view(b.data(), b.size())); }
  template <typename... Args> void print(fmt::format_string<Args...> f, Args &&...args) {
    fmt::memory_buffer b;
    fmt::format_to(std::back_inserter(b), f, std::forward<Args>(args)...);
    write({b.data(), b.size()});
  }
  const std::string &path() const { return final_; }
  // Finishes writing for now: backends that write a file per switch close each one. The
  // file reaches DIR only at commit (a later write would reopen it).
  void close() {
    park();
    closed_ = true;
  }

private:
  friend class OutputDir;
  static constexpr size_t DirectWrite = 64 << 10;
  void writeDirect(std::string_view s);
  bool reopen();
  void park(); // flush and close the FILE, keep the staged file
  void fail(int err) {
    if (!failed_)
      err_ = err ? err : EIO; // the first error is the reason
    failed_ = true;
  }
  FILE *f_;
  std::string rel_, final_; // path below the staging root; DIR/rel as the user names it
  bool failed_ = false;
  int err_ = 0;
  OutputDir *owner_ = nullptr;
  bool closed_ = false;
};

class OutputDir {
public:
  explicit OutputDir(std::string dir) : dir_(std::move(dir)) {}
  ~OutputDir() { abort(); }
  OutputDir(const OutputDir &) = delete;
  OutputDir &operator=(const OutputDir &) = delete;
  // Who may read a file: what the umask lets (0666 & ~umask), or its owner only (0600), for
  // a file that carries a resolved secret (docs/decisions/0401). The mode is given when
  // the staged file is created and renames keep it: such a file is never readable by
  // others, not even for a moment.
  enum class Access : uint8_t { Shared, OwnerOnly };
  // Opens DIR/rel for writing (in the staging directory). `rel` must stay inside DIR: no
  // absolute path, no '..'. nullptr (with a message in error()) on failure.
  OutFile *open(std::string_view rel, Access access = Access::Shared);
  // Puts every file into DIR and writes the manifest; false if any write failed (DIR is
  // untouched then and the staging directory removed).
  bool commit();
  void abort();
  const std::string &error() const { return error_; }
  const std::string &dir() const { return dir_; }
  std::vector<std::string> written() const;
  static constexpr size_t MaxOpenFiles = 64;
  static constexpr const char *ManifestName = ".fabc-manifest";

  // For tests: the staging directory's path once the first file is open, and a hook run
  // before each staged directory is entered (to swap one for a symbolic link mid-build).
  std::string stagingPath() const;
  std::function<void(const std::string &relDir)> beforeEnterHook;

private:
  friend class OutFile;
  bool begin();                                   // resolves DIR, removes leftovers, makes the staging dir
  // A staged directory's descriptor (cached), or -1 with errno and the failed path.
  int stagedDir(std::string_view relDir, bool make, std::string *failed = nullptr);
  int openStaged(const std::string &rel, int flags, std::string *failed = nullptr, mode_t mode = 0666);
  void noteOpen(OutFile *f); // parks the oldest open file past MaxOpenFiles
  bool fail(const std::string &what, int err);
  bool commitLocked(const std::vector<std::string> &rels);
  bool commitInPlace(int dirFd, const std::vector<std::string> &rels, const std::vector<std::string> &old);
  void closeFds();

  std::string dir_, error_;
  std::vector<std::unique_ptr<OutFile>> files_;
  std::vector<OutFile *> open_; // FIFO of files holding a FILE
  int parentFd_ = -1;           // holds the staging directory: DIR's parent, or DIR itself
  int rootFd_ = -1;             // the staging directory (flock'ed while the build runs)
  int cacheFd_ = -1;            // the last staged directory entered, below rootFd_
  std::string cacheRel_, stagingName_, parentPath_, name_;
  std::vector<std::string> madePaths_; // DIR's parents (or DIR) this build made: removed if it fails
  bool inside_ = false;  // staging inside DIR: commit moves files one by one
  int slot_ = -1;        // signal-handler registration
  bool begun_ = false;
  bool oldTree_ = false; // commit swapped: the previous build is under the staging name
};

} // namespace fabc
