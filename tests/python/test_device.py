# SPDX-License-Identifier: Apache-2.0
"""The Python binding against a device (make t-python: the simulated SoC):
identity, allocations and mappings, UPDATE_VA batches, engines, the VRAM
aperture, fault events, counters; every result checked against what the
test computes itself."""
import pathlib
import struct
import threading

import pytest

import gmmu

ROOT = pathlib.Path(__file__).resolve().parents[2]
K, M = 1 << 10, 1 << 20
MASK64 = (1 << 64) - 1


def checksums(data):
    """The engines' CHECKSUM of 64-bit words: s1 = sum of the words, s2 =
    sum of the running s1 (both modulo 2^64)."""
    s1 = s2 = 0
    for (w,) in struct.iter_unpack("<Q", data):
        s1 = (s1 + w) & MASK64
        s2 = (s2 + s1) & MASK64
    return s1, s2


def drain(dev):
    return list(dev.events())


def test_identity_and_versions(dev):
    version = (ROOT / "VERSION").read_text().strip()
    major, minor, patch = (int(x) for x in version.split("."))
    info = dev.info()
    assert info.fw_version == major << 16 | minor << 8 | patch
    assert info.proto_version >> 16 == gmmu.PROTO_VERSION >> 16
    assert info.ddr_mb > 0
    ident = dev.ident()
    assert ident.magic == gmmu.MBOX_MAGIC
    assert ident.fw_version == info.fw_version
    assert gmmu.FwState(ident.fw_state & 0xFF) == gmmu.FwState.READY
    assert dev.bar_read(0) == gmmu.MBOX_MAGIC


def test_caps(dev):
    caps = dev.caps()
    assert caps.page_table_level_count >= 2
    assert 32 <= caps.virtual_address_bit_count <= 64
    assert caps.leaf_page_table_size_for_64k_pages > 0


def test_ping_and_raw_call(dev):
    dev.ping()
    dev.ping(b"0123456789abcdef")
    assert dev.call(gmmu.Op.PING, b"echo me!") == b"echo me!"
    assert len(dev.call(gmmu.Op.GET_INFO)) == gmmu.INFO_BYTES


def test_alloc_map_query_unmap(dev, space, allocs):
    free0 = dev.vram().free_bytes
    a = allocs(2 * M)
    assert a.size == 2 * M and a.extents == 1
    va = dev.map(space, a.handle, 2 * M, page_sizes=4)   # 2 MB pages only
    q = dev.query(space, va + 0x12345)
    assert (q.state, q.segment, q.page_shift, q.pa) == (2, 1, 21, a.base + 0x12345)
    va4k = dev.map(space, a.handle, 64 * K, offset=64 * K, page_sizes=1,
                   flags=gmmu.MapFlag.READ_ONLY | gmmu.MapFlag.NO_EXECUTE)
    q = dev.query(space, va4k)
    assert (q.page_shift, q.pa, q.flags) == (12, a.base + 64 * K, 3)
    fixed = dev.map(space, a.handle, 64 * K, va=0x4000_0000)
    assert fixed == 0x4000_0000
    dev.unmap(space, va4k, 64 * K)
    dev.unmap(space, fixed, 64 * K)
    assert dev.query(space, va4k).state == 0
    assert dev.vram().free_bytes < free0


def test_alloc_pages(dev, space):
    """ALLOC_PAGES maps each listed page where the list puts it; nothing
    touches the pages, so any host addresses do."""
    base = 0x1_2340_0000
    pages = [base + 0x5000, base + 0x1000, base + 0x2000, base + 0x9000]
    a = dev.alloc_pages(pages)
    assert (a.size, a.extents, a.base) == (16 * K, 3, base + 0x5000)
    info = dev.query_alloc(a.handle)
    assert (info.state, info.extents, info.segment, info.base) == (gmmu.AllocState.HOST, 3, 0,
                                                                   base + 0x5000)
    va = dev.map(space, a.handle, 16 * K)
    for i, pa in enumerate(pages):
        q = dev.query(space, va + i * 4 * K + 8)
        assert (q.state, q.segment, q.page_shift, q.pa) == (2, 0, 12, pa + 8)
    dev.free(a.handle)
    with pytest.raises(gmmu.DeviceError) as e:
        dev.alloc_pages([base, base + 0x800])
    assert e.value.status is gmmu.Status.UNALIGNED
    with pytest.raises(gmmu.DeviceError) as e:
        dev.alloc_pages([base, base + 0x1000, base])
    assert e.value.status is gmmu.Status.OVERLAP
    # 600 pages take two messages; two runs.
    long = [base + 0x200000 + i * 4 * K for i in range(300)] + \
           [base + i * 4 * K for i in range(300)]
    a = dev.alloc_pages(long)
    assert (a.size, a.extents) == (600 * 4 * K, 2)
    dev.free(a.handle)


def test_segments(dev, allocs):
    system, vram, aperture = dev.segments()
    assert (system.id, system.kind, system.flags) == (0, gmmu.SegmentKind.SYSTEM,
                                                      gmmu.SegmentFlag.HOST_MEMORY)
    assert (aperture.id, aperture.kind, aperture.flags) == (2, gmmu.SegmentKind.APERTURE, 0)
    assert (aperture.base, aperture.size) == (1 << 40, 32 * M)  # APERTURE_PHYS_BASE
    assert (vram.id, vram.kind, vram.flags) == (
        1, gmmu.SegmentKind.MEMORY, gmmu.SegmentFlag.BAR1 | gmmu.SegmentFlag.PAGE_TABLES)
    v = dev.vram()
    assert (vram.size, vram.in_use) == (v.segment_bytes, v.segment_bytes - v.free_bytes)
    assert (system.size, system.in_use) == (v.backing_bytes, v.backing_bytes - v.backing_free)
    allocs(2 * M)
    assert dev.segments()[1].in_use == vram.in_use + 2 * M


def test_remove_backing(dev):
    # No range of the pool at that address: refused, nothing changed.
    before = dev.vram()
    with pytest.raises(gmmu.DeviceError) as e:
        dev.remove_backing(1 << 32, 64 * K)
    assert e.value.status is gmmu.Status.INVALID_ARGUMENT
    # Every range the device reaches stays (the simulator has given none).
    rsp = dev.remove_backing(unreachable=True)
    assert (rsp.ranges, rsp.moved, rsp.freed) == (0, 0, 0)
    after = dev.vram()
    assert (after.backing_ranges, after.backing_bytes) == (before.backing_ranges,
                                                            before.backing_bytes)
    assert rsp.fence == after.paging_fence


def test_device_errors_carry_the_status(dev, space):
    with pytest.raises(gmmu.DeviceError) as e:
        dev.free(999999)
    assert e.value.status is gmmu.Status.BAD_HANDLE
    assert e.value.code == 4
    assert "BAD_HANDLE" in str(e.value)
    with pytest.raises(gmmu.DeviceError) as e:
        dev.map(space, 999999, 64 * K)
    assert e.value.status is gmmu.Status.BAD_HANDLE
    with pytest.raises(gmmu.DeviceError) as e:
        dev.unmap(space, 0x1234_0000, 64 * K)
    assert e.value.status is gmmu.Status.INVALID_ARGUMENT


def test_reserve_and_update_batches(dev, space, allocs):
    a = allocs(256 * K)
    va = dev.reserve(space, 1 * M)
    assert dev.query(space, va).state == 0
    dev.update(space, [
        gmmu.op_map(va, 128 * K, a.handle, offset=64 * K),
        gmmu.op_copy(va + 512 * K, 64 * K, va + 64 * K),
        gmmu.op_protect(va, 64 * K, gmmu.MapFlag.READ_ONLY),
        gmmu.op_unmap(va + 256 * K, 64 * K, zero=True),
    ])
    t0, t1, t8 = (dev.query(space, va + n * 64 * K) for n in (0, 1, 8))
    assert (t0.state, t0.pa, t0.flags) == (2, a.base + 64 * K, 1)
    assert (t1.state, t1.pa, t1.flags) == (2, a.base + 128 * K, 0)
    assert (t8.state, t8.pa) == (2, t1.pa)
    assert dev.query(space, va + 256 * K).state == 1
    # A batch with a bad operation changes nothing.
    with pytest.raises(gmmu.DeviceError):
        dev.update(space, [gmmu.op_unmap(va, 64 * K), gmmu.op_map(va, 64 * K, 999999)])
    assert dev.query(space, va).state == 2
    with pytest.raises(ValueError):
        dev.update(space, [])
    dev.unmap(space, va, 1 * M)


def test_engines_and_the_aperture(dev, space, allocs):
    a = allocs(64 * K)
    va = dev.map(space, a.handle, 64 * K)
    pattern = 0x0102030405060708
    r = dev.run(0, gmmu.EngineOp.FILL, space, 4096, dst_va=va, pattern=pattern)
    assert not r.faulted and r.bytes_done == 4096
    pa = dev.query(space, va).pa
    assert dev.vram_read(pa, 16) == struct.pack("<QQ", pattern, pattern)
    # Bytes written through the aperture are what the engine reads.
    data = bytes(range(256)) * 4
    dev.vram_write(pa + 4096, data)
    assert dev.vram_read(pa + 4096, len(data)) == data
    r = dev.run(1, gmmu.EngineOp.CHECKSUM, space, len(data), src_va=va + 4096)
    assert (r.result, r.result2) == checksums(data)
    r = dev.run(2, gmmu.EngineOp.COPY, space, len(data), dst_va=va + 8192, src_va=va + 4096)
    assert r.bytes_done == len(data)
    assert dev.vram_read(pa + 8192, len(data)) == data
    with pytest.raises(gmmu.HostError) as e:
        dev.vram_read(pa + 1, 4)
    assert e.value.name == "E_INVALID_ARG"


def test_engine_start_and_status(dev, space, allocs):
    a = allocs(64 * K)
    va = dev.map(space, a.handle, 64 * K)
    asid = dev.start(0, gmmu.EngineOp.FILL, space, 64 * K, dst_va=va, pattern=0x55)
    for _ in range(100):
        busy, r = dev.status(0)
        if not busy:
            break
    assert not busy and not r.faulted and r.bytes_done == 64 * K
    assert r.asid == asid
    pa = dev.query(space, va).pa
    assert dev.vram_read(pa + 64 * K - 8, 8) == struct.pack("<Q", 0x55)
    with pytest.raises(gmmu.DeviceError) as e:
        dev.status(99)
    assert e.value.name == "INVALID_ARGUMENT"
    busy, r = dev.status(0, abort=True)   # nothing running: a read
    assert not busy and r.bytes_done == 64 * K
    busy, r = dev.status(0, abort=True)   # nothing running: a read
    assert not busy and r.bytes_done == 64 * K


def test_fault_events(dev, space, allocs):
    drain(dev)
    a = allocs(64 * K)
    va = dev.map(space, a.handle, 64 * K, flags=gmmu.MapFlag.READ_ONLY)
    r = dev.run(3, gmmu.EngineOp.FILL, space, 64, dst_va=va)
    assert r.faulted and r.reason is gmmu.Fault.READ_ONLY and r.access is gmmu.Access.WRITE
    assert r.fault_va == va
    ev = dev.wait_event(10000)
    assert ev is not None and ev.type == gmmu.Evt.FAULT
    f = ev.fault
    assert (f.va, f.as_handle, f.port, f.reason, f.access) == (va, space, 3, gmmu.Fault.READ_ONLY,
                                                               gmmu.Access.WRITE)
    rest = drain(dev)
    assert all(e.fault.va == va for e in rest)
    assert dev.next_event() is None
    assert dev.wait_event(20) is None


def test_counters_and_stats(dev, space, allocs):
    before = dev.stats()
    perf = dev.mmu_counters(clear=True)
    assert perf.shared.ports == len(perf.ports) >= 1
    a = allocs(64 * K)
    va = dev.map(space, a.handle, 64 * K)
    dev.run(0, gmmu.EngineOp.FILL, space, 4096, dst_va=va)
    perf = dev.mmu_counters()
    assert perf.ports[0].requests >= 4096 // 64
    assert perf.shared.walks >= 1
    assert dev.stats().commands > before.commands
    assert dev.pt_stats().words_written > 0


def test_threads_share_a_device(dev):
    errors = []

    def pings():
        try:
            for i in range(20):
                dev.ping(struct.pack("<I", i))
        except gmmu.GmmuError as e:
            errors.append(e)
    threads = [threading.Thread(target=pings) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_closed_device(dev):
    dev.close()
    with pytest.raises(ValueError):
        dev.info()
    dev.close()     # a second close does nothing


def test_engine_queue(dev, space, allocs):
    # A job held by a host fence, then run; its signal fence told by event.
    a = allocs(0x10000)
    va = dev.map(space, a.handle, 0x10000)
    go = dev.fence_create(0).handle
    done = dev.fence_create(0).handle
    job = dev.submit(1, gmmu.EngineOp.FILL, space, 4096, dst_va=va, pattern=0x1234,
                     wait=(go, 1), signal=(done, 7))
    assert job != 0
    q = dev.queue(1)
    assert (q.queued, q.running) == (1, 0)
    assert dev.fence_read(done) == 0
    dev.fence_signal(go, 1)
    assert dev.fence_wait(done, 7, timeout_ms=20000)
    q = dev.queue(1)
    assert (q.queued, q.last_job, q.bytes_done) == (0, job, 4096)
    assert dev.vram_read(a.base, 8) == (0x1234).to_bytes(8, "little")
    # Cancelled while waiting: never runs; a full queue is BUSY.
    job = dev.submit(1, gmmu.EngineOp.FILL, space, 4096, dst_va=va, pattern=0x99,
                     wait=(go, 2))
    assert dev.cancel(1, job).cancelled == 1
    assert dev.vram_read(a.base, 8) == (0x1234).to_bytes(8, "little")
    for _ in range(gmmu.ENGINE_QUEUE_DEPTH):
        dev.submit(2, gmmu.EngineOp.FILL, space, 64, dst_va=va, wait=(go, 2))
    with pytest.raises(gmmu.DeviceError) as e:
        dev.submit(2, gmmu.EngineOp.FILL, space, 64, dst_va=va, wait=(go, 2))
    assert e.value.status == gmmu.Status.BUSY
    assert dev.cancel(2, all=True).cancelled == gmmu.ENGINE_QUEUE_DEPTH
    with pytest.raises(gmmu.DeviceError) as e:
        dev.submit(2, gmmu.EngineOp.FILL, space, 64, dst_va=va, wait=(0x46000FFF, 1))
    assert e.value.status == gmmu.Status.BAD_HANDLE
    dev.fence_destroy(go)
    dev.fence_destroy(done)


def test_fences(dev, space, allocs):
    # The paging fence: each map and unmap signals exactly one more value.
    before = dev.fence_read()
    a = allocs(0x10000)
    va, f1 = dev.map_fence(space, a.handle, 0x10000)
    assert f1 == before + 1
    assert dev.fence_read(gmmu.FENCE_PAGING) == f1
    assert dev.fence_read_mapped() == f1
    assert dev.vram().paging_fence == f1
    # Told by the event: armed before the unmap that reaches it.
    while dev.next_event() is not None:
        pass
    assert not dev.fence_arm(gmmu.FENCE_PAGING, f1 + 1)
    assert dev.unmap(space, va, 0x10000) == f1 + 1
    ev = dev.wait_event(1000)
    assert ev.type == gmmu.Evt.FENCE
    assert (ev.fence_evt.handle, ev.fence_evt.wait_value, ev.fence_evt.value) == \
        (gmmu.FENCE_PAGING, f1 + 1, f1 + 1)
    # A host fence: forward only, modulo 2^64.
    info = dev.fence_create(2**64 - 1)
    h = info.handle
    assert dev.fence_signal(h, 1) == 1
    with pytest.raises(gmmu.DeviceError) as e:
        dev.fence_signal(h, 0)
    assert e.value.status == gmmu.Status.INVALID_ARGUMENT
    assert dev.fence_read_mapped(h) == 1
    assert dev.fence_wait(h, 1)
    dev.next_event()
    assert not dev.fence_wait(h, 2, timeout_ms=50)
    dev.fence_destroy(h)
    with pytest.raises(gmmu.DeviceError) as e:
        dev.fence_read(h)
    assert e.value.status == gmmu.Status.BAD_HANDLE
