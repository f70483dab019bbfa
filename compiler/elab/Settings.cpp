// Options and policies: the core ones into ir::Options / ir::Policy, the Settings.def
// ones as written into ir::Setting for the passes that read them.
#include "diag/DiagCodes.h"
#include "elab/ElabState.h"
#include "elab/PropertyKeys.h"

namespace fabc::elab {

namespace {
const std::string kOptionNames = keys::optionNames();
// keys::policyKinds() as a list: "power, oversubscription, ...".
const std::string kPolicyList = [] {
  std::string r = keys::policyKinds();
  for (size_t at = r.find(' '); at != std::string::npos; at = r.find(' ', at + 2))
    r.replace(at, 1, ", ");
  return r;
}();
} // namespace

void Elab::execOption(const ast::Stmt *s) {
  ast::Prop p;
  p.key = s->name();
  p.keyRange = s->nameRange();
  p.value = s->e1;
  ir::Options &o = F.options;
  if (s->name() == "default_cable_length") {
    if (propQty("option", p, dims::Length, o.defaultCableLength))
      o.defaultCableLengthLoc = s->range;
  } else if (s->name() == "cable_slack")
    propQty("option", p, dims::Length, o.cableSlack);
  else if (s->name() == "pue")
    propQty("option", p, dims::None, o.pue);
  else if (s->name() == "nic_latency")
    propQty("option", p, dims::Time, o.gpuNicLatency);
  else if (isExtraOption(s->name())) {
    ir::Setting st;
    if (setting(p, st) && optionValue(p, st))
      F.extraOptions.push_back(std::move(st));
  } else
    unknownProp(p, "an option", kOptionNames.c_str());
}

bool Elab::isExtraOption(std::string_view name) {
#define OPTION(N, READER, HELP) if (name == #N) return true;
#include "ir/Settings.def"
  return false;
}

bool Elab::setting(const ast::Prop &p, ir::Setting &out) {
  out.name = F.strings.intern(p.key);
  out.loc = p.value->range;
  Value v = eval(p.value);
  switch (v.type) {
  case Value::Void: return false;
  case Value::Int: case Value::Real: case Value::Qty:
    out.type = ir::Setting::Number;
    out.number = v.asDouble();
    // A property counted in percent units takes 2 for 2%, and `2%` (the share 0.02) too.
    if (v.percent && keys::takesPercentUnits(p.key)) {
      out.number *= 100;
      double whole = std::round(out.number); // 7% is 0.07, and 0.07 * 100 is 7.000000000000001
      if (std::fabs(out.number - whole) <= 1e-9 * std::max(1.0, std::fabs(whole)))
        out.number = whole;
    }
    out.dim = v.dimension();
    return true;
  case Value::Str: out.type = ir::Setting::String; out.str = v.s; return true;
  case Value::ModelRef: out.type = ir::Setting::String; out.str = F.models[v.s].name; return true;
  case Value::Bool: out.type = ir::Setting::Bool; out.boolean = v.b; return true;
  case Value::List: {
    // A list of numbers, or of strings (server addresses): never both.
    bool strings = !v.list->empty() && (*v.list)[0].type == Value::Str;
    out.type = strings ? ir::Setting::StringList : ir::Setting::List;
    for (const Value &x : *v.list) {
      if (strings ? x.type != Value::Str : !x.numeric()) {
        error(DiagCode::E0026, p.value->range, "'{}' is a list of numbers or a list of strings", p.key);
        return false;
      }
      if (strings)
        out.strs.push_back(x.s);
      else
        out.list.push_back(x.asDouble());
    }
    return true;
  }
  }
  return false;
}

void Elab::execPolicy(const ast::Stmt *s) {
  ir::Policy pol;
  pol.loc = s->nameRange();
  const std::string k(s->name());
  const char *accepted = "";
  if (k == "power") { pol.kind = ir::PolicyKind::Power; pol.scope = F.strings.intern("rack"); accepted = keys::policyKeys(k); }
  else if (k == "oversubscription") { pol.kind = ir::PolicyKind::Oversubscription; pol.scope = F.strings.intern("leaf"); accepted = keys::policyKeys(k); }
  else if (k == "latency") { pol.kind = ir::PolicyKind::Latency; accepted = keys::policyKeys(k); }
  else if (k == "nvlink") { pol.kind = ir::PolicyKind::NvLink; pol.max = 576; accepted = keys::policyKeys(k); }
  else if (k == "rail_optimized") { pol.kind = ir::PolicyKind::RailOptimized; accepted = keys::policyKeys(k); }
  else if (k == "parts") { partsPolicy(s); return; }
#define POLICY(K, READER, PROPS, HELP) else if (k == #K) { extraPolicy(s, PROPS); return; }
#include "ir/Settings.def"
  else {
    Diagnostic *d = error(DiagCode::E0034, s->nameRange(), "unknown policy '{}'", k);
    diags_.suggest(d, s->nameRange(), k, kPolicyList);
    DiagEngine::note(d, {}, "policies: " + kPolicyList);
    return;
  }
  bool haveMax = pol.kind == ir::PolicyKind::NvLink || pol.kind == ir::PolicyKind::RailOptimized;
  if (pol.kind == ir::PolicyKind::Latency && latencyBetween(s, pol))
    return;
  for (const ast::Prop &p : s->props) {
    if (p.key == "max" && pol.kind != ir::PolicyKind::RailOptimized) {
      Dim want = pol.kind == ir::PolicyKind::Power ? dims::Power : pol.kind == ir::PolicyKind::Latency ? dims::Time : dims::None;
      haveMax = propQty(("policy " + k).c_str(), p, want, pol.max);
    } else if (p.key == "per" && (pol.kind == ir::PolicyKind::Power || pol.kind == ir::PolicyKind::Oversubscription)) {
      // A placement (power's rack, hall, building), a group kind or an instance array: the
      // groups and instances of the whole design are known after elaboration, so the
      // scope is resolved by analysis::measureScopes and an unknown one is FAB-E0370 there.
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        if (pol.kind == ir::PolicyKind::Power && (t == "rack" || t == "hall" || t == "building" || t == "site"))
          pol.scope = v;
        else
          pol.per = v;
        pol.perLoc = p.value->range;
      }
    } else if (p.key == "rail_only" && pol.kind == ir::PolicyKind::RailOptimized) {
      propBool(p, pol.railOnly);
    } else if (p.key == "tier" && pol.kind == ir::PolicyKind::Oversubscription) {
      uint32_t v;
      if (propStr(p, v)) {
        std::string_view t = F.strings.str(v);
        ir::Tier tier = ir::tierFromName(t);
        if (tier < ir::Tier::Leaf || tier > ir::Tier::Core) {
          error(DiagCode::E0034, p.value->range, "tier is \"leaf\", \"spine\" or \"core\", not '{}'", t);
          return;
        }
        pol.scope = v;
        pol.tierGiven = true;
      }
    } else {
      unknownProp(p, ("the " + k + " policy").c_str(), *accepted ? accepted : "no properties");
    }
  }
  if (!haveMax) {
    error(DiagCode::E0037, s->nameRange(), "policy '{}' needs max", k);
    return;
  }
  F.policies.push_back(pol);
}

// `policy latency` with `between`, `round_trip`, `round_trips` or `workflow`: a round trip
// (or N sequential ones) between two places, checked by passes/Validate.cpp against
// analysis::measureLatencyMatrix. True when the policy is of that form (handled here,
// pushed or reported); false for the plain `max` form.
bool Elab::latencyBetween(const ast::Stmt *s, ir::Policy &pol) {
  const ast::Prop *between = nullptr, *max = nullptr, *rt = nullptr, *n = nullptr, *wf = nullptr;
  for (const ast::Prop &p : s->props) {
    if (p.key == "between") between = &p;
    else if (p.key == "max") max = &p;
    else if (p.key == "round_trip") rt = &p;
    else if (p.key == "round_trips") n = &p;
    else if (p.key == "workflow") wf = &p;
  }
  if (!between && !rt && !n && !wf)
    return false;
  for (const ast::Prop &p : s->props)
    if (&p != between && &p != max && &p != rt && &p != n && &p != wf)
      unknownProp(p, "the latency policy", keys::policyKeys("latency"));
  auto form = [&](SourceRange at, const char *what) {
    Diagnostic *d = error(DiagCode::E0383, at, "{}", what);
    DiagEngine::note(d, {}, "write one policy per form: max = 2 us; or between = [\"A\", \"B\"]; round_trip = 1 ms; "
                            "or between = [\"A\", \"B\"]; round_trips = 12; workflow = 10 ms;");
    return true;
  };
  if (!between)
    return form((rt ? rt : n ? n : wf)->keyRange, "a round-trip latency policy needs between = [\"A\", \"B\"]: the two "
                                                  "buildings or sites");
  if (max)
    return form(max->keyRange, "max bounds the worst one-way path of the whole fabric; a policy with between bounds "
                               "round trips (round_trip, or round_trips and workflow)");
  if (rt && (n || wf))
    return form((n ? n : wf)->keyRange, "round_trip bounds one round trip, round_trips and workflow a workflow of "
                                        "several: one of the two forms per policy");
  if (!rt && !(n && wf))
    return form(n ? n->keyRange : wf ? wf->keyRange : s->nameRange(),
                n ? "round_trips needs workflow: the budget of the whole workflow"
                  : wf ? "workflow needs round_trips: how many round trips the workflow makes one after another"
                       : "a latency policy with between needs round_trip, or round_trips and workflow");
  ir::Setting st;
  if (!setting(*between, st))
    return true;
  if (st.type != ir::Setting::StringList || st.strs.size() != 2) {
    Diagnostic *d = error(DiagCode::E0026, between->value->range, "between takes a list of two names");
    DiagEngine::note(d, {}, "two buildings or sites, as strings: between = [\"hq\", \"dr\"];");
    return true;
  }
  pol.placeA = st.strs[0];
  pol.placeB = st.strs[1];
  pol.betweenLoc = between->value->range;
  bool ok;
  if (rt) {
    pol.roundTrips = 1;
    ok = propQty("policy latency", *rt, dims::Time, pol.max);
  } else {
    double count = 0;
    pol.workflow = true;
    ok = propQty("policy latency", *n, dims::None, count) && propQty("policy latency", *wf, dims::Time, pol.max);
    pol.roundTrips = uint32_t(count);
  }
  if (ok)
    F.policies.push_back(pol);
  return true;
}

// A policy property with a row in Ranges.def takes a plain number in its range.
bool Elab::policyValue(const char *where, const ast::Prop &p, const ir::Setting &st) {
  if (!findRangeRow(where, p.key))
    return true;
  if (st.type != ir::Setting::Number || !st.dim.none()) {
    Diagnostic *d = error(st.type != ir::Setting::Number ? DiagCode::E0026 : DiagCode::E0025, p.value->range,
                          "'{}' of the {} takes a plain number", p.key, where);
    DiagEngine::note(d, {}, "for example: " + std::string(p.key) + " = 2;");
    return false;
  }
  return inRange(where, p, st.number, Dim());
}

void Elab::extraPolicy(const ast::Stmt *s, const char *props) {
  ir::PolicyBlock pb;
  pb.kind = F.strings.intern(s->name());
  pb.loc = s->nameRange();
  std::string accepted = std::string(" ") + props + " ";
  for (const ast::Prop &p : s->props) {
    if (accepted.find(" " + std::string(p.key) + " ") == std::string::npos) {
      unknownProp(p, ("the " + std::string(s->name()) + " policy").c_str(), props);
      continue;
    }
    ir::Setting st;
    if (setting(p, st) && policyValue(("policy " + std::string(s->name())).c_str(), p, st))
      pb.props.push_back(std::move(st));
  }
  // A spares policy must name what it spares: min_per_sku applies per named category.
  if (s->name() == "spares") {
    bool named = false;
    for (const ast::Prop &p : s->props)
      named |= p.key.size() > 8 && p.key.compare(p.key.size() - 8, 8, "_percent") == 0;
    if (!named) {
      Diagnostic *d = error(DiagCode::E0037, s->nameRange(), "policy spares names no category");
      DiagEngine::note(d, {}, "give a percent per category, for example: transceiver_percent = 2; cable_percent = 2;");
    }
  }
  F.extraPolicies.push_back(std::move(pb));
}

} // namespace fabc::elab
