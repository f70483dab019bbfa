#include "support/TextBuffer.h"

#include <cmath>

namespace fabc {

namespace {
// A whole, non-negative number that prints as its digits in every format below (when
// under its limit); -0.0 is excluded: fmt writes it "-0".
inline bool wholeBelow(double v, double limit) {
  return v >= 0 && v < limit && !std::signbit(v) && v == double(uint64_t(v));
}
} // namespace

void appendUint(TextBuffer &b, uint64_t v) {
  char buf[20];
  char *e = buf + sizeof buf, *p = e;
  do {
    *--p = char('0' + v % 10);
    v /= 10;
  } while (v);
  append(b, std::string_view(p, size_t(e - p)));
}

void appendInt(TextBuffer &b, int64_t v) {
  if (v < 0) {
    append(b, '-');
    appendUint(b, ~uint64_t(v) + 1);
  } else {
    appendUint(b, uint64_t(v));
  }
}

void appendFixed0(TextBuffer &b, double v) {
  if (wholeBelow(v, 1e15))
    appendUint(b, uint64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{:.0f}", v);
}

void appendFixed(TextBuffer &b, double v, int decimals) {
  if (decimals <= 0)
    return appendFixed0(b, v);
  if (decimals <= 8 && wholeBelow(v, 1e15)) {
    appendUint(b, uint64_t(v));
    append(b, std::string_view(".00000000", size_t(decimals) + 1));
    return;
  }
  fmt::format_to(fmt::appender(b), "{:.{}f}", v, decimals);
}

void appendShortest(TextBuffer &b, double v) {
  // {:g} keeps 6 significant digits: whole numbers below 1e6 print as integers.
  if (wholeBelow(v, 1e6))
    appendUint(b, uint64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{:g}", v);
}

void appendRoundTrip(TextBuffer &b, double v) {
  // {} switches to an exponent at 1e16: below it a whole number prints as its digits.
  if (wholeBelow(v, 1e15))
    appendUint(b, uint64_t(v));
  else
    fmt::format_to(fmt::appender(b), "{}", v);
}

} // namespace fabc
