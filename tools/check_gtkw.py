#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every signal a GTKWave view (sim/waves/*.gtkw) names exists,
with the same bit range, in the simulated SoC (make t-gtkw).

The signals are those of a trace of the Verilator harness (TOP.soc_top...,
generate blocks as scopes like gen_port[0], vectors flattened to one
range, unpacked arrays one signal per element). Without building a traced
simulator, they are worked out from Verilator's elaborated netlist
(`verilator --xml-only`), which names the same scopes and ranges; or read
from the header of a real trace converted to VCD (`fst2vcd`).

    check_gtkw.py --xml SOC.xml VIEW.gtkw...
    check_gtkw.py --vcd TRACE.vcd VIEW.gtkw...
    check_gtkw.py --xml SOC.xml --compare-vcd TRACE.vcd
        how the netlist's names and a real trace's agree (a one-off check
        of this script)

Exit 1 if a view names a signal that is not there (each one is printed).
"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

# Verilator traces unpacked arrays of at most this many elements
# (--trace-max-array's default).
TRACE_MAX_ARRAY = 32

# Lines of a .gtkw file that are not signal names.
NOT_SIGNAL = ("[", "@", "*", "-", "#")


def gtkw_signals(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith(NOT_SIGNAL):
            out.append(line)
    return out


def vcd_signals(path):
    names, stack = set(), []
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "$scope":
            stack.append(w[2])
        elif w[0] == "$upscope":
            stack.pop()
        elif w[0] == "$var":
            rng = w[5] if len(w) > 5 and w[5] != "$end" else ""
            names.add(".".join(stack + [w[4]]) + rng)
        elif w[0] == "$enddefinitions":
            break
    return names


def const_value(text):
    """A Verilator constant as the XML writes it: 32'h1f, 32'sh3, 5."""
    m = re.fullmatch(r"(?:\d+)?'s?([hdbo])([0-9a-fA-F_]+)", text)
    if not m:
        return int(text)
    return int(m.group(2).replace("_", ""), {"h": 16, "d": 10, "b": 2, "o": 8}[m.group(1)])


def xml_signals(path):
    root = ET.parse(path).getroot()
    modules = {m.get("name"): m for m in root.iter("module")}
    types = {t.get("id"): t for t in root.find(".//typetable")}
    top = root.find(".//cells/cell")
    names = set()

    def ranges(dtype_id):
        """The suffixes a variable of this type is traced with."""
        t = types[dtype_id]
        while t.tag in ("refdtype", "typedefdtype") and t.get("sub_dtype_id"):
            t = types[t.get("sub_dtype_id")]
        if t.tag == "unpackarraydtype":
            rng = t.find("range")
            consts = [const_value(c.get("name")) for c in rng.iter("const")]
            lo, hi = min(consts), max(consts)
            if hi - lo + 1 > TRACE_MAX_ARRAY:
                return []  # not traced
            inner = ranges(t.get("sub_dtype_id"))
            return [f"[{i}]{s}" for i in range(lo, hi + 1) for s in inner]
        left, right = t.get("left"), t.get("right")
        if left is None:
            return [""]
        return [f"[{left}:{right}]"]

    def walk(elem, path):
        for c in elem:
            if c.tag == "var":
                if c.get("name").startswith("_V"):
                    continue  # Verilator's own temporaries
                for suffix in ranges(c.get("dtype_id")):
                    names.add(f"{path}.{c.get('name')}{suffix}")
            elif c.tag == "begin":
                # A generate loop's own block (gen_port) holds only its
                # genvar; its iterations (gen_port[0]) are scopes.
                walk(c, f"{path}.{c.get('name')}")
            elif c.tag == "instance":
                walk(modules[c.get("defName")], f"{path}.{c.get('name')}")

    walk(modules[top.get("submodname")], f"TOP.{top.get('name')}")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--xml")
    src.add_argument("--vcd")
    ap.add_argument("--compare-vcd")
    ap.add_argument("views", nargs="*")
    a = ap.parse_args()
    have = xml_signals(a.xml) if a.xml else vcd_signals(a.vcd)
    if a.compare_vcd:
        trace = vcd_signals(a.compare_vcd)
        only_trace = sorted(trace - have)
        print(f"check_gtkw: netlist {len(have)} signals, trace {len(trace)}, in both "
              f"{len(trace & have)}; in the trace only {len(only_trace)}")
        for n in only_trace[:20]:
            print(f"  trace only: {n}")
        return 0
    missing = 0
    for view in a.views:
        sigs = gtkw_signals(view)
        bad = [s for s in sigs if s not in have]
        for s in bad:
            print(f"check_gtkw: {view}: no signal {s}")
        missing += len(bad)
        print(f"check_gtkw: {view}: {len(sigs) - len(bad)} of {len(sigs)} signals found")
    return 1 if missing or not a.views else 0


if __name__ == "__main__":
    sys.exit(main())
