#!/bin/sh
# build.sh - builds build-gpu/ on this (GPU-less) machine for the GPU machine, which
# has CUDA 13 but none of libcsv, libinih, Check or cJSON: the first three link
# statically; libcjson.so.1 travels in build-gpu/lib. Then: scripts/gpu/job.sh there.
set -eu
cd "$(dirname "$0")/../.."
if [ ! -d build-gpu ]; then
    meson setup build-gpu --buildtype=release -Dcuda=enabled >/dev/null
fi
ninja -C build-gpu
mkdir -p build-gpu/lib
cp -L /usr/lib/x86_64-linux-gnu/libcjson.so.1 build-gpu/lib/
