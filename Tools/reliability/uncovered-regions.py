#!/usr/bin/env python3
"""Lists the code regions no test ran, from `llvm-cov export` JSON on stdin.

Swift's coverage mapping has code regions and no branch regions (the compiler emits none, see
RELIABILITY.md), so a region not run is the closest to "a branch not taken" it can show: the
body of an `if`, `guard … else`, `case`, `catch` or `??` right-hand side, or the code after a
`return` inside one. Prints one line per region: file:line:column, the count of lines it spans,
and the source line it starts on. Usage (Tools/reliability/coverage does this):

    llvm-cov export -format=text BINARY -instr-profile P FILES… | uncovered-regions.py ROOT
"""
import json
import os
import sys

CODE_REGION = 0


def main() -> None:
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    export = json.load(sys.stdin)
    seen = set()
    listed = []
    for data in export["data"]:
        files = {entry["filename"] for entry in data["files"]}
        for function in data["functions"]:
            names = function["filenames"]
            for region in function["regions"]:
                line, column, end_line, end_column, count, file_id, _expanded, kind = region[:8]
                if count != 0 or kind != CODE_REGION or names[file_id] not in files:
                    continue
                key = (names[file_id], line, column)
                if key in seen:
                    continue
                seen.add(key)
                listed.append((names[file_id], (line, column), (end_line, end_column)))
    # A region inside another region not run is not listed: the outer one says it.
    outermost = []
    for path, start, end in sorted(listed, key=lambda region: (region[0], region[1], (-region[2][0], -region[2][1]))):
        if outermost and outermost[-1][0] == path and outermost[-1][1] <= start and end <= outermost[-1][2]:
            continue
        outermost.append((path, start, end))
    sources = {}
    for path, (line, column), (end_line, _) in outermost:
        if path not in sources:
            with open(path, encoding="utf-8") as handle:
                sources[path] = handle.read().split("\n")
        text = sources[path][line - 1].strip() if line - 1 < len(sources[path]) else ""
        span = end_line - line + 1
        print(f"{os.path.relpath(path, root)}:{line}:{column}  ({span} line{'s' if span != 1 else ''})  {text[:100]}")
    print(f"{len(outermost)} regions not run (outermost; {len(listed)} with those inside them)", file=sys.stderr)


if __name__ == "__main__":
    main()
