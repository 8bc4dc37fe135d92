#!/bin/bash
# slurm_test.sh MMBENCH SOURCE_ROOT - the Slurm recipe (scripts/slurm/) on a real
# one-node Slurm of this host (tests/slurm/start.sh): submit.sh submits a job array of
# 4 shards of profiles/course.ini running `mmbench check --shard K/4 --list` (no GPU
# needed) and the dependent job that verifies them; the test waits for both (at most
# 120 s), checks that every run of the profile appeared in exactly one shard's output,
# and stops the daemons. Exit 77 (skipped), with the reason, where Slurm cannot start.
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

# Wait for the merge job to end (it starts only after every array task succeeded).
state() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr '\n' ' '; }
t0=$SECONDS
while :; do
    merge_state=$(state "$merge")
    case $merge_state in *COMPLETED* | *FAILED* | *CANCELLED* | *TIMEOUT* | *NODE_FAIL*) break ;; esac
    [ $((SECONDS - t0)) -lt 120 ] || fail "after 120 s the array is $(state "$array")and the merge job $merge_state"
    sleep 1
done
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
