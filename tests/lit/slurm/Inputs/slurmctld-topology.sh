#!/usr/bin/env bash
# Loads a generated topology.conf into a real slurmctld (topology/tree) and asks it
# back with `scontrol show topology`. Run it as
#   unshare -nm bash slurmctld-topology.sh DIR TOPOLOGY_CONF
# The private network namespace holds slurmctld's port; the private mount namespace
# maps every node name of the topology to 127.0.0.1 (a bind-mounted /etc/hosts), so the
# nodes in slurm.conf resolve. Writes DIR/slurm.conf, DIR/slurmctld.log, DIR/show.txt.
set -euo pipefail
dir=$1 topo=$2
mkdir -p "$dir/state" "$dir/spool"
cp "$topo" "$dir/topology.conf"
exprs=$(grep -o 'Nodes=[^ ]*' "$topo" | cut -d= -f2)
cat >"$dir/slurm.conf" <<CONF
ClusterName=fabc
SlurmctldHost=localhost
AuthType=auth/none
CredType=cred/none
SlurmUser=$(id -un)
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmctldDebug=debug
MailProg=/bin/true
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
TopologyPlugin=topology/tree
CONF
export SLURM_CONF=$dir/slurm.conf
# Every node once (a topology may list a node under several leaves).
hosts=$(for e in $exprs; do scontrol show hostnames "$e"; done | sort -u)
echo "NodeName=$(scontrol show hostlist "$(echo $hosts | tr ' ' ',')") CPUs=1 State=UNKNOWN" >>"$dir/slurm.conf"
echo "PartitionName=all Nodes=ALL Default=YES" >>"$dir/slurm.conf"
{
  echo "127.0.0.1 localhost"
  for h in $hosts; do echo "127.0.0.1 $h"; done
} >"$dir/hosts"
ip link set lo up
# getaddrinfo(AI_ADDRCONFIG) resolves nothing until a non-loopback IPv4 address exists.
ip addr add 192.0.2.1/32 dev lo
mount --bind "$dir/hosts" /etc/hosts
slurmctld -D -i >"$dir/slurmctld.out" 2>&1 &
ctld=$!
trap 'kill "$ctld" 2>/dev/null || true; wait "$ctld" 2>/dev/null || true' EXIT
for _ in $(seq 150); do # 30 s at most
  scontrol ping >/dev/null 2>&1 && break
  if ! kill -0 "$ctld" 2>/dev/null; then
    cat "$dir/slurmctld.out" >&2
    exit 1
  fi
  sleep 0.2
done
scontrol show topology >"$dir/show.txt"
