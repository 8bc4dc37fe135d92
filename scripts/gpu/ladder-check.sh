#!/bin/bash
# ladder-check.sh [--counters] - on the GPU machine, from the repository root, with the
# build-gpu/ of scripts/gpu/build.sh carried along: checks and times the kernel ladder.
#  1. profiles/ladder-awkward.ini: every ladder configuration at awkward sizes, f32 and
#     f64 (every row must be ok);
#  2. profiles/ladder.ini: the ladder against cuBLAS, 512 to 8192 and the course's
#     rectangular shapes (with the hardware counters only with --counters);
#  3. compute-sanitizer memcheck, synccheck and racecheck over the ladder kernels
#     (matmul_ladder_*) at 1023x517x259, from a copy of ladder-awkward.ini, and over
#     step 10 (matmul_ladder_stream_k) at 2176x2176x64, where it cuts tiles;
#  4. the table: per size, each kernel's fastest configuration, ms, GFLOP/s, % of cuBLAS.
# Each step gets what is left of LADDER_SECONDS (default 330), so a run cut short still
# returns what it finished. Output in $OUT (default /tmp/ladder-out): ladder.csv,
# ladder-awkward.csv, table.txt, sanitizer.txt, logs.tar.gz.
set -u
root=$PWD
out=${OUT:-/tmp/ladder-out}
budget=${LADDER_SECONDS:-330}
t0=$(date +%s)
mkdir -p "$out" /tmp/ladder-logs
logs=/tmp/ladder-logs
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
counters=--no-counters
[ "${1:-}" = --counters ] && counters=

left() { echo $(( budget - ($(date +%s) - t0) - 10 )); }
step() { # step NAME COMMAND...: runs with what is left of the budget, logs, records rc and time
    local name=$1; shift
    local s=$(date +%s) l=$(left)
    if [ "$l" -le 5 ]; then echo "$name: no time left" | tee -a "$logs/steps.txt"; return; fi
    timeout "$l" "$@" >"$logs/$name.log" 2>&1
    printf '%-22s rc=%-3d %5ds\n' "$name" "$?" "$(( $(date +%s) - s ))" | tee -a "$logs/steps.txt"
}

{ nvidia-smi; "$mmbench" devices; } >"$logs/devices.txt" 2>&1
step awkward "$mmbench" run --no-counters -o "$out/ladder-awkward.csv" profiles/ladder-awkward.ini
step ladder "$mmbench" run $counters -o "$out/ladder.csv" profiles/ladder.ini

# One awkward size, f32, one launch per configuration; sources made absolute.
san=/tmp/ladder-sanitize.ini
sed -e "s|^sizes = .*|sizes = 1023x517x259|" -e "s|^dtypes = f32, f64$|dtypes = f32|" \
    -e "s|^source = \.\./|source = $root/|" -e "s|^name = .*|name = ladder-sanitize|" \
    profiles/ladder-awkward.ini >"$san"
# Step 10 where it cuts tiles and meets in its workspace: 289 tiles on 264 workers.
san_cut=/tmp/ladder-sanitize-cut.ini
sed -e "s|^sizes = .*|sizes = 2176x2176x64|" -e "s|^name = .*|name = ladder-sanitize-cut|" "$san" >"$san_cut"
rm -f /tmp/ladder-san-*.csv # a warm machine keeps them: the run would resume and check nothing
for tool in memcheck synccheck racecheck; do
    step "san-$tool" compute-sanitizer --tool "$tool" --kernel-name kns=matmul_ladder --error-exitcode 99 \
        "$mmbench" run -v --no-counters -o "/tmp/ladder-san-$tool.csv" "$san"
    step "san-cut-$tool" compute-sanitizer --tool "$tool" --kernel-name kns=matmul_ladder_stream_k \
        --error-exitcode 99 "$mmbench" run -v --no-counters -o "/tmp/ladder-san-cut-$tool.csv" "$san_cut"
done
for f in "$logs"/san-memcheck.log "$logs"/san-synccheck.log "$logs"/san-racecheck.log \
    "$logs"/san-cut-memcheck.log "$logs"/san-cut-synccheck.log "$logs"/san-cut-racecheck.log; do
    [ -f "$f" ] || continue
    tool=$(basename "$f" .log)
    echo "== compute-sanitizer ${tool#san-}: $(grep -cE ': ok ' "$f") configurations ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1)"
    cat "$f"
done >"$out/sanitizer.txt"

{
    echo "== steps"; cat "$logs/steps.txt"
    echo "== awkward sizes"; python3 scripts/gpu/ladder_table.py "$out/ladder-awkward.csv" | grep -E '^rows|NOT OK'
    echo "== compute-sanitizer"; grep '^== compute-sanitizer' "$out/sanitizer.txt"
    echo "== ladder"; python3 scripts/gpu/ladder_table.py "$out/ladder.csv"
} >"$out/table.txt" 2>&1
tar -czf "$out/logs.tar.gz" -C "$logs" .
cat "$out/table.txt"
