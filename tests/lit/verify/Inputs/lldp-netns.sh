#!/usr/bin/env bash
# Cables the Ethernet fabric fabc generated in OUTDIR as veth pairs between network
# namespaces and lets lldpd discover it: one namespace per host (every switch with a
# frr/HOST/frr.conf, and every server its ports' descriptions name), one veth pair per
# planned cable (read from the "interface X / description PEER PORT" stanzas of the
# switch configurations: the switch end by its Cumulus name, a server end by the
# design's port label, "nic0"), one lldpd per namespace (own control socket, the host's
# name, ifname port ids, 1 s announcements). SWAP=HOST:IF1:IF2 swaps the cables in two
# ports of a host before they are plugged. SERVER_PORTID=macaddress makes the servers
# (hosts without a frr.conf) announce their MAC as port ID, as `lldpcli configure lldp
# portidsubtype macaddress` does on a real host. When every host sees its neighbours, it
# writes DEST/HOST.json (lldpctl -f json; json0 for servers) and removes everything it
# created, also on failure.
#
#   usage: lldp-netns.sh OUTDIR DEST     (as root; needs iproute2 and lldpd)
set -euo pipefail

OUT=${1:?usage: lldp-netns.sh OUTDIR DEST}
DEST=${2:?usage: lldp-netns.sh OUTDIR DEST}
WAIT=${WAIT:-60}
TAG="fl$$"
source "$(dirname "$0")/../../Inputs/netns-lib.sh"
netns_setup fabc-lldp
chmod 755 "$WORK"

fail() { echo "lldp-netns: error: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (network namespaces)"
command -v lldpd >/dev/null || fail "lldpd not installed"

# The cables: "hostA ifA hostB ifB", once each (switch-to-switch stanzas appear twice).
python3 - "$OUT" "${SWAP:-}" > "$WORK/cables" <<'EOF'
import glob, os, re, sys
out, swap = sys.argv[1], sys.argv[2]
cables = set()
for conf in sorted(glob.glob(os.path.join(out, "frr", "*", "frr.conf"))):
    host = os.path.basename(os.path.dirname(conf))
    iface = None
    for line in open(conf):
        m = re.match(r"interface (\S+)", line)
        if m:
            iface = m.group(1)
            continue
        m = re.match(r" description (\S+) (\S+)$", line)
        if m and iface:
            cables.add(tuple(sorted([(host, iface), (m.group(1), m.group(2))])))
            continue
        m = re.match(r" description (\S+?)\[(\d+)\]/(\w+)\[(\d+)\]$", line)  # a server: srv[0]/nic[1]
        if m and iface:
            peer = (m.group(1) + m.group(2), m.group(3) + m.group(4))
            cables.add(tuple(sorted([(host, iface), peer])))
cables = sorted(cables)
if swap:
    h, a, b = swap.split(":")
    ends = {}
    for i, c in enumerate(cables):
        for k, e in enumerate(c):
            if e in ((h, a), (h, b)):
                ends[e[1]] = (i, k)
    (ia, ka), (ib, kb) = ends[a], ends[b]
    ca, cb = list(map(list, cables[ia])), list(map(list, cables[ib]))
    ca[ka][1], cb[kb][1] = b, a
    cables[ia], cables[ib] = tuple(map(tuple, ca)), tuple(map(tuple, cb))
for (ha, ia), (hb, ib) in cables:
    print(ha, ia, hb, ib)
EOF
[ -s "$WORK/cables" ] || fail "no cables found in $OUT/frr/*/frr.conf"

HOSTS=$(awk '{print $1; print $3}' "$WORK/cables" | sort -u)
for h in $HOSTS; do
  ip netns add "$TAG-$h"
  NAMESPACES+=("$TAG-$h")
  ip -n "$TAG-$h" link set lo up
done
n=0
while read -r ha ia hb ib; do
  n=$((n + 1))
  ip link add "${TAG}a$n" netns "$TAG-$ha" type veth peer name "${TAG}b$n" netns "$TAG-$hb"
  ip -n "$TAG-$ha" link set "${TAG}a$n" name "$ia"
  ip -n "$TAG-$hb" link set "${TAG}b$n" name "$ib"
  ip -n "$TAG-$ha" link set "$ia" up
  ip -n "$TAG-$hb" link set "$ib" up
done < "$WORK/cables"

# Each lldpd runs in its own UTS namespace too, with the host's name as the system's, and
# is configured before it first announces (-O: lldpcli runs the file at start). Set with
# lldpcli afterwards, a loaded machine announced, and kept, the machine's name.
start_lldpd() {
  local h=$1 ifaces subtype=ifname
  ifaces=$(awk -v h="$h" '$1 == h {print $2} $3 == h {print $4}' "$WORK/cables" | paste -sd, -)
  if [ -n "${SERVER_PORTID:-}" ] && [ ! -e "$OUT/frr/$h/frr.conf" ]; then subtype=$SERVER_PORTID; fi
  printf 'configure system hostname %s\nconfigure lldp portidsubtype %s\nconfigure lldp tx-interval 1\n' \
    "$h" "$subtype" > "$WORK/$h.conf"
  ip netns exec "$TAG-$h" unshare -u sh -c 'hostname "$1" && exec lldpd -u "$2" -p "$3" -I "$4" -M 4 -O "$5"' \
    sh "$h" "$WORK/$h.sock" "$WORK/$h.pid" "$ifaces" "$WORK/$h.conf" 2>>"$WORK/$h.log" ||
    fail "lldpd did not start in $h: $(cat "$WORK/$h.log")"
}
# Seen once in a full test run at low load: one host's lldpd saw no neighbour at all for
# 60 s while its peers saw it. Such an agent is restarted (once, after 20 s); the test is
# about fabc reading lldpd's output, not about lldpd's start-up.
restart_lldpd() {
  local h=$1
  echo "lldp-netns: $h: no neighbour after 20 s, restarting its lldpd" >&2
  kill "$(cat "$WORK/$h.pid")" 2>/dev/null || true
  for _ in $(seq 50); do [ -S "$WORK/$h.sock" ] || break; sleep 0.1; done
  rm -f "$WORK/$h.sock" "$WORK/$h.pid"
  start_lldpd "$h"
  for _ in $(seq 100); do [ -S "$WORK/$h.sock" ] && break; sleep 0.1; done
}
for h in $HOSTS; do start_lldpd "$h"; done
for h in $HOSTS; do
  for _ in $(seq 100); do [ -S "$WORK/$h.sock" ] && break; sleep 0.1; done
  [ -S "$WORK/$h.sock" ] || fail "lldpd of $h has no control socket after 10 s"
done

# Until every host has a neighbour on every cabled interface.
deadline=$((SECONDS + WAIT))
declare -A restarted=()
for h in $HOSTS; do
  want=$(awk -v h="$h" '$1 == h || $3 == h' "$WORK/cables" | wc -l)
  while :; do
    got=$(lldpctl -u "$WORK/$h.sock" -f keyvalue 2>/dev/null | grep -c '^lldp\.[^.]*\.chassis\.name=' || true)
    # Each neighbour's name must be its host name, not the machine's.
    if [ "$got" -ge "$want" ] && ! lldpctl -u "$WORK/$h.sock" -f keyvalue | grep '\.chassis\.name=' |
        grep -qv -E "=($(echo $HOSTS | tr ' ' '|'))$"; then
      break
    fi
    if [ "$got" = 0 ] && [ -z "${restarted[$h]:-}" ] && [ $SECONDS -ge $((deadline - WAIT + 20)) ]; then
      restarted[$h]=1
      restart_lldpd "$h"
    fi
    if [ $SECONDS -ge $deadline ]; then
      lldpctl -u "$WORK/$h.sock" -f keyvalue | grep 'chassis.name=' >&2 || true
      echo "lldp-netns: lldpd log of $h:" >&2
      cat "$WORK/$h.log" >&2 || true
      lldpcli -u "$WORK/$h.sock" show interfaces >&2 || true
      ip -n "$TAG-$h" -br link >&2 || true
      fail "$h: $got of $want neighbours after ${WAIT}s"
    fi
    # Seen on a loaded machine: an interface that never gets a neighbour until it is
    # brought down and up again (lldpd then re-reads it). Once, after 10 s.
    if [ -z "${bounced:-}" ] && [ $SECONDS -ge $((deadline - WAIT + 10)) ]; then
      bounced=1
      while read -r ha ia hb ib; do
        for e in "$ha $ia" "$hb $ib"; do
          set -- $e
          ip -n "$TAG-$1" link set "$2" down && ip -n "$TAG-$1" link set "$2" up
        done
      done < "$WORK/cables"
    fi
    # On a busy machine an announcement can be late: ask every agent to send now.
    for o in $HOSTS; do lldpcli -u "$WORK/$o.sock" update >/dev/null 2>&1 || true; done
    sleep 0.5
  done
done
mkdir -p "$DEST"
for h in $HOSTS; do
  fmt=json
  case "$h" in srv*) fmt=json0 ;; esac
  lldpctl -u "$WORK/$h.sock" -f "$fmt" > "$DEST/$h.json"
done
echo "lldp-netns: $(echo $HOSTS | wc -w) hosts, $n cables"
