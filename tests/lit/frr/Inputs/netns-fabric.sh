#!/usr/bin/env bash
# Brings up the fabric fabc generated in OUTDIR (frr/HOST/frr.conf, frr/wiring.csv):
# one network namespace per switch, a veth pair per switch-to-switch link renamed to
# the interface names of wiring.csv, and FRR's zebra + bgpd in every namespace reading
# the generated frr.conf. Then it waits (at most WAIT seconds) until every leaf has
# every other leaf's loopback in its routing table over BGP, and prints, per leaf and
# route, the number of ECMP next hops. It fails if a daemon logged a configuration line
# it could not parse. Everything it creates is removed on exit, also on failure.
# When OUTDIR also holds the hosts output (hosts/plan.csv, --emit=hosts), every GPU
# server gets a namespace too, one veth per NIC to its leaf port (a Linux bridge named
# vlanN on the leaf stands for the SVI of the subnet schemes), configured from the plan
# as its netplan file says (address, the NIC's subnet on link and the host pool through
# the NIC's leaf in the NIC's own table selected by its source address); then every leaf
# must have every other leaf's host subnets over all its uplinks, rail r of the first
# server of every leaf must ping rail r of the first server of every other leaf from its
# own address, and of the second server on its own leaf in one hop at most (directly on
# a shared subnet), and a prefix outside the routing policy, announced by a leaf, must
# reach no other switch. With planes (switches whose FABRIC_LOOPBACKS name different
# slices, decision 0521), a leaf expects its own plane's loopbacks only, and an address
# of another plane's slice announced by the first leaf must reach no other switch.
#
#   usage: netns-fabric.sh OUTDIR      (as root; needs iproute2 and FRR)
set -euo pipefail

OUT=${1:?usage: netns-fabric.sh OUTDIR}
WAIT=${WAIT:-20}
# HOLD=N: once learned, the routes must still be there N seconds later (a session that
# comes up and is then closed, by a prefix limit say, installs them only for a moment).
HOLD=${HOLD:-0}
FRR=/usr/lib/frr
TAG="fabc$$"                      # unique per run: namespaces and veths carry it
source "$(dirname "$0")/../../Inputs/netns-lib.sh"
netns_setup fabc-netns


fail() { echo "netns-fabric: error: $*" >&2; exit 1; }
# The network of an address/len: 172.16.0.9/29 -> 172.16.0.8/29.
network() {
  local a b c d len=${1#*/} n
  IFS=. read -r a b c d <<< "${1%/*}"
  n=$(( (a << 24 | b << 16 | c << 8 | d) & (0xffffffff << (32 - len)) & 0xffffffff ))
  echo "$((n >> 24 & 255)).$((n >> 16 & 255)).$((n >> 8 & 255)).$((n & 255))/$len"
}

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
# GPU servers from the host plan: a namespace per server, a veth per NIC.
PLAN="$OUT/hosts/plan.csv"
SERVERS=()
if [ -f "$PLAN" ]; then
  command -v ping > /dev/null || fail "ping not found (Debian: iputils-ping)"
  POOL=$(sed -n 's/^ *"host_pool": "\(.*\)",$/\1/p' "$OUT/hosts/plan.json")
  declare -A SEEN VLANS
  while IFS=, read -r host _nic _rail ifname addr gw table vlan leaf lport _sonic; do
    [ "$host" = host ] && continue
    if [ -z "${SEEN[$host]:-}" ]; then
      SEEN[$host]=1
      SERVERS+=("$host")
      ip netns add "$TAG-$host"
      NAMESPACES+=("$TAG-$host")
      ip -n "$TAG-$host" link set lo up
    fi
    i=$((i + 1))
    va="f$$a$i"; vb="f$$b$i"
    printf 'link add %s type veth peer name %s\nlink set %s netns %s\nlink set %s netns %s\n' \
      "$va" "$vb" "$va" "$TAG-$host" "$vb" "$TAG-$leaf" >> "$WORK/root.batch"
    k=$(( ${#SERVERS[@]} ))
    { printf 'link set %s name %s\nlink set %s up\naddress add %s dev %s\n' "$va" "$ifname" "$ifname" "$addr" "$ifname"
      printf 'rule add from %s table %s\nroute add %s via %s table %s\n' "${addr%/*}" "$table" "$POOL" "$gw" "$table"
      printf 'route add %s dev %s scope link src %s table %s\n' "$(network "$addr")" "$ifname" "${addr%/*}" "$table"
      printf 'route add %s via %s metric %s\n' "$POOL" "$gw" "$((table - 1))"
    } >> "$WORK/host-$host.batch"
    if [ -n "$vlan" ] && [ -z "${VLANS[$leaf/$vlan]:-}" ]; then
      VLANS[$leaf/$vlan]=1
      printf 'link add vlan%s type bridge\nlink set vlan%s up\n' "$vlan" "$vlan" >> "$WORK/$leaf.batch"
    fi
    printf 'link set %s name %s\nlink set %s up\n' "$vb" "$lport" "$lport" >> "$WORK/$leaf.batch"
    [ -n "$vlan" ] && printf 'link set %s master vlan%s\n' "$lport" "$vlan" >> "$WORK/$leaf.batch"
    echo "$host $ifname ${addr%/*} $leaf ${_rail}" >> "$WORK/nics"
  done < "$PLAN"
fi
ip -batch "$WORK/root.batch"
for h in "${SERVERS[@]}"; do
  ip -n "$TAG-$h" -batch "$WORK/host-$h.batch"
done
for h in "${HOSTS[@]}"; do
  [ -f "$WORK/$h.batch" ] && ip -n "$TAG-$h" -batch "$WORK/$h.batch"
done

# As FRR runs an integrated configuration (service integrated-vtysh-config): the
# daemons start empty and `vtysh -b` hands every line of frr.conf to the daemon that
# owns it, and reports the lines that none accepts.
start() { # HOST DAEMON [ARGS...]
  local host=$1 daemon=$2 d="$WORK/$1"
  shift 2
  ip netns exec "$TAG-$host" "$FRR/$daemon" -d -f "$d/empty.conf" -i "$d/$daemon.pid" -z "$d/zserv.api" \
    --vty_socket "$d" -P 0 --log "file:$d/$daemon.log" --log-level info "$@"
}
# policy bfd: frr.conf has a bfd section, which bfdd owns (its control socket is per
# namespace, so each needs its own path).
BFD=false
grep -q '^bfd$' "$OUT"/frr/*/frr.conf 2>/dev/null && BFD=true
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
  if $BFD; then start "$h" bfdd --bfdctl "$WORK/$h/bfdd.sock"; fi
done
for h in "${HOSTS[@]}"; do
  wait_socket "$WORK/$h/bgpd.vty" "bgpd of $h"
  if $BFD; then wait_socket "$WORK/$h/bfdd.vty" "bfdd of $h"; fi
  ip netns exec "$TAG-$h" vtysh --vty_socket "$WORK/$h" --config_dir "$WORK/$h" -b > "$WORK/$h/vtysh.log" 2>&1 &
  echo $! > "$WORK/$h/vtysh.job"
done
for h in "${HOSTS[@]}"; do
  wait "$(cat "$WORK/$h/vtysh.job")" || fail "vtysh -b rejected $h's frr.conf: $(cat "$WORK/$h/vtysh.log")"
done

# The cables of a switch in wiring.csv: its BGP sessions, and a leaf's uplinks.
links_of() { awk -F, -v h="$1" '$1 == h || $4 == h' "$OUT/frr/wiring.csv" | wc -l; }
# Runs FN into OUT every half second until it succeeds; fails with WHAT after WAIT seconds.
# FIRST announces PREFIX (a blackhole route under `network`); no other switch may accept
# it, because WHY (the routing policy's prefix-lists refuse it).
contained() { # FIRST PREFIX WHY
  local first=$1 prefix=$2 why=$3 asn h
  asn=$(awk '/^router bgp / { print $3; exit }' "$OUT/frr/$first/frr.conf")
  ip -n "$TAG-$first" route add blackhole "$prefix"
  vtysh --vty_socket "$WORK/$first" -c "configure terminal" -c "router bgp $asn" -c "address-family ipv4 unicast" \
    -c "network $prefix" > /dev/null
  sleep 3
  vtysh --vty_socket "$WORK/$first" -d bgpd -c "show ip bgp $prefix json" | grep -q '"paths"' ||
    fail "$first did not originate $prefix"
  for h in "${HOSTS[@]}"; do
    [ "$h" = "$first" ] && continue
    if vtysh --vty_socket "$WORK/$h" -d bgpd -c "show ip bgp $prefix json" | grep -q '"paths"'; then
      fail "$h accepted $prefix, $why"
    fi
  done
}

poll() { # FN OUT WHAT
  local deadline=$((SECONDS + WAIT))
  until "$1" > "$2"; do
    [ $SECONDS -lt $deadline ] || { cat "$2"; fail "$3 within ${WAIT}s"; }
    sleep 0.5
  done
  sort "$2"
}

# Leaves and loopbacks, from the generated configurations themselves.
declare -A LOOPBACK
LEAVES=()
for h in "${HOSTS[@]}"; do
  LOOPBACK[$h]=$(awk '/^interface lo$/ { getline; print $3; exit }' "$OUT/frr/$h/frr.conf")
  head -1 "$OUT/frr/$h/frr.conf" | grep -q ', leaf)' && LEAVES+=("$h")
done
[ ${#LEAVES[@]} -ge 2 ] || fail "need at least two leaves, found ${#LEAVES[@]}"
# Planes (decision 0521): switches whose FABRIC_LOOPBACKS lists name different loopback
# slices are in different addressing domains; a leaf expects its own plane's routes only.
declare -A PLANE
for h in "${HOSTS[@]}"; do
  PLANE[$h]=$(sed -n 's/^ip prefix-list FABRIC_LOOPBACKS seq 10 permit \([^ ]*\).*/\1/p' "$OUT/frr/$h/frr.conf")
done
NPLANES=$(printf '%s\n' "${PLANE[@]}" | sort -u | wc -l)
[ "$NPLANES" -le 1 ] || [ ! -f "$PLAN" ] || fail "servers with several planes: not supported (build with --emit=frr)"

# In a two-tier Clos every uplink of a leaf leads to a spine that has the other leaves'
# loopbacks: BGP multipath must install one next hop per uplink. The expectations, one
# line per leaf and other leaf's loopback: HOST PREFIX NEXTHOPS.
for h in "${LEAVES[@]}"; do
  uplinks=$(links_of "$h")
  for other in "${LEAVES[@]}"; do
    [ "$other" = "$h" ] || [ "${PLANE[$other]}" != "${PLANE[$h]}" ] || echo "$h ${LOOPBACK[$other]} $uplinks"
  done
done > "$WORK/expect"
# The host subnets: every leaf learns every other leaf's, over every uplink.
if [ -f "$PLAN" ]; then
  "${PY:-python3}" - "$PLAN" >> "$WORK/expect.hosts" <<'PYEOF'
import csv, ipaddress, sys
rows = list(csv.DictReader(open(sys.argv[1])))
subnets = sorted({(r["leaf"], str(ipaddress.ip_interface(r["address"]).network)) for r in rows})
for leaf, net in subnets:
    print(leaf, net)
PYEOF
  for h in "${LEAVES[@]}"; do
    uplinks=$(links_of "$h")
    while read -r leaf net; do
      [ "$leaf" = "$h" ] || echo "$h $net $uplinks"
    done < "$WORK/expect.hosts"
  done >> "$WORK/expect"
fi

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

poll check "$WORK/result" "leaf loopbacks not all learned"
if [ "$HOLD" -gt 0 ]; then
  sleep "$HOLD"
  check > "$WORK/result" || { cat "$WORK/result"; fail "leaf loopbacks learned, then lost within ${HOLD}s"; }
fi

# BFD: every BGP session of every switch has a BFD session, and all of them come up.
if $BFD; then
  bfd_ok() {
    local h sessions up
    for h in "${HOSTS[@]}"; do
      sessions=$(links_of "$h")
      up=$(vtysh --vty_socket "$WORK/$h" -d bfdd -c "show bfd peers json" 2>/dev/null | grep -o '"status":"up"' | wc -l)
      [ "$up" -ge "$sessions" ] || return 1
      echo "bfd: $h $up of $sessions sessions up"
    done
  }
  poll bfd_ok "$WORK/bfd" "BFD sessions not all up"
fi

# Planes: the first leaf announces an address of another plane's loopback slice, which
# its own plane's filters (FABRIC_OUT, and every peer's FABRIC_IN) refuse: no other
# switch may accept it. With one fabric-wide loopback list, its spines would.
if [ "$NPLANES" -gt 1 ]; then
  first=${LEAVES[0]}
  other=$(printf '%s\n' "${PLANE[@]}" | sort -u | grep -vxF "${PLANE[$first]}" | head -1)
  leak=$("$PY" -c 'import ipaddress, sys; print(f"{ipaddress.ip_network(sys.argv[1])[200]}/32")' "$other")
  contained "$first" "$leak" "an address of another plane's slice ($other)"
  echo "planes: $NPLANES; $leak of $other from $first (plane ${PLANE[$first]}) reached no other switch"
fi

if [ ${#SERVERS[@]} -gt 0 ]; then
  # Rail r of the first server on each leaf pings rail r of the first server on every
  # other leaf, from its own address (so through its own table, its own leaf).
  awk '!seen[$4 " " $5]++' "$WORK/nics" > "$WORK/firsts"
  pings=0
  while read -r host ifname addr leaf rail; do
    while read -r host2 _if2 addr2 leaf2 rail2; do
      [ "$rail2" = "$rail" ] && [ "$leaf2" != "$leaf" ] || continue
      ip netns exec "$TAG-$host" ping -c 1 -W 2 -I "$addr" "$addr2" > /dev/null 2>&1 ||
        ip netns exec "$TAG-$host" ping -c 2 -W 3 -I "$addr" "$addr2" > /dev/null 2>&1 ||
        fail "ping from $host $ifname ($addr) to $host2 ($addr2) failed"
      echo "ping: $host rail $rail ($leaf) -> $host2 rail $rail ($leaf2): ok"
      pings=$((pings + 1))
    done < "$WORK/firsts"
  done < "$WORK/firsts" | sort
  # Same leaf: rail r of the first server on each leaf pings rail r of the second one
  # from its own address, in the fewest hops: directly when they share the rail's subnet
  # (the on-link route of the NIC's table; TTL 1 arrives), else through the leaf alone
  # (TTL 1 expires at the leaf, TTL 2 arrives): never over the spines.
  awk 'seen[$4 " " $5]++ == 1' "$WORK/nics" > "$WORK/seconds"
  while read -r host ifname addr leaf rail; do
    while read -r host2 _if2 addr2 leaf2 rail2; do
      [ "$rail2" = "$rail" ] && [ "$leaf2" = "$leaf" ] || continue
      if ip netns exec "$TAG-$host" ping -c 2 -W 2 -t 1 -I "$addr" "$addr2" > /dev/null 2>&1; then
        how=direct
      elif ip netns exec "$TAG-$host" ping -c 2 -W 2 -t 2 -I "$addr" "$addr2" > /dev/null 2>&1; then
        how="through $leaf"
      else
        fail "ping from $host $ifname ($addr) to $host2 ($addr2) on the same leaf failed with TTL 2"
      fi
      echo "same-leaf: $host rail $rail -> $host2 rail $rail: $how"
    done < "$WORK/seconds"
  done < "$WORK/firsts" | sort
  # The routing policy: a prefix outside both prefix-lists, announced by the first leaf,
  # reaches no other switch (its FABRIC_OUT denies it, and every peer's FABRIC_IN would).
  first=${LEAVES[0]}
  contained "$first" 192.0.2.0/24 "a prefix outside the routing policy"
  echo "policy: 192.0.2.0/24 from $first reached no other switch"
fi

# Every configuration line must have been understood.
bad=$(grep -h -E "No such command|Unknown command|line [0-9]+: %" "$WORK"/*/*.log || true)
[ -z "$bad" ] || fail "daemons rejected configuration lines: $bad"
echo "netns-fabric: ${#HOSTS[@]} switches, ${#SERVERS[@]} servers, $i links, all leaf loopbacks learned"
