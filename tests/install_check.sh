#!/usr/bin/env bash
# install_check.sh BUILD - `meson install` of BUILD into a DESTDIR, then the installed
# program on what it installed, from / (nothing of the source tree): its version names
# CUDA; the man page, the bash and zsh completions, the column table, the Python reader
# and the docs are there; `check` passes every installed profile (their kernels found
# beside them, ../kernels/...), and with CUDA compiles the quick profile's kernels with
# NVRTC (no GPU needed); `report` and `export --best` work on the installed data; the
# Python reader reads it with the installed column table. Exits 1 at the first failure.
set -euo pipefail
build=$(cd "$1" && pwd)
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() { echo "install_check: $*" >&2; exit 1; }
option() {
    meson introspect "$build" --buildoptions |
        python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >/dev/null
prefix=$dest$(option prefix)
datadir=$prefix/$(option datadir)
share=$datadir/mmbench
bin=$prefix/$(option bindir)/mmbench
for f in "$bin" "$share/profiles/course.ini" "$share/kernels/naive.cu" "$prefix/$(option mandir)/man1/mmbench.1" \
         "$datadir/bash-completion/completions/mmbench" "$datadir/zsh/site-functions/_mmbench" \
         "$share/columns.json" "$share/python/mmbench_reader.py" "$datadir/doc/mmbench/README.md"; do
    [ -s "$f" ] || fail "${f#"$dest"} was not installed"
done
cd /
for command in run report; do
    "$bin" "$command" --version | grep -q CUDA || fail "mmbench $command --version does not name CUDA"
done
grep -q '^\.TH MMBENCH 1 ' "$prefix/$(option mandir)/man1/mmbench.1" || fail "mmbench.1 is not a man page"
bash -n "$datadir/bash-completion/completions/mmbench" || fail "the bash completion does not parse"
"$bin" check "$share"/profiles/*.ini >/dev/null || fail "the installed profiles do not check"
if "$bin" --version | grep -q '^built with CUDA'; then
    MMB_CACHE_DIR=$dest/cache "$bin" check --compile sm_90 "$share/profiles/quick.ini" >/dev/null ||
        fail "the quick profile's installed kernels do not compile"
fi
MMB_SOURCE_ROOT=$share "$bin" report -q --no-plots -o "$dest/report" || fail "report on the installed data"
[ -s "$dest/report/README.md" ] || fail "report wrote no README.md"
MMB_SOURCE_ROOT=$share "$bin" export --best --format json -o "$dest/best.json" 2>/dev/null ||
    fail "export --best on the installed data"
csv=$(ls "$share"/data/*/course.csv | head -n 1)
rows=$(python3 "$share/python/mmbench_reader.py" "$csv" | wc -l)
[ "$rows" -eq "$(($(wc -l <"$csv") - 1))" ] || fail "the installed reader read $rows rows of ${csv#"$dest"}"
echo "install_check: ${bin#"$dest"} and ${share#"$dest"} installed; the installed profiles check, report," \
     "export and the Python reader work on the installed data ($rows rows of ${csv#"$share/"})"
