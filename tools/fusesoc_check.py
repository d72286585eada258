#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the FuseSoC cores against the RTL file lists (make t-fusesoc).

The lists rtl/<folder>/<folder>.f are the source every make fragment and
board flow reads; each folder's core (rtl/<folder>/*.core, the one whose
filesets name Verilog or SystemVerilog files) must list exactly the same
files in the same order. Files of other types (a Verilator waiver),
include files and files of other folders (a lint target's checkers) may be
added. Every .f must have its core, and no core may name a file that does
not exist.

    fusesoc_check.py [--root DIR]    check; exit 1 with one line per difference
    fusesoc_check.py --self-test     the check must catch a missing, an extra,
                                     a reordered and a missing-core case
"""
import argparse
import pathlib
import sys
import tempfile

import yaml

HDL_SUFFIXES = (".sv", ".v", ".svh", ".vh")


def read_f(path):
    """The paths of a .f list, as rtl/mk's rtl_files reads them."""
    out = []
    for line in path.read_text().splitlines():
        line = line.split("//", 1)[0].strip()
        if line:
            out.append(line)
    return out


def core_files(path):
    """(name, HDL files relative to the repo root, in fileset order, all files)."""
    data = yaml.safe_load(path.read_text())
    hdl, every = [], []
    for fs in (data.get("filesets") or {}).values():
        for entry in fs.get("files") or []:
            name = next(iter(entry)) if isinstance(entry, dict) else entry
            attrs = entry[name] if isinstance(entry, dict) else {}
            rel = (path.parent / name)
            every.append(rel)
            if name.endswith(HDL_SUFFIXES) and not (attrs or {}).get("is_include_file"):
                hdl.append(rel)
    return data.get("name"), hdl, every


def check(root):
    errors = []
    rtl = root / "rtl"
    for flist in sorted(rtl.glob("*/*.f")):
        folder = flist.parent
        want = read_f(flist)
        cores = []
        for core in sorted(folder.glob("*.core")):
            name, hdl, every = core_files(core)
            for f in every:
                if not f.is_file():
                    errors.append(f"{core.relative_to(root)}: {f} does not exist")
            # Files of other folders (a lint target's checkers) belong to
            # their own folder's list; here they need only exist.
            hdl = [p for p in hdl if p.resolve().parent == folder.resolve()]
            if hdl:
                cores.append((core, name, [str(p.resolve().relative_to(root)) for p in hdl]))
        if not cores:
            errors.append(f"{flist.relative_to(root)}: no core in {folder.relative_to(root)}/ lists its files")
            continue
        if len(cores) > 1:
            errors.append(f"{folder.relative_to(root)}: more than one core lists HDL files")
        core, name, got = cores[0]
        where = f"{core.relative_to(root)} ({name}) against {flist.relative_to(root)}"
        for f in want:
            if f not in got:
                errors.append(f"{where}: {f} is missing from the core")
        for f in got:
            if f not in want:
                errors.append(f"{where}: {f} is not in the list")
        common_got = [f for f in got if f in want]
        common_want = [f for f in want if f in got]
        if common_got != common_want:
            errors.append(f"{where}: the order differs")
    return errors


def self_test():
    """A small tree where each kind of difference must be reported."""
    cases = {
        "agree": ("a.sv\nb.sv\n", ["a.sv", "b.sv"], 0),
        "missing": ("a.sv\nb.sv\n", ["a.sv"], 1),
        "extra": ("a.sv\n", ["a.sv", "b.sv"], 1),
        "order": ("a.sv\nb.sv\n", ["b.sv", "a.sv"], 1),
        "no core": ("a.sv\n", None, 1),
    }
    bad = 0
    for label, (flist, files, want_errors) in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            d = root / "rtl" / "x"
            d.mkdir(parents=True)
            for f in ("a.sv", "b.sv"):
                (d / f).write_text("// x\n")
            (d / "x.f").write_text("// list\n" + "".join(f"rtl/x/{line}\n" for line in flist.split()))
            if files is not None:
                (d / "x.core").write_text(yaml.safe_dump({
                    "name": "t:t:x", "filesets": {"rtl": {"file_type": "systemVerilogSource",
                                                          "files": files}},
                    "targets": {"default": {"filesets": ["rtl"]}}}))
            errors = check(root)
            ok = bool(errors) == bool(want_errors)
            print(f"fusesoc_check self-test: {label}: {'ok' if ok else 'NOT CAUGHT'}"
                  f" ({len(errors)} difference(s))")
            bad += not ok
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=pathlib.Path,
                    default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    errors = check(a.root.resolve())
    for e in errors:
        print(f"fusesoc_check: {e}")
    if errors:
        return 1
    n = len(list((a.root / "rtl").glob("*/*.f")))
    print(f"fusesoc_check: the cores list the files of all {n} rtl/*/*.f lists, in order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
