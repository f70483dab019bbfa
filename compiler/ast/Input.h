#pragma once
// The lexer's input: UTF-8 source text decoded once into UTF-32, exactly sized.
// (ANTLR 4.9's own conversion goes through std::wstring_convert, which peaks at ~20
// bytes a character: 1.3 GB for a 64 MiB file.) Inside compiler/ast/ only.
#include "antlr4-runtime.h"

#include <string_view>

namespace fabc {

class Utf8Input : public antlr4::ANTLRInputStream {
public:
  // `text` must be valid UTF-8 (parseFile checks it first).
  explicit Utf8Input(std::string_view text) {
    size_t n = 0;
    for (unsigned char c : text)
      n += (c & 0xC0) != 0x80;
    _data.resize(n);
    size_t k = 0;
    for (size_t i = 0; i < text.size();) {
      unsigned char c = text[i];
      size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
      char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
      for (size_t j = 1; j < len && i + j < text.size(); ++j)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + j]) & 0x3F);
      _data[k++] = cp;
      i += len;
    }
    p = 0;
  }
};

} // namespace fabc
