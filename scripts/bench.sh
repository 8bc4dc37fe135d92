#!/bin/sh
# bench.sh MMBENCH SOURCE_ROOT - what `ninja -C build bench` does: on a machine with a
# GPU, run the default profiles into data/<gpu>/ (resuming what is there), then draw
# every plot and write reports/ from all of data/. Without a GPU, only the second part.
# MMB_BENCH_PROFILES overrides the profiles (space-separated paths).
set -eu
mmbench=$1
cd "$2"
profiles=${MMB_BENCH_PROFILES:-profiles/course.ini}
if why=$("$mmbench" devices 2>&1 >/dev/null); then
    for p in $profiles; do
        "$mmbench" run --devices all "$p"
    done
else
    echo "bench: no GPU here (${why#mmbench devices: }); drawing every plot and report from data/"
fi
exec "$mmbench" report
