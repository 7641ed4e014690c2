#!/bin/sh
# CI for Slurm sweeps: installs Debian's slurm-wlm and munge, starts a single-node cluster on this
# machine (munged, slurmctld, slurmd; no systemd needed), runs a small sweep through it with
# `warpsim sweep --slurm` and checks that its result files are byte-identical to the same sweep
# run on the local pool. Needs root (or sudo). .ci/run runs it last.
set -eu
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! dpkg -s slurm-wlm munge >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge
fi
make build JOBS="${JOBS:-2}" >/dev/null

host=$(hostname -s)
# munge: a key, then the daemon
[ -s /etc/munge/munge.key ] || $SUDO mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null ||
    $SUDO dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
$SUDO chown munge:munge /etc/munge/munge.key
$SUDO chmod 400 /etc/munge/munge.key
$SUDO mkdir -p /run/munge /var/log/munge /var/lib/munge
$SUDO chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! pgrep -x munged >/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then su -s /bin/sh munge -c /usr/sbin/munged; else sudo -u munge /usr/sbin/munged; fi
fi
# slurm: one node, one partition, no accounting, no cgroups (containers lack them)
$SUDO mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
$SUDO tee /etc/slurm/slurm.conf >/dev/null <<CONF
ClusterName=warpsim-ci
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x slurmctld >/dev/null || $SUDO slurmctld
pgrep -x slurmd >/dev/null || $SUDO slurmd
for i in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo

# the same small sweep, locally and through Slurm
tmp=$(mktemp -d)
cat >"$tmp/ci.ini" <<'INI'
[sweep]
config = gtx480
[set]
workload.vecadd.n = 65536
workload.bfs.nodes = 4096
workload.kmeans.points = 1024
workload.kmeans.iters = 1
workload.streampri.bytes = 524288
[axes]
mc.policy = fcfs, frfcfs
workload = vecadd, bfs, kmeans, streampri
[slurm]
partition = debug
time = 00:10:00
INI
./build/warpsim sweep "$tmp/ci.ini" -j 2 --out "$tmp/local"
./build/warpsim sweep "$tmp/ci.ini" --slurm --out "$tmp/slurm"
rc=75
for i in $(seq 300); do
    rc=0
    ./build/warpsim sweep --collect "$tmp/slurm" || rc=$?
    [ "$rc" -ne 75 ] && break
    sleep 2
done
[ "$rc" -eq 0 ] || { echo "ci-slurm: the Slurm sweep did not finish (exit $rc)"; exit 1; }
for f in "$tmp"/local/results/*.json; do
    cmp "$f" "$tmp/slurm/results/$(basename "$f")"
done
echo "ci-slurm: $(ls "$tmp"/slurm/results/*.json | wc -l) results through Slurm, byte-identical to the local sweep"
rm -rf "$tmp"
