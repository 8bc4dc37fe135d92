#!/bin/bash
# gpus.sh 'JOB0' 'JOB1' ... - on a GPU machine with several GPUs, from the repository
# root: runs JOB i on GPU i, all at once, each a shell command line (usually one or more
# scripts/gpu/*.sh joined with ';'), with CUDA_VISIBLE_DEVICES set to its GPU (and
# CUDA_DEVICE_ORDER=PCI_BUS_ID, so that it is nvidia-smi's GPU i too, MMB_GPU_INDEX=i for
# the scripts that ask nvidia-smi), its own OUT ($OUT/gpu0, $OUT/gpu1, ...), TMPDIR and
# MMB_CACHE_DIR (where a script takes them from the environment), and its output in
# $OUT/gpuN/job.log, packed at the end with the job's files into $OUT/gpuN.tar.gz. A job's time limit is its scripts' own; this waits for all and
# prints each job's log tail and exit status. The scripts keep their work folders at
# fixed /tmp paths of their own, so two jobs may not run the same script at once. The
# GPUs are one host's: N profiles take one call's time instead of N.
set -u
[ $# -ge 1 ] || { echo "usage: gpus.sh 'JOB0' ['JOB1' ...]" >&2; exit 2; }
out=${OUT:-/tmp/gpus-out}
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$n" -ge $# ] || { echo "gpus.sh: $# jobs and $n GPU(s) here" >&2; exit 2; }
pids=()
i=0
for job in "$@"; do
    mkdir -p "$out/gpu$i" "/tmp/gpu$i" || exit 1
    ( export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$i MMB_GPU_INDEX=$i OUT="$out/gpu$i" \
             TMPDIR="/tmp/gpu$i" MMB_CACHE_DIR="/tmp/gpu$i/mmb-cache"
      bash -c "$job" ) >"$out/gpu$i/job.log" 2>&1 &
    pids+=($!)
    i=$((i + 1))
done
rc=0
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"; r=$?
    [ "$r" -eq 0 ] || rc=1
    echo "== GPU $i: exit $r"; tail -n 30 "$out/gpu$i/job.log"
done
# one file per GPU comes back from the machine better than many
for i in "${!pids[@]}"; do
    tar czf "$out/gpu$i.tar.gz" -C "$out" "gpu$i" && rm -rf "${out:?}/gpu$i"
done
exit "$rc"
