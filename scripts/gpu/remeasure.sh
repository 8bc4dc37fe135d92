#!/bin/bash
# remeasure.sh [PROFILE...] - on the GPU machine, from the repository root, with the
# build-gpu/ of scripts/gpu/build.sh carried: measures the course, dtypes and tune-seed
# profiles (or the profiles named) again from nothing, every one under ONE protocol,
# so that two GPUs (or two runs) compare configuration by configuration with `mmbench
# compare` and the report's verdicts. One call per GPU. The protocol is the timing
# options below, given on the command line over each profile's own:
#
#   --warmup 2 --noise 0.5% --min-samples 20 --max-seconds 1   (cold L2: the profiles')
#
# 20 launches at least give each median a distribution-free interval from the 5th to
# the 16th time at the 97.5% that compare asks of each side (docs/compare.md); the
# noise target takes more where the spread is wider, up to a second of launches.
# Counters as each profile names them (default); MMB_L2_SWEEP, MMB_CUPTI_SETUP,
# MMB_CUPTI_REPLAY and MMB_COUNTER_BATCH are left unset (their defaults), and the rows'
# protocol column records all of it. Each step gets what is left of MMB_JOB_SECONDS
# (default 540); a step cut short keeps its finished rows, and a second call with
# MMB_REMEASURE_FROM=DIR (the data/ folder of the first call's tarball, carried along)
# resumes from them: resume measures again only what is missing or was measured
# otherwise.
#
# Writes $OUT/remeasure-<gpu>.tar.gz: data/<gpu>/{course,dtypes,tune-seed}.csv, their
# side files of launch times (*.samples.csv) and T4 files; logs/ (steps.txt,
# devices.txt, nvidia-smi.txt, one log per profile, protocols.txt: each file's
# protocols and how many rows carry each, which must be one line per file and the same
# line for every file). Then, here, for each GPU's tarball:
#   mkdir -p /tmp/rm-<gpu> && tar xzf remeasure-<gpu>.tar.gz -C /tmp/rm-<gpu>
#   scripts/gpu/collect.sh /tmp/rm-<gpu>        # the CSVs and side files into data/<gpu>/
# and with both GPUs in:
#   build/harness/mmbench compare --gpus h100-80gb-hbm3 h200 -p course
#   ninja -C build bench                        # the report, its verdicts from the samples
set -u
root=$PWD
out=${OUT:-/tmp/mmb-out}
work=/tmp/mmb-remeasure
budget=${MMB_JOB_SECONDS:-540}
t0=$(date +%s)
protocol=(--warmup 2 --noise 0.5% --min-samples 20 --max-seconds 1)
rm -rf "$work" && mkdir -p "$out" "$work/logs" "$work/data"
if [ -n "${MMB_REMEASURE_FROM:-}" ]; then
    cp -r "$MMB_REMEASURE_FROM"/. "$work/data/" || exit 1
fi
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=/tmp/mmb-cache PATH="$PATH:/usr/local/cuda/bin"
unset MMB_L2_SWEEP MMB_CUPTI_SETUP MMB_CUPTI_REPLAY MMB_COUNTER_BATCH
mmbench="$root/build-gpu/harness/mmbench"
[ -x "$mmbench" ] || { echo "remeasure: $mmbench: not built (scripts/gpu/build.sh, then carry build-gpu)" >&2; exit 2; }

left() { echo $(( budget - ($(date +%s) - t0) - 15 )); }
step() { # step NAME COMMAND...: runs with what is left of the budget, logs, records rc and time
    local name=$1; shift
    local s=$(date +%s) l=$(left)
    if [ "$l" -le 5 ]; then echo "$name: no time left" | tee -a "$work/logs/steps.txt"; return; fi
    timeout "$l" "$@" >"$work/logs/$name.log" 2>&1
    printf '%-28s rc=%-3d %5ds\n' "$name" "$?" "$(( $(date +%s) - s ))" | tee -a "$work/logs/steps.txt"
}

{ nvidia-smi; nvidia-smi -q -d CLOCK; } >"$work/logs/nvidia-smi.txt" 2>&1
{ "$mmbench" --version; "$mmbench" devices; } 2>&1 | tee "$work/logs/devices.txt"
slug=$("$mmbench" devices 2>/dev/null | sed -n 's/.*data\/\([^/ ]*\).*/\1/p' | head -1)

profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(profiles/course.ini profiles/dtypes.ini profiles/tune-seed.ini)
for p in "${profiles[@]}"; do
    name=$(basename "$p" .ini)
    # run or tune: the program's own rule (a tuning profile's name starts with tune)
    if ! command=$("$mmbench" check --command "$p" 2>"$work/logs/check-$name.log"); then
        cat "$work/logs/check-$name.log"
        continue
    fi
    step "$command-$name" "$mmbench" "$command" --data-dir "$work/data" "${protocol[@]}" "$p"
    tail -n 6 "$work/logs/$command-$name.log"
done

# The protocol column is the last and holds no comma: each file's protocols, counted.
for f in "$work"/data/*/*.csv; do
    case $f in *.samples.csv) continue ;; esac
    echo "== ${f#"$work"/}"
    tail -n +2 "$f" | awk -F, '{ print $NF }' | sort | uniq -c
done >"$work/logs/protocols.txt"
cat "$work/logs/protocols.txt"
tar -C "$work" -czf "$out/remeasure-${slug:-gpu}.tar.gz" data logs
cat "$work/logs/steps.txt"
