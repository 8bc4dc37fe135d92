#!/bin/bash
# precisions.sh - on the GPU machine, from the repository root, with the build-gpu/ of
# scripts/gpu/build.sh carried along: the precision job of profiles/precisions.ini in
# one call, each step with what is left of PRECISIONS_SECONDS (default 440), the most
# telling first:
#  1. the build: `mmbench devices`, `check --compile` of precisions.ini for the device;
#  2. the GPU tolerance tests: test_verify (the GPU comparison against the host rule
#     in every dtype) and test_gpu's precision case (tests/fixtures/gpu/precision.ini:
#     correct kernels pass at K = 8192, the f16/bf16-accumulating and the truncating
#     fixtures fail);
#  3. precisions.ini (PRECISIONS_SIZES, default its own 1024 to 8192), counters on:
#     cuBLAS in every dtype and the own kernels;
#  4. compute-sanitizer memcheck and racecheck over the WMMA kernel at an awkward size,
#     and its SASS: the HMMA instructions in its cubins;
#  5. scripts/ncu-compare.sh over profiles/ncu-tensor.ini: tensor_pct and tensor_inst
#     beside Nsight Compute's, cold and hot;
#  6. the rest of test_gpu (every kernel at awkward sizes, the WMMA kernel and f16/bf16
#     included; failure statuses; counters; batches; shards) and test_cupti;
#  7. the table (scripts/gpu/precisions_table.py), printed last.
# Output in $OUT (default /tmp/precisions-out): precisions.csv, table.txt,
# ncu-compare.txt, sanitizer.txt, logs.tar.gz.
set -u
root=$PWD
out=${OUT:-/tmp/precisions-out}
budget=${PRECISIONS_SECONDS:-440}
sizes=${PRECISIONS_SIZES:-}
t0=$(date +%s)
logs=/tmp/precisions-logs
rm -rf "$logs" && mkdir -p "$out" "$logs"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
export MMBENCH="$mmbench"

left() { echo $(( budget - ($(date +%s) - t0) - 10 )); }
step() { # step NAME COMMAND...: runs with what is left of the budget, logs, records rc and time
    local name=$1; shift
    local s=$(date +%s) l=$(left)
    if [ "$l" -le 5 ]; then echo "$name: no time left" | tee -a "$logs/steps.txt"; return; fi
    timeout "$l" "$@" >"$logs/$name.log" 2>&1
    printf '%-22s rc=%-3d %5ds\n' "$name" "$?" "$(( $(date +%s) - s ))" | tee -a "$logs/steps.txt"
}

{ nvidia-smi; nvidia-smi -q -d CLOCK; "$mmbench" devices; } >"$logs/devices.txt" 2>&1
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
step compile "$mmbench" check --compile "sm_${arch:-90}" profiles/precisions.ini
step test-verify "$root/build-gpu/tests/test_verify"
step test-precision env CK_RUN_CASE=precision "$root/build-gpu/tests/test_gpu"

prof=/tmp/precisions-dev.ini
sed -e "s|^source = \.\./|source = $root/|" profiles/precisions.ini >"$prof"
[ -n "$sizes" ] && sed -i "s|^sizes = .*|sizes = $sizes|" "$prof"
rm -f "$out/precisions.csv"
step precisions "$mmbench" run -v -o "$out/precisions.csv" "$prof"

# the WMMA kernel alone at one awkward size, f16 and bf16, one launch per configuration
san=/tmp/precisions-sanitize.ini
sed -e "s|^sizes = .*|sizes = 1023x517x259|" -e "s|^name = .*|name = precisions-sanitize|" \
    -e "s|^source = \.\./\.\./\.\./|source = $root/|" -e "s|^dtypes = f32, f64, i32, f16, bf16$|dtypes = f16, bf16|" \
    tests/fixtures/gpu/awkward.ini >"$san"
for tool in memcheck racecheck; do
    rm -f "/tmp/precisions-san-$tool.csv"
    step "san-$tool" compute-sanitizer --tool "$tool" --kernel-name kns=matmul_wmma --error-exitcode 99 \
        "$mmbench" run -v --no-counters --repeats 1 --warmup 0 -o "/tmp/precisions-san-$tool.csv" "$san"
done
for f in "$logs"/san-*.log; do
    [ -f "$f" ] || continue
    echo "== compute-sanitizer $(basename "$f" .log): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1)"
done >"$out/sanitizer.txt"

# HMMA in the WMMA kernel's cubins (the run above compiled them into the cache)
for c in "$MMB_CACHE_DIR"/*.cubin; do
    if cuobjdump -sass "$c" 2>/dev/null | grep -q 'Function : matmul_wmma'; then
        echo "$(basename "$c"): $(cuobjdump -sass "$c" | grep -c HMMA) HMMA, $(cuobjdump -sass "$c" | grep -c 'LDS') LDS"
    fi
done >"$logs/sass.txt" 2>&1

step ncu-compare bash scripts/ncu-compare.sh "$mmbench" "$logs/ncu-tensor" profiles/ncu-tensor.ini
for f in compare compare-hot compare-kernel-replay; do
    [ -f "$logs/ncu-tensor/$f.txt" ] && { echo "== $f"; cat "$logs/ncu-tensor/$f.txt"; }
done >"$out/ncu-compare.txt" 2>&1
step test-gpu env CK_RUN_CASE=gpu "$root/build-gpu/tests/test_gpu"
step test-cupti "$root/build-gpu/tests/test_cupti"

{
    echo "== steps"; cat "$logs/steps.txt"
    echo "== tolerance tests"; grep -hE '^[0-9]+%|:F:|^(cublas|wmma|tiled|accum|trunc)' \
        "$logs/test-verify.log" "$logs/test-precision.log" | cut -c1-200
    echo "== test_gpu, test_cupti"; grep -hE '^[0-9]+%|:F:|:E:' "$logs/test-gpu.log" "$logs/test-cupti.log" | cut -c1-240
    grep -hE 'tensor|set ' "$logs/test-cupti.log" | head -12
    echo "== compute-sanitizer"; cat "$out/sanitizer.txt"
    echo "== SASS (WMMA cubins: HMMA and LDS per kernel)"; sort -t: -k2 -u "$logs/sass.txt" | head -8
    echo "== ncu (largest differences)"; grep -A14 '^largest' "$logs/ncu-tensor/compare.txt" 2>/dev/null
    echo "== precisions"; python3 scripts/gpu/precisions_table.py "$out/precisions.csv"
} >"$out/table.txt" 2>&1
tar -czf "$out/logs.tar.gz" -C "$logs" .
cat "$out/table.txt"
