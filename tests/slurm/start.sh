#!/bin/bash
# start.sh DIR - a one-node Slurm cluster of this host for the Slurm test, all of it in
# DIR: a munge key and munged on its own socket, slurm.conf (one partition, this host's
# CPUs, no GPUs: the test's jobs run `mmbench check`), slurmctld and slurmd on ports of
# their own. Waits until the node is idle. Exits 77 with the reason on stdout when
# Slurm cannot start here (not installed, not root, no munge), 1 when a daemon fails.
# tests/slurm/stop.sh DIR stops what it started. Debian: apt-get install slurm-wlm munge.
set -euo pipefail
dir=${1:?usage: start.sh DIR}
skip() {
    echo "slurm: skipped: $*"
    exit 77
}
for prog in munged munge slurmctld slurmd sbatch sinfo scontrol; do
    command -v "$prog" >/dev/null 2>&1 || skip "$prog is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd runs jobs as their user, which takes root; this test runs as $(id -un)"
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
chmod 700 "$dir"
host=$(hostname -s)
# Ports of this run: two test runs at once (or a real Slurm) keep apart.
port=$((20000 + ($$ % 10000) * 2))
head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 600 "$dir/munge.key"
munged --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
    --seed-file="$dir/munged.seed" --log-file="$dir/log/munged.log" >"$dir/log/munged.out" 2>&1 ||
    skip "munged does not start: $(tail -n 1 "$dir/log/munged.out")"
munge -S "$dir/munge.sock" -n | unmunge -S "$dir/munge.sock" >/dev/null 2>&1 ||
    skip "munge cannot encode and decode a credential on $dir/munge.sock"
cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/start.sh for one test run; removed with it.
ClusterName=mmbtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=mmbtest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || { echo "slurm: slurmctld did not start:"; tail -n 5 "$dir/log/slurmctld.log"; exit 1; }
slurmd -f "$SLURM_CONF" || { echo "slurm: slurmd did not start:"; tail -n 5 "$dir/log/slurmd.log"; exit 1; }
for _ in $(seq 1 60); do
    if [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; then
        echo "slurm: slurmctld and slurmd up on $host, ports $port and $((port + 1)), SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 0.5
done
echo "slurm: node $host not idle after 30 s: $(sinfo -h -o '%t %E' 2>&1)"
tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log"
exit 1
