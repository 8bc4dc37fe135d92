#!/bin/bash
# sanitizer-clusters.sh - on the GPU machine, from the repository root, with build-gpu/
# carried: the tensor-core ladder's cluster configurations (steps 05 and 06 with
# cluster_m = 2, f16) under compute-sanitizer, once with the kernels instrumented
# (memcheck, racecheck, synccheck) and once under racecheck with them left out of the
# instrumentation (--kernel-name matching nothing), at a size with an odd number of
# block rows (384x136x40, 2176x2176x200) and one without (2048x2048x200). It tells a
# fault of the kernels from one of the tool: racecheck stops every uninstrumented
# cluster launch with "Internal Sanitizer Error: The Sanitizer failed to handle a
# hardware exception", while the same launches instrumented are clean; that is why
# scripts/gpu/ladder-check.sh instruments every own kernel it runs under a tool.
# Output: the summary on stdout, every log in $OUT/sanitizer-clusters.tar.gz.
set -u
root=$PWD
out=${OUT:-/tmp/sanitizer-clusters}
work=/tmp/sanitizer-clusters-work
rm -rf "$work" && mkdir -p "$work" "$out"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin" MMB_SOURCE_ROOT="$root" MMB_CACHE_DIR=${MMB_CACHE_DIR:-/tmp/mmb-cache}
mmbench=${MMBENCH:-$root/build-gpu/harness/mmbench}
profile=$work/clusters.ini
# profiles/ladder-tc-awkward.ini's [profile] and steps 05 and 06, cluster_m = 2, f16
python3 - "$root" profiles/ladder-tc-awkward.ini "$profile" <<'PY' || exit 2
import re, sys
root, src, dst = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
parts = re.split(r'(?m)^(?=\[kernel )', src)
head = parts[0]
head = re.sub(r'(?m)^sizes = .*', 'sizes = 384x136x40, 2048x2048x200, 2176x2176x200', head)
head = re.sub(r'(?m)^dtypes = .*', 'dtypes = f16', head)
head = re.sub(r'(?m)^name = .*', 'name = sanitizer-clusters', head)
body = [head]
for s in parts[1:]:
    if s.startswith(('[kernel 05_', '[kernel 06_')):
        s = re.sub(r'(?m)^param\.cluster_m = .*', 'param.cluster_m = 2', s)
        s = re.sub(r'(?m)^dtypes = .*', 'dtypes = f16', s)
        body.append(s.replace('source = ../', 'source = ' + root + '/'))
if len(body) != 3:
    sys.exit("sanitizer-clusters.sh: steps 05 and 06 not found in " + sys.argv[2])
open(dst, 'w').write(''.join(body))
PY
{ nvidia-smi -L; compute-sanitizer --version | tail -n 1; } | tee "$work/devices.txt"
"$mmbench" run --no-counters -v -o "$work/plain.csv" "$profile" >"$work/plain.log" 2>&1
echo "plain run: rc=$?"
run_tool() { # run_tool NAME TOOL FILTER
    timeout 120 compute-sanitizer --tool "$2" --kernel-name "kns=$3" --error-exitcode 99 \
        "$mmbench" run -v --no-counters -o "$work/$1.csv" "$profile" >"$work/$1.log" 2>&1
    local rc=$?
    printf '== %s (%s, kernels matching %s): rc=%d, %d of %d rows ok; %s%s\n' "$1" "$2" "$3" "$rc" \
        "$(grep -cE ' hot [0-9x]+: ok ' "$work/$1.log")" "$(grep -cE ' hot [0-9x]+: ' "$work/$1.log")" \
        "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$work/$1.log" | tail -n 1)" \
        "$(grep -q 'Internal Sanitizer Error' "$work/$1.log" && echo '; INTERNAL SANITIZER ERROR')"
}
for tool in racecheck memcheck synccheck; do
    run_tool "$tool-instrumented" "$tool" matmul_ladder_tc
done
run_tool racecheck-uninstrumented racecheck nothing_matches_this
tar -czf "$out/sanitizer-clusters.tar.gz" -C "$work" .
