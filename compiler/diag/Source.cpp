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

bool TextShift::toNew(SourceRange &r) const {
  if (!r.begin.valid() || r.begin.file != file)
    return true;
  const uint64_t o = r.begin.offset, e = o + r.length;
  auto h = std::partition_point(hunks.begin(), hunks.end(), [&](const Hunk &x) { return x.oldEnd <= o; });
  if (h != hunks.end() && h->oldBegin < e)
    return false;
  if (h != hunks.begin())
    r.begin.offset = uint32_t(o - h[-1].oldEnd + h[-1].newEnd);
  return true;
}

bool TextShift::toOld(SourceLoc &l) const {
  if (!l.valid() || l.file != file)
    return true;
  const uint32_t n = l.offset;
  auto h = std::partition_point(hunks.begin(), hunks.end(), [&](const Hunk &x) { return x.newEnd <= n; });
  if (h != hunks.end() && h->newBegin <= n)
    return false;
  if (h != hunks.begin())
    l.offset = n - h[-1].newEnd + h[-1].oldEnd;
  return true;
}

} // namespace fabc
