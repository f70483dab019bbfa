// Myers' O((N+M)D) difference algorithm over lines, after the common head and tail are set
// aside (a reformat changes few lines of a file). Past MaxEdits the middle is given as one
// replacement: still a correct diff, only not the shortest, and bounded in memory.
#include "UnifiedDiff.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

namespace fabc::cli {
namespace {

constexpr long MaxEdits = 1000; // the trace: at most ~16 MB

std::vector<std::string_view> lines(const std::string &s) {
  std::vector<std::string_view> r;
  size_t p = 0;
  while (p < s.size()) {
    size_t e = s.find('\n', p);
    size_t end = e == std::string::npos ? s.size() : e + 1;
    r.emplace_back(s.data() + p, end - p); // with its '\n' (the last may have none)
    p = end;
  }
  return r;
}

enum Op : char { Keep = ' ', Del = '-', Add = '+' };

// The edit script of a[..] into b[..] (no common head or tail), shortest if within MaxEdits.
std::vector<Op> myers(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b) {
  long n = long(a.size()), m = long(b.size()), max = std::min(n + m, MaxEdits);
  std::vector<long> v(size_t(2 * max + 2), 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= max && found < 0; ++d) {
    trace.push_back(v);
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[size_t(k - 1 + max)] < v[size_t(k + 1 + max)])) ? v[size_t(k + 1 + max)]
                                                                                       : v[size_t(k - 1 + max)] + 1;
      long y = x - k;
      while (x < n && y < m && a[size_t(x)] == b[size_t(y)])
        ++x, ++y;
      v[size_t(k + max)] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<Op> ops;
  if (found < 0) { // too different: delete all, then add all
    ops.assign(size_t(n), Del);
    ops.insert(ops.end(), size_t(m), Add);
    return ops;
  }
  long x = n, y = m;
  for (long d = found; d > 0; --d) {
    const std::vector<long> &pv = trace[size_t(d)];
    long k = x - y;
    long pk = (k == -d || (k != d && pv[size_t(k - 1 + max)] < pv[size_t(k + 1 + max)])) ? k + 1 : k - 1;
    long px = pv[size_t(pk + max)], py = px - pk;
    while (x > px && y > py)
      ops.push_back(Keep), --x, --y;
    ops.push_back(x == px ? Add : Del);
    x = px, y = py;
  }
  while (x > 0 && y > 0)
    ops.push_back(Keep), --x, --y;
  std::reverse(ops.begin(), ops.end());
  return ops;
}

void line(std::string &out, char op, std::string_view l) {
  out += op;
  out.append(l.data(), l.size());
  if (l.empty() || l.back() != '\n')
    out += "\n\\ No newline at end of file\n";
}

} // namespace

std::string unifiedDiff(const std::string &before, const std::string &after, const std::string &oldName,
                        const std::string &newName, unsigned context) {
  if (before == after)
    return "";
  std::vector<std::string_view> a = lines(before), b = lines(after);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head])
    ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  std::vector<Op> ops(head, Keep);
  std::vector<std::string_view> am(a.begin() + long(head), a.end() - long(tail)),
      bm(b.begin() + long(head), b.end() - long(tail));
  std::vector<Op> mid = myers(am, bm);
  ops.insert(ops.end(), mid.begin(), mid.end());
  ops.insert(ops.end(), tail, Keep);

  std::string out = fmt::format("--- {}\n+++ {}\n", oldName, newName);
  // Hunks: runs of changes, joined when fewer than 2*context kept lines lie between them.
  size_t i = 0, ai = 0, bi = 0; // position in ops, a, b
  while (i < ops.size()) {
    if (ops[i] == Keep) {
      ++i, ++ai, ++bi;
      continue;
    }
    size_t lead = 0; // kept lines before the change, at most `context`
    while (lead < context && lead < i && ops[i - lead - 1] == Keep)
      ++lead;
    size_t start = i - lead, as = ai - lead, bs = bi - lead;
    size_t end = i; // one past the hunk's last change
    for (size_t j = i; j < ops.size();) {
      if (ops[j] != Keep) {
        end = ++j;
        continue;
      }
      size_t run = 0;
      while (j + run < ops.size() && ops[j + run] == Keep)
        ++run;
      if (j + run == ops.size() || run > 2 * context)
        break;
      j += run;
    }
    size_t trail = 0;
    while (trail < context && end + trail < ops.size() && ops[end + trail] == Keep)
      ++trail;
    std::string body;
    size_t an = 0, bn = 0, x = as, y = bs;
    for (size_t j = start; j < end + trail; ++j) {
      if (ops[j] == Keep)
        line(body, ' ', a[x++]), ++y, ++an, ++bn;
      else if (ops[j] == Del)
        line(body, '-', a[x++]), ++an;
      else
        line(body, '+', b[y++]), ++bn;
    }
    // diff -u: a range of no lines starts at the line before it.
    out += fmt::format("@@ -{},{} +{},{} @@\n", an ? as + 1 : as, an, bn ? bs + 1 : bs, bn);
    out += body;
    i = end + trail;
    ai = x, bi = y;
  }
  return out;
}

} // namespace fabc::cli
