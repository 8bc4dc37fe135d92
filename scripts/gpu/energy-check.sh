#!/bin/bash
# energy-check.sh - on the GPU machine, from the repository root, with the build-gpu/ of
# scripts/gpu/build.sh carried along: reads the board's power independently of mmbench
# and compares. mmbench runs the course profile's tunable kernel (its six configurations)
# and cuBLAS at 4096, f32, each configuration's energy window 5 s long (energy = all,
# energy_seconds = 5: the kernel back to back), with -v, which prints each window's power
# and its start and end as times of day; meanwhile nvidia-smi reads the same GPU every
# 20 ms: power.draw.instant (the driver's latest power sample), total_energy_consumption
# where this nvidia-smi has it (NVML's energy counter, read by another process), and
# power.draw.average (the firmware's mean over the last second, which lags).
# energy_compare.py then compares mmbench's power_w, per window, with the readings that
# integrate the power: the counter's slope and the 1 s average over the window's part from
# 1.5 s after its opening; within 3% for every window, or exit 1. The instant samples are
# shown with their spread but decide nothing (energy_compare.py says why, and why 3%).
# It changes no clock or power setting.
# Finishes in about 60 s (7 windows of 5 s plus their timing; a throttled row's window
# is run again), under 200 s in any case (timeouts below).
# Output in $OUT (default /tmp/energy-out): compare.txt (the table and the verdict),
# energy-check.csv (mmbench's rows), mmbench.log, nvidia-smi.csv, query-fields.txt.
set -u
root=$PWD
out=${OUT:-/tmp/energy-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
export CUDA_DEVICE_ORDER=PCI_BUS_ID # mmbench's device 0 is nvidia-smi's GPU 0
export MMB_SOURCE_ROOT="$root"
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}

profile=${TMPDIR:-/tmp}/energy-check.ini
{
    printf '[profile]\nname = energy-check\nsizes = 4096\ndtypes = f32\n'
    printf 'noise = 0.5%%\nmin_samples = 6\nmax_seconds = 0.5\nwarmup = 0\ncache = cold\n'
    printf 'energy = all\nenergy_seconds = 5\n\n'
    # the course's tunable kernel as course.ini has it, its source made absolute
    sed -n '/^\[kernel tunable\]/,/^$/p' profiles/course.ini | sed "s|^source = \.\./|source = $root/|"
    printf '\n[kernel cublas]\nlibrary = cublas\n'
} >"$profile"
cp "$profile" "$out/"

nvidia-smi --help-query-gpu >"$out/query-fields.txt" 2>&1
fields=timestamp
for f in power.draw.instant total_energy_consumption power.draw.average; do
    grep -q "\"$f\"" "$out/query-fields.txt" && fields=$fields,$f
done
[ "$fields" != timestamp ] || fields=timestamp,power.draw # an older nvidia-smi: shown, decides nothing
nvidia-smi -i "${MMB_GPU_INDEX:-0}" --query-gpu=$fields --format=csv -lms 20 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
sleep 1
rm -f "$out/energy-check.csv"
timeout 170 "$mmbench" run -v --no-counters -o "$out/energy-check.csv" "$profile" >"$out/mmbench.log" 2>&1
echo "mmbench run: rc=$?" >>"$out/mmbench.log"
sleep 0.5
kill "$smi"
wait "$smi" 2>/dev/null
python3 scripts/gpu/energy_compare.py "$out/mmbench.log" "$out/nvidia-smi.csv" "$out/energy-check.csv" \
    >"$out/compare.txt" 2>&1
rc=$?
cat "$out/compare.txt"
exit $rc
