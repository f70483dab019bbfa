// The one JSON reader (JsonRead.h): a linear pre-scan, then llvm::json.
#include "support/JsonRead.h"

#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>

namespace fabc {

namespace {
// llvm::json's ParseError prints "[line:col, byte=N]: message".
JsonError fromLlvm(llvm::Error e) {
  JsonError r;
  std::string log = llvm::toString(std::move(e));
  size_t b = log.find("byte="), colon = log.find("]: ");
  if (b != std::string::npos && colon != std::string::npos) {
    r.offset = std::strtoull(log.c_str() + b + 5, nullptr, 10);
    r.message = log.substr(colon + 3);
  } else {
    r.message = log;
  }
  while (!r.message.empty() && r.message.back() == '\n')
    r.message.pop_back();
  return r;
}
} // namespace

std::optional<llvm::json::Value> parseJson(llvm::StringRef text, const JsonLimits &limits, JsonError &err) {
  // The pre-scan: one pass, a counter per property; strings skipped with their escapes.
  // It does not validate (llvm::json does), so unbalanced brackets only lower the depth.
  JsonShape s;
  uint32_t depth = 0;
  const char *p = text.data(), *end = p + text.size();
  for (const char *q = p; q < end; ++q) {
    char c = *q;
    if (c == '"') {
      const char *b = ++q;
      while (q < end && *q != '"')
        q += *q == '\\' ? 2 : 1;
      s.stringBytes += uint64_t(std::min(q, end) - b);
      if (q >= end)
        break;
      continue;
    }
    if (c == '{' || c == '[') {
      ++(c == '{' ? s.objects : s.arrays);
      ++s.values;
      if (++depth > limits.maxDepth) {
        err = {size_t(q - p), "JSON nested more than " + std::to_string(limits.maxDepth) + " levels deep"};
        return std::nullopt;
      }
      s.maxDepth = std::max(s.maxDepth, depth);
    } else if (c == '}' || c == ']') {
      depth -= depth > 0;
    } else if (c == ',') {
      ++s.values;
    } else {
      continue;
    }
    // Checked at each container and separator: the estimate grows only there or by
    // string bytes, which the final check covers.
    if (jsonDomEstimate(s) > limits.maxDomBytes) {
      err = {size_t(q - p), "the JSON document would take more than " + std::to_string(limits.maxDomBytes >> 20) +
                                " MiB in memory (" + std::to_string(s.objects) + " objects so far)"};
      return std::nullopt;
    }
  }
  if (jsonDomEstimate(s) > limits.maxDomBytes) {
    err = {text.size(), "the JSON document would take more than " + std::to_string(limits.maxDomBytes >> 20) +
                            " MiB in memory"};
    return std::nullopt;
  }
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v) {
    err = fromLlvm(v.takeError());
    return std::nullopt;
  }
  return std::move(*v);
}

} // namespace fabc
