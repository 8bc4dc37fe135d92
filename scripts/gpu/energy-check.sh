#!/bin/bash
# energy-check.sh - on the GPU machine, from the repository root, with the build-gpu/ of
# scripts/gpu/build.sh carried along: reads the board's energy independently of mmbench
# and compares. mmbench runs the course profile's tunable kernel (its six configurations)
# and cuBLAS at 4096, f32, with a 3 s energy window per row (energy_seconds = 3) and -v,
# which prints each window's power and its start and end as times of day; meanwhile
# nvidia-smi reads NVML's total-energy counter every 50 ms (power.draw as well, and alone
# where this nvidia-smi lacks the total_energy_consumption field). energy_compare.py
# then takes, per window, the slope of nvidia-smi's counter over the window (or the mean
# of power.draw) and compares it with mmbench's power_w. It changes no clock or power
# setting. Finishes in about 60 s, under 120 s in any case (timeouts below).
# Output in $OUT (default /tmp/energy-out): compare.txt (the table; exit status 1 when a
# window differs by more than 5%), energy-check.csv (mmbench's rows), mmbench.log,
# nvidia-smi.csv, query-fields.txt.
set -u
root=$PWD
out=${OUT:-/tmp/energy-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
export CUDA_DEVICE_ORDER=PCI_BUS_ID # mmbench's device 0 is nvidia-smi's GPU 0
export MMB_SOURCE_ROOT="$root"
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}

profile=/tmp/energy-check.ini
{
    printf '[profile]\nname = energy-check\nsizes = 4096\ndtypes = f32\n'
    printf 'noise = 0.5%%\nmin_samples = 6\nmax_seconds = 0.5\nwarmup = 0\ncache = cold\n'
    printf 'energy_seconds = 3\n\n'
    # the course's tunable kernel as course.ini has it, its source made absolute
    sed -n '/^\[kernel tunable\]/,/^$/p' profiles/course.ini | sed "s|^source = \.\./|source = $root/|"
    printf '\n[kernel cublas]\nlibrary = cublas\n'
} >"$profile"
cp "$profile" "$out/"

nvidia-smi --help-query-gpu >"$out/query-fields.txt" 2>&1
fields=timestamp,power.draw
grep -q '"total_energy_consumption"' "$out/query-fields.txt" && fields=timestamp,total_energy_consumption,power.draw
nvidia-smi -i "${MMB_GPU_INDEX:-0}" --query-gpu=$fields --format=csv -lms 50 >"$out/nvidia-smi.csv" 2>&1 &
smi=$!
sleep 1
rm -f "$out/energy-check.csv"
timeout 100 "$mmbench" run -v --no-counters -o "$out/energy-check.csv" "$profile" >"$out/mmbench.log" 2>&1
echo "mmbench run: rc=$?" >>"$out/mmbench.log"
sleep 0.5
kill "$smi"
wait "$smi" 2>/dev/null
python3 scripts/gpu/energy_compare.py "$out/mmbench.log" "$out/nvidia-smi.csv" "$out/energy-check.csv" \
    >"$out/compare.txt" 2>&1
rc=$?
cat "$out/compare.txt"
exit $rc
