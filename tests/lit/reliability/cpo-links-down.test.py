import json, sys
r = json.load(open(sys.argv[1]))["reliability"]
w = r["cpo_what_if"]
print(f"cpo engines: {r['by_category']['cpo_engines']['parts']} parts")
print(f"cpo links down per cpo failure: {w['cpo_links_down_per_year'] / w['cpo_failures_per_year']:.2f}")
yes = lambda b: "yes" if b else "no"
print(f"cpo below pluggable: failures {yes(w['cpo_failures_per_year'] < w['pluggable_failures_per_year'])}, "
      f"links down {yes(w['cpo_links_down_per_year'] < w['pluggable_links_down_per_year'])}")
