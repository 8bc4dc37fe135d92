#!/bin/bash
# ladder-check.sh [--counters] [LADDER] - on the GPU machine, from the repository root, with
# the build-gpu/ of scripts/gpu/build.sh carried along: checks and times one kernel ladder,
# LADDER = ladder (kernels/ladder/, f32; the default) or ladder-tc (kernels/wmma.cu and
# kernels/ladder-tc/, f16 and bf16):
#  1. profiles/LADDER-awkward.ini: every ladder configuration at awkward sizes (every row
#     must be ok, or restricted where a step declares what it needs);
#  2. compute-sanitizer memcheck, synccheck and racecheck over the ladder's own kernels (the
#     --kernel-name filter below) at one small awkward size, from a copy of
#     LADDER-awkward.ini, which names the own kernels only: cuBLAS's kernels never run there
#     (racecheck died inside one on the H100), and the reference cuBLAS computes is not
#     instrumented; then over the Stream-K step at a size where it cuts tiles;
#  3. profiles/LADDER.ini: the ladder against cuBLAS, 512 to 8192 and the course's
#     rectangular shapes (with the hardware counters only with --counters);
#  4. table.txt: the phases, the awkward rows that are not ok, the sanitizers' summaries,
#     each kernel's % of cuBLAS per size and dtype, then the full table (ladder_table.py).
# Time: LADDER_SECONDS (default 330) in all. The phases run against deadlines counted from
# the start: the awkward sizes by AWKWARD_SECONDS (default 60), the sanitizers
# SAN_SECONDS (default 150) after that, the ladder by the end (less 10 s for the table),
# so that time one phase leaves goes to the next; a phase cut short keeps what it
# finished (`mmbench run` resumes from its CSV). Output in $OUT (default /tmp/ladder-out):
# LADDER.csv, LADDER-awkward.csv, table.txt, sanitizer.txt, logs.tar.gz.
set -u
root=$PWD
counters=--no-counters
if [ "${1:-}" = --counters ]; then
    counters=
    shift
fi
ladder=${1:-ladder}
# Per ladder: the sanitizers' size and dtypes, their kernel filter (a substring of the own
# kernels' names), and the Stream-K kernel with a size where it cuts tiles on 132 SMs.
case $ladder in
ladder) # step 10: 289 tiles of 128x128 on 264 workers
    san_size=1023x517x259 san_dtypes=f32 san_kernels=matmul_ladder
    cut_kernel=matmul_ladder_stream_k cut_size=2176x2176x64 ;;
ladder-tc) # every step allows 200x136x40; step 7: 289 tiles of 128x128 on 132 workers, 4 k-tiles each
    san_size=200x136x40 san_dtypes="f16, bf16" san_kernels=matmul_
    cut_kernel=matmul_ladder_tc_stream_k cut_size=2176x2176x200 ;;
*)
    echo "usage: ladder-check.sh [--counters] [ladder|ladder-tc]" >&2
    exit 2 ;;
esac
for f in "profiles/$ladder.ini" "profiles/$ladder-awkward.ini"; do
    [ -f "$f" ] || { echo "ladder-check.sh: $f not found; run it from the repository root" >&2; exit 2; }
done
out=${OUT:-/tmp/ladder-out}
budget=${LADDER_SECONDS:-330}
t0=$(date +%s)
logs=/tmp/$ladder-check-logs
rm -rf "$logs" && mkdir -p "$out" "$logs"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}

step() { # step NAME DEADLINE COMMAND...: runs until DEADLINE (seconds from the start), logs, records rc and time
    local name=$1 deadline=$2
    shift 2
    local s l
    s=$(date +%s)
    l=$((t0 + deadline - s))
    if [ "$l" -le 5 ]; then
        printf '%-24s no time left\n' "$name" | tee -a "$logs/steps.txt"
        return
    fi
    timeout -k 10 "$l" "$@" >"$logs/$name.log" 2>&1
    printf '%-24s rc=%-3d %5ds of %ds\n' "$name" "$?" "$(($(date +%s) - s))" "$l" | tee -a "$logs/steps.txt"
}
awkward_by=${AWKWARD_SECONDS:-60}
san_by=$((awkward_by + ${SAN_SECONDS:-150}))
end_by=$((budget - 10))

{ nvidia-smi; "$mmbench" devices; } >"$logs/devices.txt" 2>&1
step awkward "$awkward_by" "$mmbench" run --no-counters -o "$out/$ladder-awkward.csv" "profiles/$ladder-awkward.ini"

# The awkward profile at one size, one launch per configuration, sources made absolute;
# then at the size where the Stream-K step cuts tiles.
san=/tmp/$ladder-sanitize.ini
san_cut=/tmp/$ladder-sanitize-cut.ini
sed -e "s|^sizes = .*|sizes = $san_size|" -e "/^\[profile\]/,/^\[kernel/ s|^dtypes = .*|dtypes = $san_dtypes|" \
    -e "s|^source = \.\./|source = $root/|" -e "s|^name = .*|name = $ladder-sanitize|" \
    "profiles/$ladder-awkward.ini" >"$san"
sed -e "s|^sizes = .*|sizes = $cut_size|" -e "s|^name = .*|name = $ladder-sanitize-cut|" "$san" >"$san_cut"
rm -f /tmp/"$ladder"-san-*.csv # a warm machine keeps them: the run would resume and check nothing
for tool in memcheck synccheck racecheck; do
    step "san-$tool" "$san_by" compute-sanitizer --tool "$tool" --kernel-name "kns=$san_kernels" --error-exitcode 99 \
        "$mmbench" run -v --no-counters -o "/tmp/$ladder-san-$tool.csv" "$san"
    step "san-cut-$tool" "$san_by" compute-sanitizer --tool "$tool" --kernel-name "kns=$cut_kernel" \
        --error-exitcode 99 "$mmbench" run -v --no-counters -o "/tmp/$ladder-san-cut-$tool.csv" "$san_cut"
done
for name in san-memcheck san-synccheck san-racecheck san-cut-memcheck san-cut-synccheck san-cut-racecheck; do
    f=$logs/$name.log
    [ -f "$f" ] || continue
    rows=$(grep -cE " (hot|cold) [0-9]+x[0-9]+x[0-9]+: " "$f")
    ok=$(grep -cE " (hot|cold) [0-9]+x[0-9]+x[0-9]+: ok " "$f")
    summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1)
    grep -q 'Internal Sanitizer Error' "$f" && summary="$summary; INTERNAL SANITIZER ERROR"
    echo "== compute-sanitizer ${name#san-}: $ok of $rows rows ok; ${summary:-no summary (cut short?)}"
    cat "$f"
done >"$out/sanitizer.txt"

step "$ladder" "$end_by" "$mmbench" run $counters -o "$out/$ladder.csv" "profiles/$ladder.ini"

table() { # table CSV [OPTIONS]: ladder_table.py over CSV, or a line saying it is missing
    if [ -s "$1" ]; then python3 scripts/gpu/ladder_table.py "$@"; else echo "$1: no rows"; fi
}
{
    echo "== steps"; cat "$logs/steps.txt"
    echo "== awkward sizes"; table "$out/$ladder-awkward.csv" --failures 12
    echo "== compute-sanitizer"; grep '^== compute-sanitizer' "$out/sanitizer.txt"
    echo "== % of cuBLAS"; table "$out/$ladder.csv" --summary
    echo "== $ladder"; table "$out/$ladder.csv"
} >"$out/table.txt" 2>&1
tar -czf "$out/logs.tar.gz" -C "$logs" .
cat "$out/table.txt"
