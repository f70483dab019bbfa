#pragma once
// Streaming writers for the per-switch configuration files: block YAML (the layout
// yaml-cpp's emitter gives NVUE's startup.yaml) here, JSON in support/Json.h (the one
// JSON writer, shared with the compiler's diagnostics). They append to one reusable
// buffer, no document tree and no allocation per item: a backend writing thousands of
// files keeps one buffer and clears it per file. Neither sorts: the caller emits keys in
// the order the file must have.
#include "support/Json.h"
#include "support/TextBuffer.h"

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

namespace fabc {

// "a.b.c.d"
void appendIpv4(TextBuffer &b, uint32_t addr);

// Block YAML: a sequence of maps, nested block maps, scalars and empty flow maps, laid
// out as yaml-cpp 0.7's emitter does (2 spaces per map level, a sequence item's first
// key on the "- " line, no newline after the last line). Scalars that are plain in
// yaml-cpp's rules for the common case (letters, digits, '_' first; then also
// '.', '/', '-', '[', ']', ' ', ...) are written directly; any other string is quoted
// by yaml-cpp itself, so the output is byte for byte what yaml-cpp writes.
class YamlWriter {
public:
  explicit YamlWriter(TextBuffer &out) : b_(out) {}
  // "- " at the current level: the item is a map whose keys follow.
  void beginSeqItem() {
    line();
    append(b_, "- ");
    inlineNext_ = true;
    push(indent_ + 2);
  }
  void endSeqItem() { pop(); }
  // "key:" and a nested block map.
  void beginMap(std::string_view key) {
    keyLine(key);
    append(b_, ":");
    push(indent_ + 2);
  }
  void endMap() { pop(); }
  // "key: value"
  void scalar(std::string_view key, std::string_view value) {
    keyLine(key);
    append(b_, ": ");
    appendScalar(value);
  }
  void scalar(std::string_view key, uint64_t value) {
    keyLine(key);
    append(b_, ": ");
    appendUint(b_, value);
  }
  template <typename... Args> void scalarf(std::string_view key, fmt::format_string<Args...> f, Args &&...args) {
    scratch_.clear();
    fmt::format_to(fmt::appender(scratch_), f, std::forward<Args>(args)...);
    keyLine(key);
    append(b_, ": ");
    appendScalar({scratch_.data(), scratch_.size()});
  }
  // "key: {}"
  void emptyMap(std::string_view key) {
    keyLine(key);
    append(b_, ": {}");
  }
  // The same with a key written as it is: `'100'`, the quoted string NVUE writes for a
  // VLAN or rule number (a plain 100 would read back as an integer).
  void beginMapRawKey(std::string_view key) {
    if (inlineNext_)
      inlineNext_ = false;
    else
      line();
    append(b_, key);
    append(b_, ":");
    push(indent_ + 2);
  }
  void emptyMapRawKey(std::string_view key) {
    if (inlineNext_)
      inlineNext_ = false;
    else
      line();
    append(b_, key);
    append(b_, ": {}");
  }
  // key:\n  name: {}   (NVUE's form of a set member)
  void member(std::string_view key, std::string_view name) {
    beginMap(key);
    emptyMap(name);
    endMap();
  }
  // Appends a scalar as yaml-cpp would write it in block context.
  void appendScalar(std::string_view s);
  // True when the fast path writes `s` plain (and yaml-cpp does too).
  static bool simplePlain(std::string_view s);

private:
  void line() {
    if (started_ && !inlineNext_) {
      append(b_, "\n");
      for (int i = 0; i < indent_; ++i)
        append(b_, " ");
    }
    started_ = true;
  }
  void keyLine(std::string_view key) {
    if (inlineNext_)
      inlineNext_ = false;
    else
      line();
    appendScalar(key);
  }
  void push(int indent) {
    stack_[depth_++] = indent_;
    indent_ = indent;
  }
  void pop() { indent_ = stack_[--depth_]; }
  TextBuffer &b_;
  fmt::memory_buffer scratch_;
  int indent_ = 0, depth_ = 0;
  int stack_[64] = {};
  bool started_ = false, inlineNext_ = false;
};

} // namespace fabc
