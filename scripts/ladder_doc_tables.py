#!/usr/bin/env python3
"""ladder_doc_tables.py LADDER.csv... - the TFLOP/s and % of cuBLAS tables of
docs/ladder.md: per CSV (data/<gpu>/ladder.csv), each kernel's fastest ok row at each of
the ladder's sizes, in the CSV's kernel order, as Markdown."""
import csv
import sys

SIZES = [('512',) * 3, ('1024',) * 3, ('2048',) * 3, ('4096',) * 3, ('8192',) * 3,
         ('2048', '8192', '1024'), ('8192', '2048', '4096'), ('1024', '4096', '8192')]


def label(s):
    return s[0] if s[0] == s[1] == s[2] else 'x'.join(s)


def load(path):
    order, best = [], {}
    for r in csv.DictReader(open(path)):
        if r['status'] != 'ok':
            continue
        if r['kernel'] not in order:
            order.append(r['kernel'])
        key = (r['kernel'], r['m'], r['n'], r['k'])
        if key not in best or float(r['time_ms_median']) < float(best[key]['time_ms_median']):
            best[key] = r
    return order, best


def table(title, order, cell):
    print('\n%s:\n' % title)
    print('| step | ' + ' | '.join(label(s) for s in SIZES) + ' |')
    print('| --- ' * (len(SIZES) + 1) + '|')
    for k in order:
        cells = [cell(k, s) for s in SIZES]
        if any(c is not None for c in cells):
            print('| %s | %s |' % (k.replace('_', '\\_'), ' | '.join(c or '-' for c in cells)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        order, best = load(path)
        gpu = next(iter(best.values()))['gpu'] if best else path

        def tflops(k, s):
            r = best.get((k,) + s)
            return '%.1f' % (2 * int(s[0]) * int(s[1]) * int(s[2]) / float(r['time_ms_median']) / 1e9) if r else None

        def share(k, s):
            r, c = best.get((k,) + s), best.get(('cublas',) + s)
            if k == 'cublas' or not r or not c:
                return None
            return '%.1f' % (100 * float(c['time_ms_median']) / float(r['time_ms_median']))

        table('%s, TFLOP/s' % gpu, order, tflops)
        table('%s, %% of cuBLAS in the same run' % gpu, order, share)


if __name__ == '__main__':
    main()
