#pragma once
// Source files and locations. A location is a file index and a byte offset (8 bytes);
// line and column are computed only when a diagnostic is printed.
#include <cstdint>
#include <string>
#include <deque>
#include <vector>
#include <string_view>

namespace fabc {

struct SourceLoc {
  uint32_t file = UINT32_MAX;
  uint32_t offset = 0;
  bool valid() const { return file != UINT32_MAX; }
  bool operator==(const SourceLoc &o) const { return file == o.file && offset == o.offset; }
  bool operator!=(const SourceLoc &o) const { return !(*this == o); }
};

struct SourceRange {
  SourceLoc begin;
  uint32_t length = 1;
};

// Where two versions of one file differ: hunks, each a stretch [oldBegin, oldEnd) of the
// old text that is [newBegin, newEnd) in the new, in order; the text between them is the
// same in both. A compilation reused across an edit (Compilation::shift) maps its base's
// places with it.
struct TextShift {
  struct Hunk {
    uint32_t oldBegin, oldEnd, newBegin, newEnd;
  };
  uint32_t file = UINT32_MAX; // none: nothing moved
  std::vector<Hunk> hunks;
  // An old range into the new text; false when it meets a hunk (its text changed).
  bool toNew(SourceRange &r) const;
  // A new place into the old text; false inside a hunk.
  bool toOld(SourceLoc &l) const;
};

struct LineCol {
  uint32_t line = 0, col = 0;
};

class SourceManager {
public:
  // Adds a buffer; returns its file index.
  uint32_t add(std::string path, std::string text);
  // Adds one line of a file that is streamed, not kept (a discovery file of a gigabyte):
  // `text` is line `line` of `path`, so a diagnostic on it shows path:line:col and a caret.
  uint32_t addLine(std::string path, uint32_t line, std::string text);
  const std::string &path(uint32_t file) const { return files_[file].path; }
  std::string_view text(uint32_t file) const { return files_[file].text; }
  LineCol lineCol(SourceLoc loc) const;
  std::string_view lineText(SourceLoc loc) const;
  size_t size() const { return files_.size(); }

private:
  struct File {
    std::string path;
    std::string text;
    mutable std::vector<uint32_t> lineStarts; // built lazily
    uint32_t firstLine = 1;                   // the line number of the text's first line
  };
  void index(const File &f) const;
  std::deque<File> files_; // a deque: a text never moves (the AST holds views of it)
};

} // namespace fabc
