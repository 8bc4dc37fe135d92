#!/usr/bin/env python3
"""ladder_table.py CSV... - the ladder's table from `mmbench run` CSVs: for each kernel
(in the order the CSV first names it) and size, its fastest ok configuration with
median ms, GFLOP/s, speed-up over the step above it (steps are naive and the kernels
whose names start with a digit), % of cuBLAS at that size and registers, then every row that is not ok (the exit status is 1 when there is one)."""
import csv
import sys


def main(paths):
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
    dtypes = sorted({d for (_, _, d) in best})
    for d in dtypes:
        for size in sizes:
            ref = best.get(('cublas', size, d))
            name = 'x'.join(map(str, size)) if len(set(size)) > 1 else str(size[0])
            print(f'\n{name} {d}' + (f'  (cuBLAS {float(ref["time_ms_median"]):.4f} ms)' if ref else ''))
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
    ok = sum(1 for r in rows if r['status'] == 'ok')
    print(f'\nrows: {len(rows)}, ok {ok}, not ok {len(bad)}')
    for r in bad:
        print(f'  NOT OK {r["kernel"]} {r["params"]} {r["dtype"]} {r["m"]}x{r["n"]}x{r["k"]}: '
              f'{r["status"]} {r["max_rel_err"]} {r["reason"][:160]}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
