#pragma once
// The template instances of the instance tree: which NameNode came from which template
// with which arguments, and whether the elaborator evaluated its body or stamped it
// from an earlier instance with the same arguments (docs/decisions/0341-stamped-template-instances.md).
//
// Kept apart from Fabric.h: only the elaborator writes it, and readers (backtraces,
// tools that group copies) look it up by node. One entry per template instance, in
// elaboration order, so a parent precedes its children.
#include "diag/Source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fabc::ir {

struct TemplateInstance {
  uint32_t node = UINT32_MAX;    // its NameNode
  uint32_t parent = UINT32_MAX;  // the enclosing template instance (an index here), or none at the top
  uint32_t tmpl = 0;             // the template's name, interned
  uint32_t argSet = UINT32_MAX;  // index into InstanceTree::argSets: equal for equal template and arguments
  uint32_t stampOf = UINT32_MAX; // none: the body was evaluated; else the instance whose body was copied
  uint32_t devBegin = 0, devEnd = 0; // its devices, one id range
  SourceRange at;                // the instance statement's template name
};

// A distinct (template, arguments) pair: the arguments as the language prints them,
// "name = value" in parameter order, defaults included.
struct ArgSet {
  uint32_t tmpl = 0;
  std::string text;
};

struct InstanceTree {
  std::vector<TemplateInstance> instances;
  std::vector<ArgSet> argSets;
  // How many instances were copied rather than evaluated.
  size_t stamped() const {
    size_t n = 0;
    for (const TemplateInstance &t : instances)
      n += t.stampOf != UINT32_MAX;
    return n;
  }
  // The innermost template instance whose devices include dev, or UINT32_MAX. Device
  // ranges nest and instances are in preorder, so the last one containing dev is the
  // innermost. Linear: for diagnostics, not for per-device loops.
  uint32_t instanceOfDevice(uint32_t dev) const {
    uint32_t found = UINT32_MAX;
    for (size_t i = 0; i < instances.size(); ++i)
      if (instances[i].devBegin <= dev && dev < instances[i].devEnd)
        found = uint32_t(i);
    return found;
  }
};

} // namespace fabc::ir
