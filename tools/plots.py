#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots of what the benchmarks and the synthesis report print (matplotlib,
pinned in the venv). Each reads the text its make target already writes
and prints one line naming what it drew.

    plots.py bench-mmu DEFAULT.txt BLOCKING.txt -o PNG
        make bench-mmu: "of ideal" against the working set (1, 4, 16 MB and
        the 64 MB traces), one panel per page size, one line per trace; the
        default build solid, the blocking walker dashed beside it
    plots.py bench-fw BENCH_FW.txt -o PNG
        make bench-fw / t-bench-fw-smoke: cycles per page-table word for
        each case that writes words, against the DDR bound (one word a
        cycle); with the CPU-store figure beside it where the run prints one
    plots.py mmu-blocks HIER_STAT.txt -o PNG
        make synth-report / synth-report-yosys (OrangeCrab): the MMU's LUT4
        by block, from the Yosys stat of the netlist with its hierarchy kept

The parsers are the benchmark's own (tests/mmu/bench_report.py) and the
board report's (tools/board_report.py), so a format change breaks both or
neither. A file with nothing to plot is an error (exit 1).
"""
import argparse
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "mmu"))
import bench_report  # noqa: E402
import board_report  # noqa: E402

DPI = 100


class NoData(Exception):
    pass


def save(fig, path):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


# ------------------------------------------------------------ bench-mmu
PAGES = ("4K", "64K", "2M")
WS_MB = {"1M": 1, "4M": 4, "16M": 16, "64M": 64}


def mmu_series(res):
    """{(trace, pages): {MB: of ideal}} from one bench_report.parse() result:
    the working-set runs (ws) and the 64 MB single-port traces."""
    out = {}
    for name, (cyc, n) in res["ws"].items():
        trace, pages, size = name.rsplit("-", 2)
        out.setdefault((trace, pages), {})[WS_MB[size]] = n / cyc
    for name, (cyc, n) in res["trace"].items():
        trace, pages, ports = name.rsplit("-", 2)
        if ports == "1" and (trace, pages) in out:
            out[(trace, pages)][64] = n / cyc
    return out


def plot_bench_mmu(default_path, blocking_path, png):
    d, b = bench_report.parse(default_path), bench_report.parse(blocking_path)
    ds, bs = mmu_series(d), mmu_series(b)
    if not ds:
        raise NoData(f"{default_path}: no working-set results (bench-result ws lines)")
    traces = list(dict.fromkeys(t for t, _ in ds))
    colours = dict(zip(traces, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    fig, axes = plt.subplots(1, len(PAGES), figsize=(13, 4.6), sharey=True)
    points = 0
    for ax, pages in zip(axes, PAGES):
        for trace in traces:
            for series, style, label in ((ds, "-o", ""), (bs, "--x", " (blocking)")):
                pts = sorted(series.get((trace, pages), {}).items())
                if not pts:
                    continue
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=colours[trace],
                        label=trace.replace("-", " ") + label, alpha=1.0 if not label else 0.7)
                points += len(pts)
        ax.set_xscale("log", base=2)
        ax.set_xticks(list(WS_MB.values()), [f"{v} MB" for v in WS_MB.values()])
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{pages.replace('K', ' KB').replace('M', ' MB')} pages")
        ax.set_xlabel("working set")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("of ideal (translations per cycle per port)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=len(traces))
    cfg, bcfg = d["config"], b["config"]
    fig.suptitle(f"MMU, one port: default build ({cfg['walkers']} walkers, walk cache {cfg['pwc']}) solid, "
                 f"blocking walker ({bcfg['walkers']} walker, walk cache {bcfg['pwc']}) dashed; "
                 f"DDR read latency {cfg['latency']} cycles")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    save(fig, png)
    return f"bench-mmu: {len(PAGES)} page sizes, {len(traces)} traces, {points} points"


# ------------------------------------------------------------ bench-fw
def fw_rows(path):
    """(case, {column: value}) for each row of bench_fw's table: the header
    line starts with `case` and names the columns; a row is the case name
    followed by its numbers (`-` where a column does not apply)."""
    rows, cols = [], None
    for line in open(path):
        words = line.split()
        if not words:
            if cols and rows:
                break
            continue
        if words[0] == "case" and "cycles" in words:
            cols = words[1:]
            continue
        if cols is None:
            continue
        # The name ends where a run of three numeric fields starts.
        num = [bool(re.fullmatch(r"-|[\d.]+x?", w)) for w in words]
        at = next((i for i in range(1, len(words) - 2) if all(num[i:i + 3])), None)
        if at is None:
            continue
        vals = {}
        for col, w in zip(cols, words[at:]):
            if not re.fullmatch(r"-|[\d.]+x?", w):
                break  # the target text
            vals[col] = None if w == "-" else float(w.rstrip("x"))
        rows.append((" ".join(words[:at]), vals))
    return rows


def plot_bench_fw(path, png):
    rows = [(name, v) for name, v in fw_rows(path) if v.get("words")]
    if not rows:
        raise NoData(f"{path}: no bench_fw rows with page-table words")
    rows.reverse()  # first case on top
    names = [n for n, _ in rows]
    cpw = [v["cycles"] / v["words"] for _, v in rows]
    before = [v["before"] / v["words"] if v.get("before") else None for _, v in rows]
    have_before = any(x is not None for x in before)
    fig, ax = plt.subplots(figsize=(11, 0.5 * len(rows) + 2.4))
    y = range(len(rows))
    h = 0.38 if have_before else 0.7
    ax.barh([i + (h / 2 if have_before else 0) for i in y], cpw, height=h, color="tab:blue",
            label="cycles per word written")
    if have_before:
        ax.barh([i - h / 2 for i in y], [x or 0 for x in before], height=h, color="tab:gray",
                alpha=0.6, label="the same case with CPU stores (before the paging engine)")
    for i, x in enumerate(cpw):
        ax.text(x * 1.08, i + (h / 2 if have_before else 0), f"{x:,.1f}", va="center", fontsize=8)
    ax.axvline(1, color="tab:red", lw=2, label="DDR bound: 1 cycle per 64-bit word")
    ax.axvline(2, color="tab:red", lw=1, ls=":", label="issue 27's target: 2 cycles per word")
    ax.set_xscale("log")
    ax.set_xlim(0.5, max(cpw + [x or 0 for x in before]) * 4)
    ax.set_yticks(list(y), names, fontsize=9)
    ax.set_xlabel("device cycles per page-table word written (log)")
    ax.set_title("Firmware page-table work on the simulated SoC (bench_fw): cycles per word")
    ax.grid(True, axis="x", alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2)
    fig.tight_layout()
    save(fig, png)
    return f"bench-fw: {len(rows)} cases with words"


# ------------------------------------------------------------ synth-report
def plot_mmu_blocks(path, png):
    blocks = board_report.hier_parts(path, board_report.mmu_block_of)
    if not blocks:
        raise NoData(f"{path}: no module below u_mmu")
    items = sorted(blocks.items(), key=lambda kv: kv[1]["LUT4"])
    total = sum(c["LUT4"] for _, c in items)
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(items) + 1.6))
    luts = [c["LUT4"] for _, c in items]
    ax.barh(range(len(items)), luts, color="tab:green")
    for i, (_, c) in enumerate(items):
        ax.text(c["LUT4"] + total * 0.005, i, f"{c['LUT4']:,}  ({100 * c['LUT4'] / total:.1f}%)",
                va="center", fontsize=8)
    ax.set_yticks(range(len(items)), [n for n, _ in items], fontsize=9)
    ax.set_xlim(0, max(luts) * 1.3)
    ax.set_xlabel("LUT4 (Yosys synth_ecp5, hierarchy kept)")
    ax.set_title(f"The MMU by block: {total:,} LUT4")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    save(fig, png)
    return f"mmu-blocks: {len(items)} blocks, {total} LUT4"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=("bench-mmu", "bench-fw", "mmu-blocks"))
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--output", required=True, help="the PNG to write")
    a = ap.parse_args()
    want = {"bench-mmu": 2, "bench-fw": 1, "mmu-blocks": 1}[a.kind]
    if len(a.inputs) != want:
        ap.error(f"{a.kind} takes {want} input file(s)")
    fn = {"bench-mmu": plot_bench_mmu, "bench-fw": plot_bench_fw, "mmu-blocks": plot_mmu_blocks}[a.kind]
    try:
        what = fn(*a.inputs, a.output)
    except (NoData, OSError, KeyError, ValueError) as e:
        print(f"plots: {a.kind}: {e}", file=sys.stderr)
        return 1
    print(f"plots: {what} -> {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
