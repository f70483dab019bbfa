# Shared by the network-namespace tests (frr/Inputs/netns-fabric.sh,
# verify/Inputs/lldp-netns.sh): a scratch directory WORK and a list NAMESPACES that
# are removed on exit, also on failure, with every daemon whose pid file lies below WORK.
#   source netns-lib.sh; netns_setup PREFIX; NAMESPACES+=(ns...)
NAMESPACES=()

netns_cleanup() {
  local rc=$? pidfile
  while IFS= read -r pidfile; do
    kill "$(cat "$pidfile")" 2>/dev/null || true
  done < <(find "$WORK" -name '*.pid' 2>/dev/null)
  sleep 0.3
  while IFS= read -r pidfile; do
    kill -9 "$(cat "$pidfile")" 2>/dev/null || true
  done < <(find "$WORK" -name '*.pid' 2>/dev/null)
  for ns in "${NAMESPACES[@]}"; do
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "$WORK"
  exit $rc
}

# Makes WORK (/tmp/PREFIX.XXXXXX) and arms the cleanup.
netns_setup() {
  WORK=$(mktemp -d "/tmp/$1.XXXXXX")
  trap netns_cleanup EXIT INT TERM
}
