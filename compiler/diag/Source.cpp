#include "diag/Source.h"

#include <algorithm>
#include <cstring>

namespace fabc {

uint32_t SourceManager::add(std::string path, std::string text) {
  files_.push_back({std::move(path), std::move(text), {}, 1});
  return uint32_t(files_.size() - 1);
}

uint32_t SourceManager::addLine(std::string path, uint32_t line, std::string text) {
  files_.push_back({std::move(path), std::move(text), {}, line ? line : 1});
  return uint32_t(files_.size() - 1);
}

void SourceManager::index(const File &f) const {
  if (!f.lineStarts.empty())
    return;
  f.lineStarts.push_back(0);
  // memchr, not a loop over bytes: the text of an imported million-GPU fabric is 188 MB,
  // and its first diagnostic indexes all of it.
  const char *b = f.text.data(), *e = b + f.text.size();
  for (const char *p = b; p < e;) {
    const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(e - p)));
    if (!nl)
      break;
    p = nl + 1;
    f.lineStarts.push_back(uint32_t(p - b));
  }
}

LineCol SourceManager::lineCol(SourceLoc loc) const {
  if (!loc.valid() || loc.file >= files_.size())
    return {};
  const File &f = files_[loc.file];
  index(f);
  auto it = std::upper_bound(f.lineStarts.begin(), f.lineStarts.end(), loc.offset);
  uint32_t line = uint32_t(it - f.lineStarts.begin());
  return {line + f.firstLine - 1, loc.offset - f.lineStarts[line - 1] + 1};
}

std::string_view SourceManager::lineText(SourceLoc loc) const {
  if (!loc.valid() || loc.file >= files_.size())
    return {};
  const File &f = files_[loc.file];
  index(f);
  LineCol lc = lineCol(loc);
  uint32_t start = f.lineStarts[lc.line - f.firstLine];
  uint32_t end = start;
  while (end < f.text.size() && f.text[end] != '\n' && f.text[end] != '\r')
    ++end;
  return std::string_view(f.text).substr(start, end - start);
}

} // namespace fabc
