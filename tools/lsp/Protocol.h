#pragma once
// The Language Server Protocol's plumbing: JSON-RPC framing (Content-Length headers),
// error codes, file URIs, and positions in the negotiated encoding (UTF-16 code units by
// default, UTF-8 bytes or UTF-32 code points when the client offers them).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fabc::lsp {

// JSON-RPC and LSP error codes (LSP 3.17, "Response Message").
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  ContentModified = -32801,
};

// Splits a byte stream into message bodies. Bad framing (no or a malformed
// Content-Length, a body past the limit) is reported once and the reader resynchronizes
// on the next "Content-Length:" header; it never reads past what it was fed.
class MessageReader {
public:
  explicit MessageReader(size_t maxBody) : maxBody_(maxBody) {}
  void feed(const char *data, size_t n) { buf_.append(data, n); }
  enum Result { Message, NeedMore, BadFraming };
  // Message: `out` is a body. BadFraming: `error` says why (the caller answers with a
  // ParseError) and the bytes up to the next header are dropped.
  Result next(std::string &out, std::string &error);
  size_t buffered() const { return buf_.size() - pos_; }

private:
  std::string buf_;
  size_t pos_ = 0;
  size_t maxBody_;
  bool inJunk_ = false; // dropping bytes that are not a message (reported once)
  void compact();
};

// The framed message for `body`.
std::string frame(std::string_view body);

enum class Encoding : uint8_t { Utf16, Utf8, Utf32 };
const char *encodingName(Encoding e);

struct Position {
  uint32_t line = 0, character = 0;
};

// Line starts of a text, to convert byte offsets to positions and back. A line ends at
// "\n", "\r\n" or a lone "\r" (LSP 3.17, "Text Documents").
class LineTable {
public:
  LineTable() = default;
  explicit LineTable(std::string_view text);
  uint32_t start(size_t line) const { return starts_[line]; }
  // The end of `line` before its line break.
  size_t end(std::string_view text, size_t line) const;
  Position position(std::string_view text, uint32_t offset, Encoding enc) const;
  // The byte offset of `p`; false if the line is past the end. A character past the
  // line's end means the end of the line (as the protocol says).
  bool offset(std::string_view text, Position p, Encoding enc, uint32_t &out) const;
  size_t lines() const { return starts_.size(); }

private:
  std::vector<uint32_t> starts_;
};

// One entry of a didChange's contentChanges: the whole text, or a range replaced.
struct TextChange {
  bool whole = false;
  Position start, end;
  std::string_view text;
};
// Applies `changes` in order, each to the text the ones before it left (LSP 3.17). Runs of
// changes in document order or in reverse order (an editor's replace-all, multi-cursor
// edits) are applied in one pass over the text, so N changes cost O(text + N + their
// text), not N passes; a change out of order starts a new run. False, with the text
// unchanged, if a range ends before it starts.
bool applyChanges(std::string &text, const std::vector<TextChange> &changes, Encoding enc);

// file:// URIs and paths. "" if the URI is not a file URI.
std::string uriToPath(std::string_view uri);
std::string pathToFileUri(std::string_view path);

} // namespace fabc::lsp
