# SPDX-License-Identifier: Apache-2.0
"""gmmu: Python access to a GPU MMU soft core through libgmmu.

ctypes over the shared library libgmmu.so (no compiled extension), so it
talks to any device libgmmu reaches: ``sim:SOCKET`` (the Verilator
simulation), ``pci:DDDD:BB:DD.F``, ``uart:TTY[,BAUD]``::

    import gmmu
    with gmmu.open("sim:build/sim/gmmu.sock") as dev:
        print(dev.info().fw_version)
        as_handle, asid = dev.create_as()
        alloc = dev.alloc(64 * 1024, gmmu.AllocFlag.CONTIGUOUS)
        va = dev.map(as_handle, alloc.handle, 64 * 1024)
        dev.run(0, gmmu.EngineOp.FILL, as_handle, 4096, dst_va=va, pattern=0x55)
        print(dev.query(as_handle, va).pa)

A command the device refuses raises DeviceError (its ``status`` is a
Status); a host-side failure raises HostError (``code`` is libgmmu's
negative error). Both are GmmuError, whose ``name`` and ``message`` say
what happened in words.

The library is found through the environment variable GMMU_LIBRARY (a
path), then the repository's build/host/libgmmu.so (make host), then the
system's loader path (make install).
"""
import ctypes
import ctypes.util
import dataclasses
import os
import pathlib

from ._defs import *  # noqa: F401,F403  (the protocol's enums, structures, constants)
from ._defs import (MSG_HDR_BYTES, MSG_MAX_BYTES, MMU_PORTS_MAX, UPDATE_OP_BYTES,
                    UPDATE_REQ_BYTES, ENGINE_STATUS_FIELDS, VERSION, Access, AllocPagesFlag,
                    AllocReq, AllocRsp,
                    Caps, EngineOp, EngineReq, EngineRsp, Evt, Fault, FaultEvt, Info, MapFlag,
                    MapReq, MmuCounters, MmuCountersFlag, MmuPortCounters, PtStats, QueryRsp,
                    Stats, Status, UpdateOp, UpdateOpKind, VramRsp, AllocInfo, RESIDENCY_MAX,
                    SEGMENTS_MAX, SegmentDesc, EngineSubmitReq, EngineCancelReq,
                    EngineCancelRsp, EngineQueueRsp, EngineCancelFlag, UpdateSubmitReq,
                    UpdateCancelReq, UpdateCancelRsp, UpdateQueueRsp, UpdateCancelFlag,
                    UPDATE_QUEUE_OPS, _Struct)

__version__ = VERSION

# Operations one UPDATE_VA holds (libgmmu's GMMU_UPDATE_MAX_OPS).
UPDATE_MAX_OPS = (MSG_MAX_BYTES - MSG_HDR_BYTES - UPDATE_REQ_BYTES) // UPDATE_OP_BYTES

_c = ctypes
_u32, _u64, _int, _size = _c.c_uint32, _c.c_uint64, _c.c_int, _c.c_size_t
_dev_p = _c.c_void_p


# ------------------------------------------------------------ libgmmu.h's own structures
class Ident(_Struct):
    """The BAR0 identity and state registers (struct gmmu_ident)."""
    _fields_ = [(n, _u32) for n in ("magic", "proto_version", "fw_version", "fw_build",
                                    "caps_flags", "geometry", "rings", "fw_state", "heartbeat",
                                    "next_seq", "cpl_fence", "host_write_errors")]


class _EventPayload(_c.Union):
    _fields_ = [("fault", FaultEvt), ("fence", FenceEvt),
                ("raw", _c.c_uint8 * (MSG_MAX_BYTES - MSG_HDR_BYTES))]


class Event(_Struct):
    """One event from the device's event ring (struct gmmu_event)."""
    _fields_ = [("type", _c.c_uint16), ("seq", _u32), ("fence", _u32), ("lost", _u32),
                ("payload_len", _u32), ("u", _EventPayload)]

    @property
    def fault(self):
        """The FaultEvt of an EVT_FAULT event, else None."""
        return self.u.fault if self.type == Evt.FAULT else None

    @property
    def fence_evt(self):
        """The FenceEvt of an EVT_FENCE event, else None."""
        return self.u.fence if self.type == Evt.FENCE else None

    @property
    def payload(self):
        return bytes(self.u.raw[:self.payload_len])

    def __repr__(self):
        what = self.fault if self.type == Evt.FAULT else self.payload
        return f"Event(type={self.type}, seq={self.seq}, lost={self.lost}, {what!r})"


class _MmuPerf(_c.Structure):
    _fields_ = [("c", MmuCounters), ("port", MmuPortCounters * MMU_PORTS_MAX)]


@dataclasses.dataclass
class MmuPerf:
    """GET_MMU_COUNTERS: the shared counters and one entry per port."""
    shared: MmuCounters
    ports: list


@dataclasses.dataclass
class EngineResult:
    """ENGINE_RUN's answer. A translation fault is not an error of the
    command: ``faulted`` is set, with ``reason`` and ``access``."""
    rsp: EngineRsp
    faulted: bool
    reason: Fault
    access: Access

    def __getattr__(self, name):   # bytes_done, cycles, result, result2, fault_va, ...
        if name == "rsp":
            raise AttributeError(name)
        return getattr(self.rsp, name)


# ------------------------------------------------------------------ the library
def _find_library():
    env = os.environ.get("GMMU_LIBRARY")
    if env:
        return env
    built = pathlib.Path(__file__).resolve().parents[2] / "build" / "host" / "libgmmu.so"
    if built.exists():
        return str(built)
    found = ctypes.util.find_library("gmmu")
    if found:
        return found
    raise ImportError("gmmu: libgmmu.so not found: set GMMU_LIBRARY, run `make host` in the "
                      "repository, or `make install`")


def _load():
    lib = _c.CDLL(_find_library())
    sig = {
        "gmmu_version": (_c.c_char_p, []),
        "gmmu_strerror": (_c.c_char_p, [_int]),
        "gmmu_error_name": (_c.c_char_p, [_int]),
        "gmmu_open": (_int, [_c.c_char_p, _c.POINTER(_dev_p)]),
        "gmmu_close": (None, [_dev_p]),
        "gmmu_set_timeout": (None, [_dev_p, _int]),
        "gmmu_read_ident": (_int, [_dev_p, _c.POINTER(Ident)]),
        "gmmu_call": (_int, [_dev_p, _c.c_uint16, _c.c_void_p, _size, _c.c_void_p, _size,
                             _c.POINTER(_size)]),
        "gmmu_ping": (_int, [_dev_p, _c.c_void_p, _size]),
        "gmmu_get_info": (_int, [_dev_p, _c.POINTER(Info)]),
        "gmmu_get_caps": (_int, [_dev_p, _c.POINTER(Caps)]),
        "gmmu_get_stats": (_int, [_dev_p, _c.POINTER(Stats)]),
        "gmmu_get_pt_stats": (_int, [_dev_p, _c.POINTER(PtStats)]),
        "gmmu_get_mmu_counters": (_int, [_dev_p, _u32, _c.POINTER(_MmuPerf)]),
        "gmmu_vram_read": (_int, [_dev_p, _u64, _c.c_void_p, _size]),
        "gmmu_vram_write": (_int, [_dev_p, _u64, _c.c_void_p, _size]),
        "gmmu_bar_read": (_int, [_dev_p, _u32, _c.POINTER(_u32)]),
        "gmmu_bar_write": (_int, [_dev_p, _u32, _u32]),
        "gmmu_next_event": (_int, [_dev_p, _c.POINTER(Event)]),
        "gmmu_wait_event": (_int, [_dev_p, _int, _c.POINTER(Event)]),
        "gmmu_alloc": (_int, [_dev_p, _c.POINTER(AllocReq), _c.POINTER(AllocRsp)]),
        "gmmu_alloc_pages": (_int, [_dev_p, _c.POINTER(_u64), _size, _c.POINTER(AllocRsp)]),
        "gmmu_alloc_pages_flags": (_int, [_dev_p, _c.POINTER(_u64), _size, _u32,
                                          _c.POINTER(AllocRsp)]),
        "gmmu_free": (_int, [_dev_p, _u32]),
        "gmmu_create_as": (_int, [_dev_p, _c.POINTER(_u32), _c.POINTER(_u32)]),
        "gmmu_destroy_as": (_int, [_dev_p, _u32]),
        "gmmu_map_va": (_int, [_dev_p, _c.POINTER(MapReq), _c.POINTER(_u64)]),
        "gmmu_unmap_va": (_int, [_dev_p, _u32, _u64, _u64]),
        "gmmu_reserve_va": (_int, [_dev_p, _u32, _u32, _u64, _u64, _c.POINTER(_u64)]),
        "gmmu_update_va": (_int, [_dev_p, _u32, _c.POINTER(UpdateOp), _size]),
        "gmmu_query_va": (_int, [_dev_p, _u32, _u64, _c.POINTER(QueryRsp)]),
        "gmmu_get_vram": (_int, [_dev_p, _c.POINTER(VramRsp)]),
        "gmmu_get_segments": (_int, [_dev_p, _c.POINTER(SegmentDesc), _size, _c.POINTER(_size)]),
        "gmmu_engine_run": (_int, [_dev_p, _c.POINTER(EngineReq), _c.POINTER(EngineRsp)]),
        "gmmu_add_backing": (_int, [_dev_p, _c.c_uint64, _c.c_uint64]),
        "gmmu_remove_backing": (_int, [_dev_p, _c.c_uint64, _c.c_uint64, _u32,
                                       _c.POINTER(BackingRemoveRsp)]),
        "gmmu_make_resident": (_int, [_dev_p, _c.POINTER(_u32), _size, _c.POINTER(_u64)]),
        "gmmu_evict": (_int, [_dev_p, _c.POINTER(_u32), _size]),
        "gmmu_query_alloc": (_int, [_dev_p, _u32, _c.POINTER(AllocInfo)]),
        "gmmu_wait_paging_fence": (_int, [_dev_p, _u64, _c.c_uint]),
        "gmmu_engine_start": (_int, [_dev_p, _c.POINTER(EngineReq), _c.POINTER(_c.c_uint32)]),
        "gmmu_engine_status": (_int, [_dev_p, _c.c_uint32, _c.c_uint32, _c.POINTER(EngineRsp)]),
        "gmmu_map_va_fence": (_int, [_dev_p, _c.POINTER(MapReq), _c.POINTER(_u64),
                                     _c.POINTER(_u64)]),
        "gmmu_unmap_va_fence": (_int, [_dev_p, _u32, _u64, _u64, _c.POINTER(_u64)]),
        "gmmu_unmap_va_flags": (_int, [_dev_p, _u32, _u64, _u64, _u32, _c.POINTER(_u64)]),
        "gmmu_update_va_fence": (_int, [_dev_p, _u32, _c.POINTER(UpdateOp), _size,
                                        _c.POINTER(_u64)]),
        "gmmu_fence_create": (_int, [_dev_p, _u64, _c.POINTER(FenceInfo)]),
        "gmmu_fence_destroy": (_int, [_dev_p, _u32]),
        "gmmu_fence_signal": (_int, [_dev_p, _u32, _u64, _c.POINTER(FenceInfo)]),
        "gmmu_fence_read": (_int, [_dev_p, _u32, _c.POINTER(FenceInfo)]),
        "gmmu_fence_read_mapped": (_int, [_dev_p, _u64, _c.POINTER(_u64)]),
        "gmmu_fence_arm": (_int, [_dev_p, _u32, _u64, _u32, _c.POINTER(FenceInfo)]),
        "gmmu_fence_wait": (_int, [_dev_p, _u32, _u64, _int]),
        "gmmu_fence_owner": (_u32, []),
        "gmmu_engine_submit": (_int, [_dev_p, _c.POINTER(EngineSubmitReq), _c.POINTER(_u32)]),
        "gmmu_engine_cancel": (_int, [_dev_p, _c.POINTER(EngineCancelReq),
                                      _c.POINTER(EngineCancelRsp)]),
        "gmmu_engine_queue": (_int, [_dev_p, _u32, _c.POINTER(EngineQueueRsp)]),
        "gmmu_update_submit": (_int, [_dev_p, _c.POINTER(UpdateSubmitReq), _c.POINTER(UpdateOp),
                                      _c.c_size_t, _c.POINTER(_u32)]),
        "gmmu_update_cancel": (_int, [_dev_p, _c.POINTER(UpdateCancelReq),
                                      _c.POINTER(UpdateCancelRsp)]),
        "gmmu_update_queue": (_int, [_dev_p, _c.POINTER(UpdateQueueRsp)]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    got = lib.gmmu_version().decode()
    if got.split(".")[0] != VERSION.split(".")[0]:
        raise ImportError(f"gmmu: the binding is {VERSION} but the library is {got}")
    return lib


_lib = _load()
library_version = _lib.gmmu_version().decode()


# ---------------------------------------------------------------------- errors
class GmmuError(Exception):
    """A libgmmu call failed: ``code`` is its return value, ``name`` and
    ``message`` say what it means."""

    def __init__(self, code, what=""):
        self.code = code
        self.what = what
        self.name = _lib.gmmu_error_name(code).decode()
        self.message = _lib.gmmu_strerror(code).decode()
        kind = "device status" if code > 0 else "host error"
        super().__init__(f"{what + ': ' if what else ''}{self.name}: {self.message} "
                         f"({kind} {code})")


class DeviceError(GmmuError):
    """The device ran the command and refused it; ``status`` says why."""

    @property
    def status(self):
        try:
            return Status(self.code)
        except ValueError:
            return self.code


class HostError(GmmuError):
    """libgmmu could not get the command to the device or its answer back
    (timeout, no device, disconnected, ...)."""


def _check(rc, what):
    if rc > 0:
        raise DeviceError(rc, what)
    if rc < 0:
        raise HostError(rc, what)


def _field(value, name):
    lsb, width = ENGINE_STATUS_FIELDS[name]
    return (value >> lsb) & ((1 << width) - 1)


# ----------------------------------------------------------- UPDATE_VA operations
def op_map(va, size, alloc_handle, offset=0, flags=0):
    """MAP [va, va+size) to the allocation's pages from offset."""
    return UpdateOp(op=UpdateOpKind.MAP, flags=int(flags), va=va, size=size,
                    alloc_handle=alloc_handle, arg=offset)


def op_unmap(va, size, zero=False):
    """UNMAP [va, va+size) to invalid, or to Zero entries."""
    return UpdateOp(op=UpdateOpKind.UNMAP, flags=int(MapFlag.ZERO) if zero else 0, va=va,
                    size=size)


def op_copy(va, size, src_va):
    """COPY: [va, va+size) translates as [src_va, src_va+size) does."""
    return UpdateOp(op=UpdateOpKind.COPY, va=va, size=size, arg=src_va)


def op_protect(va, size, flags=0):
    """PROTECT: set ReadOnly/NoExecute/CacheCoherent of the range to flags."""
    return UpdateOp(op=UpdateOpKind.PROTECT, flags=int(flags), va=va, size=size)


# ---------------------------------------------------------------------- device
class Device:
    """One open device. Every method runs one libgmmu call and waits for it;
    calls may come from several threads."""

    def __init__(self, spec=None, timeout_ms=None):
        spec = spec or os.environ.get("GMMU_DEVICE")
        if not spec:
            raise ValueError("gmmu: no device: give a spec or set GMMU_DEVICE")
        self.spec = spec
        self._dev = _dev_p()
        _check(_lib.gmmu_open(spec.encode(), _c.byref(self._dev)), f"open {spec}")
        if timeout_ms is not None:
            self.set_timeout(timeout_ms)

    def close(self):
        if self._dev:
            _lib.gmmu_close(self._dev)
            self._dev = _dev_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_dev", None):
            self.close()

    def _handle(self):
        if not self._dev:
            raise ValueError("gmmu: the device is closed")
        return self._dev

    def _get(self, fn, cls, what):
        out = cls()
        _check(fn(self._handle(), _c.byref(out)), what)
        return out

    def set_timeout(self, timeout_ms):
        _lib.gmmu_set_timeout(self._handle(), int(timeout_ms))

    # -- the device
    def ident(self):
        return self._get(_lib.gmmu_read_ident, Ident, "ident")

    def info(self):
        return self._get(_lib.gmmu_get_info, Info, "GET_INFO")

    def caps(self):
        return self._get(_lib.gmmu_get_caps, Caps, "GET_CAPS")

    def stats(self):
        return self._get(_lib.gmmu_get_stats, Stats, "GET_STATS")

    def pt_stats(self):
        return self._get(_lib.gmmu_get_pt_stats, PtStats, "GET_PT_STATS")

    def vram(self):
        return self._get(_lib.gmmu_get_vram, VramRsp, "GET_VRAM")

    def segments(self):
        """The device's segments (GET_SEGMENTS), in id order: SegmentDesc each."""
        out = (SegmentDesc * SEGMENTS_MAX)()
        count = _size()
        _check(_lib.gmmu_get_segments(self._handle(), out, SEGMENTS_MAX, _c.byref(count)),
               "GET_SEGMENTS")
        return [SegmentDesc.from_buffer_copy(out[i]) for i in range(count.value)]

    def mmu_counters(self, clear=False):
        p = _MmuPerf()
        flags = int(MmuCountersFlag.CLEAR) if clear else 0
        _check(_lib.gmmu_get_mmu_counters(self._handle(), flags, _c.byref(p)), "GET_MMU_COUNTERS")
        ports = [MmuPortCounters.from_buffer_copy(p.port[i]) for i in range(p.c.ports)]
        return MmuPerf(MmuCounters.from_buffer_copy(p.c), ports)

    def ping(self, data=b""):
        buf = _c.create_string_buffer(bytes(data), len(data)) if data else None
        _check(_lib.gmmu_ping(self._handle(), buf, len(data)), "PING")

    def call(self, opcode, payload=b""):
        """Any mailbox command: the payload's bytes in, the completion's out."""
        req = _c.create_string_buffer(bytes(payload), len(payload)) if payload else None
        resp = _c.create_string_buffer(MSG_MAX_BYTES)
        got = _size()
        _check(_lib.gmmu_call(self._handle(), int(opcode), req, len(payload), resp,
                              MSG_MAX_BYTES, _c.byref(got)), f"opcode {int(opcode):#x}")
        return resp.raw[:got.value]

    def bar_read(self, offset):
        v = _u32()
        _check(_lib.gmmu_bar_read(self._handle(), offset, _c.byref(v)), "BAR0 read")
        return v.value

    def bar_write(self, offset, value):
        _check(_lib.gmmu_bar_write(self._handle(), offset, value), "BAR0 write")

    # -- allocations and address spaces
    def alloc(self, size, flags=0, lowest=0, highest=0, boundary=0, sys_addr=0):
        req = AllocReq(size=size, flags=int(flags), lowest=lowest, highest=highest,
                       boundary=boundary, sys_addr=sys_addr)
        rsp = AllocRsp()
        _check(_lib.gmmu_alloc(self._handle(), _c.byref(req), _c.byref(rsp)), "ALLOC")
        return rsp

    def alloc_pages(self, pages, physical=False):
        """A system-memory allocation over a list of host page addresses (4 KB
        each, any order; page i backs bytes from i x 4 KB): ALLOC_PAGES, in
        as many messages as the list needs. Returns the AllocRsp (extents:
        the runs of consecutive pages). physical: AccessedPhysically, the
        pages mapped into the aperture segment in list order, and base its
        physical-mode address (APERTURE_PHYS_BASE + aperture offset)."""
        pages = list(pages)
        if not pages:
            raise ValueError("gmmu: a page list holds at least one page")
        arr = (_u64 * len(pages))(*pages)
        rsp = AllocRsp()
        flags = AllocPagesFlag.PHYSICAL if physical else 0
        _check(_lib.gmmu_alloc_pages_flags(self._handle(), arr, len(pages), flags, _c.byref(rsp)),
               "ALLOC_PAGES")
        return rsp

    def free(self, alloc_handle):
        _check(_lib.gmmu_free(self._handle(), alloc_handle), "FREE")

    def create_as(self):
        """A new address space: (handle, the hardware ASID it runs under now)."""
        h, asid = _u32(), _u32()
        _check(_lib.gmmu_create_as(self._handle(), _c.byref(h), _c.byref(asid)), "CREATE_AS")
        return h.value, asid.value

    def destroy_as(self, as_handle):
        _check(_lib.gmmu_destroy_as(self._handle(), as_handle), "DESTROY_AS")

    def map(self, as_handle, alloc_handle, size, offset=0, va=None, flags=0, page_sizes=0):
        """Maps size bytes of the allocation from offset, at va (FIXED_VA) or
        where the firmware chooses; returns the VA. page_sizes: a mask of
        4K (1), 64K (2), 2M (4), 1G (8); 0 for any."""
        return self.map_fence(as_handle, alloc_handle, size, offset, va, flags, page_sizes)[0]

    def map_fence(self, as_handle, alloc_handle, size, offset=0, va=None, flags=0, page_sizes=0):
        """As map(); returns (va, the paging fence the map signalled)."""
        flags = int(flags) | (int(MapFlag.FIXED_VA) if va is not None else 0)
        req = MapReq(as_handle=as_handle, alloc_handle=alloc_handle, offset=offset, size=size,
                     va=va or 0, flags=flags, page_sizes=page_sizes)
        out, fence = _u64(), _u64()
        _check(_lib.gmmu_map_va_fence(self._handle(), _c.byref(req), _c.byref(out),
                                      _c.byref(fence)), "MAP_VA")
        return out.value, fence.value

    def unmap(self, as_handle, va, size, flags=0):
        """Unmaps; returns the paging fence it signalled. flags:
        UnmapFlag.UNDER_JOBS unmaps under jobs that still use the range."""
        fence = _u64()
        _check(_lib.gmmu_unmap_va_flags(self._handle(), as_handle, va, size, flags,
                                        _c.byref(fence)), "UNMAP_VA")
        return fence.value

    def reserve(self, as_handle, size, va=None):
        """Reserves a VA range for tiles (see update); returns its VA."""
        flags = int(MapFlag.FIXED_VA) if va is not None else 0
        out = _u64()
        _check(_lib.gmmu_reserve_va(self._handle(), as_handle, flags, va or 0, size,
                                    _c.byref(out)), "RESERVE_VA")
        return out.value

    def update(self, as_handle, ops):
        """One UPDATE_VA batch (op_map, op_unmap, op_copy, op_protect), run
        as one unit: all of it, or nothing and a DeviceError."""
        ops = list(ops)
        if not 0 < len(ops) <= UPDATE_MAX_OPS:
            raise ValueError(f"gmmu: a batch holds 1 to {UPDATE_MAX_OPS} operations")
        arr = (UpdateOp * len(ops))(*ops)
        fence = _u64()
        _check(_lib.gmmu_update_va_fence(self._handle(), as_handle, arr, len(ops),
                                         _c.byref(fence)), "UPDATE_VA")
        return fence.value

    def update_submit(self, as_handle, ops, wait=None, signal=None, owner=0):
        """Queues an UPDATE_VA batch and returns its id at once. wait=(fence,
        value): it is applied once the fence is at or past value (and no
        submitted job still needs a range it changes); signal=(fence, value):
        the fence is raised to value once it ended. owner 0 is this
        process's token."""
        ops = list(ops)
        if not 0 < len(ops) <= UPDATE_QUEUE_OPS:
            raise ValueError(f"gmmu: a queued batch holds 1 to {UPDATE_QUEUE_OPS} operations")
        wh, wv = wait if wait else (0, 0)
        sh, sv = signal if signal else (0, 0)
        req = UpdateSubmitReq(as_handle=as_handle, wait_handle=wh, wait_value=wv,
                              signal_handle=sh, signal_value=sv, owner=owner)
        arr = (UpdateOp * len(ops))(*ops)
        batch = _u32()
        _check(_lib.gmmu_update_submit(self._handle(), _c.byref(req), arr, len(ops),
                                       _c.byref(batch)), "UPDATE_SUBMIT")
        return batch.value

    def update_cancel(self, batch=0, all=False):
        """Cancels a waiting batch (never applied, nothing signalled), or all
        of them. Returns the UpdateCancelRsp (cancelled, queued)."""
        req = UpdateCancelReq(batch=batch, flags=int(UpdateCancelFlag.ALL) if all else 0)
        out = UpdateCancelRsp()
        _check(_lib.gmmu_update_cancel(self._handle(), _c.byref(req), _c.byref(out)),
               "UPDATE_CANCEL")
        return out

    def update_queue(self):
        """The waiting batches and the last one that ended (UpdateQueueRsp)."""
        out = UpdateQueueRsp()
        _check(_lib.gmmu_update_queue(self._handle(), _c.byref(out)), "UPDATE_QUEUE")
        return out

    def query(self, as_handle, va):
        out = QueryRsp()
        _check(_lib.gmmu_query_va(self._handle(), as_handle, va, _c.byref(out)), "QUERY_VA")
        return out

    # -- engines and VRAM
    def run(self, engine, op, as_handle, length, dst_va=0, src_va=0, pattern=0):
        """Runs a GPU engine (EngineOp) and waits for it. With
        op | EngineOpFlag.PHYSICAL it runs in physical mode: as_handle 0,
        dst_va and src_va VRAM offsets inside CONTIGUOUS allocations."""
        req = EngineReq(engine=engine, op=int(op), as_handle=as_handle, length=length,
                        dst_va=dst_va, src_va=src_va, pattern=pattern)
        rsp = EngineRsp()
        _check(_lib.gmmu_engine_run(self._handle(), _c.byref(req), _c.byref(rsp)), "ENGINE_RUN")
        st = rsp.engine_status
        return EngineResult(rsp, bool(_field(st, "FAULT")), Fault(_field(st, "REASON")),
                            Access(_field(st, "ACCESS")))

    def add_backing(self, sys_addr, size):
        """Gives the device host memory for its backing pool (ADD_BACKING)."""
        _check(_lib.gmmu_add_backing(self._handle(), sys_addr, size), "ADD_BACKING")

    def remove_backing(self, sys_addr=0, size=0, unreachable=False):
        """Takes a range of the backing pool back, or with unreachable=True
        every range the device no longer reaches (REMOVE_BACKING); returns
        the BackingRemoveRsp (ranges, moved, freed, fence)."""
        rsp = BackingRemoveRsp()
        flags = RemoveBackingFlag.UNREACHABLE if unreachable else 0
        _check(_lib.gmmu_remove_backing(self._handle(), sys_addr, size, flags, _c.byref(rsp)),
               "REMOVE_BACKING")
        return rsp

    @staticmethod
    def _handles(handles):
        handles = list(handles)
        if not 0 < len(handles) <= RESIDENCY_MAX:
            raise ValueError(f"gmmu: a residency list holds 1 to {RESIDENCY_MAX} handles")
        return (_u32 * len(handles))(*handles), len(handles)

    def make_resident(self, handles):
        """MAKE_RESIDENT over a list, all or nothing; returns the paging fence
        of its moves (complete when this returns)."""
        arr, n = self._handles(handles)
        fence = _u64()
        _check(_lib.gmmu_make_resident(self._handle(), arr, n, _c.byref(fence)), "MAKE_RESIDENT")
        return fence.value

    def evict(self, handles):
        """EVICT over a list: lowers each residency count, all or nothing."""
        arr, n = self._handles(handles)
        _check(_lib.gmmu_evict(self._handle(), arr, n), "EVICT")

    def query_alloc(self, alloc_handle):
        """Where an allocation lives now (AllocState) and its residency count."""
        out = AllocInfo()
        _check(_lib.gmmu_query_alloc(self._handle(), alloc_handle, _c.byref(out)), "QUERY_ALLOC")
        return out

    # -- monitored fences (docs/fences.md); FENCE_PAGING is the paging fence
    def fence_create(self, value=0):
        """A new fence at value; returns its FenceInfo (handle, value, offset)."""
        out = FenceInfo()
        _check(_lib.gmmu_fence_create(self._handle(), value, _c.byref(out)), "FENCE_CREATE")
        return out

    def fence_destroy(self, handle):
        _check(_lib.gmmu_fence_destroy(self._handle(), handle), "FENCE_DESTROY")

    def fence_signal(self, handle, value):
        """Raises the fence to value (behind it: DeviceError INVALID_ARGUMENT)."""
        out = FenceInfo()
        _check(_lib.gmmu_fence_signal(self._handle(), handle, value, _c.byref(out)),
               "FENCE_SIGNAL")
        return out.value

    def fence_read(self, handle=FENCE_PAGING):
        out = FenceInfo()
        _check(_lib.gmmu_fence_read(self._handle(), handle, _c.byref(out)), "FENCE_READ")
        return out.value

    def fence_read_mapped(self, handle=FENCE_PAGING):
        """The value from the fence page through BAR1 (no command for the value)."""
        info = FenceInfo()
        _check(_lib.gmmu_fence_read(self._handle(), handle, _c.byref(info)), "FENCE_READ")
        out = _u64()
        _check(_lib.gmmu_fence_read_mapped(self._handle(), info.offset, _c.byref(out)), "BAR1")
        return out.value

    def fence_arm(self, handle, value, cancel=False):
        """Asks for one EVT_FENCE when the fence reaches value; True if it had
        (the event is posted at once)."""
        out = FenceInfo()
        flags = int(FenceWaitFlag.CANCEL) if cancel else 0
        _check(_lib.gmmu_fence_arm(self._handle(), handle, value, flags, _c.byref(out)),
               "FENCE_WAIT")
        return bool(out.reached)

    def fence_wait(self, handle, value, timeout_ms=5000):
        """Waits for the fence's EVT_FENCE: True once it reached value, False
        after timeout_ms (the wait is then cancelled). Consumes other events
        it reads meanwhile."""
        rc = _lib.gmmu_fence_wait(self._handle(), handle, value, timeout_ms)
        if rc == -1:    # GMMU_E_TIMEOUT
            return False
        _check(rc, "FENCE_WAIT")
        return True

    def wait_paging_fence(self, fence, tries=1000):
        _check(_lib.gmmu_wait_paging_fence(self._handle(), fence, tries), "GET_VRAM")

    def start(self, engine, op, as_handle, length, dst_va=0, src_va=0, pattern=0):
        """Starts a GPU engine (EngineOp) and returns the hardware id it runs
        under; it runs on beside later calls (status() tells when it stops).
        EngineOpFlag.PHYSICAL as for run()."""
        req = EngineReq(engine=engine, op=int(op), as_handle=as_handle, length=length,
                        dst_va=dst_va, src_va=src_va, pattern=pattern)
        asid = _c.c_uint32()
        _check(_lib.gmmu_engine_start(self._handle(), _c.byref(req), _c.byref(asid)),
               "ENGINE_START")
        return asid.value

    def status(self, engine, abort=False):
        """A GPU engine's state now: (busy, EngineResult); abort stops its
        run first."""
        rsp = EngineRsp()
        _check(_lib.gmmu_engine_status(self._handle(), engine, int(bool(abort)), _c.byref(rsp)),
               "ENGINE_STATUS")
        st = rsp.engine_status
        return (bool(_field(st, "BUSY")),
                EngineResult(rsp, bool(_field(st, "FAULT")), Fault(_field(st, "REASON")),
                             Access(_field(st, "ACCESS"))))

    # -- asynchronous engine jobs (docs/engine.md, "Job queues")
    def submit(self, engine, op, as_handle, length, dst_va=0, src_va=0, pattern=0,
               wait=None, signal=None, owner=0):
        """Queues a job (EngineOp) and returns its id at once. wait=(fence,
        value): it starts once the fence is at or past value; signal=(fence,
        value): the fence is raised to value when the job ends (completed,
        faulted or aborted); wait for it with fence_wait. owner 0 is this
        process's token."""
        wh, wv = wait if wait else (0, 0)
        sh, sv = signal if signal else (0, 0)
        req = EngineSubmitReq(engine=engine, op=int(op), as_handle=as_handle, length=length,
                              dst_va=dst_va, src_va=src_va, pattern=pattern, wait_handle=wh,
                              wait_value=wv, signal_handle=sh, signal_value=sv, owner=owner)
        job = _u32()
        _check(_lib.gmmu_engine_submit(self._handle(), _c.byref(req), _c.byref(job)),
               "ENGINE_SUBMIT")
        return job.value

    def cancel(self, engine, job=0, all=False):
        """Cancels a queued job (it never runs) or aborts the running one (it
        still signals); all=True cancels every queued job of the engine.
        Returns the EngineCancelRsp (cancelled, aborted)."""
        req = EngineCancelReq(engine=engine, job=job,
                              flags=int(EngineCancelFlag.ALL) if all else 0)
        out = EngineCancelRsp()
        _check(_lib.gmmu_engine_cancel(self._handle(), _c.byref(req), _c.byref(out)),
               "ENGINE_CANCEL")
        return out

    def queue(self, engine):
        """An engine's job queue now (EngineQueueRsp): queued, running, the
        last job's id, status and result."""
        out = EngineQueueRsp()
        _check(_lib.gmmu_engine_queue(self._handle(), engine, _c.byref(out)), "ENGINE_QUEUE")
        return out

    def vram_read(self, offset, length):
        """length bytes of VRAM through the BAR1 aperture (multiples of 4)."""
        buf = _c.create_string_buffer(length)
        _check(_lib.gmmu_vram_read(self._handle(), offset, buf, length), "VRAM read")
        return buf.raw

    def vram_write(self, offset, data):
        data = bytes(data)
        buf = _c.create_string_buffer(data, len(data))
        _check(_lib.gmmu_vram_write(self._handle(), offset, buf, len(data)), "VRAM write")

    # -- events
    def next_event(self):
        """The next event on the ring, or None if there is none."""
        ev = Event()
        rc = _lib.gmmu_next_event(self._handle(), _c.byref(ev))
        if rc < 0:
            _check(rc, "event")
        return ev if rc == 1 else None

    def wait_event(self, timeout_ms):
        """Waits up to timeout_ms for an event: the event, or None."""
        ev = Event()
        rc = _lib.gmmu_wait_event(self._handle(), int(timeout_ms), _c.byref(ev))
        if rc == -1:    # GMMU_E_TIMEOUT
            return None
        _check(rc, "event")
        return ev

    def events(self):
        """Every event waiting now, oldest first."""
        while (ev := self.next_event()) is not None:
            yield ev


def open(spec=None, timeout_ms=None):  # noqa: A001 (gmmu.open, as os.open)
    """Opens a device: spec, or the environment variable GMMU_DEVICE."""
    return Device(spec, timeout_ms)
