#!/usr/bin/env python3
"""test_claims.py MMBENCH SOURCE_ROOT [FOLDER...] - the numbers of the report's Key findings check themselves.

Runs `mmbench report --no-plots` on the committed data/ (and on each FOLDER of CSVs, a
report of its own: fixtures with counters data/ lacks) into a scratch folder, reads the
claims.json it writes beside README.md (harness/report/doc/claims.h) and recomputes every
claim from the CSVs alone, with Python's csv module and the formula the claim names:
each row must be at its file and line and hold the key the claim gives, and the number
recomputed and formatted as the findings format it must be the text printed. Fails on
any disagreement, on a claim whose text is not in its finding, and when fewer claims
than a floor are recorded (the findings lost their provenance).

Coverage: every number in the summary's and the findings' text (a run of digits not
part of a word: not H100, 80GB, 10_stream_k or 1xN) must be one claim's text, each claim
used once; a configuration's label, a protocol or a compiler message is a claim of its
own (key), taken out of the text before it is scanned. A number without a claim fails
the test, so that a finding cannot print a number whose source nobody checks."""
import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile

MIN_CLAIMS = 20  # the story, ladder and limit findings of data/ record far more
# a number as a finding prints it, not part of a word (H100, 80GB, 10_stream_k, 1xN)
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w]|\.\d)")
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


def fmt(name, v):
    """mmb_report_findings_format's formats."""
    if name == "pct":
        return fmt_pct(v)
    if name == "ratio":
        return fmt_ratio(v)
    if name == "tflops":
        return fmt_tflops(v)
    if name == "count":
        return (f"{v:.0f}" if v < 1e3 else f"{v / 1e3:.1f} k" if v < 1e6 else f"{v / 1e6:.1f} M" if v < 1e9
                else f"{v / 1e9:.2f} G")
    plain = {"int": ("{:.0f}", 1), "f1": ("{:.1f}", 1), "f3": ("{:.3f}", 1), "gb": ("{:.1f}", 1e-9),
             "mb": ("{:.0f}", 1e-6), "us": ("{:.1f}", 1e3), "g4": ("{:.4g}", 1)}
    if name not in plain:
        raise ValueError(f"unknown format '{name}'")
    return plain[name][0].format(v * plain[name][1])


def texts(name, v):
    """The texts a value may print as, allowing the last bit of rounding."""
    return [fmt(name, v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)]


# ---- mmbench compare (harness/core/verdict.c), from the side files' launch times ----

CONFIDENCE, THRESHOLD = 0.95, 0.02


def median_rank(n, level):
    tail, cdf, rank, covered = (1 - level) / 2, 0.0, 0, math.nan
    for i in range(0, (n + 1) // 2):
        cdf += math.comb(n, i) / 2 ** n
        if cdf > tail * (1 + 1e-12):
            break
        rank, covered = i + 1, 1 - 2 * cdf
    return rank, covered


def side_interval(side, level):
    """(lo, hi, covered) of one side's median at level at least, or None."""
    if side["samples"]:
        j, covered = median_rank(len(side["samples"]), level)
        if not j:
            return None
        s = side["samples"]
        return s[j - 1], s[len(s) - j], covered
    n = side["n"]
    covered = 1 - 2 * 0.5 ** n if n else 0.0
    if not covered >= level or not (math.isfinite(side["min"]) and math.isfinite(side["max"])):
        return None
    return side["min"], side["max"], covered


def verdict_of(lo, hi, t=THRESHOLD):
    eps = 1e-12
    if math.isnan(lo) or math.isnan(hi):
        return "UNSURE"
    if lo >= 1 - t - eps and hi <= 1 + t + eps:
        return "SAME"
    if lo > 1:
        return "SLOWER"
    if hi < 1:
        return "FASTER"
    return "UNSURE"


def median(values):
    n = len(values)
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def compare(old, new):
    """(ratio, lo, hi, verdict) of new against old, each side a dict of samples (sorted) or n, min, max."""
    mo = median(old["samples"]) if old["samples"] else old["median"]
    mn = median(new["samples"]) if new["samples"] else new["median"]
    ratio = mn / mo if mo > 0 and mn > 0 else math.nan
    each = math.sqrt(CONFIDENCE)
    so, sn = side_interval(old, each), side_interval(new, each)
    ext = lambda s: (1 - 2 * 0.5 ** s["n"]) if s["n"] else 0.0
    if not so and sn and ext(old) >= CONFIDENCE:
        so = side_interval(old, ext(old))
        sn = so and side_interval(new, CONFIDENCE / so[2] * (1 + 1e-12))
    elif so and not sn and ext(new) >= CONFIDENCE:
        sn = side_interval(new, ext(new))
        so = sn and side_interval(old, CONFIDENCE / sn[2] * (1 + 1e-12))
    lo = hi = math.nan
    if so and sn and so[0] > 0 and so[1] > 0 and math.isfinite(ratio):
        lo, hi = sn[0] / so[1], sn[1] / so[0]
    return ratio, lo, hi, verdict_of(lo, hi)


def gflops(row):
    m, n, k, t = (number(row[c]) for c in ("m", "n", "k", "time_ms_median"))
    return 2.0 * m * n * k / (t * 1e-3) / 1e9


class Rows:
    """Each CSV's rows by the line they end on, read once."""

    def __init__(self, root):
        self.root, self.files, self.samples, self.sources = root, {}, {}, {}

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
        return row

    def ok(self, where):
        row = self.at(where)
        if row.get("status") != "ok":
            raise ValueError(f"{where['file']}:{where['line']}: status {row.get('status')}, not ok")
        return row

    def path(self, where):
        return where["file"] if os.path.isabs(where["file"]) else os.path.join(self.root, where["file"])

    def side(self, where):
        """One side of a comparison as mmbench compare reads it: the row's launch times from
        its file's side file when they are there and agree with it, else its min and max."""
        row = self.ok(where)
        path = self.path(where)
        side_path = path[:-4] + ".samples.csv" if path.endswith(".csv") else path + ".samples.csv"
        if side_path not in self.samples:
            self.samples[side_path] = {}
            if os.path.exists(side_path):
                with open(side_path, newline="") as f:
                    for rec in csv.DictReader(f):
                        key = tuple(rec[c] for c in ("gpu_uuid", "kernel", "params", "dtype", "m", "n", "k", "cache",
                                                     "timestamp"))
                        self.samples[side_path][key] = [float(x) for x in rec["samples_ms"].split()]
        key = tuple(row.get(c) or "" for c in ("gpu_uuid", "kernel", "params", "dtype", "m", "n", "k", "cache",
                                               "timestamp"))
        got = self.samples[side_path].get(key)
        repeats = int(row["repeats"]) if row.get("repeats") else 0
        side = {"samples": None, "n": repeats, "median": number(row["time_ms_median"]),
                "min": number(row.get("time_ms_min")), "max": number(row.get("time_ms_max"))}
        # the side file keeps the launch times to 7 significant digits, the row its median to 9
        if got and len(got) == repeats and math.isclose(median(sorted(got)), side["median"], rel_tol=1e-6):
            side["samples"] = sorted(got)
        elif not (repeats > 0 and math.isfinite(side["min"]) and math.isfinite(side["max"])):
            side["n"] = 0
        return side


def predicate(claim, items, rows):
    """Each item of a count satisfies its predicate: raises ValueError where one does not."""
    for part in claim.get("what", "").split(","):
        name, _, arg = part.partition(":")
        if not name:  # no predicate: the items are rows, each where the claim says
            for i in items:
                for w in ([i] if isinstance(i, dict) else i):
                    rows.at(w)
        elif name == "notstatus":
            for i in items:
                if rows.at(i)["status"] in arg.split("|"):
                    raise ValueError(f"{i['file']}:{i['line']}: status {rows.at(i)['status']}, one of {arg}")
        elif name == "kernels":
            kernels = [rows.at(i if isinstance(i, dict) else i[0])["kernel"] for i in items]
            if len(set(kernels)) != len(kernels):
                raise ValueError(f"the items' kernels repeat: {kernels}")
        elif name == "status":
            for i in items:
                for w in ([i] if isinstance(i, dict) else i):
                    if rows.at(w)["status"] not in arg.split("|"):
                        raise ValueError(f"{w['file']}:{w['line']}: status {rows.at(w)['status']}, not {arg}")
        elif name == "verdict":
            for old, new in items:
                got = compare(rows.side(old), rows.side(new))[3]
                if got not in arg.split("|"):
                    raise ValueError(f"{new['file']}:{new['line']} against {old['file']}:{old['line']}: "
                                     f"verdict {got}, not {arg}")
        elif name == "within":
            for a, b in items:
                if number(rows.ok(b)["time_ms_median"]) > float(arg) * number(rows.ok(a)["time_ms_median"]):
                    raise ValueError(f"{b['file']}:{b['line']}: not within ×{arg} of {a['file']}:{a['line']}")
        elif name == "params":
            for a, b in items:
                if rows.at(a)["params"] != rows.at(b)["params"]:
                    raise ValueError(f"{b['file']}:{b['line']}: another configuration than {a['file']}:{a['line']}")
        else:
            raise ValueError(f"unknown predicate '{part}'")


def key_text(claim, row):
    """Whether the key text the claim prints is the row's."""
    col, text = claim["column"], claim["text"]
    if col == "size":
        m, n, k = row["m"], row["n"], row["k"]
        return text == (m if m == n == k else f"{m}x{n}x{k}")
    if col == "params":
        values = [item.partition("=")[2] for item in row["params"].split(";") if item]
        shown = [item.partition("=")[2] for item in text.split(" ")] if text != "-" else []
        return shown == values or text == row["params"]
    if col == "protocol":
        return text.replace("; ", ";") == row.get("protocol")
    if col == "reason":
        m = re.match(r"line (\d+): (.*)", text)
        reason = row.get("reason") or ""
        return (f"({m.group(1)}): error: {m.group(2)}" in reason) if m else text in reason
    raise ValueError(f"unknown key column '{col}'")


def setting(claim, root, cache):
    """The constant's value in its source file: `#define NAME value` or `.NAME = value`."""
    path = os.path.join(root, claim["file"])
    if path not in cache:
        with open(path) as f:
            cache[path] = f.read()
    m = re.search(r"(?:#define\s+|\.)" + re.escape(claim["name"]) + r"\s*=?\s*\(?([0-9.eE+-]+)", cache[path])
    if not m:
        raise ValueError(f"{claim['file']}: no constant {claim['name']}")
    return float(m.group(1).rstrip("."))


DEVICE_FIELDS = ("sms", "sm_mhz", "mem_mhz", "bus_bits", "mem_gib", "l2_mib", "peak_gbps", "peak_gflops")


def device(claim, where, root):
    """A field of the GPU's line in data/<gpu>/bench/devices.txt (its fields counted from the end)."""
    folder = os.path.dirname(where["file"])
    with open(os.path.join(root, folder, "bench", "devices.txt")) as f:
        for line in f:
            tok = line.split()
            if len(tok) >= 12 and tok[-1] == folder:
                return float(tok[len(tok) - 9 + DEVICE_FIELDS.index(claim["what"])])
    raise ValueError(f"{folder}/bench/devices.txt: no line for {folder}")


def recompute(claim, rows):
    """The claim's number as the findings would print it, and the value, from the CSV rows."""
    f = claim["formula"]
    if f == "count":
        items = claim["items"]
        predicate(claim, items, rows.data)
        return [str(len(items))], len(items)
    if f == "mean":
        v = sum(number(rows.data.at(i)[claim["column"]]) for i in claim["items"]) / len(claim["items"])
        return texts(claim["format"], v), v
    if f == "setting":
        v = setting(claim, rows.data.root, rows.data.sources) * claim["scale"]
        return texts(claim["format"], v), v
    if f == "key":
        row = rows.data.at(claim["rows"][0])
        if not key_text(claim, row):
            raise ValueError(f"'{claim['text']}' is not the row's {claim['column']}")
        return [claim["text"]], 0
    if f == "device":
        v = device(claim, claim["rows"][0], rows.data.root)
        return texts(claim["format"], v), v
    if f == "verdict":
        r = compare(rows.data.side(claim["rows"][0]), rows.data.side(claim["rows"][1]))
        v = r[("ratio", "lo", "hi").index(claim["what"])]
        return texts("f3", v), v
    rows = [rows.data.ok(w) for w in claim["rows"]]
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
    if f == "cell":
        col = claim["column"]
        if col == "dram_bytes":
            v = number(a["dram_read_bytes"]) + number(a["dram_write_bytes"])
        elif col == "spread_pct":
            v = 100 * (number(a["time_ms_max"]) - number(a["time_ms_min"])) / number(a["time_ms_median"])
        else:
            v = number(a[col])
        return texts(claim["format"], v), v
    if f == "change":
        x, y = number(a[claim["column"]]), number(b[claim["column"]])
        v = 100 * (1 - x / y) if claim["what"] == "less" else 100 * (x / y - 1)
        return texts(claim["format"], v), v
    if f == "compulsory":
        v = compulsory(a)
        return texts(claim["format"], v), v
    if f == "declared":
        v = 100 * compulsory(a) / (number(a["time_ms_median"]) * 1e-3) / 1e9 / number(a["peak_gbps"])
        return [fmt_pct(v * s) for s in (1 - 1e-9, 1, 1 + 1e-9)], v
    raise ValueError(f"unknown formula '{f}'")


class Claimed:
    """The rows a claim names, read through Rows."""

    def __init__(self, data):
        self.data = data


def unclaimed(finding):
    """The numbers of a finding's text that no claim prints: key texts (labels, messages)
    taken out first, then each number matched to a claim of its text, each claim once."""
    text = finding["text"]
    for claim in finding["claims"]:
        if claim["formula"] == "key" and not NUMBER.fullmatch(claim["text"]):
            text = text.replace(claim["text"], " ", 1)
    left = {}
    for claim in finding["claims"]:
        if claim["formula"] != "key" or NUMBER.fullmatch(claim["text"]):
            number = NUMBER.match(claim["text"])  # "268.4 M": its number
            key = number.group(0) if number else claim["text"]
            left[key] = left.get(key, 0) + 1
    missing = []
    for m in NUMBER.finditer(text):
        if left.get(m.group(0), 0) > 0:
            left[m.group(0)] -= 1
        else:
            missing.append(m.group(0))
    return missing


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
        numbers += len(NUMBER.findall(text))
        missing = unclaimed(finding)
        if missing:
            failures.append(f"'{finding['lead']}' ({' '.join(inputs) or 'data/'}): numbers without a claim: "
                            f"{', '.join(missing)}")
        document = finding.get("document", "README.md")
        if finding["lead"] not in docs.get(document, ""):
            failures.append(f"finding '{finding['lead']}' is not in {document}")
        for line in text.split("\n"):  # the summary's lines, each a bullet of its own
            if line.startswith("- ") and line[2:].replace("\\", "") not in docs.get(document, ""):
                failures.append(f"'{finding['lead']}': '{line[2:60]}...' is not in {document}")
        for claim in finding["claims"]:
            claims += 1
            where = claim["rows"][0] if claim["rows"] else {"file": "?", "line": 0}
            try:
                shown, value = recompute(claim, Claimed(rows))
                if claim["text"] not in shown:
                    failures.append(f"{where['file']}:{where['line']}: '{finding['lead']}' prints {claim['text']} "
                                    f"({claim['formula']}), the CSV gives {value:.6g} = {shown[1]}")
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
              f"({numbers} numbers in their text, each one a claim's)")
        if not inputs and claims < MIN_CLAIMS:
            failures.append(f"only {claims} claims recorded on data/, expected at least {MIN_CLAIMS}")
    for line in failures:
        print("FAIL", line)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
