#!/bin/sh
# slides_tex.sh MMBENCH - reports/slides.tex must compile and be readable from the back
# of a lecture hall: the report of data/ drawn (PDF figures, with the slides the deck
# includes), slides.tex compiled with pdflatex, no error, no overfull box, a slide per
# lecture figure, and no text under 9 pt as printed on the slide, the figures' text
# included (tests/pdf_type_size.py follows each figure's transformation into it).
# Exit 77 (skipped) without pdflatex, Beamer (texlive-latex-recommended, with pgf from
# texlive-pictures), gnuplot or python3; scripts/setup.sh installs them.
set -eu
mmbench=$1
root=${MMB_SOURCE_ROOT:-.}
here=$(cd "$(dirname "$0")" && pwd)
for tool in pdflatex kpsewhich gnuplot python3; do
    command -v $tool >/dev/null 2>&1 || { echo "$tool not found: skipped"; exit 77; }
done
for sty in beamer.cls pgfcore.sty; do
    kpsewhich $sty >/dev/null 2>&1 || { echo "$sty not found (texlive-latex-recommended, texlive-pictures): skipped"; exit 77; }
done
dir=$(mktemp -d /tmp/mmb_slides_tex.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$mmbench" report -q --formats pdf -o "$dir/r" "$root/data"
frames=$(grep -c '^\\begin{frame}' "$dir/r/slides.tex")
decks=$(ls "$dir/r/figures" | grep -c '^deck-.*\.pdf$' || true)
echo "slides.tex: $frames frames; $decks slide figures drawn"
status=0
# the title, every slide figure drawn, and the ladder's table
if [ "$frames" -lt $((decks + 2)) ] || [ "$decks" -lt 3 ]; then
    echo "expected a slide for each of the $decks slide figures (at least 3), a title and the ladder's table"
    status=1
fi
printf '%s\n' '\pdfcompresslevel=0 \pdfobjcompresslevel=0' '\input{slides.tex}' >"$dir/r/check.tex"
if ! (cd "$dir/r" && pdflatex -interaction=nonstopmode -halt-on-error check.tex >/dev/null 2>&1); then
    echo "pdflatex failed:"
    grep -A 3 '^!' "$dir/r/check.log" | head -n 12
    exit 1
fi
bad=$(grep -c 'Overfull' "$dir/r/check.log" || true)
pages=$(sed -n 's/^Output written on .* (\([0-9]*\) page.*/\1/p' "$dir/r/check.log")
echo "slides: $pages pages, $bad overfull boxes"
if [ "$bad" != 0 ]; then
    grep -A 2 'Overfull' "$dir/r/check.log" | head -n 20
    status=1
fi
python3 "$here/pdf_type_size.py" "$dir/r/check.pdf" 9 || status=1
exit $status
