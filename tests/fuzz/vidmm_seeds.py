#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seed inputs for tests/fuzz/fuzz_vidmm.c, written into the directory given.

Each seed is a short command sequence in the harness's input format (a
selector byte, a mode byte, then the payload's bytes, folded by the harness)
that reaches a state random bytes rarely do: tiles mapped, copied between
reserved ranges and purged by FREE, hardware ids recycled, system memory
mapped at a fixed VA, malformed messages; residency: over-commit into the
backing pool, moves out and back with mappings and tiles, MAKE_RESIDENT and
EVICT lists, QUERY_ALLOC, ADD_BACKING.
"""
import os
import struct
import sys

# Selectors: the index of the opcode in vidmm_commands (firmware/lib/vidmm_cmds.c).
ALLOC, FREE, CREATE_AS, DESTROY_AS, MAP_VA, UNMAP_VA, RESERVE_VA, UPDATE_VA, QUERY_VA, GET_VRAM = range(10)
ADD_BACKING, MAKE_RESIDENT, EVICT, QUERY_ALLOC, GET_SEGMENTS, REMOVE_BACKING = range(10, 16)
ALLOC_PAGES = 16
BEGIN, COMMIT = 1, 2
FOLD, RAW = 1, 0
OP_MAP, OP_UNMAP, OP_COPY, OP_PROTECT = 1, 2, 3, 4
PREFER_64K, CONTIGUOUS, SYSTEM, VRAM_PREFERRED, SYSTEM_ONLY = 1, 2, 4, 8, 16
FIXED_VA, ZERO = 8, 16


def cmd(sel, payload=b"", mode=FOLD):
    return bytes([sel, mode]) + payload


def alloc(size, flags=0, sys_addr=0, lowest=0, highest=0, boundary=0):
    return cmd(ALLOC, struct.pack("<QIIQQQQ", size, flags, 0, lowest, highest, boundary, sys_addr))


def handle(sel, pick):
    return cmd(sel, struct.pack("<II", pick, 0))


def map_va(as_pick, alloc_pick, offset=0, size=0x10000, va=0, flags=0, pages=0):
    return cmd(MAP_VA, struct.pack("<IIQQQII", as_pick, alloc_pick, offset, size, va, flags, pages))


def reserve(as_pick, tiles_minus_one, va=0, flags=0):
    return cmd(RESERVE_VA, struct.pack("<IIQQ", as_pick, flags, va, tiles_minus_one))


def op(kind, va_pick=0, tiles_minus_one=0, alloc_pick=0, arg=0, flags=0):
    return struct.pack("<IIQQIIQ", kind, flags, va_pick, tiles_minus_one, alloc_pick, 0, arg)


def update(as_pick, ops, mode=FOLD):
    return cmd(UPDATE_VA, struct.pack("<II", as_pick, len(ops)) + b"".join(ops), mode)


def query(as_pick, va_pick, size_pick=0):
    return cmd(QUERY_VA, struct.pack("<IIQQ", as_pick, 0, va_pick, size_pick))


def residency(sel, picks, mode=FOLD, count=None):
    """MAKE_RESIDENT or EVICT; folded, the count is count % 8 + 1."""
    n = len(picks) - 1 if count is None else count
    return cmd(sel, struct.pack("<II", n, 0) + b"".join(struct.pack("<I", p) for p in picks), mode)


def backing(unit, units_minus_one):
    """ADD_BACKING, folded to 64 KB units of the harness's 4 MiB of host
    memory (1 MiB .. 3 MiB is the pool every input starts with)."""
    return cmd(ADD_BACKING, struct.pack("<QQ", unit, units_minus_one))


def pages(owner, flags, npages, picks, mode=FOLD):
    """ALLOC_PAGES; folded, a pick k >= 0 is host page k of the harness's
    memory and None the page after the previous one; the size is npages."""
    enc = [1 if k is None else k << 1 for k in picks]
    return cmd(ALLOC_PAGES, struct.pack("<IIQII", owner, flags, npages, len(enc), 0) +
               b"".join(struct.pack("<Q", a) for a in enc), mode)


SEEDS = {
    "basic": [
        cmd(CREATE_AS), alloc(0x10000), map_va(0, 0), query(0, 0), cmd(GET_VRAM),
        cmd(UNMAP_VA, struct.pack("<IIQQ", 0, 0, 0, 0)), handle(FREE, 0), handle(DESTROY_AS, 0),
    ],
    "tiles": [
        cmd(CREATE_AS), alloc(0xFF000, PREFER_64K), alloc(0x40000, CONTIGUOUS),
        reserve(0, 15), reserve(0, 15),
        update(0, [op(OP_MAP, 0, 3, 0, 0), op(OP_MAP, 0x400, 0, 1, 2), op(OP_UNMAP, 0x800, 1, flags=ZERO),
                   op(OP_COPY, 0xC00, 1, arg=0), op(OP_PROTECT, 0, 7, flags=1)]),
        update(0, [op(OP_COPY, 1, 3, arg=0x100), op(OP_MAP, 1, 1, 1, 1)]),
        query(0, 0), handle(FREE, 0), query(0, 0), handle(FREE, 0), handle(DESTROY_AS, 0),
    ],
    "bad_batch": [
        cmd(CREATE_AS), alloc(0x80000), reserve(0, 7),
        update(0, [op(OP_MAP, 0, 1, 0, 0), op(OP_COPY, 0, 3, arg=0), op(OP_UNMAP, 0, 0, flags=ZERO)]),
        update(0, [op(OP_MAP, 0, 1, 0, 0), op(7, 0, 0)]),
    ],
    "asids": [cmd(CREATE_AS), alloc(0x10000)] + [cmd(CREATE_AS), map_va(0, 0)] * 5
             + [handle(DESTROY_AS, 1), map_va(2, 0), handle(FREE, 0)],
    "system": [
        cmd(CREATE_AS), alloc(0x200000, SYSTEM, sys_addr=0x12345000),
        map_va(0, 0, 0x1000, 0x100000, va=0x200000, flags=FIXED_VA | 4), map_va(0, 0, size=0x80000),
        query(0, 0), handle(FREE, 0),
    ],
    "contiguous": [
        # boundary is folded to 1 << (raw >> 1) when raw is odd: 43 is 2 MB.
        alloc(0x80000, CONTIGUOUS, lowest=0x100000, highest=0x1FFFFF, boundary=43),
        alloc(0x300000, CONTIGUOUS, boundary=43), alloc(0x1000000), cmd(GET_VRAM),
    ],
    # Records run out (24 in the fuzzer), then one batch maps tile 10 of
    # R1, growing the reference (R1, X), and copies it to R2: the copy needs
    # a record of its own, so the batch is refused, and FREE X must leave no
    # tile pointing at X's pages. Then the same with a new allocation Y and
    # one record given back: the batch runs, and FREE Y finds the copy.
    # Picks: va 0xA00 and arg 0x0A name R1 tile 10, va 1 R2 tile 0; after
    # FREE X the allocations are [host page, Y].
    "copy_grown_ref": [
        cmd(CREATE_AS), cmd(CREATE_AS), cmd(CREATE_AS), alloc(0x1F000), alloc(0, SYSTEM, sys_addr=0x5000000),
        reserve(0, 15), reserve(0, 15), update(0, [op(OP_MAP, 0, 0, 0, 0)]),
    ] + [map_va(1, 1, size=0)] * 12 + [map_va(2, 1, size=0)] * 11 + [
        update(0, [op(OP_MAP, 0xA00, 0, 0, 1), op(OP_COPY, 1, 0, arg=0x0A)]),
        handle(FREE, 0),
        alloc(0x1F000), update(0, [op(OP_MAP, 0, 0, 1, 0)]),
        cmd(UNMAP_VA, struct.pack("<IIQQ", 2, 0, 0, 0)),
        update(0, [op(OP_MAP, 0xA00, 0, 1, 1), op(OP_COPY, 1, 0, arg=0x0A)]),
        handle(FREE, 1),
    ],
    # 2 MiB of VRAM: a VRAM-only allocation that needs the room of the
    # others evicts the VRAM-preferred one (to the pool, still mapped there)
    # and the VRAM-only one (OFFLINE); MAKE_RESIDENT brings them back.
    "overcommit": [
        cmd(CREATE_AS), alloc(0xBF000), alloc(0x7F000, VRAM_PREFERRED), map_va(0, 0), map_va(0, 1),
        alloc(0xFF000), handle(QUERY_ALLOC, 0), handle(QUERY_ALLOC, 1), query(0, 0), cmd(GET_VRAM),
        residency(MAKE_RESIDENT, [0, 1, 0]), residency(EVICT, [0]), residency(EVICT, [0, 0]),
        alloc(0x3F000, SYSTEM_ONLY), alloc(0x5F000, VRAM_PREFERRED | PREFER_64K),
        residency(MAKE_RESIDENT, [2]), residency(EVICT, [1, 0]), query(0, 0),
        handle(FREE, 1), handle(FREE, 0), cmd(GET_VRAM),
    ],
    # Tiles of a VRAM-preferred allocation follow it out and back; a
    # VRAM-only one evicted while mapped is OFFLINE and cannot be tiled.
    "tiles_move": [
        cmd(CREATE_AS), alloc(0xFF000, VRAM_PREFERRED), reserve(0, 15), reserve(0, 15),
        update(0, [op(OP_MAP, 0, 3, 0, 0), op(OP_COPY, 1, 1, arg=0)]),
        alloc(0x17F000), query(0, 0), handle(QUERY_ALLOC, 0),
        residency(MAKE_RESIDENT, [0]), query(0, 0), map_va(0, 1),
        update(0, [op(OP_MAP, 0x400, 0, 1, 0)]), residency(MAKE_RESIDENT, [1]),
        update(0, [op(OP_MAP, 0x400, 0, 1, 0)]), handle(FREE, 0), handle(FREE, 0),
    ],
    "backing": [
        backing(0, 15), backing(48, 15), backing(16, 3), backing(126, 3), cmd(GET_VRAM),
        alloc(0x200000, SYSTEM_ONLY), alloc(0x100000, SYSTEM_ONLY), alloc(0xFFF000, SYSTEM_ONLY),
        alloc(0x1000, SYSTEM, sys_addr=(1 << 40) + 0x100000),
        handle(QUERY_ALLOC, 0), handle(FREE, 0), alloc(0x300000, VRAM_PREFERRED), cmd(GET_VRAM),
    ],
    # Ranges emptied into the rest of the pool or VRAM, or refused.
    "remove_backing": [
        backing(48, 15), alloc(0x200000, SYSTEM_ONLY), alloc(0x100000, VRAM_PREFERRED),
        alloc(0x180000, SYSTEM_ONLY), cmd(REMOVE_BACKING, struct.pack("<QQII", 1, 0, 0, 0)),
        cmd(REMOVE_BACKING, struct.pack("<QQII", 0, 0, 0, 0)),
        cmd(REMOVE_BACKING, struct.pack("<QQII", 2, 0, 0, 0)), cmd(GET_VRAM),
        cmd(REMOVE_BACKING, struct.pack("<QQII", 0, 0, 1, 0), RAW),
        cmd(REMOVE_BACKING, struct.pack("<QQII", (1 << 40) + 0x100000, 0x200000, 0, 0), RAW),
    ],
    "lists_raw": [
        alloc(0x10000), residency(MAKE_RESIDENT, [0], RAW, count=0),
        residency(MAKE_RESIDENT, [0, 0], RAW, count=3), residency(EVICT, [0], RAW, count=1),
        residency(EVICT, [0x80000001], RAW, count=1), cmd(QUERY_ALLOC, struct.pack("<II", 0, 1), RAW),
        cmd(ADD_BACKING, struct.pack("<QQ", (1 << 40) + 0x1000, 0x10000), RAW),
    ],
    "pages": [
        cmd(CREATE_AS), pages(0, BEGIN | COMMIT, 4, [10, None, 3, None]), map_va(0, 0, size=0x4000),
        pages(0, BEGIN, 6, [100, None, None]), pages(1, 0, 6, [5]),
        pages(0, COMMIT, 6, [200, None, 101]),
        pages(0, BEGIN, 6, [100, None, None]), pages(0, COMMIT, 6, [16, None, None]),
        map_va(0, 1, size=0x6000), pages(0, BEGIN | COMMIT, 2, [900, 300]),
        update(0, [op(OP_MAP, 0, 0, 1)]), handle(FREE, 0), handle(FREE, 0),
        pages(0, BEGIN | COMMIT, 1, [7], RAW),
    ],
    "malformed": [
        # Mode bit 3 on a raw command: the length is off by mode >> 4.
        cmd(UPDATE_VA, struct.pack("<II", 0, 1) + op(OP_MAP), RAW | 8 | 0x30),
        cmd(ALLOC, b"\x00" * 40, RAW), cmd(0xF3, b"", RAW), cmd(GET_VRAM, b"\x00" * 4, RAW | 8 | 0x40),
    ],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, commands in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"".join(commands))


if __name__ == "__main__":
    main()
