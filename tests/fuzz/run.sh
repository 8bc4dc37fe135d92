#!/bin/sh
# run.sh [SECONDS] [TARGET...] - builds the libFuzzer targets with clang, ASan and UBSan
# in build-fuzz/ and runs each for SECONDS (default 60) from a seed corpus made of the
# shipped profiles and data (and the written inputs of tests/fuzz/seeds/TARGET/), with
# its dictionary. A crash, a leak, undefined behaviour,
# a timeout (10 s per input) or memory over 2 GB stops that fuzzer; its input is left in
# build-fuzz/artifacts/ and the script exits 1. Turn such an input into a regression:
# copy it to tests/fuzz/regressions/TARGET/ (meson test replays every file there).
# Logs: build-fuzz/logs/TARGET.log (MMB_FUZZ_LOGS=DIR copies them there too).
set -eu
cd "$(dirname "$0")/../.."
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-profile expr csv tune_history merge options}
build=build-fuzz
if [ ! -d $build ]; then
    CC=clang meson setup $build -Dfuzz=enabled -Dcuda=disabled -Db_sanitize=address,undefined \
        -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C $build >/dev/null
mkdir -p $build/logs $build/artifacts

# Seeds: real inputs cut to their first lines (the fuzzer works on short inputs), the
# regressions, and for expressions the restriction and geometry lines of every profile.
seed() { # seed TARGET FILE...: copies each file (first 40 lines) into the corpus
    t=$1; shift
    [ -d "$build/corpus/$t" ] || return 0 # a target not asked for
    for f in "$@"; do
        [ -f "$f" ] && head -n 40 "$f" >"$build/corpus/$t/$(echo "$f" | tr '/' '_')"
    done
    return 0
}
rm -rf $build/corpus
for t in $targets; do mkdir -p "$build/corpus/$t"; done
seed profile profiles/*.ini tests/fixtures/profiles/*.ini tests/fixtures/tune/*.ini tests/fixtures/gpu/*.ini
seed csv tests/fixtures/csv/*/*.csv data/*/*.csv
seed tune_history data/*/tune-*.csv
if [ -d $build/corpus/expr ]; then
    grep -h -E '^(restrict|grid_div_[xy]|block_[xyz]|smem) *=' profiles/*.ini tests/fixtures/*/*.ini |
        sed 's/^[a-z_]* *= *//' | sort -u | awk -v d=$build/corpus/expr '{ f = d "/line" NR; printf "%s", $0 > f; close(f) }'
fi
for t in $targets; do
    cp tests/fuzz/regressions/$t/* $build/corpus/$t/ 2>/dev/null || true
    cp tests/fuzz/seeds/$t/* $build/corpus/$t/ 2>/dev/null || true # written inputs (merge, options)
done

status=0
for t in $targets; do
    log=$build/logs/$t.log
    dict=tests/fuzz/$t.dict
    set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$t-"
    [ -f "$dict" ] && set -- "$@" -dict="$dict"
    # the commands under merge and options print for every input: their output is not the log's
    case $t in merge | options) set -- "$@" -close_fd_mask=3 ;; esac
    if "$build/tests/fuzz/fuzz_$t" "$@" "$build/corpus/$t" >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
        status=1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    printf 'fuzz %-13s %-6s %ss, %s executions, %s\n' "$t" "$result" "$seconds" "${execs:-?}" "${cov:-cov: ?}"
    [ $result = ok ] || grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -n 8
done
if [ -n "${MMB_FUZZ_LOGS:-}" ]; then
    mkdir -p "$MMB_FUZZ_LOGS"
    cp $build/logs/*.log "$MMB_FUZZ_LOGS"/
fi
exit $status
