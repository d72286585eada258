#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/board_report.py's resources by part and the MMU by block, on a
Yosys `stat` of an unflattened netlist small enough to add up by hand.

    module (instance path)                      LUT4   FF  EBR
    orangecrab_top (top, no path)                 10    1    0   the rest
    VexRiscv$...u_cpu                            100   20    2   CPU
    litedram_core$...u_dram                       50    5    1   LiteDRAM
    mmu_top$...u_mmu                               7    3    0   MMU: glue
    mmu_port$...u_mmu.gen_port[0].u_port          40    8    0   MMU: ports
    mmu_port$...u_mmu.gen_port[1].u_port          40    8    0   MMU: ports
    mmu_l1_tlb$...gen_port[1].u_port.u_l1         30    6    0   MMU: L1 (not ports)
    prim_lowest_set$...u_port.u_l1.u_hit_enc        2    0    0   MMU: L1 (below it)
    mmu_l2_tlb$...u_mmu.u_l2                      60   10    4   MMU: L2
    mmu_pwc$...u_mmu.u_walker.gen_pwc.u_pwc       25    5    0   MMU: walk cache (not walker)
    mmu_walker$...u_mmu.u_walker                  15    4    0   MMU: walker
    mmu_regs$...u_mmu.u_regs                      11    2    0   MMU: registers
    gpu_engine$...g_engine[0].u_engine            70    9    0   GPU engines
    paging_engine$...u_paging                      5    2    0   paging: glue
    paging_fetch$...u_paging.u_fetch              20    4    0   paging: fetch
    prim_ram_1r1w$...u_paging.u_queue_lo           0    0    1   paging: queue RAM
    prim_ram_1r1w$...u_paging.u_queue_hi           0    0    1   paging: queue RAM
    paging_regs$...u_paging.u_regs                 9    3    0   paging: registers (not the MMU's)

MMU: LUT4 7+40+40+30+2+60+25+15+11 = 230, FF 3+8+8+6+0+10+5+4+2 = 46, EBR 4.
Paging engine: LUT4 5+20+0+0+9 = 34, FF 2+4+0+0+3 = 9, EBR 2.
The "design hierarchy" block (totals) must not be counted.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import board_report  # noqa: E402

SOC = "orangecrab_top.u_soc.u_soc"
MODULES = [
    ("orangecrab_top", 10, 1, 0),
    (f"VexRiscv${SOC}.u_cpu", 100, 20, 2),
    (f"litedram_core$orangecrab_top.u_dram", 50, 5, 1),
    (f"mmu_top${SOC}.u_mmu", 7, 3, 0),
    (f"mmu_port${SOC}.u_mmu.gen_port[0].u_port", 40, 8, 0),
    (f"mmu_port${SOC}.u_mmu.gen_port[1].u_port", 40, 8, 0),
    (f"mmu_l1_tlb${SOC}.u_mmu.gen_port[1].u_port.u_l1", 30, 6, 0),
    (f"prim_lowest_set${SOC}.u_mmu.gen_port[1].u_port.u_l1.u_hit_enc", 2, 0, 0),
    (f"mmu_l2_tlb${SOC}.u_mmu.u_l2", 60, 10, 4),
    (f"mmu_pwc${SOC}.u_mmu.u_walker.gen_pwc.u_pwc", 25, 5, 0),
    (f"mmu_walker${SOC}.u_mmu.u_walker", 15, 4, 0),
    (f"mmu_regs${SOC}.u_mmu.u_regs", 11, 2, 0),
    (f"gpu_engine${SOC}.g_engine[0].u_engine", 70, 9, 0),
    (f"paging_engine${SOC}.u_paging", 5, 2, 0),
    (f"paging_fetch${SOC}.u_paging.u_fetch", 20, 4, 0),
    (f"prim_ram_1r1w${SOC}.u_paging.u_queue_lo", 0, 0, 1),
    (f"prim_ram_1r1w${SOC}.u_paging.u_queue_hi", 0, 0, 1),
    (f"paging_regs${SOC}.u_paging.u_regs", 9, 3, 0),
]


def stat_text():
    out = []
    for name, lut, ff, ebr in MODULES:
        out += [f"=== {name} ===", "", f"     {lut + ff + ebr} cells", f"     {lut}   LUT4",
                f"     {ff}   TRELLIS_FF"]
        if ebr:
            out.append(f"     {ebr}   DP16KD")
        out.append("")
    out += ["=== design hierarchy ===", "", "     9999   LUT4", "     9999   TRELLIS_FF", ""]
    return "\n".join(out)


def expect(got, want, what):
    for group, (lut, ff, ebr) in want.items():
        c = got.get(group)
        if c is None or (c["LUT4"], c["TRELLIS_FF"], c["DP16KD"]) != (lut, ff, ebr):
            print(f"FAIL {what} {group}: got {c}, want LUT4 {lut} FF {ff} EBR {ebr}")
            return False
    if set(got) != set(want):
        print(f"FAIL {what}: groups {sorted(got)}, want {sorted(want)}")
        return False
    return True


def main():
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"board_report_test_{os.getpid()}.txt")
    with open(path, "w") as f:
        f.write(stat_text())
    try:
        parts = board_report.hier_parts(path)
        blocks = board_report.hier_parts(path, board_report.mmu_block_of)
        pblocks = board_report.hier_parts(path, board_report.paging_block_of)
    finally:
        os.unlink(path)
    ok = expect(parts, {
        "MMU": (230, 46, 4), "CPU": (100, 20, 2), "LiteDRAM": (50, 5, 1),
        "GPU engines": (70, 9, 0), "paging engine": (34, 9, 2), "the rest": (10, 1, 0),
    }, "part")
    ok &= expect(blocks, {
        "mmu_top glue, arbiters": (7, 3, 0), "ports: misses, responses": (80, 16, 0),
        "L1 TLBs (one per port)": (32, 6, 0), "L2 TLB": (60, 10, 4), "walk cache": (25, 5, 0),
        "walker": (15, 4, 0), "registers, fault FIFO": (11, 2, 0),
    }, "MMU block")
    ok &= expect(pblocks, {
        "paging_engine glue": (5, 2, 0), "fetch, decode": (20, 4, 0), "queue RAM": (0, 0, 2),
        "registers, counters": (9, 3, 0),
    }, "paging block")
    print("board_report: parts, MMU and paging-engine blocks add up" if ok else "board_report: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
