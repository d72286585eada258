#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the files the named tests (make targets t-NAME) need built, one
per line as "LIBC PATH" (the C library to build it with).

Reads make's database (`make -pq`, once per C library, since a test named
X-newlib is t-X built with LIBC=newlib) and follows each t-NAME's
prerequisites through phony targets (demo-run, ...) down to files: every
absolute path found is printed once. tools/testrun.sh builds them all in
one parallel make before running the tests side by side, so that no two
tests ever build the same file at once.

    test_prereqs.py ROOT TEST...

With --per-test, every test's files are printed, as "TEST LIBC PATH", each
test with all of its own (a file several tests need is printed for each):
tools/testrun.sh starts a test as soon as its files are built.
"""
import re
import subprocess
import sys

RULE = re.compile(r"^([^\s:#=%][^:=]*?):(?!=)\s*(.*)$")


def database(root, libc):
    out = subprocess.run(["make", "-C", root, "-pq", "--no-print-directory", "LIBC=" + libc],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    rules = {}
    for line in out.splitlines():
        m = RULE.match(line)
        if m and not line.startswith("\t"):
            rules.setdefault(m.group(1).strip(), []).extend(m.group(2).split("|")[0].split())
    return rules


def files_of(target, rules, seen):
    for dep in rules.get(target, []):
        if dep in seen:
            continue
        seen.add(dep)
        if dep.startswith("/"):
            yield dep
        else:
            yield from files_of(dep, rules, seen)


def main():
    args = sys.argv[1:]
    per_test = args[:1] == ["--per-test"]
    if per_test:
        args = args[1:]
    root, tests = args[0], args[1:]
    dbs = {}
    printed = set()
    for test in tests:
        libc, name = ("newlib", test[:-len("-newlib")]) if test.endswith("-newlib") else ("picolibc", test)
        if libc not in dbs:
            dbs[libc] = database(root, libc)
        rules = dbs[libc]
        for f in files_of("t-" + name, rules, set()):
            if per_test:
                print(test, libc, f)
            elif f not in printed:
                printed.add(f)
                print(libc, f)


if __name__ == "__main__":
    main()
