"""mmbench_reader - mmbench's results (CSV files, JSON lines) as typed records.

Standard library only; with pandas installed, to_dataframe() gives a DataFrame with
each column's type. The names, types and allowed values of the columns come from
mmbench's own column table (`mmbench columns`, installed as share/mmbench/columns.json),
never from a list kept here, so a column mmbench adds is read with its type at once.

    import mmbench_reader as mr
    rows = mr.read("data/h100-80gb-hbm3/course.csv")      # or a .jsonl file, or "-"
    ok = [r for r in rows if r["status"] == "ok"]
    df = mr.to_dataframe(rows)                             # pandas, when installed

A record is a dict in the table's column order: an int column gives int, a real column
float (inf where the CSV says inf), a text or status column str, and an empty cell
(not measured) None. A cell outside its column's type or allowed values raises
ValueError naming the file, the line and what was expected, as mmbench does.

Run as a program, it writes each row of the files named as one JSON line, as `mmbench
run --format jsonl` does: python3 mmbench_reader.py data/h100-80gb-hbm3/course.csv
"""

import csv
import json
import math
import os
import shutil
import subprocess
import sys

__all__ = ["Columns", "load_columns", "read", "read_csv", "read_jsonl", "to_dataframe"]

TYPES = ("text", "int", "real", "status")


class Columns:
    """The column table: each column's name, type, role, unit, description and the values
    a column of names allows (mmbench columns)."""

    def __init__(self, table):
        cols = table.get("columns") if isinstance(table, dict) else None
        if not isinstance(cols, list) or not cols:
            raise ValueError("a column table: expected {\"columns\": [...]}, as `mmbench columns` prints it")
        for c in cols:
            if not isinstance(c, dict) or not isinstance(c.get("name"), str) or c.get("type") not in TYPES:
                raise ValueError(f"column table: expected a name and a type of {', '.join(TYPES)}, found {c!r}")
        self.columns = cols
        self.names = [c["name"] for c in cols]
        self.by_name = {c["name"]: c for c in cols}

    def __iter__(self):
        return iter(self.columns)

    def __len__(self):
        return len(self.columns)

    def value(self, name, cell, where="", line=0):
        """A cell as the CSV holds it (text) or as a JSON line holds it, as its column's
        type, checked against its column's domain; None when empty. A column the table
        lacks keeps its cell."""
        col = self.by_name.get(name)
        if col is None:
            return cell
        if cell is None or cell == "":
            return None
        kind = col["type"]
        v = _int(cell) if kind == "int" else _real(cell) if kind == "real" else cell if isinstance(cell, str) else None
        problem = _EXPECTED[kind] if v is None else _domain(col, v)
        if problem:
            raise ValueError(f"{where}:{line}: column '{name}': expected {problem}, found {cell!r}")
        return v


_EXPECTED = {"int": "an integer", "real": "a number", "text": "text", "status": "a status"}


def _int(cell):
    if isinstance(cell, bool):
        return None
    if isinstance(cell, int):
        return cell
    if isinstance(cell, str):
        t = cell[1:] if cell[:1] in "+-" else cell
        return int(cell) if t.isdigit() and t.isascii() else None
    return None


def _real(cell):
    if isinstance(cell, bool) or not isinstance(cell, (int, float, str)):
        return None
    try:
        v = float(cell)
    except (ValueError, OverflowError):
        return None
    return None if math.isnan(v) else v


def _domain(col, v):
    """None when v is in the column's domain (as mmbench's reader checks it), else what
    was expected."""
    values, domain = col.get("values"), col.get("domain")
    if values:
        return None if v in values else "one of " + ", ".join(values)
    if domain == "throttle":
        words = v.split("+")
        known = col.get("words", [])
        ok = v == "none" or (len(set(words)) == len(words) and all(w in known for w in words))
        return None if ok else "'none' or words of " + ", ".join(known) + " joined by '+', each once"
    if isinstance(v, str):
        return None
    if domain == "count":
        return None if v >= 1 else "an integer of at least 1"
    if domain == "nonnegative":
        return None if math.isfinite(v) and v >= 0 else "a finite number of at least 0"
    if domain == "error":
        return None if v >= 0 else "a number of at least 0, or inf"
    if domain == "positive":
        return None if math.isfinite(v) and 1e-300 <= v <= 1e300 else "a number greater than 0 (from 1e-300 to 1e300)"
    return None if math.isfinite(v) else "a finite number"


def load_columns(path=None, mmbench=None):
    """The column table: from path; else $MMBENCH_COLUMNS; else columns.json in the folder
    above this module (share/mmbench/ when installed); else `mmbench columns` (mmbench
    on PATH, or the program named)."""
    for candidate in (path, os.environ.get("MMBENCH_COLUMNS"),
                      os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "columns.json")):
        if candidate and (candidate == path or os.path.isfile(candidate)):
            with open(candidate, encoding="utf-8") as f:
                return Columns(json.load(f))
    program = mmbench or shutil.which("mmbench")
    if not program:
        raise FileNotFoundError("no column table: name columns.json (mmbench columns > columns.json), set "
                                "MMBENCH_COLUMNS, or put mmbench on PATH")
    out = subprocess.run([program, "columns"], check=True, capture_output=True, text=True).stdout
    return Columns(json.loads(out))


def _columns(columns):
    return columns if isinstance(columns, Columns) else load_columns(columns)


def _open(path):
    return (sys.stdin, "<stdin>") if path == "-" else (open(path, encoding="utf-8", newline=""), path)


def read_csv(path, columns=None):
    """Every row of an mmbench CSV (records may end with LF, CR LF or CR), typed."""
    cols = _columns(columns)
    f, where = _open(path)
    try:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            raise ValueError(f"{where}:1: expected the header of an mmbench CSV, found an empty file")
        missing = [c["name"] for c in cols if c.get("required") in ("column", "value") and c["name"] not in header]
        if missing:
            raise ValueError(f"{where}:1: expected the column{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(missing)} in the header")
        rows = []
        for fields in reader:
            line = reader.line_num
            if len(fields) != len(header):
                raise ValueError(f"{where}:{line}: expected {len(header)} fields, found {len(fields)}")
            rows.append(_record(cols, dict(zip(header, fields)), where, line))
        return rows
    finally:
        if f is not sys.stdin:
            f.close()


def read_jsonl(path, columns=None):
    """Every row of JSON lines (mmbench run/tune --format jsonl), typed; blank lines skipped."""
    cols = _columns(columns)
    f, where = _open(path)
    rows = []
    try:
        for line, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise ValueError(f"{where}:{line}: expected one JSON object, {e.msg}") from None
            if not isinstance(obj, dict):
                raise ValueError(f"{where}:{line}: expected one JSON object, found {type(obj).__name__}")
            rows.append(_record(cols, obj, where, line))
        return rows
    finally:
        if f is not sys.stdin:
            f.close()


def read(path, columns=None):
    """A CSV file (*.csv) or JSON lines (anything else, - for stdin)."""
    return read_csv(path, columns) if str(path).endswith(".csv") else read_jsonl(path, columns)


def _record(cols, cells, where, line):
    rec = {}
    for name in cols.names:
        rec[name] = cols.value(name, cells.get(name), where, line)
        if cols.by_name[name].get("required") == "value" and rec[name] is None:
            raise ValueError(f"{where}:{line}: column '{name}': expected a value, found an empty cell")
    for name, cell in cells.items():
        if name not in rec:
            rec[name] = cell
    return rec


def to_dataframe(records, columns=None):
    """The records as a pandas DataFrame, in the table's column order: int columns as the
    nullable Int64, real as float64 (None as NaN), columns of names as categories, text
    as strings. Needs pandas."""
    import pandas as pd

    cols = _columns(columns)
    frame = pd.DataFrame.from_records(list(records), columns=None if records else cols.names)
    for c in cols:
        name = c["name"]
        if name not in frame:
            continue
        if c["type"] == "int":
            frame[name] = frame[name].astype("Int64")
        elif c["type"] == "real":
            frame[name] = frame[name].astype("float64")
        elif c.get("values"):
            frame[name] = pd.Categorical(frame[name], categories=c["values"])
        else:
            frame[name] = frame[name].astype("string")
    return frame


def _json_cell(v):
    return "inf" if isinstance(v, float) and math.isinf(v) and v > 0 else v


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    try:
        cols = load_columns()
        for path in argv:
            for rec in read(path, cols):
                print(json.dumps({k: _json_cell(v) for k, v in rec.items()}, separators=(",", ":")))
    except (OSError, ValueError) as e:
        print(f"mmbench_reader: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
