#!/bin/bash
# l2-state.sh MMBENCH OUTDIR [METHOD...] - where do the DRAM writes that mmbench's cold
# counters see and ncu's do not come from? Runs profiles/ncu-check.ini through
# `ncu --metrics <DRAM bytes only>`: one pass, so ncu neither replays nor saves and
# restores memory, with --cache-control all (flush before the kernel) and none (the
# state mmbench's own cold timing leaves: a memset of twice L2). Then mmbench with
# each L2 preparation METHOD (MMB_L2_SWEEP, harness/cuda/cupti.c). Prints DRAM write MB
# per kernel and size, one line per run.
set -euo pipefail
mmbench=$1
out=$2
shift 2
methods=("$@")
mkdir -p "$out"
here=$(dirname "$0")
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
dram=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
rm -f "$out"/l2-*.csv
"$mmbench" run -o "$out/l2-mmbench.csv" profiles/ncu-check.ini >"$out/l2-mmbench.log" 2>&1
row() { # row LABEL MMBENCH_CSV NCU_CSV: DRAM write MB of every kernel and size, mmbench's or ncu's
    local tag=${1//[^A-Za-z0-9]/-}
    python3 "$here/ncu_compare.py" "$2" "$3" >"$out/l2-compare-$tag.txt"
    awk -v label="$1" -v col="$4" '$3 == "DRAM" && $4 == "write" { v = v sprintf(" %8.3f", $col) }
        END { printf "%-26s%s\n", label, v }' "$out/l2-compare-$tag.txt"
}
ncu_run() { # ncu_run TAG CACHE_CONTROL: ncu's DRAM bytes of the timed launches, one pass
    "$ncu" --clock-control none --cache-control "$2" --kernel-name regex:'^matmul_' --metrics "$dram" --csv \
        --page raw "$mmbench" run --no-counters --repeats 1 --warmup 0 -o "$out/l2-ncu-$1-run.csv" \
        profiles/ncu-check.ini >"$out/l2-ncu-$1.csv" 2>"$out/l2-ncu-$1.log"
}
printf '%-26s%s\n' "DRAM write MB" "   naive/1k  tiled/1k   rect/1k   tune/1k   naive/4k  tiled/4k   rect/4k   tune/4k"
ncu_run all all
row "ncu, flushed by ncu" "$out/l2-mmbench.csv" "$out/l2-ncu-all.csv" 7
row "mmbench, default" "$out/l2-mmbench.csv" "$out/l2-ncu-all.csv" 6
# Each METHOD twice: mmbench's counters after it, and ncu (no CUPTI in mmbench's process)
# on the timed launch, which follows the same METHOD (mmbench's timing flushes with it).
for m in "${methods[@]}"; do
    tag=${m//[:+]/-}
    MMB_L2_SWEEP=$m "$mmbench" run -o "$out/l2-mmbench-$tag.csv" profiles/ncu-check.ini >"$out/l2-mmbench-$tag.log" 2>&1
    row "mmbench, $m" "$out/l2-mmbench-$tag.csv" "$out/l2-ncu-all.csv" 6
    MMB_L2_SWEEP=$m ncu_run "$tag" none
    row "ncu, after $m" "$out/l2-mmbench-$tag.csv" "$out/l2-ncu-$tag.csv" 7
done
