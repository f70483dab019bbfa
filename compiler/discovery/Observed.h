#pragma once
// What a built fabric reports about itself, in one neutral model whatever program said
// it (ibnetdiscover, lldpctl, SONiC's `show lldp table`): nodes (name, GUID when known)
// and the links between their ports (each once, with width and lane rate when the
// program states them). compiler/verify/ compares it with the design.
//
// Sized by the discovery, not the file: a link seen from both ends (ibnetdiscover lists
// every link twice, LLDP from both neighbours) is one record. Locations are the file and
// line that first reported a record, for diagnostics.
#include "diag/Source.h"
#include "ir/Fabric.h"
#include "support/JsonRead.h"

#include "ir/DenseKeys.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringMap.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fabc {
class DiagEngine;

namespace discovery {

enum class Format : uint8_t { Ibnetdiscover, LldpJson, SonicLldpTable };
const char *formatName(Format f);

// An observed system name as the design's host names are written: an LLDP system name
// or node description may be fully qualified or upper-case ("Leaf-1.dc.example" is
// "leaf-1"). verify and --guids-from match names through it.
std::string hostKey(std::string_view name);

// A line of a discovery file (file index into Observed::files).
struct Where {
  uint32_t file = UINT32_MAX;
  uint32_t line = 0;
};

struct Node {
  uint32_t name = 0; // interned: an InfiniBand NodeDescription, an LLDP system name
  uint64_t guid = 0; // InfiniBand node GUID, 0 = not known
  uint64_t portGuid = 0; // InfiniBand: an HCA's port 1 GUID as the discovery states it, 0 = not stated
  bool isSwitch = false;
  bool local = false; // LLDP: the host the file was taken on (its own ports are named)
  uint32_t ports = 0;  // InfiniBand: the port count of its node record, 0 = not known
  uint32_t descr = 0;  // interned: LLDP's chassis description (fabc import reads the model in it), 0 = none
  Where at;
};

// One end of a link: a port number (InfiniBand) or a port name (LLDP), or both.
struct End {
  uint32_t node = ir::None;
  uint32_t number = 0; // 0: not known
  uint32_t name = 0;   // interned, 0: not known
};

struct Link {
  End a, b;
  uint8_t width = 0;    // lanes the port trained to (1x, 2x, 4x, 8x, 12x), 0 = not stated
  double laneRate = 0;  // b/s per lane, 0 = not stated
  bool sdr = false;     // the rate is SDR, the default a port reports before it negotiates
  bool confirmed = false; // seen from both ends
  Where at;
};

// 64-bit keys (GUIDs; node << 32 | port), hashed whole (ir::mixKey: with DenseMap's
// default hash, 60 MB of ibnetdiscover output took 111 s). An end key never reaches the
// map's markers (node ids are below 2^32 - 1), and a GUID that large is refused as
// malformed (FAB-E0181).
using ir::FirstReservedKey;
using KeyInfo = ir::MixedKeyInfo;
template <typename V> using KeyMap = llvm::DenseMap<uint64_t, V, KeyInfo>;
using KeySet = llvm::DenseSet<uint64_t, KeyInfo>;

class Observed {
public:
  ir::StringPool strings;
  std::vector<std::string> files; // as given on the command line
  std::vector<Format> formats;    // per file
  std::vector<Node> nodes;
  std::vector<Link> links;

  // InfiniBand: the node of this GUID, created on first sight; a name fills in a node
  // known so far only as a peer. `*clash` is set when the GUID already has another name.
  uint32_t nodeByGuid(uint64_t guid, std::string_view name, bool isSwitch, Where at, bool *clash = nullptr);
  // LLDP: the node of this system name, created on first sight.
  uint32_t nodeByName(std::string_view name, Where at);
  uint32_t findGuid(uint64_t guid) const {
    auto it = byGuid_.find(guid);
    return it == byGuid_.end() ? ir::None : it->second;
  }

  // Adds the link a--b, or merges it with the one already seen at either end. Returns
  // the link's index, or ir::None when an end is already linked to another peer
  // (`other` says which link).
  uint32_t link(const Link &l, uint32_t *other = nullptr);
  // The link at an end, ir::None if none.
  uint32_t linkAt(const End &e) const;

  // LLDP: the MAC address a neighbour's port ID states (lldpd with `portidsubtype
  // macaddress`: the interface's own MAC), by link end; ConflictingMac when two reports of
  // one end differ. fabc build --guids-from pins them on the design's NIC ports
  // (verify/PinMacs.h).
  static constexpr uint64_t ConflictingMac = ~uint64_t(0);
  void setMac(const End &e, uint64_t mac) {
    auto [it, fresh] = macs_.try_emplace(key(e), mac);
    if (!fresh && it->second != mac)
      it->second = ConflictingMac;
  }
  uint64_t macAt(const End &e) const {
    auto it = macs_.find(key(e));
    return it == macs_.end() ? 0 : it->second;
  }
  bool hasMacs() const { return !macs_.empty(); }

  // Diagnostics on a streamed line: registers the line's text with `sm` (only while the
  // engine still prints) and returns a range over [col, col + len) of it.
  SourceRange at(SourceManager &sm, const DiagEngine &diags, Where w, std::string_view lineText, uint32_t col = 0,
                 uint32_t len = 1) const;

  // at() on line w.line of its file, read back from the file (the discovery is streamed,
  // not kept): once the engine stops printing, nothing is read. The first call for a
  // file indexes it in one pass: the line number and offset of the first line to start
  // 4 KiB or more past the previous entry (16 bytes per 4 KiB of file, 0.4%). Each later
  // call reads at most 4 KiB + 400 bytes with pread, so a million carets cost one pass
  // of the file, not a million.
  SourceRange atLine(SourceManager &sm, const DiagEngine &diags, Where w) const;

private:
  std::string lineText(Where w) const;
  struct LineMark {
    uint32_t line;
    uint64_t offset;
  };
  mutable std::vector<std::vector<LineMark>> lineIndex_; // per file
  static uint64_t key(const End &e) {
    return uint64_t(e.node) << 32 | (e.number ? e.number : (0x80000000u | e.name));
  }
  llvm::StringMap<uint32_t> byName_;
  KeyMap<uint32_t> byGuid_;
  KeyMap<uint32_t> byEnd_;
  KeyMap<uint64_t> macs_;
};

// Limits that keep a hostile or huge discovery bounded.
struct ReadLimits {
  uint64_t maxLineBytes = 64 << 10; // a longer line is malformed
  uint64_t maxPorts = 0;            // link ends kept; past it: FAB-E0189. 0 = no limit
  uint64_t maxNodes = 0;            // nodes kept; past it: FAB-E0189. 0 = maxPorts
  uint64_t maxJsonBytes = 64 << 20; // an LLDP JSON document is read whole (one host's neighbours)
  // Each JSON document's nesting and DOM (support/JsonRead.h): lldpctl nests 8 levels at
  // most, and one host's neighbours take a few MiB of DOM.
  JsonLimits json = {64, uint64_t(256) << 20};
};

// Reads one discovery file into `obs`, detecting its format (ibnetdiscover text, lldpctl
// -f json / json0, SONiC `show lldp table`). `localName`: the host an LLDP file was taken
// on when the file does not say (default: the file name up to its first '.'). Reports
// into `diags`; false when the file could not be read or parsed as a whole.
bool readDiscovery(const std::string &path, const std::string &localName, const ReadLimits &limits,
                   Observed &obs, SourceManager &sm, DiagEngine &diags);

// The parsers, on an open stream (unit tests feed them text). Each returns false after
// reporting when the input is not of its format, garbled or truncated.
struct Reader {
  Observed &obs;
  SourceManager &sm;
  DiagEngine &diags;
  const ReadLimits &limits;
  uint32_t file; // index in obs.files
  bool ok = true;
  bool full = false; // maxPorts reached: stop reading
  // Adds a link, reporting a port seen with two peers (FAB-E0184) or the size limit.
  void addLink(const Link &l, std::string_view lineText);
  // A node, reporting a GUID on two nodes (FAB-E0183).
  uint32_t addNode(std::string_view name, uint64_t guid, bool isSwitch, Where at, std::string_view lineText);
  // Text from the file as it goes into names: invalid UTF-8 reported once a file
  // (FAB-W0183) and each bad byte written \xNN, so every output stays UTF-8.
  std::string clean(std::string_view s, Where at, std::string_view lineText);
  bool warnedUtf8 = false;
  llvm::DenseSet<uint64_t> clashReported = llvm::DenseSet<uint64_t>(); // GUID
};
bool parseIbnetdiscover(std::FILE *in, Reader &r);
bool parseLldpJson(std::string_view text, const std::string &localName, Reader &r);
bool parseSonicLldpTable(std::FILE *in, const std::string &localName, Reader &r);

} // namespace discovery
} // namespace fabc
