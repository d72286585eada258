#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Seed inputs for tests/fuzz/fuzz_queues.c, written into the directory given.

Each seed is a short step sequence in the harness's input format (a
selector byte, a mode byte, then the step's own bytes) that reaches a state
random bytes rarely do: a fence and a job's wait across the 2^64 wrap, full
engine and update queues (depth and operations), cancels of a waiting job,
of the running one and of all, a new owner taking the queues and the waits
over, wait fences destroyed under a job and a batch, jobs and batches
chained by fences with memory in use, hardware ids pinned, failed batches,
a full wait table, memory-in-use queries, and malformed lengths.
"""
import os
import struct
import sys

(CREATE, DESTROY, SIGNAL, READ, WAIT, SUBMIT, CANCEL, QUEUE, USUBMIT, UCANCEL, UQUEUE, END, FOREIGN,
 EPOLL, UPOLL, SETTLE, TOGGLE, USES) = range(18)
NONE = 0x00          # fence pick: no fence (where allowed)
PAGING = 0x50        # fence pick 0x50 | slot: the fence in that slot (slot 0: the paging fence)
SAME = 0x00          # owner: the current host
BAD_LEN = 0xF1       # mode: the length one byte long
PINNED, IN_USE, PAGE = 0x00, 0x10, 0x20  # TOGGLE modes
ALL = 0xF8           # cancel pick: ALL


def fence(slot):
    return PAGING | slot


def val(kind, b=0, raw=None):
    """kind: 0 base+b, 1 base-b, 2 2^64-1-b, 3 b, 4 base+2^63-1-b, 5 base+2^63+b, 6 raw, 7 base+1."""
    out = bytes([kind, b])
    return out + struct.pack(">Q", raw) if kind == 6 else out


def host(n):
    return 0xE0 | n


def step(sel, mode=0, payload=b""):
    return bytes([sel, mode]) + payload


def create(v, mode=0):
    return step(CREATE, mode, v)


def signal(slot, v, mode=0):
    return step(SIGNAL, mode, bytes([fence(slot)]) + v)


def wait(slot, v, owner=SAME, mode=0):
    return step(WAIT, mode, bytes([fence(slot)]) + v + bytes([owner]))


def submit(engine, wait_pick=NONE, wait_v=val(0), sig_pick=NONE, sig_v=val(0), owner=SAME,
           behav=0, mode=0, op=0, length=0):
    return step(SUBMIT, mode, bytes([engine, op, behav, length, wait_pick]) + wait_v +
                bytes([sig_pick]) + sig_v + bytes([owner]))


def cancel(engine, pick, owner=SAME, mode=0):
    return step(CANCEL, mode, bytes([engine, pick, owner]))


def usubmit(count_pick, wait_pick=NONE, wait_v=val(0), sig_pick=NONE, sig_v=val(0), owner=SAME,
            behav=0, mode=0):
    return step(USUBMIT, mode, bytes([count_pick, behav, wait_pick]) + wait_v + bytes([sig_pick]) +
                sig_v + bytes([owner]))


def ucancel(pick, owner=SAME, mode=0):
    return step(UCANCEL, mode, bytes([pick, owner]))


def queue(engine):
    return step(QUEUE, 0, bytes([engine]))


SETTLE_ = step(SETTLE)


def uses(engine, job, va_pick, bytes_pick, after=NONE):
    """engine_queue_uses of job `job` of the engine's queue's address space,
    at 0x100000 + va_pick * 128, 64 * (bytes_pick + 1) bytes."""
    return step(USES, 0, bytes([engine, job, va_pick, bytes_pick, after]))

SEEDS = {
    "wrap": [
        create(val(2, 2)), create(val(3, 0)),  # slot 1 at 2^64-3, slot 2 at 0
        wait(1, val(3, 3)), wait(1, val(2, 0)),
        submit(0, fence(1), val(3, 3), fence(2), val(3, 9)), SETTLE_, queue(0),
        signal(1, val(2, 0)), SETTLE_,      # 2^64-1: not yet
        signal(1, val(1, 1)),               # behind: refused
        signal(1, val(3, 5)), SETTLE_,      # across 0: the job starts
        step(END, 0), SETTLE_, queue(0), step(READ, 0, bytes([fence(2)])),
        signal(2, val(4, 0)), signal(2, val(4, 0)), signal(2, val(5, 0)),
    ],
    "full": [create(val(3, 0))] +
            [submit(1, fence(1), val(0, 5)) for _ in range(9)] + [queue(1)] +
            [usubmit(3, fence(1), val(0, 5)) for _ in range(9)] + [step(UQUEUE)] +
            [ucancel(ALL), usubmit(0xF1), usubmit(0xF1), usubmit(0xF2), usubmit(0xF0)] +
            [signal(1, val(0, 5)), SETTLE_, step(END, 1), SETTLE_, step(END, 1), SETTLE_, queue(1)],
    "cancel": [
        create(val(3, 0)), submit(2), submit(2, fence(1), val(0, 1)), submit(2), submit(2),
        SETTLE_, cancel(2, 1), cancel(2, 0xE0), cancel(2, 0), queue(2), cancel(2, ALL), queue(2),
        submit(3, fence(1), val(0, 2)), submit(3), cancel(3, 0xF0), cancel(3, 0),
        usubmit(1, fence(1), val(0, 3)), usubmit(2), usubmit(4), ucancel(1), ucancel(0xE0),
        ucancel(0xF0), step(UQUEUE), ucancel(ALL), step(UQUEUE), SETTLE_,
    ],
    "owner": [
        create(val(3, 0)), wait(1, val(0, 4)), wait(0, val(0, 3)),
        submit(0), submit(0, fence(1), val(0, 1)), submit(1, fence(1), val(0, 1)),
        usubmit(1, fence(1), val(0, 1)), usubmit(2), SETTLE_,
        submit(2, owner=host(1)), usubmit(1, owner=host(1)), wait(1, val(0, 2), owner=host(2)),
        queue(0), queue(1), step(UQUEUE), ucancel(ALL, owner=host(3)), cancel(0, ALL, owner=host(0)),
        signal(1, val(0, 9)), SETTLE_,
    ],
    "destroy": [
        create(val(3, 7)), create(val(3, 0)),
        submit(0, fence(1), val(0, 1), fence(2), val(3, 4)), submit(0, NONE, val(0), fence(2), val(3, 2)),
        usubmit(2, fence(1), val(0, 1), fence(2), val(3, 8)), usubmit(1),
        wait(1, val(0, 1)), step(DESTROY, 0, bytes([fence(1)])), SETTLE_, queue(0), step(UQUEUE),
        step(END, 0), SETTLE_, step(READ, 0, bytes([fence(2)])), step(DESTROY, 0, bytes([fence(2)])),
        step(READ, 0, bytes([0xF0])), submit(1, 0xF0), create(val(3, 1)),
        step(DESTROY, 0, bytes([fence(0)])),
    ],
    "chain": [
        create(val(3, 0)), create(val(3, 0)), create(val(3, 0)),
        step(TOGGLE, IN_USE), step(TOGGLE, PINNED),
        submit(0, NONE, val(0), fence(1), val(3, 1)),
        usubmit(2, fence(1), val(3, 1), fence(2), val(3, 1), behav=2),
        submit(1, fence(2), val(3, 1), fence(3), val(3, 1), behav=1),
        usubmit(1, fence(3), val(3, 1), fence(1), val(3, 5), behav=3),
        submit(2, fence(0), val(0, 1), behav=2), submit(3, fence(1), val(3, 5)),
        SETTLE_, step(END, 0), SETTLE_, step(UQUEUE), step(TOGGLE, IN_USE), SETTLE_,
        step(TOGGLE, PINNED), SETTLE_, step(FOREIGN, 1), step(END, 1), SETTLE_, queue(1),
        step(TOGGLE, PAGE), step(EPOLL), step(UPOLL), SETTLE_, queue(2), queue(3), step(END, 3),
    ],
    "waits_full": [create(val(3, 0))] + [wait(1, val(0, k)) for k in range(1, 18)] +
                  [wait(0, val(0, 1)), wait(1, val(0, 3), mode=0x40), wait(1, val(0, 3)),
                   signal(1, val(0, 20)), wait(1, val(0, 5), owner=host(1))] +
                  [wait(1, val(0, k), owner=host(1)) for k in range(1, 18)] +
                  [wait(1, val(0, 1), owner=host(2)), step(TOGGLE, PAGE)],
    "in_use": [
        create(val(3, 0)), submit(0, op=1), submit(1, fence(0), val(0, 1), op=0),
        submit(1, fence(1), val(0, 1), op=2), submit(2, op=3), SETTLE_,
        uses(0, 0, 0, 63), uses(1, 0, 0, 63), uses(1, 1, 0, 63, after=fence(1)), uses(1, 1, 16, 0),
        uses(2, 0, 0, 0), uses(2, 0, 63, 0), step(TOGGLE, PAGE), SETTLE_, uses(1, 1, 0, 63),
    ],
    "malformed": [
        create(val(3, 0), BAD_LEN), create(val(3, 0)), step(DESTROY, 0xF9, bytes([fence(1)])),
        signal(1, val(0, 1), BAD_LEN), step(READ, 0xF2, bytes([fence(1)])),
        wait(1, val(0, 1), mode=0xF3), submit(0, mode=0xF4), cancel(0, 1, mode=0xFC),
        step(QUEUE, 0xF5, b"\x00"), usubmit(2, mode=0xF1), usubmit(2, mode=0xF9),
        ucancel(1, mode=0xF6), step(UQUEUE, 0xF7),
        submit(0, mode=0xA0), submit(0xF9), submit(0, op=0xFD), submit(0, length=0xF9),
        submit(0, behav=0xF0), submit(0, sig_pick=fence(0)), wait(1, val(0, 1), mode=0xB0),
        wait(1, val(0, 1), mode=0xA0), usubmit(1, behav=0xF0), usubmit(1, sig_pick=fence(0)),
        step(QUEUE, 0xB0, b"\x00"), step(QUEUE, 0, b"\xfa"), usubmit(1, mode=0xE7),
    ],
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, steps in SEEDS.items():
        data = b"".join(steps)
        # An input of odd length starts the job and batch ids 7 short of
        # 2^32 (they wrap, never to 0): each seed both ways, the second with
        # a settle step (its mode byte read past the end) added.
        for suffix, seed in (("", data), ("_odd" if len(data) % 2 == 0 else "_even", data + b"\x0f")):
            with open(os.path.join(out, name + suffix), "wb") as f:
                f.write(seed)


if __name__ == "__main__":
    main()
