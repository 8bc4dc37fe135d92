#!/bin/bash
# all-data.sh - on a GPU machine with four GPUs of one kind (nvidia-h100-x4,
# nvidia-h200-x4), from the repository root, with build-gpu/ (scripts/gpu/build.sh) and,
# for the benchmark, .whl/ (Kernel Tuner's wheels) carried: every data job of one GPU
# generation in one call, a job per GPU through scripts/gpu/gpus.sh, so that the four
# take the time of the longest:
#   GPU 0  on an H100: scripts/bench-vs-kt.sh (Kernel Tuner and mmbench in one call);
#          elsewhere: test_tune and test_gpu, the GPU tests of run and tune;
#   GPU 1  scripts/gpu/remeasure.sh: course, dtypes and tune-seed under one protocol,
#          then test_tune;
#   GPU 2  scripts/gpu/ladder-tc-all.sh: the tensor-core ladder (tune, awkward sizes,
#          sanitizers, the ladder with counters);
#   GPU 3  scripts/gpu/precisions.sh (profiles/precisions.ini and the precision tests),
#          then profiles/ladder.ini with its counters (ladder.csv), then the energy
#          cross-check (scripts/gpu/energy-check.sh, from ENERGY_ROOT if set: a tree
#          with its own build-gpu/).
# Each job's budget is its script's, set below to finish within ALL_DATA_SECONDS (540).
# Output: $OUT/gpuN/ (each job's files and job.log); collect them here with
# scripts/gpu/collect.sh (the tarballs) and by hand (the single CSVs).
set -u
root=$PWD
s=${ALL_DATA_SECONDS:-540}
if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl &&
        export PYTHONPATH=/tmp/site
fi
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$name" in
*H100*) job0="MMB_BENCH_SECONDS=$((s - 40)) bash scripts/bench-vs-kt.sh" ;;
*) job0="cd build-gpu/tests && export MMBENCH=$root/build-gpu/harness/mmbench && timeout $((s - 260)) ./test_tune; timeout 240 ./test_gpu" ;;
esac
job1="MMB_JOB_SECONDS=$((s - 200)) bash scripts/gpu/remeasure.sh;
 cd build-gpu/tests && MMBENCH=$root/build-gpu/harness/mmbench timeout 150 ./test_tune 2>&1 | tail -20"
job2="ALL_SECONDS=$((s - 20)) bash scripts/gpu/ladder-tc-all.sh"
energy="bash scripts/gpu/energy-check.sh"
[ -n "${ENERGY_ROOT:-}" ] && energy="cd '$ENERGY_ROOT' && OUT=\$OUT/energy bash scripts/gpu/energy-check.sh"
job3="PRECISIONS_SECONDS=$((s - 230)) bash scripts/gpu/precisions.sh;
 s=\$(date +%s); timeout 130 build-gpu/harness/mmbench run -o \$OUT/ladder.csv profiles/ladder.ini >\$OUT/ladder.log 2>&1;
 echo \"ladder rc=\$? \$((\$(date +%s) - s))s\"; tail -3 \$OUT/ladder.log; timeout 90 bash -c \"$energy\""
exec bash scripts/gpu/gpus.sh "$job0" "$job1" "$job2" "$job3"
