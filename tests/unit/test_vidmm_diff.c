// SPDX-License-Identifier: Apache-2.0
/*
 * Randomized differential test of the VidMm commands.
 *
 * Random ALLOC / FREE / CREATE_AS / DESTROY_AS / MAP_VA / UNMAP_VA /
 * RESERVE_VA / UPDATE_VA (batches of MAP, UNMAP, ZERO, COPY, PROTECT, now
 * and then with a bad operation in the middle) / QUERY_VA go through the
 * mailbox handlers, on a small VRAM segment (so tables and allocations run
 * out often) with 3 hardware ids (so ids are recycled all the time). A
 * simple model keeps what every VA should translate to: each mapping's
 * allocation pages, and one entry per 4 KB page of each reserved range.
 *
 * Where each allocation's pages are is learnt independently of vidmm's
 * bookkeeping: right after ALLOC the test maps it in a scratch address
 * space, walks every page with the reference walker and writes a tag
 * (allocation serial, page index) into that page of the simulated VRAM.
 * A translation is right when it lands on the page holding the expected
 * tag (or, for system memory, on sys_addr + offset).
 *
 * After every command: the pages the command touched and a random sample
 * are walked (tests/model/gmmu_ref) and compared with the model; failing
 * commands must leave those pages unchanged; VRAM accounting must equal
 * what allocations and tables hold; the simulated TLB, filled by random
 * accesses under the hardware ids, must hold no stale translation. At the
 * end everything is destroyed and VRAM is back to where it started.
 *
 * VIDMM_DIFF_OPS and VIDMM_DIFF_SEED (environment) override the defaults.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vidmm_cmds.h"
#include "vidmm_sim.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define GiB  (1024ull * MiB)
#define PAGE (4 * KiB)
#define TILE (64 * KiB)

#define DEFAULT_OPS  20000u
#define VRAM_BYTES   (6 * MiB)
#define HW_ASIDS     3u
#define NODES_PER_AS 32u
#define M_AS         6  /* model address spaces (plus the scratch one) */
#define M_RANGES     24 /* ranges per address space */
#define M_ALLOCS     40
#define WINDOW       (1 * GiB) /* fixed VAs land in [WINDOW, WINDOW + 64 MB) */
#define CHECK_PAGES  256       /* pages of a command's range walked */
#define SAMPLE_PAGES 24

/* ------------------------------------------------------------ random */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

static bool chance(unsigned percent)
{
    return below(100) < percent;
}

/* ------------------------------------------------------------ model */

enum { P_INVALID, P_ZERO, P_MAPPED };

struct m_page {
    uint8_t kind;
    uint8_t attrs;
    int16_t alloc; /* model allocation index */
    uint32_t page; /* page of the allocation */
};

struct m_range {
    bool live, reserved;
    uint64_t va, size;
    int alloc; /* mapping: allocation, offset, attributes */
    uint64_t offset;
    uint8_t attrs;
    struct m_page *pages; /* reserved: one per 4 KB page */
};

struct m_as {
    bool live;
    uint32_t handle;
    struct m_range ranges[M_RANGES];
};

struct m_alloc {
    bool live, system;
    uint32_t handle, serial;
    uint64_t size, sys_addr;
};

static struct vidmm_sim sim;
static struct m_as mas[M_AS];
static struct m_alloc mal[M_ALLOCS];
static uint32_t scratch_as, serial_next = 1;
static uint64_t start_used;
static unsigned long stat_nomem, stat_rejected, stat_checked, stat_kind[3], stat_failed_alloc;

/* ------------------------------------------------------------ wire */

static uint32_t call(uint16_t opcode, const void *req, uint32_t len, void *rsp, uint32_t rsp_size)
{
    static uint32_t in[1024], out[1024];
    const struct mbox_command *cmd = mbox_command_find(&vidmm_commands, opcode);
    uint32_t out_len = 0, st;

    assert_non_null(cmd);
    if (len)
        memcpy(in, req, len);
    st = cmd->run(sim.vm, (const uint8_t *)in, len, (uint8_t *)out, sizeof(out), &out_len);
    if (st == GMMU_STATUS_OK) {
        assert_int_equal(out_len, rsp_size);
        if (rsp_size)
            memcpy(rsp, out, rsp_size);
    }
    return st;
}

static uint64_t tag_of(uint32_t serial, uint32_t page)
{
    return 0x7A60000000000000ull | (uint64_t)serial << 24 | page;
}

static uint64_t root_of(uint32_t handle)
{
    uint64_t root;
    uint32_t id;

    assert_true(vidmm_as_info(sim.vm, handle, &root, &id));
    return root;
}

/* ------------------------------------------------------------ checking */

struct expect {
    uint8_t kind, attrs;
    int alloc;
    uint32_t page;
};

static const struct m_range *range_at(const struct m_as *as, uint64_t va)
{
    for (int i = 0; i < M_RANGES; i++) {
        const struct m_range *r = &as->ranges[i];

        if (r->live && va >= r->va && va - r->va < r->size)
            return r;
    }
    return NULL;
}

static struct expect expected(const struct m_as *as, uint64_t va)
{
    const struct m_range *r = range_at(as, va);
    struct expect e = { .kind = P_INVALID };

    if (!r)
        return e;
    if (r->reserved) {
        const struct m_page *p = &r->pages[(va - r->va) / PAGE];

        return (struct expect){ p->kind, p->attrs, p->alloc, p->page };
    }
    return (struct expect){ P_MAPPED, r->attrs, r->alloc,
                            (uint32_t)((r->offset + va - r->va) / PAGE) };
}

static void check_page(int a, uint64_t va)
{
    const struct m_as *as = &mas[a];
    struct expect e = expected(as, va);
    struct gmmu_ref_result r;
    uint64_t want_pa;

    vidmm_sim_walk(&sim, root_of(as->handle), va, GMMU_ACCESS_READ, &r);
    stat_checked++;
    stat_kind[e.kind]++;
    if (e.kind == P_INVALID) {
        if (r.fault != GMMU_FAULT_INVALID)
            fail_msg("as %d va 0x%llx: expected invalid, got fault %s pa 0x%llx", a,
                     (unsigned long long)va, gmmu_ref_fault_name(r.fault),
                     (unsigned long long)r.pa);
        return;
    }
    if (r.fault != GMMU_FAULT_NONE || r.zero != (e.kind == P_ZERO) ||
        r.read_only != !!(e.attrs & GMMU_MAP_FLAG_READ_ONLY) ||
        r.no_execute != !!(e.attrs & GMMU_MAP_FLAG_NO_EXECUTE) ||
        r.cache_coherent != !!(e.attrs & GMMU_MAP_FLAG_CACHE_COHERENT))
        fail_msg("as %d va 0x%llx: expected kind %u attrs %u, got fault %s zero %d "
                 "ro %d nx %d cc %d",
                 a, (unsigned long long)va, e.kind, e.attrs, gmmu_ref_fault_name(r.fault), r.zero,
                 r.read_only, r.no_execute, r.cache_coherent);
    if (e.kind == P_ZERO)
        return;
    const struct m_alloc *m = &mal[e.alloc];

    if (m->system) {
        want_pa = m->sys_addr + (uint64_t)e.page * PAGE + va % PAGE;
        if (r.segment != GMMU_SEGMENT_SYSTEM || r.pa != want_pa)
            fail_msg("as %d va 0x%llx: system pa 0x%llx seg %u, expected 0x%llx", a,
                     (unsigned long long)va, (unsigned long long)r.pa, r.segment,
                     (unsigned long long)want_pa);
        return;
    }
    if (r.segment != GMMU_SEGMENT_VRAM || r.pa % PAGE != va % PAGE ||
        vidmm_sim_peek(&sim, r.pa - r.pa % PAGE) != tag_of(m->serial, e.page))
        fail_msg("as %d va 0x%llx: pa 0x%llx seg %u holds tag 0x%llx, expected 0x%llx", a,
                 (unsigned long long)va, (unsigned long long)r.pa, r.segment,
                 (unsigned long long)(r.segment == GMMU_SEGMENT_VRAM && r.pa < sim.bytes
                                          ? vidmm_sim_peek(&sim, r.pa - r.pa % PAGE)
                                          : 0),
                 (unsigned long long)tag_of(m->serial, e.page));
}

static void check_range(int a, uint64_t va, uint64_t size)
{
    uint64_t pages = size / PAGE, step = pages > CHECK_PAGES ? pages / CHECK_PAGES : 1;

    if (!mas[a].live || !size)
        return;
    for (uint64_t i = 0; i < pages; i += step)
        check_page(a, va + i * PAGE);
    check_page(a, va + size - PAGE);
}

/* Random pages of random ranges, and accesses that fill the TLB. */
static void check_sample(void)
{
    for (int n = 0; n < SAMPLE_PAGES; n++) {
        int a = (int)below(M_AS);
        const struct m_range *r = &mas[a].ranges[below(M_RANGES)];
        uint64_t root, va;
        uint32_t id;
        struct gmmu_ref_result res;

        if (!mas[a].live || !r->live)
            continue;
        va = r->va + below(r->size / PAGE) * PAGE;
        check_page(a, va);
        assert_true(vidmm_as_info(sim.vm, mas[a].handle, &root, &id));
        if (id != VIDMM_NO_ASID)
            vidmm_sim_access(&sim, id, va, &res);
    }
    assert_true(vidmm_sim_accounting_ok(&sim));
    assert_int_equal(vidmm_sim_tlb_stale(&sim), 0);
}

/* ------------------------------------------------------------ model helpers */

static int free_alloc_index(void)
{
    for (int i = 0; i < M_ALLOCS; i++)
        if (!mal[i].live)
            return i;
    return -1;
}

static int free_as_index(void)
{
    for (int a = 0; a < M_AS; a++)
        if (!mas[a].live)
            return a;
    return -1;
}

static int pick_live_alloc(void)
{
    int start = (int)below(M_ALLOCS);

    for (int i = 0; i < M_ALLOCS; i++)
        if (mal[(start + i) % M_ALLOCS].live)
            return (start + i) % M_ALLOCS;
    return -1;
}

static int pick_live_as(void)
{
    int start = (int)below(M_AS);

    for (int i = 0; i < M_AS; i++)
        if (mas[(start + i) % M_AS].live)
            return (start + i) % M_AS;
    return -1;
}

static struct m_range *pick_range(int a, bool reserved)
{
    int start = (int)below(M_RANGES);

    for (int i = 0; i < M_RANGES; i++) {
        struct m_range *r = &mas[a].ranges[(start + i) % M_RANGES];

        if (r->live && r->reserved == reserved)
            return r;
    }
    return NULL;
}

static struct m_range *free_range(int a)
{
    for (int i = 0; i < M_RANGES; i++)
        if (!mas[a].ranges[i].live)
            return &mas[a].ranges[i];
    return NULL;
}

static bool overlaps(int a, uint64_t va, uint64_t size)
{
    for (int i = 0; i < M_RANGES; i++) {
        const struct m_range *r = &mas[a].ranges[i];

        if (r->live && va < r->va + r->size && r->va < va + size)
            return true;
    }
    return false;
}

static void range_drop(struct m_range *r)
{
    free(r->pages);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------ operations */

/* Learn where the allocation's pages are and tag them; false if the
   scratch mapping did not fit (the allocation is then freed again). */
static bool tag_alloc(struct m_alloc *m)
{
    struct gmmu_map_req req = { .as_handle = scratch_as,
                                .alloc_handle = m->handle,
                                .size = m->size };
    struct gmmu_range_req un = { .as_handle = scratch_as, .size = m->size };
    struct gmmu_va_rsp rsp;
    uint64_t root = root_of(scratch_as);

    if (call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp)) != GMMU_STATUS_OK)
        return false;
    for (uint64_t off = 0; off < m->size; off += PAGE) {
        struct gmmu_ref_result r;

        vidmm_sim_walk(&sim, root, rsp.va + off, GMMU_ACCESS_READ, &r);
        assert_int_equal(r.fault, GMMU_FAULT_NONE);
        assert_int_equal(r.segment, GMMU_SEGMENT_VRAM);
        vidmm_sim_poke(&sim, r.pa, tag_of(m->serial, (uint32_t)(off / PAGE)));
    }
    un.va = rsp.va;
    assert_int_equal(call(GMMU_OP_UNMAP_VA, &un, sizeof(un), NULL, 0), GMMU_STATUS_OK);
    return true;
}

static void do_alloc(void)
{
    int i = free_alloc_index();
    struct gmmu_alloc_req req = { .size = (1 + below(chance(20) ? 600 : 40)) * PAGE };
    struct gmmu_alloc_rsp rsp;
    uint32_t st;

    if (i < 0)
        return;
    switch (below(5)) {
    case 0:
        req.flags = GMMU_ALLOC_FLAG_SYSTEM;
        req.sys_addr = (0x100000 + below(1u << 20)) * PAGE;
        break;
    case 1:
        req.flags = GMMU_ALLOC_FLAG_PREFER_64K;
        break;
    case 2:
        req.flags = GMMU_ALLOC_FLAG_CONTIGUOUS;
        if (chance(50)) {
            req.size = (1 + below(64)) * PAGE;
            req.lowest = below(VRAM_BYTES / 2 / PAGE) * PAGE;
            req.highest = chance(50) ? 0 : req.lowest + 4 * MiB - 1;
            req.boundary = chance(50) ? 0 : 2 * MiB;
        }
        break;
    default:
        break;
    }
    st = call(GMMU_OP_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp));
    if (st != GMMU_STATUS_OK) {
        assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
        stat_failed_alloc++;
        return;
    }
    mal[i] = (struct m_alloc){ .live = true,
                               .system = req.flags & GMMU_ALLOC_FLAG_SYSTEM,
                               .handle = rsp.handle,
                               .serial = serial_next++,
                               .size = rsp.size,
                               .sys_addr = req.sys_addr };
    if (!mal[i].system && !tag_alloc(&mal[i])) {
        struct gmmu_handle_req fr = { .handle = rsp.handle };

        assert_int_equal(call(GMMU_OP_FREE, &fr, sizeof(fr), NULL, 0), GMMU_STATUS_OK);
        mal[i].live = false;
    }
}

/* FREE: mappings of it vanish, tiles that pointed into it become invalid. */
static void do_free(void)
{
    int i = pick_live_alloc();
    struct gmmu_handle_req req;

    if (i < 0)
        return;
    req = (struct gmmu_handle_req){ .handle = mal[i].handle };
    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    mal[i].live = false;
    for (int a = 0; a < M_AS; a++) {
        for (int k = 0; mas[a].live && k < M_RANGES; k++) {
            struct m_range *r = &mas[a].ranges[k];

            if (!r->live)
                continue;
            if (!r->reserved && r->alloc == i) {
                uint64_t va = r->va, size = r->size;

                range_drop(r);
                check_range(a, va, size);
                continue;
            }
            for (uint64_t p = 0; r->reserved && p < r->size / PAGE; p++)
                if (r->pages[p].kind == P_MAPPED && r->pages[p].alloc == i)
                    r->pages[p] = (struct m_page){ .kind = P_INVALID };
            if (r->reserved)
                check_range(a, r->va, r->size);
        }
    }
    /* Its handle is stale now. */
    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_BAD_HANDLE);
}

static void do_create_as(void)
{
    int a = free_as_index();
    struct gmmu_as_rsp rsp;
    uint32_t st;

    if (a < 0)
        return;
    st = call(GMMU_OP_CREATE_AS, NULL, 0, &rsp, sizeof(rsp));
    if (st != GMMU_STATUS_OK) {
        assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
        return;
    }
    assert_true(rsp.asid < HW_ASIDS);
    memset(&mas[a], 0, sizeof(mas[a]));
    mas[a].live = true;
    mas[a].handle = rsp.handle;
}

static void do_destroy_as(void)
{
    int a = pick_live_as();
    struct gmmu_handle_req req;

    if (a < 0)
        return;
    req = (struct gmmu_handle_req){ .handle = mas[a].handle };
    assert_int_equal(call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    for (int k = 0; k < M_RANGES; k++)
        range_drop(&mas[a].ranges[k]);
    mas[a].live = false;
}

static uint64_t fixed_va(uint64_t align)
{
    return WINDOW + below(64 * MiB / align) * align;
}

static void do_map(void)
{
    int a = pick_live_as(), i = pick_live_alloc();
    struct m_range *slot = a < 0 ? NULL : free_range(a);
    struct gmmu_map_req req;
    struct gmmu_va_rsp rsp;
    uint64_t pages;
    uint32_t st;

    if (!slot || i < 0)
        return;
    pages = mal[i].size / PAGE;
    req = (struct gmmu_map_req){
        .as_handle = mas[a].handle,
        .alloc_handle = mal[i].handle,
        .offset = below(pages) * PAGE,
        .flags = (uint32_t)below(8),
        .page_sizes = chance(70) ? 0 : (uint32_t)(1 | below(16)),
    };
    req.size = (1 + below(pages - req.offset / PAGE)) * PAGE;
    if (chance(40)) {
        req.flags |= GMMU_MAP_FLAG_FIXED_VA;
        req.va = fixed_va(chance(50) ? TILE : PAGE);
    }
    st = call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp));
    if ((req.flags & GMMU_MAP_FLAG_FIXED_VA) && overlaps(a, req.va, req.size)) {
        assert_int_equal(st, GMMU_STATUS_OVERLAP);
        return;
    }
    if (st != GMMU_STATUS_OK) {
        assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
        stat_nomem++;
        if (req.flags & GMMU_MAP_FLAG_FIXED_VA)
            check_range(a, req.va, req.size);
        return;
    }
    assert_false(overlaps(a, rsp.va, req.size));
    *slot = (struct m_range){ .live = true,
                              .va = rsp.va,
                              .size = req.size,
                              .alloc = i,
                              .offset = req.offset,
                              .attrs = req.flags & 7 };
    check_range(a, rsp.va, req.size);
}

static void do_unmap(void)
{
    int a = pick_live_as();
    struct m_range *r = a < 0 ? NULL : pick_range(a, chance(30));
    struct gmmu_range_req req;
    uint64_t va, size;

    if (!r)
        return;
    va = r->va;
    size = r->size;
    req = (struct gmmu_range_req){ .as_handle = mas[a].handle, .va = va, .size = size };
    if (chance(10)) { /* not the whole range: refused */
        req.size = size + PAGE;
        assert_int_equal(call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0),
                         GMMU_STATUS_INVALID_ARGUMENT);
        check_range(a, va, size);
        return;
    }
    assert_int_equal(call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    range_drop(r);
    check_range(a, va, size);
}

static void do_reserve(void)
{
    int a = pick_live_as();
    struct m_range *slot = a < 0 ? NULL : free_range(a);
    struct gmmu_reserve_req req;
    struct gmmu_va_rsp rsp;
    uint32_t st;

    if (!slot)
        return;
    req = (struct gmmu_reserve_req){ .as_handle = mas[a].handle,
                                     .size = (1 + below(chance(20) ? 64 : 8)) * TILE };
    if (chance(40)) {
        req.flags = GMMU_MAP_FLAG_FIXED_VA;
        req.va = fixed_va(TILE);
    }
    st = call(GMMU_OP_RESERVE_VA, &req, sizeof(req), &rsp, sizeof(rsp));
    if (req.flags && overlaps(a, req.va, req.size)) {
        assert_int_equal(st, GMMU_STATUS_OVERLAP);
        return;
    }
    assert_int_equal(st, GMMU_STATUS_OK);
    *slot = (struct m_range){ .live = true, .reserved = true, .va = rsp.va, .size = req.size };
    slot->pages = calloc(req.size / PAGE, sizeof(struct m_page));
    assert_non_null(slot->pages);
    check_range(a, rsp.va, req.size);
}

/* ------------------------------------------------------------ UPDATE_VA */

/* A random tile-aligned piece of a random reserved range of address space a. */
static struct m_range *random_piece(int a, uint64_t *va, uint64_t *size)
{
    struct m_range *r = pick_range(a, true);
    uint64_t tiles, first;

    if (!r)
        return NULL;
    tiles = r->size / TILE;
    first = below(tiles);
    *size = (1 + below(tiles - first < 8 ? tiles - first : 8)) * TILE;
    *va = r->va + first * TILE;
    return r;
}

static struct m_page *page_of(int a, uint64_t va)
{
    struct m_range *r = (struct m_range *)range_at(&mas[a], va);

    return &r->pages[(va - r->va) / PAGE];
}

/* Builds a valid operation and what it does to the model (applied by
   model_apply once the batch succeeds). False if none could be built. */
static bool random_op(int a, struct gmmu_update_op *op)
{
    uint64_t va, size, src, src_size;
    int i;

    if (!random_piece(a, &va, &size))
        return false;
    memset(op, 0, sizeof(*op));
    op->va = va;
    op->size = size;
    switch (below(5)) {
    case 0:
    case 1:
        i = pick_live_alloc();
        if (i < 0 || mal[i].size < size)
            return false;
        op->op = GMMU_UPDATE_OP_MAP;
        op->alloc_handle = mal[i].handle;
        op->arg = below((mal[i].size - size) / TILE + 1) * TILE;
        op->flags = (uint32_t)below(8);
        return true;
    case 2:
        op->op = GMMU_UPDATE_OP_UNMAP;
        op->flags = chance(50) ? GMMU_MAP_FLAG_ZERO : 0;
        return true;
    case 3:
        if (!random_piece(a, &src, &src_size))
            return false;
        op->op = GMMU_UPDATE_OP_COPY;
        op->size = size < src_size ? size : src_size;
        op->arg = src;
        return src + op->size <= va || va + op->size <= src || src == va;
    default:
        op->op = GMMU_UPDATE_OP_PROTECT;
        op->flags = (uint32_t)below(8);
        return true;
    }
}

static int alloc_index(uint32_t handle)
{
    for (int i = 0; i < M_ALLOCS; i++)
        if (mal[i].live && mal[i].handle == handle)
            return i;
    return -1;
}

static void model_apply(int a, const struct gmmu_update_op *op)
{
    uint64_t pages = op->size / PAGE;
    struct m_page *copy;

    switch (op->op) {
    case GMMU_UPDATE_OP_MAP:
        for (uint64_t p = 0; p < pages; p++)
            *page_of(a, op->va + p * PAGE) =
                (struct m_page){ .kind = P_MAPPED,
                                 .attrs = (uint8_t)op->flags,
                                 .alloc = (int16_t)alloc_index(op->alloc_handle),
                                 .page = (uint32_t)(op->arg / PAGE + p) };
        break;
    case GMMU_UPDATE_OP_UNMAP:
        for (uint64_t p = 0; p < pages; p++)
            *page_of(a, op->va + p * PAGE) =
                (struct m_page){ .kind = op->flags ? P_ZERO : P_INVALID };
        break;
    case GMMU_UPDATE_OP_COPY:
        copy = calloc(pages, sizeof(*copy));
        assert_non_null(copy);
        for (uint64_t p = 0; p < pages; p++)
            copy[p] = *page_of(a, op->arg + p * PAGE);
        for (uint64_t p = 0; p < pages; p++)
            *page_of(a, op->va + p * PAGE) = copy[p];
        free(copy);
        break;
    default:
        for (uint64_t p = 0; p < pages; p++) {
            struct m_page *pg = page_of(a, op->va + p * PAGE);

            if (pg->kind != P_INVALID)
                pg->attrs = (uint8_t)op->flags;
        }
    }
}

/* A bad operation and the status it must earn. */
static uint32_t spoil(struct gmmu_update_op *op)
{
    switch (below(5)) {
    case 0:
        op->va += PAGE;
        return GMMU_STATUS_UNALIGNED;
    case 1:
        op->reserved = 1;
        return GMMU_STATUS_INVALID_ARGUMENT;
    case 2:
        op->op = 9;
        return GMMU_STATUS_INVALID_ARGUMENT;
    case 3:
        op->va = WINDOW - 64 * MiB; /* nothing reserved there */
        return GMMU_STATUS_OUT_OF_RANGE;
    default:
        *op = (struct gmmu_update_op){
            .op = GMMU_UPDATE_OP_MAP, .va = op->va, .size = TILE, .alloc_handle = 0x7FFF0001u
        };
        return GMMU_STATUS_BAD_HANDLE;
    }
}

static void do_update(void)
{
    static uint8_t buf[GMMU_MSG_MAX_BYTES];
    struct gmmu_update_op ops[8];
    int a = pick_live_as();
    uint32_t n = 0, want = GMMU_STATUS_OK, st, bad = 0;
    struct gmmu_update_req req;

    if (a < 0)
        return;
    for (uint32_t k = 1 + (uint32_t)below(8); n < k;) {
        if (!random_op(a, &ops[n]))
            break;
        n++;
    }
    if (!n)
        return;
    if (chance(15)) {
        bad = (uint32_t)below(n);
        want = spoil(&ops[bad]);
    }
    req = (struct gmmu_update_req){ .as_handle = mas[a].handle, .count = n };
    memcpy(buf, &req, sizeof(req));
    memcpy(buf + sizeof(req), ops, n * sizeof(ops[0]));
    st = call(GMMU_OP_UPDATE_VA, buf, (uint32_t)(sizeof(req) + n * sizeof(ops[0])), NULL, 0);
    if (want != GMMU_STATUS_OK) {
        assert_int_equal(st, want);
        stat_rejected++;
    } else if (st == GMMU_STATUS_NO_MEMORY) {
        stat_nomem++;
    } else {
        assert_int_equal(st, GMMU_STATUS_OK);
        for (uint32_t k = 0; k < n; k++)
            model_apply(a, &ops[k]);
    }
    for (uint32_t k = 0; k < n; k++)
        if (k != bad || want == GMMU_STATUS_OK)
            check_range(a, ops[k].va, ops[k].size);
}

static void do_query(void)
{
    int a = pick_live_as();
    struct m_range *r = a < 0 ? NULL : pick_range(a, chance(50));
    struct gmmu_query_req req;
    struct gmmu_query_rsp rsp;
    struct expect e;

    if (!r)
        return;
    req = (struct gmmu_query_req){ .as_handle = mas[a].handle,
                                   .va = r->va + below(r->size / PAGE) * PAGE + below(PAGE) };
    assert_int_equal(call(GMMU_OP_QUERY_VA, &req, sizeof(req), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
    e = expected(&mas[a], req.va);
    assert_int_equal(rsp.state, e.kind);
    if (e.kind != P_INVALID)
        assert_int_equal(rsp.flags, e.attrs);
    if (e.kind == P_MAPPED && !mal[e.alloc].system)
        assert_int_equal(vidmm_sim_peek(&sim, rsp.pa - rsp.pa % PAGE),
                         tag_of(mal[e.alloc].serial, e.page));
}

/* ------------------------------------------------------------ the run */

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *s = getenv(name);

    return s && *s ? strtoull(s, NULL, 0) : fallback;
}

static void destroy_everything(void)
{
    for (int i = 0; i < M_ALLOCS; i++) {
        struct gmmu_handle_req req = { .handle = mal[i].handle };

        if (mal[i].live)
            assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
        mal[i].live = false;
    }
    for (int a = 0; a < M_AS; a++) {
        if (mas[a].live) {
            struct gmmu_handle_req req = { .handle = mas[a].handle };

            assert_int_equal(call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
        }
        for (int k = 0; k < M_RANGES; k++)
            range_drop(&mas[a].ranges[k]);
        mas[a].live = false;
    }
}

static void test_random_commands(void **state)
{
    uint64_t ops = env_u64("VIDMM_DIFF_OPS", DEFAULT_OPS);
    struct gmmu_as_rsp as;
    struct gmmu_handle_req req;

    (void)state;
    rng = env_u64("VIDMM_DIFF_SEED", rng);
    vidmm_sim_init(&sim, VRAM_BYTES, HW_ASIDS, NODES_PER_AS);
    start_used = vidmm_sim_used(&sim);
    assert_int_equal(call(GMMU_OP_CREATE_AS, NULL, 0, &as, sizeof(as)), GMMU_STATUS_OK);
    scratch_as = as.handle;
    for (uint64_t n = 0; n < ops; n++) {
        switch (below(20)) {
        case 0:
        case 1:
        case 2:
            do_alloc();
            break;
        case 3:
        case 4:
            do_free();
            break;
        case 5:
            do_create_as();
            break;
        case 6:
            if (chance(30))
                do_destroy_as();
            break;
        case 7:
        case 8:
        case 9:
            do_map();
            break;
        case 10:
        case 11:
            do_unmap();
            break;
        case 12:
        case 13:
            do_reserve();
            break;
        case 14:
        case 15:
        case 16:
        case 17:
            do_update();
            break;
        default:
            do_query();
            break;
        }
        check_sample();
    }
    destroy_everything();
    req = (struct gmmu_handle_req){ .handle = scratch_as };
    assert_int_equal(call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    assert_int_equal(vidmm_sim_used(&sim), start_used);
    assert_int_equal(vidmm_sim_used(&sim), 0);
    printf("vidmm_diff: %llu commands; %lu pages checked (%lu mapped, %lu zero, %lu invalid); "
           "%lu allocations and %lu maps or batches out of VRAM; %lu bad batches rejected; "
           "%u id evictions; %u headroom reservations\n",
           (unsigned long long)ops, stat_checked, stat_kind[P_MAPPED], stat_kind[P_ZERO],
           stat_kind[P_INVALID], stat_failed_alloc, stat_nomem, stat_rejected,
           sim.vm->counters.asid_evictions, sim.vm->counters.batch_reservations);
    vidmm_sim_fini(&sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_commands),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
