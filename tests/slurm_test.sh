#!/bin/bash
# slurm_test.sh MMBENCH SOURCE_ROOT - the Slurm recipe (scripts/slurm/) on a real
# one-node Slurm of this host (tests/slurm/start.sh): submit.sh submits a job array of
# 4 shards of profiles/course.ini running `mmbench check --shard K/4 --list` (no GPU
# needed) and the dependent job that verifies them; the test waits for both (at most
# 120 s), checks that every run of the profile appeared in exactly one shard's output.
# Then merge.sbatch's run branch as a job: the H100's course.csv cut into 4 shard CSVs
# by check --list is merged (mmbench merge) into the same rows and reported. It stops
# the daemons. Exit 77 (skipped), with the reason, where Slurm cannot start.
set -uo pipefail
mmbench=${1:?usage: slurm_test.sh MMBENCH SOURCE_ROOT}
root=${2:?usage: slurm_test.sh MMBENCH SOURCE_ROOT}
mmbench=$(cd "$(dirname "$mmbench")" && pwd)/$(basename "$mmbench") # the jobs run elsewhere
shards=4
profile=$root/profiles/course.ini
dir=$(mktemp -d /tmp/mmb_slurm.XXXXXX)
cleanup() {
    "$root/tests/slurm/stop.sh" "$dir/cluster"
    rm -rf "$dir"
}
trap cleanup EXIT
"$root/tests/slurm/start.sh" "$dir/cluster"
rc=$?
[ "$rc" = 0 ] || exit "$rc" # 77: start.sh said why
export SLURM_CONF=$dir/cluster/slurm.conf
fail() {
    echo "slurm: FAIL: $*"
    for f in "$dir"/data/slurm/*.out; do
        [ -f "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    tail -n 20 "$dir/cluster/log/slurmctld.log" "$dir/cluster/log/slurmd.log"
    exit 1
}

cd "$root" || exit 1
submitted=$(MMBENCH=$mmbench scripts/slurm/submit.sh --command check --shards "$shards" --partition mmbtest \
    --data-dir "$dir/data" "$profile") || fail "submit.sh: $submitted"
echo "$submitted"
array=$(sed -n 's/^array \([0-9]*\):.*/\1/p' <<<"$submitted")
merge=$(sed -n 's/^merge \([0-9]*\):.*/\1/p' <<<"$submitted")
if [ -z "$array" ] || [ -z "$merge" ]; then fail "no job ids in submit.sh's output"; fi

# Waits for job $1 to end, at most until 120 s after the test started.
state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr '\n' ' '; }
wait_job() {
    while :; do
        job_state=$(state "$1")
        case $job_state in *COMPLETED* | *FAILED* | *CANCELLED* | *TIMEOUT* | *NODE_FAIL*) return ;; esac
        [ $((SECONDS - t0)) -lt 120 ] || fail "after 120 s the array is $(state "$array")and job $1 $job_state"
        sleep 1
    done
}
t0=$SECONDS
wait_job "$merge" # it starts only after every array task succeeded
merge_state=$job_state
echo "slurm: after $((SECONDS - t0)) s: array $array: $(state "$array")merge $merge: $merge_state"
[[ $(state "$array") =~ ^\ *$shards\ JobState=COMPLETED\ *$ ]] || fail "the array's tasks: $(state "$array")"
[[ $merge_state == *COMPLETED* ]] || fail "the merge job: $merge_state"

# What the jobs wrote: the merge job's verdict, and the shards' lists checked again here.
name=course
cat "$dir/data/slurm/$name.check.txt" || fail "the merge job wrote no $name.check.txt"
grep -q '^ok: every run of the profile in exactly one shard' "$dir/data/slurm/$name.check.txt" ||
    fail "the merge job's verdict"
whole=$("$mmbench" check --list "$profile" | grep '^run ' | sort)
total=0
for k in $(seq 1 $shards); do
    f=$dir/data/slurm/$name.check.shard-$k-of-$shards.txt
    [ -f "$f" ] || fail "shard $k/$shards wrote no $f"
    n=$(grep -c '^run ' "$f")
    echo "slurm: shard $k/$shards (task ${array}_$k): $n runs"
    total=$((total + n))
done
listed=$(cat "$dir"/data/slurm/$name.check.shard-*-of-$shards.txt | grep '^run ' | sort)
[ "$listed" = "$whole" ] || fail "the shards' runs are not the profile's runs, each once: $(diff <(echo "$whole") \
    <(echo "$listed") | head -5)"
echo "slurm: ok: $shards shards, $total runs in all, the profile's $(echo "$whole" | wc -l) each exactly once"

# merge.sbatch after `run`: shard CSVs (the H100's rows of course.csv, cut by the shards'
# lists) merged by a job into the unsharded CSV, then the report.
orig=$root/data/h100-80gb-hbm3/course.csv
gpu=$dir/data/h100-80gb-hbm3
mkdir -p "$gpu"
for k in $(seq 1 $shards); do
    awk -F, 'NR == FNR { split($0, r, " "); if (r[1] == "run") want[r[2] " " r[3] " " r[4] " " r[5]] = 1; next }
        FNR == 1 || want[$8 " " ($9 == "" ? "-" : $9) " " $10 " " $11 "x" $12 "x" $13]' \
        "$dir/data/slurm/$name.check.shard-$k-of-$shards.txt" "$orig" >"$gpu/$name.shard-$k-of-$shards.csv"
done
job=$(sbatch --parsable --partition=mmbtest --output="$dir/data/slurm/merge-run-%j.out" \
    --export="ALL,MMBENCH=$mmbench,MMB_DATA=$dir/data,MMB_REPORTS=$dir/reports" \
    scripts/slurm/merge.sbatch run "$profile" "$shards") || fail "sbatch merge.sbatch: $job"
wait_job "$job"
cat "$dir"/data/slurm/merge-run-*.out
[[ $job_state == *COMPLETED* ]] || fail "the merge job after run: $job_state"
# The merge writes today's columns: the rows must be the same cell for cell in the
# original's columns, and empty in any column the original predates.
python3 - "$orig" "$gpu/$name.csv" <<'EOF' || fail "$gpu/$name.csv does not hold the rows of $orig"
import csv, sys
orig, merged = (list(csv.DictReader(open(p, newline=""))) for p in sys.argv[1:3])
cols = list(orig[0]) if orig else []
new = [c for c in (merged[0] if merged else {}) if c not in cols]
same = sorted(tuple(r[c] for c in cols) for r in orig) == sorted(tuple(r.get(c) for c in cols) for r in merged)
sys.exit(0 if same and all(r[c] == "" for r in merged for c in new) else 1)
EOF
[ -s "$dir/reports/README.md" ] || fail "the merge job wrote no report"
echo "slurm: ok: job $job merged $shards shard CSVs into $(($(wc -l <"$gpu/$name.csv") - 1)) rows, the rows of" \
    "$orig, and wrote the report"
