#!/usr/bin/env python3
"""test_ladder_profiles.py MMBENCH ROOT - the tensor-core ladder's three profiles stay in
step, as `mmbench check --list` enumerates their runs (each dtype at its own element
size): every configuration of profiles/ladder-tc.ini, in every dtype, is one of
profiles/ladder-tc-awkward.ini's (so the awkward sizes and the sanitizers check what the
ladder measures), and every bf16 one lies in profiles/tune-ladder-tc.ini's spaces (the
ladder's configurations are the tune's choices); the awkward profile has no library row
(the sanitizer runs take their kernels from it, and cuBLAS does not run under racecheck)."""
import os
import subprocess
import sys

mmbench, root = sys.argv[1], sys.argv[2]


def runs(name):
    """{(kernel, params, dtype)} of a profile's allowed runs, sizes left out."""
    path = os.path.join(root, 'profiles', name)
    out = subprocess.run([mmbench, 'check', '--list', path], check=True, capture_output=True, text=True).stdout
    found = {tuple(line.split()[1:4]) for line in out.splitlines() if line.startswith('run ')}
    assert found, f'{name}: no runs listed:\n{out}'
    return found


ladder, awkward, tune = runs('ladder-tc.ini'), runs('ladder-tc-awkward.ini'), runs('tune-ladder-tc.ini')
own = {r for r in ladder if r[0] != 'cublas'}
failures = []
failures += [f'ladder-tc.ini runs {r} and ladder-tc-awkward.ini does not' for r in sorted(own - awkward)]
failures += [f'ladder-tc.ini runs {r} outside tune-ladder-tc.ini\'s spaces'
             for r in sorted(own) if r[2] == 'bf16' and r not in tune]
failures += [f'ladder-tc-awkward.ini runs the library: {r}' for r in sorted(awkward) if r[0] == 'cublas']
dtypes = {r[2] for r in own}
if dtypes != {'f16', 'bf16'}:
    failures.append(f'ladder-tc.ini runs its own kernels in {sorted(dtypes)}; expected f16 and bf16')
failures += [f'ladder-tc.ini has no cuBLAS row in {d}' for d in sorted(dtypes) if ('cublas', '-', d) not in ladder]
for f in failures:
    print(f)
print(f'{len(own)} ladder-tc runs (configuration x dtype), {len(awkward)} awkward, {len(tune)} tune: '
      f'{len(failures)} failures')
sys.exit(1 if failures else 0)
