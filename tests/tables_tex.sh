#!/bin/sh
# tables_tex.sh MMBENCH - reports/tables.tex must fit: the report of data/ (and of the
# CSV fixtures) compiled with pdflatex in an A4 article at 10 pt and on a 4:3 slide
# (128 mm x 96 mm, beamer's page), each with no overfull box and no error. Exit 77
# (skipped) without pdflatex; scripts/setup.sh installs it.
set -eu
mmbench=$1
root=${MMB_SOURCE_ROOT:-.}
command -v pdflatex >/dev/null 2>&1 || { echo "pdflatex not found: skipped"; exit 77; }
dir=$(mktemp -d /tmp/mmb_tables_tex.XXXXXX)
trap 'rm -rf "$dir"' EXIT
status=0
for input in "$root/data" "$root/tests/fixtures/csv/good" "$root/tests/fixtures/csv/profiles"; do
    name=$(basename "$input")
    "$mmbench" report -q --no-plots -o "$dir/$name" "$input"
    for page in a4 slide; do
        if [ $page = a4 ]; then
            head='\documentclass[a4paper,10pt]{article}'
        else
            head='\documentclass[10pt]{article}\usepackage[paperwidth=128mm,paperheight=96mm,margin=4mm]{geometry}'
        fi
        printf '%s\n\\usepackage{booktabs,graphicx}\n\\begin{document}\n\\input{tables.tex}\n\\end{document}\n' \
            "$head" >"$dir/$name/$page.tex"
        if ! (cd "$dir/$name" && pdflatex -interaction=nonstopmode -halt-on-error "$page.tex" >/dev/null 2>&1); then
            echo "$name, $page: pdflatex failed:"
            grep -A 3 '^!' "$dir/$name/$page.log" | head -n 12
            status=1
            continue
        fi
        bad=$(grep -c 'Overfull' "$dir/$name/$page.log" || true)
        pages=$(sed -n 's/^Output written on .* (\([0-9]*\) page.*/\1/p' "$dir/$name/$page.log")
        echo "$name, $page: $pages pages, $bad overfull boxes"
        if [ "$bad" != 0 ]; then
            grep -A 2 'Overfull' "$dir/$name/$page.log" | head -n 20
            status=1
        fi
    done
done
exit $status
