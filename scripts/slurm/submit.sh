#!/bin/bash
# submit.sh [OPTIONS] PROFILE.ini [-- MMBENCH OPTIONS...] - submits a profile to Slurm as
# a job array of N shards (shard.sbatch, one GPU each) and a job that merges the shards
# and writes the report once all of them succeeded (merge.sbatch, --dependency=afterok).
# Run it from the repository root on a login node; the data folder must be on a file
# system the compute nodes share. README "On a Slurm cluster".
#
#   --shards N         array tasks, one shard each (default 4)
#   --partition P      partition of the array (default: the cluster's)
#   --gpu-type T       GPU type of the array's --gres=gpu:T:1 (default: any GPU)
#   --merge-partition P  partition of the merge job (default: the array's)
#   --time T           time limit of each array task (default: the partition's)
#   --command C        run (default), tune, or check (no GPU: tests the recipe)
#   --data-dir D       results folder (default data)
#   --reports R        the merge job's report folder (default reports)
#   --sbatch "ARGS"    more sbatch options for both jobs (an account, a QOS)
# MMBENCH names the program (default build/harness/mmbench, else mmbench on PATH).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=4 partition='' gpu_type='' merge_partition='' time_limit='' command=run data=data reports=reports extra=''
usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit "$1"
}
while [ $# -gt 0 ]; do
    case $1 in
    --shards) shards=$2; shift 2 ;;
    --partition) partition=$2; shift 2 ;;
    --gpu-type) gpu_type=$2; shift 2 ;;
    --merge-partition) merge_partition=$2; shift 2 ;;
    --time) time_limit=$2; shift 2 ;;
    --command) command=$2; shift 2 ;;
    --data-dir) data=$2; shift 2 ;;
    --reports) reports=$2; shift 2 ;;
    --sbatch) extra=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    -*) echo "submit.sh: unknown option $1 (see submit.sh --help)" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ $# -lt 1 ]; then
    echo "submit.sh: expected a profile (see submit.sh --help)" >&2
    exit 2
fi
profile=$1
shift
[ "${1:-}" = -- ] && shift
case $shards in '' | *[!0-9]* | 0) echo "submit.sh: --shards expects a number of at least 1, not '$shards'" >&2; exit 2 ;; esac
case $command in run | tune | check) ;; *) echo "submit.sh: --command expects run, tune or check, not '$command'" >&2; exit 2 ;; esac
mmbench=${MMBENCH:-}
if [ -z "$mmbench" ]; then
    if [ -x build/harness/mmbench ]; then mmbench=$PWD/build/harness/mmbench; else mmbench=$(command -v mmbench || true); fi
fi
[ -x "$mmbench" ] || { echo "submit.sh: no mmbench program (build it, or set MMBENCH)" >&2; exit 2; }
# Everything that needs no GPU is checked here, before anything waits in a queue.
"$mmbench" check --shard "1/$shards" "$profile" >/dev/null
data=$(mkdir -p "$data" && cd "$data" && pwd)
mkdir -p "$data/slurm"
name=$(basename "$profile" .ini)
common=(--export="ALL,MMBENCH=$mmbench,MMB_DATA=$data,MMB_REPORTS=$reports")
# shellcheck disable=SC2206 # --sbatch is split into words on purpose
[ -n "$extra" ] && common+=($extra)
array=(--array="1-$shards" --job-name="mmbench-$name" --output="$data/slurm/$name-%A_%a.out")
[ -n "$partition" ] && array+=(--partition="$partition")
[ -n "$time_limit" ] && array+=(--time="$time_limit")
if [ "$command" != check ]; then
    array+=(--gres="gpu${gpu_type:+:$gpu_type}:1")
fi
array_id=$(sbatch --parsable "${common[@]}" "${array[@]}" "$here/shard.sbatch" "$command" "$profile" "$@")
array_id=${array_id%%;*}
merge=(--dependency="afterok:$array_id" --job-name="mmbench-$name-merge" --output="$data/slurm/$name-merge-%j.out")
merge_partition=${merge_partition:-$partition}
[ -n "$merge_partition" ] && merge+=(--partition="$merge_partition")
merge_id=$(sbatch --parsable "${common[@]}" "${merge[@]}" "$here/merge.sbatch" "$command" "$profile" "$shards")
merge_id=${merge_id%%;*}
echo "array $array_id: mmbench $command --shard K/$shards $profile, K = 1..$shards${gpu_type:+ on $gpu_type}"
echo "merge $merge_id: after every shard succeeded; logs in $data/slurm/"
