#include "backends/Backend.h"
#include "diag/Diag.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {

OutFile::~OutFile() {
  if (f_)
    std::fclose(f_);
}

static bool makeDirs(const std::string &path, std::string &err) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/')
      continue;
    std::string p = path.substr(0, i);
    if (::mkdir(p.c_str(), 0777) != 0 && errno != EEXIST) {
      err = p + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

bool OutFile::reopen() {
  if (failed_ || tmp_.empty())
    return false;
  f_ = std::fopen(tmp_.c_str(), "ab");
  if (!f_) {
    failed_ = true;
    return false;
  }
  std::setvbuf(f_, nullptr, _IOFBF, 256 << 10);
  if (owner_)
    owner_->noteOpen(this);
  return true;
}

void OutFile::writeDirect(std::string_view s) {
  if (std::fflush(f_) != 0) {
    failed_ = true;
    return;
  }
  int fd = ::fileno(f_);
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      failed_ = true;
      return;
    }
    s.remove_prefix(size_t(n));
  }
}

void OutFile::park() {
  if (!f_)
    return;
  if (std::fflush(f_) != 0 || std::ferror(f_))
    failed_ = true;
  if (std::fclose(f_) != 0)
    failed_ = true;
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

OutFile *OutputDir::open(std::string_view rel) {
  std::string r(rel);
  bool bad = r.empty() || r[0] == '/' || r == ".." || r.rfind("../", 0) == 0 || r.find("/../") != std::string::npos ||
             (r.size() >= 3 && r.compare(r.size() - 3, 3, "/..") == 0);
  if (bad) {
    error_ = "output path '" + r + "' leaves the output directory";
    return nullptr;
  }
  std::string final = dir_ + "/" + r;
  // A backend writing a file per switch opens thousands of files in a few directories
  // each: a directory made or checked once is not made or checked again.
  size_t slash = r.rfind('/');
  std::string_view relDir = slash == std::string::npos ? std::string_view() : std::string_view(r).substr(0, slash);
  if (!checkedDirs_.count(relDir)) {
    if (!dirMade_) {
      if (!makeDirs(dir_, error_))
        return nullptr;
      dirMade_ = true;
    }
    // Each directory below DIR: made, or else checked to be a directory and not a
    // symbolic link, which would lead the write elsewhere.
    for (size_t i = 0; i <= relDir.size(); ++i) {
      if (i < relDir.size() && relDir[i] != '/')
        continue;
      std::string_view part = relDir.substr(0, i);
      if (checkedDirs_.count(part))
        continue;
      std::string sub = dir_ + "/" + std::string(part);
      if (::mkdir(sub.c_str(), 0777) != 0) {
        struct stat st;
        if (errno != EEXIST || ::lstat(sub.c_str(), &st) != 0) {
          error_ = sub + ": " + std::strerror(errno);
          return nullptr;
        }
        if (!S_ISDIR(st.st_mode)) {
          error_ = sub + ": " + (S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory") +
                   " inside the output directory";
          return nullptr;
        }
      }
      checkedDirs_.insert(part);
    }
  }
  struct stat st;
  if (::lstat(final.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error_ = final + ": is a directory";
    return nullptr;
  }
  if (pidSuffix_.empty())
    pidSuffix_ = ".fabc-tmp-" + std::to_string(::getpid());
  std::string tmp = final + pidSuffix_;
  // O_EXCL: never through a symlink or over a file of a concurrent build.
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  FILE *f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f) {
    error_ = tmp + ": " + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return nullptr;
  }
  std::setvbuf(f, nullptr, _IOFBF, 256 << 10);
  files_.push_back(std::make_unique<OutFile>(f, tmp, final));
  files_.back()->owner_ = this;
  noteOpen(files_.back().get());
  return files_.back().get();
}

bool OutputDir::commit() {
  for (auto &f : files_) {
    f->park();
    if (f->failed_) {
      error_ = f->final_ + ": write failed";
      abort();
      return false;
    }
  }
  open_.clear();
  for (auto &f : files_)
    if (std::rename(f->tmp_.c_str(), f->final_.c_str()) != 0) {
      error_ = f->final_ + ": " + std::strerror(errno);
      abort();
      return false;
    }
  for (auto &f : files_)
    f->tmp_.clear();
  return true;
}

void OutputDir::abort() {
  for (auto &f : files_) {
    if (f->f_) {
      std::fclose(f->f_);
      f->f_ = nullptr;
    }
    if (!f->tmp_.empty())
      ::unlink(f->tmp_.c_str());
  }
  files_.clear();
  open_.clear();
  checkedDirs_.clear();
}

std::vector<std::string> OutputDir::written() const {
  std::vector<std::string> r;
  for (auto &f : files_)
    r.push_back(f->final_);
  return r;
}

std::string csvField(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(s);
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

} // namespace fabc
