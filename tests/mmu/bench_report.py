#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare two runs of `mmu_tb bench`: the default MMU and the "blocking"
build (one walk in flight, no walk cache). Prints markdown tables: the
traces over the 64 MB region, then over working sets of several sizes
(of ideal, and in brackets the speed-up over the blocking build).

    bench_report.py DEFAULT.txt BLOCKING.txt
"""
import sys


def parse(path):
    res = {"trace": {}, "ws": {}}
    for line in open(path):
        if not line.startswith("bench-result "):
            continue
        parts = line.split()
        kind = parts[1]
        if kind in ("trace", "ws"):
            res[kind][parts[2]] = (int(parts[3]), int(parts[4]))
        else:
            res[kind] = dict(p.split("=") for p in parts[2:])
    return res


def main():
    d, b = parse(sys.argv[1]), parse(sys.argv[2])
    cfg = d["config"]
    print(f"DDR read latency {cfg['latency']} cycles; default build: {cfg['walkers']} walkers, "
          f"walk cache {cfg['pwc']}; blocking build: {b['config']['walkers']} walker, "
          f"walk cache {b['config']['pwc']}.\n")
    lat = d["latency"]
    print("| Latency (request accepted to response) | cycles |")
    print("|---|---|")
    names = [("l1", "L1 hit"), ("l2", "L2 hit"), ("cold", "walk, cold, 4 KB page (4 reads)"),
             ("cold2m", "walk, cold, 2 MB page (3 reads)"), ("pwc2", "walk, walk-cache hit at level 2 (2 reads)"),
             ("pwc1", "walk, walk-cache hit at level 1 (1 read)")]
    for key, name in names:
        print(f"| {name} | {lat[key]} |")
    h = d["hits"]
    print(f"\nL1 hit throughput: {float(h['one']):.3f} per cycle on one port, "
          f"{float(h['all']):.3f} per port per cycle with all ports busy.\n")
    print("| Trace | pages | ports | cycles | of ideal | blocking cycles | speed-up vs blocking |")
    print("|---|---|---|---|---|---|---|")
    for name, (cyc, n) in d["trace"].items():
        kind, pages, ports = name.rsplit("-", 2)
        bc = b["trace"].get(name, (0, n))[0]
        print(f"| {kind.replace('-', ' ')} | {pages} | {ports} | {cyc} | {n / cyc:.3f} | {bc} | {bc / cyc:.1f}x |")
    print_working_sets(d, b)


def print_working_sets(d, b):
    """One port, each trace over working sets of 1, 4 and 16 MB (and the
    main table's 64 MB): of ideal, and the speed-up over the blocking build."""
    rows, sizes = {}, []
    for name, (cyc, n) in d["ws"].items():
        trace, size = name.rsplit("-", 1)
        bc = b["ws"].get(name, (0, n))[0]
        rows.setdefault(trace, {})[size] = f"{n / cyc:.3f} ({bc / cyc:.1f}x)"
        if size not in sizes:
            sizes.append(size)
    if not rows:
        return
    for trace in rows:
        main = d["trace"].get(trace + "-1")
        if main:
            bc = b["trace"].get(trace + "-1", (0, main[1]))[0]
            rows[trace]["64M"] = f"{main[1] / main[0]:.3f} ({bc / main[0]:.1f}x)"
    sizes.append("64M")
    print("\n| Trace (1 port) | pages | " + " | ".join(s.replace("M", " MB") for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for trace, cols in rows.items():
        kind, pages = trace.rsplit("-", 1)
        print(f"| {kind.replace('-', ' ')} | {pages} | " + " | ".join(cols.get(s, "") for s in sizes) + " |")


if __name__ == "__main__":
    main()
