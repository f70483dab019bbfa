// The JSON and block-YAML syntaxes of DocWriter.h.
#include "backends/export/DocWriter.h"

#include "backends/Backend.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <vector>

namespace fabc {
namespace {

class JsonDoc final : public DocWriter {
public:
  explicit JsonDoc(OutFile &out) : j_(sinkTo(out)) {}
  // A device's ports and a cable are one line each; the document's lists one member a line.
  void beginObject() override { j_.beginObject(j_.depth() >= 2 ? JsonLayout::Inline : JsonLayout::Block); }
  void endObject() override { j_.endObject(); }
  void beginArray() override { j_.beginArray(j_.depth() >= 2 ? JsonLayout::Inline : JsonLayout::Block); }
  void endArray() override { j_.endArray(); }
  void key(std::string_view k) override { j_.key(k); }
  void string(std::string_view s) override { j_.string(s); }
  void null() override { j_.null(); }
  void boolean(bool v) override { j_.boolean(v); }
  void integer(uint64_t v) override { j_.integer(v); }
  void fixed(double v, int decimals) override {
    std::isfinite(v) ? j_.fixed(v, decimals) : j_.null();
  }
  void general(double v) override { std::isfinite(v) ? j_.general(v) : j_.null(); }
  void finish() override { j_.flush(); }

private:
  JsonWriter j_;
};

// Block YAML, yaml-cpp's layout: "key: value", a nested map or list on the lines after
// its key, indented 2; a list item's map starts on its "- " line; {} and [] when empty.
class YamlDoc final : public DocWriter {
public:
  explicit YamlDoc(OutFile &out) : out_(out) {}
  void beginObject() override { open(false); }
  void endObject() override { close("{}"); }
  void beginArray() override { open(true); }
  void endArray() override { close("[]"); }
  void key(std::string_view k) override {
    Frame &f = stack_.back();
    if (f.inlineFirst && !f.count)
      append(b_, " "); // the first key of a list item's map: on its "- " line
    else
      newline(f.indent);
    ++f.count;
    append(b_, k);
    append(b_, ":");
  }
  void string(std::string_view s) override { scalar(s, true); }
  void null() override { scalar("null", false); }
  void boolean(bool v) override { scalar(v ? "true" : "false", false); }
  void integer(uint64_t v) override {
    item();
    append(b_, " ");
    appendUint(b_, v);
    done();
  }
  void fixed(double v, int decimals) override {
    if (!std::isfinite(v))
      return null();
    item();
    append(b_, " ");
    appendFixed(b_, v, decimals);
    done();
  }
  void general(double v) override {
    if (!std::isfinite(v))
      return null();
    item();
    append(b_, " ");
    appendShortest(b_, v);
    done();
  }
  void finish() override {
    append(b_, "\n");
    out_.write(b_);
    b_.clear();
  }

private:
  struct Frame {
    bool list;
    bool inlineFirst; // a map that is a list item: its first key follows "- "
    int indent;       // of its members
    uint64_t count = 0;
  };
  // Before a value: "- " for a list member (on a new line), nothing after a key.
  void item() {
    if (stack_.empty())
      return;
    Frame &f = stack_.back();
    if (f.list) {
      newline(f.indent);
      ++f.count;
      append(b_, "-");
    }
  }
  void done() {
    if (b_.size() >= JsonWriter::FlushAt) {
      out_.write(b_);
      b_.clear();
    }
  }
  void open(bool list) {
    if (stack_.empty()) {
      stack_.push_back({list, false, 0});
      return;
    }
    bool inList = stack_.back().list;
    int indent = stack_.back().indent + 2;
    item();
    // A map as a list item starts on the "- " line; under a key, on the next line.
    stack_.push_back({list, inList && !list, indent});
  }
  void close(const char *empty) {
    Frame f = stack_.back();
    stack_.pop_back();
    if (!f.count) {
      append(b_, " ");
      append(b_, empty);
    }
    done();
  }
  void newline(int indent) {
    if (started_)
      append(b_, "\n");
    started_ = true;
    for (int i = 0; i < indent; ++i)
      append(b_, " ");
  }
  // A string stays a string: plain when yaml-cpp writes it plain and it reads back as a
  // string, else double-quoted by yaml-cpp.
  void scalar(std::string_view s, bool isString) {
    item();
    append(b_, " ");
    if (!isString || plainString(s)) {
      append(b_, s);
    } else {
      YAML::Emitter e;
      e << YAML::DoubleQuoted << std::string(s);
      b_.append(e.c_str(), e.c_str() + e.size());
    }
    done();
  }
  // [A-Za-z_/] then [A-Za-z0-9_./\[\]-]*, not ending in ':' and not a word YAML 1.1
  // resolves to a boolean or null (true, no, on, null, ...). Names like "spine0",
  // "p[3]", "dc.h1.row0.rack2" and "OSFP-800G-2xDR4" are plain; "800", "10.0.0.1/31" quoted.
  static bool plainString(std::string_view s) {
    if (s.empty())
      return false;
    auto first = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '/'; };
    auto rest = [&](char c) {
      return first(c) || (c >= '0' && c <= '9') || c == '.' || c == '[' || c == ']' || c == '-';
    };
    if (!first(s[0]))
      return false;
    for (char c : s)
      if (!rest(c))
        return false;
    static const char *const words[] = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"};
    std::string lower(s);
    for (char &c : lower)
      c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (const char *w : words)
      if (lower == w)
        return false;
    return true;
  }

  OutFile &out_;
  TextBuffer b_;
  std::vector<Frame> stack_;
  bool started_ = false;
};

} // namespace

std::unique_ptr<DocWriter> DocWriter::create(bool yaml, OutFile &out) {
  if (yaml)
    return std::make_unique<YamlDoc>(out);
  return std::make_unique<JsonDoc>(out);
}

} // namespace fabc
