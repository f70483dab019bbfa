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
  // The digits counted, then written in place from the last (no copy of a few bytes).
  size_t k = 1;
  for (uint64_t t = v; t >= 10; t /= 10)
    ++k;
  size_t n = b.size();
  b.resize(n + k);
  char *d = b.data() + n + k;
  do {
    *--d = char('0' + v % 10);
    v /= 10;
  } while (v);
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
  // A few decimals of a value whose scaled product is exact (every float, and a double
  // with few significant bits: a cable length, a share): the digits are those of the
  // product rounded to the nearest integer, as fmt rounds the exact binary value. A tie
  // (x.5 exactly) and everything else go to fmt, whose rounding of ties is its own.
  static constexpr double scales[] = {1, 10, 100, 1000, 10000};
  if (decimals <= 4 && v > 0 && v < 1e9) {
    double scale = scales[decimals], y = v * scale;
    if (std::fma(v, scale, -y) == 0) { // y is v * scale exactly
      double whole = std::floor(y), frac = y - whole;
      if (frac != 0.5) {
        uint64_t r = uint64_t(whole) + (frac > 0.5 ? 1 : 0), s = uint64_t(scale);
        appendUint(b, r / s);
        char digits[4];
        uint64_t f = r % s;
        for (int i = decimals - 1; i >= 0; --i, f /= 10)
          digits[i] = char('0' + f % 10);
        append(b, '.');
        append(b, std::string_view(digits, size_t(decimals)));
        return;
      }
    }
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
