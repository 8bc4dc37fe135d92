#!/usr/bin/env python3
"""test_energy_compare.py SOURCE_ROOT - scripts/gpu/energy_compare.py, the energy cross-check,
without a GPU. Two recorded runs: on an H100 (nvidia-smi with power.draw.instant and
power.draw.average, 4.5 s windows) the 1 s average over each window's covered part agrees
within 1.91% on all 12 windows while the instant snapshots, shown but not deciding, are
7.7% to 10.7% off; on an H200 (power.draw only, 2.8 s windows) nothing is compared, the
windows leaving too little of the average wholly inside them. Synthetic nvidia-smi output
of known power decides agree and DISAGREE on the energy counter and on the average, leaves
instant out of the verdict, and refuses short windows and CSVs that are not nvidia-smi's."""
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

root = sys.argv[1]
script = os.path.join(root, 'scripts/gpu/energy_compare.py')
fixtures = os.path.join(root, 'tests/fixtures/energy-check')
env = dict(os.environ, TZ='UTC')  # nvidia-smi's timestamps are the GPU machine's local time: UTC there
failures = []


def run(log, smi):
    p = subprocess.run([sys.executable, script, log, smi], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


def expect(cond, what, out=''):
    if not cond:
        failures.append(f'{what}\n{out}')


def stamp(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime('%Y/%m/%d %H:%M:%S.%f')[:-3]


T0 = 1795680000.0


def write_case(d, name, windows, fields, power_at, period=0.02, span=None):
    """A log of mmbench windows [(W, start, end)] and nvidia-smi samples every period s of
    fields ('instant', 'counter', 'average'), power_at(t) giving the true board power."""
    log = os.path.join(d, name + '.log')
    with open(log, 'w') as f:
        for w, a, b in windows:
            f.write(f'  energy: {w:.1f} W over {b - a:.3f} s (50 counter updates, every 100.0 ms), 1 J per launch '
                    f'of 1 ms (9 launches, phase {b - a:.3f} s; window {a:.3f} to {b:.3f} s since 1970)\n')
    head = {'instant': 'power.draw.instant [W]', 'counter': 'total_energy_consumption [mJ]',
            'average': 'power.draw.average [W]'}
    smi = os.path.join(d, name + '.csv')
    start, end = span or (windows[0][1] - 2, windows[-1][2] + 1)
    with open(smi, 'w') as f:
        f.write('timestamp, ' + ', '.join(head[x] for x in fields) + '\n')
        t, energy = start, 0.0
        while t < end:
            cells = []
            for x in fields:
                if x == 'instant':
                    cells.append(f'{power_at(t):.2f} W')
                elif x == 'counter':
                    cells.append(f'{energy * 1e3:.0f}')
                else:  # the mean of the last second, which lags
                    cells.append(f'{sum(power_at(t - k / 100) for k in range(100)) / 100:.2f} W')
            f.write(stamp(t) + ', ' + ', '.join(cells) + '\n')
            energy += power_at(t) * period
            t += period
    return log, smi


# the recorded H100 run: the average decides (agree), instant is shown with its spread
rc, out = run(os.path.join(fixtures, 'h100-instant-average.log'), os.path.join(fixtures, 'h100-instant-average.csv.gz'))
expect(rc == 0 and 'agree: 12 differences over 12 of 12 windows on average, largest 1.91%' in out,
       'recorded H100: agree on the average', out)
expect('instant (shown, decides nothing' in out and 'differences -7.69% to 10.69% over 12 windows' in out
       and 'above 1% in 10 of 12 windows' in out, 'recorded H100: instant shown with its spread', out)

# the recorded H200 run: power.draw only, over 2.8 s windows: 1.3 s of it after the lag, too little
rc, out = run(os.path.join(fixtures, 'h200-power-draw.log'), os.path.join(fixtures, 'h200-power-draw.csv'))
expect(rc == 1 and 'NOT COMPARED' in out and '9 mmbench energy windows' in out
       and '9 windows not compared' in out and 'windows of at least 4.0 s' in out, 'recorded H200: not compared', out)
expect('average (606 samples)' in out, 'recorded H200: the average is read', out)

with tempfile.TemporaryDirectory() as d:
    # two windows of 5 s at 600 W and 450 W, the board idle at 100 W between them and before
    wins = [(600.0, T0, T0 + 5), (450.0, T0 + 6, T0 + 11)]

    def board(t):
        return 600.0 if T0 <= t < T0 + 5 else 450.0 if T0 + 6 <= t < T0 + 11 else 100.0

    log, smi = write_case(d, 'steady', wins, ['instant', 'counter', 'average'], board)
    rc, out = run(log, smi)
    expect(rc == 0 and out.count('agree') == 1 and '4 differences over 2 of 2 windows on counter and average' in out,
           'steady board: agree on counter and average', out)
    # mmbench 5% high in one window: the counter and the average both catch it
    log, smi = write_case(d, 'high', [(630.0, T0, T0 + 5), wins[1]], ['counter', 'average'], board)
    rc, out = run(log, smi)
    expect(rc == 1 and 'DISAGREE' in out and 'largest 5.00%' in out, '5% off: DISAGREE', out)
    # 2% off is within the limit
    log, smi = write_case(d, 'close', [(612.0, T0, T0 + 5), wins[1]], ['counter'], board)
    rc, out = run(log, smi)
    expect(rc == 0 and 'largest 2.00%' in out, '2% off: agree', out)
    # the 1 s average alone decides, on the part of each window from 1.5 s on
    log, smi = write_case(d, 'average', wins, ['average'], board)
    rc, out = run(log, smi)
    expect(rc == 0 and 'agree: 2 differences over 2 of 2 windows on average, largest 0.00%' in out,
           'average alone: decides', out)
    log, smi = write_case(d, 'average-high', [(630.0, T0, T0 + 5), wins[1]], ['average'], board)
    rc, out = run(log, smi)
    expect(rc == 1 and 'DISAGREE' in out and 'largest 5.00%' in out, 'average alone, 5% off: DISAGREE', out)
    # a dip confined to the window's first 0.5 s (300 W there, 570 W over the whole window):
    # the average's covered part cannot see it and reads the later 600 W, 5% off: the blind
    # spot the counter, where nvidia-smi has it, does not have
    def dip(t):
        return 300.0 if T0 <= t < T0 + 0.5 else board(t)
    log, smi = write_case(d, 'dip', [(570.0, T0, T0 + 5), wins[1]], ['average'], dip)
    rc, out = run(log, smi)
    expect(rc == 1 and ' 600.0   -5.00' in out, 'early dip: the average sees only the later part', out)
    # instant alone, however close, decides nothing, but it is shown with its spread
    log, smi = write_case(d, 'instant', wins, ['instant'], board)
    rc, out = run(log, smi)
    expect(rc == 1 and 'NOT COMPARED' in out and 'instant W' in out and 'snaps' in out
           and 'instant (shown, decides nothing' in out, 'instant alone: not compared', out)
    # windows too short for the average's covered part (3.5 s leaves 2 s after the lag) or
    # for 50 counter samples: not compared
    log, smi = write_case(d, 'short', [(600.0, T0, T0 + 3.5), (450.0, T0 + 6, T0 + 9.5)], ['average'], board)
    rc, out = run(log, smi)
    expect(rc == 1 and 'NOT COMPARED' in out and '2 windows not compared' in out, 'short windows: not compared', out)
    log, smi = write_case(d, 'short-counter', [(600.0, T0, T0 + 0.8)], ['counter'], board)
    rc, out = run(log, smi)
    expect(rc == 1 and 'NOT COMPARED' in out, 'window too short for the counter: not compared', out)
    # the average sampled once every 2 s: its seconds leave gaps in the covered part
    log, smi = write_case(d, 'sparse', wins, ['average'], board, period=2.0)
    rc, out = run(log, smi)
    expect(rc == 1 and 'NOT COMPARED' in out, 'average with gaps: not compared', out)
    # nvidia-smi stopped early: the second window not compared
    log, smi = write_case(d, 'cut', wins, ['counter'], board, span=(T0 - 1, T0 + 8))
    rc, out = run(log, smi)
    expect(rc == 1 and 'DISAGREE' in out and '1 windows not compared on them' in out,
           'nvidia-smi stopped early: the second window not compared', out)
    # not nvidia-smi's CSV, or a field in a unit it does not write
    bad = os.path.join(d, 'bad.csv')
    with open(bad, 'w') as f:
        f.write('time,power\n1,2\n')
    rc, out = run(log, bad)
    expect(rc == 2 and 'not nvidia-smi --query-gpu CSV output' in out, 'not nvidia-smi CSV', out)
    with open(bad, 'w') as f:
        f.write('timestamp, power.draw.average [kW]\n')
    rc, out = run(log, bad)
    expect(rc == 2 and "power.draw.average in 'kW'" in out, 'a unit it does not write', out)

for f in failures:
    print('FAIL:', f)
sys.exit(1 if failures else 0)
