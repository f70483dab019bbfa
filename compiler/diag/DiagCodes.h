#pragma once
// The enumerators of DiagCode, one per DIAG in DiagCodes.def (diag/Diag.h declares the
// type opaque).
#include <cstdint>

namespace fabc {

enum class DiagCode : uint16_t {
#define DIAG(CODE, SEV, SUMMARY, HELP) CODE,
#include "diag/DiagCodes.def"
#undef DIAG
  Count
};

} // namespace fabc
