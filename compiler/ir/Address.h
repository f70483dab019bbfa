#pragma once
// IPv4 addresses, CIDR prefixes and InfiniBand GUIDs as designs write them: one strict
// parser each, used by the elaborator (instance properties loopback, guid) and the passes
// (policy addressing pools, guid_prefix), so a string one stage accepts no other rejects.
#include <cstdint>
#include <string>
#include <string_view>

namespace fabc::ir {

// "a.b.c.d": four decimal parts of 1 to 3 digits, each at most 255, and nothing else (no
// sign, space or trailing text). A leading zero is read as decimal ("010" is 10).
bool parseIPv4(std::string_view s, uint32_t &out);
// "a.b.c.d/len": len is 0 to 32 in 1 or 2 digits, and the host bits are zero.
bool parseCidr(std::string_view s, uint32_t &base, unsigned &len);
std::string ipv4String(uint32_t addr); // host byte order, dotted decimal
// The special-use block (RFC 6890) a prefix overlaps that no interface may be numbered
// from: "0.0.0.0/8 (this network)", loopback 127/8, link-local 169.254/16, multicast
// 224/4, reserved 240/4 and the broadcast address; nullptr for an ordinary prefix.
const char *specialUseBlock(uint32_t base, unsigned len);

// "0x" (or "0X") and 1 to 16 hex digits, either case. `digits` gets how many were written
// (a prefix's width: "0x02fabc" fixes the top 24 bits).
bool parseGuid(std::string_view s, uint64_t &out, unsigned *digits = nullptr);

// "aa:bb:cc:dd:ee:ff": six parts of two hex digits (either case) joined by ':'.
bool parseMac(std::string_view s, uint64_t &out);
// "aa:bb:cc:dd:ee:ff/len": len is 0 to 48 in 1 or 2 digits, and the host bits are zero.
bool parseMacPrefix(std::string_view s, uint64_t &base, unsigned &len);
std::string macString(uint64_t mac); // "aa:bb:cc:dd:ee:ff", lower case

} // namespace fabc::ir
