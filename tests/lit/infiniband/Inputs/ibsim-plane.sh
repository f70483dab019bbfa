#!/usr/bin/env bash
# Simulates one plane of a multi-plane InfiniBand output and routes it with a plane's
# files alone (ibsim-ftree.sh, the infiniband/ directory installed as /etc/opensm):
#   unshare -nm bash ibsim-plane.sh DIR INFINIBAND_DIR PLANE "SM NODE DESCRIPTION" [CONF_PLANE]
# ibsim simulates PLANE/fabric.net and attaches OpenSM to the HCA the description names in
# PLANE/node_name_map (SIM_HOST: where the subnet manager runs); OpenSM reads
# CONF_PLANE/opensm.conf.fragment (PLANE's by default). Each SM has a cache of its own
# (OSM_CACHE_DIR: the LIDs and neighbours it saw), as beside another plane's SM on one host.
set -euo pipefail
dir=$1 ib=$2 plane=$3 sm=$4 conf=${5:-$3}
guid=$(grep -F "\"$sm\"" "$ib/$plane/node_name_map" | cut -c3-18)
[ -n "$guid" ] || { echo "no node '$sm' in $ib/$plane/node_name_map" >&2; exit 1; }
export SIM_HOST="H-$guid" OSM_CACHE_DIR="$dir/cache"
mkdir -p "$OSM_CACHE_DIR"
exec bash "$(dirname "$0")/ibsim-ftree.sh" "$dir" "$ib/$plane/fabric.net" "$ib" "$conf/opensm.conf.fragment"
