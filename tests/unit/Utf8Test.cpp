// validUtf8's word-at-a-time ASCII path must find the same first bad byte as the exact
// byte-by-byte check, wherever it falls relative to an 8-byte word.
#include "ast/Parser.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Utf8, BadBytesAtEveryPlaceOfAWord) {
  const std::string bads[] = {std::string(1, '\0'), "\x80", "\xC3\x28", "\xE0\x80\x80", "\xED\xA0\x80",
                              "\xF5\x80\x80\x80", "\xC3"};
  for (const std::string &bad : bads)
    for (size_t at = 0; at < 20; ++at) {
      std::string s(at, 'a');
      s += bad;
      s += std::string(13, 'b');
      size_t where = SIZE_MAX;
      EXPECT_FALSE(fabc::validUtf8(s, &where)) << "at " << at;
      EXPECT_EQ(where, at);
    }
}

TEST(Utf8, ValidTextAroundWordEdges) {
  for (size_t at = 0; at < 20; ++at) {
    std::string s(at, 'a');
    s += "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \x7F";
    size_t where = SIZE_MAX;
    EXPECT_TRUE(fabc::validUtf8(s, &where)) << "at " << at;
    // A truncated sequence at the very end.
    s += "\xE2\x82";
    EXPECT_FALSE(fabc::validUtf8(s, &where));
    EXPECT_EQ(where, s.size() - 2);
  }
  size_t where = SIZE_MAX;
  EXPECT_TRUE(fabc::validUtf8("", &where));
}

} // namespace
