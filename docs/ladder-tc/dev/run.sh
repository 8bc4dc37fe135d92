#!/bin/bash
# run.sh - the tensor-core ladder's development run on the GPU machine, from the folder
# build.sh staged (driver, manifest.tsv, names.txt, cubin/, table.py). Phases, in the order
# given (PHASES, default "bench ncu san"):
#   bench: cuBLAS in both dtypes, then every configuration in its own process (a fault or a
#          hang costs one configuration), checked at CHECK and BENCH sizes and timed at BENCH
#          (bf16) and BENCH_F16 (f16), then cuBLAS again; results.csv and bench.log;
#   san:   compute-sanitizer memcheck and synccheck at SAN sizes, racecheck at SAN_RACE,
#          over every configuration (bf16) of the families that did not hang; san.log;
#   ncu:   Nsight Compute (clocks as found) over NCU_KERNELS (NAME or NAME@SIZE) and cuBLAS at
#          NCU_SIZE; ncu.txt;
# and table.txt (table.py) last, also printed.
set -u
cd "$(dirname "$0")"
out=${OUT:-/tmp/tc-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
PHASES=${PHASES:-bench ncu san}
CHECK=${CHECK:-64x8x8,128x128x64,200x136x40,1023x517x259,1664x1664x72,2176x2176x64}
BENCH=${BENCH:-512,1024,2048,4096,8192,2048x8192x1024,8192x2048x4096,1024x4096x8192,1000x1016x1032,4104x2056x1024}
BENCH_F16=${BENCH_F16:-512,1024,2048,4096,8192}
SAN=${SAN:-200x136x40,1664x1664x72,2176x2176x200}
SAN_RACE=${SAN_RACE:-200x136x40,1664x1664x72}
NCU_SIZE=${NCU_SIZE:-4096}
NCU_KERNELS=${NCU_KERNELS:-}
csv=$out/results.csv
log=$out/bench.log
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$log"; }

{ nvidia-smi; nvidia-smi -q -d CLOCK,POWER,TEMPERATURE; } >"$out/env.txt" 2>&1
if ! ./driver manifest.tsv --only none --check 64 >/dev/null 2>>"$log"; then
    stamp "carried driver does not run here; rebuilding"
    /usr/local/cuda/bin/nvcc -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -o driver driver.cu -lcublas -lcuda \
        -cudart static >>"$log" 2>&1 || { stamp "driver build failed"; exit 1; }
fi

phase_bench() {
    [ -f "$csv" ] || echo "name,dtype,M,N,K,status,rel_err,nonfinite,guard,ms,tflops,reps" >"$csv"
    stamp "cuBLAS (first)"
    ./driver manifest.tsv --only none --cublas --dtype bf16 --bench "$BENCH" --csv "$csv" >>"$log" 2>&1
    ./driver manifest.tsv --only none --cublas --dtype f16 --bench "$BENCH_F16" --csv "$csv" >>"$log" 2>&1
    hung=" "
    while read -r name; do
        fam=${name%%_*}
        for dt in bf16 f16; do
            if [[ "$hung" == *" $fam "* ]]; then
                stamp "$name $dt: skipped (a configuration of $fam hung)"
                continue
            fi
            bench=$BENCH
            [ "$dt" = f16 ] && bench=$BENCH_F16
            stamp "$name $dt"
            timeout -k 5 40 ./driver manifest.tsv --only "$name" --dtype "$dt" --check "$CHECK" --bench "$bench" \
                --csv "$csv" >>"$log" 2>&1
            rc=$?
            if [ $rc -ne 0 ]; then
                stamp "$name $dt: exit status $rc"
                [ $rc -ge 124 ] && hung+="$fam "
            fi
        done
    done <names.txt
    echo "$hung" >/tmp/tc-hung
    stamp "cuBLAS (last)"
    ./driver manifest.tsv --only none --cublas --dtype bf16 --bench "$BENCH" --csv "$csv" >>"$log" 2>&1
    ./driver manifest.tsv --only none --cublas --dtype f16 --bench "$BENCH_F16" --csv "$csv" >>"$log" 2>&1
}

phase_san() {
    : >"$out/san.log"
    hung=$(cat /tmp/tc-hung 2>/dev/null || echo " ")
    fams=$(sed 's/_.*//' names.txt | uniq | while read -r f; do [[ "$hung" == *" $f "* ]] || printf '%s_,' "$f"; done)
    for tool in memcheck synccheck racecheck; do
        stamp "sanitizer $tool over ${fams%,}"
        echo "=== $tool" >>"$out/san.log"
        size=$SAN
        [ "$tool" = racecheck ] && size=$SAN_RACE
        timeout -k 5 120 compute-sanitizer --tool "$tool" --kernel-name kns=matmul_ --error-exitcode 99 \
            ./driver manifest.tsv --prefix "${fams%,}" --dtype bf16 --naive-ref --check "$size" >>"$out/san.log" 2>&1
        echo "=== $tool exit status $?" >>"$out/san.log"
    done
}

phase_ncu() {
    : >"$out/ncu.txt"
    metrics=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
    metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
    metrics+=,sm__cycles_active.avg,sm__cycles_elapsed.avg,dram__bytes_read.sum,dram__bytes_write.sum
    metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum
    metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct
    for entry in $NCU_KERNELS cublas@$NCU_SIZE; do
        name=${entry%@*}
        size=$NCU_SIZE
        [[ "$entry" == *@* ]] && size=${entry#*@}
        stamp "ncu $name at $size"
        only=$name
        extra=()
        kfilter=(--kernel-name regex:matmul_ --launch-count 1)
        if [ "$name" = cublas ]; then
            only=none
            extra=(--cublas --reps 1)
            kfilter=(--kernel-name "regex:^(?!fill|compare|count)" --launch-skip 1 --launch-count 3)
        fi
        echo "=== $name $size" >>"$out/ncu.txt"
        timeout -k 5 120 ncu --clock-control none "${kfilter[@]}" \
            --section SpeedOfLight --section WarpStateStats --section Occupancy --metrics "$metrics" \
            ./driver manifest.tsv --only "$only" --dtype bf16 "${extra[@]}" --bench "$size" --reps 1 \
            >>"$out/ncu.txt" 2>&1 || echo "=== ncu $name exit status $?" >>"$out/ncu.txt"
    done
}

for phase in $PHASES; do
    "phase_$phase"
done

stamp "done"
python3 table.py "$csv" >"$out/table.txt" 2>&1
grep -E "exit status|FAIL|launch_error|load_error" "$log" | head -20
grep -E "^=== |ERROR SUMMARY|RACECHECK SUMMARY|Error|error" "$out/san.log" 2>/dev/null | head -30
cat "$out/table.txt"
