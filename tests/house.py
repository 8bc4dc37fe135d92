#!/usr/bin/env python3
"""house.py HARNESS_DIR - the house rules of harness/ that a compiler does not check.

  - no folder holds more than 15 .c files (a larger one wants folders by role);
  - no #define of a lowercase name and no typedef that renames a struct, enum or
    union: a name in the code is the name its declaration has;
  - no mutable state at file scope, except where it is the point (signal state, a
    library loaded once, a reference count): a comparator's context goes through
    qsort_r;
  - every function that report/ exports leads to its file: mmb_report_<file>_... or
    mmb_<file>_... (the file's name, or without a final "s": findings.c has
    mmb_report_finding_add), and report/report.c, the front, has mmb_report_<verb>.
Prints every violation with file:line and exits 1, or a summary and exits 0.
"""
import os
import re
import sys

MAX_C_FILES = 15
LOWER_DEFINE = re.compile(r"^\s*#\s*define\s+([a-z_][A-Za-z0-9_]*)")
RENAMING_TYPEDEF = re.compile(r"^\s*typedef\s+(struct|enum|union)\s+\w+\s+(\w+)\s*;")
# a definition at the start of a line: [const] [struct|enum] type [*]name(  - not static
# a variable at file scope: "static size_t order_x;", "static const struct x *sort_d;"
FILE_STATE = re.compile(r"^static\s+[^(=;{]*?\b(\w+)\s*(\[[^]]*\])?\s*(=[^;{]*)?;\s*$")
STATE_ALLOWED = {
    "cmd/supervise.c": "signal state",
    "cuda/nvml.c": "NVML loaded on first use",
    "cuda/cupti.c": "CUPTI's initialisation reference count",
}


def mutable(line):
    """A const object is no state; a pointer to const data is, unless it is const itself."""
    decl = line.split("=")[0]
    if not decl.startswith("static const"):
        return True
    return "*" in decl and not re.search(r"\*\s*const\b", decl)

DEFINITION = re.compile(r"^(?!static\b)(?:const\s+)?(?:(?:struct|enum|unsigned)\s+)?\w+[\s*]+\**(mmb_\w+)\(")


def leads_to_file(name, path):
    stem = os.path.splitext(os.path.basename(path))[0]
    rest = name[len("mmb_report_"):] if name.startswith("mmb_report_") else name[len("mmb_"):]
    if path.endswith("report/report.c"):
        return name.startswith("mmb_report_")
    return rest.startswith(stem) or (stem.endswith("s") and rest.startswith(stem[:-1]))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "harness")
    problems = []
    files = exported = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, os.path.dirname(os.path.abspath(root))).replace(os.sep, "/")
        cfiles = [n for n in filenames if n.endswith(".c")]
        if len(cfiles) > MAX_C_FILES:
            problems.append(f"{rel}/: {len(cfiles)} .c files; expected at most {MAX_C_FILES} (give it folders by "
                            "role, as report/ has)")
        for name in sorted(filenames):
            if not name.endswith((".c", ".h")):
                continue
            files += 1
            path = f"{rel}/{name}"
            inner = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            report = inner.startswith("report/")
            with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                for lineno, line in enumerate(f, 1):
                    m = LOWER_DEFINE.match(line)
                    if m:
                        problems.append(f"{path}:{lineno}: #define {m.group(1)}: expected no macro with a lowercase "
                                        "name (call a thing by its own name)")
                    m = RENAMING_TYPEDEF.match(line)
                    if m:
                        problems.append(f"{path}:{lineno}: typedef {m.group(1)} ... {m.group(2)}: expected the "
                                        f"{m.group(1)}'s own name")
                    m = FILE_STATE.match(line) if name.endswith(".c") else None
                    if m and inner not in STATE_ALLOWED and mutable(line):
                        problems.append(f"{path}:{lineno}: file-scope state {m.group(1)}: expected it passed along "
                                        "(qsort_r's context, a struct) or a const table")
                    m = DEFINITION.match(line) if report and name.endswith(".c") else None
                    if m:
                        exported += 1
                        if not leads_to_file(m.group(1), path):
                            stem = os.path.splitext(name)[0]
                            problems.append(f"{path}:{lineno}: {m.group(1)}: expected the name to lead to its file, "
                                            f"mmb_report_{stem}_...")
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"house: {files} files, no folder over {MAX_C_FILES} .c files, no lowercase macro, no renaming typedef, "
          f"file-scope state only in {', '.join(sorted(STATE_ALLOWED))}, "
          f"{exported} functions of report/ named for their files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
