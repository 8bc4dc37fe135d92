#!/usr/bin/env python3
"""layers.py HARNESS_DIR - fails when harness/ breaks its layering (harness/README.md).

Checks, for every .c and .h under the layer folders (report/ and cuda/ have one folder
per role):
  - project headers are included rooted ("model/profile.h"), never by bare name;
  - an include goes only to the file's own folder or to a folder its rules allow
    (below it: report/figures/ and report/doc/ use report/input/, not each other;
    report/doc/findings/, the findings and their claims, is report/doc/'s and uses its md.h
    and tabular.h;
    report/doc/energy/, the Energy efficiency section, is report/doc/'s and uses its md.h;
    cuda/session/ uses cuda/problem/, which uses cuda/; results/compare/,
    results/best/ and results/t4/ use results/; cmd/tune/, one command, uses cmd/'s shared files, and
    cmd/'s command table includes its front);
  - no .c or .h lies directly in harness/, and every folder holding sources has rules;
  - a private header (X_impl.h, and the few named in PRIVATE) is included only by its
    own module's files (X*.c and X*.h of its folder) and by that module's unit test
    (tests/test_X*.c); tests/ and tools/ are checked for this too;
  - the include graph between modules (a .c and its .h are one module) has no circle.
Prints every violation with file:line and exits 1, or prints a summary and exits 0.
"""
import os
import re
import sys

BELOW_REPORT = {"core", "model", "results", "results/compare", "results/t4"}
# What each folder may include besides itself. The order is the order of the floors.
ALLOWED = {
    "core": set(),
    "model": {"core"},
    "results": {"core", "model"},
    "results/compare": {"core", "model", "results"},
    "results/best": {"core", "model", "results"},
    "results/t4": {"core", "model", "results"},
    "search": {"core", "model", "results", "results/t4"},
    "cuda": {"core", "model", "results"},
    "cuda/problem": {"core", "model", "results", "cuda"},
    "cuda/session": {"core", "model", "results", "cuda", "cuda/problem"},
    "report/input": BELOW_REPORT,
    "report/figures": BELOW_REPORT | {"report/input"},
    "report/doc": BELOW_REPORT | {"report/input", "report/doc/findings", "report/doc/energy"},
    "report/doc/findings": BELOW_REPORT | {"report/input", "report/doc"},
    "report/doc/energy": BELOW_REPORT | {"report/input", "report/doc"},
    "report": BELOW_REPORT | {"report/input", "report/figures", "report/doc", "report/doc/energy"},
    "cmd": {"core", "model", "results", "results/compare", "results/best", "results/t4", "search", "cuda", "cuda/problem",
            "cuda/session", "report", "report/input", "report/figures", "report/doc", "cmd/tune"},
    "cmd/tune": {"core", "model", "results", "results/compare", "results/best", "results/t4", "search", "cuda", "cuda/problem",
                 "cuda/session", "report", "report/input", "report/figures", "report/doc", "cmd"},
}
# Private headers not named X_impl.h: header -> the file-name start of their module.
PRIVATE = {"model/profile_parse.h": "profile"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        folder = os.path.relpath(dirpath, root).replace(os.sep, "/")
        for name in sorted(filenames):
            if name.endswith((".c", ".h")):
                yield folder, name


def private_owner(header):
    """(folder, module prefix) when header is private, else None."""
    folder, name = os.path.split(header)
    if header in PRIVATE:
        return folder, PRIVATE[header]
    if name.endswith("_impl.h"):
        return folder, name[: -len("_impl.h")]
    return None


def private_problem(where, includer_folder, includer_name, target):
    owner = private_owner(target)
    if not owner:
        return None
    folder, prefix = owner
    if includer_folder == folder and includer_name.startswith(prefix):
        return None
    if includer_folder == "tests" and includer_name.startswith("test_" + prefix):
        return None
    return (f'{where}: #include "{target}", a private header of {folder}/{prefix}*; expected only '
            f"{folder}/{prefix}*.c and its unit test to include it")


def includes(path):
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield lineno, m.group(1)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "harness")
    problems = []
    files = {}
    for folder, name in sources(root):
        if folder == ".":
            problems.append(f"{root}/{name}: a source directly in harness/; expected it in a layer folder")
        elif folder not in ALLOWED:
            problems.append(f"harness/{folder}/{name}: a folder without include rules; expected one of "
                            f"{', '.join(ALLOWED)} (tests/layers.py)")
        else:
            files[f"{folder}/{name}"] = folder
    edges = {}
    for path, layer in files.items():
        module = os.path.splitext(path)[0]
        edges.setdefault(module, set())
        for lineno, target in includes(os.path.join(root, path)):
            where = f"harness/{path}:{lineno}"
            if "/" not in target:
                problems.append(f'{where}: #include "{target}"; expected a rooted include such as "core/error.h"')
                continue
            if target not in files:
                problems.append(f'{where}: #include "{target}" names no file of harness/')
                continue
            to_layer = files[target]
            if to_layer != layer and to_layer not in ALLOWED[layer]:
                allowed = ", ".join(sorted(ALLOWED[layer] | {layer}))
                problems.append(f'{where}: {layer}/ includes "{target}" from {to_layer}/, which it may not; '
                                f"{layer}/ may include {allowed}")
            bad = private_problem(where, layer, os.path.basename(path), target)
            if bad:
                problems.append(bad)
            target_module = os.path.splitext(target)[0]
            if target_module != module:
                edges[module].add(target_module)
    # the tests and tools include anything, but no other module's private header
    outside = 0
    top = os.path.dirname(os.path.abspath(root))
    for extra in ("tests", "tools"):
        for folder, name in sources(os.path.join(top, extra)):
            outside += 1
            rel = f"{extra}/{name}" if folder == "." else f"{extra}/{folder}/{name}"
            for lineno, target in includes(os.path.join(top, rel)):
                bad = private_problem(f"{rel}:{lineno}", os.path.dirname(rel), name, target)
                if bad:
                    problems.append(bad)
    problems += [f"include circle: {' -> '.join(c)}" for c in circles(edges)]
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"layers: {len(files)} files in {len(ALLOWED)} folders, {sum(map(len, edges.values()))} module "
          f"includes, none upward, no circle, private headers kept private (and in {outside} files of tests/ "
          "and tools/)")
    return 0


def circles(edges):
    """Every strongly connected group of two or more modules (Tarjan), as a path."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group) + [sorted(group)[0]])

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


if __name__ == "__main__":
    sys.exit(main())
