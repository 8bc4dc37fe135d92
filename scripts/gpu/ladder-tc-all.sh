#!/bin/bash
# ladder-tc-all.sh - on the GPU machine (an H100 or H200), from the repository root, with
# build-gpu/ carried: the tensor-core ladder's whole job in one call of at most 9 minutes,
# scripts/gpu/ladder-all.sh ladder-tc with these budgets, each phase against its deadline:
#   tune       profiles/tune-ladder-tc.ini, 102 configurations at 1024 and 4096 in bf16,
#              timed without counters (the ladder run has them): at most TUNE_SECONDS, 120;
#   awkward    profiles/ladder-tc-awkward.ini, 354 runs in f16 and bf16: done 90 s after the
#              tune (AWKWARD_SECONDS);
#   sanitizers memcheck, synccheck, racecheck over the own kernels at 200x136x40 and over
#              step 7 at 2176x2176x200, f16 and bf16: 180 s more (SAN_SECONDS);
#   ladder     profiles/ladder-tc.ini with counters, 384 runs (cuBLAS's 16 included): what is
#              left of ALL_SECONDS, 525, less 25 s for the tables and the tarball.
# Output: $OUT/ladder-tc-<gpu>.tar.gz and the short table (ladder-all.sh). Each budget may
# be set from the environment as ladder-all.sh and ladder-check.sh name it.
exec env ALL_SECONDS="${ALL_SECONDS:-525}" TUNE_SECONDS="${TUNE_SECONDS:-120}" \
    TUNE_OPTIONS="${TUNE_OPTIONS:---no-counters}" AWKWARD_SECONDS="${AWKWARD_SECONDS:-90}" \
    SAN_SECONDS="${SAN_SECONDS:-180}" bash "$(dirname "$0")/ladder-all.sh" ladder-tc
