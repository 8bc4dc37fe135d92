#!/usr/bin/env python3
"""headers.py [--cuda-include DIR]... [--cshim DIR] HARNESS_DIR CC [CC ARGS...] - every
header of harness/ compiles on its own, twice over (its include guard holds), with
the project's warnings as errors, as dav1d's header test does: a header that leans on
what its includer happened to include first fails here. Without --cuda-include (a
build without CUDA) the headers of cuda/ are left out.
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

FLAGS = ["-std=c11", "-D_GNU_SOURCE", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow",
         "-Wstrict-prototypes", "-Wno-unused-parameter", "-Werror"]


def main():
    args = sys.argv[1:]
    cuda_includes, cshim = [], None
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--cuda-include":
            cuda_includes.append(args.pop(0))
        elif opt == "--cshim":
            cshim = args.pop(0)
        else:
            sys.exit(f"headers.py: unknown option {opt}")
    root, cc = args[0], args[1:]
    headers = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if name.endswith(".h") and (cuda_includes or not rel.startswith("cuda/")):
                headers.append(rel)
    flags = FLAGS + ["-I", root]
    for d in cuda_includes:
        flags += ["-I", d]
    if cuda_includes:
        flags += ["-DMMB_HAVE_CUDA=1"]
    if cshim:
        flags += ["-idirafter", cshim]

    def compile_one(header):
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
            # a header of macros alone would leave nothing to compile: one declaration after it
            f.write(f'#include "{header}"\n#include "{header}"\nextern int mmb_header_test;\n')
            src = f.name
        try:
            p = subprocess.run(cc + flags + [src], capture_output=True, text=True)
        finally:
            os.unlink(src)
        return header, p.returncode, p.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for header, rc, err in pool.map(compile_one, headers):
            if rc != 0:
                failed += 1
                print(f"harness/{header}: does not compile on its own:\n{err}")
    if failed:
        return 1
    print(f"headers: {len(headers)} headers of harness/ compile on their own"
          f"{'' if cuda_includes else ' (cuda/ left out: no CUDA)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
