#!/bin/bash
# ladder-all.sh - on the GPU machine, from the repository root, with build-gpu/ carried:
# the whole ladder job in one call: `mmbench tune profiles/tune-ladder.ini` (each step's
# space at 1024 and 4096, from nothing), then scripts/gpu/ladder-check.sh --counters
# (awkward sizes, the ladder against cuBLAS, compute-sanitizer). Everything lands in
# $OUT/ladder-<gpu>.tar.gz: data/<gpu>/tune-ladder.csv and its T4 files, ladder.csv,
# ladder-awkward.csv, sanitizer.txt, table.txt, tune.log. TUNE_SECONDS (default 240)
# bounds the tune, LADDER_SECONDS (default 330) the checks.
set -u
root=$PWD
out=${OUT:-/tmp/ladder-out}
work=/tmp/ladder-all
rm -rf "$work" && mkdir -p "$work/data" "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
slug=$("$mmbench" devices 2>/dev/null | sed -n 's/.*data\/\([^/ ]*\).*/\1/p' | head -1)
s=$(date +%s)
timeout "${TUNE_SECONDS:-240}" "$mmbench" tune --data-dir "$work/data" profiles/tune-ladder.ini >"$work/tune.log" 2>&1
echo "tune rc=$? $(( $(date +%s) - s ))s"
OUT=$work bash scripts/gpu/ladder-check.sh --counters >"$work/check.log" 2>&1
echo "ladder-check rc=$?"
tar czf "$out/ladder-${slug:-gpu}.tar.gz" -C "$work" .
grep -E '^== |rows:|SUMMARY' "$work/table.txt" | head -12
