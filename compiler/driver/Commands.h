#pragma once
// Subcommands that live outside Driver.cpp's compile pipeline: fmt (source layout), the
// printing of verify, and the atomic file replacement they share.
#include "diag/Diag.h"
#include "verify/Verify.h"

#include <string>
#include <vector>

namespace fabc {

struct FmtRequest {
  std::vector<std::string> inputs; // "-" is stdin
  bool inPlace = false;            // -i: rewrite changed files (atomically)
  bool check = false;              // --check: list files that would change, exit 1
  unsigned width = 100;
  uint64_t maxFileSize = 64ull << 20;
  DiagFormat format = DiagFormat::Text;
  int color = -1;
  DiagReport *report = nullptr;
};
// Exit status: 0 done (or nothing to change), 1 syntax errors or (--check) files to
// reformat, 2 usage or I/O error.
int fmtCommand(const FmtRequest &r);

// Replaces `path` with `text`: writes a temporary file in the same directory, keeps the
// file's permission bits, and renames it over the original. False, with `err`, on failure
// (the original is untouched and the temporary removed).
bool replaceFileAtomically(const std::string &path, const std::string &text, std::string &err);

// fabc verify DESIGN --discovered FILE...: what the command line asked for.
struct VerifyRequest {
  std::vector<std::string> discovered; // discovery files, in order
  std::string scope;                   // --scope
  std::string workOrder;               // --work-order=FILE.csv
  bool json = false;                   // --format=json
};
// Printing (driver/Verify.cpp): the summary and work order, the JSON document, the CSV.
void printVerifyText(const ir::Fabric &F, const VerifyRequest &r, const verify::Result &res, FILE *out);
void printVerifyJson(const ir::Fabric &F, const VerifyRequest &r, const verify::Result &res, FILE *out);
bool writeWorkOrder(const std::string &path, const verify::Result &res, std::string &err);

} // namespace fabc
