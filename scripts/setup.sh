#!/bin/sh
# setup.sh - installs what mmbench needs from Debian/Ubuntu packages and configures
# build/ (pdflatex, from texlive, checks that reports/tables.tex fits an A4 page and
# compiles reports/slides.tex, a Beamer deck: Beamer needs pgf, from texlive-pictures). The CUDA toolkit is optional: with it (at /usr/local/cuda, or set
# CUDA_ROOT) `run`, `tune` and `devices` are built; without it, `report` alone.
set -eu
cd "$(dirname "$0")/.."
SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    gcc libc6-dev meson ninja-build pkg-config \
    libcsv-dev libinih-dev libcjson-dev check libsubunit-dev gnuplot-nox \
    texlive-latex-base texlive-latex-recommended texlive-pictures >/dev/null
cuda_root=${CUDA_ROOT:-/usr/local/cuda}
if [ -d build ]; then
    meson setup --reconfigure build -Dtoolkit_root="$cuda_root"
else
    meson setup build -Dtoolkit_root="$cuda_root"
fi
