#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""make t-plots: tools/plots.py on the sample outputs beside this file.

Each plot must say it drew what the sample holds (counted here
independently: bench-mmu's 3 page sizes x 4 traces x 4 working sets x 2
builds; bench-fw's rows that write words; the MMU's seven blocks and the
29 296 LUT4 docs/boards.md gives for that netlist), and its PNG must be a
real picture: a PNG signature and header, a sane size in pixels and bytes,
and more than a handful of colours (a blank or one-colour image fails).
An input with nothing to plot must fail the script and write no PNG.

    test_plots.py OUTDIR
"""
import os
import struct
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLOTS = os.path.join(ROOT, "tools", "plots.py")


def sample(name):
    return os.path.join(HERE, name)


def fw_rows_with_words(path):
    """Rows of the bench_fw sample whose words column is not 0, by plain
    column position (the name is printed %-34s)."""
    n, header = 0, False
    for line in open(path):
        if line.startswith("case "):
            header = True
            continue
        if header and line.strip() and not line.startswith(("#", "\n")) and len(line) > 50:
            fields = line[34:].split()
            if len(fields) > 2 and fields[1].isdigit():
                n += int(fields[1]) > 0
    return n


def check_png(path):
    """None if PATH is a plausible plot, else what is wrong."""
    if not os.path.isfile(path):
        return "not written"
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return "not a PNG"
    w, h = struct.unpack(">II", head[16:24])
    if not (600 <= w <= 3000 and 300 <= h <= 3000):
        return f"{w}x{h} pixels"
    if size < 10_000:
        return f"{size} bytes"
    colours = Image.open(path).convert("RGB").getcolors(maxcolors=1 << 20)
    if colours is None or len(colours) < 32:
        return f"{len(colours or [])} colours"
    # Something drawn away from the white background in the middle half.
    img = Image.open(path).convert("L")
    mid = img.crop((w // 4, h // 4, 3 * w // 4, 3 * h // 4))
    if mid.getextrema()[0] > 200:
        return "nothing drawn in its middle"
    return None


def run(args):
    return subprocess.run([sys.executable, PLOTS] + args, capture_output=True, text=True)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    fw_cases = fw_rows_with_words(sample("bench-fw.txt"))
    cases = [
        ("bench-mmu", [sample("bench-mmu-default.txt"), sample("bench-mmu-blocking.txt")],
         "bench-mmu: 3 page sizes, 4 traces, 96 points"),
        ("bench-fw", [sample("bench-fw.txt")], f"bench-fw: {fw_cases} cases with words"),
        ("mmu-blocks", [sample("mmu-hier-stat.txt")], "mmu-blocks: 7 blocks, 29296 LUT4"),
    ]
    failed = 0
    for kind, inputs, want in cases:
        png = os.path.join(out, kind + ".png")
        if os.path.exists(png):
            os.unlink(png)
        r = run([kind] + inputs + ["-o", png])
        problem = None
        if r.returncode:
            problem = f"exit {r.returncode}: {r.stderr.strip()}"
        elif not r.stdout.startswith(f"plots: {want} -> "):
            problem = f"said {r.stdout.strip()!r}, want {want!r}"
        else:
            problem = check_png(png)
        print(f"{'PASS' if problem is None else 'FAIL'}  {kind}: {problem or os.path.basename(png)}")
        failed += problem is not None

    # Nothing to plot: an error, and no PNG.
    empty = os.path.join(out, "empty.txt")
    with open(empty, "w") as f:
        f.write("no benchmark output here\n")
    for kind, inputs in (("bench-mmu", [empty, empty]), ("bench-fw", [empty]), ("mmu-blocks", [empty])):
        png = os.path.join(out, f"empty-{kind}.png")
        r = run([kind] + inputs + ["-o", png])
        ok = r.returncode == 1 and not os.path.exists(png)
        print(f"{'PASS' if ok else 'FAIL'}  {kind} on an empty input: exit {r.returncode}")
        failed += not ok

    total = len(cases) + 3
    print(f"test_plots: {total - failed} of {total} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
