// A document's compilation as the protocol sees it: positions, locations and the
// published diagnostics (the same as `fabc check`'s, notes as related information).
#include "diag/DiagCodes.h"
#include "tools/lsp/Server.h"
#include "tools/lsp/Worker.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>

namespace fabc::lsp {

namespace json = llvm::json;

std::string safeText(std::string s);

Document &Server::document(const json::Object *params) { return document(params, false); }

Document &Server::documentOrStale(const json::Object *params) { return document(params, !staleDenied_); }

Document &Server::document(const json::Object *params, bool staleOk) {
  const json::Object *td = params ? params->getObject("textDocument") : nullptr;
  auto uri = td ? td->getString("uri") : llvm::None;
  if (!uri)
    throw RequestError{InvalidParams, "missing textDocument.uri"};
  auto it = docs_.find(uri->str());
  if (it == docs_.end()) {
    // Not open: read it from disk for this request (an editor may ask about a file it
    // has not opened); a file that vanished is a failed request, not a crash.
    std::string path = uriToPath(*uri), text, err;
    if (path.empty() || !readSource(path, opts_.compile.maxFileSize, text, err))
      throw RequestError{RequestFailed, "'" + uri->str() + "' is not open and cannot be read" +
                                            (err.empty() ? std::string() : ": " + err)};
    auto doc = std::make_unique<Document>();
    doc->uri = uri->str();
    doc->open = false;
    doc->path = path;
    doc->realPath = realPathOf(path);
    doc->text = std::move(text);
    Document &d = *doc;
    compile(d);
    // Kept only for this request: a document the client did not open is not tracked.
    transient_ = std::move(doc);
    return d;
  }
  Document &d = *it->second;
  d.stale.on = false;
  if (d.trivial && !(staleOk && answerStale(d, params))) {
    // This request needs the text's own parse: compile it now.
    d.trivial = false;
    d.dirty = true;
  }
  if (!worker_) {
    if (d.dirty)
      compile(d);
  } else {
    // Pending edits are compiled at once (no quiet period), and the answer needs only
    // their parse: the check may go on meanwhile (Document::full). The worker's parse
    // when their job runs now or next; otherwise (the worker compiles another document,
    // or a stale compile of this one has not stopped yet: a pass runs to its end before
    // it sees the cancellation) this thread parses the text itself, which costs the
    // parse (a few ms for a million GPUs' 17 KB source) instead of that wait.
    collect();
    if (d.dirty)
      submit(d);
    if (d.installed != d.submitted && !(staleOk && answerStale(d, params))) {
      if (worker_->startsNext(d.submitted)) {
        worker_->waitFor(d.submitted);
        collect();
      } else {
        parseHere(d);
      }
    }
  }
  if (!d.comp)
    throw RequestError{RequestFailed, "'" + d.uri + "' could not be compiled (out of memory)"};
  return d;
}

// Binary search of the run that holds `off` (on the old side, or on the new one).
static bool mapThrough(const std::vector<hand::TextRun> &runs, uint32_t off, bool toNew, uint32_t &out) {
  if (off == 0) {
    out = 0;
    return true;
  }
  auto from = [&](const hand::TextRun &r) { return toNew ? r.oldBegin : r.newBegin; };
  auto it = std::upper_bound(runs.begin(), runs.end(), off,
                             [&](uint32_t o, const hand::TextRun &r) { return o < from(r); });
  if (it == runs.begin())
    return false;
  const hand::TextRun &r = *--it;
  if (off - from(r) > r.oldEnd - r.oldBegin)
    return false;
  out = toNew ? r.newBegin + (off - r.oldBegin) : r.oldBegin + (off - r.newBegin);
  return true;
}

bool Document::Stale::toNew(uint32_t off, uint32_t &out) const { return mapThrough(runs, off, true, out); }
bool Document::Stale::toOld(uint32_t off, uint32_t &out) const { return mapThrough(runs, off, false, out); }

void Server::diffRegion(Document &d) {
  Document::Stale &st = d.stale;
  if (st.version == d.version && st.installed == d.installed)
    return;
  std::string_view old = d.comp->sources().text(d.mainFile), now = d.text;
  st.version = d.version;
  st.installed = d.installed;
  st.lines = LineTable(now);
  // Behind by comments and white space only: every token maps, however many edits.
  if (d.trivial && hand::sameTokens(old, now, &st.runs, tokenMarks(d)))
    return;
  // Otherwise the one region where the texts differ, found from both ends.
  auto [p, q] = hand::commonEnds(old, now);
  st.runs = {{0, uint32_t(p), 0}, {uint32_t(old.size() - q), uint32_t(old.size()), uint32_t(now.size() - q)}};
}

// A 4.6 MB explicit file parses in ~75 ms (more while the worker compiles on the other
// core), longer than an answer to hover may take; its last parse knows the same names
// everywhere but where the edit is. So a request whose position is on a line both texts
// share (or that has none: the outline) reads that parse, and its positions are mapped
// through the stretches the texts share. A position on an edited line, a text that did
// not parse, or a small text (a parse of a few ms) waits for the parse as before.
bool Server::answerStale(Document &d, const json::Object *params) {
  // A text behind by trivia only is read this way at any size: the alternative is a compile.
  if (!d.comp || !d.index || d.syntaxErrors || d.oversize || (!d.trivial && d.text.size() < opts_.staleAboveBytes) ||
      d.mainFile >= d.comp->sources().size())
    return false;
  diffRegion(d);
  Document::Stale &st = d.stale;
  if (const json::Object *pos = params ? params->getObject("position") : nullptr) {
    auto line = pos->getInteger("line");
    if (!line || *line < 0 || uint64_t(*line) >= st.lines.lines())
      return false; // malformed or past the end: the exact path says why
    // The request's line, the same in the old text: what a request reads around its
    // position (a word, the start of a statement) is on it.
    std::string_view now = d.text, old = d.comp->sources().text(d.mainFile);
    uint32_t b = st.lines.start(size_t(*line)), e = uint32_t(st.lines.end(now, size_t(*line))), ob, oe;
    if (!st.toOld(b, ob) || !st.toOld(e, oe) || oe - ob != e - b || old.compare(ob, e - b, now.substr(b, e - b)) != 0)
      return false;
  }
  st.on = true;
  return true;
}

Document &Server::checkedDocumentOrTrivia(const json::Object *params) {
  if (worker_ && !staleDenied_) {
    const json::Object *td = params ? params->getObject("textDocument") : nullptr;
    auto uri = td ? td->getString("uri") : llvm::None;
    auto it = uri ? docs_.find(uri->str()) : docs_.end();
    if (it != docs_.end()) {
      Document &d = *it->second;
      d.stale.on = false;
      if (d.trivial && !d.dirty && d.full && d.installed == d.submitted && answerStale(d, params))
        return d;
    }
  }
  return checkedDocument(params);
}

Document &Server::checkedDocument(const json::Object *params) {
  Document &d = document(params);
  // The parse is installed; its check's result is the job's next (and last) post. Only
  // a newer job cancels it, and none is submitted while this thread waits.
  while (worker_ && !d.full && d.installed == d.submitted) {
    worker_->waitFor(d.submitted);
    collect();
  }
  return d;
}

// The limit the command line applies to a file (--max-file-size), applied to what an
// editor sends: a text past it is not kept (an editor's buffer can grow without bound,
// the server's memory may not), and the document's diagnostics say why.
void Server::setText(Document &d, std::string text) {
  if (text.size() <= opts_.compile.maxFileSize) {
    d.text = std::move(text);
    d.oversize = 0;
    return;
  }
  d.oversize = text.size();
  d.text.clear();
  d.text.shrink_to_fit();
  log(2, "'" + d.uri + "' is " + std::to_string(d.oversize) + " bytes, past --max-file-size: not kept");
}

bool Server::applyContentChanges(Document &d, const json::Array &changes) {
  std::vector<TextChange> list;
  list.reserve(changes.size());
  bool whole = false; // a whole text replaces what an oversized document lost
  for (const json::Value &c : changes) {
    const json::Object *o = c.getAsObject();
    auto newText = o ? o->getString("text") : llvm::None;
    if (!newText) {
      log(1, "a content change without text: the whole didChange is ignored");
      return false;
    }
    TextChange tc;
    tc.text = *newText;
    const json::Object *r = o->getObject("range");
    if (!r) {
      tc.whole = whole = true;
      list.push_back(tc);
      continue;
    }
    auto pos = [&](const char *key, Position &out) {
      const json::Object *po = r->getObject(key);
      auto line = po ? po->getInteger("line") : llvm::None;
      auto ch = po ? po->getInteger("character") : llvm::None;
      if (!line || !ch || *line < 0 || *ch < 0 || *line > INT32_MAX || *ch > INT32_MAX)
        return false;
      out = {uint32_t(*line), uint32_t(*ch)};
      return true;
    };
    if (!pos("start", tc.start) || !pos("end", tc.end)) {
      log(1, "a content change with a malformed range: the whole didChange is ignored");
      return false;
    }
    if (d.oversize && !whole) {
      log(2, "'" + d.uri + "' is past --max-file-size: its ranged changes are ignored until the whole text is sent");
      return false;
    }
    list.push_back(tc);
  }
  // applyChanges leaves the text as it was when it fails: no copy of it here.
  if (!applyChanges(d.text, list, enc_)) {
    log(1, "a content change with a malformed range: the whole didChange is ignored");
    return false;
  }
  if (d.oversize || d.text.size() > opts_.compile.maxFileSize)
    setText(d, std::move(d.text)); // refused, or a whole text that replaces a refused one
  return true;
}

void Server::reportOversize(Document &d) {
  Diagnostic *dg = d.comp->diags().report(
      DiagCode::E0005, {{d.mainFile, 0}, 0}, "the document is {} bytes, past the limit of {} (--max-file-size): not compiled",
      d.oversize, opts_.compile.maxFileSize);
  DiagEngine::note(dg, {}, "split the file, or start the language server with a larger --max-file-size; the server "
                           "keeps nothing of it until the editor sends a text within the limit (reopen the file)");
}

static const LineTable &linesOf(Document &d, uint32_t file) {
  auto it = d.lines.find(file);
  if (it == d.lines.end())
    it = d.lines.emplace(file, LineTable(d.comp->sources().text(file))).first;
  return it->second;
}

// Offset `offset` of file `file` in d's compilation as a protocol position; while d is
// answered stale, a main-file offset is first mapped to d's current text, and one inside
// the edited region ends the stale answer (StaleMiss).
static Position positionOf(Document &d, uint32_t file, uint32_t offset, Encoding enc) {
  if (!d.comp || file >= d.comp->sources().size())
    return {};
  if (d.stale.on && file == d.mainFile) {
    uint32_t now;
    if (!d.stale.toNew(offset, now))
      throw StaleMiss{};
    return d.stale.lines.position(d.text, now, enc);
  }
  return linesOf(d, file).position(d.comp->sources().text(file), offset, enc);
}

static json::Value positionValue(Position p) {
  return json::Object{{"line", int64_t(p.line)}, {"character", int64_t(p.character)}};
}

json::Value Server::position(Document &d, uint32_t file, uint32_t offset) {
  return positionValue(positionOf(d, file, offset, enc_));
}

json::Value Server::range(Document &d, SourceRange r) {
  if (!r.begin.valid() || !d.comp || r.begin.file >= d.comp->sources().size())
    return json::Object{{"start", position(d, 0, 0)}, {"end", position(d, 0, 0)}};
  uint64_t end = uint64_t(r.begin.offset) + r.length;
  return json::Object{
      {"start", positionValue(positionOf(d, r.begin.file, r.begin.offset, enc_))},
      {"end", positionValue(positionOf(d, r.begin.file, uint32_t(std::min<uint64_t>(end, UINT32_MAX)), enc_))}};
}

void Server::writeRange(json::OStream &j, Document &d, SourceRange r) {
  auto pos = [&](uint32_t file, uint32_t offset) {
    Position p = positionOf(d, file, offset, enc_);
    j.object([&] {
      j.attribute("character", int64_t(p.character));
      j.attribute("line", int64_t(p.line));
    });
  };
  bool valid = r.begin.valid() && d.comp && r.begin.file < d.comp->sources().size();
  uint32_t file = valid ? r.begin.file : 0, b = valid ? r.begin.offset : 0;
  uint32_t e = valid ? uint32_t(std::min<uint64_t>(uint64_t(r.begin.offset) + r.length, UINT32_MAX)) : 0;
  j.object([&] {
    j.attributeBegin("end");
    pos(file, e);
    j.attributeEnd();
    j.attributeBegin("start");
    pos(file, b);
    j.attributeEnd();
  });
}

std::string Server::uriOf(Document &d, uint32_t file) {
  if (file == d.mainFile)
    return d.uri;
  std::string p = d.comp->sources().path(file);
  if (!p.empty() && p[0] != '/') {
    char buf[PATH_MAX];
    if (::realpath(p.c_str(), buf))
      p = buf;
  }
  // An open document is known by the URI its editor gave (the worker calls this too).
  std::lock_guard<std::mutex> lk(docsMu_);
  for (auto &kv : docs_)
    if (kv.second->path == p || kv.second->realPath == p)
      return kv.first;
  return pathToFileUri(p);
}

json::Value Server::location(Document &d, SourceRange r) {
  return json::Object{{"uri", uriOf(d, r.begin.valid() ? r.begin.file : d.mainFile)}, {"range", range(d, r)}};
}

uint32_t Server::offsetOf(Document &d, const json::Object *params) {
  const json::Object *p = params ? params->getObject("position") : nullptr;
  auto line = p ? p->getInteger("line") : llvm::None;
  auto ch = p ? p->getInteger("character") : llvm::None;
  if (!line || !ch || *line < 0 || *ch < 0 || *line > INT32_MAX || *ch > INT32_MAX)
    throw RequestError{InvalidParams, "missing or malformed 'position' (line and character, unsigned integers)"};
  bool stale = d.stale.on;
  std::string_view text = stale ? std::string_view(d.text) : d.comp->sources().text(d.mainFile);
  const LineTable &lines = stale ? d.stale.lines : linesOf(d, d.mainFile);
  uint32_t off;
  if (!lines.offset(text, {uint32_t(*line), uint32_t(*ch)}, enc_, off))
    throw RequestError{InvalidParams, "position line " + std::to_string(*line) + " is past the end of the document (" +
                                          std::to_string(lines.lines()) + " lines)"};
  uint32_t old = off;
  if (stale && !d.stale.toOld(off, old))
    throw StaleMiss{};
  return old;
}

void Server::publish(Document &d, const std::atomic<bool> *cancel, const std::function<void()> &beforeSend) {
  json::Array out;
  // Reserved: llvm::json::Value's move is not noexcept (LLVM 14), so a growing array
  // deep-copies every element it holds at each reallocation.
  out.reserve(d.comp->diags().all().size());
  d.published.clear();
  const SourceManager &sm = d.comp->sources();
  const LoadedProgram &prog = d.comp->program();
  // A diagnostic in an imported file shows on the main file's import that brought it in.
  std::map<uint32_t, SourceRange> via;
  if (prog.main) {
    for (const ast::Import &imp : prog.main->imports) {
      std::vector<uint32_t> todo{imp.file};
      while (!todo.empty()) {
        uint32_t f = todo.back();
        todo.pop_back();
        if (f == UINT32_MAX || via.count(f) || f == d.mainFile)
          continue;
        via[f] = imp.range;
        for (const ast::File *file : prog.files)
          if (file->fileId == f)
            for (const ast::Import &sub : file->imports)
              todo.push_back(sub.file);
      }
    }
  }
  for (const Diagnostic &dg : d.comp->diags().all()) {
    SourceRange r = dg.range;
    std::string message = dg.message;
    json::Array related;
    if (r.begin.valid() && r.begin.file != d.mainFile) {
      // Where it really is, as related information, and the import as the range.
      related.push_back(json::Object{{"location", location(d, r)}, {"message", "reported here"}});
      LineCol lc = sm.lineCol(r.begin);
      message = "in " + sm.path(r.begin.file) + ":" + std::to_string(lc.line) + ": " + message;
      auto it = via.find(r.begin.file);
      r = it != via.end() ? it->second : SourceRange{{d.mainFile, 0}, 0};
    } else if (!r.begin.valid()) {
      r = {{d.mainFile, 0}, 0};
    }
    for (const DiagNote &n : dg.notes)
      related.push_back(json::Object{{"location", location(d, n.range.begin.valid() ? n.range : dg.range)},
                                     {"message", safeText(n.message)}});
    std::string code = std::string("FAB-") + diagInfo(dg.code).code;
    json::Object o{{"range", range(d, r)},
                   {"severity", dg.severity == Severity::Error ? 1 : dg.severity == Severity::Warning ? 2 : 3},
                   {"code", code},
                   {"source", "fabc"},
                   {"message", safeText(message)}};
    if (!related.empty())
      o["relatedInformation"] = std::move(related);
    Document::Published pub;
    pub.begin = r.begin.offset;
    pub.end = r.begin.offset + r.length;
    pub.code = code;
    if (!dg.fixits.empty()) {
      // The fix-its, as one edit: a quick fix (Actions.cpp) applies them all or none.
      for (const FixIt &f : dg.fixits) {
        json::Value edit = json::Object{{"range", range(d, f.range)}, {"newText", safeText(f.replacement)}};
        std::string uri = uriOf(d, f.range.begin.file);
        if (json::Array *edits = pub.fixChanges.getArray(uri))
          edits->push_back(std::move(edit));
        else
          pub.fixChanges[uri] = json::Array{std::move(edit)};
      }
      const FixIt &f = dg.fixits[0];
      std::string_view text = sm.text(f.range.begin.file);
      std::string_view old = f.range.begin.offset + uint64_t(f.range.length) <= text.size()
                                 ? text.substr(f.range.begin.offset, f.range.length)
                                 : std::string_view();
      pub.fixTitle = dg.fixits.size() > 1 ? "Apply the fix of " + code
                     : old.empty()        ? "Insert '" + f.replacement + "'"
                                          : "Replace '" + std::string(old) + "' with '" + f.replacement + "'";
      pub.fixTitle = safeText(std::move(pub.fixTitle));
      pub.diagnostic = json::Object(o);
    }
    out.push_back(std::move(o));
    d.published.push_back(std::move(pub));
  }
  std::lock_guard<std::mutex> lk(publishMu_);
  if (cancel && cancel->load())
    return;
  if (beforeSend)
    beforeSend();
  notify("textDocument/publishDiagnostics",
         json::Object{{"uri", d.uri}, {"version", d.version}, {"diagnostics", std::move(out)}});
}

// A copy of a large text in a buffer rounded up to whole MiB. Each compile copies the
// document's text; with exact sizes, a text one character longer than the last no longer
// fits the block the last copy freed, and the server's heap (decision 0471, amendment)
// grew in steps over a long session. Rounded, the copies of successive edits are the
// same size and reuse each other's blocks.
std::string roundedCopy(const std::string &s) {
  constexpr size_t kMiB = size_t(1) << 20;
  std::string r;
  if (s.size() >= kMiB)
    r.reserve((s.size() / kMiB + 1) * kMiB);
  r.assign(s);
  return r;
}

} // namespace fabc::lsp
