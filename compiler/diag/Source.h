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
};

struct SourceRange {
  SourceLoc begin;
  uint32_t length = 1;
};

// Where two versions of one file differ: the one region [begin, oldEnd) of the old text
// that is [begin, newEnd) in the new; the text before and after it is the same in both.
// A compilation reused across an edit (Compilation::reused) maps its base's places with it.
struct TextShift {
  uint32_t file = UINT32_MAX; // none: nothing moved
  uint32_t begin = 0, oldEnd = 0, newEnd = 0;
  // An old range into the new text; false when it touches the region (its text changed).
  bool toNew(SourceRange &r) const {
    if (!r.begin.valid() || r.begin.file != file)
      return true;
    uint64_t end = uint64_t(r.begin.offset) + r.length;
    if (end <= begin)
      return true;
    if (r.begin.offset < oldEnd)
      return false;
    r.begin.offset = r.begin.offset - oldEnd + newEnd;
    return true;
  }
  // A new place into the old text; false inside the region.
  bool toOld(SourceLoc &l) const {
    if (!l.valid() || l.file != file || l.offset < begin)
      return true;
    if (l.offset < newEnd)
      return false;
    l.offset = l.offset - newEnd + oldEnd;
    return true;
  }
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
