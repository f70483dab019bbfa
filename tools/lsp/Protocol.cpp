// Framing, URIs and positions for the language server.
#include "tools/lsp/Protocol.h"
#include "diag/Diag.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace fabc::lsp {

void MessageReader::compact() {
  if (pos_ > 65536 && pos_ * 2 > buf_.size()) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
}

MessageReader::Result MessageReader::next(std::string &out, std::string &error) {
  for (;;) {
    std::string_view rest(buf_.data() + pos_, buf_.size() - pos_);
    size_t end = rest.find("\r\n\r\n");
    if (end == std::string_view::npos) {
      // A header block cannot be this long: garbage. Keep only a tail that could start a
      // header, so that memory stays bounded.
      if (rest.size() > 8192) {
        size_t keep = rest.rfind("Content-Length:");
        pos_ += keep == std::string_view::npos || keep == 0 ? rest.size() - 32 : keep;
        compact();
        // One error per run of junk, however long (a body whose header was refused).
        if (inJunk_)
          return NeedMore;
        inJunk_ = true;
        error = "no header end (\\r\\n\\r\\n) in 8 KiB";
        return BadFraming;
      }
      return NeedMore;
    }
    std::string_view headers = rest.substr(0, end);
    // Resynchronize: junk before a Content-Length header (the tail of a message whose
    // length was wrong) is dropped, with one error.
    size_t cl = headers.find("Content-Length:");
    // Other headers (Content-Type) may come first, each a "Name: value" line.
    bool junk = false;
    if (cl != std::string_view::npos && cl != 0) {
      std::string_view before = headers.substr(0, cl);
      junk = before.size() < 2 || before.substr(before.size() - 2) != "\r\n";
      for (size_t p = 0; !junk && p < before.size();) {
        size_t e = before.find("\r\n", p);
        std::string_view line = before.substr(p, e - p);
        junk = line.find(": ") == std::string_view::npos || line.find('{') != std::string_view::npos;
        p = e + 2;
      }
    }
    if (cl == std::string_view::npos) {
      pos_ += end + 4;
      compact();
      error = "a message without a Content-Length header";
      return BadFraming;
    }
    if (junk) {
      pos_ += cl; // the message itself is read next time
      compact();
      if (inJunk_) {
        inJunk_ = false;
        continue;
      }
      error = "bytes before a Content-Length header (a previous message's length was wrong?)";
      return BadFraming;
    }
    std::string_view value = headers.substr(cl + 15);
    size_t eol = value.find("\r\n");
    if (eol != std::string_view::npos)
      value = value.substr(0, eol);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
      value.remove_suffix(1);
    bool digits = !value.empty() && value.size() <= 12 &&
                  value.find_first_not_of("0123456789") == std::string_view::npos;
    if (!digits) {
      pos_ += end + 4;
      compact();
      error = "Content-Length is not a number: '" + std::string(value.substr(0, 40)) + "'";
      return BadFraming;
    }
    size_t len = size_t(std::strtoull(std::string(value).c_str(), nullptr, 10));
    if (len > maxBody_) {
      // Not trusted: skipping that many bytes could swallow the session. The header is
      // dropped and the reader resynchronizes on the next one (the body, if it comes,
      // is dropped as junk).
      pos_ += end + 4;
      compact();
      inJunk_ = true; // its body, if it follows, is dropped without another error
      error = "Content-Length " + std::to_string(len) + " is more than the limit of " + std::to_string(maxBody_);
      return BadFraming;
    }
    if (rest.size() < end + 4 + len)
      return NeedMore;
    inJunk_ = false;
    out.assign(rest.data() + end + 4, len);
    pos_ += end + 4 + len;
    compact();
    return Message;
  }
}

std::string frame(std::string_view body) {
  std::string r = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  r.append(body.data(), body.size());
  return r;
}

const char *encodingName(Encoding e) {
  switch (e) {
  case Encoding::Utf8: return "utf-8";
  case Encoding::Utf32: return "utf-32";
  case Encoding::Utf16: break;
  }
  return "utf-16";
}

LineTable::LineTable(std::string_view text) {
  starts_.push_back(0);
  // Built for every didChange of a document (a 4.6 MB explicit file in an edit storm):
  // memchr's vectorized scan for '\n' when no '\r' needs the careful loop.
  const char *b = text.data(), *e = b + text.size();
  if (!text.empty() && !std::memchr(b, '\r', text.size())) {
    for (const char *p = b; p < e && (p = static_cast<const char *>(std::memchr(p, '\n', size_t(e - p)))); ++p)
      starts_.push_back(uint32_t(p - b + 1));
    return;
  }
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
      starts_.push_back(uint32_t(i + 1));
}

size_t LineTable::end(std::string_view text, size_t line) const {
  if (line + 1 >= starts_.size())
    return text.size();
  size_t e = starts_[line + 1] - 1; // the '\n' or the lone '\r'
  if (text[e] == '\n' && e > starts_[line] && text[e - 1] == '\r')
    --e;
  return e;
}

namespace {
// The length of the UTF-8 sequence that starts with byte c (1 for a stray byte).
size_t seqLen(unsigned char c) { return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4; }
uint32_t units(size_t len, Encoding enc) {
  return enc == Encoding::Utf8 ? uint32_t(len) : enc == Encoding::Utf32 ? 1 : len == 4 ? 2 : 1;
}
} // namespace

Position LineTable::position(std::string_view text, uint32_t offset, Encoding enc) const {
  if (offset > text.size())
    offset = uint32_t(text.size());
  size_t line = size_t(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin()) - 1;
  if (enc == Encoding::Utf8)
    return {uint32_t(line), offset - starts_[line]};
  uint32_t ch = 0;
  for (size_t i = starts_[line]; i < offset;) {
    size_t len = seqLen((unsigned char)text[i]);
    ch += units(len, enc);
    i += len;
  }
  return {uint32_t(line), ch};
}

bool LineTable::offset(std::string_view text, Position p, Encoding enc, uint32_t &out) const {
  if (p.line >= starts_.size()) {
    // The position just past a final newline is the text's end.
    return false;
  }
  size_t i = starts_[p.line];
  size_t end = this->end(text, p.line);
  uint32_t ch = 0;
  while (i < end && ch < p.character) {
    size_t len = std::min(seqLen((unsigned char)text[i]), end - i);
    ch += units(len, enc);
    i += len;
  }
  out = uint32_t(i);
  return true;
}

namespace {
bool before(Position a, Position b) { return a.line < b.line || (a.line == b.line && a.character <= b.character); }

// A run of changes that all refer to one base text: in reverse document order (each
// ends before the previous one starts, so its positions are the base's) or in document
// order (each starts after the previous one ends; its positions are mapped back through
// the previous change's end). Flushed into the text in one pass. Positions are found
// from the last one found on the same line, forward or backward, so N changes on one
// long line cost the line once, not N times.
class Run {
public:
  Run(std::string &text, Encoding enc) : text_(text), enc_(enc) {}

  bool add(const TextChange &c) {
    if (c.whole) {
      flush();
      text_.assign(c.text.data(), c.text.size());
      linesStale_ = true;
      cp_ = {};
      return true;
    }
    if (!before(c.start, c.end))
      return false;
    // A change that made or split a "\r\n" at its edges moved a line break: positions
    // near it are the current text's only, so the run ends there.
    if (!edits_.empty() && (junction_ || (!(mode_ != Asc && before(c.end, lastStart_) && addDesc(c)) &&
                                          !(mode_ != Desc && before(lastEndCur_, c.start) && addAsc(c)))))
      flush();
    if (edits_.empty()) {
      Spot b = find(c.start), e = find(c.end);
      if (e.off < b.off)
        e = b;
      push(c, b, e, {uint32_t(b.line), uint32_t(b.col)});
    }
    return true;
  }

  void flush() {
    if (edits_.empty())
      return;
    if (mode_ == Desc)
      std::reverse(edits_.begin(), edits_.end());
    size_t size = text_.size();
    for (const Edit &e : edits_)
      size = size - (e.e - e.b) + e.t.size();
    std::string out;
    out.reserve(size);
    size_t pos = 0;
    for (const Edit &e : edits_) {
      out.append(text_, pos, e.b - pos);
      out.append(e.t.data(), e.t.size());
      pos = e.e;
    }
    out.append(text_, pos, std::string::npos);
    text_ = std::move(out);
    linesStale_ = true; // rebuilt if another run follows: most didChanges are one run
    cp_ = {};
    edits_.clear();
    mode_ = None;
  }

private:
  struct Edit {
    size_t b, e;
    std::string_view t;
  };
  // A byte offset of the base text, its line and its column (in units) on that line.
  struct Spot {
    size_t off = 0, line = SIZE_MAX;
    uint64_t col = 0;
  };
  enum Mode { None, Desc, Asc } mode_ = None;
  std::string &text_;
  Encoding enc_;
  LineTable lines_;        // of text_, built when a position is first looked up in it
  bool linesStale_ = true;
  std::vector<Edit> edits_;
  Spot cp_;             // the last position found (a checkpoint on its line)
  Position lastStart_;  // the last change's start in the current text
  Position lastEndCur_; // where the last change's new text ends, in the current text
  Spot lastEnd_;        // the last change's end in the base
  bool junction_ = false; // the last change made or split a "\r\n": positions after it shift
  char tail_ = 0;         // the current text's byte before the last change's end

  // Column `col` of base line `line`, scanning from the checkpoint when it is on that line.
  Spot find(Position p) {
    if (linesStale_) {
      lines_ = LineTable(text_);
      linesStale_ = false;
    }
    if (p.line >= lines_.lines()) // past the last line: the text's end
      p = {uint32_t(lines_.lines() - 1), UINT32_MAX};
    Spot s;
    if (cp_.line == p.line) {
      s = cp_;
    } else {
      s.line = p.line;
      s.off = lines_.start(p.line);
      s.col = 0;
    }
    size_t lineStart = lines_.start(p.line), lineEnd = lines_.end(text_, p.line);
    // Backward: as a forward scan from the line's start would stop.
    while (s.col > p.character && s.off > lineStart) {
      size_t i = s.off - 1;
      while (i > lineStart && s.off - i < 4 && (uint8_t(text_[i]) & 0xC0) == 0x80)
        --i;
      uint32_t u = units(std::min(seqLen((unsigned char)text_[i]), lineEnd - i), enc_);
      if (s.col - u < p.character)
        break;
      s.off = i;
      s.col -= u;
    }
    while (s.off < lineEnd && s.col < p.character) {
      size_t len = std::min(seqLen((unsigned char)text_[s.off]), lineEnd - s.off);
      s.col += units(len, enc_);
      s.off += len;
    }
    cp_ = s;
    return s;
  }

  bool addDesc(const TextChange &c) {
    // Before the previous change: the base text's positions, unchanged.
    Spot b = find(c.start), e = find(c.end);
    if (e.off > edits_.back().b || e.off < b.off)
      return false;
    mode_ = Desc;
    push(c, b, e, {uint32_t(b.line), uint32_t(b.col)});
    return true;
  }

  bool addAsc(const TextChange &c) {
    // After the previous change: on the line where its new text ends, a column maps to
    // the base through that end; a later line maps by the lines the change added.
    auto toBase = [&](Position p) {
      if (p.line == lastEndCur_.line) {
        Spot s = lastEnd_;
        cp_ = s;
        return find({uint32_t(s.line), uint32_t(std::min<uint64_t>(
                                             lastEnd_.col + (uint64_t(p.character) - lastEndCur_.character),
                                             UINT32_MAX))});
      }
      uint64_t line = uint64_t(p.line) - lastEndCur_.line + lastEnd_.line;
      return find({uint32_t(std::min<uint64_t>(line, UINT32_MAX)), p.character});
    };
    Spot b = toBase(c.start), e = toBase(c.end);
    if (b.off < edits_.back().e || e.off < b.off)
      return false;
    // The start in the current text: shifted on the line the last change ended on, and
    // by the lines it added after it.
    Position cur{uint32_t(b.line - lastEnd_.line + lastEndCur_.line), uint32_t(b.col)};
    if (b.line == lastEnd_.line)
      cur.character = uint32_t(b.col - lastEnd_.col + lastEndCur_.character);
    mode_ = Asc;
    push(c, b, e, cur);
    return true;
  }

  // `start`: the change's start in the current text (clamped to its line and the text).
  void push(const TextChange &c, Spot b, Spot e, Position start) {
    const std::string_view t = c.text;
    Position end = start;
    size_t lastBreak = std::string_view::npos;
    for (size_t i = 0; i < t.size(); ++i)
      if (t[i] == '\n' || (t[i] == '\r' && (i + 1 == t.size() || t[i + 1] != '\n'))) {
        ++end.line;
        lastBreak = i;
      }
    uint64_t ch = lastBreak == std::string_view::npos ? end.character : 0;
    for (size_t i = lastBreak == std::string_view::npos ? 0 : lastBreak + 1; i < t.size();) {
      size_t len = std::min(seqLen((unsigned char)t[i]), t.size() - i);
      ch += units(len, enc_);
      i += len;
    }
    end.character = uint32_t(std::min<uint64_t>(ch, UINT32_MAX));
    // "\r" then "\n" across the change's edges is one line break, not two: the mappings
    // would be off by a line, so no change may join this run after this one.
    char prev = !edits_.empty() && mode_ == Asc && edits_.back().e == b.off ? tail_
                : b.off > 0                                                  ? text_[b.off - 1]
                                                                             : 0;
    char next = e.off < text_.size() ? text_[e.off] : 0;
    char first = !t.empty() ? t.front() : next, lastc = !t.empty() ? t.back() : prev;
    junction_ = (prev == '\r' && first == '\n') || (lastc == '\r' && next == '\n');
    tail_ = lastc;
    edits_.push_back({b.off, e.off, t});
    lastStart_ = start;
    lastEndCur_ = end;
    lastEnd_ = e;
  }

};
} // namespace

bool applyChanges(std::string &text, const std::vector<TextChange> &changes, Encoding enc) {
  std::string work = text;
  Run run(work, enc);
  for (const TextChange &c : changes)
    if (!run.add(c))
      return false;
  run.flush();
  text = std::move(work);
  return true;
}

std::string uriToPath(std::string_view uri) {
  if (uri.substr(0, 7) != "file://")
    return {};
  uri.remove_prefix(7);
  // file://host/path: only the local host.
  size_t slash = uri.find('/');
  if (slash == std::string_view::npos)
    return {};
  std::string_view host = uri.substr(0, slash);
  if (!host.empty() && host != "localhost")
    return {};
  uri.remove_prefix(slash);
  std::string r;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit((unsigned char)uri[i + 1]) &&
        std::isxdigit((unsigned char)uri[i + 2])) {
      r += char(std::strtol(std::string(uri.substr(i + 1, 2)).c_str(), nullptr, 16));
      i += 2;
    } else {
      r += uri[i];
    }
  }
  if (r.find('\0') != std::string::npos)
    return {};
  return r;
}

std::string pathToFileUri(std::string_view path) {
  // Only the unreserved characters and '/' as they are: what editors write themselves.
  return "file://" + percentEncode(path, "-._~/");
}

} // namespace fabc::lsp
