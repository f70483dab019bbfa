#pragma once
// The backend interface. A backend reads the Fabric IR and the analyses (never the AST),
// holds no rule (its checks are in compiler/checks/, run before it), and streams its
// files through an OutputDir, which writes each to a temporary name and renames them
// all only when the whole build succeeded: no half-written output, ever.
#include "analysis/Analyses.h"
#include "backends/Stream.h"
#include "ir/Fabric.h"

#include <llvm/ADT/StringSet.h>

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fabc {
class DiagEngine;

class OutputDir;

// A buffered output stream to a temporary file. Only a bounded number of them hold an
// open FILE at a time (a backend may write a file per switch: thousands); writing to a
// parked one reopens it for appending, transparently.
class OutFile {
public:
  OutFile(FILE *f, std::string tmp, std::string final) : f_(f), tmp_(std::move(tmp)), final_(std::move(final)) {}
  ~OutFile();
  OutFile(const OutFile &) = delete;
  OutFile &operator=(const OutFile &) = delete;

  void write(std::string_view s) {
    if (s.empty())
      return;
    if (closed_) { // a backend bug: the file was finished
      failed_ = true;
      return;
    }
    if (!f_ && !reopen())
      return;
    if (s.size() >= DirectWrite) {
      writeDirect(s); // a whole file at once: no copy through the FILE buffer
      return;
    }
    if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
      failed_ = true;
  }
  void write(const TextBuffer &b) { write(std::string_view(b.data(), b.size())); }
  template <typename... Args> void print(fmt::format_string<Args...> f, Args &&...args) {
    fmt::memory_buffer b;
    fmt::format_to(std::back_inserter(b), f, std::forward<Args>(args)...);
    write({b.data(), b.size()});
  }
  const std::string &path() const { return final_; }
  // Finishes writing for now: backends that write a file per switch close each one. The
  // file is still renamed into place only at commit (a later write would reopen it).
  void close() {
    park();
    closed_ = true;
  }

private:
  friend class OutputDir;
  static constexpr size_t DirectWrite = 64 << 10;
  void writeDirect(std::string_view s);
  bool reopen();
  void park(); // flush and close the FILE, keep the temporary file
  FILE *f_;
  std::string tmp_, final_;
  bool failed_ = false;
  OutputDir *owner_ = nullptr;
  bool closed_ = false;
};

class OutputDir {
public:
  explicit OutputDir(std::string dir) : dir_(std::move(dir)) {}
  ~OutputDir() { abort(); }
  // Opens DIR/rel for writing. `rel` must stay inside DIR: no absolute path, no '..', no
  // symbolic link among the directories below DIR (DIR itself may be one); missing
  // subdirectories are created. nullptr (with a message in error()) on failure.
  OutFile *open(std::string_view rel);
  // Renames every file into place; false if any write failed (nothing is renamed then).
  bool commit();
  void abort();
  const std::string &error() const { return error_; }
  const std::string &dir() const { return dir_; }
  std::vector<std::string> written() const;
  static constexpr size_t MaxOpenFiles = 64;

private:
  friend class OutFile;
  void noteOpen(OutFile *f); // parks the oldest open file past MaxOpenFiles
  std::string dir_, error_;
  std::vector<std::unique_ptr<OutFile>> files_;
  std::vector<OutFile *> open_; // FIFO of files holding a FILE
  llvm::StringSet<> checkedDirs_; // directories below dir_ made or checked (no symlink)
  std::string pidSuffix_;
  bool dirMade_ = false;
};

struct BuildInfo {
  std::string input;   // the main source file, as given
  std::string version; // fabc version
};

struct BackendContext {
  const ir::Fabric &F;
  const Analyses &an; // computed once; the backend's output checks have run (checks/OutputChecks.h)
  OutputDir &out;
  DiagEngine &diags;
  const BuildInfo &info;
  const SourceManager *sources = nullptr; // the design's source text, to quote diagnostics (report)
};

struct Backend {
  const char *name;
  const char *description;
  bool (*run)(BackendContext &ctx);
  bool byDefault; // part of the default --emit set
  bool inAll = true; // part of --emit=all (the IR dump is not: it is for testing passes)
};

// Every backend, in a fixed order.
const std::vector<Backend> &backends();
const Backend *findBackend(std::string_view name);

// Shared by backends: CSV field quoting, and JSON streamed into a file.
std::string csvField(std::string_view s);
inline JsonWriter::Sink sinkTo(OutFile &f) {
  return [&f](std::string_view s) { f.write(s); };
}

} // namespace fabc
