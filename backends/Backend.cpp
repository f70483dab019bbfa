#include "backends/Backend.h"
#include "diag/Diag.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace fabc {

OutFile::~OutFile() {
  if (f_)
    std::fclose(f_);
}

void OutFile::close() {
  if (!f_)
    return;
  if (std::fflush(f_) != 0 || std::ferror(f_))
    failed_ = true;
  if (std::fclose(f_) != 0)
    failed_ = true;
  f_ = nullptr;
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

OutFile *OutputDir::open(std::string_view rel) {
  std::string r(rel);
  bool bad = r.empty() || r[0] == '/' || r == ".." || r.rfind("../", 0) == 0 || r.find("/../") != std::string::npos ||
             (r.size() >= 3 && r.compare(r.size() - 3, 3, "/..") == 0);
  if (bad) {
    error_ = "output path '" + r + "' leaves the output directory";
    return nullptr;
  }
  std::string final = dir_ + "/" + r;
  std::string parent = final.substr(0, final.rfind('/'));
  if (!makeDirs(parent, error_))
    return nullptr;
  std::string tmp = final + ".fabc-tmp-" + std::to_string(::getpid());
  FILE *f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    error_ = tmp + ": " + std::strerror(errno);
    return nullptr;
  }
  std::setvbuf(f, nullptr, _IOFBF, 1 << 20);
  files_.push_back(std::make_unique<OutFile>(f, tmp, final));
  return files_.back().get();
}

bool OutputDir::commit() {
  for (auto &f : files_) {
    f->close();
    if (f->failed_) {
      error_ = f->final_ + ": write failed";
      abort();
      return false;
    }
  }
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

std::string jsonString(std::string_view s) { return "\"" + jsonEscape(s) + "\""; }

} // namespace fabc
