#!/usr/bin/env python3
"""layers.py HARNESS_DIR - fails when harness/ breaks its layering (harness/README.md).

Checks, for every .c and .h under the layer folders:
  - project headers are included rooted ("model/profile.h"), never by bare name;
  - an include goes only to the file's own layer or to a layer below it;
  - no .c or .h lies directly in harness/;
  - the include graph between modules (a .c and its .h are one module) has no circle.
Prints every violation with file:line and exits 1, or prints a summary and exits 0.
"""
import os
import re
import sys

# What each layer may include besides itself. The order is the order of the floors.
ALLOWED = {
    "core": set(),
    "model": {"core"},
    "results": {"core", "model"},
    "search": {"core", "model", "results"},
    "cuda": {"core", "model", "results"},
    "report": {"core", "results"},
    "cmd": {"core", "model", "results", "search", "cuda", "report"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root):
    for layer in sorted(ALLOWED):
        folder = os.path.join(root, layer)
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h")):
                yield layer, f"{layer}/{name}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "harness")
    problems = []
    for name in sorted(os.listdir(root)):
        if name.endswith((".c", ".h")):
            problems.append(f"{root}/{name}: a source directly in harness/; expected it in a layer folder")
    edges = {}
    files = dict((path, layer) for layer, path in sources(root))
    for path, layer in files.items():
        module = os.path.splitext(path)[0]
        edges.setdefault(module, set())
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = f"harness/{path}:{lineno}"
                if "/" not in target:
                    problems.append(f'{where}: #include "{target}"; expected a rooted include such as "core/util.h"')
                    continue
                if target not in files:
                    problems.append(f'{where}: #include "{target}" names no file of harness/')
                    continue
                to_layer = files[target]
                if to_layer != layer and to_layer not in ALLOWED[layer]:
                    allowed = ", ".join(sorted(ALLOWED[layer] | {layer}))
                    problems.append(f'{where}: {layer}/ includes "{target}" from {to_layer}/, a layer above; '
                                    f"{layer}/ may include {allowed}")
                target_module = os.path.splitext(target)[0]
                if target_module != module:
                    edges[module].add(target_module)
    problems += [f"include circle: {' -> '.join(c)}" for c in circles(edges)]
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"layers: {len(files)} files in {len(ALLOWED)} layers, {sum(map(len, edges.values()))} module "
          "includes, none upward, no circle")
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
