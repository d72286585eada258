#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns a firmware ELF into the on-chip RAM image for synthesis.

    board_elf2hex.py FIRMWARE.elf OUT.hex [--base ADDR] [--size BYTES]

wb_ram loads InitFile with $readmemh: one 32-bit little-endian word per
line, RAM word 0 first. Every PT_LOAD segment of the 32-bit RISC-V ELF must
lie inside [base, base + size) (default: RAM at 0, 128 KiB, as
include/gmmu/soc.h); bytes up to p_memsz beyond the file are zero, as are
words no segment touches. Same rules as the simulator's loader
(sim/elf_image.c), so a board boots the image the tests ran.
"""
import argparse
import struct
import sys


def load_segments(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a 32-bit little-endian ELF")
    e_machine = struct.unpack_from("<H", data, 18)[0]
    if e_machine != 243:
        raise ValueError(f"not a RISC-V ELF (e_machine {e_machine})")
    e_phoff, = struct.unpack_from("<I", data, 28)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 42)
    segs = []
    for i in range(e_phnum):
        p_type, p_offset, _vaddr, p_paddr, p_filesz, p_memsz, _flags, _align = \
            struct.unpack_from("<8I", data, e_phoff + i * e_phentsize)
        if p_type != 1 or p_memsz == 0:  # PT_LOAD
            continue
        segs.append((p_paddr, data[p_offset:p_offset + p_filesz], p_memsz))
    return segs


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("out")
    ap.add_argument("--base", type=lambda s: int(s, 0), default=0)
    ap.add_argument("--size", type=lambda s: int(s, 0), default=128 * 1024)
    a = ap.parse_args()
    image = bytearray(a.size)
    try:
        segs = load_segments(a.elf)
    except (OSError, ValueError) as e:
        print(f"board_elf2hex: {a.elf}: {e}", file=sys.stderr)
        return 1
    used = 0
    for addr, content, memsz in segs:
        off = addr - a.base
        if off < 0 or off + memsz > a.size:
            print(f"board_elf2hex: segment at {addr:#x} (+{memsz:#x}) is outside the RAM "
                  f"[{a.base:#x}, {a.base + a.size:#x})", file=sys.stderr)
            return 1
        image[off:off + len(content)] = content
        used = max(used, off + memsz)
    with open(a.out, "w") as f:
        for i in range(0, a.size, 4):
            f.write(f"{struct.unpack_from('<I', image, i)[0]:08x}\n")
    print(f"board_elf2hex: {a.out}: {used} of {a.size} bytes used")
    return 0


if __name__ == "__main__":
    sys.exit(main())
