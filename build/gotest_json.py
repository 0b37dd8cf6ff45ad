#!/usr/bin/env python3
"""Reads `go test -json` on standard input and prints what a plain `go test`
prints: a line per package (ok, FAIL, no test files), the whole output of every
test that failed (data races included), build errors as they come. With
--skipped FILE it also writes the top-level tests that skipped themselves, one
"package<TAB>Test" a line: build/test.sh's race step runs the suite with -short,
and its plain go test step then runs exactly those tests (the corpus and
real-site sweeps, the kill and two-process tests) without the race detector, so
no test runs twice."""

import json
import sys


def main():
    skipped_path = None
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--skipped":
        skipped_path = args[1]
    elif args:
        sys.exit("usage: go test -json ... | python3 build/gotest_json.py [--skipped FILE]")
    out = sys.stdout
    lines = {}  # package -> [(test, line)]: the output of tests still running
    skipped = []
    seen = set()
    for raw in sys.stdin:
        try:
            ev = json.loads(raw)
        except ValueError:
            out.write(raw)  # go's own words (a build error on stderr)
            out.flush()
            continue
        if not isinstance(ev, dict):
            out.write(raw)
            continue
        action, test = ev.get("Action"), ev.get("Test", "")
        pkg = ev.get("Package") or ev.get("ImportPath", "")
        if action == "build-output":
            out.write(ev.get("Output", ""))
        elif action == "output" and not test:
            text = ev.get("Output", "")
            if text != "PASS\n" and not text.startswith("=== "):
                out.write(text)
        elif action == "output":
            lines.setdefault(pkg, []).append((test, ev.get("Output", "")))
        elif not test and action in ("pass", "fail", "skip"):
            # The package ended: what its tests said and no test's end
            # claimed (a panic, a time-out) is printed when it failed.
            left = lines.pop(pkg, [])
            if action == "fail":
                out.write("".join(l for t, l in left if not l.lstrip().startswith("=== ")))
        elif test and "/" not in test and action in ("pass", "fail", "skip"):
            mine = [l for t, l in lines.get(pkg, []) if t == test or t.startswith(test + "/")]
            lines[pkg] = [(t, l) for t, l in lines.get(pkg, []) if not (t == test or t.startswith(test + "/"))]
            if action == "fail":
                # As go test says it: no run markers, no subtest that passed.
                out.write("".join(l for l in mine if not l.lstrip().startswith(("=== ", "--- PASS"))))
            if action == "skip" and (pkg, test) not in seen:
                seen.add((pkg, test))
                skipped.append((pkg, test))
        elif test and action == "skip":
            # A subtest skipped itself: its whole test runs in the plain step.
            top = test.split("/")[0]
            if (pkg, top) not in seen:
                seen.add((pkg, top))
                skipped.append((pkg, top))
        out.flush()
    if skipped_path:
        with open(skipped_path, "w") as f:
            for pkg, test in skipped:
                f.write(f"{pkg}\t{test}\n")


if __name__ == "__main__":
    main()
