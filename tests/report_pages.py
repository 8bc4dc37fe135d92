#!/usr/bin/env python3
"""report_pages.py MMBENCH SOURCE_ROOT - the report reads as one page first.

The report of data/ (written without figures, and the committed reports/README.md when
there is one) must open with "## Summary" of at most 250 words whose first figure is
the kernel ladder's, keep the whole README under 12,000 words, and put the tuning
detail in tuning.md (its findings and its section), not in the README, and have the
energy.md it links (the energy table at every size). Word counts are
wc -w's: runs of non-space characters.
"""
import os
import re
import subprocess
import sys
import tempfile

SUMMARY_MAX = 250
README_MAX = 12000


def check(readme, tuning, where):
    errors = []
    text = open(readme, encoding="utf-8").read()
    words = len(text.split())
    heads = re.findall(r"^## (.+)$", text, re.M)
    if not heads or heads[0] != "Summary":
        errors.append(f"{where}: the first section is {heads[:1]}, expected Summary")
        return errors, words, 0
    body = text.split("## Summary\n", 1)[1]
    summary = re.split(r"^#{2,4} ", body, maxsplit=1, flags=re.M)[0]
    summary_words = len(summary.split())
    figure = re.search(r"^#### .*\n\n(?:.*\n\n)?!\[[^\]]*\]\(figures/([^)]+)\)|Not drawn .*gnuplot/([^)]+)\.gp", body, re.M)
    first = (figure.group(1) or figure.group(2)) if figure else ""
    if summary_words > SUMMARY_MAX:
        errors.append(f"{where}: the summary has {summary_words} words, expected at most {SUMMARY_MAX}")
    next_section = re.search(r"^## ", body, re.M)
    if not re.match(r"ladder-", first) or (next_section and next_section.start() < body.find(first)):
        errors.append(f"{where}: the summary's first figure is '{first}', expected the kernel ladder's (ladder-*)")
    if words >= README_MAX:
        errors.append(f"{where}: {words} words, expected under {README_MAX}")
    if re.search(r"^## Tuning$", text, re.M) or "**Tuning " in text:
        errors.append(f"{where}: the tuning section or tuning findings are in the README, expected in tuning.md")
    if not os.path.exists(tuning):
        errors.append(f"{where}: no tuning.md beside it")
    else:
        t = open(tuning, encoding="utf-8").read()
        if "## Tuning" not in t or "## What tuning found" not in t:
            errors.append(f"{where}: tuning.md lacks its section or its findings")
    if "[energy.md](energy.md)" in text and not os.path.exists(os.path.join(os.path.dirname(readme), "energy.md")):
        errors.append(f"{where}: links energy.md, which is not beside it")
    return errors, words, summary_words


def main():
    mmbench, root = sys.argv[1], sys.argv[2]
    errors = []
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([mmbench, "report", "-q", "--no-plots", "-o", out, os.path.join(root, "data")], check=True)
        e, w, s = check(os.path.join(out, "README.md"), os.path.join(out, "tuning.md"), "report of data/")
        errors += e
        print(f"report of data/: README {w} words, summary {s} words")
    # the Precisions section: absent without a precisions CSV, there with one (the H100
    # development run, a fixture beside a story), with its figure, findings and table
    with tempfile.TemporaryDirectory() as out:
        fixtures = os.path.join(root, "tests", "fixtures", "csv")
        subprocess.run([mmbench, "report", "-q", "--no-plots", "-o", out, os.path.join(fixtures, "good"),
                        os.path.join(fixtures, "precisions")], check=True)
        text = open(os.path.join(out, "README.md"), encoding="utf-8").read()
        section = text.split("## Precisions\n", 1)[1].split("\n## ", 1)[0] if "## Precisions\n" in text else ""
        for want in ("precisions-h100-80gb-hbm3.gp", "times its FP32 speed", "| Type | Pipe | Pipe peak |",
                     "f16 762 (×14.6)"):
            if want not in section:
                errors.append(f"precisions fixture: the Precisions section lacks '{want}'")
        if not any(os.path.exists(os.path.join(root, "data", g, "precisions.csv"))
                   for g in os.listdir(os.path.join(root, "data"))):
            with tempfile.TemporaryDirectory() as out2:
                subprocess.run([mmbench, "report", "-q", "--no-plots", "-o", out2, os.path.join(root, "data")],
                               check=True)
                if "## Precisions" in open(os.path.join(out2, "README.md"), encoding="utf-8").read():
                    errors.append("report of data/: a Precisions section without a precisions CSV")
    # the tensor-core ladder: its development run (a fixture) beside a story gives the
    # ladder in f16 and in bf16, each with its figure and the worklog from its profile
    with tempfile.TemporaryDirectory() as out:
        fixtures = os.path.join(root, "tests", "fixtures", "csv")
        subprocess.run([mmbench, "report", "-q", "--no-plots", "-o", out, os.path.join(fixtures, "good"),
                        os.path.join(fixtures, "ladder-tc")], check=True)
        text = open(os.path.join(out, "ladder.md"), encoding="utf-8").read()
        for want in ("gnuplot/ladder-tc-f16-h100-80gb-hbm3.gp", "gnuplot/ladder-tc-bf16-h100-80gb-hbm3.gp",
                     "the ladder as a worklog at 4096 (profile ladder-tc, bf16)",
                     "| 01\\_wmma | WMMA 16x16x16 fragments from shared-memory tiles |"):
            if want not in text:
                errors.append(f"tensor-core ladder fixture: the report lacks '{want}'")
    committed = os.path.join(root, "reports", "README.md")
    if os.path.exists(committed):
        e, w, s = check(committed, os.path.join(root, "reports", "tuning.md"), "reports/README.md")
        errors += e
        print(f"reports/README.md: {w} words, summary {s} words")
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
