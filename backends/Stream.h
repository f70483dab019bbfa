#pragma once
// Streaming writers for the per-switch configuration files: JSON (SONiC's config_db.json
// layout) and block YAML (the layout yaml-cpp's emitter gives NVUE's startup.yaml).
// They append to one reusable buffer, no document tree and no allocation per item:
// a backend writing thousands of files keeps one buffer and clears it per file.
// Neither sorts: the caller emits keys in the order the file must have.
#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace fabc {

using TextBuffer = fmt::memory_buffer;

// Appends bytes: one resize and a memcpy (fmt's own append goes through its generic
// growth path for every call, which dominates when a file is many short strings).
inline void append(TextBuffer &b, std::string_view s) {
  size_t n = b.size();
  b.resize(n + s.size());
  std::memcpy(b.data() + n, s.data(), s.size());
}
inline void append(TextBuffer &b, char c) { b.push_back(c); }
inline std::string_view view(const TextBuffer &b) { return {b.data(), b.size()}; }
void appendUint(TextBuffer &b, uint64_t v);
// fmt's "{:.0f}" and "{:g}", with a fast path for whole numbers (port speeds, metres).
void appendFixed0(TextBuffer &b, double v);
void appendShortest(TextBuffer &b, double v);

// The JSON string escapes of jsonEscape() (diag/Diag.h), appended without a copy:
// '"', '\\', \n, \r, \t by name, other control characters as \u00XX, bytes >= 0x80 as is.
void appendJsonEscaped(TextBuffer &b, std::string_view s);

// "a.b.c.d"
void appendIpv4(TextBuffer &b, uint32_t addr);

// Pretty-printed JSON objects of string values, 4 spaces per level:
//   {
//       "key": {
//           "field": "value"
//       },
//       "empty": {}
//   }
// with a newline after the outermost object.
class JsonWriter {
public:
  explicit JsonWriter(TextBuffer &out) : b_(out) {}
  // The document: one object.
  void beginDocument() {
    append(b_, "{");
    depth_ = 1;
    first_[1] = true;
  }
  void endDocument() {
    endObject();
    append(b_, "\n");
  }
  // "key": {   ... endObject() closes it.
  void beginObject(std::string_view key) {
    memberKey(key);
    append(b_, "{");
    ++depth_;
    first_[depth_] = true;
  }
  // A key composed with fmt (no temporary string).
  template <typename... Args> void beginObjectf(fmt::format_string<Args...> f, Args &&...args) {
    scratch_.clear();
    fmt::format_to(fmt::appender(scratch_), f, std::forward<Args>(args)...);
    beginObject({scratch_.data(), scratch_.size()});
  }
  void endObject() {
    bool empty = first_[depth_];
    --depth_;
    if (empty) {
      append(b_, "}");
    } else {
      append(b_, "\n");
      indent();
      append(b_, "}");
    }
  }
  // "key": {}
  void emptyObject(std::string_view key) {
    memberKey(key);
    append(b_, "{}");
  }
  template <typename... Args> void emptyObjectf(fmt::format_string<Args...> f, Args &&...args) {
    scratch_.clear();
    fmt::format_to(fmt::appender(scratch_), f, std::forward<Args>(args)...);
    emptyObject({scratch_.data(), scratch_.size()});
  }
  // "key": "value"
  void field(std::string_view key, std::string_view value) {
    memberKey(key);
    append(b_, "\"");
    appendJsonEscaped(b_, value);
    append(b_, "\"");
  }
  void field(std::string_view key, uint64_t value) {
    memberKey(key);
    append(b_, '"');
    appendUint(b_, value);
    append(b_, '"');
  }
  // A value composed with fmt.
  template <typename... Args> void fieldf(std::string_view key, fmt::format_string<Args...> f, Args &&...args) {
    scratch_.clear();
    fmt::format_to(fmt::appender(scratch_), f, std::forward<Args>(args)...);
    field(key, {scratch_.data(), scratch_.size()});
  }
  int depth() const { return depth_; }

private:
  void memberKey(std::string_view key) {
    append(b_, first_[depth_] ? "\n" : ",\n");
    first_[depth_] = false;
    indent();
    append(b_, "\"");
    appendJsonEscaped(b_, key);
    append(b_, "\": ");
  }
  void indent() {
    static constexpr std::string_view spaces = "                                                                ";
    size_t n = size_t(depth_) * 4;
    while (n > spaces.size()) {
      append(b_, spaces);
      n -= spaces.size();
    }
    append(b_, spaces.substr(0, n));
  }
  static constexpr int MaxDepth = 32;
  TextBuffer &b_;
  fmt::memory_buffer scratch_;
  int depth_ = 0;
  bool first_[MaxDepth + 1] = {};
};

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
