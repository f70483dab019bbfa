#include "diag/Source.h"

#include <algorithm>

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
  for (uint32_t i = 0; i < f.text.size(); ++i)
    if (f.text[i] == '\n')
      f.lineStarts.push_back(i + 1);
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
