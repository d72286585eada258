#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarise yosys `stat` output of the MMU: LUTs, flip-flops, block and
distributed RAM, for synth_ecp5 and synth_xilinx.

    synth_report.py ECP5.stat XILINX.stat
"""
import re
import sys


def cells(path):
    """Cell counts of the last (top-level, flattened) stat block."""
    counts = {}
    for line in open(path):
        m = re.match(r"\s+(\$?[\w$]+)\s+(\d+)\s*$", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
        if "Number of cells" in line:
            counts = {}
    return counts


def total(counts, pattern):
    return sum(v for k, v in counts.items() if re.fullmatch(pattern, k))


def main():
    ecp5, xil = cells(sys.argv[1]), cells(sys.argv[2])
    print("| Target | LUTs | Flip-flops | Block RAM | Distributed RAM | Carry |")
    print("|---|---|---|---|---|---|")
    print(f"| ECP5 (synth_ecp5) | {total(ecp5, 'LUT4')} LUT4 (+{total(ecp5, 'PFUMX|L6MUX21')} muxes) "
          f"| {total(ecp5, 'TRELLIS_FF')} | {total(ecp5, 'DP16KD')} DP16KD "
          f"| {total(ecp5, 'TRELLIS_DPR16X4')} DPR16X4 | {total(ecp5, 'CCU2C')} CCU2C |")
    print(f"| Xilinx 7 (synth_xilinx) | {total(xil, 'LUT[1-6]')} LUT1-6 "
          f"| {total(xil, 'FD[A-Z]*')} | {total(xil, 'RAMB18E1')} RAMB18 + {total(xil, 'RAMB36E1')} RAMB36 "
          f"| {total(xil, 'RAM(32|64|128|256)[A-Z0-9]*')} LUTRAM cells | {total(xil, 'CARRY4')} CARRY4 |")


if __name__ == "__main__":
    main()
