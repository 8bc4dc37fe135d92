#!/usr/bin/env python3
"""test_reader.py MMBENCH COLUMNS_JSON CSV_TO_JSONL SOURCE_ROOT - python/mmbench_reader.py,
the Python reader of mmbench's results, against the program itself:

  - the column table it reads is the one `mmbench columns` prints (the installed
    columns.json is that output), and every column has a type the reader knows;
  - a measured CSV of data/ reads into records of the table's types (int, float, str,
    None for an empty cell), every status one of the status table's;
  - the same rows as JSON lines, written by the C serializer that `run --format jsonl`
    uses, read into the same records, value for value;
  - a measured CSV of the precisions (docs/precisions/, H100) reads alike from CSV and
    JSON lines: the tensor-core dtypes f16, bf16, tf32, e4m3 and i8, each row's pipe one of the pipe table's, the
    tensor counters and pipe_pct as numbers;
  - bad cells are refused with the file, the line and what was expected;
  - with pandas installed, the records make a DataFrame of the columns' types.
Exits 0, or 1 with each failure on stderr.
"""
import json
import math
import os
import subprocess
import sys
import tempfile


def main():
    mmbench, columns_json, to_jsonl, root = sys.argv[1:5]
    sys.path.insert(0, os.path.join(root, "python"))
    import mmbench_reader as mr

    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    # the table: the file the build installs is what the program prints
    printed = json.loads(subprocess.run([mmbench, "columns"], check=True, capture_output=True, text=True).stdout)
    with open(columns_json, encoding="utf-8") as f:
        check(json.load(f) == printed, "columns.json differs from `mmbench columns`")
    cols = mr.load_columns(columns_json)
    check(len(cols) == len(printed["columns"]) and len(cols) > 40, f"{len(cols)} columns")
    check(mr.load_columns(mmbench=mmbench).names == cols.names, "`mmbench columns` read through load_columns")
    for c in cols:
        check(c["type"] in mr.TYPES, f"column {c['name']}: type {c['type']}")
    for name, kind in (("m", "int"), ("time_ms_median", "real"), ("status", "status"), ("kernel", "text")):
        check(cols.by_name[name]["type"] == kind, f"column {name} is {cols.by_name[name]['type']}, not {kind}")
    statuses = cols.by_name["status"]["values"]
    check("ok" in statuses and "wrong_result" in statuses, f"status values {statuses}")

    # a measured CSV
    csv_path = os.path.join(root, "data", "h100-80gb-hbm3", "course.csv")
    rows = mr.read(csv_path, cols)
    with open(csv_path, encoding="utf-8") as f:
        lines = sum(1 for _ in f) - 1
    check(len(rows) == lines and lines > 0, f"{len(rows)} records of {lines} rows")
    for r in rows:
        check(list(r)[: len(cols)] == cols.names, "record keys in column order")
        check(isinstance(r["m"], int) and r["m"] >= 1, f"m = {r['m']!r}")
        check(r["status"] in statuses, f"status {r['status']!r}")
        check(r["time_ms_median"] is None or isinstance(r["time_ms_median"], float), "time_ms_median")
        check(r["status"] != "ok" or r["time_ms_median"] > 0, "an ok row has its time")
        for c in cols:
            v = r[c["name"]]
            want = {"int": int, "real": float, "text": str, "status": str}[c["type"]]
            check(v is None or type(v) is want, f"{c['name']} = {v!r} is not {want.__name__}")

    # the same rows as JSON lines from the C serializer of run --format jsonl
    jsonl = subprocess.run([to_jsonl, csv_path], check=True, capture_output=True, text=True).stdout
    check(len(jsonl.splitlines()) == len(rows), "one JSON line per row")
    first = json.loads(jsonl.splitlines()[0])
    check(list(first) == cols.names, "a JSON line has the table's columns in order")
    check(isinstance(first["m"], int) and isinstance(first["time_ms_median"], float), "JSON number types")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rows.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(jsonl)
        from_json = mr.read(path, cols)
        check(from_json == rows, "JSON lines and CSV read into different records")
        # the program form writes JSON lines that read back the same
        out = subprocess.run([sys.executable, os.path.join(root, "python", "mmbench_reader.py"), csv_path],
                             check=True, capture_output=True, text=True,
                             env=dict(os.environ, MMBENCH_COLUMNS=columns_json)).stdout
        check(mr.read_jsonl(_write(tmp, "py.jsonl", out), cols) == rows,
              "mmbench_reader.py's JSON lines read back differently")

        # every precision: the dtypes, their pipes and the tensor counters
        prec_path = os.path.join(root, "docs", "precisions", "h100", "dev-run2", "precisions.csv")
        prec = mr.read(prec_path, cols)
        prec_json = subprocess.run([to_jsonl, prec_path], check=True, capture_output=True, text=True).stdout
        check(mr.read(_write(tmp, "prec.jsonl", prec_json), cols) == prec,
              "the precisions' JSON lines and CSV read into different records")
        dtypes, pipes = cols.by_name["dtype"]["values"], cols.by_name["pipe"]["values"]
        check(cols.by_name["pipe"]["domain"] == "pipe" and "tensor_fp8" in pipes, f"pipe values {pipes}")
        seen = {r["dtype"] for r in prec}
        check(seen <= set(dtypes) and {"f16", "bf16", "tf32", "e4m3", "i8"} <= seen, f"precisions' dtypes {seen}")
        for r in prec:
            check(r["pipe"] in pipes, f"pipe {r['pipe']!r}")
            check(r["status"] != "ok" or isinstance(r["pipe_pct"], float), f"{r['kernel']} {r['dtype']}: pipe_pct")
        check(any(r["pipe"].startswith("tensor_") and isinstance(r["tensor_pct"], float) and r["tensor_pct"] > 0
                  and isinstance(r["tensor_inst"], float) for r in prec), "no row with its tensor counters")

        # inf, empty cells, bad cells
        header = ",".join(cols.names)
        good = rows[0].copy()
        good["max_rel_err"] = math.inf
        good["noise_pct"] = None
        line = ",".join(_cell(good[n]) for n in cols.names)
        back = mr.read(_write(tmp, "inf.csv", f"{header}\n{line}\n"), cols)[0]
        check(back["max_rel_err"] == math.inf and back["noise_pct"] is None, "inf and an empty cell")
        jback = mr.read(_write(tmp, "inf.jsonl", json.dumps({**{k: v for k, v in good.items()},
                                                            "max_rel_err": "inf"}) + "\n"), cols)[0]
        check(jback["max_rel_err"] == math.inf, "inf in a JSON line")
        for col, cell, expect in (("m", "12x", "column 'm': expected an integer, found '12x'"),
                                  ("m", "0", "column 'm': expected an integer of at least 1"),
                                  ("time_ms_median", "nan", "column 'time_ms_median': expected a number"),
                                  ("status", "fine", "column 'status': expected one of ok, "),
                                  ("dtype", "f99", "column 'dtype': expected one of "),
                                  ("pipe", "tensor_f99", "column 'pipe': expected one of fp32, ")):
            bad = dict(good, **{col: cell})
            text = f"{header}\n{line}\n" + ",".join(_cell(bad[n]) for n in cols.names) + "\n"
            path = _write(tmp, "bad.csv", text)
            try:
                mr.read(path, cols)
                check(False, f"{col}={cell!r} was read")
            except ValueError as e:
                check(str(e).startswith(f"{path}:3: ") and expect in str(e), f"message: {e}")
        try:
            mr.read(_write(tmp, "bad.jsonl", '{"kernel": "k"}\n[1]\n'), cols)
            check(False, "a JSON line without the required columns was read")
        except ValueError as e:
            check(":1: column '" in str(e) and "expected a value" in str(e), f"message: {e}")

    # pandas, where installed
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("test_reader: pandas is not installed: to_dataframe not checked")
    else:
        df = mr.to_dataframe(rows, cols)
        check(len(df) == len(rows) and list(df.columns)[: len(cols)] == cols.names, "DataFrame shape")
        check(str(df["m"].dtype) == "Int64" and str(df["time_ms_median"].dtype) == "float64", "DataFrame dtypes")
        check(str(df["status"].dtype) == "category", "status as a category")

    for f in failures:
        print(f"test_reader: {f}", file=sys.stderr)
    if not failures:
        print(f"test_reader: {len(rows)} rows of {os.path.relpath(csv_path, root)} and {len(prec)} of "
              f"{os.path.relpath(prec_path, root)} read alike from CSV and JSON lines, {len(cols)} columns, bad cells "
              "refused with file:line")
    return 1 if failures else 0


def _write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, float) and math.isinf(v):
        return "inf"
    if isinstance(v, float):
        return repr(v)
    text = str(v)
    return '"' + text.replace('"', '""') + '"' if any(ch in text for ch in ',"\n\r') else text


if __name__ == "__main__":
    sys.exit(main())
