#!/bin/sh
# pdf_type_size_check.sh - tests/pdf_type_size.py measures what is printed: 7 pt text
# passes a 7 pt floor; \tiny (5 pt), and 10 pt text scaled down with \resizebox, fail
# it. Exit 77 (skipped) without pdflatex or python3.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not found: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
dir=$(mktemp -d /tmp/mmb_type_size.XXXXXX)
trap 'rm -rf "$dir"' EXIT
doc() { # NAME BODY
    printf '%s\n' '\pdfcompresslevel=0 \pdfobjcompresslevel=0' '\documentclass[10pt]{article}' \
        '\usepackage{graphicx}' '\begin{document}' "$2" '\end{document}' >"$dir/$1.tex"
    (cd "$dir" && pdflatex -interaction=nonstopmode -halt-on-error "$1.tex" >/dev/null 2>&1)
}
doc seven 'Ten point. {\scriptsize Seven point text.}'
doc tiny 'Ten point. {\tiny Five point text.}'
doc scaled 'Ten point. \resizebox{2cm}{!}{ten point text scaled to two centimetres}'
python3 "$here/pdf_type_size.py" "$dir/seven.pdf" 7
for f in tiny scaled; do
    if python3 "$here/pdf_type_size.py" "$dir/$f.pdf" 7; then
        echo "$f.pdf passed a 7 pt floor"
        exit 1
    fi
done
echo "ok: 7 pt passes, 5 pt and scaled text fail"
