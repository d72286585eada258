#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints a board build's resource use and Fmax per clock (make synth-report).

    board_report.py --board orangecrab-85f --stat SYNTH_STAT.txt [--pnr-log PNR.log]
                    [--mmu-pnr-log MMU_PNR.log] [--hier-stat HIER_STAT.txt] [--markdown]
    board_report.py --board litefury --vivado-util UTIL.rpt --vivado-timing TIMING.rpt

ECP5: LUT4, flip-flops, EBR (DP16KD), DSP (MULT18X18D/ALU54B) from nextpnr's
device utilisation (after packing; Yosys' counts beside them), and the Fmax
nextpnr reports for each clock after routing. Vivado: LUTs, registers, block
RAM tiles, DSP48 from report_utilization, and WNS per clock from
report_timing_summary. Without --pnr-log (make synth-report-yosys) only
Yosys' counts are printed. --markdown prints the table rows docs/boards.md uses.
--hier-stat breaks the resources down by part (MMU, paging engine, GPU
engines, LiteDRAM, CPU, clock crossing, the rest), and the MMU and the
paging engine by block, from a Yosys `stat` of the same design
synthesised with its hierarchy kept (unflattened, so the parts add up to
more than the flattened board; the shares are what to read).
"""
import argparse
import re
import sys


def yosys_counts(path):
    counts = {}
    for line in open(path):
        m = re.match(r"^\s+(\d+)\s+(\w+)\s*$", line)
        if m:
            counts[m.group(2)] = counts.get(m.group(2), 0) + int(m.group(1))
    return counts


def nextpnr_util(path):
    util = {}
    for line in open(path):
        m = re.match(r"Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+(\d+)%", line)
        if m:
            util[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return util


def nextpnr_fmax(path):
    """Clock -> (fmax MHz, target MHz, pass) from the last report (after routing)."""
    fmax = {}
    for line in open(path):
        m = re.search(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz \((PASS|FAIL) at ([\d.]+) MHz\)", line)
        if m:
            name = re.sub(r"^\$glbnet\$", "", m.group(1))
            fmax[name] = (float(m.group(2)), float(m.group(4)), m.group(3) == "PASS")
    return fmax


PART_CELLS = ("LUT4", "TRELLIS_FF", "DP16KD", "MULT18X18D")


def part_of(module):
    """The part a module of an unflattened netlist belongs to: Yosys names
    a uniquified module `type$instance.path`."""
    path = module.split("$", 1)[1] if "$" in module else ""
    if ".u_mmu" in path:
        return "MMU"
    if ".u_paging" in path:
        return "paging engine"
    if ".g_engine" in path:
        return "GPU engines"
    if module.startswith(("litedram_core", "gmmu_dram_cpu")):
        return "LiteDRAM"
    if ".u_cpu" in path or module.startswith("VexRiscv"):
        return "CPU"
    if ".u_cdc" in path or module.startswith(("axi4_cdc", "prim_cdc_fifo")):
        return "clock crossing"
    return "the rest"


# The MMU's blocks, by the instance path below mmu_top (first match wins).
MMU_BLOCKS = (
    (".u_l1", "L1 TLBs (one per port)"),
    (".u_port", "ports: misses, responses"),
    (".u_l2", "L2 TLB"),
    (".gen_pwc", "walk cache"),
    (".u_walker", "walker"),
    (".u_regs", "registers, fault FIFO"),
)


def mmu_block_of(module):
    """The MMU block a module belongs to, or None outside the MMU; mmu_top's
    own cells (fill bus, miss and fault arbiters) are its glue."""
    path = module.split("$", 1)[1] if "$" in module else ""
    if ".u_mmu" not in path:
        return None
    below = path.split(".u_mmu", 1)[1]
    return next((name for key, name in MMU_BLOCKS if key in below), "mmu_top glue, arbiters")


# The paging engine's blocks, by the instance path below paging_engine.
PAGING_BLOCKS = (
    (".u_queue", "queue RAM"),
    (".u_regs", "registers, counters"),
    (".u_fetch", "fetch, decode"),
    (".u_exec", "packet start, flush, fence"),
    (".u_wr", "write bursts"),
    (".u_rd", "COPY reads"),
    (".u_fifo", "COPY FIFO"),
    (".u_track", "packet tracker"),
    (".u_ctrl", "errors, restart"),
)


def paging_block_of(module):
    """The paging-engine block a module belongs to, or None outside it."""
    path = module.split("$", 1)[1] if "$" in module else ""
    if ".u_paging" not in path:
        return None
    below = path.split(".u_paging", 1)[1]
    return next((name for key, name in PAGING_BLOCKS if key in below), "paging_engine glue")


def hier_parts(path, classify=part_of):
    """Group -> cell type -> count, summing each module's own cells; modules
    classify() maps to None are left out."""
    text = open(path).read()
    blocks = re.split(r"^=== (.+?) ===$", text, flags=re.M)
    parts = {}
    for name, body in zip(blocks[1::2], blocks[2::2]):
        group = classify(name) if name != "design hierarchy" else None
        if group is None:
            continue
        counts = parts.setdefault(group, dict.fromkeys(PART_CELLS, 0))
        for m in re.finditer(r"^\s+(\d+)\s+(\w+)\s*$", body, re.M):
            if m.group(2) in counts:
                counts[m.group(2)] += int(m.group(1))
    return parts


def print_groups(parts, width):
    total = sum(p["LUT4"] for p in parts.values()) or 1
    print(f"  {'':<{width}} {'LUT4':>7} {'share':>6} {'FF':>7} {'EBR':>4} {'DSP':>4}")
    for name, c in sorted(parts.items(), key=lambda kv: -kv[1]["LUT4"]):
        print(f"  {name:<{width}} {c['LUT4']:>7} {100 * c['LUT4'] / total:5.1f}% {c['TRELLIS_FF']:>7}"
              f" {c['DP16KD']:>4} {c['MULT18X18D']:>4}")


def print_parts(path):
    print("== resources by part (synthesised with the hierarchy kept: the parts add up to more"
          " than the flattened design; read the shares)")
    print_groups(hier_parts(path), 16)
    print("== the MMU by block (same netlist; shares of the MMU)")
    print_groups(hier_parts(path, mmu_block_of), 26)
    paging = hier_parts(path, paging_block_of)
    if paging:
        print("== the paging engine by block (same netlist; shares of the engine)")
        print_groups(paging, 26)


def ecp5(a):
    ys = yosys_counts(a.stat)
    util = nextpnr_util(a.pnr_log) if a.pnr_log else {}
    fmax = nextpnr_fmax(a.pnr_log) if a.pnr_log else {}
    rows = [
        ("LUT4 (logic cells)", util.get("TRELLIS_COMB"), ys.get("LUT4")),
        ("Flip-flops", util.get("TRELLIS_FF"), ys.get("TRELLIS_FF")),
        ("EBR (DP16KD, 18 Kbit)", util.get("DP16KD"), ys.get("DP16KD")),
        ("DSP (MULT18X18D)", util.get("MULT18X18D"), ys.get("MULT18X18D")),
        ("PLL (EHXPLLL)", util.get("EHXPLLL"), ys.get("EHXPLLL")),
        ("I/O", util.get("TRELLIS_IO"), None),
    ]
    print(f"== {a.board}: resources (nextpnr after packing; yosys cells)")
    for name, u, y in rows:
        used = f"{u[0]:>6} / {u[1]:<6} ({100 * u[0] / u[1]:4.1f}%)" if u else "     -"
        print(f"  {name:<24} {used}   yosys {y if y is not None else '-'}")
    if a.pnr_log:
        print(f"== {a.board}: Fmax per clock (nextpnr, after routing)")
    for clk, (f, target, ok) in fmax.items():
        print(f"  {clk:<40} {f:7.2f} MHz  (target {target:.0f} MHz: {'PASS' if ok else 'FAIL'})")
    if a.mmu_pnr_log:
        mf = nextpnr_fmax(a.mmu_pnr_log)
        mu = nextpnr_util(a.mmu_pnr_log)
        for clk, (f, target, ok) in mf.items():
            print(f"== mmu_top alone (registered ports): {f:.2f} MHz  (target {target:.0f} MHz: "
                  f"{'PASS' if ok else 'FAIL'}), {mu.get('TRELLIS_COMB', (0,))[0]} LUT4, "
                  f"{mu.get('TRELLIS_FF', (0,))[0]} FF, {mu.get('DP16KD', (0,))[0]} EBR")
    if a.hier_stat:
        print_parts(a.hier_stat)
    if a.markdown:
        for name, u, _ in rows:
            if u:
                print(f"| {name} | {u[0]} / {u[1]} ({100 * u[0] / u[1]:.1f}%) |")
        for clk, (f, target, ok) in fmax.items():
            print(f"| Fmax `{clk}` | {f:.2f} MHz (target {target:.0f} MHz) |")
    return 0 if all(ok for _, _, ok in fmax.values()) else 1


def vivado(a):
    text = open(a.vivado_util).read()
    print(f"== {a.board}: resources (Vivado report_utilization)")
    for label in ("Slice LUTs", "Slice Registers", "Block RAM Tile", "DSPs"):
        m = re.search(r"\|\s*" + re.escape(label) + r"\*?\s*\|\s*([\d.]+)\s*\|.*?\|\s*([\d.]+)\s*\|\s*([\d.<]+)\s*\|", text)
        print(f"  {label:<18} {m.group(1) + ' / ' + m.group(2) + ' (' + m.group(3) + '%)' if m else '-'}")
    timing = open(a.vivado_timing).read()
    print(f"== {a.board}: timing (Vivado report_timing_summary)")
    m = re.search(r"WNS\(ns\)\s+TNS\(ns\).*?\n\s*-+.*?\n\s*([-\d.]+)\s+([-\d.]+)", timing, re.S)
    if m:
        print(f"  design WNS {m.group(1)} ns, TNS {m.group(2)} ns")
    for m in re.finditer(r"^(\S+)\s+\{[\d.\s]+\}\s+([\d.]+)\s+([\d.]+)\s*$", timing, re.M):
        print(f"  clock {m.group(1):<30} period {m.group(2)} ns ({m.group(3)} MHz)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--stat")
    ap.add_argument("--pnr-log")
    ap.add_argument("--report")
    ap.add_argument("--mmu-pnr-log")
    ap.add_argument("--hier-stat")
    ap.add_argument("--vivado-util")
    ap.add_argument("--vivado-timing")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.vivado_util:
        return vivado(a)
    return ecp5(a)


if __name__ == "__main__":
    sys.exit(main())
