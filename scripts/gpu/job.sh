#!/bin/bash
# job.sh [--fresh] [--tests] [--ncu] [--cost PROFILE] [PROFILE...] - runs on the GPU machine from
# the repository root, with the build-gpu/ made by scripts/gpu/build.sh carried along:
# the GPU tests (--tests), the mmbench-vs-ncu counter checks (--ncu: ncu-compare.sh,
# dram-probe.sh, l2-state.sh), the profile run without counters into a scratch folder
# to time their cost (--cost), then `mmbench run` (`mmbench tune` for a tuning profile,
# as `mmbench check --command` says) for each profile, resuming from the CSVs
# committed under data/ (or from nothing: --fresh). Each step gets what is left
# of MMB_JOB_SECONDS (default 540), so a run cut short still returns its finished
# rows. Everything lands in $OUT/results.tar.gz (data/, logs/); a table is printed last.
set -u
root=$PWD
out=${OUT:-/tmp/mmb-out}
work=/tmp/mmb-results
budget=${MMB_JOB_SECONDS:-540}
t0=$(date +%s)
mkdir -p "$out" "$work/logs"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=/tmp/mmb-cache PATH="$PATH:/usr/local/cuda/bin"
mmbench="$root/build-gpu/harness/mmbench"
export MMBENCH="$mmbench"
if [ "${1:-}" = --fresh ]; then   # measure everything again instead of resuming
    shift
    mkdir -p "$work/data"
else
    cp -r "$root/data" "$work/" 2>/dev/null || mkdir -p "$work/data"
fi

left() { echo $(( budget - ($(date +%s) - t0) - 15 )); }
step() { # step NAME COMMAND...: runs with what is left of the budget, logs, records rc and time
    local name=$1; shift
    local s=$(date +%s) l=$(left)
    if [ "$l" -le 5 ]; then echo "$name: no time left" | tee -a "$work/logs/steps.txt"; return; fi
    timeout "$l" "$@" >"$work/logs/$name.log" 2>&1
    printf '%-28s rc=%-3d %5ds\n' "$name" "$?" "$(( $(date +%s) - s ))" | tee -a "$work/logs/steps.txt"
}

{ nvidia-smi; nvidia-smi -q -d CLOCK; } >"$work/logs/nvidia-smi.txt" 2>&1
"$mmbench" devices 2>&1 | tee "$work/logs/devices.txt"

tests=0 ncu=0 cost=() profiles=()
while [ $# -gt 0 ]; do
    case $1 in
    --tests) tests=1 ;;
    --ncu) ncu=1 ;;
    --cost) cost+=("$2"); shift ;;
    *) profiles+=("$1") ;;
    esac
    shift
done
if [ $tests = 1 ]; then
    for t in build-gpu/tests/test_*; do
        [ -f "$t" ] && [ -x "$t" ] && step "$(basename "$t")" "$t"
    done
fi
if [ $ncu = 1 ]; then
    step ncu-compare scripts/ncu-compare.sh "$mmbench" "$work/logs/ncu"
    step dram-probe scripts/dram-probe.sh "$root/build-gpu" "$work/logs/probe"
    step l2-state scripts/l2-state.sh "$mmbench" "$work/logs/l2" read:8 memset:2:keep none
fi
for p in "${cost[@]}"; do
    step "nocounters-$(basename "$p" .ini)" "$mmbench" run --no-counters --data-dir /tmp/mmb-scratch "$p"
done
for p in "${profiles[@]}"; do
    name=$(basename "$p" .ini)
    # run or tune: the program's own rule (a tuning profile's name starts with tune)
    if ! command=$("$mmbench" check --command "$p" 2>"$work/logs/check-$name.log"); then
        cat "$work/logs/check-$name.log"
        continue
    fi
    step "$command-$name" "$mmbench" "$command" --data-dir "$work/data" "$p"
    tail -n 8 "$work/logs/$command-$name.log"
done
[ -f "$work/logs/ncu-compare.log" ] && cat "$work/logs/ncu-compare.log"
[ -f "$work/logs/l2-state.log" ] && cat "$work/logs/l2-state.log"
tar -C "$work" -czf "$out/results.tar.gz" data logs
cat "$work/logs/steps.txt"
