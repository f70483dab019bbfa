"""Every property key the elaborator accepts is in a table of docs/language.md.

The keys are read from the elaborator itself: for each place a property can stand (each
model kind, a port group, instances, links, place, building, hall, span, option, each
policy) a file with an unknown key is compiled, and FAB-E0033's note lists what that
place accepts (`accepted: KEY KEY ...`); the policies are those FAB-E0034's note on an
unknown policy lists. Each key must appear, in backticks, in a table row of the page
(`breakout_<group>` is written `breakout_GROUP` there).
"""
import os
import re
import subprocess
import sys

fabc, doc, work = sys.argv[1], sys.argv[2], sys.argv[3]
SW = 'model SW : switch { port p[2] { speed = 400 Gb/s; } }\nmodel SY : system { gpus = 1; port cx[1] { speed = 400 Gb/s; } }\n'
places = {
    "port group": 'model X : switch { port p[1] { speed = 1 Gb/s; bogus_key = 1; } }\n',
    "switch instance": SW + 'fabric f { s : SW { bogus_key = 1; }; }\n',
    "system instance": SW + 'fabric f { s : SY { bogus_key = 1; }; }\n',
    "link": SW + 'fabric f { a : SW; b : SW; link a -- b { bogus_key = 1; }; }\n',
    "place": SW + 'fabric f { building B { hall H { } } a : SW; place a in B.H { bogus_key = 1; }; }\n',
    "building": 'fabric f { building B { bogus_key = 1; hall H { } } }\n',
    "hall": 'fabric f { building B { hall H { bogus_key = 1; } } }\n',
    "span": 'fabric f { building A { hall H { } } building B { hall H { } } span A -- B { bogus_key = 1; } }\n',
    "option": 'fabric f { option bogus_key = 1; }\n',
}
for kind in ["gpu", "system", "nic", "switch", "nvswitch", "optic", "cable"]:
    places["model " + kind] = 'model X : %s { bogus_key = 1; }\n' % kind


def run(text, name):
    path = os.path.join(work, name.replace(" ", "-") + ".fab")
    open(path, "w").write(text)
    return subprocess.run([fabc, "check", path], capture_output=True, text=True).stderr


policies = re.search(r"note: policies: (.*)", run("fabric f { policy bogus_policy { } }\n", "policies"))
if not policies:
    sys.exit("no list of policies in FAB-E0034's note")
for p in policies.group(1).split(", "):
    places["policy " + p] = "fabric f { policy %s { bogus_key = 1; } }\n" % p

tables = "\n".join(l for l in open(doc, encoding="utf-8") if l.startswith("|"))
documented = set(re.findall(r"`([a-z_A-Z<>]+)`", tables))
keys, missing = 0, []
for place, text in sorted(places.items()):
    err = run(text, place)
    m = re.search(r"note: accepted: (.*)", err)
    if m and m.group(1).strip() == "no properties":
        continue
    if not m:
        if "no properties" in err or "accepted: no properties" in err:
            continue
        missing.append("%s: no 'accepted:' note in\n%s" % (place, err))
        continue
    for key in re.split(r"[ ;:,]+", m.group(1)):
        if not key or not re.match(r"^[a-z_<>]+$", key) or key in ("switches", "systems", "optics", "cables", "and", "nics"):
            continue
        keys += 1
        if key.replace("<group>", "GROUP") not in documented:
            missing.append("%s accepts '%s', which no table of %s lists" % (place, key, os.path.basename(doc)))
for m in missing:
    print(m)
print("%d keys in %d places, %d undocumented" % (keys, len(places), len(missing)))
sys.exit(1 if missing or keys < 50 else 0)
