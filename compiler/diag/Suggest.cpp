// Did-you-mean with a fix-it (Diag.h: DiagEngine::suggest).
#include "diag/Diag.h"

#include <algorithm>
#include <vector>

namespace fabc {

namespace {
// The optimal-string-alignment distance: insertions, deletions, substitutions and
// transpositions of neighbours (teir -> tier) count one each. Past `max`, max + 1.
unsigned editDistance(std::string_view a, std::string_view b, unsigned max) {
  size_t n = a.size(), m = b.size();
  if ((n > m ? n - m : m - n) > max)
    return max + 1;
  std::vector<unsigned> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j)
    prev[j] = unsigned(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = unsigned(i);
    unsigned rowMin = cur[0];
    for (size_t j = 1; j <= m; ++j) {
      unsigned c = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        c = std::min(c, prev2[j - 2] + 1);
      cur[j] = c;
      rowMin = std::min(rowMin, c);
    }
    if (rowMin > max)
      return max + 1;
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return std::min(prev[m], max + 1);
}
} // namespace

std::string_view DiagEngine::suggest(Diagnostic *d, SourceRange r, std::string_view word,
                                     const std::vector<std::string_view> &candidates) {
  // Names are short; a very long word (a generated or hostile file) is nobody's typo.
  if (!d || word.size() < 3 || word.size() > 64 || !r.begin.valid() || r.begin.file >= sm_.size())
    return {};
  // clang's rule for typo correction: at most one edit per three characters.
  unsigned limit = unsigned(word.size() / 3);
  std::string_view best;
  unsigned bestDist = limit + 1;
  bool tie = false;
  for (std::string_view c : candidates) {
    if (c.empty() || c == word || c.find('<') != std::string_view::npos)
      continue;
    unsigned dist = editDistance(word, c, std::min(limit, bestDist));
    if (dist < bestDist) {
      bestDist = dist;
      best = c;
      tie = false;
    } else if (dist == bestDist && dist <= limit && c != best) {
      tie = true;
    }
  }
  if (best.empty() || tie)
    return {};
  // Only where the text is the word: the fix-it replaces exactly what was written.
  std::string_view text = sm_.text(r.begin.file);
  if (uint64_t(r.begin.offset) + r.length > text.size())
    return {};
  std::string_view at = text.substr(r.begin.offset, r.length);
  std::string replacement;
  if (at == word)
    replacement = std::string(best);
  else if (at.size() == word.size() + 2 && at.front() == '"' && at.back() == '"' && at.substr(1, word.size()) == word)
    replacement = "\"" + std::string(best) + "\"";
  else
    return {};
  d->message += fmt::format("; did you mean '{}'?", best);
  fixit(d, r, std::move(replacement));
  return best;
}

std::string_view DiagEngine::suggest(Diagnostic *d, SourceRange r, std::string_view word, std::string_view names) {
  std::vector<std::string_view> list;
  for (size_t i = 0; i < names.size();) {
    size_t j = names.find_first_of(" ,", i);
    if (j == std::string_view::npos)
      j = names.size();
    if (j > i)
      list.push_back(names.substr(i, j - i));
    i = j + 1;
  }
  return suggest(d, r, word, list);
}

SourceRange DiagEngine::element(SourceRange r, std::string_view text, unsigned nth) const {
  if (!r.begin.valid() || r.begin.file >= sm_.size())
    return r;
  std::string_view all = sm_.text(r.begin.file);
  if (uint64_t(r.begin.offset) + r.length > all.size())
    return r;
  std::string_view at = all.substr(r.begin.offset, r.length);
  std::string quoted = "\"" + std::string(text) + "\"";
  size_t i = at.find(quoted);
  for (; nth && i != std::string_view::npos; --nth)
    i = at.find(quoted, i + quoted.size());
  if (i == std::string_view::npos)
    return r;
  return {{r.begin.file, uint32_t(r.begin.offset + i)}, uint32_t(quoted.size())};
}

} // namespace fabc
