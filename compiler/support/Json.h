#pragma once
// The one JSON writer: every JSON file fabc writes (summary, energy, BOM, cabling plan,
// diff, SARIF and JSON diagnostics, SONiC's config_db.json) goes through it. It owns
// the commas, the escaping, the indentation and the number formatting; callers say
// what comes next (a key, a value, a nested object) and never place a comma or a quote.
//
// It streams: it appends to a TextBuffer, keeps only a stack of open containers, and
// (given a sink) hands the buffer over every FlushAt bytes, so a cabling plan of any
// size goes through 64 KiB of memory.
//
// Layout is chosen per container, so a file can list one record per line:
//   {
//     "cables": [
//       {"cable": 1, "a": {"device": "s0", "port": "p1"}}
//     ]
//   }
// Numbers: integers as digits; a double in one of fmt's formats chosen by the caller
// (fixed(v, 1) is "{:.1f}", general() "{:g}", shortest() "{}"). A non-finite double
// (NaN, infinity) is written `null`: JSON has no spelling for it, and a consumer must not
// fail to parse a whole file over one undefined figure.
#include "support/TextBuffer.h"

#include <cassert>
#include <cmath>
#include <functional>
#include <type_traits>

namespace fabc {

// The JSON string escapes: '"', '\\', \n, \r, \t by name, other control characters as
// \u00XX, bytes >= 0x80 as they are (the text is UTF-8 already).
void appendJsonEscaped(TextBuffer &b, std::string_view s);

// Non-zero when one of the 8 bytes of `w` needs an escape: a control character, '"' or
// '\\' (SWAR; exact as a yes or no, which is all its callers ask).
inline uint64_t jsonSpecial8(uint64_t w) {
  constexpr uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  auto zeroByte = [&](uint64_t x) { return (x - ones) & ~x & high; };
  uint64_t ctl = (w - 0x2020202020202020ULL) & ~w & high; // bytes < 0x20 (bytes >= 0x80 excluded by ~w)
  return ctl | zeroByte(w ^ (0x22 * ones)) | zeroByte(w ^ (0x5C * ones));
}

// A key known when fabc is compiled, quoted once then: `"name": ` in a fixed array, so
// writing it is one copy of a fixed size. For the keys of records written millions of
// times (the diff's and the cabling plan's cables); JsonWriter::key(std::string_view)
// does the same for any key, checking it for escapes each time. Declare it constexpr:
// a key with a character to escape, or longer than 27 bytes, then fails to compile.
class JsonKey {
public:
  template <size_t N> constexpr explicit JsonKey(const char (&k)[N]) : text_(), size_(uint8_t(N + 3)) {
    static_assert(N + 3 <= Capacity, "a JsonKey is at most 27 bytes");
    text_[0] = '"';
    for (size_t i = 0; i + 1 < N; ++i) {
      char c = k[i];
      if ((unsigned char)c < 0x20 || c == '"' || c == '\\')
        throw "a JsonKey has no character to escape"; // in a constexpr one: a compile error
      text_[i + 1] = c;
    }
    text_[N] = '"';
    text_[N + 1] = ':';
    text_[N + 2] = ' ';
  }
  static constexpr size_t Capacity = 32;
  const char *data() const { return text_; } // Capacity bytes, size() of them the key's
  size_t size() const { return size_; }

private:
  char text_[Capacity];
  uint8_t size_;
};

enum class JsonLayout : uint8_t {
  Inline, // {"a": 1, "b": [2, 3]}: on the line of its key
  Block,  // one member a line, indented one level deeper; {} or [] when empty
  // Block, and an empty one still takes two lines ("[\n  ]"): bom.json's lists and
  // energy.json's by_tier maps have always been written so.
  BlockOpenWhenEmpty,
  // Block, and the closing bracket follows the last member on its line (SARIF's rules).
  BlockCloseOnLastLine,
};

class JsonWriter {
public:
  // Receives the text written so far; the writer clears its buffer after each call.
  using Sink = std::function<void(std::string_view)>;
  static constexpr size_t FlushAt = 64 << 10;

  // `indent`: spaces per Block level (SONiC's config_db.json has 4, fabc's files 2).
  explicit JsonWriter(TextBuffer &out, int indent = 2, Sink sink = nullptr)
      : b_(out), sink_(std::move(sink)), indentWidth_(indent) {}
  // Streams into `sink` through a buffer of its own.
  explicit JsonWriter(Sink sink, int indent = 2) : JsonWriter(own_, indent, std::move(sink)) {}
  // Hands what is left to the sink, if any (the document's closing newline included).
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter &) = delete;
  JsonWriter &operator=(const JsonWriter &) = delete;

  // An object member's key; the next call writes its value.
  JsonWriter &key(std::string_view k) {
    assert(depth_ > 0 && !stack_[depth_].array && !keyed_ && "a key outside an object, or two keys in a row");
    separator();
    quoted(k, ": ");
    keyed_ = true;
    return *this;
  }
  JsonWriter &key(const JsonKey &k) {
    assert(depth_ > 0 && !stack_[depth_].array && !keyed_ && "a key outside an object, or two keys in a row");
    separator();
    size_t n = b_.size();
    b_.resize(n + JsonKey::Capacity); // the whole array, a fixed-size copy; then the key's length
    std::memcpy(b_.data() + n, k.data(), JsonKey::Capacity);
    b_.resize(n + k.size());
    keyed_ = true;
    return *this;
  }
  // A key composed with fmt, with no temporary string (SONiC's "default|10.0.0.1").
  template <typename... Args> JsonWriter &keyf(fmt::format_string<Args...> f, Args &&...args) {
    scratch_.clear();
    fmt::format_to(fmt::appender(scratch_), f, std::forward<Args>(args)...);
    return key(view(scratch_));
  }

  void beginObject(JsonLayout l = JsonLayout::Block) { open('{', l, false); }
  void endObject() { close('}', false); }
  void beginArray(JsonLayout l = JsonLayout::Block) { open('[', l, true); }
  void endArray() { close(']', true); }
  // {} or []: no member.
  void emptyObject() { scalar("{}"); }
  void emptyArray() { scalar("[]"); }

  void string(std::string_view s) {
    prefix();
    quoted(s, "");
  }
  // The string, or null when it is empty (an unset SKU, rack or transceiver).
  void stringOrNull(std::string_view s) { s.empty() ? null() : string(s); }
  // An integer as a string ("65001"): SONiC's ConfigDB holds strings only.
  void quotedInteger(uint64_t v) {
    prefix();
    append(b_, '"');
    appendUint(b_, v);
    append(b_, '"');
  }
  void null() { scalar("null"); }
  void boolean(bool v) { scalar(v ? "true" : "false"); }
  template <typename T> std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>> integer(T v) {
    prefix();
    if constexpr (std::is_signed_v<T>)
      appendInt(b_, int64_t(v));
    else
      appendUint(b_, uint64_t(v));
  }
  // fmt's "{:.Nf}": energy.json's watts with 1 decimal, percentages with 2.
  void fixed(double v, int decimals) {
    if (finite(v))
      appendFixed(b_, v, decimals);
  }
  // fmt's "{:g}" (6 significant digits): speeds in Gb/s, order lengths, catalog figures.
  void general(double v) {
    if (finite(v))
      appendShortest(b_, v);
  }
  // fmt's "{}": the shortest text that reads back as the same double.
  void shortest(double v) {
    if (finite(v))
      appendRoundTrip(b_, v);
  }

  // A number already formatted (diff compares cable lengths as their "{:.2f}" text);
  // null unless the text is a JSON number, so "nan" or "inf" cannot get through.
  void rawNumber(std::string_view text) {
    prefix();
    append(b_, isJsonNumber(text) ? text : std::string_view("null"));
  }
  static bool isJsonNumber(std::string_view s);

  // Writes the buffer to the sink now (a no-op without one).
  void flush() {
    if (sink_ && b_.size()) {
      sink_(view(b_));
      b_.clear();
    }
  }
  int depth() const { return depth_; }

private:
  struct Frame {
    JsonLayout layout;
    bool array;
    bool empty;
    uint16_t level; // Block containers open, this one included: its members' indent
  };
  static bool isBlock(JsonLayout l) { return l != JsonLayout::Inline; }

  // '"' s '"' tail, s escaped. A string of up to 64 bytes (every key, almost every name)
  // is copied 8 bytes at a time into space resized once and checked for escapes on the
  // way (jsonSpecial8); only one with something to escape takes the general path. A
  // cabling plan or a diff is millions of short strings: per byte, or with a call per
  // piece, the copying cost more than the bytes (docs/decisions/0024-fabc-diff-at-a-million-gpus-joins-through-ports.md, "fabc diff").
  void quoted(std::string_view s, std::string_view tail) {
    size_t n = b_.size(), len = s.size();
    if (len <= 64 && tail.size() <= 2) {
      b_.resize(n + len + 2 + tail.size());
      char *d = b_.data() + n + 1;
      d[-1] = '"';
      const char *p = s.data();
      uint64_t special = 0;
      if (len >= 8) {
        size_t i = 0;
        for (; i + 8 <= len; i += 8)
          special |= copy8(p + i, d + i);
        if (i < len) // the last 8 bytes, overlapping the copied ones
          special |= copy8(p + len - 8, d + len - 8);
      } else if (len >= 4) { // the first 4 and the last 4, overlapping
        special = copy4(p, d) | copy4(p + len - 4, d + len - 4);
      } else {
        for (size_t i = 0; i < len; ++i) {
          unsigned char c = (unsigned char)p[i];
          d[i] = char(c);
          special |= unsigned(c < 0x20) | unsigned(c == '"') | unsigned(c == '\\');
        }
      }
      if (!special) {
        d[len] = '"';
        if (!tail.empty()) {
          d[len + 1] = tail[0];
          if (tail.size() > 1)
            d[len + 2] = tail[1];
        }
        return;
      }
      b_.resize(n);
    }
    append(b_, '"');
    appendJsonEscaped(b_, s);
    append(b_, '"');
    append(b_, tail);
  }
  static uint64_t copy8(const char *from, char *to) {
    uint64_t w;
    std::memcpy(&w, from, 8);
    std::memcpy(to, &w, 8);
    return jsonSpecial8(w);
  }
  static uint64_t copy4(const char *from, char *to) {
    uint32_t w;
    std::memcpy(&w, from, 4);
    std::memcpy(to, &w, 4);
    return jsonSpecial8(uint64_t(w) | 0x4040404000000000ULL); // the high half: '@', nothing to escape
  }
  // Before a value: the comma and line break in an array; nothing after a key.
  void prefix() {
    if (sink_ && b_.size() >= FlushAt)
      flush();
    if (keyed_) {
      keyed_ = false;
      return;
    }
    assert((depth_ == 0 || stack_[depth_].array) && "an object member without a key");
    if (depth_)
      separator();
  }
  void separator() {
    Frame &f = stack_[depth_];
    if (f.layout == JsonLayout::Inline) {
      if (!f.empty) { // ", ": two stores, not a call to copy two bytes (once per member)
        size_t n = b_.size();
        b_.resize(n + 2);
        b_.data()[n] = ',';
        b_.data()[n + 1] = ' ';
      }
    } else {
      append(b_, f.empty ? "\n" : ",\n");
      indent(f.level);
    }
    f.empty = false;
  }
  void scalar(std::string_view text) {
    prefix();
    append(b_, text);
  }
  // Non-finite: null, and false so the caller writes nothing more.
  bool finite(double v) {
    prefix();
    if (std::isfinite(v))
      return true;
    append(b_, "null");
    return false;
  }
  void open(char c, JsonLayout l, bool array) {
    prefix();
    assert(depth_ < MaxDepth && "JSON nested too deep");
    uint16_t level = stack_[depth_].level + (isBlock(l) ? 1 : 0);
    stack_[++depth_] = {l, array, true, level};
    append(b_, c);
  }
  void close(char c, bool array) {
    assert(depth_ > 0 && stack_[depth_].array == array && !keyed_ && "mismatched end, or a key without a value");
    (void)array;
    const Frame &f = stack_[depth_--];
    bool breakLine = f.layout == JsonLayout::BlockOpenWhenEmpty || (f.layout == JsonLayout::Block && !f.empty);
    if (breakLine) {
      append(b_, '\n');
      indent(f.level - 1);
    }
    append(b_, c);
    if (depth_ == 0)
      append(b_, '\n'); // every document ends with a newline
  }
  void indent(unsigned level) {
    static constexpr std::string_view spaces = "                                                                ";
    size_t n = size_t(level) * size_t(indentWidth_);
    while (n > spaces.size()) {
      append(b_, spaces);
      n -= spaces.size();
    }
    append(b_, spaces.substr(0, n));
  }

  static constexpr int MaxDepth = 32;
  TextBuffer own_; // unless the caller gives one
  TextBuffer &b_;
  Sink sink_;
  TextBuffer scratch_;
  int indentWidth_;
  int depth_ = 0;
  bool keyed_ = false;
  Frame stack_[MaxDepth + 1] = {{JsonLayout::Inline, false, true, 0}};
};

} // namespace fabc
