#pragma once
// One document, two syntaxes: the design export (Design.cpp) walks the design once and
// writes through this interface, as JSON (support/Json.h's writer) or as block YAML.
// Both stream into an OutFile every JsonWriter::FlushAt bytes, never holding the file.
// The YAML is the same data model as the JSON: yaml.safe_load of one equals json.load of
// the other (tests/lit/export), so a string that YAML would read as another type
// ("true", "800", "null", "~") is double-quoted.
#include "backends/OutputDir.h"
#include "support/Json.h"
#include "support/TextBuffer.h"

#include <cstdint>
#include <memory>
#include <string_view>

namespace fabc {

class DocWriter {
public:
  virtual ~DocWriter() = default;
  virtual void beginObject() = 0;
  virtual void endObject() = 0;
  virtual void beginArray() = 0;
  virtual void endArray() = 0;
  // An object member's key; the next call writes its value. Keys are fixed identifiers.
  virtual void key(std::string_view k) = 0;
  virtual void string(std::string_view s) = 0;
  virtual void null() = 0;
  virtual void boolean(bool v) = 0;
  virtual void integer(uint64_t v) = 0;
  // fmt's "{:.Nf}" (lengths with 2 decimals); fmt's "{:g}" (speeds).
  virtual void fixed(double v, int decimals) = 0;
  virtual void general(double v) = 0;
  // Hands the rest to the file (the document's closing newline included).
  virtual void finish() = 0;

  void stringOrNull(std::string_view s) { s.empty() ? null() : string(s); }

  // "json" or "yaml", writing to `out`.
  static std::unique_ptr<DocWriter> create(bool yaml, OutFile &out);
};

} // namespace fabc
