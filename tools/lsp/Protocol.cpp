// Framing, URIs and positions for the language server.
#include "tools/lsp/Protocol.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

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
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      starts_.push_back(uint32_t(i + 1));
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
  size_t end = p.line + 1 < starts_.size() ? starts_[p.line + 1] - 1 : text.size();
  if (end > i && text[end - 1] == '\r' && p.line + 1 < starts_.size())
    --end;
  uint32_t ch = 0;
  while (i < end && ch < p.character) {
    size_t len = std::min(seqLen((unsigned char)text[i]), end - i);
    ch += units(len, enc);
    i += len;
  }
  out = uint32_t(i);
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
  static const char hex[] = "0123456789ABCDEF";
  std::string r = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
      r += char(c);
    else {
      r += '%';
      r += hex[c >> 4];
      r += hex[c & 15];
    }
  }
  return r;
}

} // namespace fabc::lsp
