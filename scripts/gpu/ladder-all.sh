#!/bin/bash
# ladder-all.sh [LADDER] - on the GPU machine, from the repository root, with build-gpu/
# carried: a kernel ladder's whole job in one call, LADDER = ladder (the default) or
# ladder-tc: `mmbench tune profiles/tune-LADDER.ini` (each step's space at 1024 and 4096,
# from nothing), then scripts/gpu/ladder-check.sh --counters LADDER (awkward sizes,
# compute-sanitizer, the ladder against cuBLAS). Everything lands in
# $OUT/LADDER-<gpu>.tar.gz: data/<gpu>/tune-LADDER.csv and its T4 files, LADDER.csv,
# LADDER-awkward.csv, sanitizer.txt, table.txt, tune.log, tune-table.txt, check.log,
# logs.tar.gz; the short table (phases, awkward rows, sanitizers, % of cuBLAS in the
# ladder and in the tune) is printed last.
# Time: ALL_SECONDS (default 585) in all: the tune may take TUNE_SECONDS (default 240) of
# it, with TUNE_OPTIONS (default none) on its command line, and the checks what is left
# less 15 s for the tarball (ladder-check.sh's LADDER_SECONDS; its AWKWARD_SECONDS and
# SAN_SECONDS pass through). scripts/gpu/ladder-tc-all.sh sets them for the tensor-core
# ladder.
set -u
ladder=${1:-ladder}
root=$PWD
[ -f "profiles/tune-$ladder.ini" ] || { echo "ladder-all.sh: profiles/tune-$ladder.ini not found" >&2; exit 2; }
t0=$(date +%s)
out=${OUT:-/tmp/ladder-out}
work=/tmp/$ladder-all
rm -rf "$work" && mkdir -p "$work/data" "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
slug=$("$mmbench" devices 2>/dev/null | sed -n 's/.*data\/\([^/ ]*\).*/\1/p' | head -1)
all=${ALL_SECONDS:-585}
s=$(date +%s)
# shellcheck disable=SC2086 # TUNE_OPTIONS: words for the command line
timeout -k 10 "${TUNE_SECONDS:-240}" "$mmbench" tune ${TUNE_OPTIONS:-} --data-dir "$work/data" \
    "profiles/tune-$ladder.ini" >"$work/tune.log" 2>&1
echo "tune rc=$? $(($(date +%s) - s))s"
LADDER_SECONDS=$((all - ($(date +%s) - t0) - 15)) OUT=$work \
    bash scripts/gpu/ladder-check.sh --counters "$ladder" >"$work/check.log" 2>&1
echo "ladder-check rc=$? $(($(date +%s) - t0))s in all"
for f in "$work"/data/*/"tune-$ladder.csv"; do
    [ -s "$f" ] && python3 scripts/gpu/ladder_table.py --summary "$f"
done >"$work/tune-table.txt" 2>&1
tar czf "$out/$ladder-${slug:-gpu}.tar.gz" -C "$work" .
sed "/^== $ladder\$/,\$d" "$work/table.txt"
echo "== tune: % of cuBLAS"
cat "$work/tune-table.txt"
