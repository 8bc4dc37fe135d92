#!/usr/bin/env python3
"""ladder_table.py [--summary | --failures N] CSV... - the ladder's table from `mmbench run`
CSVs: for each kernel (in the order the CSV first names it) and size, its fastest ok
configuration with median ms, GFLOP/s, speed-up over the step above it (steps are naive
and the kernels whose names start with a digit), % of cuBLAS at that size (same dtype)
and registers, then every row that is neither ok nor restricted. --summary prints only
each kernel's % of cuBLAS, a line per kernel and a column per size, per dtype (with
cuBLAS's TFLOP/s); --failures N only the row counts and the first N rows that are not
ok. The exit status is 1 when there is such a row."""
import argparse
import csv
import sys


def size_name(size):
    return 'x'.join(map(str, size)) if len(set(size)) > 1 else str(size[0])


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline='') as f:
            rows += list(csv.DictReader(f))
    order, sizes, best, bad = [], [], {}, []
    for r in rows:
        k = r['kernel']
        size = (int(r['m']), int(r['n']), int(r['k']))
        if k not in order:
            order.append(k)
        if size not in sizes:
            sizes.append(size)
        if r['status'] != 'ok':
            if r['status'] != 'restricted':
                bad.append(r)
            continue
        key = (k, size, r['dtype'])
        if key not in best or float(r['time_ms_median']) < float(best[key]['time_ms_median']):
            best[key] = r
    return rows, order, sizes, best, bad


def full(order, sizes, best):
    for d in sorted({d for (_, _, d) in best}):
        for size in sizes:
            ref = best.get(('cublas', size, d))
            print(f'\n{size_name(size)} {d}' + (f'  (cuBLAS {float(ref["time_ms_median"]):.4f} ms)' if ref else ''))
            print(f'  {"kernel":<22} {"ms":>10} {"GFLOP/s":>9} {"x prev":>6} {"%cuBLAS":>8} {"regs":>5}  params')
            prev = None
            for k in order:
                r = best.get((k, size, d))
                if not r:
                    continue
                g = float(r['gflops'])
                pct = f'{100 * g / float(ref["gflops"]):.1f}' if ref else '-'
                is_step = k == 'naive' or k[:1].isdigit()
                up = f'{g / prev:.2f}' if prev and is_step else ''
                print(f'  {k:<22} {float(r["time_ms_median"]):>10.4f} {g:>9.0f} {up:>6} {pct:>8} '
                      f'{r["registers"]:>5}  {r["params"]}')
                if is_step:
                    prev = g


def summary(order, sizes, best):
    for d in sorted({d for (_, _, d) in best}):
        cols = [s for s in sizes if any((k, s, d) in best for k in order)]
        widths = [max(6, len(size_name(s))) for s in cols]
        print(f'{d}: % of cuBLAS ({d}), each kernel at its fastest configuration')
        print(f'  {"kernel":<22}' + ''.join(f' {size_name(s):>{w}}' for s, w in zip(cols, widths)))
        for k in order:
            if k == 'cublas' or not any((k, s, d) in best for s in cols):
                continue
            cells = []
            for s, w in zip(cols, widths):
                r, ref = best.get((k, s, d)), best.get(('cublas', s, d))
                cells.append(f'{100 * float(r["gflops"]) / float(ref["gflops"]):.1f}' if r and ref else '-')
            print(f'  {k:<22}' + ''.join(f' {c:>{w}}' for c, w in zip(cells, widths)))
        cells = [f'{float(best[("cublas", s, d)]["gflops"]) / 1000:.0f}' if ('cublas', s, d) in best else '-'
                 for s in cols]
        print(f'  {"cuBLAS TFLOP/s":<22}' + ''.join(f' {c:>{w}}' for c, w in zip(cells, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('csv', nargs='+')
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument('--summary', action='store_true', help="each kernel's %% of cuBLAS per size and dtype only")
    mode.add_argument('--failures', type=int, metavar='N', help='the row counts and the first N rows not ok only')
    a = ap.parse_args()
    rows, order, sizes, best, bad = load(a.csv)
    if a.summary:
        summary(order, sizes, best)
        return 1 if bad else 0
    if a.failures is None:
        full(order, sizes, best)
        print()
    ok = sum(1 for r in rows if r['status'] == 'ok')
    restricted = sum(1 for r in rows if r['status'] == 'restricted')
    print(f'rows: {len(rows)}, ok {ok}, restricted {restricted}, not ok {len(bad)}')
    shown = bad if a.failures is None else bad[:a.failures]
    for r in shown:
        print(f'  NOT OK {r["kernel"]} {r["params"]} {r["dtype"]} {r["m"]}x{r["n"]}x{r["k"]}: '
              f'{r["status"]} {r["max_rel_err"]} {r["reason"][:160]}')
    if len(shown) < len(bad):
        print(f'  ... and {len(bad) - len(shown)} more')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
