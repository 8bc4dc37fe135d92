#!/usr/bin/env python3
"""test_claims.py MMBENCH SOURCE_ROOT [FOLDER...] - the numbers of the report's Key findings check themselves.

Runs `mmbench report --no-plots` on the committed data/ (and on each FOLDER of CSVs, a
report of its own: fixtures with counters data/ lacks) into a scratch folder, reads the
claims.json it writes beside README.md (harness/report/doc/claims.h) and recomputes every
claim from the CSVs alone, with Python's csv module and the formula the claim names:
each row must be at its file and line and hold the key the claim gives, and the number
recomputed and formatted as the findings format it must be the text printed. Fails on
any disagreement, on a claim whose text is not in its finding, and when fewer claims
than a floor are recorded (the findings lost their provenance). Prints the coverage:
claims against the numbers in the findings' text."""
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile

MIN_CLAIMS = 20  # the story, ladder and limit findings of data/ record far more
# a number that states a measurement: a percentage, a ratio, TFLOP/s or a time
MEASURED = re.compile(r"\d+(?:\.\d+)?(?=%|×| TFLOP/s| ms\b| µs\b| GB\b| MB\b)|(?<=×)\d+(?:\.\d+)?")
KEY = ("kernel", "params", "dtype", "m", "n", "k", "cache")


def number(cell):
    return float(cell) if cell not in (None, "") else math.nan


def fmt_pct(v):
    return f"{v:.2f}" if v < 1 else f"{v:.1f}" if v < 10 else f"{v:.0f}"


def fmt_ratio(v):
    return f"{v:.2f}" if v < 10 else f"{v:.0f}"


def fmt_tflops(gflops):
    return f"{gflops / 1000:.2f}" if gflops < 1000 else f"{gflops / 1000:.1f}"


# input and output element sizes of the dtypes whose input is its output (core/dtype.c)
ELEMENT = {"f32": 4, "f64": 8, "i32": 4}


def compulsory(row):
    if row["dtype"] not in ELEMENT:
        raise ValueError(f"dtype {row['dtype']}: its element sizes are not known to this checker")
    m, n, k = (number(row[c]) for c in ("m", "n", "k"))
    return (m * k + k * n + m * n) * ELEMENT[row["dtype"]]


def gflops(row):
    m, n, k, t = (number(row[c]) for c in ("m", "n", "k", "time_ms_median"))
    return 2.0 * m * n * k / (t * 1e-3) / 1e9


class Rows:
    """Each CSV's rows by the line they end on, read once."""

    def __init__(self, root):
        self.root, self.files = root, {}

    def at(self, where):
        path = where["file"] if os.path.isabs(where["file"]) else os.path.join(self.root, where["file"])
        if path not in self.files:
            with open(path, newline="") as f:
                reader = csv.DictReader(f)
                self.files[path] = {reader.line_num: row for row in reader}
        row = self.files[path].get(where["line"])
        if row is None:
            raise ValueError(f"{where['file']}:{where['line']}: no row ends on this line")
        for c in KEY:
            cell, want = row.get(c) or "", where[c]
            if c in ("m", "n", "k"):
                same = cell and int(cell) == want
            else:
                same = cell == want or (c == "cache" and not cell)  # older files have no cache column
            if not same:
                raise ValueError(f"{where['file']}:{where['line']}: {c} is '{cell}', the claim says '{want}'")
        if row.get("status") != "ok":
            raise ValueError(f"{where['file']}:{where['line']}: status {row.get('status')}, not ok")
        return row


def recompute(claim, rows):
    """The claim's number as the findings would print it, and the value, from the CSV rows."""
    a = rows[0]
    b = rows[1] if len(rows) > 1 else None
    f = claim["formula"]
    if f == "tflops":
        v = gflops(a)
        return [fmt_tflops(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v / 1000
    if f == "speedup":
        v = number(a["time_ms_median"]) / number(b["time_ms_median"])
        return [fmt_ratio(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    if f == "pct_time":
        v = 100 * number(a["time_ms_median"]) / number(b["time_ms_median"])
        return [fmt_pct(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    if f == "pct_peak":
        peak = claim["peak_gflops"]
        # an f32 row's pipe is the FP32 pipe, whose peak its peak_gflops cell carries
        if a["dtype"] == "f32" and (a.get("pipe") or "fp32") == "fp32" and a.get("peak_gflops"):
            if not math.isclose(peak, number(a["peak_gflops"]), rel_tol=1e-9):
                raise ValueError(f"peak {peak} is not the row's peak_gflops {a['peak_gflops']}")
        v = 100 * gflops(a) / peak
        return [fmt_pct(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    if f == "column":
        v = number(a[claim["column"]])
        return [fmt_pct(v)], v
    if f == "traffic":
        v = (number(a["dram_read_bytes"]) + number(a["dram_write_bytes"])) / compulsory(a)
        return [fmt_ratio(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    if f == "declared":
        v = 100 * compulsory(a) / (number(a["time_ms_median"]) * 1e-3) / 1e9 / number(a["peak_gbps"])
        return [fmt_pct(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    raise ValueError(f"unknown formula '{f}'")


def check(mmbench, root, inputs, rows, failures):
    """One report's claims; returns (claims, findings, measured numbers)."""
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, MMB_SOURCE_ROOT=root)
        r = subprocess.run([mmbench, "report", "-q", "--no-plots", "-o", out] + inputs, cwd=root, env=env,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            sys.exit(f"mmbench report {' '.join(inputs)} failed ({r.returncode}): {r.stderr}")
        with open(os.path.join(out, "claims.json")) as f:
            doc = json.load(f)
        docs = {}
        for name in ("README.md", "tuning.md"):  # a finding says which one prints it
            if os.path.exists(os.path.join(out, name)):
                with open(os.path.join(out, name)) as f:
                    docs[name] = f.read().replace("\\", "")
    claims = numbers = 0
    for finding in doc["findings"]:
        text = finding["text"]
        numbers += len(MEASURED.findall(text))
        document = finding.get("document", "README.md")
        if finding["lead"] not in docs.get(document, ""):
            failures.append(f"finding '{finding['lead']}' is not in {document}")
        for claim in finding["claims"]:
            claims += 1
            where = claim["rows"][0] if claim["rows"] else {"file": "?", "line": 0}
            try:
                texts, value = recompute(claim, [rows.at(w) for w in claim["rows"]])
                if claim["text"] not in texts:
                    failures.append(f"{where['file']}:{where['line']}: '{finding['lead']}' prints {claim['text']} "
                                    f"({claim['formula']}), the CSV gives {value:.6g} = {texts[1]}")
                if claim["text"] not in text:
                    failures.append(f"'{finding['lead']}': claim {claim['text']} is not in its text")
            except (ValueError, KeyError, ZeroDivisionError) as e:
                failures.append(f"'{finding['lead']}', claim {claim['text']} ({claim['formula']}): {e}")
    return claims, len(doc["findings"]), numbers


def main():
    mmbench, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    rows, failures = Rows(root), []
    for inputs in [[]] + [[os.path.abspath(a)] for a in sys.argv[3:]]:
        claims, findings, numbers = check(mmbench, root, inputs, rows, failures)
        print(f"{' '.join(inputs) or 'data/'}: {claims} claims in {findings} findings recomputed from the CSVs "
              f"({numbers} measured numbers, percentages, ratios, TFLOP/s and times, in their text: "
              f"{100 * claims / max(numbers, 1):.0f}% carry their provenance)")
        if not inputs and claims < MIN_CLAIMS:
            failures.append(f"only {claims} claims recorded on data/, expected at least {MIN_CLAIMS}")
    for line in failures:
        print("FAIL", line)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
