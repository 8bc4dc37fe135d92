#!/usr/bin/env python3
"""test_sass_banks.py - scripts/sass_banks.py counts register-bank conflicts as its model
says: with three source registers in two banks every FFMA has two in one bank, unless
the reuse cache supplies one; a loop of 512 FFMAs conflicts 512 times without .reuse
flags, and not at all when operand A stays cached (one cache entry per slot and bank:
R2 and R3 alternate in slot A without evicting each other)."""
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
script = os.path.join(root, 'scripts', 'sass_banks.py')


def listing(reuse):
    lines = ['        /*0000*/                   MOV R1, c[0x0][0x28] ;']
    addr = 0x10
    for i in range(256):
        # R2 (bank 0) times R4 (bank 0) into an odd accumulator: A and B collide unless A is cached
        a, b = ('R2.reuse', 'R3.reuse') if reuse else ('R2', 'R3')
        lines.append('        /*%04x*/                   FFMA R%d, %s, R4, R%d ;' % (addr, 11 + 2 * (i % 40), a, 11 + 2 * (i % 40)))
        addr += 0x10
        # R3 (bank 1) times R6 (bank 0) into an odd accumulator: A and C collide unless A is cached
        lines.append('        /*%04x*/                   FFMA R%d, %s, R6, R%d ;' % (addr, 101 + 2 * (i % 40), b, 101 + 2 * (i % 40)))
        addr += 0x10
    lines.append('        /*%04x*/                   BRA 0x10 ;' % addr)
    return '\n'.join(lines) + '\n'


def run(text):
    with tempfile.NamedTemporaryFile('w', suffix='.sass', delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, script, f.name], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)


plain, cached = run(listing(False)), run(listing(True))
assert '512 FFMA, 512 with a bank conflict' in plain, plain
assert '512 FFMA, 0 with a bank conflict' in cached, cached
print('ok')
