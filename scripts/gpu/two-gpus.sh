#!/bin/bash
# two-gpus.sh 'JOB0' 'JOB1' - on a GPU machine with two GPUs, from the repository root:
# runs JOB0 on GPU 0 and JOB1 on GPU 1 at the same time, each a shell command line
# (usually one or more scripts/gpu/*.sh joined with ';'), with CUDA_VISIBLE_DEVICES set to
# its GPU, its own OUT ($OUT/gpu0, $OUT/gpu1), TMPDIR and MMB_CACHE_DIR (where a script
# takes them from the environment), and its output in $OUT/gpuN/job.log. The scripts keep
# their work folders at fixed /tmp paths of their own, so the two jobs may not run the
# same script at once. A job's time limit is its scripts' own; this waits for both and
# prints each job's log tail and exit status. The two GPUs are one host's, so two
# profiles take one call's time instead of two.
set -u
[ $# -eq 2 ] || { echo "usage: two-gpus.sh 'JOB0' 'JOB1'" >&2; exit 2; }
out=${OUT:-/tmp/two-gpus-out}
n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$n" -ge 2 ] || { echo "two-gpus.sh: $n GPU(s) here, two needed" >&2; exit 2; }
pids=()
for i in 0 1; do
    job=$1; shift
    mkdir -p "$out/gpu$i" "/tmp/gpu$i" || exit 1
    ( export CUDA_VISIBLE_DEVICES=$i OUT="$out/gpu$i" TMPDIR="/tmp/gpu$i" MMB_CACHE_DIR="/tmp/gpu$i/mmb-cache"
      bash -c "$job" ) >"$out/gpu$i/job.log" 2>&1 &
    pids+=($!)
done
rc=0
for i in 0 1; do
    wait "${pids[$i]}"; r=$?
    [ "$r" -eq 0 ] || rc=1
    echo "== GPU $i: exit $r"; tail -n 40 "$out/gpu$i/job.log"
done
exit "$rc"
