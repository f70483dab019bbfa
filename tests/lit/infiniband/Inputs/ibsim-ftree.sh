#!/usr/bin/env bash
# Simulates the InfiniBand fabric of NET and routes it: ibsim, one OpenSM sweep with the
# ftree engine and the root GUIDs of ROOTS, then ibnetdiscover. Run it as
#   unshare -n bash ibsim-ftree.sh DIR NET ROOTS
# ibsim's sockets belong to the network namespace, so each test has its own simulator.
# With a directory for ROOTS (fabc's infiniband/ output), the directory is installed as
# /etc/opensm, where its opensm.conf.fragment names its files, and OpenSM runs with that
# configuration alone (-F /etc/opensm/opensm.conf.fragment, no routing option): run it as
#   unshare -nm bash ibsim-ftree.sh DIR NET INFINIBAND_DIR
# so that the bind mount stays in the test's own mount namespace. A fourth argument names
# the fragment within that directory (a plane's: planea/opensm.conf.fragment). ibsim attaches
# OpenSM and ibnetdiscover to the node SIM_HOST names, when set (else to the net file's first).
# Writes DIR/ibsim.log, DIR/osm.log, DIR/dump/ (OpenSM's dump files) and DIR/disc.txt.
set -euo pipefail
dir=$1 net=$2 roots=$3 conf=${4:-opensm.conf.fragment}
ip link set lo up 2>/dev/null || true
ibsim -s -n "$net" >"$dir/ibsim.log" 2>&1 &
sim=$!
trap 'kill "$sim" 2>/dev/null || true; wait "$sim" 2>/dev/null || true' EXIT
for _ in $(seq 200); do # 20 s at most
  grep -q "simulator ready" "$dir/ibsim.log" && break
  if ! kill -0 "$sim" 2>/dev/null; then
    cat "$dir/ibsim.log" >&2
    exit 1
  fi
  sleep 0.1
done
grep -q "simulator ready" "$dir/ibsim.log" || { echo "ibsim did not start" >&2; exit 1; }
umad2sim=$(ls /usr/lib/*/umad2sim/libumad2sim.so | head -n 1)
mkdir -p "$dir/dump"
if [ -d "$roots" ]; then
  [ -d /etc/opensm ] || { echo "no /etc/opensm (Debian's opensm package makes it)" >&2; exit 1; }
  mount --bind "$roots" /etc/opensm
  LD_PRELOAD=$umad2sim timeout 120 opensm -F "/etc/opensm/$conf" -o -f "$dir/osm.log" -e \
    --dump_files_dir "$dir/dump" >"$dir/osm.out" 2>&1
else
  LD_PRELOAD=$umad2sim timeout 120 opensm -o -R ftree -a "$roots" -f "$dir/osm.log" -e \
    --dump_files_dir "$dir/dump" >"$dir/osm.out" 2>&1
fi
LD_PRELOAD=$umad2sim timeout 60 ibnetdiscover >"$dir/disc.txt"
