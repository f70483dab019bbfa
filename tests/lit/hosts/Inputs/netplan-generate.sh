#!/usr/bin/env bash
# Renders every server's netplan file fabc wrote (OUTDIR/hosts/netplan/HOST.yaml) with the
# real `netplan generate` on a scratch root, as /etc/netplan/60-fabc-gpu.yaml, and prints,
# per host, the systemd-networkd settings it produced for each NIC (MTUBytes,
# RequiredForOnline, Address, and per route Destination, Scope, PreferredSource, Gateway,
# Table, Metric; From of the routing rule; MACAddress of a NIC matched by its MAC, and the
# .link file that renames it; a bond's .netdev: Kind, Mode, TransmitHashPolicy,
# LACPTransmitRate, MIIMonitorSec, and its members' Bond=). netplan rejects an invalid file with a message and a
# non-zero status.
#   usage: netplan-generate.sh OUTDIR
set -euo pipefail
OUT=${1:?usage: netplan-generate.sh OUTDIR}
WORK=$(mktemp -d /tmp/fabc-netplan.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
n=0
for f in "$OUT"/hosts/netplan/*.yaml; do
  host=$(basename "$f" .yaml)
  root="$WORK/$host"
  mkdir -p "$root/etc/netplan"
  install -m 600 "$f" "$root/etc/netplan/60-fabc-gpu.yaml"
  netplan generate --root-dir "$root"
  for net in "$root"/run/systemd/network/*.network; do
    nic=$(sed -n 's/^Name=//p' "$net")
    echo "$host $nic $(grep -E '^(MACAddress|PermanentMACAddress|MTUBytes|Address|Destination|Scope|PreferredSource|Gateway|Table|From|Metric|RequiredForOnline|Bond)=' "$net" | tr '\n' ' ')"
  done
  # A bond: the .netdev file that creates it (kind, MTU, LACP settings).
  for dev in "$root"/run/systemd/network/*.netdev; do
    [ -e "$dev" ] || continue
    echo "$host netdev $(grep -E '^(Name|Kind|MTUBytes|Mode|TransmitHashPolicy|LACPTransmitRate|MIIMonitorSec)=' "$dev" | tr '\n' ' ')"
  done
  # A NIC matched by its MAC and renamed (set-name): the .link file that renames it.
  for link in "$root"/run/systemd/network/*.link; do
    [ -e "$link" ] && grep -qE '^(Permanent)?MACAddress=' "$link" || continue
    echo "$host link $(grep -E '^((Permanent)?MACAddress|Name)=' "$link" | tr '\n' ' ')"
  done
  n=$((n + 1))
done
echo "netplan-generate: $n servers rendered"
