// The SARIF 2.1.0 log of a DiagReport (docs/diagnostics-formats.md), apart from Diag.cpp:
// the rules' help pages, artifact URIs under --sarif-root, and fix-its as `fixes`.
#include "diag/DiagCodes.h"
#include "diag/Diag.h"
#include "diag/SarifContext.h"
#include "support/Json.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unistd.h>

namespace fabc {

std::string &sarifRoot(); // Diag.cpp: setSarifRoot's

namespace {
JsonWriter::Sink toFile(FILE *out) {
  return [out](std::string_view s) { std::fwrite(s.data(), 1, s.size(), out); };
}
} // namespace

// FABC_DOCS_URL, else the docs as stdlibDirs() finds the stdlib: installed next to the
// binary (PREFIX/share/doc/fabc), else the source tree built from, else the configured prefix.
static const std::string &docsUrl() {
  static const std::string url = [] {
    if (*FABC_DOCS_URL)
      return std::string(FABC_DOCS_URL);
    auto has = [](const std::string &dir) { return ::access((dir + "/diagnostics.md").c_str(), R_OK) == 0; };
    std::string dir = FABC_INSTALL_DOCS;
    char buf[4096];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    std::string installed = n > 0 ? std::string(buf, size_t(n)) : std::string();
    installed = llvm::sys::path::parent_path(llvm::sys::path::parent_path(installed)).str() + "/share/doc/fabc";
    std::string source = FABC_SOURCE_DOCS;
    if (n > 0 && has(installed))
      dir = installed;
    else if (has(source))
      dir = source;
    return pathToUri(dir);
  }();
  return url;
}

static std::string helpUri(DiagCode code) {
  // docs/diagnostics.md puts <a id="fab-e0042"></a> before each code's section.
  std::string anchor = std::string("fab-") + diagInfo(code).code;
  for (char &c : anchor)
    c = char(std::tolower((unsigned char)c));
  return fmt::format("{}/diagnostics.md#{}", docsUrl(), anchor);
}

namespace {
// Where a SARIF artifact is: a URI relative to the root (with SRCROOT) or an absolute one.
struct Artifact {
  std::string uri;
  bool underRoot = false;
};

std::string absolutePath(const std::string &file) {
  llvm::SmallString<256> p(file);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p.str());
}

Artifact artifactOf(const std::string &file, const std::string &root) {
  if (root.empty())
    return {pathToUri(file), false};
  std::string abs = absolutePath(file);
  if (root == "/" ? abs.size() > 1 : abs.size() > root.size() + 1 && abs.compare(0, root.size(), root) == 0 &&
                                         abs[root.size()] == '/')
    return {pathToUri(abs.substr(root == "/" ? 1 : root.size() + 1)), true};
  return {pathToUri(abs), false};
}

// A file fabc made up, not one on disk: "<command line>" (-D), "<stdin>".
bool pseudoFile(const std::string &f) { return !f.empty() && f[0] == '<'; }

void artifactLocation(JsonWriter &j, const Artifact &a) {
  j.key("artifactLocation").beginObject(JsonLayout::Inline);
  j.key("uri").string(a.uri);
  if (a.underRoot)
    j.key("uriBaseId").string("SRCROOT");
  j.endObject();
}

// A region (SARIF 2.1.0 §3.30) under `key`: lines and code-point columns.
void sarifRegion(JsonWriter &j, const char *key, const DiagReport::Loc &l) {
  j.key(key).beginObject(JsonLayout::Inline);
  j.key("startLine").integer(l.line);
  j.key("startColumn").integer(l.charCol);
  j.key("endLine").integer(l.endLine);
  j.key("endColumn").integer(l.endCharCol);
  j.endObject();
}

void sarifLocation(JsonWriter &j, const DiagReport::Loc &l, const std::string &root) {
  j.key("physicalLocation").beginObject(JsonLayout::Inline);
  artifactLocation(j, artifactOf(l.file, root));
  sarifRegion(j, "region", l);
  j.endObject();
}
// SARIF 2.1.0 §3.55 (fix): one fix per diagnostic, its fix-its grouped into one
// artifactChange per file, each a replacement of a region (empty: an insertion) with text.
void sarifFixes(JsonWriter &j, const DiagReport::Entry &d, const std::string &root) {
  std::vector<std::string> files;
  for (const auto &f : d.fixits) {
    if (!f.first.valid || pseudoFile(f.first.file))
      return; // a fix that cannot be applied in full is not offered
    if (std::find(files.begin(), files.end(), f.first.file) == files.end())
      files.push_back(f.first.file);
  }
  if (files.empty())
    return;
  j.key("fixes").beginArray(JsonLayout::Inline);
  j.beginObject(JsonLayout::Inline);
  std::string what;
  for (const auto &f : d.fixits)
    what += (what.empty() ? "write '" : ", '") + f.second + "'";
  j.key("description").beginObject(JsonLayout::Inline);
  j.key("text").string(what);
  j.endObject();
  j.key("artifactChanges").beginArray(JsonLayout::Inline);
  for (const std::string &file : files) {
    j.beginObject(JsonLayout::Inline);
    artifactLocation(j, artifactOf(file, root));
    j.key("replacements").beginArray(JsonLayout::Inline);
    for (const auto &f : d.fixits) {
      if (f.first.file != file)
        continue;
      j.beginObject(JsonLayout::Inline);
      sarifRegion(j, "deletedRegion", f.first);
      j.key("insertedContent").beginObject(JsonLayout::Inline);
      j.key("text").string(f.second);
      j.endObject();
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  j.endObject();
  j.endArray();
}
} // namespace

void DiagReport::printSarif(FILE *out) const {
  // SARIF 2.1.0 (OASIS), as GitHub code scanning ingests it: one run; every rule with its
  // summary, description, help and help page; every result with a location (a file-level
  // one, on the input, where a diagnostic has no line: GitHub rejects a result without);
  // notes with a location become relatedLocations, the others are appended to the
  // message. Columns count Unicode code points (columnKind).
  JsonWriter j(toFile(out));
  j.beginObject();
  j.key("$schema").string("https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json");
  j.key("version").string("2.1.0");
  j.key("runs").beginArray(JsonLayout::Inline);
  j.beginObject();
  j.key("tool").beginObject(JsonLayout::Inline);
  j.key("driver").beginObject(JsonLayout::Inline);
  j.key("name").string("fabc");
  j.key("version").string(FABC_VERSION);
  j.key("semanticVersion").string(FABC_VERSION);
  j.key("informationUri").string(fmt::format("{}/cli.md", docsUrl()));
  j.key("rules").beginArray(JsonLayout::BlockCloseOnLastLine);
  for (size_t i = 0; i < diagCount(); ++i) {
    j.beginObject(JsonLayout::Inline);
    j.key("id").string(fmt::format("FAB-{}", diagInfo(DiagCode(i)).code));
    j.key("shortDescription").beginObject(JsonLayout::Inline);
    j.key("text").string(diagInfo(DiagCode(i)).summary);
    j.endObject();
    j.key("fullDescription").beginObject(JsonLayout::Inline);
    j.key("text").string(diagInfo(DiagCode(i)).help);
    j.endObject();
    j.key("helpUri").string(helpUri(DiagCode(i)));
    j.key("help").beginObject(JsonLayout::Inline);
    j.key("text").string(diagInfo(DiagCode(i)).help);
    j.endObject();
    j.key("defaultConfiguration").beginObject(JsonLayout::Inline);
    j.key("level").string(diagInfo(DiagCode(i)).severity == Severity::Error ? "error" : "warning");
    j.endObject();
    j.endObject();
  }
  j.endArray();
  j.endObject();
  j.endObject();
  if (!sarifRoot().empty()) {
    j.key("originalUriBaseIds").beginObject(JsonLayout::Inline);
    j.key("SRCROOT").beginObject(JsonLayout::Inline);
    j.key("uri").string(pathToUri(sarifRoot() == "/" ? "/" : sarifRoot() + "/"));
    j.endObject();
    j.endObject();
  }
  j.key("columnKind").string("unicodeCodePoints");
  j.key("results").beginArray();
  for (const Entry &d : entries_) {
    const char *level = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "note";
    std::string text = d.message;
    for (const auto &n : d.notes)
      if (!n.first.valid || pseudoFile(n.first.file))
        text += "\nnote: " + n.second;
    j.beginObject(JsonLayout::Inline);
    j.key("ruleId").string(fmt::format("FAB-{}", diagInfo(d.code).code));
    j.key("ruleIndex").integer(size_t(d.code));
    j.key("level").string(level);
    j.key("message").beginObject(JsonLayout::Inline);
    j.key("text").string(text);
    j.endObject();
    j.key("locations").beginArray(JsonLayout::Inline);
    j.beginObject(JsonLayout::Inline);
    if (d.loc.valid && !pseudoFile(d.loc.file)) {
      sarifLocation(j, d.loc, sarifRoot());
    } else {
      // No line to point at (an unreadable input, a -D value): the input file, as a whole.
      std::string file = d.loc.file.empty() || d.loc.file == "-" ? "<stdin>" : d.loc.file;
      j.key("physicalLocation").beginObject(JsonLayout::Inline);
      artifactLocation(j, pseudoFile(file) ? Artifact{pathToUri(file), false} : artifactOf(file, sarifRoot()));
      j.endObject();
    }
    j.endObject();
    j.endArray();
    unsigned id = 0;
    for (const auto &n : d.notes) {
      if (!n.first.valid || pseudoFile(n.first.file))
        continue;
      if (!id)
        j.key("relatedLocations").beginArray(JsonLayout::Inline);
      j.beginObject(JsonLayout::Inline);
      j.key("id").integer(id);
      sarifLocation(j, n.first, sarifRoot());
      j.key("message").beginObject(JsonLayout::Inline);
      j.key("text").string(n.second);
      j.endObject();
      j.endObject();
      ++id;
    }
    if (id)
      j.endArray();
    sarifFixes(j, d, sarifRoot());
    j.endObject();
  }
  j.endArray();
  j.endObject();
  j.endArray();
  j.endObject();
}

} // namespace fabc
