#!/usr/bin/env bash
# Runs a server's generated RoCE script (OUTDIR/hosts/roce/HOST.sh) twice on simulated
# ConnectX NICs: a scratch sysfs tree (FABC_ROOT) with, per NIC of the host plan, the
# interface (MTU, dev_port, PCI device), an RDMA device mlx5_K with RoCE v1/v2 GIDs of
# the NIC's address and the driver's ECN/CNP and traffic-class knobs; and NVIDIA's tools
# as stubs on PATH that log their arguments and act on the tree (rdma renames the RDMA
# device, mlxconfig keeps firmware settings in a file). Prints the first run's tool calls
# and knobs, then what the second run changed ("second run: N tool changes, tree same").
#   usage: roce-sim.sh OUTDIR HOST
set -euo pipefail
OUT=${1:?usage: roce-sim.sh OUTDIR HOST}
HOST=${2:?usage: roce-sim.sh OUTDIR HOST}
W=$(mktemp -d /tmp/fabc-roce.XXXXXX)
trap 'rm -rf "$W"' EXIT
R=$W/root
mkdir -p "$W/bin" "$R/sys/class/net" "$R/sys/class/infiniband"
: > "$W/log"
: > "$W/nv"

k=0
while IFS=, read -r host _nic _rail ifname addr _rest; do
  [ "$host" = "$HOST" ] || continue
  ip=${addr%/*}
  IFS=. read -r a b c d <<< "$ip"
  pci=$R/sys/devices/pci0000:00/0000:0$k:00.0
  mkdir -p "$pci/infiniband/mlx5_$k" "$R/sys/class/net/$ifname"
  ln -s "$pci" "$R/sys/class/net/$ifname/device"
  echo 1500 > "$R/sys/class/net/$ifname/mtu"
  grep -q "^      mtu: " "$OUT/hosts/netplan/$HOST.yaml" &&
    sed -n 's/^      mtu: //p' "$OUT/hosts/netplan/$HOST.yaml" | head -1 > "$R/sys/class/net/$ifname/mtu"
  echo 0 > "$R/sys/class/net/$ifname/dev_port"
  for dir in roce_rp roce_np; do
    mkdir -p "$R/sys/class/net/$ifname/ecn/$dir/enable"
    for p in 0 1 2 3 4 5 6 7; do echo 0 > "$R/sys/class/net/$ifname/ecn/$dir/enable/$p"; done
  done
  echo 0 > "$R/sys/class/net/$ifname/ecn/roce_np/cnp_dscp"
  echo 0 > "$R/sys/class/net/$ifname/ecn/roce_np/cnp_802p_prio"
  ib=$R/sys/class/infiniband/mlx5_$k
  mkdir -p "$ib/ports/1/gids" "$ib/ports/1/gid_attrs/types" "$ib/tc/1"
  echo 0 > "$ib/tc/1/traffic_class"
  gid=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
  # 0, 1: the link-local address (RoCE v1, v2); 2, 3: the IPv4 address (RoCE v1, v2).
  printf 'fe80:0000:0000:0000:0000:00ff:fe00:000%s\n' "$k" > "$ib/ports/1/gids/0"
  cp "$ib/ports/1/gids/0" "$ib/ports/1/gids/1"
  echo "$gid" > "$ib/ports/1/gids/2"
  echo "$gid" > "$ib/ports/1/gids/3"
  printf 'IB/RoCE v1\n' > "$ib/ports/1/gid_attrs/types/0"
  printf 'RoCE v2\n' > "$ib/ports/1/gid_attrs/types/1"
  printf 'IB/RoCE v1\n' > "$ib/ports/1/gid_attrs/types/2"
  printf 'RoCE v2\n' > "$ib/ports/1/gid_attrs/types/3"
  k=$((k + 1))
done < "$OUT/hosts/plan.csv"
[ $k -gt 0 ] || { echo "roce-sim: $HOST has no NIC in the plan" >&2; exit 1; }

stub() { # NAME BODY
  printf '#!/usr/bin/env bash\nset -eu\nR=%q\nW=%q\necho "$(basename "$0") $*" >> "$W/log"\n%s\n' "$R" "$W" "$2" \
    > "$W/bin/$1"
  chmod +x "$W/bin/$1"
}
stub mlnx_qos ''
stub cma_roce_mode ''
stub cma_roce_tos ''
stub sysctl ''
# global pause: on until ethtool -A turns it off
stub ethtool 'if [ "$1" = -a ]; then
  s=on; [ -e "$W/pause-off-$2" ] && s=off
  printf "Pause parameters for %s:\nAutonegotiate:\t%s\nRX:\t\t%s\nTX:\t\t%s\n" "$2" "$s" "$s" "$s"
else touch "$W/pause-off-$2"; fi'
# rdma dev set OLD name NEW
stub rdma 'mv "$R/sys/class/infiniband/$3" "$R/sys/class/infiniband/$5"
for d in "$R"/sys/devices/*/*/infiniband/"$3"; do mv "$d" "${d%/*}/$5"; done'
# mlxconfig -d PCI query NAME | mlxconfig -y -d PCI set NAME=VALUE
stub mlxconfig 'if [ "$3" = query ]; then
  printf "Configurations:  Next Boot\n"
  awk -v k="$2 $4" "\$1 \" \" \$2 == k { print \"        \" \$2 \"    \" \$3 }" "$W/nv"
else
  echo "$3 ${5%%=*} ${5#*=}" >> "$W/nv"
fi'

run() {
  PATH="$W/bin:$PATH" FABC_ROOT="$R" sh "$OUT/hosts/roce/$HOST.sh"
}
tree() { (cd "$R" && find . -type f | LC_ALL=C sort | while read -r f; do echo "$f $(cat "$f")"; done); }

run
sed 's/^/call: /' "$W/log"
tree | grep -E 'traffic_class|/ecn/|mlx5|/cx|/nic' | grep -vE '/(gids|gid_attrs)/' | sed 's/^/knob: /' || true
sed 's/^/nvconfig: /' "$W/nv"
tree > "$W/tree1"
: > "$W/log"
run > /dev/null
tree > "$W/tree2"
changes=$(grep -cE '^(rdma|ethtool -A|mlxconfig -y)' "$W/log" || true)
if cmp -s "$W/tree1" "$W/tree2"; then same=same; else same=changed; fi
echo "second run: $changes tool changes, tree $same"
