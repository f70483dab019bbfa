// The format_version of every JSON document fabc writes: "MAJOR.MINOR". Add a key: the
// minor grows; remove a key or change its meaning, type or unit: the major grows and the
// minor is 0 (docs/outputs.md, Versions). Each is the `const` of format_version in its
// schema, docs/schemas/<name>.schema.json: the schema tests (tests/lit/schemas) fail when
// the two disagree, so a bump here is a bump there.
#pragma once

namespace fabc::formats {
inline constexpr const char Summary[] = "1.9";      // summary.json (1.7: fibre_routes, cpo_range; 1.8: addressing_domains; 1.9: their host_pool)
inline constexpr const char Bom[] = "1.0";          // bom/bom.json
inline constexpr const char Energy[] = "1.5";       // energy/energy.json
inline constexpr const char CablingPlan[] = "1.0";  // cabling/plan.json
inline constexpr const char HostsPlan[] = "1.1";    // hosts/plan.json (1.1: bond)
inline constexpr const char Diff[] = "1.1";         // fabc diff --format=json
inline constexpr const char Verify[] = "1.0";       // fabc verify --format=json
inline constexpr const char Export[] = "1.0";       // fabc export --format=json|yaml
inline constexpr const char Sweep[] = "1.1";        // fabc sweep: sweep.json
} // namespace fabc::formats
