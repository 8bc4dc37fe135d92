#!/usr/bin/env python3
"""energy_compare.py MMBENCH_LOG NVIDIA_SMI_CSV [RUN_CSV] - mmbench's energy windows against
nvidia-smi's own reads of the board's power (scripts/gpu/energy-check.sh).

The log is `mmbench run -v`'s: each '  energy: P W over ... window A to B s since 1970' line
is one window (its start and end are two updates of NVML's energy counter, as times of
day). The nvidia-smi CSV is `nvidia-smi --query-gpu=timestamp,FIELD... --format=csv -lms N`
with any of these fields, each an independent reading of the same board:

  power.draw.instant        the driver's latest power sample. Its time-weighted mean over
                            the window (the samples inside it, each held until the next) is
                            the energy over the window divided by its length.
  total_energy_consumption  NVML's energy counter, read by another process: the
                            least-squares slope of its samples over the window.
  power.draw.average        the power averaged over the last second (NVML's
  power.draw                nvmlDeviceGetPowerUsage on Ampere and newer): it lags, so only
                            samples at least LAG_S after the window opened are averaged, whose
                            second lies inside the window. That is the window's later part,
                            not all of it (a loop's power drifts by a few % over seconds as
                            the board warms), so it is shown but decides nothing.

A window is compared on a reading only when the reading covers it well enough: at least
MIN_SAMPLES samples over at least COVER of the window (instant, counter), or at least
MIN_LATE_S of samples after the lag (average). Each difference on instant or counter must
be within LIMIT_PCT. Why 3%: every reading comes from the board's one power sensor, so its stated
+-5 W accuracy is common to both sides and cancels; what remains is where each side
samples the window: the instant samples' mean over >= 50 samples of a steady loop
(<~1%), and the edges, one sample interval (20 ms) at each end of a >= 4 s window
(<~1%). A difference past 3% is therefore a disagreement, not noise: a window counted
over the wrong time, a lagging reading, another GPU.

With RUN_CSV, its rows' power, energy and energy_status are listed too. Exit status 0 when
every window was compared on instant or counter and every such difference is within the
limit; 1 otherwise (DISAGREE, or NOT COMPARED when no window could be: an nvidia-smi with
neither field, or windows too short)."""
import csv
import re
import sys
from datetime import datetime

WINDOW = re.compile(r'energy: ([0-9.]+) W over ([0-9.]+) s .*window ([0-9.]+) to ([0-9.]+) s since 1970')
LIMIT_PCT = 3.0
MIN_SAMPLES = 50    # instant or counter samples inside a window
COVER = 0.9         # of the window between its first and last sample
LAG_S = 1.5         # the 1 s average's lag, with a margin: its samples count from this long after the opening
MIN_LATE_S = 1.0    # of 1 s average samples after the lag

# nvidia-smi field -> reading name; the first field of a reading that the CSV has wins
FIELDS = [
    ('power.draw.instant', 'instant'),
    ('total_energy_consumption', 'counter'),
    ('power.draw.average', 'average'),
    ('power.draw', 'average'),
]
READINGS = ['instant', 'counter', 'average']
DECIDING = ('instant', 'counter')   # the readings over the whole window


def windows(log):
    with open(log) as f:
        return [tuple(float(x) for x in m.groups()) for m in map(WINDOW.search, f) if m]


def number(cell):
    """'123.45 W' or '123.45' -> 123.45; None for '[N/A]' and the like."""
    try:
        return float(cell.strip().split()[0])
    except (ValueError, IndexError):
        return None


def columns(head, path):
    """{reading: (column index, scale to W or J)} for the readings the header has."""
    found = {}
    for field, reading in FIELDS:
        if reading in found:
            continue
        for i, h in enumerate(head):
            name = h.split('[')[0].strip()
            if name != field:
                continue
            unit = h.split('[')[-1].rstrip(']').strip() if '[' in h else ''
            scales = {'mJ': 1e-3, 'J': 1.0, 'kJ': 1e3} if reading == 'counter' else {'W': 1.0, 'mW': 1e-3, '': 1.0}
            if unit not in scales:
                sys.exit(f'{path}: {field} in {unit!r}; expected one of {", ".join(s or "(none)" for s in scales)}')
            found[reading] = (i, scales[unit])
    return found


def samples(path):
    """{reading: [(seconds since 1970, value)]}: the CSV's samples of each reading it has."""
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    if not rows or not rows[0] or not rows[0][0].strip().startswith('timestamp'):
        sys.exit(f'{path}: not nvidia-smi --query-gpu CSV output; first line: {rows[0] if rows else "(empty)"}')
    head = [h.strip() for h in rows[0]]
    cols = columns(head, path)
    out = {r: [] for r in cols}
    for r in rows[1:]:
        if len(r) != len(head):
            continue
        try:
            t = datetime.strptime(r[0].strip(), '%Y/%m/%d %H:%M:%S.%f').timestamp()
        except ValueError:
            continue
        for reading, (i, scale) in cols.items():
            v = number(r[i])
            if v is not None:
                out[reading].append((t, v * scale))
    return out


def slope(points):
    n = len(points)
    mx = sum(t for t, _ in points) / n
    my = sum(e for _, e in points) / n
    sxx = sum((t - mx) ** 2 for t, _ in points)
    return sum((t - mx) * (e - my) for t, e in points) / sxx if sxx > 0 else None


def held_mean(points, a, b):
    """The time-weighted mean of a sampled reading over [a, b], each sample held until the next
    (the last one until b); None when the samples do not cover the window well enough."""
    inside = [(t, v) for t, v in points if a <= t <= b]
    if len(inside) < MIN_SAMPLES or inside[-1][0] - inside[0][0] < COVER * (b - a):
        return None
    total = 0.0
    for (t, v), (u, _) in zip(inside, inside[1:] + [(b, None)]):
        total += v * (u - t)
    return total / (b - inside[0][0])


def reading_power(reading, points, a, b):
    """The reading's power over the window [a, b], or None when it cannot say."""
    if reading == 'instant':
        return held_mean(points, a, b)
    if reading == 'counter':
        inside = [(t, e) for t, e in points if a <= t <= b]
        if len(inside) < MIN_SAMPLES or inside[-1][0] - inside[0][0] < COVER * (b - a):
            return None
        return slope(inside)
    late = [v for t, v in points if a + LAG_S <= t <= b]
    times = [t for t, _ in points if a + LAG_S <= t <= b]
    if not late or times[-1] - times[0] < MIN_LATE_S:
        return None
    return sum(late) / len(late)


def compare(wins, smi):
    """Per window: (mmbench W, window s, {reading: (W or None, diff % or None)})."""
    table = []
    for p, length, a, b in wins:
        got = {}
        for reading in READINGS:
            if reading not in smi:
                continue
            w = reading_power(reading, smi[reading], a, b)
            got[reading] = (w, 100.0 * (p - w) / w if w else None)
        table.append((p, length, got))
    return table


def uncompared_windows(table):
    return sum(1 for _, _, got in table if all(got[r][1] is None for r in DECIDING if r in got))


def verdict(table):
    """('agree' | 'DISAGREE' | 'NOT COMPARED', differences compared, largest |difference|)."""
    diffs = [d for _, _, got in table for r, (_, d) in got.items() if r in DECIDING and d is not None]
    uncompared = uncompared_windows(table)
    worst = max((abs(d) for d in diffs), default=0.0)
    if not diffs:
        return 'NOT COMPARED', 0, worst
    if worst > LIMIT_PCT or uncompared:
        return 'DISAGREE', len(diffs), worst
    return 'agree', len(diffs), worst


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    wins = windows(argv[1])
    smi = samples(argv[2])
    have = [r for r in READINGS if r in smi]
    print(f'{len(wins)} mmbench energy windows; nvidia-smi readings: '
          + (', '.join(f'{r} ({len(smi[r])} samples)' for r in have) or 'none'))
    table = compare(wins, smi)
    print(f'{"window (s)":>11} {"mmbench W":>10}' + ''.join(f' {r + " W":>11} {"diff %":>7}' for r in have))
    for p, length, got in table:
        cells = ''
        for r in have:
            w, d = got[r]
            cells += f' {w:11.1f}' if w is not None else f' {"-":>11}'
            cells += f' {d:7.2f}' if d is not None else f' {"-":>7}'
        print(f'{length:11.3f} {p:10.1f}{cells}')
    if len(argv) == 4:
        with open(argv[3], newline='') as fh:
            rows = list(csv.DictReader(fh))
        print(f'\n{len(rows)} rows in {argv[3]}:')
        for r in rows:
            print(f'  {r.get("kernel", "?"):10} {r.get("params", ""):60.60} {r.get("status", "?"):8} '
                  f'power_w={r.get("power_w", "")} energy_j={r.get("energy_j", "")} '
                  f'energy_status={r.get("energy_status", "")} gflops_per_watt={r.get("gflops_per_watt", "")} '
                  f'throttle={r.get("throttle", "")} sm_clock={r.get("sm_clock_min_mhz", "")}..'
                  f'{r.get("sm_clock_max_mhz", "")}')
    word, compared, worst = verdict(table)
    uncompared = uncompared_windows(table)
    deciding = [r for r in have if r in DECIDING]
    print(f'\n{word}: {compared} differences over {len(table) - uncompared} of {len(table)} windows on '
          f'{" and ".join(deciding) or "no reading over the whole window (power.draw.instant or "}'
          f'{"" if deciding else "total_energy_consumption)"}, largest {worst:.2f}% (limit {LIMIT_PCT}%)'
          + (f'; {uncompared} windows not compared on them' if uncompared and deciding else ''))
    return 0 if word == 'agree' else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
