#!/bin/bash
# hardening.sh [MMBENCH] - on the GPU machine, from the repository root (build-gpu/ carried):
# what the sweep must survive, each checked and printed as a table at the end:
#   1. a kernel that never ends: recorded as `timeout` after the profile's 10 s, and the
#      sweep completes (tests/fixtures/gpu/hardening.ini);
#   2. two runs on one CSV: the second is refused while the first runs, the first ends well;
#   3. Ctrl-C (SIGINT from `timeout -s INT`) mid-sweep: exit 130 with the rows kept and how
#      to go on; the same command then finishes, with every configuration exactly once;
#   4. a size whose buffers do not fit the GPU (computed from its memory): out_of_memory rows.
# Logs and CSVs go to $OUT/hardening.tar.gz, the table to $OUT/hardening.txt.
set -u
root=$PWD
mmbench=${1:-$root/build-gpu/harness/mmbench}
out=${OUT:-/tmp/mmb-hardening-out}
work=/tmp/mmb-hardening
rm -rf "$work" && mkdir -p "$work" "$out" || exit 1
export LD_LIBRARY_PATH="$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export MMB_CACHE_DIR=$work/cubins
fixtures=$root/tests/fixtures/gpu
results=()
check() { # check NAME EXPECTED GOT
    local verdict=FAIL
    [ "$2" = "$3" ] && verdict=pass
    results+=("$(printf '%-44s %-22s %-22s %s' "$1" "$2" "$3" "$verdict")")
}
rows_with() { # rows_with CSV STATUS: rows of that status
    awk -F, -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next } $c == s' "$1" | wc -l
}
rows() { echo $(( $(wc -l <"$1") - 1 )); }

# 1. never ends
t0=$(date +%s)
"$mmbench" run -o "$work/hang.csv" "$fixtures/hardening.ini" >"$work/hang.log" 2>&1
rc=$?
check "never-ending kernel: exit" 0 "$rc"
check "never-ending kernel: timeout rows" 1 "$(rows_with "$work/hang.csv" timeout)"
check "never-ending kernel: ok rows around it" 2 "$(rows_with "$work/hang.csv" ok)"
check "never-ending kernel: seconds (limit 10)" "under 60" "$( [ $(( $(date +%s) - t0 )) -lt 60 ] && echo 'under 60' || echo over)"

# 2. two runs on one CSV
"$mmbench" run -o "$work/both.csv" "$fixtures/slow.ini" >"$work/first.log" 2>&1 &
first=$!
for _ in $(seq 100); do [ -s "$work/both.csv" ] && break; sleep 0.1; done
sleep 1
"$mmbench" run -o "$work/both.csv" "$fixtures/slow.ini" >"$work/second.log" 2>&1
check "second run on the same CSV: exit" 1 "$?"
check "second run: says why" 1 "$(grep -c 'is being written by another mmbench run' "$work/second.log")"
wait $first
check "first run: exit" 0 "$?"
check "first run: rows" 9 "$(rows "$work/both.csv")"

# 3. Ctrl-C, then resume
timeout --preserve-status -s INT 4 "$mmbench" run -o "$work/int.csv" "$fixtures/slow.ini" >"$work/int.log" 2>&1
check "Ctrl-C: exit" 130 "$?"
check "Ctrl-C: message" 1 "$(grep -c 'interrupted: .* rows kept in' "$work/int.log")"
check "Ctrl-C: rows kept, under 9" yes "$( [ "$(rows "$work/int.csv")" -lt 9 ] && echo yes || echo no)"
"$mmbench" run -o "$work/int.csv" "$fixtures/slow.ini" >"$work/resume.log" 2>&1
check "resume after Ctrl-C: exit" 0 "$?"
check "resume: every configuration once" 9 "$(tail -n +2 "$work/int.csv" | cut -d, -f8-13 | sort -u | wc -l)"
check "resume: rows" 9 "$(rows "$work/int.csv")"

# 4. buffers over the GPU's memory
mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 | head -n 1)
n=$(python3 -c "import math; print(math.ceil(math.sqrt(1.1 * $mib * 2**20 / 12)))")
sed "s/^sizes = .*/sizes = $n/; s/^name = .*/name = oom/" "$fixtures/slow.ini" |
    sed "s|\.\./\.\./\.\./kernels|$root/kernels|" >"$work/oom.ini"
"$mmbench" run -o "$work/oom.csv" "$work/oom.ini" >"$work/oom.log" 2>&1
check "size $n (1.1x GPU memory): exit" 0 "$?"
check "size $n: out_of_memory rows" 9 "$(rows_with "$work/oom.csv" out_of_memory)"

{
    echo "mmbench hardening on $(nvidia-smi --query-gpu=name --format=csv,noheader -i 0), $(date -u +%FT%TZ)"
    printf '%-44s %-22s %-22s %s\n' check expected got verdict
    printf '%s\n' "${results[@]}"
} | tee "$out/hardening.txt"
tar -C "$work" -czf "$out/hardening.tar.gz" --exclude cubins .
! grep -q FAIL "$out/hardening.txt"
