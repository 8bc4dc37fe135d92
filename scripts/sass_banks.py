#!/usr/bin/env python3
"""sass_banks.py SASS... - register-bank conflicts of the FFMAs in each hot loop of a
SASS listing (`cuobjdump -sass kernel.cubin`), the static count docs/ladder.md uses to
compare code forms of a kernel before running them.

The model (Volta to Hopper, as Nsight Compute's per-instruction dispatch stalls of the
ladder's kernels bear out): two register banks, register number mod 2; each operand
slot of an FFMA has a reuse cache per bank, filled by an operand marked `.reuse`; an
FFMA conflicts when two of its source operands that the caches do not supply lie in
one bank. For every loop (a backward branch) with at least 500 FFMAs it prints the
loop's instructions, its FFMAs and its conflicting FFMAs, in steady state (the loop's
FFMAs walked twice, the second walk counted)."""
import collections
import re
import sys


def instructions(path):
    out = []
    for line in open(path):
        m = re.match(r'\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;', line)
        if m:
            out.append((int(m.group(1), 16), m.group(2)))
    return out


def conflicts(body):
    cache = [[None, None] for _ in range(3)]
    count = 0
    ffma = [x for x in body if x.startswith('FFMA')]
    for walk, text in enumerate(ffma + ffma):
        ops = re.findall(r'(R\d+|RZ)(\.reuse)?', text.split(None, 1)[1])
        live = []
        for slot, (reg, reuse) in enumerate(ops[1:4]):
            r = int(reg[1:]) if reg != 'RZ' else -2
            if cache[slot][r % 2] != r:
                live.append(r)
            cache[slot][r % 2] = r if reuse else None
        banks = collections.Counter(r % 2 for r in live)
        if walk >= len(ffma) and banks and max(banks.values()) >= 2:
            count += 1
    return len(ffma), count


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        ins = instructions(path)
        for addr, text in ins:
            m = re.search(r'BRA\s+(?:\S+\s+)?0x([0-9a-f]+)', text)
            if not m or int(m.group(1), 16) >= addr:
                continue
            lo = int(m.group(1), 16)
            body = [t for a, t in ins if lo <= a <= addr]
            nffma, bad = conflicts(body)
            if nffma >= 500:
                print('%s: loop %#x-%#x: %d instructions, %d FFMA, %d with a bank conflict (%.0f%%)'
                      % (path, lo, addr, len(body), nffma, bad, 100.0 * bad / nffma))


if __name__ == '__main__':
    main()
