#!/usr/bin/env python3
"""energy_compare.py MMBENCH_LOG NVIDIA_SMI_CSV [RUN_CSV] - mmbench's energy windows against
nvidia-smi's own reads of the board's energy (scripts/gpu/energy-check.sh). The log is
`mmbench run -v`'s: each '  energy: P W over ... window A to B s since 1970' line is one
window. The nvidia-smi CSV is `--query-gpu=timestamp,total_energy_consumption,power.draw
--format=csv -lms N` (or without the energy field). Per window: nvidia-smi's power as the
least-squares slope of its energy counter over the samples inside the window (the counter
moves in steps of its update interval; the slope over many steps is their mean), and the
mean of its power.draw samples there; the difference from mmbench's power in percent.
With RUN_CSV, its rows' power_w and energy_j are listed too. Exit status 1 when no window
was compared or one differs by more than 5% (on the counter where there is one)."""
import csv
import re
import sys
from datetime import datetime

WINDOW = re.compile(r'energy: ([0-9.]+) W over ([0-9.]+) s .*window ([0-9.]+) to ([0-9.]+) s since 1970')
LIMIT_PCT = 5.0


def windows(log):
    with open(log) as f:
        return [tuple(float(x) for x in m.groups()) for m in map(WINDOW.search, f) if m]


def number(cell):
    """'123.45 W' or '123.45' -> 123.45; None for '[N/A]' and the like."""
    try:
        return float(cell.strip().split()[0])
    except (ValueError, IndexError):
        return None


def samples(path):
    """[(seconds since 1970, energy in J or None, power in W or None)] and the energy field's unit."""
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0] or not rows[0][0].strip().startswith('timestamp'):
        sys.exit(f'{path}: not nvidia-smi --query-gpu CSV output; first line: {rows[0] if rows else "(empty)"}')
    head = [h.strip() for h in rows[0]]
    e_col = next((i for i, h in enumerate(head) if h.startswith('total_energy_consumption')), None)
    p_col = next((i for i, h in enumerate(head) if h.startswith('power.draw')), None)
    unit = head[e_col].split('[')[-1].rstrip(']') if e_col is not None and '[' in head[e_col] else 'mJ'
    scale = {'mJ': 1e-3, 'J': 1.0, 'kJ': 1e3}.get(unit)
    if e_col is not None and scale is None:
        sys.exit(f'{path}: total_energy_consumption in {unit}; expected mJ, J or kJ')
    out = []
    for r in rows[1:]:
        if len(r) != len(head):
            continue
        try:
            t = datetime.strptime(r[0].strip(), '%Y/%m/%d %H:%M:%S.%f').timestamp()
        except ValueError:
            continue
        e = number(r[e_col]) if e_col is not None else None
        p = number(r[p_col]) if p_col is not None else None
        out.append((t, e * scale if e is not None else None, p))
    return out, e_col is not None


def slope(points):
    n = len(points)
    mx = sum(t for t, _ in points) / n
    my = sum(e for _, e in points) / n
    sxx = sum((t - mx) ** 2 for t, _ in points)
    return sum((t - mx) * (e - my) for t, e in points) / sxx if sxx > 0 else None


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    wins = windows(argv[1])
    smi, have_counter = samples(argv[2])
    print(f'{len(wins)} mmbench energy windows; {len(smi)} nvidia-smi samples '
          f'({"energy counter and power.draw" if have_counter else "power.draw only: no total_energy_consumption"})')
    print(f'{"window (s)":>11} {"mmbench W":>10} {"smi counter W":>14} {"diff %":>7} {"smi power.draw W":>17} '
          f'{"diff %":>7} {"samples":>8}')
    worst, compared = 0.0, 0
    for p, length, a, b in wins:
        inside = [s for s in smi if a <= s[0] <= b]
        energy = [(t, e) for t, e, _ in inside if e is not None]
        draw = [w for _, _, w in inside if w is not None]
        counter_w = slope(energy) if len(energy) >= 3 else None
        draw_w = sum(draw) / len(draw) if draw else None
        d_counter = 100.0 * (p - counter_w) / counter_w if counter_w else None
        d_draw = 100.0 * (p - draw_w) / draw_w if draw_w else None
        checked = d_counter if have_counter else d_draw
        if checked is not None:
            compared += 1
            worst = max(worst, abs(checked))
        f = lambda v, spec: format(v, spec) if v is not None else '-'.rjust(int(spec.split('.')[0]))
        print(f'{length:11.3f} {p:10.1f} {f(counter_w, "14.1f")} {f(d_counter, "7.2f")} {f(draw_w, "17.1f")} '
              f'{f(d_draw, "7.2f")} {len(inside):8d}')
    if len(argv) == 4:
        with open(argv[3], newline='') as fh:
            rows = list(csv.DictReader(fh))
        print(f'\n{len(rows)} rows in {argv[3]}:')
        for r in rows:
            print(f'  {r.get("kernel", "?"):10} {r.get("params", ""):60.60} {r.get("status", "?"):8} '
                  f'power_w={r.get("power_w", "")} energy_j={r.get("energy_j", "")} '
                  f'gflops_per_watt={r.get("gflops_per_watt", "")} throttle={r.get("throttle", "")} '
                  f'sm_clock={r.get("sm_clock_min_mhz", "")}..{r.get("sm_clock_max_mhz", "")}')
    verdict = 'agree' if compared and worst <= LIMIT_PCT else 'DISAGREE' if compared else 'NOT COMPARED'
    print(f'\n{verdict}: {compared} windows compared on nvidia-smi\'s '
          f'{"energy counter" if have_counter else "power.draw"}, largest difference {worst:.2f}% '
          f'(limit {LIMIT_PCT}%)')
    return 0 if verdict == 'agree' else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
