#!/usr/bin/env bash
# Brings up the fabric fabc generated in OUTDIR (frr/HOST/frr.conf, frr/wiring.csv):
# one network namespace per switch, a veth pair per switch-to-switch link renamed to
# the interface names of wiring.csv, and FRR's zebra + bgpd in every namespace reading
# the generated frr.conf. Then it waits (at most WAIT seconds) until every leaf has
# every other leaf's loopback in its routing table over BGP, and prints, per leaf and
# route, the number of ECMP next hops. It fails if a daemon logged a configuration line
# it could not parse. Everything it creates is removed on exit, also on failure.
#
#   usage: netns-fabric.sh OUTDIR      (as root; needs iproute2 and FRR)
set -euo pipefail

OUT=${1:?usage: netns-fabric.sh OUTDIR}
WAIT=${WAIT:-20}
FRR=/usr/lib/frr
TAG="fabc$$"                      # unique per run: namespaces and veths carry it
source "$(dirname "$0")/../../Inputs/netns-lib.sh"
netns_setup fabc-netns


fail() { echo "netns-fabric: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (network namespaces)"
[ -x "$FRR/zebra" ] && [ -x "$FRR/bgpd" ] || fail "FRR daemons not found in $FRR"
[ -f "$OUT/frr/wiring.csv" ] || fail "$OUT/frr/wiring.csv missing (build with --emit=frr)"

HOSTS=()
for conf in "$OUT"/frr/*/frr.conf; do
  HOSTS+=("$(basename "$(dirname "$conf")")")
done
[ ${#HOSTS[@]} -gt 0 ] || fail "no frr.conf under $OUT/frr"

for h in "${HOSTS[@]}"; do
  ns="$TAG-$h"
  ip netns add "$ns"
  NAMESPACES+=("$ns")
  ip -n "$ns" link set lo up
  mkdir -p "$WORK/$h"
  cp "$OUT/frr/$h/frr.conf" "$WORK/$h/frr.conf"
  chown -R frr:frr "$WORK/$h"
done
chmod 755 "$WORK"

# One veth pair per switch-to-switch link, each end in its switch's namespace under
# the interface name the configuration uses (`ip -batch`: one process per namespace).
i=0
: > "$WORK/root.batch"
while IFS=, read -r ahost aif _aaddr bhost bif _baddr; do
  [ "$ahost" = a_host ] && continue
  i=$((i + 1))
  va="f$$a$i"; vb="f$$b$i"
  printf 'link add %s type veth peer name %s\nlink set %s netns %s\nlink set %s netns %s\n' \
    "$va" "$vb" "$va" "$TAG-$ahost" "$vb" "$TAG-$bhost" >> "$WORK/root.batch"
  printf 'link set %s name %s\nlink set %s up\n' "$va" "$aif" "$aif" >> "$WORK/$ahost.batch"
  printf 'link set %s name %s\nlink set %s up\n' "$vb" "$bif" "$bif" >> "$WORK/$bhost.batch"
done < "$OUT/frr/wiring.csv"
[ $i -gt 0 ] || fail "wiring.csv lists no links"
ip -batch "$WORK/root.batch"
for h in "${HOSTS[@]}"; do
  [ -f "$WORK/$h.batch" ] && ip -n "$TAG-$h" -batch "$WORK/$h.batch"
done

# As FRR runs an integrated configuration (service integrated-vtysh-config): the
# daemons start empty and `vtysh -b` hands every line of frr.conf to the daemon that
# owns it, and reports the lines that none accepts.
start() { # HOST DAEMON
  local d="$WORK/$1"
  ip netns exec "$TAG-$1" "$FRR/$2" -d -f "$d/empty.conf" -i "$d/$2.pid" -z "$d/zserv.api" \
    --vty_socket "$d" -P 0 --log "file:$d/$2.log" --log-level info
}
wait_socket() { # PATH WHAT
  for _ in $(seq 100); do [ -S "$1" ] && return 0; sleep 0.1; done
  fail "$2 did not start"
}
for h in "${HOSTS[@]}"; do
  : > "$WORK/$h/empty.conf"
  : > "$WORK/$h/vtysh.conf"
  chown frr:frr "$WORK/$h/empty.conf" "$WORK/$h/vtysh.conf"
  start "$h" zebra
done
for h in "${HOSTS[@]}"; do
  wait_socket "$WORK/$h/zserv.api" "zebra of $h"
  start "$h" bgpd
done
for h in "${HOSTS[@]}"; do
  wait_socket "$WORK/$h/bgpd.vty" "bgpd of $h"
  ip netns exec "$TAG-$h" vtysh --vty_socket "$WORK/$h" --config_dir "$WORK/$h" -b > "$WORK/$h/vtysh.log" 2>&1 &
  echo $! > "$WORK/$h/vtysh.job"
done
for h in "${HOSTS[@]}"; do
  wait "$(cat "$WORK/$h/vtysh.job")" || fail "vtysh -b rejected $h's frr.conf: $(cat "$WORK/$h/vtysh.log")"
done

# Leaves and loopbacks, from the generated configurations themselves.
declare -A LOOPBACK
LEAVES=()
for h in "${HOSTS[@]}"; do
  LOOPBACK[$h]=$(awk '/^interface lo$/ { getline; print $3; exit }' "$OUT/frr/$h/frr.conf")
  head -1 "$OUT/frr/$h/frr.conf" | grep -q ', leaf)' && LEAVES+=("$h")
done
[ ${#LEAVES[@]} -ge 2 ] || fail "need at least two leaves, found ${#LEAVES[@]}"

# In a two-tier Clos every uplink of a leaf leads to a spine that has the other leaves'
# loopbacks: BGP multipath must install one next hop per uplink. The expectations, one
# line per leaf and other leaf's loopback: HOST PREFIX NEXTHOPS.
for h in "${LEAVES[@]}"; do
  uplinks=$(awk -F, -v h="$h" '$1 == h || $4 == h' "$OUT/frr/wiring.csv" | wc -l)
  for other in "${LEAVES[@]}"; do
    [ "$other" = "$h" ] || echo "$h ${LOOPBACK[$other]} $uplinks"
  done
done > "$WORK/expect"

# Prints "HOST: PREFIX via N paths" for every expected route that HOST has installed
# over BGP with all its next hops; fails while one is missing.
PY=$(command -v /usr/bin/python3 || command -v python3)
check() {
  local h
  for h in "${LEAVES[@]}"; do
    vtysh --vty_socket "$WORK/$h" -d zebra -c "show ip route json" > "$WORK/$h.routes" 2>/dev/null || return 1
  done
  "$PY" - "$WORK" <<'PYEOF'
import json, sys
work, ok = sys.argv[1], True
for line in open(f"{work}/expect"):
    host, prefix, want = line.split()
    try:
        routes = json.load(open(f"{work}/{host}.routes")).get(prefix, [])
    except ValueError:
        routes = []
    best = [r for r in routes if r.get("protocol") == "bgp" and r.get("installed")]
    hops = [n for r in best for n in r.get("nexthops", []) if n.get("active")]
    if best and len(hops) >= int(want):
        print(f"{host}: {prefix} via {len(hops)} paths")
    else:
        ok = False
sys.exit(0 if ok else 1)
PYEOF
}

deadline=$((SECONDS + WAIT))
until check > "$WORK/result"; do
  [ $SECONDS -lt $deadline ] || { cat "$WORK/result"; fail "leaf loopbacks not all learned within ${WAIT}s"; }
  sleep 0.5
done
sort "$WORK/result"

# Every configuration line must have been understood.
bad=$(grep -h -E "No such command|Unknown command|line [0-9]+: %" "$WORK"/*/*.log || true)
[ -z "$bad" ] || fail "daemons rejected configuration lines: $bad"
echo "netns-fabric: ${#HOSTS[@]} switches, $i links, all leaf loopbacks learned"
