#pragma once
// The one JSON reader: every JSON document fabc reads (lldpctl's neighbour tables for
// import, verify and --guids-from; the language server's messages) goes through
// parseJson. It parses with llvm::json, after a linear pre-scan that bounds what
// llvm::json cannot:
//
// - nesting: llvm::json's parser recurses once per level, so a few million '[' overflow
//   the stack. Past JsonLimits::maxDepth the document is refused before parsing.
// - memory: llvm::json's DOM costs far more than the text (an object is a DenseMap that
//   allocates 64 buckets of 64 bytes on its first key: `{"a":0}`, 7 bytes, costs about
//   4 KiB). The pre-scan counts objects, values and string bytes and refuses a document
//   whose DOM would pass JsonLimits::maxDomBytes (docs/limits.md states the figures).
//
// Both refusals are errors like a syntax error: an offset into the text and a message.
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <optional>
#include <string>

namespace fabc {

struct JsonLimits {
  uint32_t maxDepth = 512;                // nested objects and arrays
  uint64_t maxDomBytes = uint64_t(1) << 30; // the DOM's estimated heap (jsonDomEstimate)
};

// The DOM's heap as the pre-scan estimates it (an upper bound for llvm::json on 64-bit
// hosts; tests/unit/JsonReadTest.cpp measures it with glibc's allocator statistics): per
// object 4,160 bytes (a DenseMap's first 64 buckets of 64 bytes), per member or element
// 256 bytes (up to 171 bytes of buckets just after the map doubles, and the key's
// std::string), plus each string's bytes twice (the text and its copy while parsing).
struct JsonShape {
  uint64_t objects = 0, arrays = 0, values = 0, stringBytes = 0;
  uint32_t maxDepth = 0;
};
constexpr uint64_t JsonObjectCost = 4160, JsonValueCost = 256;
inline uint64_t jsonDomEstimate(const JsonShape &s) {
  return s.objects * JsonObjectCost + (s.values + s.arrays) * JsonValueCost + 2 * s.stringBytes;
}

struct JsonError {
  size_t offset = 0;   // into the text
  std::string message; // without a position
};

// The document `text`, or nullopt with `err` set (a syntax error, too deep, too large).
std::optional<llvm::json::Value> parseJson(llvm::StringRef text, const JsonLimits &limits, JsonError &err);

} // namespace fabc
