#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/ecp5_paths.py on a netlist small enough to time by hand.

    ff_a -> LUT4 -> LUT4 -> ff_b      (the long path)
    ff_a -> LUT4 ------------> ff_c   (a short one)
    ff_a -> CCU2C.A -> COUT -> CCU2C.CIN -> S0 -> ff_d   (a carry chain)

ff_b: clock-to-Q 0.5 + 2 x (net 0.85 + LUT 0.45) + net 0.85 + setup 0.1 = 4.05 ns
ff_c: 0.5 + 0.85 + 0.45 + 0.85 + 0.1 = 2.75 ns
ff_d: 0.5 + 0.85 + 0.6 (A -> COUT) + 0.0 (carry net) + 0.3 (CIN -> S0) + 0.85 + 0.1 = 3.20 ns
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "ecp5_paths.py")


def ff(name, d, q):
    return name, {"type": "TRELLIS_FF", "port_directions": {"CLK": "input", "DI": "input", "Q": "output"},
                  "connections": {"CLK": [1], "DI": [d], "Q": [q]}}


def lut(name, a, z):
    return name, {"type": "LUT4", "port_directions": {"A": "input", "B": "input", "C": "input", "D": "input",
                                                       "Z": "output"},
                  "connections": {"A": [a], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [z]}}


def ccu(name, a, cin, s0, cout):
    return name, {"type": "CCU2C", "port_directions": {"A0": "input", "CIN": "input", "S0": "output",
                                                        "COUT": "output"},
                  "connections": {"A0": [a], "CIN": [cin], "S0": [s0], "COUT": [cout]}}


def main():
    cells = dict([ff("ff_a", 2, 10), lut("l1", 10, 11), lut("l2", 11, 12), ff("ff_b", 12, 13),
                  lut("l3", 10, 14), ff("ff_c", 14, 15),
                  ccu("c0", 10, "0", 16, 17), ccu("c1", 17, 17, 18, 19), ff("ff_d", 18, 20)])
    # c1's A0 is the carry net itself only to give it an input; CIN is what counts.
    cells["c1"]["connections"]["A0"] = ["0"]
    nets = {"clk": 1, "a_q": 10, "x": 11, "long_d": 12, "b_q": 13, "short_d": 14, "c_q": 15,
            "sum0": 16, "carry": 17, "sum1": 18, "carry_out": 19, "d_q": 20, "fb": 2}
    netnames = {n: {"hide_name": 0, "bits": [b]} for n, b in nets.items()}
    design = {"modules": {"t": {"cells": cells, "netnames": netnames}}}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(design, f)
    try:
        out = subprocess.run([sys.executable, TOOL, f.name, "t", "--paths", "3", "--periods", "4.0,3.0"],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    print(out)
    want = ["worst estimate 4.0 ns (246.9 MHz)", "4.0 ns to ff_b", "3.2 ns to ff_d", "2.8 ns to ff_c",
            "over 4.0 ns (250 MHz): 1 path ends", "over 3.0 ns (333 MHz): 2 path ends"]
    missing = [w for w in want if w not in out]
    if missing:
        print(f"test_ecp5_paths: FAIL, missing {missing}")
        return 1
    # The long path names every net on the way.
    path = out.split("to ff_b")[1].split("\n\n")[0]
    if [line.split()[-1] for line in path.strip().splitlines()[1:]] != ["a_q", "x", "long_d"]:
        print(f"test_ecp5_paths: FAIL, path to ff_b is {path!r}")
        return 1
    print("test_ecp5_paths: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
