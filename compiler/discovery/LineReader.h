#pragma once
// Lines of a stream, in bounded memory: a line longer than the limit is cut there (the
// reader says so), so a gigabyte without a newline costs the limit, not a gigabyte.
#include <cstdint>
#include <cstdio>
#include <string>

namespace fabc::discovery {

class LineReader {
public:
  LineReader(std::FILE *in, size_t maxLine) : in_(in), maxLine_(maxLine) {}
  // The next line without its "\n" (and "\r"); false at the end of the stream.
  bool next(std::string &line);
  uint32_t lineNo() const { return lineNo_; }
  bool tooLong() const { return tooLong_; }
  // The last line read ended at the end of the file without a newline (a truncated file).
  bool lastHadNewline() const { return lastHadNewline_; }
  bool error() const { return error_; }

private:
  std::FILE *in_;
  size_t maxLine_;
  char buf_[1 << 16];
  size_t pos_ = 0, end_ = 0;
  uint32_t lineNo_ = 0;
  bool eof_ = false, error_ = false, tooLong_ = false, lastHadNewline_ = true;
};

} // namespace fabc::discovery
