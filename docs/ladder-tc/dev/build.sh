#!/bin/bash
# build.sh SET STAGE - builds the development run here (no GPU needed): the manifest of SET
# (a set of variants.py, or a profile: PATH.ini gives the profile's own configurations by
# profile_configs.py, with the development WMMA base beside them), one cubin per
# configuration and dtype with nvcc for sm_90a and the -D
# macros the profile gives (ptxas report and a SASS summary per cubin under STAGE/build/),
# an NVRTC compile of every configuration (as the harness compiles), and the driver; then
# puts them with run.sh and table.py into STAGE, the folder a GPU call carries.
# Needs nvcc; cuobjdump and nvdisasm on the PATH for the SASS summary (optional).
set -eu
set_name=${1:?set}
stage=${2:?stage folder}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$stage/cubin" "$stage/build"
if [[ "$set_name" == *.ini ]]; then
    { python3 "$here/variants.py" manifest base; python3 "$here/profile_configs.py" "$set_name"; } >"$stage/manifest.tsv"
else
    python3 "$here/variants.py" manifest "$set_name" >"$stage/manifest.tsv"
fi
cut -f1 "$stage/manifest.tsv" | uniq >"$stage/names.txt"
# a development probe: step 4 with B's two descriptor offsets exchanged, in case the
# hardware reads them the other way round than the PTX ISA says
sed 's/smem_desc(sb + k16 \* 2048, BK \* 128, 1024)/smem_desc(sb + k16 * 2048, 1024, BK * 128)/' \
    "$root/kernels/ladder-tc/04_wgmma_tma.cu" >"$stage/s04x.cu"
grep -q 'smem_desc(sb + k16 \* 2048, 1024, BK \* 128)' "$stage/s04x.cu"
gcc -O1 -o "$stage/build/nvrtc_check" "$here/nvrtc_check.c" -I"$cuda/include" -L"$cuda/lib64" -lnvrtc

compile_one() {
    IFS=$'\t' read -r name dtype cubin function threads grid bm bn cluster smem restrict args file defs <<<"$1"
    local log="$2/build/$name.$dtype.log" src="$3/$file"
    [[ "$file" == STAGE/* ]] && src="$2/${file#STAGE/}"
    # shellcheck disable=SC2086
    if ! "$4/bin/nvcc" -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -cubin -o "$2/$cubin" \
        $defs "$src" >"$log" 2>&1; then
        echo "FAILED nvcc $name $dtype"; cat "$log"; return 1
    fi
    # shellcheck disable=SC2086
    if ! LD_LIBRARY_PATH="$4/lib64" "$2/build/nvrtc_check" "$src" --std=c++17 -arch=sm_90a -I"$4/include" \
        $defs >>"$log" 2>&1; then
        echo "FAILED nvrtc $name $dtype"; cat "$log"; return 1
    fi
    if command -v cuobjdump >/dev/null; then
        cuobjdump --dump-sass "$2/$cubin" >"$2/build/$name.$dtype.sass"
        local s="$2/build/$name.$dtype.sass"
        echo "sass: HGMMA $(grep -c HGMMA "$s") HMMA $(grep -c 'HMMA' "$s") LDSM $(grep -c LDSM "$s")" \
             "STSM $(grep -c STSM "$s") UTMALDG $(grep -c UTMALDG "$s") UTMASTG $(grep -c UTMASTG "$s")" \
             "LDL/STL $(grep -cE 'LDL|STL' "$s")" >>"$log"
    fi
    printf '%-48s %-5s %s | %s\n' "$name" "$dtype" "$(grep -oE 'Used [0-9]+ registers' "$log")" \
        "$(grep -oE '[0-9]+ bytes spill stores' "$log"); $(grep -oE 'sass:.*' "$log" || true)"
}
export -f compile_one
while IFS= read -r line; do
    printf '%s\0' "$line"
done <"$stage/manifest.tsv" | xargs -0 -P "$(nproc)" -I{} bash -c 'compile_one "$@"' _ {} "$stage" "$root" "$cuda" \
    | sort >"$stage/build/summary.txt"
cat "$stage/build/summary.txt"
if grep -q FAILED "$stage/build/summary.txt"; then exit 1; fi
"$cuda/bin/nvcc" -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -o "$stage/driver" "$here/driver.cu" \
    -lcublas -lcuda -L"$cuda/lib64/stubs" -cudart static
cp "$here/driver.cu" "$here/run.sh" "$here/table.py" "$stage/"
echo "staged in $stage"
