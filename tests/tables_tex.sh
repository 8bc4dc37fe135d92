#!/bin/sh
# tables_tex.sh MMBENCH - reports/tables.tex must be readable as printed: the report of
# data/ (and of the CSV fixtures) compiled with pdflatex in an A4 article at 10 pt with
# 2 cm margins (the setup tables.tex's header names), twice (longtable settles its
# column widths on the second run), with no error, no overfull box, no "Float too
# large", and no text under 7 pt as printed (tests/pdf_type_size.py: font size times
# every transformation, so a table scaled down to fit fails too). Exit 77 (skipped)
# without pdflatex or python3; scripts/setup.sh installs pdflatex.
set -eu
mmbench=$1
root=${MMB_SOURCE_ROOT:-.}
here=$(cd "$(dirname "$0")" && pwd)
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not found: skipped"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
dir=$(mktemp -d /tmp/mmb_tables_tex.XXXXXX)
trap 'rm -rf "$dir"' EXIT
status=0
for input in "$root/data" "$root/tests/fixtures/csv/good" "$root/tests/fixtures/csv/profiles" \
    "$root/tests/fixtures/csv/precisions" "$root/tests/fixtures/csv/ladder-tc"; do
    name=$(basename "$input")
    # the precisions fixture beside a story, as data/ will hold it
    extra=
    case $name in precisions | ladder-tc) extra="$root/tests/fixtures/csv/good" ;; esac
    "$mmbench" report -q --no-plots -o "$dir/$name" "$input" $extra
    if grep -q 'resizebox\|scalebox' "$dir/$name/tables.tex"; then
        echo "$name: tables.tex scales a table"
        status=1
    fi
    printf '%s\n' '\pdfcompresslevel=0 \pdfobjcompresslevel=0' \
        '\documentclass[a4paper,10pt]{article}' '\usepackage[a4paper,margin=2cm]{geometry}' \
        '\usepackage{booktabs,longtable}' '\begin{document}' '\input{tables.tex}' '\end{document}' >"$dir/$name/a4.tex"
    ok=1
    for pass in 1 2; do
        if ! (cd "$dir/$name" && pdflatex -interaction=nonstopmode -halt-on-error a4.tex >/dev/null 2>&1); then
            echo "$name: pdflatex failed:"
            grep -A 3 '^!' "$dir/$name/a4.log" | head -n 12
            status=1
            ok=0
            break
        fi
    done
    [ $ok = 1 ] || continue
    bad=$(grep -c 'Overfull' "$dir/$name/a4.log" || true)
    floats=$(grep -c 'Float too large' "$dir/$name/a4.log" || true)
    pages=$(sed -n 's/^Output written on .* (\([0-9]*\) page.*/\1/p' "$dir/$name/a4.log")
    echo "$name, A4: $pages pages, $bad overfull boxes, $floats floats too large"
    if [ "$bad" != 0 ] || [ "$floats" != 0 ]; then
        grep -A 2 'Overfull\|Float too large' "$dir/$name/a4.log" | head -n 20
        status=1
    fi
    python3 "$here/pdf_type_size.py" "$dir/$name/a4.pdf" 7 || status=1
done
exit $status
