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
  uint32_t devBegin = 0, devEnd = 0;   // its devices, one id range
  uint32_t linkBegin = 0, linkEnd = 0; // the links its body (and its instances' bodies) made
  SourceRange at;                // the instance statement's template name
};

// A distinct (template, arguments) pair: the arguments as the language prints them,
// "name = value" in parameter order, defaults included.
struct ArgSet {
  uint32_t tmpl = 0;
  std::string text;
};

// An instance path as a backtrace note shows it: a deep recursion's path ('a.x.x.x...')
// cut to its last 60 characters, so the notes stay a few lines whatever the depth.
inline std::string shortInstancePath(std::string s) {
  return s.size() <= 80 ? s : "..." + s.substr(s.size() - 60);
}

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
  // The links of stamped instances, outermost copies only, in order: link l in
  // [begin, end) was copied from link l - delta, in the instance the copy was stamped from.
  struct LinkCopy {
    uint32_t begin, end, delta;
  };
  std::vector<LinkCopy> linkCopies() const {
    std::vector<LinkCopy> out;
    for (const TemplateInstance &t : instances) { // preorder: linkBegin never decreases
      if (t.stampOf == UINT32_MAX || t.linkEnd == t.linkBegin || (!out.empty() && t.linkBegin < out.back().end))
        continue; // evaluated, linkless, or inside the last copy
      out.push_back({t.linkBegin, t.linkEnd, t.linkBegin - instances[t.stampOf].linkBegin});
    }
    return out;
  }
  // The innermost template instance whose devices include dev, or UINT32_MAX.
  // O(log n + depth): a pass may ask for each diagnostic it reports.
  uint32_t instanceOfDevice(uint32_t dev) const {
    return innermost(dev, &TemplateInstance::devBegin, &TemplateInstance::devEnd);
  }
  // The template instance whose body made link l (innermost), or UINT32_MAX: the fabric's
  // body did.
  uint32_t instanceOfLink(uint32_t l) const {
    return innermost(l, &TemplateInstance::linkBegin, &TemplateInstance::linkEnd);
  }

private:
  // Instances are in preorder and their id ranges (devices, links) nest, so `begin` never
  // decreases: the last instance that begins at or before x holds it, or one of its
  // ancestors does.
  uint32_t innermost(uint32_t x, uint32_t TemplateInstance::*begin, uint32_t TemplateInstance::*end) const {
    size_t lo = 0, hi = instances.size();
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (instances[mid].*begin <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (uint32_t i = lo ? uint32_t(lo - 1) : UINT32_MAX; i != UINT32_MAX; i = instances[i].parent)
      if (instances[i].*begin <= x && x < instances[i].*end)
        return i;
    return UINT32_MAX;
  }
};

} // namespace fabc::ir
