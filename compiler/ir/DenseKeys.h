#pragma once
// Keys that user input can reach, in llvm::DenseMap / DenseSet.
//
// DenseMap reserves two values of its key type as the empty and tombstone markers
// (~0 and ~0 - 1 for unsigned integers). A design may legally state any 32-bit ASN
// (4294967295 is the documented maximum), a loopback of 255.255.255.255, or any 64-bit
// GUID: used directly as keys, those crashed the passes or read as "present" (a false
// "pool exhausted" at the top of a range). So:
//  - a 32-bit value goes in widened to uint64_t (Wide32), which never reaches the markers;
//  - a full-range 64-bit value goes in a U64Set, which keeps the two reserved values aside.
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>

#include <cstdint>

namespace fabc::ir {

// DenseMap's two marker keys for uint64_t: ~0 - 1 (tombstone) and ~0 (empty).
constexpr uint64_t FirstReservedKey = ~uint64_t(0) - 1;

// DenseMapInfo<uint64_t> hashes with (unsigned)(x * 37), which drops the high half: keys
// built as high << 32 | low (parent node and symbol, node and port) all collide and
// lookups go quadratic. This mixes the whole key (splitmix64's finalizer).
inline uint64_t mixKey(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// uint64_t keys hashed with mixKey; the markers stay DenseMap's (never reached by keys
// below FirstReservedKey).
struct MixedKeyInfo {
  static uint64_t getEmptyKey() { return ~uint64_t(0); }
  static uint64_t getTombstoneKey() { return FirstReservedKey; }
  static unsigned getHashValue(uint64_t v) { return unsigned(mixKey(v)); }
  static bool isEqual(uint64_t a, uint64_t b) { return a == b; }
};

template <typename V> using Wide32Map = llvm::DenseMap<uint64_t, V>;
using Wide32Set = llvm::DenseSet<uint64_t>;

class U64Set {
public:
  bool insert(uint64_t v) {
    if (v >= Reserved) {
      bool &b = reserved_[v - Reserved];
      bool fresh = !b;
      b = true;
      return fresh;
    }
    return set_.insert(v).second;
  }
  bool count(uint64_t v) const { return v >= Reserved ? reserved_[v - Reserved] : set_.count(v) != 0; }
  bool empty() const { return set_.empty() && !reserved_[0] && !reserved_[1]; }
  size_t size() const { return set_.size() + reserved_[0] + reserved_[1]; }

private:
  static constexpr uint64_t Reserved = FirstReservedKey; // DenseMapInfo<uint64_t>'s tombstone, then empty key
  llvm::DenseSet<uint64_t> set_;
  bool reserved_[2] = {false, false};
};

} // namespace fabc::ir
