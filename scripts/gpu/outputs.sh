#!/bin/bash
# outputs.sh - runs on the GPU machine from the repository root, with build-gpu/ (made by
# scripts/gpu/build.sh) carried: what mmbench gives programs and CI, on a real GPU.
# --version and devices --format json; run --format jsonl --fail-on on the fixture of
# failing kernels (tests/fixtures/gpu/broken.ini: a wrong result, a launch error that
# restarts the worker, ...), then again (every row resumed); run --format jsonl -v on
# the quick profile, read back by the Python reader; a tune --format jsonl of 4
# configurations; the slow profile with stderr in a file (progress lines); export --best
# of what was measured. Each command's stdout, stderr and exit status land in
# $OUT/outputs.tar.gz (outputs/), with a summary printed last.
set -u
root=$PWD
out=${OUT:-/tmp/mmb-out}
work=/tmp/mmb-outputs
rm -rf "$work" && mkdir -p "$out" "$work"
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_CACHE_DIR=/tmp/mmb-cache MMBENCH_COLUMNS="$root/build-gpu/columns.json"
mmbench="$root/build-gpu/harness/mmbench"
step() { # step NAME COMMAND...: stdout and stderr to NAME.out and NAME.err, the exit status to NAME.rc
    local name=$1; shift
    "$@" >"$work/$name.out" 2>"$work/$name.err"
    echo $? >"$work/$name.rc"
    printf '%-14s rc=%s stdout %5s lines, stderr %4s lines\n' "$name" "$(cat "$work/$name.rc")" \
        "$(wc -l <"$work/$name.out")" "$(wc -l <"$work/$name.err")" >>"$work/summary.txt"
}
step version "$mmbench" run --version
step devices "$mmbench" devices --format json
step broken "$mmbench" run --format jsonl --fail-on wrong_result,launch_error -o "$work/broken.csv" \
    tests/fixtures/gpu/broken.ini
step broken-again "$mmbench" run --format jsonl --fail-on wrong_result,launch_error -o "$work/broken.csv" \
    tests/fixtures/gpu/broken.ini
step quick "$mmbench" run --format jsonl -v -o "$work/quick.csv" profiles/quick.ini
cp "$work/quick.out" "$work/quick.jsonl"
step reader python3 -c "import sys; sys.path.insert(0, 'python'); import mmbench_reader as m
a = m.read('$work/quick.csv'); b = m.read('$work/quick.jsonl'); print(len(a), 'rows, equal:', a == b); sys.exit(a != b)"
step tune "$mmbench" tune --format jsonl --fail-on wrong_result --strategy random --max-fevals 4 --kernel tunable \
    --no-t4 -o "$work/tune.csv" profiles/tune-seed.ini
step slow "$mmbench" run --repeats 300 -o "$work/slow.csv" tests/fixtures/gpu/slow.ini
step export "$mmbench" export --best "$work/quick.csv" "$work/slow.csv"
tar -C "$(dirname "$work")" -czf "$out/outputs.tar.gz" "$(basename "$work")"
cat "$work/summary.txt"
