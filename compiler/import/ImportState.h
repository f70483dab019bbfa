#pragma once
// fabc import's private state, shared by its two files: Import.cpp (devices, names,
// models) and Write.cpp (speeds, the text).
#include "discovery/LineReader.h"
#include "import/Import.h"

#include <llvm/ADT/StringMap.h>

#include <array>
#include <string>
#include <vector>

namespace fabc::import {
using ir::None;

struct Port {
  std::string name;    // as discovered: "3" (an InfiniBand switch port), "cx0", "swp3"
  uint32_t number = 0; // InfiniBand switch port number
  uint64_t guid = 0;   // the HCA's node GUID behind a host port
  uint32_t group = 0, index = 0;
  double speed = 0;    // a catalog model's port speed
};

struct Group {
  std::string name;
  uint32_t count = 0;
  double speed = 0;
  int evidence = -1; // how the speed is known: 3 a peer's, 2 stated, 1 SDR stated, 0 nothing
};

struct Dev {
  std::string raw;     // the discovered name of the device (host part)
  std::string full;    // the whole description
  std::string ident;   // the instance name
  std::string comment; // the original, when the host name differs from it
  std::string part, descr;
  bool isSwitch = false, ib = false;
  uint32_t ibPorts = 0; // InfiniBand switch: its record's port count
  uint64_t guid = 0;    // InfiniBand switch node GUID
  uint64_t hostGuid = 0; // a host's pinned base GUID (its HCAs follow fabc's GUID layout)
  discovery::Where at;
  std::vector<Port> ports;
  llvm::StringMap<uint32_t> byKey;
  uint32_t catalogModel = None;
  std::vector<Group> groups; // an undeclared model's groups, as this device shows them
  uint32_t model = None;     // into Importer::models (undeclared models)
};

struct Model {
  std::string name;
  bool isSwitch = false, ib = false;
  std::string part;
  std::vector<Group> groups;
  std::vector<uint32_t> devs;
};

struct End {
  uint32_t dev = None, port = None;
};

std::string groupIdentifier(std::string_view name);
double nominalLaneRate(double signalling);

class Importer {
public:
  Importer(const discovery::Observed &obs, const Catalog &cat, const Options &opts, SourceManager &sm,
           DiagEngine &diags)
      : obs(obs), cat(cat), opts(opts), sm(sm), diags(diags) {}

  void collectDevices();
  void nameDevices();
  bool recognize(Dev &d);
  void layOut(Dev &d);
  void buildModels();   // Write.cpp
  void settleSpeeds();  // Write.cpp
  void pinHostGuids();  // Write.cpp
  void write(std::string &out, Summary &sum); // Write.cpp

  const discovery::Observed &obs;
  const Catalog &cat;
  const Options &opts;
  SourceManager &sm;
  DiagEngine &diags;
  std::vector<Dev> devs;
  std::vector<Model> models;
  std::vector<uint32_t> nodeDev;
  std::vector<std::string> caPort;
  std::vector<std::array<End, 2>> linkEnds;
  // Where each part of the text came from: (line of the text, the discovery record), in
  // line order, for the self-check's diagnostic (importFabric).
  std::vector<std::pair<uint32_t, discovery::Where>> origins;

private:
  uint32_t device(std::string raw, std::string full, bool isSwitch, bool ib, discovery::Where at);
  uint32_t port(uint32_t dev, const std::string &key, uint32_t number);
  double speedOf(const End &e) const;
};

bool checkImported(const Importer &imp, const CompileOptions &co, std::string &out);

} // namespace fabc::import
