// SPDX-License-Identifier: Apache-2.0
/*
 * libFuzzer harness of the VidMm mailbox handlers.
 *
 * An input is a sequence of commands. Each starts with a selector byte (the
 * opcode, or now and then any opcode number) and a mode byte, then the
 * payload's bytes. Unless the mode says "raw", the handles in a payload are
 * replaced by live ones the harness has seen and sizes, offsets and VAs are
 * folded into small windows, so that most commands are valid and reach deep
 * states; raw commands keep every byte, wrong lengths included.
 *
 * After every command, whatever it returned:
 *  - the status is a protocol status and never INTERNAL, and the response
 *    length is the opcode's on OK and 0 otherwise;
 *  - VRAM in use equals what allocations and page tables hold;
 *  - every MAP_VA mapping translates (tests/model/gmmu_ref) to the pages
 *    its allocation's pieces say, at its first, middle and last page, in
 *    VRAM or the backing pool, or is invalid there while its VRAM-only
 *    allocation is OFFLINE;
 *  - the pool's use is what its allocations' pieces hold, each piece inside
 *    the pool and no page held twice; QUERY_ALLOC of each live allocation
 *    agrees with its pieces; residency counts change only by a list that
 *    succeeded; only ALLOC and MAKE_RESIDENT move anything, out only
 *    allocations that were victims (count 0, not contiguous, no tiles if
 *    VRAM only, not in the list), in only MAKE_RESIDENT's own;
 *  - the simulated TLB, filled by accesses, holds no stale translation;
 *  - after a FREE, no tile of a known mapping or reserved range translates
 *    to memory that no live allocation holds.
 * At the end of an input everything still live is freed and destroyed
 * through the handlers, and VRAM, the records and the pieces must be back
 * to where they started (no leak).
 *
 * The platform has 4 MiB of host memory and a copy hook, and each input
 * starts with a 2 MiB backing range (ADD_BACKING), so ALLOC placements,
 * over-commit, MAKE_RESIDENT, EVICT and moves are reached; inputs may add
 * ranges of their own.
 *
 * Built with small limits (tools/mk/fuzz.mk) so every pool runs out.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vidmm_cmds.h"
#include "vidmm_sim.h"

#define PAGE         4096ull
#define TILE         65536ull
#define VRAM_BYTES   (2ull << 20)
#define HW_ASIDS     3u
#define NODES_PER_AS 12u
#define WINDOW       (1ull << 30) /* folded VAs land near 1 GB */
#define MAX_RANGES   32
#define HOST         VIDMM_SIM_HOST_BASE
#define HOST_BYTES   (4ull << 20)
#define LIST_MAX     8  /* MAKE_RESIDENT and EVICT lists built by folding */
#define PAGES_MAX    12 /* ALLOC_PAGES lists built by folding */

static struct vidmm_sim sim;

/* Handles, mappings and reserved ranges seen in responses. Ranges may go
   stale (a freed allocation takes its mappings along): harmless. */
static uint32_t allocs[VIDMM_MAX_ALLOCS], as_handles[VIDMM_MAX_AS];
static unsigned n_allocs, n_as;
static struct range {
    uint32_t as;
    bool reserved;
    uint64_t va, size;
} ranges[MAX_RANGES];
static unsigned n_ranges;

static _Noreturn void broken(const char *what, unsigned long long a, unsigned long long b)
{
    fprintf(stderr, "fuzz_vidmm: %s (0x%llx, 0x%llx)\n", what, a, b);
    abort();
}

/* ------------------------------------------------------------ input */

struct input {
    const uint8_t *data;
    size_t left;
};

static uint8_t byte(struct input *in)
{
    if (!in->left)
        return 0;
    in->left--;
    return *in->data++;
}

static void bytes(struct input *in, void *dst, size_t n)
{
    size_t k = n < in->left ? n : in->left;

    memset(dst, 0, n);
    memcpy(dst, in->data, k);
    in->data += k;
    in->left -= k;
}

/* ------------------------------------------------------------ folding */

static uint32_t pick(const uint32_t *list, unsigned n, uint32_t raw)
{
    return n ? list[raw % n] : raw;
}

static uint64_t fold_size(uint64_t raw)
{
    uint64_t size = raw & 0x3FFFFF;

    return raw & (1ull << 63) ? size : (size & ~(PAGE - 1)) + PAGE;
}

static uint64_t fold_va(uint64_t raw)
{
    if (raw & (1ull << 62))
        return raw;
    return WINDOW + (raw & 0x3FFF000);
}

/* Mostly zero: a reserved field or an unused one keeps its value only when
   its top bit is set. */
static uint64_t mostly_zero(uint64_t raw, unsigned bits)
{
    return raw >> (bits - 1) ? raw : 0;
}

/* A known range of address space as (reserved ones if `reserved`),
   chosen by raw; NULL if there is none. */
static const struct range *known_range(uint32_t as, bool reserved, uint64_t raw)
{
    for (unsigned i = 0; i < n_ranges; i++) {
        const struct range *r = &ranges[(raw + i) % n_ranges];

        if (r->as == as && (r->reserved || !reserved))
            return r;
    }
    return NULL;
}

static void fold_update_op(struct gmmu_update_op *op, uint32_t as)
{
    const struct range *r = known_range(as, true, op->va);

    op->op = op->op % 8 < 5 ? op->op % 8 : op->op;
    op->reserved = (uint32_t)mostly_zero(op->reserved, 32);
    op->size = (op->size & 0x7) * TILE + TILE;
    op->flags &= 0x17;
    if (r)
        op->va = r->va + (op->va >> 8) % (r->size / TILE) * TILE;
    if (op->op == GMMU_UPDATE_OP_MAP)
        op->alloc_handle = pick(allocs, n_allocs, op->alloc_handle);
    else
        op->alloc_handle = (uint32_t)mostly_zero(op->alloc_handle, 32);
    if (op->op == GMMU_UPDATE_OP_MAP) {
        op->arg = (op->arg & 0xF) * TILE;
    } else if (op->op == GMMU_UPDATE_OP_COPY) {
        const struct range *src = known_range(as, true, op->arg >> 8);

        if (src)
            op->arg = src->va + (op->arg & 0xF) % (src->size / TILE) * TILE;
    } else {
        op->arg = mostly_zero(op->arg, 64);
    }
}

/* Builds the payload of opcode from the input; returns its length. */
static uint32_t build(struct input *in, uint16_t opcode, bool raw, uint8_t *buf)
{
    union vidmm_fixed_req u;
    struct gmmu_residency_req res;
    struct gmmu_update_req upd;
    struct gmmu_alloc_pages_req pg;
    uint32_t len = 0;

    switch (opcode) {
    case GMMU_OP_ALLOC:
        bytes(in, &u.alloc, sizeof(u.alloc));
        if (!raw) {
            u.alloc.size = fold_size(u.alloc.size);
            u.alloc.flags &= 0x1F; /* placements too */
            u.alloc.reserved = 0;
            u.alloc.lowest &= 0x3FF000;
            u.alloc.highest &= 0x7FFFFF;
            u.alloc.boundary = u.alloc.boundary & 1 ? 1ull << (u.alloc.boundary >> 1 & 31) : 0;
            u.alloc.sys_addr &= u.alloc.flags & GMMU_ALLOC_FLAG_SYSTEM ? 0xFFFFFFFFF000 : 0;
        }
        len = sizeof(u.alloc);
        break;
    case GMMU_OP_FREE:
    case GMMU_OP_DESTROY_AS:
    case GMMU_OP_QUERY_ALLOC:
        bytes(in, &u.handle, sizeof(u.handle));
        if (!raw) {
            u.handle.handle = opcode != GMMU_OP_DESTROY_AS
                                  ? pick(allocs, n_allocs, u.handle.handle)
                                  : pick(as_handles, n_as, u.handle.handle);
            u.handle.reserved = 0;
        }
        len = sizeof(u.handle);
        break;
    case GMMU_OP_MAP_VA:
        bytes(in, &u.map, sizeof(u.map));
        if (!raw) {
            u.map.as_handle = pick(as_handles, n_as, u.map.as_handle);
            u.map.alloc_handle = pick(allocs, n_allocs, u.map.alloc_handle);
            u.map.offset = (u.map.offset & 0xF) * PAGE;
            u.map.size = fold_size(u.map.size) & 0x7FFFF;
            u.map.flags &= 0xF;
            u.map.va = u.map.flags & GMMU_MAP_FLAG_FIXED_VA ? fold_va(u.map.va) : 0;
            u.map.page_sizes &= 0xF;
        }
        len = sizeof(u.map);
        break;
    case GMMU_OP_UNMAP_VA:
    case GMMU_OP_QUERY_VA:
        bytes(in, &u.range, sizeof(u.range));
        if (!raw) {
            const struct range *r;

            u.range.as_handle = pick(as_handles, n_as, u.range.as_handle);
            u.range.flags = 0;
            u.range.va = fold_va(u.range.va);
            u.range.size = fold_size(u.range.size);
            r = known_range(u.range.as_handle, false, u.range.size >> 12);
            if (r && !(u.range.size & (1ull << 13))) {
                u.range.va = r->va + (opcode == GMMU_OP_QUERY_VA ? u.range.size % r->size : 0);
                u.range.size = r->size;
            }
        }
        len = opcode == GMMU_OP_UNMAP_VA ? sizeof(u.range) : sizeof(u.query);
        break;
    case GMMU_OP_RESERVE_VA:
        bytes(in, &u.reserve, sizeof(u.reserve));
        if (!raw) {
            u.reserve.as_handle = pick(as_handles, n_as, u.reserve.as_handle);
            u.reserve.flags &= GMMU_MAP_FLAG_FIXED_VA;
            u.reserve.va = u.reserve.flags ? fold_va(u.reserve.va) & ~(TILE - 1) : 0;
            u.reserve.size = ((u.reserve.size & 0xF) + 1) * TILE;
        }
        len = sizeof(u.reserve);
        break;
    case GMMU_OP_UPDATE_VA:
        bytes(in, &upd, sizeof(upd));
        if (!raw) {
            upd.as_handle = pick(as_handles, n_as, upd.as_handle);
            upd.count %= 7;
        }
        len = (uint32_t)sizeof(upd);
        memcpy(buf, &upd, sizeof(upd));
        for (uint32_t i = 0; i < (raw ? upd.count % 8 : upd.count); i++) {
            struct gmmu_update_op op;

            bytes(in, &op, sizeof(op));
            if (!raw)
                fold_update_op(&op, upd.as_handle);
            memcpy(buf + len, &op, sizeof(op));
            len += sizeof(op);
        }
        return len;
    case GMMU_OP_ADD_BACKING:
        bytes(in, &u.backing, sizeof(u.backing));
        if (!raw) { /* 64 KB units of the host memory, and a little beyond */
            u.backing.sys_addr = HOST + (u.backing.sys_addr & 0x7F) * TILE;
            u.backing.size = ((u.backing.size & 0x3F) + 1) * TILE;
        }
        len = sizeof(u.backing);
        break;
    case GMMU_OP_REMOVE_BACKING:
        bytes(in, &u.backing_remove, sizeof(u.backing_remove));
        if (!raw) { /* a range of the pool, or every unreachable one */
            const struct backing_pool *b = &sim.vm->backing;
            uint32_t i = (uint32_t)(u.backing_remove.sys_addr % (b->count + 1));

            u.backing_remove.flags = (uint32_t)mostly_zero(u.backing_remove.flags, 32);
            u.backing_remove.reserved = (uint32_t)mostly_zero(u.backing_remove.reserved, 32);
            u.backing_remove.sys_addr = i < b->count ? b->range[i].addr : 0;
            u.backing_remove.size = i < b->count ? b->range[i].size : 0;
            if (i == b->count)
                u.backing_remove.flags |= GMMU_REMOVE_BACKING_FLAG_UNREACHABLE;
        }
        len = sizeof(u.backing_remove);
        break;
    case GMMU_OP_MAKE_RESIDENT:
    case GMMU_OP_EVICT:
        bytes(in, &res, sizeof(res));
        if (!raw) {
            res.count = res.count % LIST_MAX + 1;
            res.reserved = (uint32_t)mostly_zero(res.reserved, 32);
        }
        memcpy(buf, &res, sizeof(res));
        len = (uint32_t)sizeof(res);
        for (uint32_t i = 0; i < (raw ? res.count % (LIST_MAX * 2) : res.count); i++) {
            uint32_t h;

            bytes(in, &h, sizeof(h));
            if (!raw && !(h >> 31))
                h = pick(allocs, n_allocs, h);
            memcpy(buf + len, &h, sizeof(h));
            len += sizeof(h);
        }
        return len;
    case GMMU_OP_ALLOC_PAGES:
        /* Pages of the host memory, mostly in short runs (a page after the
           last), now and then anything (unaligned, beyond the PA, repeats
           happen by themselves); two owners; the size near the count. */
        bytes(in, &pg, sizeof(pg));
        if (!raw) {
            pg.owner = pg.owner & 1;
            pg.flags &= 0x3;
            pg.count = pg.count % (PAGES_MAX + 1);
            pg.size =
                (pg.size & (1ull << 63)) ? pg.size : ((pg.size & 0x1F) + (pg.size >> 8 & 3)) * PAGE;
            pg.reserved = (uint32_t)mostly_zero(pg.reserved, 32);
        }
        memcpy(buf, &pg, sizeof(pg));
        len = (uint32_t)sizeof(pg);
        for (uint32_t i = 0, prev = 0; i < (raw ? pg.count % 64 : pg.count); i++) {
            uint64_t a;

            bytes(in, &a, sizeof(a));
            if (!raw && !(a >> 63)) {
                uint32_t page = a & 1 ? prev + 1 : (uint32_t)(a >> 1) % (HOST_BYTES / PAGE);

                a = HOST + page * PAGE;
                prev = page;
            }
            memcpy(buf + len, &a, sizeof(a));
            len += sizeof(a);
        }
        return len;
    default: /* CREATE_AS, GET_VRAM and unknown opcodes: no payload */
        return 0;
    }
    memcpy(buf, &u, len);
    return len;
}

/* ------------------------------------------------------------ bookkeeping */

static void forget(uint32_t *list, unsigned *n, uint32_t handle)
{
    for (unsigned i = 0; i < *n; i++) {
        if (list[i] == handle) {
            list[i] = list[--*n];
            return;
        }
    }
}

static void forget_ranges(uint32_t as, uint64_t va)
{
    for (unsigned i = 0; i < n_ranges; i++)
        if (ranges[i].as == as && (va == UINT64_MAX || ranges[i].va == va))
            ranges[i--] = ranges[--n_ranges];
}

static void remember_range(uint32_t as, bool reserved, uint64_t va, uint64_t size)
{
    if (n_ranges < MAX_RANGES)
        ranges[n_ranges++] = (struct range){ as, reserved, va, size };
}

static void note(uint16_t opcode, const uint8_t *req, const uint8_t *rsp)
{
    struct gmmu_handle_req h;
    struct gmmu_range_req r;
    struct gmmu_map_req m;
    struct gmmu_reserve_req rv;
    uint32_t handle;
    uint64_t va;

    switch (opcode) {
    case GMMU_OP_ALLOC:
    case GMMU_OP_ALLOC_PAGES: /* 0 until the list is committed */
        memcpy(&handle, rsp, 4);
        if (handle)
            allocs[n_allocs++] = handle;
        break;
    case GMMU_OP_CREATE_AS:
        memcpy(&handle, rsp, 4);
        as_handles[n_as++] = handle;
        break;
    case GMMU_OP_FREE:
        memcpy(&h, req, sizeof(h));
        forget(allocs, &n_allocs, h.handle);
        break;
    case GMMU_OP_DESTROY_AS:
        memcpy(&h, req, sizeof(h));
        forget(as_handles, &n_as, h.handle);
        forget_ranges(h.handle, UINT64_MAX);
        break;
    case GMMU_OP_MAP_VA:
        memcpy(&m, req, sizeof(m));
        memcpy(&va, rsp, 8);
        remember_range(m.as_handle, false, va, m.size);
        break;
    case GMMU_OP_UNMAP_VA:
        memcpy(&r, req, sizeof(r));
        forget_ranges(r.as_handle, r.va);
        break;
    case GMMU_OP_RESERVE_VA:
        memcpy(&rv, req, sizeof(rv));
        memcpy(&va, rsp, 8);
        remember_range(rv.as_handle, true, va, rv.size);
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------ invariants */

static uint32_t rsp_size(uint16_t opcode)
{
    switch (opcode) {
    case GMMU_OP_ALLOC:
    case GMMU_OP_ALLOC_PAGES:
        return GMMU_ALLOC_RSP_BYTES;
    case GMMU_OP_CREATE_AS:
        return GMMU_AS_RSP_BYTES;
    case GMMU_OP_MAP_VA:
        return GMMU_MAP_RSP_BYTES;
    case GMMU_OP_UNMAP_VA:
    case GMMU_OP_UPDATE_VA:
        return GMMU_PAGING_RSP_BYTES;
    case GMMU_OP_RESERVE_VA:
        return GMMU_VA_RSP_BYTES;
    case GMMU_OP_QUERY_VA:
        return GMMU_QUERY_RSP_BYTES;
    case GMMU_OP_GET_VRAM:
        return GMMU_VRAM_RSP_BYTES;
    case GMMU_OP_MAKE_RESIDENT:
        return GMMU_RESIDENCY_RSP_BYTES;
    case GMMU_OP_QUERY_ALLOC:
        return GMMU_ALLOC_INFO_BYTES;
    case GMMU_OP_GET_SEGMENTS: /* system memory, VRAM and the aperture */
        return GMMU_SEGMENTS_RSP_BYTES + 3 * GMMU_SEGMENT_DESC_BYTES;
    case GMMU_OP_REMOVE_BACKING:
        return GMMU_BACKING_REMOVE_RSP_BYTES;
    default:
        return 0;
    }
}

/* Host address of pool offset lin (bytes across the ranges, in the order
   they were added). */
static uint64_t pool_addr(uint64_t lin)
{
    const struct backing_pool *b = &sim.vm->backing;

    for (uint32_t i = 0; i < b->count; i++) {
        if (lin < b->range[i].size)
            return b->range[i].addr + lin;
        lin -= b->range[i].size;
    }
    broken("pool piece beyond the pool", lin, b->bytes);
}

static bool in_pool(const struct vidmm_alloc *a)
{
    return a->where == VIDMM_AT_POOL;
}

/* A VRAM-only allocation that is not resident: its mappings are invalid. */
static bool offline(const struct vidmm_alloc *a)
{
    return in_pool(a) &&
           !(a->flags & (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_SYSTEM_ONLY));
}

static unsigned segment_of(const struct vidmm_alloc *a)
{
    return a->where == VIDMM_AT_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
}

/* A SYSTEM allocation of one host buffer (ALLOC); an ALLOC_PAGES one has
   a piece per run of host pages. */
static bool host_buffer(const struct vidmm_alloc *a)
{
    return (a->flags & GMMU_ALLOC_FLAG_SYSTEM) && a->first_extent == 0xFFFF;
}

static uint64_t extent_start(const struct vidmm_extent *e)
{
    return ((uint64_t)e->page_hi << 32 | e->page) * PAGE;
}

/* Where offset `off` of the allocation is, from its pieces. */
static uint64_t piece_pa(const struct vidmm_alloc *a, uint64_t off)
{
    if (host_buffer(a))
        return a->sys_addr + off;
    for (uint16_t i = a->first_extent; i != 0xFFFF; i = sim.vm->extents[i].next) {
        uint64_t bytes = (uint64_t)sim.vm->extents[i].pages * PAGE;
        uint64_t at = extent_start(&sim.vm->extents[i]) + off;

        if (off < bytes)
            return in_pool(a) ? pool_addr(at) : at;
        off -= bytes;
    }
    broken("offset beyond the allocation's pieces", off, 0);
}

/* The offset of the allocation that the page at pa is, or UINT64_MAX. */
static uint64_t offset_of(const struct vidmm_alloc *a, uint64_t pa)
{
    if (host_buffer(a))
        return pa >= a->sys_addr && pa - a->sys_addr < a->size ? pa - a->sys_addr : UINT64_MAX;
    for (uint64_t off = 0; off < a->size; off += PAGE)
        if (piece_pa(a, off) == pa)
            return off;
    return UINT64_MAX;
}

static void walk(const struct vidmm_as *as, uint64_t va, struct gmmu_ref_result *res)
{
    vidmm_sim_walk(&sim, ptm_root(&as->pm), va, GMMU_ACCESS_READ, res);
    if (res->fault != GMMU_FAULT_NONE || res->zero)
        broken("mapped page does not translate", va, res->fault);
    if (as->hw_asid != VIDMM_NO_ASID)
        vidmm_sim_access(&sim, as->hw_asid, va, res);
}

/* A mapping's first page says which offset of its allocation it starts
   at; its middle and last pages must follow from the allocation's pieces. */
static void check_mapping(const struct vidmm_record *r)
{
    const struct vidmm_as *as = &sim.vm->as[r->as];
    const struct vidmm_alloc *a = &sim.vm->allocs[r->alloc];
    uint64_t probe[2] = { r->size / 2 & ~(PAGE - 1), r->size - PAGE }, start;
    struct gmmu_ref_result res;
    struct va_extent ext;

    if (!as->live || !a->live)
        broken("mapping of a dead object", r->as, r->alloc);
    if (!va_alloc_find(&as->vs, r->va, &ext) || ext.start != r->va || ext.size != r->size)
        broken("mapping without its VA range", r->va, r->size);
    if (offline(a)) {
        for (int k = 0; k < 3; k++) {
            vidmm_sim_walk(&sim, ptm_root(&as->pm), r->va + (k ? probe[k - 1] : 0),
                           GMMU_ACCESS_READ, &res);
            if (res.fault != GMMU_FAULT_INVALID)
                broken("mapping of an OFFLINE allocation translates", r->va, res.pa);
        }
        return;
    }
    walk(as, r->va, &res);
    if (res.segment != segment_of(a))
        broken("mapped page in the wrong segment", r->va, res.segment);
    start = offset_of(a, res.pa);
    if (start == UINT64_MAX || start + r->size > a->size)
        broken("mapping outside its allocation", r->va, res.pa);
    for (int k = 0; k < 2; k++) {
        walk(as, r->va + probe[k], &res);
        if (res.pa != piece_pa(a, start + probe[k]))
            broken("mapped page is not the allocation's", r->va + probe[k], res.pa);
    }
}

/* Whether some live allocation holds the page at (segment, pa). */
static bool owned(unsigned segment, uint64_t pa)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &sim.vm->allocs[i];
        bool system = host_buffer(a);

        if (!a->live || segment != segment_of(a))
            continue;
        if (system && pa >= a->sys_addr && pa - a->sys_addr < a->size)
            return true;
        for (uint16_t e = a->first_extent; !system && e != 0xFFFF; e = sim.vm->extents[e].next) {
            uint64_t start = extent_start(&sim.vm->extents[e]);

            start = in_pool(a) ? pool_addr(start) : start;

            if (pa >= start && pa - start < (uint64_t)sim.vm->extents[e].pages * PAGE)
                return true;
        }
    }
    return false;
}

/* After a FREE: no page of a known range (the first of each tile, which
   speaks for the tile) may still point at memory nobody holds. */
static void check_nothing_dangles(void)
{
    for (unsigned i = 0; i < n_ranges; i++) {
        uint64_t root;
        uint32_t id;

        if (!vidmm_as_info(sim.vm, ranges[i].as, &root, &id))
            continue;
        for (uint64_t off = 0; off < ranges[i].size; off += TILE) {
            struct gmmu_ref_result res;

            vidmm_sim_walk(&sim, root, ranges[i].va + off, GMMU_ACCESS_READ, &res);
            if (res.fault == GMMU_FAULT_NONE && !res.zero && !owned(res.segment, res.pa))
                broken("a page still points at freed memory", ranges[i].va + off, res.pa);
        }
    }
}

static uint32_t run(uint16_t opcode, const uint8_t *req, uint32_t len, uint8_t *rsp,
                    uint32_t *rsp_len);

/* An ALLOC_PAGES allocation: its pieces cover its size, at most
   VIDMM_PAGE_RUNS of them, none over another or over the backing pool. */
static void check_page_list(const struct vidmm_alloc *a)
{
    uint64_t pages = 0;
    uint32_t n = 0;

    for (uint16_t e = a->first_extent; e != 0xFFFF; e = sim.vm->extents[e].next, n++) {
        const struct vidmm_extent *x = &sim.vm->extents[e];
        uint64_t lo = extent_start(x), hi = lo + (uint64_t)x->pages * PAGE;

        pages += x->pages;
        if (hi > (1ull << 52) || backing_pool_overlaps(&sim.vm->backing, lo, hi - lo))
            broken("a listed page beyond the PA or in the pool", lo, hi);
        for (uint16_t f = x->next; f != 0xFFFF; f = sim.vm->extents[f].next) {
            uint64_t flo = extent_start(&sim.vm->extents[f]);

            if (flo < hi && lo < flo + (uint64_t)sim.vm->extents[f].pages * PAGE)
                broken("a page listed twice", lo, flo);
        }
    }
    if (pages * PAGE != a->size || n > VIDMM_PAGE_RUNS || n != a->extents)
        broken("page list pieces", pages, n);
}

/* Residency counts and copies before the command (check_residency). */
static struct {
    bool live[VIDMM_MAX_ALLOCS], victim[VIDMM_MAX_ALLOCS];
    uint16_t count[VIDMM_MAX_ALLOCS];
    uint8_t where[VIDMM_MAX_ALLOCS];
    uint64_t copies;
} prior;

static bool has_tiles(uint32_t slot)
{
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        if (sim.vm->records[i].kind == VIDMM_REC_TILES && sim.vm->records[i].alloc == slot)
            return true;
    return false;
}

static void note_prior(void)
{
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &sim.vm->allocs[i];

        prior.live[i] = a->live;
        prior.count[i] = a->residency;
        prior.where[i] = a->where;
        /* docs/vidmm.md: who may be moved out (no engine runs here). */
        prior.victim[i] =
            a->live && a->where == VIDMM_AT_VRAM && !a->residency &&
            !(a->flags & (GMMU_ALLOC_FLAG_CONTIGUOUS | GMMU_ALLOC_FLAG_SYSTEM)) &&
            !(!(a->flags & (GMMU_ALLOC_FLAG_VRAM_PREFERRED | GMMU_ALLOC_FLAG_SYSTEM_ONLY)) &&
              has_tiles(i));
    }
    prior.copies = sim.copies;
}

static uint32_t slot_of(uint32_t handle)
{
    return (handle & 0xFFFF) - 1;
}

/*
 * The pool holds exactly the pieces of the allocations in it, each inside
 * the pool and none over another; VRAM allocations add up to what vidmm
 * says is resident; QUERY_ALLOC says what the pieces say; counts moved only
 * by MAKE_RESIDENT (up) and EVICT (down), by the list, on success; only
 * ALLOC and MAKE_RESIDENT move anything; after MAKE_RESIDENT the VRAM-only
 * allocations of its list are in VRAM.
 */
static void check_residency(uint16_t opcode, uint32_t st, const uint8_t *req, uint32_t len)
{
    uint64_t pool_used = 0, resident = 0;
    int32_t delta[VIDMM_MAX_ALLOCS] = { 0 };
    bool listed[VIDMM_MAX_ALLOCS] = { false };

    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &sim.vm->allocs[i];
        struct gmmu_handle_req h = { .handle = 0 };
        struct gmmu_alloc_info info;
        static uint8_t rsp[GMMU_MSG_MAX_BYTES];
        uint32_t rlen, want;

        if (!a->live)
            continue;
        if (a->where == VIDMM_AT_VRAM && !(a->flags & GMMU_ALLOC_FLAG_SYSTEM))
            resident += a->size;
        if ((a->flags & GMMU_ALLOC_FLAG_SYSTEM) && !host_buffer(a))
            check_page_list(a);
        for (uint16_t e = a->first_extent; in_pool(a) && e != 0xFFFF; e = sim.vm->extents[e].next) {
            const struct vidmm_extent *x = &sim.vm->extents[e];
            uint64_t lo = (uint64_t)x->page * PAGE, hi = lo + (uint64_t)x->pages * PAGE;

            if (hi > sim.vm->backing.bytes || (lo | hi) % TILE)
                broken("pool piece outside the pool or not in 64 KB units", lo, hi);
            pool_used += hi - lo;
            for (uint32_t j = i + 1; j < VIDMM_MAX_ALLOCS; j++) {
                const struct vidmm_alloc *b = &sim.vm->allocs[j];

                for (uint16_t f = b->first_extent; b->live && in_pool(b) && f != 0xFFFF;
                     f = sim.vm->extents[f].next) {
                    uint64_t blo = (uint64_t)sim.vm->extents[f].page * PAGE;

                    if (blo < hi && lo < blo + (uint64_t)sim.vm->extents[f].pages * PAGE)
                        broken("a pool page held twice", lo, blo);
                }
            }
        }
        h.handle = (uint32_t)(0x7FFF0000u & ((uint32_t)a->gen << 16)) | (i + 1);
        if (run(GMMU_OP_QUERY_ALLOC, (const uint8_t *)&h, sizeof(h), rsp, &rlen) != GMMU_STATUS_OK)
            broken("QUERY_ALLOC of a live allocation", i, a->gen);
        memcpy(&info, rsp, sizeof(info));
        want = a->where == VIDMM_AT_VRAM   ? GMMU_ALLOC_STATE_VRAM
               : a->where == VIDMM_AT_HOST ? GMMU_ALLOC_STATE_HOST
               : offline(a)                ? GMMU_ALLOC_STATE_OFFLINE
                                           : GMMU_ALLOC_STATE_BACKING;
        if (info.state != want || info.residency != a->residency || info.base != piece_pa(a, 0) ||
            info.size != a->size)
            broken("QUERY_ALLOC disagrees with the pieces", i, info.state);
    }
    if (pool_used != sim.vm->backing.used)
        broken("pool accounting", pool_used, sim.vm->backing.used);
    if (resident != sim.vm->alloc_vram_bytes)
        broken("resident bytes", resident, sim.vm->alloc_vram_bytes);
    if (sim.copies != prior.copies && opcode != GMMU_OP_ALLOC && opcode != GMMU_OP_MAKE_RESIDENT &&
        opcode != GMMU_OP_REMOVE_BACKING)
        broken("a command other than ALLOC, MAKE_RESIDENT or REMOVE_BACKING moved memory", opcode,
               0);
    /* A list that was run (OK, or MAKE_RESIDENT's NO_MEMORY) is all live handles. */
    if ((st == GMMU_STATUS_OK && opcode == GMMU_OP_EVICT) ||
        (opcode == GMMU_OP_MAKE_RESIDENT &&
         (st == GMMU_STATUS_OK || st == GMMU_STATUS_NO_MEMORY))) {
        for (uint32_t k = 8; k + 4 <= len; k += 4) {
            uint32_t h;

            memcpy(&h, req + k, 4);
            listed[slot_of(h)] = true;
            if (st != GMMU_STATUS_OK)
                continue;
            delta[slot_of(h)] += opcode == GMMU_OP_MAKE_RESIDENT ? 1 : -1;
            if (opcode == GMMU_OP_MAKE_RESIDENT && offline(&sim.vm->allocs[slot_of(h)]))
                broken("MAKE_RESIDENT left a listed allocation OFFLINE", h, 0);
        }
    }
    /* Moves out only of victims (not MAKE_RESIDENT's own list), moves in
       only of MAKE_RESIDENT's list. */
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++) {
        const struct vidmm_alloc *a = &sim.vm->allocs[i];

        if (!prior.live[i] || !a->live || a->where == prior.where[i])
            continue;
        if (a->where == VIDMM_AT_POOL && (!prior.victim[i] || listed[i]))
            broken("an allocation that was not a victim moved out", i, prior.count[i]);
        /* REMOVE_BACKING brings a tenant of its range in when the rest of
           the pool cannot hold it. */
        if (a->where == VIDMM_AT_VRAM && (a->flags & GMMU_ALLOC_FLAG_SYSTEM_ONLY))
            broken("a system-only allocation moved into VRAM", i, opcode);
        if (a->where == VIDMM_AT_VRAM && opcode != GMMU_OP_REMOVE_BACKING &&
            (opcode != GMMU_OP_MAKE_RESIDENT || !listed[i]))
            broken("an allocation moved into VRAM unasked", i, opcode);
    }
    for (uint32_t i = 0; i < VIDMM_MAX_ALLOCS; i++)
        if (prior.live[i] && sim.vm->allocs[i].live &&
            sim.vm->allocs[i].residency != prior.count[i] + delta[i])
            broken("a residency count changed", i, sim.vm->allocs[i].residency);
}

/* After ALLOC_PAGES: a list whose message was refused (but for another
   owner's, BAD_HANDLE) or committed is gone, and only a commit adds an
   allocation. */
static void check_staging(uint16_t opcode, uint32_t st, const uint8_t *req, uint32_t len,
                          const uint8_t *rsp)
{
    struct gmmu_alloc_pages_req pg;
    struct gmmu_alloc_rsp out;

    if (opcode != GMMU_OP_ALLOC_PAGES)
        return;
    if (st != GMMU_STATUS_OK && st != GMMU_STATUS_BAD_HANDLE &&
        st != GMMU_STATUS_MALFORMED_LENGTH && sim.vm->stage->active)
        broken("a refused ALLOC_PAGES left its list staged", st, 0);
    if (st != GMMU_STATUS_OK || len < sizeof(pg))
        return;
    memcpy(&pg, req, sizeof(pg));
    memcpy(&out, rsp, sizeof(out));
    if (!(pg.flags & GMMU_ALLOC_PAGES_FLAG_COMMIT) != !out.handle)
        broken("ALLOC_PAGES answered a handle without COMMIT, or none with it", pg.flags,
               out.handle);
    if ((pg.flags & GMMU_ALLOC_PAGES_FLAG_COMMIT) && sim.vm->stage->active)
        broken("a committed list stays staged", pg.flags, 0);
    if (!out.handle && (!sim.vm->stage->active || out.size != sim.vm->stage->staged * PAGE))
        broken("ALLOC_PAGES staged what it did not say", out.size, sim.vm->stage->staged);
}

/* The per-allocation record counts that end vidmm's scans early: a count
   short of the records would let FREE leave one behind. */
static void check_record_counts(uint16_t opcode)
{
    uint8_t n[VIDMM_MAX_ALLOCS] = { 0 };

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        if (sim.vm->records[i].kind != VIDMM_REC_FREE)
            n[sim.vm->records[i].alloc]++;
    for (uint32_t a = 0; a < VIDMM_MAX_ALLOCS; a++)
        if (sim.vm->alloc_records[a] != n[a])
            broken("allocation's record count", opcode, a);
}

static void check_invariants(uint16_t opcode, uint32_t st, uint32_t len)
{
    if (st == GMMU_STATUS_INTERNAL || !gmmu_status_name(st))
        broken("bad status", opcode, st);
    if (len != (st == GMMU_STATUS_OK ? rsp_size(opcode) : 0))
        broken("bad response length", opcode, len);
    if (!vidmm_sim_accounting_ok(&sim))
        broken("VRAM accounting", vidmm_sim_used(&sim), sim.vm->alloc_vram_bytes);
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        if (sim.vm->records[i].kind == VIDMM_REC_MAPPING)
            check_mapping(&sim.vm->records[i]);
    if (vidmm_sim_tlb_stale(&sim))
        broken("stale TLB entry", opcode, 0);
    if (opcode == GMMU_OP_FREE && st == GMMU_STATUS_OK)
        check_nothing_dangles();
    check_record_counts(opcode);
}

/* ------------------------------------------------------------ entry */

static uint32_t run(uint16_t opcode, const uint8_t *req, uint32_t len, uint8_t *rsp,
                    uint32_t *rsp_len)
{
    const struct mbox_command *cmd = mbox_command_find(&vidmm_commands, opcode);

    if (cmd)
        return cmd->run(sim.vm, req, len, rsp, GMMU_MSG_MAX_BYTES, rsp_len);
    *rsp_len = 0;
    return GMMU_STATUS_UNSUPPORTED_OPCODE;
}

static void teardown_and_check(void)
{
    static uint8_t rsp[GMMU_MSG_MAX_BYTES];
    uint32_t len;

    while (n_allocs) {
        struct gmmu_handle_req h = { .handle = allocs[0] };

        if (run(GMMU_OP_FREE, (const uint8_t *)&h, sizeof(h), rsp, &len) != GMMU_STATUS_OK)
            broken("free of a live allocation", h.handle, 0);
        forget(allocs, &n_allocs, h.handle);
        check_invariants(GMMU_OP_FREE, GMMU_STATUS_OK, len);
    }
    while (n_as) {
        struct gmmu_handle_req h = { .handle = as_handles[0] };

        if (run(GMMU_OP_DESTROY_AS, (const uint8_t *)&h, sizeof(h), rsp, &len) != GMMU_STATUS_OK)
            broken("destroy of a live address space", h.handle, 0);
        forget(as_handles, &n_as, h.handle);
    }
    if (vidmm_sim_used(&sim) || sim.vm->live_allocs || sim.vm->live_as ||
        sim.vm->free_extents != VIDMM_MAX_EXTENTS)
        broken("leak after destroying everything", vidmm_sim_used(&sim), sim.vm->free_extents);
    if (sim.vm->backing.used || sim.vm->alloc_vram_bytes)
        broken("pool or resident bytes left after destroying everything", sim.vm->backing.used,
               sim.vm->alloc_vram_bytes);
    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        if (sim.vm->records[i].kind != VIDMM_REC_FREE)
            broken("record left after destroying everything", i, sim.vm->records[i].kind);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t req[GMMU_MSG_MAX_BYTES], rsp[GMMU_MSG_MAX_BYTES];
    static bool ready;
    struct input in = { data, size };

    const struct gmmu_backing_req pool = { .sys_addr = HOST + (1ull << 20), .size = 2ull << 20 };
    uint32_t rsp_len;

    if (!ready) {
        vidmm_sim_init(&sim, VRAM_BYTES, HW_ASIDS, NODES_PER_AS);
        vidmm_sim_host(&sim, HOST_BYTES);
    } else {
        vidmm_sim_reset(&sim);
    }
    ready = true;
    n_allocs = n_as = n_ranges = 0;
    /* A backing pool as large as VRAM: over-commit, moves. */
    if (run(GMMU_OP_ADD_BACKING, (const uint8_t *)&pool, sizeof(pool), rsp, &rsp_len) !=
        GMMU_STATUS_OK)
        broken("ADD_BACKING at the start", pool.sys_addr, pool.size);
    for (int steps = 0; in.left && steps < 64; steps++) {
        uint8_t sel = byte(&in), mode = byte(&in);
        uint16_t opcode =
            sel < 0xF0 ? vidmm_commands.commands[sel % vidmm_commands.count].opcode : sel & 0x1F;
        bool raw = (mode & 7) == 0;
        uint32_t len = build(&in, opcode, raw, req), st;

        if (raw && (mode & 8))
            len = (len + (mode >> 4)) % GMMU_MSG_MAX_BYTES; /* wrong lengths */
        note_prior();
        st = run(opcode, req, len, rsp, &rsp_len);
        check_invariants(opcode, st, rsp_len);
        check_residency(opcode, st, req, len);
        check_staging(opcode, st, req, len, rsp);
        if (st == GMMU_STATUS_OK)
            note(opcode, req, rsp);
    }
    teardown_and_check();
    return 0;
}
