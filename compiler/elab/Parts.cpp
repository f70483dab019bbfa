// Chosen parts: `optic = MODEL` / `cable = MODEL` on a link, on an instance (all its
// ports) or one of its port groups (`optic_<group>`), and `policy parts { tier; optic;
// cable; }`. The elaborator checks that the name is a part of the right kind and records
// where it was chosen; the media pass checks that it fits (FAB-E0058).
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"

namespace fabc::elab {

// `optic = M` or `cable = M` into c; false after a diagnostic.
bool Elab::partProp(const ast::Prop &p, bool optic, ir::PartChoice &c) {
  Value v = eval(p.value);
  if (!v.ok())
    return false;
  if (v.type != Value::ModelRef) {
    Diagnostic *d = error(DiagCode::E0026, p.value->range, "'{}' names a model of kind {}, not {}", p.key,
                          optic ? "optic" : "cable", elab::typeName(v));
    DiagEngine::note(d, {}, optic ? "for example: optic = LinkX_800G_2xDR4;" : "for example: cable = SMF_OS2;");
    return false;
  }
  const ir::Model &m = F.models[v.s];
  ir::ModelKind want = optic ? ir::ModelKind::Optic : ir::ModelKind::Cable;
  if (m.kind != want || (optic && m.cpoEngine)) {
    Diagnostic *d = error(DiagCode::E0058, p.value->range, "'{}' is {}, not a{} {}", F.strings.str(m.name),
                          m.cpoEngine ? std::string("a CPO optical engine") : "a model of kind " + std::string(ir::modelKindName(m.kind)),
                          optic ? "n" : "", optic ? "optic" : "cable");
    DiagEngine::note(d, m.loc, m.cpoEngine ? "a CPO port has no pluggable part; its engine is the switch's" : "declared here");
    return false;
  }
  (optic ? c.optic : c.cable) = v.s;
  (optic ? c.opticLoc : c.cableLoc) = propRange(p);
  return true;
}

uint32_t Elab::internChoice(const ir::PartChoice &c) {
  if (c.optic == None && c.cable == None)
    return 0;
  for (size_t i = F.partChoices.size(); i-- > 1 && i + 8 >= F.partChoices.size();)
    if (F.partChoices[i] == c)
      return uint32_t(i); // the same statement run again (a loop): no new entry
  F.partChoices.push_back(c);
  return uint32_t(F.partChoices.size() - 1);
}

// An instance's choices: `optic` / `cable` for all its port groups, `optic_<group>` /
// `cable_<group>` for one (which wins). Returns the index of its set, 0 for none.
uint32_t Elab::deviceChoices(const ir::Model &m, const std::vector<const ast::Prop *> &props) {
  if (props.empty())
    return 0;
  ir::PartChoice all;
  std::vector<ir::PartChoice> group(m.ports.size());
  for (const ast::Prop *p : props) {
    bool optic = p->key.rfind("optic", 0) == 0;
    const size_t cut = 5; // "optic" and "cable" are both 5 letters
    if (p->key.size() == cut) {
      partProp(*p, optic, all);
      continue;
    }
    std::string gname(p->key.substr(cut + 1));
    size_t g = 0;
    while (g < m.ports.size() && F.strings.str(m.ports[g].name) != gname)
      ++g;
    if (g == m.ports.size()) {
      error(DiagCode::E0033, p->keyRange, "model '{}' has no port group '{}'", F.strings.str(m.name), gname);
      continue;
    }
    partProp(*p, optic, group[g]);
  }
  std::vector<uint32_t> set(m.ports.size());
  bool any = false;
  for (size_t g = 0; g < set.size(); ++g) {
    ir::PartChoice c = group[g];
    if (c.optic == None) {
      c.optic = all.optic;
      c.opticLoc = all.opticLoc;
    }
    if (c.cable == None) {
      c.cable = all.cable;
      c.cableLoc = all.cableLoc;
    }
    set[g] = internChoice(c);
    any |= set[g] != 0;
  }
  if (!any)
    return 0;
  auto it = choiceSets_.find(set);
  if (it != choiceSets_.end())
    return it->second;
  F.devChoiceSets.push_back(set);
  uint32_t id = uint32_t(F.devChoiceSets.size() - 1);
  choiceSets_.emplace(std::move(set), id);
  return id;
}

// Called for every device just created: devChoice stays empty until an instance chooses.
void Elab::setDeviceChoice(uint32_t dev, uint32_t set) {
  if (!set && F.devChoice.empty())
    return;
  F.devChoice.resize(F.numDevices(), 0);
  F.devChoice[dev] = set;
}

// Called for every link just added: linkChoice stays empty until a link chooses.
void Elab::setLinkChoice(uint32_t choice) {
  if (!choice && F.linkChoice.empty())
    return;
  F.linkChoice.resize(F.numLinks(), 0);
  F.linkChoice.back() = choice;
}

// policy parts { tier = "leaf"; optic = M; cable = M; }: the parts of every link end on a
// device of that tier ("system" for the end systems), unless a link or instance chooses.
void Elab::partsPolicy(const ast::Stmt *s) {
  ir::PartChoice c;
  ir::Tier tier = ir::Tier::Unknown;
  SourceRange tierAt = s->nameRange();
  for (const ast::Prop &p : s->props) {
    if (p.key == "optic" || p.key == "cable") {
      partProp(p, p.key == "optic", c);
    } else if (p.key == "tier") {
      uint32_t t;
      if (!propStr(p, t))
        continue;
      tier = ir::tierFromName(F.strings.str(t));
      tierAt = p.value->range;
      if (tier == ir::Tier::Unknown) {
        Diagnostic *d = error(DiagCode::E0034, p.value->range, "unknown tier '{}'", F.strings.str(t));
        diags_.suggest(d, p.value->range, F.strings.str(t), "system leaf spine core super");
        DiagEngine::note(d, {}, "tiers: \"system\", \"leaf\", \"spine\", \"core\", \"super\"");
      }
    } else {
      unknownProp(p, "the parts policy", keys::policyKeys("parts"));
    }
  }
  if (tier == ir::Tier::Unknown) {
    bool given = std::any_of(s->props.begin(), s->props.end(), [](const ast::Prop &p) { return p.key == "tier"; });
    if (!given) {
      Diagnostic *d = error(DiagCode::E0037, s->nameRange(), "policy 'parts' needs tier");
      DiagEngine::note(d, {}, "for example: policy parts { tier = \"leaf\"; optic = LinkX_800G_2xDR4; }");
    }
    return;
  }
  uint32_t &slot = F.tierChoice[ir::tierIndex(tier)];
  if (slot) {
    Diagnostic *d = error(DiagCode::E0034, tierAt, "tier '{}' already has a parts policy", ir::tierName(tier));
    const ir::PartChoice &prev = F.partChoices[slot];
    DiagEngine::note(d, prev.optic != None ? prev.opticLoc : prev.cableLoc, "the first one chooses here");
    return;
  }
  slot = internChoice(c);
}

} // namespace fabc::elab
