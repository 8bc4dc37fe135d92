#!/bin/bash
# energy-data.sh - on the GPU machine, from the repository root, with the build-gpu/ of
# scripts/gpu/build.sh carried: the energy data of one GPU, measured from nothing, in
# budgeted steps (remeasure.sh's style). STEPS picks them (default all five, in this
# order; e.g. STEPS=course,check,best on one GPU and STEPS=ladder,tune on another, the
# two under scripts/gpu/gpus.sh in one call):
#
#   course  profiles/course.ini under remeasure.sh's protocol (--warmup 2 --noise 0.5%
#           --min-samples 20 --max-seconds 1) with --energy all: every configuration's
#           power and energy beside its time, counters as the profile says (best).
#           About 130 s: the course's 77.5 s on an H100 (data/h100-80gb-hbm3/bench/
#           remeasure.log) plus 153 energy windows of 0.2 s, 0.2 to 0.4 s each with the
#           waits for the counter's updates (docs/energy.md), and throttled rows timed again.
#   ladder  profiles/ladder.ini as the profile times it, with --energy all. About 180 s:
#           110 s with counters (data/h100-80gb-hbm3/bench/ladder.log) plus 231 windows.
#   tune    mmbench tune profiles/tune-energy.ini: objective time,energy over
#           tune-seed's tunable space at 4096 f32 (44 allowed configurations), every
#           configuration's energy (energy = all) and cuBLAS's as the reference, no
#           counters: the Pareto front of reports/figures/pareto-tunable-<gpu>.png.
#           About 45 s: 45 configurations timed (tune-seed's 69 took 26 s of timing)
#           plus 45 windows and the compiles.
#   check   scripts/gpu/energy-check.sh: mmbench's 5 s windows against nvidia-smi's
#           power.draw.instant (and energy counter where it has one). About 60 s, at
#           most 200 s.
#   best    energy = best (with the default counters = best), on a GPU: `mmbench run
#           profiles/tune-seed.ini` (68 configurations in two groups, and cuBLAS) into a
#           scratch CSV (logs/best.csv, not data/): each group's fastest row with its
#           energy (energy_status ok) and counters, the others not_best. About 40 s.
#
# course+check+best about 240 s, ladder+tune about 230 s, all five about 460 s; each step
# gets what is left of MMB_JOB_SECONDS (default 540) and a step cut short keeps its
# finished rows. It changes no clock or power setting (no --lock-clocks).
#
# Writes $OUT/energy-<gpu>[-STEPS].tar.gz: data/<gpu>/ (course.csv, ladder.csv,
# tune-energy.csv, their *.samples.csv and the tune's T4 file, as the steps made them),
# data/<gpu>/bench/energy-check/ (energy-check.sh's output: compare.txt, the CSVs, the
# log) and logs/ (energy-steps.txt, energy-devices.txt, nvidia-smi.txt, one log per
# step, protocols.txt, energy.txt: per CSV the ok rows and how many have each
# energy_status and throttle word; named so that collect.sh leaves the committed
# job-steps.txt, gpu-tests.txt and devices.txt alone). Then, here, for each tarball
# (gpus.sh packs $OUT/gpuN.tar.gz around it: unpack that first):
#   mkdir -p /tmp/en-<gpu> && tar xzf energy-<gpu>*.tar.gz -C /tmp/en-<gpu>
#   scripts/gpu/collect.sh /tmp/en-<gpu>        # the CSVs, side files and T4 into data/<gpu>/
#   cp -r /tmp/en-<gpu>/data/<gpu>/bench/energy-check data/<gpu>/bench/
#   mkdir -p data/<gpu>/bench/energy-data && cp /tmp/en-<gpu>/logs/* data/<gpu>/bench/energy-data/
set -u
root=$PWD
out=${OUT:-/tmp/mmb-out}
work=${TMPDIR:-/tmp}/mmb-energy-data # gpus.sh gives each GPU its own TMPDIR
budget=${MMB_JOB_SECONDS:-540}
steps=${STEPS:-course,ladder,tune,check,best}
t0=$(date +%s)
protocol=(--warmup 2 --noise 0.5% --min-samples 20 --max-seconds 1)
for s in ${steps//,/ }; do
    case $s in course | ladder | tune | check | best) ;;
    *) echo "energy-data: STEPS: '$s' is not a step; expected course, ladder, tune, check or best, joined by ','" >&2
       exit 2 ;;
    esac
done
rm -rf "$work" && mkdir -p "$out" "$work/logs" "$work/data"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache} PATH="$PATH:/usr/local/cuda/bin"
unset MMB_L2_SWEEP MMB_CUPTI_SETUP MMB_CUPTI_REPLAY MMB_COUNTER_BATCH
mmbench="$root/build-gpu/harness/mmbench"
[ -x "$mmbench" ] || { echo "energy-data: $mmbench: not built (scripts/gpu/build.sh, then carry build-gpu)" >&2; exit 2; }

left() { echo $(( budget - ($(date +%s) - t0) - 15 )); }
step() { # step NAME COMMAND...: runs with what is left of the budget, logs, records rc and time
    local name=$1; shift
    local s l
    s=$(date +%s)
    l=$(left)
    if [ "$l" -le 5 ]; then echo "$name: no time left" | tee -a "$work/logs/energy-steps.txt"; return; fi
    timeout "$l" "$@" >"$work/logs/$name.log" 2>&1
    printf '%-28s rc=%-3d %5ds\n' "$name" "$?" "$(( $(date +%s) - s ))" | tee -a "$work/logs/energy-steps.txt"
    tail -n 4 "$work/logs/$name.log"
}
wants() { [[ ",$steps," == *",$1,"* ]]; }

{ nvidia-smi; nvidia-smi -q -d CLOCK,POWER,PERFORMANCE; } >"$work/logs/nvidia-smi.txt" 2>&1
{ "$mmbench" --version; "$mmbench" devices; } 2>&1 | tee "$work/logs/energy-devices.txt"
slug=$("$mmbench" devices 2>/dev/null | sed -n 's/.*data\/\([^/ ]*\).*/\1/p' | head -1)
slug=${slug:-gpu}

wants course && step run-course "$mmbench" run --data-dir "$work/data" "${protocol[@]}" --energy all \
    profiles/course.ini
wants ladder && step run-ladder "$mmbench" run --data-dir "$work/data" --energy all profiles/ladder.ini
wants tune && step tune-energy "$mmbench" tune --data-dir "$work/data" profiles/tune-energy.ini
if wants check; then
    mkdir -p "$work/data/$slug/bench/energy-check"
    OUT="$work/data/$slug/bench/energy-check" step energy-check timeout 200 scripts/gpu/energy-check.sh
fi
wants best && step run-best "$mmbench" run --energy best -o "$work/logs/best.csv" profiles/tune-seed.ini

# The protocol column is the last and holds no comma: each file's protocols, counted;
# and per file, the ok rows with each energy_status and throttle word.
for f in "$work"/data/*/*.csv; do
    case $f in *.samples.csv) continue ;; esac
    echo "== ${f#"$work"/}"
    tail -n +2 "$f" | awk -F, '{ print $NF }' | sort | uniq -c
done >"$work/logs/protocols.txt"
for f in "$work"/data/*/*.csv "$work"/logs/best.csv; do
    case $f in *.samples.csv) continue ;; esac
    [ -f "$f" ] || continue
    python3 - "$f" <<'EOF'
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
ok = [r for r in rows if r.get('status') == 'ok']
print(f'== {sys.argv[1]}: {len(rows)} rows, {len(ok)} ok')
for col in ('energy_status', 'throttle'):
    print(f'  {col}:', dict(collections.Counter(r.get(col, '') or '(empty)' for r in ok)))
filled = sum(1 for r in ok if r.get('energy_j'))
print(f'  ok rows with energy_j: {filled} of {len(ok)} ({100.0 * filled / len(ok) if ok else 0:.0f}%)')
EOF
done >"$work/logs/energy.txt" 2>&1
cat "$work/logs/energy.txt"
name=energy-$slug
[ -n "${STEPS:-}" ] && name=$name-${steps//,/-}
tar -C "$work" -czf "$out/$name.tar.gz" data logs
cat "$work/logs/energy-steps.txt"
