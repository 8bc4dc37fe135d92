#!/usr/bin/env python3
"""energy_compare.py MMBENCH_LOG NVIDIA_SMI_CSV [RUN_CSV] - mmbench's energy windows against
nvidia-smi's own reads of the board's power (scripts/gpu/energy-check.sh).

The log is `mmbench run -v`'s: each '  energy: P W over ... window A to B s since 1970' line
is one window (its start and end are two updates of NVML's energy counter, as times of
day). The nvidia-smi CSV (plain, or gzip-compressed as NAME.gz) is `nvidia-smi
--query-gpu=timestamp,FIELD... --format=csv -lms N` with any of these fields, each an
independent reading of the same board:

  total_energy_consumption  NVML's energy counter, read by another process: the
                            least-squares slope of its samples over the window. Decides.
  power.draw.average        the firmware's mean power over the last second, the integral of
  power.draw                the sensor the energy counter integrates (nvmlDeviceGetPowerUsage
                            on Ampere and newer). It lags, so only samples at least LAG_S
                            after the window opened count; their seconds lie wholly inside
                            the window. Decides, on that covered part, when it is at least
                            MIN_COVERED_S long and no two samples in it are further apart than
                            the average's second (so no part of it goes unseen).
  power.draw.instant        the driver's latest power snapshot: shown, with the spread of
                            the snapshots in each window, but decides nothing.

Why instant decides nothing: it is a snapshot of a strongly fluctuating draw, not an
integral. On the H100 recording (tests/fixtures/energy-check/h100-*, driver 580.159) it
changed only every ~100 ms (so ~45 snapshots per 4.5 s window), and within one window the
snapshots spread with a standard deviation of 3.5% to 22.5% of their mean (424 to 600 W
in one window of a configuration that never reached the power cap, 158 to 796 W in one
that did): the
standard error of their mean is 0.5% to 3.4% of it, above 1% in 10 of 12 windows. Worse,
where the snapshots barely spread (two windows, sd under 4%) their mean still lay 6% above
the 1 s average and 8% above mmbench's counter (719 against 676 and 664 W): a snapshot is
not a sample of the power that integrates to the window's energy. Their mean differed from mmbench's by -7.7% to
+10.7% while the 1 s average's differed by -1.9% to -0.1%. The table prints, per window,
the snapshots' count, their spread and the standard error, so this is recomputed on every
run.

Why 3% on the deciding readings: the counter and the 1 s average integrate the board's one
power sensor, as mmbench's window does, so the sensor's stated accuracy (+-5 W) is common
to both sides and cancels. What is left: for the counter, one sample interval (20 ms) at
each end of a >= 4 s window (< 1%; the slope is the window's mean power for a loop
whose power holds steady, and weights the window's middle more where it steps); for the average, that its samples see the power from
LAG_S - 1 s after the opening on (with a 1.5 s lag, all but the window's first 0.5 s,
weighted less in the next second), so a drift within the window moves the comparison by
the drift over the part it misses. On the H100 recording the 1 s average's first and last
seconds inside a window differed by -1.6% to +1.4% (the table's 'drift %'), over ~3 s; a
drift that steady moves the late part's mean against the whole window's by about a tenth
of that (their centres lie ~0.25 s apart), and the average's own lag past its second was
~0.1 s (its rise after a window opened), inside the 0.5 s margin of LAG_S. A difference
past 3% is therefore a disagreement, not noise: a window counted over the wrong time, a
lagging reading, another GPU. What the late-part comparison cannot see is a change
confined to the window's first ~0.5 s (a ramp up from idle, say): the counter, where
nvidia-smi has it, sees the whole window.

With RUN_CSV, its rows' power, energy and energy_status are listed too. Exit status 0 when
every window was compared on the counter or the average and every such difference is
within the limit; 1 otherwise (DISAGREE, or NOT COMPARED when no window could be: an
nvidia-smi with neither field, or windows too short for the average's covered part); 2 for
input it cannot read (a file missing, or not nvidia-smi's CSV), with the file named."""
import csv
import gzip
import math
import re
import sys
from datetime import datetime

def refuse(message):
    """Bad input: its message on stderr, exit status 2 (1 is a verdict's)."""
    print(message, file=sys.stderr)
    sys.exit(2)


WINDOW = re.compile(r'energy: ([0-9.]+) W over ([0-9.]+) s .*window ([0-9.]+) to ([0-9.]+) s since 1970')
LIMIT_PCT = 3.0
MIN_SAMPLES = 50     # counter (or instant) samples inside a window
COVER = 0.9          # of the window between its first and last counter (or instant) sample
AVERAGE_S = 1.0      # the span of power.draw.average
LAG_S = 1.5          # its samples count from this long after the opening: its second, plus a margin
MIN_COVERED_S = 2.5  # of average samples after the lag: their seconds see >= 3.5 s of the window

# nvidia-smi field -> reading name; the first field of a reading that the CSV has wins
FIELDS = [
    ('total_energy_consumption', 'counter'),
    ('power.draw.average', 'average'),
    ('power.draw', 'average'),
    ('power.draw.instant', 'instant'),
]
READINGS = ['counter', 'average', 'instant']
DECIDING = ('counter', 'average')   # the readings that integrate the power


def windows(log):
    try:
        with open(log, encoding='utf-8', errors='replace') as f:
            return [tuple(float(x) for x in m.groups()) for m in map(WINDOW.search, f) if m]
    except (OSError, ValueError) as e:
        refuse(f'{log}: cannot read the mmbench log: {e}')


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
                refuse(f'{path}: {field} in {unit!r}; expected one of {", ".join(s or "(none)" for s in scales)}')
            found[reading] = (i, scales[unit])
    return found


def samples(path):
    """{reading: [(seconds since 1970, value)]}: the CSV's samples of each reading it has."""
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rt', newline='') as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        refuse(f'{path}: cannot read: {e}')
    if not rows or not rows[0] or not rows[0][0].strip().startswith('timestamp'):
        refuse(f'{path}: not nvidia-smi --query-gpu CSV output; first line: {rows[0] if rows else "(empty)"}')
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


def covering(points, a, b):
    """The samples inside [a, b] when they cover it well enough, else None."""
    inside = [(t, v) for t, v in points if a <= t <= b]
    if len(inside) < MIN_SAMPLES or inside[-1][0] - inside[0][0] < COVER * (b - a):
        return None
    return inside


def instant_power(points, a, b):
    """(time-weighted mean, snapshots, their standard deviation) of the instant samples over
    [a, b], each held until the next; a snapshot is a run of equal samples (the driver's
    value changes more slowly than nvidia-smi reads it). None when they cover it too thinly."""
    inside = covering(points, a, b)
    if inside is None:
        return None
    total = sum(v * (u - t) for (t, v), (u, _) in zip(inside, inside[1:] + [(b, None)]))
    snaps = [v for k, (_, v) in enumerate(inside) if k == 0 or v != inside[k - 1][1]]
    n = len(snaps)
    mean = sum(snaps) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in snaps) / (n - 1)) if n > 1 else 0.0
    return total / (b - inside[0][0]), n, sd


def average_power(points, a, b):
    """(mean, drift) of the 1 s average over its wholly covered part of [a, b] (from LAG_S on);
    drift is its last sample less its first (their seconds the covered part's two ends).
    None when that part is shorter than MIN_COVERED_S or has a gap longer than the average's
    second."""
    late = [(t, v) for t, v in points if a + LAG_S <= t <= b]
    if len(late) < 2 or late[-1][0] - late[0][0] < MIN_COVERED_S:
        return None
    if any(u - t > AVERAGE_S for (t, _), (u, _) in zip(late, late[1:])):
        return None
    return sum(v for _, v in late) / len(late), late[-1][1] - late[0][1]


def compare(wins, smi):
    """Per window: (mmbench W, window s, {reading: (W or None, diff % or None, detail)}),
    detail being the instant snapshots' (count, sd) or the average's drift in W."""
    table = []
    for p, length, a, b in wins:
        got = {}
        for reading in READINGS:
            if reading not in smi:
                continue
            w, detail = None, None
            if reading == 'counter':
                inside = covering(smi[reading], a, b)
                w = slope(inside) if inside else None
            elif reading == 'average':
                r = average_power(smi[reading], a, b)
                w, detail = r if r else (None, None)
            else:
                r = instant_power(smi[reading], a, b)
                w, detail = (r[0], r[1:]) if r else (None, None)
            got[reading] = (w, 100.0 * (p - w) / w if w else None, detail)
        table.append((p, length, got))
    return table


def uncompared_windows(table):
    return sum(1 for _, _, got in table if all(got[r][1] is None for r in DECIDING if r in got))


def verdict(table):
    """('agree' | 'DISAGREE' | 'NOT COMPARED', differences compared, largest |difference|)."""
    diffs = [d for _, _, got in table for r, (_, d, _) in got.items() if r in DECIDING and d is not None]
    uncompared = uncompared_windows(table)
    worst = max((abs(d) for d in diffs), default=0.0)
    if not diffs:
        return 'NOT COMPARED', 0, worst
    if worst > LIMIT_PCT or uncompared:
        return 'DISAGREE', len(diffs), worst
    return 'agree', len(diffs), worst


def print_table(table, have):
    head = f'{"window (s)":>11} {"mmbench W":>10}'
    for r in have:
        head += f' {r + " W":>11} {"diff %":>7}'
        head += {'average': f' {"drift %":>7}', 'instant': f' {"snaps":>5} {"sd %":>5} {"se %":>5}'}.get(r, '')
    print(head)
    for p, length, got in table:
        cells = ''
        for r in have:
            w, d, detail = got[r]
            cells += f' {w:11.1f} {d:7.2f}' if w is not None else f' {"-":>11} {"-":>7}'
            if r == 'average':
                cells += f' {100 * detail / w:7.2f}' if w is not None else f' {"-":>7}'
            elif r == 'instant':
                if w is None:
                    cells += f' {"-":>5} {"-":>5} {"-":>5}'
                else:
                    n, sd = detail
                    cells += f' {n:5d} {100 * sd / w:5.1f} {100 * sd / math.sqrt(n) / w:5.2f}'
        print(f'{length:11.3f} {p:10.1f}{cells}')


def print_instant(table):
    """The instant snapshots' summary: what they would have said, and why it decides nothing."""
    seen = [got['instant'] for _, _, got in table if 'instant' in got and got['instant'][0] is not None]
    if not seen:
        return
    diffs = [d for _, d, _ in seen]
    sds = [100 * sd / w for w, _, (n, sd) in seen]
    ses = [100 * sd / math.sqrt(n) / w for w, _, (n, sd) in seen]
    print(f'instant (shown, decides nothing: snapshots, not an integral): differences {min(diffs):.2f}% to '
          f'{max(diffs):.2f}% over {len(seen)} windows; snapshots spread by sd {min(sds):.1f}% to {max(sds):.1f}%, '
          f'standard error of their mean {min(ses):.2f}% to {max(ses):.2f}% '
          f'(above 1% in {sum(1 for s in ses if s > 1.0)} of {len(seen)} windows)')


def main(argv):
    if len(argv) not in (3, 4):
        refuse(__doc__)
    wins = windows(argv[1])
    smi = samples(argv[2])
    have = [r for r in READINGS if r in smi]
    print(f'{len(wins)} mmbench energy windows; nvidia-smi readings: '
          + (', '.join(f'{r} ({len(smi[r])} samples)' for r in have) or 'none'))
    print(f'average: the mean of power.draw.average from {LAG_S} s after each opening (its seconds wholly '
          f'inside), at least {MIN_COVERED_S} s of it; drift %: its last second less its first')
    table = compare(wins, smi)
    print_table(table, have)
    if len(argv) == 4:
        try:
            with open(argv[3], newline='', encoding='utf-8', errors='replace') as fh:
                rows = list(csv.DictReader(fh))
        except (OSError, csv.Error) as e:
            refuse(f'{argv[3]}: cannot read the run CSV: {e}')
        print(f'\n{len(rows)} rows in {argv[3]}:')
        for r in rows:
            print(f'  {r.get("kernel", "?"):10} {r.get("params", ""):60.60} {r.get("status", "?"):8} '
                  f'power_w={r.get("power_w", "")} energy_j={r.get("energy_j", "")} '
                  f'energy_status={r.get("energy_status", "")} gflops_per_watt={r.get("gflops_per_watt", "")} '
                  f'throttle={r.get("throttle", "")} sm_clock={r.get("sm_clock_min_mhz", "")}..'
                  f'{r.get("sm_clock_max_mhz", "")}')
    print()
    print_instant(table)
    word, compared, worst = verdict(table)
    uncompared = uncompared_windows(table)
    deciding = [r for r in have if r in DECIDING]
    print(f'{word}: {compared} differences over {len(table) - uncompared} of {len(table)} windows on '
          f'{" and ".join(deciding) or "no integrating reading (total_energy_consumption or "}'
          f'{"" if deciding else "power.draw.average)"}, largest {worst:.2f}% (limit {LIMIT_PCT}%)'
          + (f'; {uncompared} windows not compared on them' if uncompared and deciding else '')
          + (f' (the average needs {MIN_COVERED_S} s of samples from {LAG_S} s after the opening, none over '
             f'{AVERAGE_S} s apart: windows of at least {LAG_S + MIN_COVERED_S} s)'
             if uncompared and deciding == ['average'] else ''))
    return 0 if word == 'agree' else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
