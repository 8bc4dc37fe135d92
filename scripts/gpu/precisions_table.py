#!/usr/bin/env python3
"""precisions_table.py CSV... - the precision picture from `mmbench run` CSVs of
profiles/precisions.ini: per size and dtype, cuBLAS and each own kernel's fastest ok
row with TFLOP/s (TOP/s for i8), the pipe its peak is of, that peak, pipe_pct,
tensor_pct and max_rel_err; then every row that is neither ok nor restricted (exit
status 1 when there is one)."""
import csv
import sys


def num(r, key):
    try:
        return float(r[key])
    except (KeyError, ValueError):
        return float('nan')


def main(paths):
    rows = []
    for p in paths:
        with open(p, newline='') as f:
            rows += list(csv.DictReader(f))
    best, order, sizes, bad = {}, [], [], []
    for r in rows:
        size = (int(r['m']), int(r['n']), int(r['k']))
        if size not in sizes:
            sizes.append(size)
        if r['kernel'] not in order:
            order.append(r['kernel'])
        if r['status'] != 'ok':
            if r['status'] != 'restricted':
                bad.append(r)
            continue
        key = (size, r['dtype'], r['kernel'])
        if key not in best or num(r, 'time_ms_median') < num(best[key], 'time_ms_median'):
            best[key] = r
    dtypes = []
    for r in rows:
        if r['dtype'] not in dtypes:
            dtypes.append(r['dtype'])
    print(f'{"size":>6} {"dtype":<5} {"kernel":<10} {"TFLOP/s":>8} {"pipe":<12} {"peak":>7} {"pipe%":>6} '
          f'{"tensor%":>7} {"max_rel_err":>11}  params')
    for size in sizes:
        name = str(size[0]) if len(set(size)) == 1 else 'x'.join(map(str, size))
        for d in dtypes:
            for k in order:
                r = best.get((size, d, k))
                if not r:
                    continue
                print(f'{name:>6} {d:<5} {k:<10} {num(r, "gflops") / 1000:>8.1f} {r.get("pipe", ""):<12} '
                      f'{num(r, "peak_gflops") / 1000:>7.0f} {num(r, "pipe_pct"):>6.1f} {num(r, "tensor_pct"):>7.1f} '
                      f'{num(r, "max_rel_err"):>11.3g}  {r["params"]}')
    ok = sum(1 for r in rows if r['status'] == 'ok')
    print(f'\nrows: {len(rows)}, ok {ok}, not ok {len(bad)}')
    for r in bad:
        print(f'NOT OK {r["kernel"]} {r["dtype"]} {r["m"]}x{r["n"]}x{r["k"]} {r["params"]}: {r["status"]}: '
              f'{r["reason"][:160]}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
