#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Longest register-to-register paths of an ECP5-mapped Yosys JSON netlist.

    ecp5_paths.py NETLIST.json TOP [--paths N] [--periods NS,NS,...]

nextpnr names no critical path until routing finishes, and on the boards
routing takes most of an hour or does not finish. This reads the netlist
that synth_ecp5 wrote and estimates each path with a fixed delay per cell
and per net (speed grade 8, calibrated against nextpnr's post-placement
estimate for mmu_top in the OrangeCrab configuration: 24.2 ns here, 24.9 ns
there). It is for finding which registers to cut between, not for sign-off:
it knows no placement, treats all clocks as one, and charges every routed
net the same.

Prints the N worst paths to distinct registers, each net on the way named
after the RTL signal Yosys derived it from, then per period how many path
ends are over it, grouped by the module they are in.
"""
import argparse
import collections
import json
import re
import sys

SEQUENTIAL = {"TRELLIS_FF": 0.5, "DP16KD": 3.0, "TRELLIS_DPR16X4": 1.5, "MULT18X18D": 4.0, "ALU54B": 4.0}
CLOCK_PORTS = {"CLK", "CLKA", "CLKB", "WCK"}
ROUTED_NET_NS = 0.85  # an average general-routing hop between slices
SETUP_NS = 0.1


def cell_ns(cell_type, in_port, out_port):
    """Delay through a combinational cell from in_port to out_port."""
    if cell_type == "LUT4":
        return 0.45
    if cell_type in ("PFUMX", "L6MUX21"):
        return 0.25
    if cell_type == "CCU2C":
        if in_port == "CIN":
            return 0.05 if out_port == "COUT" else 0.3
        return 0.6
    return 0.5


def net_ns(sink_type, sink_port):
    """Carry chains and the wide-mux cells' LUT inputs stay inside a slice."""
    if sink_type == "CCU2C" and sink_port == "CIN":
        return 0.0
    if sink_type in ("PFUMX", "L6MUX21") and sink_port in ("ALUT", "BLUT", "D0", "D1"):
        return 0.05
    return ROUTED_NET_NS


def register_group(cell_name):
    """u_a.u_b.x_q[3]_TRELLIS_FF_Q_7 -> u_a.u_b.x_q[]"""
    base = re.split(r"_(?:LUT4|TRELLIS|CCU2C|PFUMX|L6MUX|DP16KD)", cell_name)[0]
    return re.sub(r"\[\d+\]", "[]", base)


def rtl_source(cell):
    """The design's own file:line in a cell's src attribute ("" if none).

    After techmap and ABC a flip-flop's name is often another signal's, but
    its src still names the always_ff block (or memory) it came from."""
    for part in cell.get("attributes", {}).get("src", "").split("|"):
        if part and not part.startswith("/"):
            return re.sub(r"\.\d+(-\d+\.\d+)?$", "", part)
    return ""


class Netlist:
    def __init__(self, module):
        self.cells = module["cells"]
        self.names = collections.defaultdict(list)
        for name, info in module["netnames"].items():
            for bit in info["bits"]:
                if isinstance(bit, int):
                    self.names[bit].append((info.get("hide_name", 0), name))
        self.driver = {}
        for cell_name, cell in self.cells.items():
            dirs = cell.get("port_directions", {})
            for port, bits in cell["connections"].items():
                if dirs.get(port) == "output":
                    for bit in bits:
                        if isinstance(bit, int):
                            self.driver[bit] = (cell_name, port)
        self.arrival = {}
        self.previous = {}

    def label(self, bit):
        return sorted(self.names.get(bit, [(1, "?")]))[0][1]

    def arrival_ns(self, bit):
        """Latest arrival at a net, iteratively (netlists are deep)."""
        stack = [bit]
        while stack:
            b = stack[-1]
            if b in self.arrival:
                stack.pop()
                continue
            if b not in self.driver:
                self.arrival[b], self.previous[b] = 0.0, None
                stack.pop()
                continue
            cell_name, out_port = self.driver[b]
            cell = self.cells[cell_name]
            if cell["type"] in SEQUENTIAL:
                self.arrival[b], self.previous[b] = SEQUENTIAL[cell["type"]], None
                stack.pop()
                continue
            inputs = list(self._inputs(cell))
            pending = [ib for _, ib in inputs if ib not in self.arrival]
            if pending:
                stack.extend(pending)
                continue
            best, best_bit = 0.0, None
            for port, ib in inputs:
                t = self.arrival[ib] + net_ns(cell["type"], port) + cell_ns(cell["type"], port, out_port)
                if t > best:
                    best, best_bit = t, ib
            self.arrival[b], self.previous[b] = best, best_bit
            stack.pop()
        return self.arrival[bit]

    @staticmethod
    def _inputs(cell):
        dirs = cell.get("port_directions", {})
        for port, bits in cell["connections"].items():
            if dirs.get(port) != "output":
                for bit in bits:
                    if isinstance(bit, int):
                        yield port, bit

    def path_ends(self):
        """(ns, net, cell, port) for every sequential input, worst first."""
        ends = []
        for cell_name, cell in self.cells.items():
            if cell["type"] not in SEQUENTIAL:
                continue
            for port, bit in self._inputs(cell):
                if port not in CLOCK_PORTS:
                    ends.append((self.arrival_ns(bit) + ROUTED_NET_NS + SETUP_NS, bit, cell_name, port))
        ends.sort(key=lambda e: -e[0])
        return ends

    def path_to(self, bit):
        path = []
        while bit is not None:
            path.append(bit)
            bit = self.previous.get(bit)
        return list(reversed(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("netlist")
    ap.add_argument("top")
    ap.add_argument("--paths", type=int, default=3, help="worst paths to print (distinct registers)")
    ap.add_argument("--periods", default="20.8,10.0", help="clock periods in ns to count path ends against")
    a = ap.parse_args()
    design = json.load(open(a.netlist))
    if a.top not in design["modules"]:
        sys.exit(f"ecp5_paths: no module {a.top} in {a.netlist}")
    nl = Netlist(design["modules"][a.top])
    ends = nl.path_ends()
    if not ends:
        sys.exit("ecp5_paths: no register inputs found")
    print(f"ecp5_paths: {a.top}: worst estimate {ends[0][0]:.1f} ns ({1000.0 / ends[0][0]:.1f} MHz)")
    shown = set()
    for ns, bit, cell_name, port in ends:
        if len(shown) >= a.paths:
            break
        group = register_group(cell_name)
        if group in shown:
            continue
        shown.add(group)
        print(f"\n{ns:5.1f} ns to {group} ({cell_name}.{port}) [{rtl_source(nl.cells[cell_name])}]")
        for b in nl.path_to(bit):
            driver = nl.driver.get(b)
            kind = nl.cells[driver[0]]["type"] if driver else "input"
            where = rtl_source(nl.cells[driver[0]]) if driver and kind in SEQUENTIAL else ""
            print(f"   {nl.arrival[b]:5.1f}  {kind:10} {nl.label(b)[:140]}" + (f" [{where}]" if where else ""))
    for period in (float(p) for p in a.periods.split(",") if p):
        over = collections.Counter()
        for ns, _, cell_name, _ in ends:
            if ns > period:
                over[".".join(register_group(cell_name).split(".")[:3])] += 1
        top = ", ".join(f"{k} {v}" for k, v in over.most_common(8))
        print(f"\nover {period} ns ({1000.0 / period:.0f} MHz): {sum(over.values())} path ends; {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
