#!/usr/bin/env python3
"""Checks fabc diff --format=json for the old.fab -> new.fab pair."""
import json
import sys

d = json.load(open(sys.argv[1]))
s = d["summary"]
assert (s["devices_added"], s["devices_removed"], s["devices_changed"]) == (1, 1, 1), s
assert (s["cables_added"], s["cables_removed"], s["cables_moved"], s["cables_changed"], s["cables_unchanged"]) == \
    (2, 4, 1, 1, 14), s
assert d["old"]["cables"] == s["cables_removed"] + s["cables_moved"] + s["cables_changed"] + s["cables_unchanged"]
assert d["new"]["cables"] == s["cables_added"] + s["cables_moved"] + s["cables_changed"] + s["cables_unchanged"]
for key in ("cables_removed", "cables_added", "devices_removed", "devices_added", "devices_changed",
            "cables_moved", "cables_changed"):
    assert len(d[key]) == s[key], key
assert [c["b"]["device"] for c in d["cables_removed"]] == ["srv[3]"] * 4
moved = d["cables_moved"][0]
assert (moved["old"]["a"]["port"], moved["new"]["a"]["port"]) == ("p[16]", "p[18]"), moved
assert moved["old"]["b"] == moved["new"]["b"]
assert d["cables_changed"][0]["changes"] == {"length_m": ["5.60", "30.00"]}
assert d["devices_changed"] == [{"device": "spine", "changes": {"asn": ["65100", "65101"]}}]
assert d["devices_added"][0]["device"] == "spine_b" and d["devices_added"][0]["tier"] == "spine"
assert {x["device"] for x in d["switches"]} == {"leaf[0]", "leaf[1]", "spine", "spine_b"}
assert d["settings"] == [{"setting": "option mtu", "old": "9100", "new": "9000"}]
bom = {(b["category"], b["sku"], b["order_length_m"]): b["delta"] for b in d["bom"]}
assert bom[("device", "Node4", None)] == -1 and bom[("device", "SW-400-32", None)] == 1, bom
assert all(b["new"] - b["old"] == b["delta"] for b in d["bom"])
p = d["it_power_w"]
assert abs(p["new"] - p["old"] - p["delta"]) < 0.5 and p["estimate"] is False
print("diff json ok")
