#!/bin/bash
# bench-vs-kt.sh [MMBENCH] - on the GPU machine, from the repository root, in one call:
# Kernel Tuner 1.5 (cupy backend) and mmbench on the same kernel source, space and
# protocol (seed 002's tunable kernel over profiles/tune-seed.ini's space at 4096, f32,
# hot L2, 1 untimed + 7 timed launches per configuration, no counters), each with an
# empty compile cache and then with the cache it filled; then profiles/course.ini
# without counters (empty cubin cache, then warm) and with the default counters (warm:
# counters = best); then profiles/ladder.ini without counters (empty cubin cache) and
# with the default counters (warm).
# Writes $OUT/speed.csv, and $OUT/data/<gpu>/bench/speed.csv for collecting, with the
# header task,tool,cache,wall_s,kernel_s,configs,best_params,best_ms (issue 15; the
# columns are explained in scripts/bench_vs_kt.py); where each mmbench run's time went
# (its phases, from the line it prints at its end) in $OUT/phases.csv beside it, and
# where each counted run's counter time went (by step and by pass number, from
# `run -v`) in $OUT/counter-steps.csv; and
# every log in $OUT/bench-vs-kt.tar.gz. The step `noise` (not run by default: it takes
# about as long again) sweeps the course profile twice without counters to a noise
# target (MMB_BENCH_NOISE, default 0.5%) and compares the two runs' medians at 1024 and
# above in $OUT/noise-repeat.txt. The step `before` (alone, a call of its own) runs the
# course and the ladder with counters with an earlier mmbench, MMBENCH_BEFORE, each
# first without counters to fill its cubin cache, into speed-before.csv and
# phases-before.csv: where the time went before, for the table of after against before.
#
# Needs: build-gpu/ (scripts/gpu/build.sh, here) and .whl/ (Kernel Tuner's wheels)
# carried along; the machine's python3 with numpy and cupy.
#   MMBENCH             default build-gpu/harness/mmbench, else build/harness/mmbench
#   MMBENCH_BEFORE      the earlier mmbench of the step `before`
#   MMB_BENCH_SECONDS   time for all steps (default 560); each step gets what is left
#   MMB_BENCH_STEPS     steps to run, default "kt mmbench course ladder"; also "noise", "before"
set -u
root=$PWD
out=${OUT:-/tmp/mmb-bench-vs-kt}
work=/tmp/mmb-bench-vs-kt-work
budget=${MMB_BENCH_SECONDS:-560}
steps=" ${MMB_BENCH_STEPS:-kt mmbench course ladder} "
size=4096
t0=$(date +%s)
py=${PYTHON:-python3}
mmbench=${1:-${MMBENCH:-}}
if [ -z "$mmbench" ]; then
    mmbench=$root/build-gpu/harness/mmbench
    [ -x "$mmbench" ] || mmbench=$root/build/harness/mmbench
fi
say() { echo "bench-vs-kt: $*"; }
[ -x "$mmbench" ] || { say "no mmbench at $mmbench; build it first (scripts/gpu/build.sh)" >&2; exit 2; }
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
rm -rf "$work" && mkdir -p "$work/logs" "$out" || exit 1
out=$(cd "$out" && pwd)
driver=("$py" "$root/scripts/bench_vs_kt.py")

left() { echo $(( budget - ($(date +%s) - t0) )); }
# timed NAME COMMAND...: runs within what is left of the budget, its output on the
# screen and in logs/NAME.log, its wall time in logs/NAME.wall (empty if it failed).
timed() {
    local name=$1; shift
    local l s e rc
    l=$(left)
    if [ "$l" -le 10 ]; then say "$name: no time left, skipped"; : >"$work/logs/$name.wall"; return 1; fi
    say "$name: $* (at most $l s)"
    s=$(date +%s.%N)
    timeout "$l" "$@" 2>&1 | tee "$work/logs/$name.log"
    rc=${PIPESTATUS[0]}
    e=$(date +%s.%N)
    if [ "$rc" = 0 ]; then
        echo "$s $e" | awk '{printf "%.2f\n", $2 - $1}' >"$work/logs/$name.wall"
    else
        : >"$work/logs/$name.wall"
    fi
    say "$name: exit $rc, $(awk -v s="$s" -v e="$e" 'BEGIN{printf "%.2f", e - s}') s wall"
    return "$rc"
}
wall() { cat "$work/logs/$1.wall" 2>/dev/null; }
# pack: the logs, the summaries and every CSV into $OUT/bench-vs-kt.tar.gz
pack() (
    cd "$work" || exit 1
    shopt -s nullglob
    tar -czf "$out/bench-vs-kt.tar.gz" logs ./*.json ./*.ini ./*.csv data-*
)

say "GPU and software"
{ nvidia-smi; "$mmbench" devices; } 2>&1 | tee "$work/logs/devices.txt" | head -n 20

# ---- the same space for both: profiles/tune-seed.ini's [kernel tunable], as it is ----
protocol=$work/seed002-kt-protocol.ini
{
    cat <<EOF
; written by scripts/bench-vs-kt.sh: seed 002's space as profiles/tune-seed.ini has it,
; under Kernel Tuner's protocol (hot L2, 1 untimed + 7 timed launches), no counters.
[profile]
name = seed002-kt-protocol
sizes = $size
dtypes = f32
repeats = 7
warmup = 1
cache = hot

[tune]
strategy = brute_force
objective = time
kernels = tunable

[kernel cublas]
library = cublas

EOF
    awk '/^\[kernel tunable\]/{on=1; print; next} /^\[/{on=0} on && !/^;/' profiles/tune-seed.ini |
        sed "s|^source = \.\./|source = $root/|"
} >"$protocol"
say "the protocol's profile, $protocol:"
cat "$protocol"
"$mmbench" check "$protocol" || { say "mmbench check refused $protocol" >&2; exit 2; }

# ---- Kernel Tuner ----
if [[ $steps == *" kt "* ]]; then
    say "installing Kernel Tuner from .whl/ into $work/site"
    ls .whl/*.whl
    $py -m pip install --no-index --no-deps --target "$work/site" .whl/*.whl 2>&1 | tail -n 3
    export PYTHONPATH="$work/site${PYTHONPATH:+:$PYTHONPATH}"
    $py -c 'import sys, numpy, cupy; print("python", sys.version.split()[0], "numpy", numpy.__version__, "cupy", cupy.__version__)'
    "${driver[@]}" kt profiles/tune-seed.ini tunable "$size" "$work/kt-dry.json" --dry-run
    # cold: cupy's kernel cache and the driver's JIT cache empty; warm: as the cold run left them
    export CUPY_CACHE_DIR=$work/cupy-cache CUDA_CACHE_PATH=$work/nv-cache-kt
    for cache in cold warm; do
        timed "kt-$cache" "${driver[@]}" kt profiles/tune-seed.ini tunable "$size" "$work/kt-$cache.json" --iterations 7
        say "cupy's cache holds $(find "$CUPY_CACHE_DIR" -type f 2>/dev/null | wc -l) files"
    done
    unset CUPY_CACHE_DIR CUDA_CACHE_PATH
fi

# ---- mmbench on the same space ----
if [[ $steps == *" mmbench "* ]]; then
    export CUDA_CACHE_PATH=$work/nv-cache-mmb
    for cache in cold warm; do
        timed "mmbench-$cache" "$mmbench" tune --cache-dir "$work/cubins-seed002" --no-counters --no-t4 \
            --data-dir "$work/data-$cache" "$protocol"
        say "the cubin cache holds $(find "$work/cubins-seed002" -name '*.cubin' 2>/dev/null | wc -l) cubins"
    done
    unset CUDA_CACHE_PATH
fi

# counted CSV: how many ok rows have counters, and of what status
counted() {
    [ -f "$1" ] && "$py" - "$1" <<'PY'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(f"bench-vs-kt: {sys.argv[1]}: counter_status of the ok rows",
      dict(collections.Counter(r["counter_status"] for r in rows if r["status"] == "ok")))
PY
}

# ---- the course sweep: no counters from an empty cubin cache, then counters (best) and none, warm ----
if [[ $steps == *" course "* ]]; then
    timed course-no-counters-cold "$mmbench" run --no-counters --cache-dir "$work/cubins-course" \
        -o "$work/course-no-counters-cold.csv" profiles/course.ini
    timed course-counters-warm "$mmbench" run -v --cache-dir "$work/cubins-course" \
        -o "$work/course-counters-warm.csv" profiles/course.ini
    counted "$work/course-counters-warm.csv"
    timed course-no-counters-warm "$mmbench" run --no-counters --cache-dir "$work/cubins-course" \
        -o "$work/course-no-counters-warm.csv" profiles/course.ini
fi

# ---- the ladder: no counters from an empty cubin cache, then the default counters (best), warm ----
if [[ $steps == *" ladder "* ]]; then
    timed ladder-no-counters-cold "$mmbench" run --no-counters --cache-dir "$work/cubins-ladder" \
        -o "$work/ladder-no-counters-cold.csv" profiles/ladder.ini
    timed ladder-counters-warm "$mmbench" run -v --cache-dir "$work/cubins-ladder" \
        -o "$work/ladder-counters-warm.csv" profiles/ladder.ini
    counted "$work/ladder-counters-warm.csv"
fi

# ---- before: the course and the ladder with counters by an earlier mmbench ----
if [[ $steps == *" before "* ]]; then
    before=${MMBENCH_BEFORE:-}
    [ -x "$before" ] || { say "step before: MMBENCH_BEFORE='$before' is not a program" >&2; exit 2; }
    for p in course ladder; do
        timed "$p-no-counters-cold-before" "$before" run --no-counters --cache-dir "$work/cubins-$p-before" \
            -o "$work/$p-no-counters-cold-before.csv" "profiles/$p.ini"
        timed "$p-counters-warm-before" "$before" run -v --cache-dir "$work/cubins-$p-before" \
            -o "$work/$p-counters-warm-before.csv" "profiles/$p.ini"
        counted "$work/$p-counters-warm-before.csv"
    done
fi

# ---- the course sweep twice to a noise target: do the medians agree? ----
if [[ $steps == *" noise "* ]]; then
    for i in 1 2; do
        timed "course-noise-$i" "$mmbench" run --no-counters --noise "${MMB_BENCH_NOISE:-0.5%}" \
            --cache-dir "$work/cubins-course" -o "$work/course-noise-$i.csv" profiles/course.ini
    done
    {
        echo "profiles/course.ini twice, --no-counters --noise ${MMB_BENCH_NOISE:-0.5%}: wall $(wall course-noise-1) s" \
            "and $(wall course-noise-2) s"
        "${driver[@]}" compare "$work/course-noise-1.csv" "$work/course-noise-2.csv" 1024
    } 2>&1 | tee "$out/noise-repeat.txt"
fi

# ---- phases.csv: where each mmbench run's time went ----
phases_of() { # phases_of TASK... : the phase rows of the tasks' logs that ran
    for task in "$@"; do
        [ -f "$work/logs/$task.log" ] && "${driver[@]}" phases "$task" "$work/logs/$task.log"
    done
}
{
    echo "task,log,$("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench_vs_kt; print(",".join(bench_vs_kt.PHASE_COLUMNS))' "$root/scripts")"
    phases_of mmbench-cold mmbench-warm course-no-counters-cold course-counters-warm course-no-counters-warm \
        ladder-no-counters-cold ladder-counters-warm
} >"$work/phases.csv"
# counter-steps.csv: where the counter time of each run with counters went, by step and by pass
{
    echo "task,log,$("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench_vs_kt; print(",".join(bench_vs_kt.STEP_COLUMNS))' "$root/scripts")"
    for task in course-counters-warm ladder-counters-warm course-counters-warm-before ladder-counters-warm-before; do
        [ -f "$work/logs/$task.log" ] && "${driver[@]}" steps "$task" "$work/logs/$task.log"
    done
} >"$work/counter-steps.csv"
{
    head -n 1 "$work/phases.csv"
    phases_of course-no-counters-cold-before course-counters-warm-before ladder-no-counters-cold-before \
        ladder-counters-warm-before
} >"$work/phases-before.csv"

# ---- speed.csv ----
if [[ $steps == *" before "* ]]; then
    {
        echo "task,tool,cache,wall_s,kernel_s,configs,best_params,best_ms"
        for p in course ladder; do
            for run in "$p-no-counters-cold-before" "$p-counters-warm-before"; do
                kernel=tunable; [ "$p" = ladder ] && kernel=10_stream_k
                warmup=$(sed -n 's/^warmup *= *\([0-9][0-9]*\).*/\1/p' "profiles/$p.ini")
                [ -f "$work/$run.csv" ] && "${driver[@]}" mmbench "$work/$run.csv" "$kernel" "$size" "${warmup:-2}" \
                    "$work/$run.json" --all-kernels >/dev/null
                task=$p-no-counters; cache=cold
                [[ $run == *-counters-warm-* ]] && { task=$p-counters; cache=warm; }
                "${driver[@]}" row "$task" mmbench-before "$cache" "$(wall "$run")" "$work/$run.json"
            done
        done
    } >"$out/speed-before.csv"
    cp "$work/phases-before.csv" "$out/phases-before.csv"
    column -s, -t <"$out/phases-before.csv" 2>/dev/null || cat "$out/phases-before.csv"
fi
if [[ $steps != *" kt "* && $steps != *" mmbench "* && $steps != *" course "* && $steps != *" ladder "* ]]; then
    pack
    say "done in $(( $(date +%s) - t0 )) s (no speed.csv: none of its steps ran): $out/bench-vs-kt.tar.gz"
    exit 0
fi
say "summaries"
for cache in cold warm; do
    csv=$(find "$work/data-$cache" -name tune-seed002-kt-protocol.csv 2>/dev/null | head -n 1)
    [ -n "$csv" ] && "${driver[@]}" mmbench "$csv" tunable "$size" 1 "$work/mmbench-$cache.json"
done
course_warmup=$(sed -n 's/^warmup *= *\([0-9][0-9]*\).*/\1/p' profiles/course.ini)
for run in course-no-counters-cold course-counters-warm course-no-counters-warm; do
    [ -f "$work/$run.csv" ] && "${driver[@]}" mmbench "$work/$run.csv" tunable "$size" "${course_warmup:-2}" \
        "$work/$run.json" --all-kernels
done
ladder_warmup=$(sed -n 's/^warmup *= *\([0-9][0-9]*\).*/\1/p' profiles/ladder.ini)
for run in ladder-no-counters-cold ladder-counters-warm; do
    [ -f "$work/$run.csv" ] && "${driver[@]}" mmbench "$work/$run.csv" 10_stream_k "$size" "${ladder_warmup:-2}" \
        "$work/$run.json" --all-kernels
done
{
    echo "task,tool,cache,wall_s,kernel_s,configs,best_params,best_ms"
    for cache in cold warm; do
        "${driver[@]}" row seed002-kt-protocol kernel_tuner "$cache" "$(wall "kt-$cache")" "$work/kt-$cache.json"
        "${driver[@]}" row seed002-kt-protocol mmbench "$cache" "$(wall "mmbench-$cache")" "$work/mmbench-$cache.json"
    done
    "${driver[@]}" row course-no-counters mmbench cold "$(wall course-no-counters-cold)" "$work/course-no-counters-cold.json"
    "${driver[@]}" row course-counters mmbench warm "$(wall course-counters-warm)" "$work/course-counters-warm.json"
    "${driver[@]}" row course-no-counters mmbench warm "$(wall course-no-counters-warm)" "$work/course-no-counters-warm.json"
    "${driver[@]}" row ladder-no-counters mmbench cold "$(wall ladder-no-counters-cold)" "$work/ladder-no-counters-cold.json"
    "${driver[@]}" row ladder-counters mmbench warm "$(wall ladder-counters-warm)" "$work/ladder-counters-warm.json"
} >"$out/speed.csv"
cp "$work/phases.csv" "$out/phases.csv"
cp "$work/counter-steps.csv" "$out/counter-steps.csv"
slug=$(basename "$(dirname "$(find "$work" -path '*/data-*/*/tune-seed002-kt-protocol.csv' | head -n 1)")")
# without the mmbench step, the data folder of GPU 0 as `mmbench devices` names it
[ -n "$slug" ] && [ "$slug" != . ] || slug=$("$mmbench" devices 2>/dev/null | awk 'NR == 2 { sub("^data/", "", $NF); print $NF }')
if [ -n "$slug" ] && [ "$slug" != . ]; then
    mkdir -p "$out/data/$slug/bench" && cp "$out/speed.csv" "$out/phases.csv" "$out/data/$slug/bench/"
    say "speed.csv and phases.csv also in $out/data/$slug/bench/ (copy that folder into data/)"
fi
column -s, -t <"$out/speed.csv" 2>/dev/null || cat "$out/speed.csv"
column -s, -t <"$out/phases.csv" 2>/dev/null || cat "$out/phases.csv"
column -s, -t <"$out/counter-steps.csv" 2>/dev/null || cat "$out/counter-steps.csv"
awk -F, 'NR > 1 && $1 == "seed002-kt-protocol" { w[$2 " " $3] = $4 }
    END { for (c in w) if (c ~ /^kernel_tuner/) { split(c, a, " "); m = w["mmbench " a[2]];
          if (w[c] != "" && m != "" && m > 0) printf "bench-vs-kt: %s cache: Kernel Tuner / mmbench = %.2fx\n", a[2], w[c] / m } }' \
    "$out/speed.csv"
grep -h 'timing kernel=' "$work"/logs/mmbench-*.log 2>/dev/null
pack
say "done in $(( $(date +%s) - t0 )) s: $out/speed.csv, $out/bench-vs-kt.tar.gz"
