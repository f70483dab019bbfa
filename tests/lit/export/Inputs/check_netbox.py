#!/usr/bin/env python3
"""Checks `fabc export --format=netbox` against NetBox's own import forms.

    check_netbox.py FORMS.json OUT/netbox

FORMS.json is netbox-import-forms.json, extracted from NetBox's source by
scripts/extract-netbox-forms.py (its version and licence are in the file). Every CSV
file must have:
  - a header of columns that its *ImportForm's Meta.fields names, in which every field
    the form declares required is present;
  - in every choice column, only values of that field's NetBox choice set;
  - rows that refer only to objects of the files imported before it (the import order
    docs/export.md gives): a device's site, role, manufacturer, device type and rack; an
    interface's device; a cable's interfaces; an IP address's interface;
  - no two objects with the same key (a device's name, an interface's device and name,
    a cable's end).
Prints one line per file: its form and its row count.
"""
import csv
import json
import os
import sys

FILES = [("01-sites.csv", "SiteImportForm"), ("02-manufacturers.csv", "ManufacturerImportForm"),
         ("03-device-types.csv", "DeviceTypeImportForm"), ("04-device-roles.csv", "DeviceRoleImportForm"),
         ("05-racks.csv", "RackImportForm"), ("06-devices.csv", "DeviceImportForm"),
         ("07-interfaces.csv", "InterfaceImportForm"), ("08-cables.csv", "CableImportForm"),
         ("09-ip-addresses.csv", "IPAddressImportForm")]


def main():
    forms = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    errors = []
    seen = {}  # object kind -> set of keys
    present = sorted(os.listdir(out))
    if present != [f for f, _ in FILES]:
        errors.append("files: %s, expected %s" % (present, [f for f, _ in FILES]))
    for fname, form_name in FILES:
        form = forms["forms"][form_name]
        with open(os.path.join(out, fname), newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
            f.seek(0)
            header = next(csv.reader(f))
        unknown = [c for c in header if c not in form["fields"]]
        missing = [c for c in form["required"] if c not in header]
        if unknown:
            errors.append("%s: columns %s are not fields of NetBox's %s" % (fname, unknown, form_name))
        if missing:
            errors.append("%s: required fields %s of %s are missing" % (fname, missing, form_name))
        for col, choice_set in form["choice_fields"].items():
            allowed = {str(v) for v in forms["choices"][choice_set]}
            for i, r in enumerate(rows):
                v = r.get(col, "")
                if v and v not in allowed:
                    errors.append("%s row %d: %s '%s' is not a %s value" % (fname, i + 2, col, v, choice_set))
        for c in form["required"]:
            for i, r in enumerate(rows):
                if c in r and not r[c]:
                    errors.append("%s row %d: required %s is empty" % (fname, i + 2, c))

        def refer(kind, key, what, i):
            if key not in seen.get(kind, set()):
                errors.append("%s row %d: %s %r is not imported before it" % (fname, i + 2, what, key))

        def add(kind, key, i):
            s = seen.setdefault(kind, set())
            if key in s:
                errors.append("%s row %d: %s %r twice" % (fname, i + 2, kind, key))
            s.add(key)

        for i, r in enumerate(rows):
            if form_name == "SiteImportForm":
                add("site", r["name"], i)
            elif form_name == "ManufacturerImportForm":
                add("manufacturer", r["name"], i)
            elif form_name == "DeviceTypeImportForm":
                refer("manufacturer", r["manufacturer"], "manufacturer", i)
                add("device_type", r["model"], i)
            elif form_name == "DeviceRoleImportForm":
                add("role", r["name"], i)
            elif form_name == "RackImportForm":
                refer("site", r["site"], "site", i)
                add("rack", r["name"], i)
            elif form_name == "DeviceImportForm":
                refer("site", r["site"], "site", i)
                refer("role", r["role"], "role", i)
                refer("manufacturer", r["manufacturer"], "manufacturer", i)
                refer("device_type", r["device_type"], "device type", i)
                if r["rack"]:
                    refer("rack", r["rack"], "rack", i)
                if r["position"] and not r["face"]:
                    errors.append("%s row %d: a position needs a face" % (fname, i + 2))
                add("device", r["name"], i)
            elif form_name == "InterfaceImportForm":
                refer("device", r["device"], "device", i)
                add("interface", (r["device"], r["name"]), i)
            elif form_name == "CableImportForm":
                for side in ("a", "b"):
                    if r["side_%s_type" % side] != "dcim.interface":
                        errors.append("%s row %d: side_%s_type %s" % (fname, i + 2, side, r["side_%s_type" % side]))
                    end = (r["side_%s_device" % side], r["side_%s_name" % side])
                    refer("interface", end, "interface", i)
                    add("cable end", end, i)
            elif form_name == "IPAddressImportForm":
                refer("interface", (r["device"], r["interface"]), "interface", i)
                add("address", r["address"], i)
        print("%s: %s, %d rows" % (fname, form_name, len(rows)))
    for e in errors[:30]:
        print("error: " + e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
