#!/bin/bash
# ncu-stalls.sh - on the GPU machine, from the repository root, with the build-gpu/ of
# scripts/gpu/build.sh carried along: the counters the limiter and the roofline read
# (the SM's issue rate, shared-memory wavefronts, the warp-stall reasons) beside Nsight
# Compute's, for a subset of the ladder at 4096 (naive, 02_tiled, 04_blocktile_2d,
# 06_conflict_free, 07_warptile, 09_lean, 10_stream_k; every configuration ladder.ini
# names for them), cold L2 on both sides, in at most NCU_STALLS_SECONDS (default 140).
# It also measures the roofs (L1, shared memory, L2, DRAM) from ncu's peak metrics.
# Output in $OUT (default /tmp/ncu-stalls-out):
#   ncu-stalls.txt  mmbench against ncu per metric and launch, % difference, the
#                   largest difference per metric, and the "roof" lines; copy it to
#                   data/<gpu>/bench/ncu-stalls.txt, where `mmbench report` reads the
#                   roofs of each GPU's hierarchical roofline;
#   mmbench.csv     mmbench's rows (counters on);
#   ncu.csv         ncu's raw page;
#   logs.tar.gz     the logs.
# Run it once on each GPU (H100, H200).
set -u
root=$PWD
out=${OUT:-/tmp/ncu-stalls-out}
budget=${NCU_STALLS_SECONDS:-140}
work=/tmp/ncu-stalls-work
rm -rf "$work" && mkdir -p "$out" "$work"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
t0=$(date +%s)

# ladder.ini at 4096, the chosen steps only, no library kernel (ncu follows matmul_*)
prof=$work/ncu-ladder.ini
python3 - "$root/profiles/ladder.ini" "$prof" "$root" <<'PY'
import re, sys
src, dst, root = sys.argv[1:]
keep = {"naive", "02_tiled", "04_blocktile_2d", "06_conflict_free", "07_warptile", "09_lean", "10_stream_k"}
out, section = [], None
for line in open(src):
    m = re.match(r"\[(\w+)(?: (\S+))?\]", line)
    if m:
        section = m.group(1) if m.group(1) == "profile" else m.group(2)
    if section != "profile" and section not in keep:
        continue
    if section == "profile" and line.startswith("counters"):
        continue
    line = re.sub(r"^sizes = .*", "sizes = 4096", line)
    line = re.sub(r"^name = .*", "name = ncu-ladder", line)
    line = re.sub(r"^source = \.\./", f"source = {root}/", line)
    out.append(line)
    if line.startswith("[profile]"):  # ncu_compare.py compares every row: count them all
        out.append("counters = all\n")
open(dst, "w").write("".join(out))
PY
"$mmbench" check --list "$prof" >"$work/runs.txt" 2>&1 || { cat "$work/runs.txt"; exit 2; }
echo "$(grep -c '^run ' "$work/runs.txt") configurations at 4096"

left=$(( budget - ($(date +%s) - t0) - 10 ))
NCU_COMPARE_MODES=cold timeout -k 5 "$left" bash scripts/ncu-compare.sh "$mmbench" "$work/compare" "$prof" \
    >"$work/compare.log" 2>&1
rc=$?
{
    "$mmbench" devices 2>&1 | head -3
    echo "ncu-compare.sh (cold) rc=$rc in $(( $(date +%s) - t0 )) s; ncu $(ncu --version 2>/dev/null | tail -1)"
    cat "$work/compare/compare.txt" 2>/dev/null || tail -20 "$work/compare.log"
} >"$out/ncu-stalls.txt"
cp "$work/compare/mmbench.csv" "$work/compare/ncu.csv" "$out/" 2>/dev/null
tar -czf "$out/logs.tar.gz" -C "$work" .
sed -n '/^largest/,$p' "$out/ncu-stalls.txt"
folder=$("$mmbench" devices 2>/dev/null | awk '$NF ~ /^data\// {print $NF; exit}')
echo "copy ncu-stalls.txt to ${folder:-data/<gpu>}/bench/ncu-stalls.txt"
[ "$rc" -eq 0 ]
