#!/usr/bin/env python3
"""bench_vs_kt.py - the Kernel Tuner side of scripts/bench-vs-kt.sh, and the rows of its speed.csv.

  bench_vs_kt.py space PROFILE KERNEL
      what Kernel Tuner is given, read from the profile's [kernel KERNEL] section
  bench_vs_kt.py kt PROFILE KERNEL SIZE OUT.json [--iterations 7] [--dry-run]
      tunes the kernel with Kernel Tuner (cupy backend) at SIZE x SIZE x SIZE f32
  bench_vs_kt.py mmbench CSV KERNEL SIZE WARMUP OUT.json [--all-kernels]
      the same summary from an mmbench results CSV
  bench_vs_kt.py row TASK TOOL CACHE WALL_S SUMMARY.json
      one line of speed.csv: task,tool,cache,wall_s,kernel_s,configs,best_params,best_ms
  bench_vs_kt.py phases TASK LOG...
      where a run's or a tune's time went, from the line mmbench prints at its end (and
      the older "mmbench: X s, N configurations: ..." lines), one CSV row per line found:
      task,log,total_s,start_s,session_s,configurations,problems_s,prepare_s,verify_s,
      timing_s,kernels_s,counters_s,passes,setup_s,compile_waits_s,writing_s,other_s,close_s
      (empty where the line does not say)
  bench_vs_kt.py steps TASK LOG...
      where a run's counter time went, from the "counter steps:" line of `run -v`, one
      CSV row per line found: task,log,setup_s,start_s,launches_s,stop_s,wait_s,
      evaluate_s,by_pass (the seconds of each pass number over all measurements,
      "1:0.52;2:0.48;...": the instrumented pass of the SASS counts shows apart)
  bench_vs_kt.py compare A.csv B.csv MIN_SIZE
      two mmbench runs of one profile: how far apart each configuration's medians are, at
      problems whose every dimension is at least MIN_SIZE, with the samples and the noise
      each took (issue 15: within 1% at 1024 and above)

The space Kernel Tuner searches is the profile's, read from it (param.*, restrict,
grid_div_x, grid_div_y, source, function), so that both tools tune the same kernel
source over the same space: seed 002's, as tune_kernel was called in its document.
Both see the same protocol: hot L2, one untimed launch and `iterations` timed ones per
configuration (Kernel Tuner's verification launch is the untimed one; it also runs the
first configuration once before all as its own warm-up), every result checked against
a reference to mmbench's f32 tolerance, max |C - ref| <= 1e-4 max |ref|.

kernel_s is the kernels' own time: for every configuration measured, its timed and
untimed launches times its time (Kernel Tuner: (iterations + 1) x mean; mmbench:
(repeats + warmup) x median). configs counts the configurations measured, best_params
is the fastest as name=value;... in the profile's order, best_ms its time. mmbench's
wall time also holds its cuBLAS reference, which `tune` measures at every problem."""
import argparse
import json
import math
import os
import re
import sys
import time
import types


def say(*args):
    print("bench_vs_kt:", *args, flush=True)


# ---- the profile's kernel section ----


def parse_values(text):
    """A value list of docs/profiles.md: 16, 32 or 1:32:x2 or 0:12:+4, comma-separated."""
    out = []
    for item in (i.strip() for i in text.split(",")):
        m = re.fullmatch(r"(-?\d+):(-?\d+):([x+])(\d+)", item)
        if not m:
            out.append(int(item))
            continue
        a, b, op, step = int(m[1]), int(m[2]), m[3], int(m[4])
        if (op == "x" and (a < 1 or step < 2)) or (op == "+" and step < 1) or b < a:
            raise ValueError(f"bad range '{item}'")
        v = a
        while v <= b:
            out.append(v)
            v = v * step if op == "x" else v + step
    return out


def python_expr(text):
    """A profile expression as Python: C's && and || become and, or; the rest of what a
    restriction of this profile uses (comparisons, * + - /) reads the same."""
    expr = text.replace("&&", " and ").replace("||", " or ")
    compile(expr, "<restriction>", "eval")  # refuse what Python cannot read, here and now
    return expr


def grid_divisor(text):
    """'block_size_x * tile_size_x' -> ['block_size_x', 'tile_size_x'] (Kernel Tuner
    multiplies a list's entries), anything else as Kernel Tuner's string expression."""
    names = [n.strip() for n in text.split("*")]
    if all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
        return names
    return python_expr(text)


def read_kernel(profile, kernel):
    """The [kernel KERNEL] section of profile: source (absolute), function, tune_params in
    the profile's order, restrictions, grid divisors."""
    section, spec = None, {"params": {}, "restrict": [], "grid_div_x": None, "grid_div_y": None}
    with open(profile, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line[0] in ";#":
                continue
            m = re.fullmatch(r"\[\s*(.*?)\s*\]", line)
            if m:
                section = m[1]
                continue
            if section != f"kernel {kernel}":
                continue
            line = re.sub(r"\s;.*$", "", line)  # a comment after a blank
            key, _, value = (s.strip() for s in line.partition("="))
            if key == "source":
                spec["source"] = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(profile)), value))
            elif key == "function":
                spec["function"] = value
            elif key.startswith("param."):
                spec["params"][key[len("param."):]] = parse_values(value)
            elif key == "restrict":
                spec["restrict"].append(python_expr(value))
            elif key in ("grid_div_x", "grid_div_y"):
                spec[key] = grid_divisor(value)
            else:
                raise ValueError(f"{profile}: [kernel {kernel}] key '{key}' has no Kernel Tuner counterpart here")
    if "source" not in spec or "function" not in spec:
        raise ValueError(f"{profile}: no [kernel {kernel}] section with source and function")
    return spec


# ---- Kernel Tuner ----


def import_kernel_tuner():
    """kernel_tuner, importable without jsonschema's and packaging's own dependencies:
    tune_kernel never uses either (they read and check T4 files), so a machine without
    attrs or packaging gets stand-ins for the two, said so on the log."""
    try:
        import kernel_tuner
        return kernel_tuner
    except ModuleNotFoundError as e:
        if e.name not in ("attrs", "jsonschema", "packaging", "referencing", "rpds", "typing_extensions"):
            raise
        say(f"kernel_tuner needs '{e.name}', which this python lacks; standing in for jsonschema and "
            "packaging.requirements (only T4 files use them)")
    for name in list(sys.modules):
        if name.split(".")[0] in ("kernel_tuner", "jsonschema", "referencing", "packaging"):
            del sys.modules[name]
    sys.modules["jsonschema"] = types.ModuleType("jsonschema")
    packaging = types.ModuleType("packaging")
    requirements = types.ModuleType("packaging.requirements")
    requirements.Requirement = type("Requirement", (), {})
    packaging.requirements = requirements
    sys.modules["packaging"], sys.modules["packaging.requirements"] = packaging, requirements
    import kernel_tuner
    return kernel_tuner


def patch_cupy_uuid():
    """Kernel Tuner's cupy backend reads the device's UUID from getDeviceProperties as 16
    bytes for its environment record; on one H100 machine cupy gave it in another form
    and the backend raised before tuning. The UUID is only recorded, so a value that is
    not 16 bytes is padded or cut to 16, said so on the log."""
    import cupy
    runtime = cupy.cuda.runtime
    original = runtime.getDeviceProperties

    def properties(device):
        props = original(device)
        uuid = props.get("uuid")
        if uuid is not None and not (isinstance(uuid, (bytes, bytearray)) and len(uuid) == 16):
            raw = uuid.encode("latin-1") if isinstance(uuid, str) else bytes(uuid)
            say(f"cupy's device UUID is {type(uuid).__name__} of length {len(uuid)}; recorded as 16 bytes")
            props = dict(props)
            props["uuid"] = (raw + bytes(16))[:16]
        return props

    runtime.getDeviceProperties = properties


def params_text(names, config):
    return ";".join(f"{n}={config[n]}" for n in names)


def run_kt(args):
    spec = read_kernel(args.profile, args.kernel)
    names = list(spec["params"])
    t_start = time.perf_counter()
    kt = import_kernel_tuner()
    import numpy as np
    say(f"kernel_tuner {kt.__version__}, numpy {np.__version__}")
    with open(spec["source"], encoding="utf-8") as f:
        # as mmbench's -D elem_t=float -D acc_t=float -D out_t=float for f32
        source = "#define elem_t float\n#define acc_t float\n#define out_t float\n" + f.read()
    n = args.size
    rng = np.random.default_rng(1)
    a = rng.uniform(-1.0, 1.0, (n, n)).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, (n, n)).astype(np.float32)
    c = np.zeros((n, n), dtype=np.float32)
    t0 = time.perf_counter()
    try:
        import cupy as cp
        ref = (cp.asarray(a, dtype=cp.float64) @ cp.asarray(b, dtype=cp.float64)).astype(cp.float32).get()
        how = f"cupy {cp.__version__} in float64"
    except ImportError:
        if not args.dry_run:
            raise
        ref = np.zeros((n, n), dtype=np.float32)
        how = "nothing (dry run without cupy)"
    atol = 1e-4 * float(np.max(np.abs(ref))) if ref.any() else 1e-4
    say(f"inputs {n}x{n} uniform [-1, 1) seed 1, reference by {how} in {time.perf_counter() - t0:.2f} s, atol {atol:.3g}")
    arguments = [c, a, b, np.int32(n), np.int32(n), np.int32(n)]  # (C, A, B, M, N, K)
    kwargs = dict(
        kernel_name=spec["function"], kernel_source=source, problem_size=(n, n), arguments=arguments,
        tune_params=spec["params"], grid_div_x=spec["grid_div_x"], grid_div_y=spec["grid_div_y"],
        restrictions=spec["restrict"] or None, answer=[ref, None, None, None, None, None], atol=atol,
        lang="cupy", iterations=args.iterations, strategy="brute_force", verbose=False, quiet=False)
    say("tune_kernel(" + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()
                                  if k not in ("kernel_source", "arguments", "answer")) + ")")
    if args.dry_run:
        from kernel_tuner.searchspace import Searchspace
        space = Searchspace(spec["params"], spec["restrict"], 1024)
        say(f"dry run: {space.size} configurations within the restrictions and 1024 threads; nothing launched")
        return 0
    patch_cupy_uuid()
    t0 = time.perf_counter()
    results, env = kt.tune_kernel(**kwargs)
    tune_s = time.perf_counter() - t0
    good = [r for r in results if "__error__" not in r and isinstance(r.get("time"), (int, float))
            and math.isfinite(r["time"])]
    say(f"tune_kernel: {tune_s:.2f} s, {len(results)} configurations tried, {len(good)} measured, on "
        f"{env.get('device_name', '?')}")
    split = {k: sum(r.get(k, 0) for r in good) / 1000 for k in
             ("compile_time", "verification_time", "benchmark_time", "framework_time", "strategy_time")}
    say("split over the measured: " + ", ".join(f"{k} {v:.2f} s" for k, v in split.items()))
    summary = {"tool": "kernel_tuner", "configs": len(good), "device": env.get("device_name", ""),
               "tune_s": round(tune_s, 3), "process_s": round(time.perf_counter() - t_start, 3),
               "kernel_s": sum((args.iterations + 1) * r["time"] for r in good) / 1000, **split}
    if good:
        best = min(good, key=lambda r: r["time"])
        summary.update(best_params=params_text(names, best), best_ms=best["time"])
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    say(f"best {summary.get('best_params')} {summary.get('best_ms')} ms -> {args.out}")
    return 0 if good else 1


# ---- mmbench's CSV ----


def run_mmbench(args):
    import csv
    rows, ok = 0, []
    with open(args.csv, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows += 1
            if r["status"] == "ok" and r["time_ms_median"]:
                ok.append(r)
    timed = ok if args.all_kernels else [r for r in ok if r["kernel"] == args.kernel]
    kernel_s = sum((int(r["repeats"]) + args.warmup) * float(r["time_ms_median"]) for r in timed) / 1000
    size = str(args.size)
    best_of = [r for r in ok if r["kernel"] == args.kernel and r["m"] == r["n"] == r["k"] == size and r["dtype"] == "f32"]
    summary = {"tool": "mmbench", "configs": len(timed), "rows": rows, "kernel_s": kernel_s,
               "device": ok[0]["gpu"] if ok else ""}
    if best_of:
        best = min(best_of, key=lambda r: float(r["time_ms_median"]))
        summary.update(best_params=best["params"], best_ms=float(best["time_ms_median"]))
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    say(f"{args.csv}: {rows} rows, {len(timed)} timed, kernels {kernel_s:.2f} s, best {args.kernel} "
        f"{summary.get('best_params')} {summary.get('best_ms')} ms")
    return 0


def run_row(args):
    import csv
    try:
        with open(args.summary, encoding="utf-8") as f:
            s = json.load(f)
    except (OSError, ValueError):
        s = {}  # the step failed: the row says so with empty cells
    best_ms = s.get("best_ms")
    csv.writer(sys.stdout, lineterminator="\n").writerow([
        args.task, args.tool, args.cache, args.wall_s, f"{s['kernel_s']:.3f}" if "kernel_s" in s else "",
        s.get("configs", ""), s.get("best_params", ""), f"{best_ms:.4f}" if best_ms is not None else ""])
    return 0


PHASE_COLUMNS = ["total_s", "start_s", "session_s", "configurations", "problems_s", "prepare_s", "verify_s",
                 "timing_s", "kernels_s", "counters_s", "passes", "setup_s", "compile_waits_s", "writing_s", "other_s",
                 "close_s"]


def phases_of(line):
    """The phases of one summary line, or None: 'mmbench run: 61.2 s: start 0.40 s, session 1.10 s,
    231 configurations: problems 3.1 s, ..., timing 45.1 s (kernels 43.1 s), counters 18.0 s
    (118 passes, set-up 0.90 s), compile waits 0.3 s, writing 0.1 s, other 0.2 s, close 0.3 s',
    tune's 'time: ...', and the older 'mmbench: 57.3 s, 153 configurations: ...'."""
    m = re.match(r"\s*(?:mmbench(?: run)?|time):\s+([0-9.]+) s[:,]\s+(.*)$", line)
    if not m or "configuration" not in m[2]:
        return None
    out = dict.fromkeys(PHASE_COLUMNS, "")
    out["total_s"] = m[1]
    rest = m[2]
    n = re.search(r"(\d+) configurations?:", rest)
    out["configurations"] = n[1] if n else ""
    for name, col in (("start", "start_s"), ("session", "session_s"), ("problems", "problems_s"),
                      ("prepare", "prepare_s"), ("verify", "verify_s"), ("timing", "timing_s"),
                      ("kernels", "kernels_s"), ("counters", "counters_s"), ("set-up", "setup_s"),
                      ("compile waits", "compile_waits_s"), ("writing", "writing_s"), ("other", "other_s"),
                      ("close", "close_s")):
        v = re.search(r"(?:^|[\s(,])" + re.escape(name) + r" ([0-9.]+) s", rest)
        if v:
            out[col] = v[1]
    p = re.search(r"(\d+) passes", rest)
    out["passes"] = p[1] if p else ""
    return out


def rows_of_logs(args, parse, columns):
    """One CSV row on stdout for each line of the logs that parse() reads; 1 if none."""
    import csv
    w = csv.writer(sys.stdout, lineterminator="\n")
    found = 0
    for log in args.logs:
        try:
            lines = open(log, encoding="utf-8", errors="replace").read().splitlines()
        except OSError as e:
            say(f"{log}: {e.strerror}")
            continue
        for line in lines:
            got = parse(line)
            if got:
                w.writerow([args.task, os.path.basename(log)] + [got[c] for c in columns])
                found += 1
    return 0 if found else 1


def run_phases(args):
    return rows_of_logs(args, phases_of, PHASE_COLUMNS)


STEP_COLUMNS = ["setup_s", "start_s", "launches_s", "stop_s", "wait_s", "evaluate_s", "by_pass"]


def steps_of(line):
    """The counter steps of one line, or None: 'mmbench run: counter steps: set-up 0.39 s,
    start 4.95 s, launches 11.78 s, stop 0.76 s, wait 0.00 s, evaluate 0.02 s; by pass:
    1 1.20 s, 2 0.95 s, ...'."""
    m = re.search(r"counter steps:\s*(.*)$", line)
    if not m:
        return None
    out = dict.fromkeys(STEP_COLUMNS, "")
    head, _, passes = m[1].partition("; by pass:")
    for name, col in (("set-up", "setup_s"), ("start", "start_s"), ("launches", "launches_s"), ("stop", "stop_s"),
                      ("wait", "wait_s"), ("evaluate", "evaluate_s")):
        v = re.search(r"(?:^|[\s,])" + re.escape(name) + r" ([0-9.]+) s", head)
        if v:
            out[col] = v[1]
    out["by_pass"] = ";".join(f"{n}:{s}" for n, s in re.findall(r"(\d+) ([0-9.]+) s", passes))
    return out


def run_steps(args):
    return rows_of_logs(args, steps_of, STEP_COLUMNS)


def load_ok(path):
    import csv
    rows = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["time_ms_median"]:
                rows[(r["kernel"], r["params"], r["dtype"], r["m"], r["n"], r["k"], r["cache"])] = r
    return rows


def run_compare(args):
    a, b = load_ok(args.a), load_ok(args.b)
    both = [k for k in a if k in b and min(int(k[3]), int(k[4]), int(k[5])) >= args.min_size]
    if not both:
        say(f"no ok configuration at {args.min_size} and above in both {args.a} and {args.b}")
        return 1
    diffs = []
    for k in both:
        ta, tb = float(a[k]["time_ms_median"]), float(b[k]["time_ms_median"])
        diffs.append((100 * abs(ta - tb) / min(ta, tb), k))
    diffs.sort(reverse=True)
    over = sum(d > 1.0 for d, _ in diffs)
    print(f"{len(diffs)} configurations at {args.min_size} and above in both runs; {over} differ by more than 1%; "
          f"the largest difference {diffs[0][0]:.3f}%, the median one {diffs[len(diffs) // 2][0]:.3f}%")
    for name, rows in (("A", a), ("B", b)):
        stops = {}
        for k in both:
            stop = rows[k].get("stopped_by") or "(none)"
            stops[stop] = stops.get(stop, 0) + 1
        samples = sorted(int(rows[k]["repeats"]) for k in both)
        print(f"run {name}: stopped by " + ", ".join(f"{v} {n}" for n, v in sorted(stops.items())) +
              f"; samples {samples[0]} to {samples[-1]}, median {samples[len(samples) // 2]}")
    print("largest differences: diff_pct kernel params dtype MxNxK cache | median A, B ms | samples A, B | noise A, B %")
    for d, k in diffs[:15]:
        ra, rb = a[k], b[k]
        print(f"  {d:7.3f} {k[0]} {k[1] or '-'} {k[2]} {k[3]}x{k[4]}x{k[5]} {k[6]} | {ra['time_ms_median']}, "
              f"{rb['time_ms_median']} | {ra['repeats']}, {rb['repeats']} | {ra.get('noise_pct', '')}, "
              f"{rb.get('noise_pct', '')}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("space")
    s.add_argument("profile")
    s.add_argument("kernel")
    k = sub.add_parser("kt")
    k.add_argument("profile")
    k.add_argument("kernel")
    k.add_argument("size", type=int)
    k.add_argument("out")
    k.add_argument("--iterations", type=int, default=7)
    k.add_argument("--dry-run", action="store_true")
    m = sub.add_parser("mmbench")
    m.add_argument("csv")
    m.add_argument("kernel")
    m.add_argument("size", type=int)
    m.add_argument("warmup", type=int)
    m.add_argument("out")
    m.add_argument("--all-kernels", action="store_true")
    r = sub.add_parser("row")
    for name in ("task", "tool", "cache", "wall_s", "summary"):
        r.add_argument(name)
    ph = sub.add_parser("phases")
    ph.add_argument("task")
    ph.add_argument("logs", nargs="+")
    cs = sub.add_parser("steps")
    cs.add_argument("task")
    cs.add_argument("logs", nargs="+")
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("min_size", type=int)
    args = p.parse_args()
    if args.cmd == "space":
        print(json.dumps(read_kernel(args.profile, args.kernel), indent=1))
        return 0
    return {"kt": run_kt, "mmbench": run_mmbench, "row": run_row, "compare": run_compare,
            "phases": run_phases, "steps": run_steps}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
