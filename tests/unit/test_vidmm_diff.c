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
 * accesses under the hardware ids, must hold no stale translation; vidmm's
 * records must be exactly the model's (one per mapping, one per reserved
 * range and allocation with the hull its MAPs and COPYs wrote). At the end
 * everything is destroyed and VRAM is back to where it started.
 *
 * Records run out in phases: a hog takes all but a few of them with 4 KB
 * mappings in address spaces outside the model. Batches copy tiles that
 * earlier operations of the same batch wrote, and an allocation is often
 * freed right after a batch that mapped it. A batch must fail with
 * NO_MEMORY exactly when the model needs more new records than are free
 * (or VRAM is short), and after every FREE no tile or mapping anywhere
 * may translate into the freed allocation's pages.
 *
 * Residency (issue 28): the platform has host memory and a copy hook, and
 * two backing ranges are added at the start, so VRAM is over-committed
 * about twice. ALLOC places VRAM-only, VRAM-preferred and system-only
 * allocations; MAKE_RESIDENT and EVICT run over random lists (repeats, bad
 * handles, EVICT below zero) against a model of the residency counts, the
 * LRU stamps and where each allocation lives. After every command QUERY_ALLOC
 * must agree with the model (state, count, and the tag at its first page);
 * only ALLOC (VRAM only) may move others out and only MAKE_RESIDENT may move
 * its listed allocations in, each victim must have been evictable, and no
 * evictable allocation used less recently than a victim may stay in VRAM
 * unless its move could have been refused (pool room or pieces, or tables
 * for its mappings). Pages are checked in the segment the model says;
 * mappings of an OFFLINE allocation must be invalid. The copy hook poisons
 * the pages a move leaves, so a PTE not rewritten reads poison. From the
 * pieces vidmm keeps, every live allocation's pages must be distinct
 * (nothing doubled), inside VRAM or the pool, hold its tags (bytes survive
 * every move), and add up, with the tables, to what VRAM and the pool have
 * in use (nothing lost); GET_VRAM's resident, evictable and backing bytes
 * and paging fence must be the model's.
 *
 * VIDMM_DIFF_OPS and VIDMM_DIFF_SEED (environment) override the defaults
 * (`make soak-vidmm_diff` runs a million commands).
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

#include "aperture_alloc.h"
#include "vidmm_cmds.h"
#include "vidmm_sim.h"
#include "vidmm_call.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define GiB  (1024ull * MiB)
#define PAGE (4 * KiB)
#define TILE (64 * KiB)

#define DEFAULT_OPS  100000u
#define VRAM_BYTES   (6 * MiB)
#define HW_ASIDS     3u
#define NODES_PER_AS 32u
#define M_AS         6  /* model address spaces (plus the scratch one) */
#define M_RANGES     24 /* ranges per address space */
#define M_ALLOCS     40
#define WINDOW       (1 * GiB) /* fixed VAs land in [WINDOW, WINDOW + 64 MB) */
#define CHECK_PAGES  64        /* pages of a command's range walked */
#define SAMPLE_PAGES 8
#define HOST         VIDMM_SIM_HOST_BASE
#define HOST_BYTES   (8 * MiB)
#define POOL_BYTES   (7 * MiB)
/* The aperture: 1 MiB of offsets, so that a large evicted contiguous
   allocation sometimes finds no room (and is passed over). */
#define APT_PAGES    256u

#define PREF       GMMU_ALLOC_FLAG_VRAM_PREFERRED
#define SYSO       GMMU_ALLOC_FLAG_SYSTEM_ONLY
#define ST_VRAM    GMMU_ALLOC_STATE_VRAM
#define ST_BACKING GMMU_ALLOC_STATE_BACKING
#define ST_OFFLINE GMMU_ALLOC_STATE_OFFLINE
#define ST_HOST    GMMU_ALLOC_STATE_HOST

/* The backing pool: two ranges of host memory, added in this order (pool
   offsets run through the first, then the second), a hole between them. */
static const struct {
    uint64_t addr, size;
} pool[2] = { { HOST + 4 * MiB, 4 * MiB }, { HOST, 3 * MiB } };

/* ------------------------------------------------------------ random */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
#include "test_rng.h"

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
    bool listed; /* ALLOC_PAGES: its pages are mpages[its index] */
    uint32_t handle, serial;
    uint64_t size, sys_addr;
    uint32_t flags;   /* ALLOC_FLAG_* */
    bool constrained; /* CONTIGUOUS with lowest, highest or boundary */
    uint32_t where;   /* ALLOC_STATE_* */
    uint32_t count;   /* residency count */
    uint64_t stamp;   /* LRU: ALLOC, MAKE_RESIDENT, EVICT */
};

static struct vidmm_sim sim;
static struct m_as mas[M_AS];
static struct m_alloc mal[M_ALLOCS];
/* The host pages of ALLOC_PAGES allocations, in list order. */
#define LIST_PAGES 600
static uint64_t mpages[M_ALLOCS][LIST_PAGES];
static unsigned long stat_lists_ok, stat_lists_refused;
static uint32_t scratch_as, serial_next = 1;
static uint64_t start_used;
static unsigned long stat_nomem, stat_rejected, stat_checked, stat_kind[3], stat_failed_alloc;
static unsigned long stat_no_records, stat_frees_after_batch;
static unsigned long stat_moves_out, stat_moves_in, stat_resident_ok, stat_resident_nomem,
    stat_evict_ok, stat_list_refused, stat_lru_checked, stat_lru_excused, stat_offline_maps,
    stat_pool_allocs, stat_page_checks, stat_alloc_moved_refused, stat_undo_refused,
    stat_contig_out, stat_contig_in;
static uint64_t model_clock, model_fence;
static uint32_t last_freed = 0x7FFF0001u; /* a handle that went stale */

/* ------------------------------------------------------------ record model */

/* A tile reference: tiles of reserved range `range` of model address
   space `as` may point into allocation `alloc`; [lo, hi) is their hull. */
#define M_REFS 256

struct m_ref {
    bool live;
    int as, range, alloc;
    uint64_t lo, hi;
};

static struct m_ref mref[M_REFS], trial[M_REFS];

/* The record hog: 4 KB mappings of one host page in address spaces of its
   own, outside the model. */
#define HOG_AS 8

static struct {
    bool squeeze;
    uint32_t sys, as[HOG_AS], n_as, maps[HOG_AS], total;
    uint64_t va[HOG_AS][NODES_PER_AS];
} hog;

/* Tiles [lo, hi) of (as, range) now may map alloc: 1 if that is a new
   reference, 0 if an existing one grew. */
static int ref_note(struct m_ref *refs, int a, int k, int i, uint64_t lo, uint64_t hi)
{
    int spare = -1;

    for (int j = 0; j < M_REFS; j++) {
        struct m_ref *r = &refs[j];

        if (!r->live) {
            spare = spare < 0 ? j : spare;
            continue;
        }
        if (r->as == a && r->range == k && r->alloc == i) {
            r->lo = r->lo < lo ? r->lo : lo;
            r->hi = r->hi > hi ? r->hi : hi;
            return 0;
        }
    }
    assert_true(spare >= 0);
    refs[spare] =
        (struct m_ref){ .live = true, .as = a, .range = k, .alloc = i, .lo = lo, .hi = hi };
    return 1;
}

/* Forgets the references matching (as, range, alloc); -1 matches any. */
static void refs_drop(int a, int k, int i)
{
    for (int j = 0; j < M_REFS; j++) {
        struct m_ref *r = &mref[j];

        if (r->live && (a < 0 || r->as == a) && (k < 0 || r->range == k) &&
            (i < 0 || r->alloc == i))
            r->live = false;
    }
}

static int live_refs(void)
{
    int n = 0;

    for (int j = 0; j < M_REFS; j++)
        n += mref[j].live;
    return n;
}

static uint32_t records_used(void)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
        n += sim.vm->records[i].kind != VIDMM_REC_FREE;
    return n;
}

static uint32_t records_free(void)
{
    return VIDMM_MAX_RECORDS - records_used();
}

static uint32_t slot_of(uint32_t handle)
{
    return (handle & 0xFFFFu) - 1;
}

/* vidmm's records are the model's: as many, and each reference with its
   hull. */
static void check_records(void)
{
    uint32_t want = hog.total + (uint32_t)live_refs();

    for (int a = 0; a < M_AS; a++)
        for (int k = 0; mas[a].live && k < M_RANGES; k++)
            want += mas[a].ranges[k].live && !mas[a].ranges[k].reserved;
    assert_int_equal(records_used(), want);
    /* The per-space counts DESTROY_AS relies on to skip the scan, and the
       per-allocation counts that end FREE's and the residency checks'. */
    {
        uint32_t n[VIDMM_MAX_AS] = { 0 }, per_alloc[VIDMM_MAX_ALLOCS] = { 0 };

        for (uint32_t i = 0; i < VIDMM_MAX_RECORDS; i++)
            if (sim.vm->records[i].kind != VIDMM_REC_FREE) {
                n[sim.vm->records[i].as]++;
                per_alloc[sim.vm->records[i].alloc]++;
            }
        for (uint32_t as = 0; as < VIDMM_MAX_AS; as++)
            assert_int_equal(sim.vm->as_records[as], n[as]);
        for (uint32_t a = 0; a < VIDMM_MAX_ALLOCS; a++)
            assert_int_equal(sim.vm->alloc_records[a], per_alloc[a]);
    }
    for (int j = 0; j < M_REFS; j++) {
        const struct m_ref *m = &mref[j];
        bool found = false;

        for (uint32_t i = 0; m->live && !found && i < VIDMM_MAX_RECORDS; i++) {
            const struct vidmm_record *r = &sim.vm->records[i];

            found = r->kind == VIDMM_REC_TILES && r->as == slot_of(mas[m->as].handle) &&
                    r->alloc == slot_of(mal[m->alloc].handle) && r->va == m->lo &&
                    r->size == m->hi - m->lo;
        }
        if (m->live && !found)
            fail_msg("as %d range %d alloc %d: no record with hull [0x%llx, 0x%llx)", m->as,
                     m->range, m->alloc, (unsigned long long)m->lo, (unsigned long long)m->hi);
    }
}

/* ------------------------------------------------------------ wire */

static uint32_t call(uint16_t opcode, const void *req, uint32_t len, void *rsp, uint32_t rsp_size)
{
    const uint8_t *out;
    uint32_t st = vidmm_call_raw(&sim, opcode, req, len, rsp, rsp_size, &out);

    /* Each successful MAP_VA, UNMAP_VA and UPDATE_VA signals the next
       paging fence value and answers it (after the VA for MAP_VA). */
    if (st == GMMU_STATUS_OK &&
        (opcode == GMMU_OP_MAP_VA || opcode == GMMU_OP_UNMAP_VA || opcode == GMMU_OP_UPDATE_VA)) {
        uint64_t fence;

        memcpy(&fence, out + (opcode == GMMU_OP_MAP_VA ? 8 : 0), 8);
        assert_int_equal(fence, ++model_fence);
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

/* The tag word of the page at (segment, pa), 0 outside VRAM and the host
   memory the pool is in. */
static uint64_t peek_tag(unsigned segment, uint64_t pa)
{
    pa -= pa % PAGE;
    if (segment == GMMU_SEGMENT_VRAM)
        return pa < sim.bytes ? vidmm_sim_peek_seg(&sim, segment, pa) : 0;
    if (segment == GMMU_SEGMENT_SYSTEM && pa >= HOST && pa - HOST < HOST_BYTES)
        return vidmm_sim_peek_seg(&sim, segment, pa);
    return 0;
}

/* The segment a movable allocation's pages are in, by the model. */
static unsigned seg_of(const struct m_alloc *m)
{
    return m->where == ST_VRAM ? GMMU_SEGMENT_VRAM : GMMU_SEGMENT_SYSTEM;
}

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
    /* A VRAM-only allocation that is not resident: its mappings are invalid. */
    if (mal[r->alloc].where == ST_OFFLINE)
        return e;
    return (struct expect){ P_MAPPED, r->attrs, r->alloc,
                            (uint32_t)((r->offset + va - r->va) / PAGE) };
}

/* The host address of page `page` of a system allocation: one buffer at
   sys_addr, or its list's page. */
static uint64_t sys_pa(const struct m_alloc *m, uint64_t page)
{
    return m->listed ? mpages[m - mal][page] : m->sys_addr + page * PAGE;
}

/* Whether the system allocation holds the host page at pa. */
static bool sys_holds(const struct m_alloc *m, uint64_t pa)
{
    if (!m->listed)
        return pa - m->sys_addr < m->size;
    for (uint64_t k = 0; k < m->size / PAGE; k++)
        if (mpages[m - mal][k] == (pa & ~(PAGE - 1)))
            return true;
    return false;
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
        want_pa = sys_pa(m, e.page) + va % PAGE;
        if (r.segment != GMMU_SEGMENT_SYSTEM || r.pa != want_pa)
            fail_msg("as %d va 0x%llx: system pa 0x%llx seg %u, expected 0x%llx", a,
                     (unsigned long long)va, (unsigned long long)r.pa, r.segment,
                     (unsigned long long)want_pa);
        return;
    }
    if (m->where == ST_OFFLINE)
        fail_msg("as %d va 0x%llx: a tile of OFFLINE allocation %u", a, (unsigned long long)va,
                 m->serial);
    if (r.segment != seg_of(m) || r.pa % PAGE != va % PAGE ||
        peek_tag(r.segment, r.pa) != tag_of(m->serial, e.page))
        fail_msg("as %d va 0x%llx: pa 0x%llx seg %u (expected %u) holds tag 0x%llx, expected "
                 "0x%llx",
                 a, (unsigned long long)va, (unsigned long long)r.pa, r.segment, seg_of(m),
                 (unsigned long long)peek_tag(r.segment, r.pa),
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
    check_records();
}

/* After FREE of m: no page of any model range translates into its pages
   (one page per tile of a reserved range, UPDATE_VA's unit; the ends of a
   mapping), found by PA, not by the model. A host page that another live
   system allocation also holds may stay mapped. */
static bool sys_held(uint64_t pa)
{
    for (int i = 0; i < M_ALLOCS; i++)
        if (mal[i].live && mal[i].system && sys_holds(&mal[i], pa))
            return true;
    return false;
}

static void check_no_stale(const struct m_alloc *m)
{
    for (int a = 0; a < M_AS; a++) {
        for (int k = 0; mas[a].live && k < M_RANGES; k++) {
            const struct m_range *r = &mas[a].ranges[k];
            uint64_t step = r->reserved ? TILE : r->size - PAGE;

            for (uint64_t off = 0; r->live && off < r->size; off += step ? step : PAGE) {
                struct gmmu_ref_result w;
                bool stale;

                vidmm_sim_walk(&sim, root_of(mas[a].handle), r->va + off, GMMU_ACCESS_READ, &w);
                if (w.fault != GMMU_FAULT_NONE || w.zero)
                    continue;
                if (m->system)
                    stale =
                        w.segment == GMMU_SEGMENT_SYSTEM && sys_holds(m, w.pa) && !sys_held(w.pa);
                else
                    stale = (peek_tag(w.segment, w.pa) & ~0xFFFFFFull) == tag_of(m->serial, 0);
                if (stale)
                    fail_msg("as %d va 0x%llx: pa 0x%llx is in freed allocation %u", a,
                             (unsigned long long)(r->va + off), (unsigned long long)w.pa,
                             m->serial);
            }
        }
    }
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

/* ------------------------------------------------------------ residency model */

static uint64_t round_unit(uint64_t bytes)
{
    return (bytes + TILE - 1) & ~(TILE - 1);
}

/* No placement flag: VRAM only (a contiguous one evicted is BACKING, in
   the aperture). */
static bool vram_only(const struct m_alloc *m)
{
    return !(m->flags & (PREF | SYSO | GMMU_ALLOC_FLAG_SYSTEM | GMMU_ALLOC_FLAG_CONTIGUOUS));
}

static bool has_refs(int i)
{
    for (int j = 0; j < M_REFS; j++)
        if (mref[j].live && mref[j].alloc == i)
            return true;
    return false;
}

/* Mappings or tile references: rewriting them after a move needs tables. */
static bool has_records(int i)
{
    for (int a = 0; a < M_AS; a++)
        for (int k = 0; mas[a].live && k < M_RANGES; k++)
            if (mas[a].ranges[k].live && !mas[a].ranges[k].reserved && mas[a].ranges[k].alloc == i)
                return true;
    return has_refs(i);
}

/* Which allocations tiles may point into. */
static void mark_refs(bool *refd)
{
    memset(refd, 0, M_ALLOCS * sizeof(*refd));
    for (int j = 0; j < M_REFS; j++)
        if (mref[j].live)
            refd[mref[j].alloc] = true;
}

/* docs/vidmm.md: in VRAM, count 0, not contiguous, no engine (there is
   none here), and a VRAM-only one with no tile reference (refd: from
   mark_refs). */
static bool m_evictable(int i, const bool *refd)
{
    const struct m_alloc *m = &mal[i];

    return m->live && m->where == ST_VRAM && !m->count && !m->constrained &&
           !(vram_only(m) && refd[i]);
}

static uint32_t query_alloc(uint32_t handle, struct gmmu_alloc_info *info)
{
    struct gmmu_handle_req req = { .handle = handle };

    return call(GMMU_OP_QUERY_ALLOC, &req, sizeof(req), info, sizeof(*info));
}

static const struct vidmm_alloc *vm_alloc(const struct m_alloc *m)
{
    return &sim.vm->allocs[slot_of(m->handle)];
}

/* Host address of pool offset lin. */
static uint64_t pool_addr(uint64_t lin)
{
    return lin < pool[0].size ? pool[0].addr + lin : pool[1].addr + (lin - pool[0].size);
}

/* 64 KB units of the pool holding an allocation, by vidmm's pieces. */
static void pool_units(bool *used)
{
    memset(used, 0, POOL_BYTES / TILE);
    for (int i = 0; i < M_ALLOCS; i++) {
        const struct vidmm_alloc *a;

        if (!mal[i].live || mal[i].where == ST_VRAM || mal[i].where == ST_HOST)
            continue;
        a = vm_alloc(&mal[i]);
        for (uint16_t e = a->first_extent; e != 0xFFFF; e = sim.vm->extents[e].next)
            for (uint32_t p = 0; p < sim.vm->extents[e].pages; p += TILE / PAGE)
                used[(sim.vm->extents[e].page + p) / (TILE / PAGE)] = true;
    }
}

/* Free runs of the pool (a run ends at a range's end). */
static uint32_t pool_gaps(void)
{
    bool used[POOL_BYTES / TILE];
    uint32_t gaps = 0;

    pool_units(used);
    for (uint64_t u = 0; u < POOL_BYTES / TILE; u++)
        gaps += !used[u] && (!u || used[u - 1] || u == pool[0].size / TILE);
    return gaps;
}

/* What a command that may move allocations is checked against. */
static struct {
    bool evictable[M_ALLOCS];
    uint16_t pieces[M_ALLOCS];
    uint64_t pool_free;
    uint32_t free_extents, gaps, undo_refused, moves_out;
    uint32_t apt_run; /* the aperture's longest free run, in pages */
} before;

static uint32_t apt_longest_run(void)
{
    uint32_t best = 0, run = 0;

    for (uint32_t p = 0; p < APT_PAGES; p++) {
        run = aperture_alloc_used(&sim.vm->aperture, p) ? 0 : run + 1;
        best = run > best ? run : best;
    }
    return best;
}

static void moves_begin(void)
{
    bool refd[M_ALLOCS];

    mark_refs(refd);
    for (int i = 0; i < M_ALLOCS; i++) {
        before.evictable[i] = m_evictable(i, refd);
        before.pieces[i] = mal[i].live ? vm_alloc(&mal[i])->extents : 0;
    }
    before.pool_free = sim.vm->backing.bytes - sim.vm->backing.used;
    before.undo_refused = sim.vm->counters.undo_refused;
    before.moves_out = sim.vm->counters.moves_out;
    before.free_extents = sim.vm->free_extents;
    before.gaps = pool_gaps();
    before.apt_run = apt_longest_run();
}

/* MOVE_FAILED: an ALLOC or MAKE_RESIDENT that failed after moving others
   moved them back; only a move back vidmm counts as refused may stay. */
enum move_kind { MOVE_NONE, MOVE_ALLOC, MOVE_RESIDENT, MOVE_FAILED };

/* The ranges that point into allocation i, checked again after it moved. */
static void check_alloc_ranges(int i)
{
    for (int a = 0; a < M_AS; a++) {
        for (int k = 0; mas[a].live && k < M_RANGES; k++) {
            const struct m_range *r = &mas[a].ranges[k];

            if (r->live && !r->reserved && r->alloc == i)
                check_range(a, r->va, r->size);
        }
    }
    for (int j = 0; j < M_REFS; j++)
        if (mref[j].live && mref[j].alloc == i)
            check_range(mref[j].as, mref[j].lo, mref[j].hi - mref[j].lo);
}

/*
 * After a command of `kind` (listed: MAKE_RESIDENT's list; fresh: the
 * allocation ALLOC just made): learns what moved from QUERY_ALLOC and
 * checks that each move was allowed, and that victims went least recently
 * used first.
 */
static void moves_end(enum move_kind kind, const bool *listed, int fresh)
{
    bool out[M_ALLOCS] = { false }, moved[M_ALLOCS] = { false };
    uint64_t youngest = 0;
    uint32_t new_pieces = 0, in_pieces = 0, n_moved = 0;

    for (int i = 0; i < M_ALLOCS; i++) {
        struct m_alloc *m = &mal[i];
        struct gmmu_alloc_info info;
        bool is_listed = listed && listed[i];

        if (!m->live || i == fresh)
            continue;
        assert_int_equal(query_alloc(m->handle, &info), GMMU_STATUS_OK);
        if (info.state == m->where)
            continue;
        if (m->where == ST_VRAM) {
            if (kind == MOVE_NONE || !before.evictable[i] || is_listed)
                fail_msg("allocation %u (count %u, stamp %llu) moved out, not a victim", m->serial,
                         m->count, (unsigned long long)m->stamp);
            assert_int_equal(info.state, vram_only(m) ? ST_OFFLINE : ST_BACKING);
            out[i] = true;
            youngest = m->stamp > youngest ? m->stamp : youngest;
            stat_moves_out++;
            stat_contig_out += (m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) != 0;
        } else {
            if ((kind != MOVE_RESIDENT && kind != MOVE_FAILED) || !is_listed ||
                info.state != ST_VRAM || (m->flags & SYSO))
                fail_msg("allocation %u moved from state %u to %u", m->serial, m->where,
                         info.state);
            /* Its pool pieces freed: at most as many new free runs. */
            in_pieces += before.pieces[i];
            stat_moves_in++;
            stat_contig_in += (m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) != 0;
            /* A contiguous one comes back as one block. */
            if ((m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && info.extents != 1)
                fail_msg("contiguous allocation %u back in VRAM in %u pieces", m->serial,
                         info.extents);
        }
        m->where = info.state;
        moved[i] = true;
        n_moved++;
        new_pieces += info.extents;
    }
    model_fence += n_moved;
    if (kind == MOVE_FAILED) {
        uint32_t refused = sim.vm->counters.undo_refused - before.undo_refused;

        stat_undo_refused += refused;
        if (n_moved > refused)
            fail_msg("a failed command left %u allocations moved, %u moves back refused", n_moved,
                     refused);
        /* The order of victims says nothing once moves were undone. */
        youngest = 0;
    } else if (sim.vm->counters.undo_refused != before.undo_refused) {
        /* A VRAM-preferred attempt of MAKE_RESIDENT moved its victims
           back, and one stayed out. */
        stat_undo_refused += sim.vm->counters.undo_refused - before.undo_refused;
        youngest = 0;
    }
    /* Least recently used first: an evictable allocation older than a
       victim stayed only if its own move could have been refused: tables
       for its mappings (only a VRAM-preferred one is mapped again; a
       VRAM-only one is unmapped, which needs none), pieces, or pool room. ALLOC makes room in one pass,
       oldest first, so only older victims went before it; MAKE_RESIDENT
       may pass again after a refusal, so any victim may have. */
    for (int w = 0; youngest && w < M_ALLOCS; w++) {
        const struct m_alloc *m = &mal[w];
        uint64_t taken = 0;

        if (!before.evictable[w] || out[w] || (listed && listed[w]) || w == fresh ||
            m->stamp > youngest)
            continue;
        for (int v = 0; v < M_ALLOCS; v++)
            if (out[v] && (kind == MOVE_RESIDENT || mal[v].stamp < m->stamp))
                taken += round_unit(mal[v].size);
        stat_lru_checked++;
        if ((!vram_only(m) && has_records(w)) || round_unit(m->size) + taken > before.pool_free ||
            before.free_extents < new_pieces + VIDMM_ALLOC_EXTENTS + 1 ||
            before.gaps + in_pieces >= VIDMM_ALLOC_EXTENTS ||
            ((m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && m->size / PAGE > before.apt_run)) {
            stat_lru_excused++;
            continue;
        }
        fail_msg("LRU: allocation %u (stamp %llu, %llu bytes) stayed in VRAM while a younger "
                 "one (stamp %llu) was evicted",
                 m->serial, (unsigned long long)m->stamp, (unsigned long long)m->size,
                 (unsigned long long)youngest);
    }
    for (int i = 0; i < M_ALLOCS; i++)
        if (moved[i])
            check_alloc_ranges(i);
}

/*
 * Nothing lost or doubled: from vidmm's pieces, every live allocation's
 * pages are distinct, inside VRAM or the pool, as many as it needs, and
 * hold its tags; the pool's use is the model's.
 */
static void check_pages(void)
{
    static uint8_t vram_seen[VRAM_BYTES / PAGE], host_seen[HOST_BYTES / PAGE];
    static uint64_t apt_want[APT_PAGES];
    uint64_t pool_used = 0;

    memset(apt_want, 0, sizeof(apt_want));
    memset(vram_seen, 0, sizeof(vram_seen));
    memset(host_seen, 0, sizeof(host_seen));
    stat_page_checks++;
    for (int i = 0; i < M_ALLOCS; i++) {
        const struct m_alloc *m = &mal[i];
        const struct vidmm_alloc *a;
        uint64_t page = 0, want;

        if (!m->live || m->system)
            continue;
        a = vm_alloc(m);
        assert_true(a->live);
        for (uint16_t e = a->first_extent; e != 0xFFFF; e = sim.vm->extents[e].next) {
            const struct vidmm_extent *x = &sim.vm->extents[e];

            for (uint32_t p = 0; p < x->pages; p++, page++) {
                uint64_t off = ((uint64_t)x->page + p) * PAGE, pa;
                uint8_t *seen;

                if (m->where == ST_VRAM) {
                    assert_true(off < sim.bytes);
                    pa = off;
                    seen = &vram_seen[off / PAGE];
                } else {
                    assert_true(off < POOL_BYTES);
                    pa = pool_addr(off);
                    seen = &host_seen[(pa - HOST) / PAGE];
                }
                if (*seen)
                    fail_msg("page 0x%llx (segment %u) held by allocation %u and another",
                             (unsigned long long)pa, seg_of(m), m->serial);
                *seen = 1;
                if (page < m->size / PAGE &&
                    vidmm_sim_peek_seg(&sim, seg_of(m), pa) != tag_of(m->serial, (uint32_t)page))
                    fail_msg("allocation %u page %llu at 0x%llx (segment %u) lost its tag "
                             "(0x%llx)",
                             m->serial, (unsigned long long)page, (unsigned long long)pa, seg_of(m),
                             (unsigned long long)vidmm_sim_peek_seg(&sim, seg_of(m), pa));
            }
        }
        want = m->where == ST_VRAM ? m->size : round_unit(m->size);
        if (page * PAGE != want)
            fail_msg("allocation %u: %llu pages, expected %llu", m->serial,
                     (unsigned long long)page, (unsigned long long)(want / PAGE));
        if (m->where != ST_VRAM)
            pool_used += want;
        /* Evicted contiguous: its pool pages in order in the aperture, as
           many as its size. */
        if ((m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && m->where == ST_BACKING) {
            assert_true(a->apt_page && a->apt_page - 1 + m->size / PAGE <= APT_PAGES);
            page = 0;
            for (uint16_t e = a->first_extent; e != 0xFFFF; e = sim.vm->extents[e].next)
                for (uint32_t p = 0; p < sim.vm->extents[e].pages && page < m->size / PAGE;
                     p++, page++)
                    apt_want[a->apt_page - 1 + page] =
                        pool_addr(((uint64_t)sim.vm->extents[e].page + p) * PAGE) |
                        GMMU_APERTURE_ENTRY_VALID;
        } else {
            assert_int_equal(a->apt_page, 0);
        }
    }
    assert_int_equal(sim.vm->backing.used, pool_used);
    /* Nothing else in the aperture: entries left behind would reach pages
       the pool gives to others. */
    for (uint32_t p = 0; p < APT_PAGES; p++)
        if (sim.apt_table[p] != apt_want[p])
            fail_msg("aperture entry %u: 0x%llx, expected 0x%llx", p,
                     (unsigned long long)sim.apt_table[p], (unsigned long long)apt_want[p]);
    assert_true(sim.apt_last_inv_seq >= sim.apt_last_write_seq);
}

/* QUERY_ALLOC and GET_VRAM against the model. */
static void check_residency(bool vram_too)
{
    uint64_t resident = 0, evictable = 0, pool_used = 0;
    uint32_t live = 1; /* the hog's host page */
    struct gmmu_vram_rsp v;
    bool refd[M_ALLOCS];

    mark_refs(refd);
    for (int i = 0; i < M_ALLOCS; i++) {
        const struct m_alloc *m = &mal[i];
        struct gmmu_alloc_info info;

        if (!m->live)
            continue;
        live++;
        assert_int_equal(query_alloc(m->handle, &info), GMMU_STATUS_OK);
        if (info.state != m->where || info.residency != m->count || info.size != m->size ||
            info.flags != m->flags)
            fail_msg("allocation %u: state %u count %u size 0x%llx flags %u, expected %u %u "
                     "0x%llx %u",
                     m->serial, info.state, info.residency, (unsigned long long)info.size,
                     info.flags, m->where, m->count, (unsigned long long)m->size, m->flags);
        if (m->system) {
            assert_int_equal(info.base, m->sys_addr);
            assert_int_equal(info.segment, GMMU_SEGMENT_SYSTEM);
        } else if ((m->flags & GMMU_ALLOC_FLAG_CONTIGUOUS) && m->where == ST_BACKING) {
            /* In the aperture: its physical-mode address, whose entry leads
               to its first page. */
            uint64_t p = (info.base - GMMU_APERTURE_PHYS_BASE) / PAGE;

            assert_int_equal(info.segment, GMMU_SEGMENT_APERTURE);
            assert_true(info.base >= GMMU_APERTURE_PHYS_BASE && p < APT_PAGES);
            assert_true(sim.apt_table[p] & GMMU_APERTURE_ENTRY_VALID);
            assert_int_equal(
                peek_tag(GMMU_SEGMENT_SYSTEM, sim.apt_table[p] & GMMU_APERTURE_ENTRY_ADDR_MASK),
                tag_of(m->serial, 0));
        } else {
            assert_int_equal(info.segment, seg_of(m));
            assert_int_equal(peek_tag(seg_of(m), info.base), tag_of(m->serial, 0));
        }
        resident += m->where == ST_VRAM && !m->system ? m->size : 0;
        pool_used += m->where == ST_BACKING || m->where == ST_OFFLINE ? round_unit(m->size) : 0;
        evictable += m_evictable(i, refd) ? m->size : 0;
    }
    if (!vram_too)
        return;
    vidmm_get_vram(sim.vm, &v);
    assert_int_equal(v.allocations, live);
    assert_int_equal(v.backing_ranges, 2);
    assert_int_equal(v.backing_bytes, POOL_BYTES);
    assert_int_equal(v.backing_free, POOL_BYTES - pool_used);
    assert_int_equal(v.resident_bytes, resident);
    assert_int_equal(v.evictable_bytes, evictable);
    assert_int_equal(v.paging_fence, model_fence);
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
        assert_int_equal(r.segment, seg_of(m));
        vidmm_sim_poke_seg(&sim, r.segment, r.pa, tag_of(m->serial, (uint32_t)(off / PAGE)));
    }
    un.va = rsp.va;
    assert_int_equal(call(GMMU_OP_UNMAP_VA, &un, sizeof(un), NULL, 0), GMMU_STATUS_OK);
    return true;
}

/* Runs of consecutive pages in a list. */
static uint32_t list_runs(const uint64_t *p, uint32_t n)
{
    uint32_t runs = 1;

    for (uint32_t k = 1; k < n; k++)
        runs += p[k] != p[k - 1] + PAGE;
    return runs;
}

/*
 * ALLOC_PAGES of n host pages: a region of n pages cut into random pieces
 * handed out in a random order, sent in messages of random length (now and
 * then another owner's message in between, refused without harm). One list
 * in ten has one fault put in by hand (a page twice, unaligned, beyond the
 * PA, in the pool, a size that does not match) and must answer its status
 * with nothing allocated; a clean list is NO_MEMORY exactly when it has
 * more runs than ALLOC_PAGES_RUNS or than vidmm has free pieces.
 */
static void do_alloc_pages(int i)
{
    uint32_t n = 1 + (uint32_t)below(chance(20) ? LIST_PAGES : 40);
    bool bad = chance(10);
    uint32_t pieces = 1 + (uint32_t)below(bad ? (n < 16 ? n : 16) : (n < 40 ? n : 40));
    uint64_t base = (0x100000 + below(1u << 20)) * PAGE, size = (uint64_t)n * PAGE;
    uint64_t *p = mpages[i];
    uint32_t cut[41], order[40], np = 0, want = GMMU_STATUS_OK, runs, st = GMMU_STATUS_OK;
    uint32_t free_pieces = sim.vm->free_extents, live = sim.vm->live_allocs;
    uint8_t msg[GMMU_ALLOC_PAGES_REQ_BYTES + 8 * GMMU_ALLOC_PAGES_MAX];
    struct gmmu_alloc_rsp rsp;
    struct gmmu_alloc_info info;

    cut[np++] = 0;
    for (uint32_t k = 1; k < n && np < pieces; k++)
        if (n - k <= pieces - np || below(n) < pieces)
            cut[np++] = k;
    cut[np] = n;
    for (uint32_t k = 0; k < np; k++)
        order[k] = k;
    for (uint32_t k = np; k > 1; k--) {
        uint32_t j = (uint32_t)below(k), t = order[k - 1];

        order[k - 1] = order[j];
        order[j] = t;
    }
    for (uint32_t k = 0, at = 0; k < np; k++)
        for (uint32_t q = cut[order[k]]; q < cut[order[k] + 1]; q++)
            p[at++] = base + (uint64_t)q * PAGE;
    if (bad) {
        uint32_t k = (uint32_t)below(n);

        switch (below(6)) {
        case 0: /* a page twice */
            if (n < 2)
                return;
            k = 1 + (uint32_t)below(n - 1);
            p[k] = p[below(k)];
            want = GMMU_STATUS_OVERLAP;
            break;
        case 1:
            p[k] += 8 << below(9);
            want = GMMU_STATUS_UNALIGNED;
            break;
        case 2:
            p[k] = (UINT64_C(1) << 52) + below(4) * PAGE;
            want = GMMU_STATUS_OUT_OF_RANGE;
            break;
        case 3: /* the pool's pages are the device's */
            p[k] = pool[below(2)].addr + below(16) * PAGE;
            want = GMMU_STATUS_OVERLAP;
            break;
        case 4: /* fewer pages than the size */
            size += PAGE * (1 + below(3));
            want = GMMU_STATUS_INVALID_ARGUMENT;
            break;
        default: /* more */
            size -= PAGE;
            want = size ? GMMU_STATUS_OUT_OF_RANGE : GMMU_STATUS_INVALID_ARGUMENT;
            break;
        }
    }
    runs = list_runs(p, n);
    if (!bad && (runs > GMMU_ALLOC_PAGES_RUNS || runs > free_pieces))
        want = GMMU_STATUS_NO_MEMORY;
    for (uint32_t done = 0; done < n && st == GMMU_STATUS_OK;) {
        uint32_t k = 1 + (uint32_t)below(GMMU_ALLOC_PAGES_MAX);
        struct gmmu_alloc_pages_req req = { .owner = 7, .size = size };

        k = k < n - done ? k : n - done;
        req.flags = (done ? 0u : GMMU_ALLOC_PAGES_FLAG_BEGIN) |
                    (done + k == n ? GMMU_ALLOC_PAGES_FLAG_COMMIT : 0u);
        req.count = k;
        if (done && chance(10)) { /* another host's message: refused, harmless */
            struct gmmu_alloc_pages_req other = req;

            other.owner = 8;
            other.count = 1;
            memcpy(msg, &other, sizeof(other));
            memcpy(msg + sizeof(other), &base, 8);
            assert_int_equal(call(GMMU_OP_ALLOC_PAGES, msg, sizeof(other) + 8, &rsp, sizeof(rsp)),
                             GMMU_STATUS_BAD_HANDLE);
        }
        memcpy(msg, &req, sizeof(req));
        memcpy(msg + sizeof(req), p + done, 8ull * k);
        st = call(GMMU_OP_ALLOC_PAGES, msg, (uint32_t)(sizeof(req) + 8ull * k), &rsp, sizeof(rsp));
        done += k;
        if (st == GMMU_STATUS_OK && done < n)
            assert_int_equal(rsp.handle, 0);
    }
    assert_false(sim.vm->stage->active);
    if (want != GMMU_STATUS_OK || st != GMMU_STATUS_OK) {
        assert_int_equal(st, want);
        assert_int_equal(sim.vm->free_extents, free_pieces);
        assert_int_equal(sim.vm->live_allocs, live);
        stat_lists_refused++;
        return;
    }
    assert_int_equal(rsp.extents, runs);
    assert_int_equal(rsp.size, size);
    assert_int_equal(rsp.base, p[0]);
    assert_int_equal(sim.vm->free_extents, free_pieces - runs);
    mal[i] = (struct m_alloc){ .live = true,
                               .system = true,
                               .listed = true,
                               .handle = rsp.handle,
                               .serial = serial_next++,
                               .size = size,
                               .sys_addr = p[0],
                               .flags = GMMU_ALLOC_FLAG_SYSTEM,
                               .where = ST_HOST,
                               .stamp = ++model_clock };
    assert_int_equal(query_alloc(rsp.handle, &info), GMMU_STATUS_OK);
    assert_int_equal(info.state, ST_HOST);
    assert_int_equal(info.extents, runs);
    stat_lists_ok++;
}

static void do_alloc(void)
{
    static const uint32_t bad_place[] = { GMMU_ALLOC_FLAG_SYSTEM | PREF,
                                          GMMU_ALLOC_FLAG_CONTIGUOUS | SYSO, PREF | SYSO };
    int i = free_alloc_index();
    struct gmmu_alloc_req req = { .size = (1 + below(chance(20) ? 600 : 40)) * PAGE };
    struct gmmu_alloc_rsp rsp;
    struct gmmu_alloc_info info;
    uint32_t st, want = GMMU_STATUS_OK;
    bool evicts, pool_room;

    if (i < 0)
        return;
    switch (below(5)) {
    case 0:
        if (chance(50)) {
            do_alloc_pages(i);
            return;
        }
        req.flags = GMMU_ALLOC_FLAG_SYSTEM;
        req.sys_addr = (0x100000 + below(1u << 20)) * PAGE;
        if (chance(5)) { /* the pool is the device's */
            req.sys_addr = pool[below(2)].addr + below(16) * PAGE;
            want = GMMU_STATUS_OVERLAP;
        }
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
    /* Placement: VRAM only, VRAM preferred or system only. */
    if (!(req.flags & (GMMU_ALLOC_FLAG_SYSTEM | GMMU_ALLOC_FLAG_CONTIGUOUS)))
        req.flags |= (uint32_t[]){ 0, 0, PREF, SYSO }[below(4)];
    if (chance(2)) {
        req.flags = bad_place[below(3)];
        req.sys_addr = req.flags & GMMU_ALLOC_FLAG_SYSTEM ? 0x100000 * PAGE : 0;
        req.lowest = req.highest = req.boundary = 0;
        want = GMMU_STATUS_INVALID_ARGUMENT;
    }
    evicts = want == GMMU_STATUS_OK &&
             !(req.flags & (GMMU_ALLOC_FLAG_SYSTEM | GMMU_ALLOC_FLAG_CONTIGUOUS | PREF | SYSO));
    moves_begin();
    /* Room in the pool, first fit in few enough runs: a placement that may
       go there must not fail. */
    pool_room = round_unit(req.size) <= before.pool_free && before.gaps < VIDMM_ALLOC_EXTENTS &&
                before.free_extents > 2 * VIDMM_ALLOC_EXTENTS;
    st = call(GMMU_OP_ALLOC, &req, sizeof(req), &rsp, sizeof(rsp));
    if (want != GMMU_STATUS_OK) {
        assert_int_equal(st, want);
        moves_end(MOVE_NONE, NULL, -1);
        return;
    }
    if (st != GMMU_STATUS_OK) {
        assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
        if ((req.flags & (PREF | SYSO)) && pool_room)
            fail_msg("ALLOC of 0x%llx bytes, flags %u: NO_MEMORY with 0x%llx of the pool free",
                     (unsigned long long)req.size, req.flags, (unsigned long long)before.pool_free);
        stat_failed_alloc++;
        /* VRAM only: victims that went before the pieces ran short come
           back. */
        moves_end(evicts ? MOVE_FAILED : MOVE_NONE, NULL, -1);
        stat_alloc_moved_refused += sim.vm->counters.moves_out != before.moves_out;
        return;
    }
    mal[i] = (struct m_alloc){ .live = true,
                               .system = req.flags & GMMU_ALLOC_FLAG_SYSTEM,
                               .handle = rsp.handle,
                               .serial = serial_next++,
                               .size = rsp.size,
                               .sys_addr = req.sys_addr,
                               .flags = req.flags,
                               .constrained = req.lowest || req.highest || req.boundary,
                               .stamp = ++model_clock };
    assert_int_equal(query_alloc(rsp.handle, &info), GMMU_STATUS_OK);
    mal[i].where = info.state;
    if (mal[i].system)
        assert_int_equal(info.state, ST_HOST);
    else if (req.flags & SYSO)
        assert_int_equal(info.state, ST_BACKING);
    else if (!(req.flags & PREF))
        assert_int_equal(info.state, ST_VRAM);
    else if (info.state != ST_VRAM)
        assert_int_equal(info.state, ST_BACKING);
    stat_pool_allocs += info.state == ST_BACKING;
    moves_end(evicts ? MOVE_ALLOC : MOVE_NONE, NULL, i);
    if (!mal[i].system && !tag_alloc(&mal[i])) {
        struct gmmu_handle_req fr = { .handle = rsp.handle };

        assert_int_equal(call(GMMU_OP_FREE, &fr, sizeof(fr), NULL, 0), GMMU_STATUS_OK);
        mal[i].live = false;
    }
}

/* FREE: mappings of it vanish, tiles that pointed into it become invalid. */
static void do_free_at(int i)
{
    struct gmmu_handle_req req;

    if (i < 0)
        return;
    req = (struct gmmu_handle_req){ .handle = mal[i].handle };
    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    mal[i].live = false;
    last_freed = mal[i].handle;
    refs_drop(-1, -1, i);
    check_no_stale(&mal[i]);
    for (int a = 0; a < M_AS; a++) {
        for (int k = 0; mas[a].live && k < M_RANGES; k++) {
            struct m_range *r = &mas[a].ranges[k];
            bool touched = false;

            if (!r->live)
                continue;
            if (!r->reserved && r->alloc == i) {
                uint64_t va = r->va, size = r->size;

                range_drop(r);
                check_range(a, va, size);
                continue;
            }

            for (uint64_t p = 0; r->reserved && p < r->size / PAGE; p++) {
                if (r->pages[p].kind == P_MAPPED && r->pages[p].alloc == i) {
                    r->pages[p] = (struct m_page){ .kind = P_INVALID };
                    touched = true;
                }
            }
            if (touched || chance(20))
                check_range(a, r->va, r->size);
        }
    }
    /* Its handle is stale now. */
    assert_int_equal(call(GMMU_OP_FREE, &req, sizeof(req), NULL, 0), GMMU_STATUS_BAD_HANDLE);
}

static void do_free(void)
{
    do_free_at(pick_live_alloc());
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
    refs_drop(a, -1, -1);
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
    if (r->reserved)
        refs_drop(a, (int)(r - mas[a].ranges), -1);
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

/* A tile-aligned piece of what an earlier MAP or COPY of the batch wrote
   (so a COPY of it carries a reference the batch itself made or grew). */
static bool written_piece(const struct gmmu_update_op *prev, uint32_t n, uint64_t *va,
                          uint64_t *size)
{
    const struct gmmu_update_op *p;
    uint64_t t;

    if (!n)
        return false;
    p = &prev[below(n)];
    if (p->op != GMMU_UPDATE_OP_MAP && p->op != GMMU_UPDATE_OP_COPY)
        return false;
    t = below(p->size / TILE);
    *va = p->va + t * TILE;
    *size = p->size - t * TILE;
    return true;
}

/* Builds a valid operation after the n in prev and what it does to the
   model (applied by model_apply once the batch succeeds). False if none
   could be built. */
static bool random_op(int a, const struct gmmu_update_op *prev, uint32_t n,
                      struct gmmu_update_op *op)
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
        if (i < 0 || mal[i].size < size || mal[i].where == ST_OFFLINE)
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
        if (!(chance(60) && written_piece(prev, n, &src, &src_size)) &&
            !random_piece(a, &src, &src_size))
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

/* The pattern that once left a freed allocation reachable: a MAP of one
   tile (often growing a reference the range already has), then a COPY of
   that tile into another reserved range. */
static uint32_t chain_ops(int a, struct gmmu_update_op *ops)
{
    uint64_t va, size, dst, dst_size;
    int i = pick_live_alloc(), j = (int)below(M_REFS);
    struct m_range *r = random_piece(a, &va, &size), *d = NULL;

    /* Mostly a tile of a range that already points into the allocation. */
    for (int n = chance(70) ? 0 : M_REFS; n < M_REFS; n++, j = (j + 1) % M_REFS) {
        if (mref[j].live && mref[j].as == a) {
            i = mref[j].alloc;
            r = &mas[a].ranges[mref[j].range];
            va = r->va + below(r->size / TILE) * TILE;
            break;
        }
    }
    if (!r || i < 0 || mal[i].size < TILE || mal[i].where == ST_OFFLINE)
        return 0;
    for (int tries = 0; tries < 4 && (!d || d == r); tries++)
        d = random_piece(a, &dst, &dst_size);
    if (d == r)
        return 0;
    ops[0] = (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_MAP,
                                      .va = va,
                                      .size = TILE,
                                      .alloc_handle = mal[i].handle,
                                      .arg = below((mal[i].size - TILE) / TILE + 1) * TILE };
    ops[1] =
        (struct gmmu_update_op){ .op = GMMU_UPDATE_OP_COPY, .va = dst, .size = TILE, .arg = va };
    return 2;
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

/* What a batch does to the references, as the docs define it: MAP notes
   its range in (range, allocation); COPY carries every reference of the
   source range whose hull, as the batch has grown it so far, meets the
   copied range. Returns how many new references it makes. */
static int refs_run(struct m_ref *refs, int a, const struct gmmu_update_op *ops, uint32_t n)
{
    int made = 0;

    for (uint32_t k = 0; k < n; k++) {
        const struct gmmu_update_op *op = &ops[k];
        int dst = (int)(range_at(&mas[a], op->va) - mas[a].ranges), src;

        if (op->op == GMMU_UPDATE_OP_MAP)
            made +=
                ref_note(refs, a, dst, alloc_index(op->alloc_handle), op->va, op->va + op->size);
        if (op->op != GMMU_UPDATE_OP_COPY)
            continue;
        src = (int)(range_at(&mas[a], op->arg) - mas[a].ranges);
        for (int j = 0; j < M_REFS; j++) {
            struct m_ref *r = &refs[j];

            if (!r->live || r->as != a || r->range != src || r->hi <= op->arg ||
                op->arg + op->size <= r->lo)
                continue;
            if (src == dst) {
                r->lo = r->lo < op->va ? r->lo : op->va;
                r->hi = r->hi > op->va + op->size ? r->hi : op->va + op->size;
            } else {
                made += ref_note(refs, a, dst, r->alloc, op->va, op->va + op->size);
            }
        }
    }
    return made;
}

/* A bad operation and the status it must earn. */
static uint32_t spoil(struct gmmu_update_op *op)
{
    for (int i = 0; chance(20) && i < M_ALLOCS; i++) {
        if (mal[i].live && mal[i].where == ST_OFFLINE && mal[i].size >= TILE) {
            /* Tiles of a VRAM-only allocation that is not resident. */
            *op = (struct gmmu_update_op){
                .op = GMMU_UPDATE_OP_MAP, .va = op->va, .size = TILE, .alloc_handle = mal[i].handle
            };
            stat_offline_maps++;
            return GMMU_STATUS_INVALID_ARGUMENT;
        }
    }
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

/* The most headroom UPDATE_VA asks for one operation of at most 8 tiles:
   two spans at each of its four table granules, 4 KB blocks for three of
   them and 8 KB for the level-1 tables. */
#define HEADROOM_PER_OP (2 * (3 * 4 * KiB + 8 * KiB))

static void do_update(void)
{
    static uint8_t buf[GMMU_MSG_MAX_BYTES];
    struct gmmu_update_op ops[8];
    int a = pick_live_as(), made;
    uint32_t n = 0, want = GMMU_STATUS_OK, st, bad = 0, spare;
    struct gmmu_update_req req;
    struct vram_stats vs;

    if (a < 0)
        return;
    if (chance(30))
        n = chain_ops(a, ops);
    for (uint32_t k = n + 1 + (uint32_t)below(8 - n); n < k;) {
        if (!random_op(a, ops, n, &ops[n]))
            break;
        n++;
    }
    if (!n)
        return;
    if (chance(15)) {
        bad = (uint32_t)below(n);
        want = spoil(&ops[bad]);
    }
    memcpy(trial, mref, sizeof(trial));
    made = want == GMMU_STATUS_OK ? refs_run(trial, a, ops, n) : 0;
    vram_alloc_stats(sim.vm->vram, &vs);
    spare = records_free();
    req = (struct gmmu_update_req){ .as_handle = mas[a].handle, .count = n };
    memcpy(buf, &req, sizeof(req));
    memcpy(buf + sizeof(req), ops, n * sizeof(ops[0]));
    st = call(GMMU_OP_UPDATE_VA, buf, (uint32_t)(sizeof(req) + n * sizeof(ops[0])), NULL, 0);
    if (want != GMMU_STATUS_OK) {
        assert_int_equal(st, want);
        stat_rejected++;
    } else if ((uint32_t)made > spare) {
        /* One record short is enough: nothing may be applied. */
        assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
        stat_no_records++;
    } else if (st == GMMU_STATUS_NO_MEMORY) {
        /* Only VRAM can refuse it: the tables of an operation (at most 8
           tiles) fit in HEADROOM_PER_OP, so with that much in one block
           the batch must have run. */
        assert_true(vs.largest_free < n * HEADROOM_PER_OP);
        stat_nomem++;
    } else {
        assert_int_equal(st, GMMU_STATUS_OK);
        for (uint32_t k = 0; k < n; k++)
            model_apply(a, &ops[k]);
        memcpy(mref, trial, sizeof(mref));
    }
    for (uint32_t k = 0; k < n; k++)
        if (k != bad || want == GMMU_STATUS_OK)
            check_range(a, ops[k].va, ops[k].size);
    /* Free what the batch just pointed at (and copied around). */
    if (st == GMMU_STATUS_OK && chance(40)) {
        const struct gmmu_update_op *op = &ops[chance(50) ? 0 : below(n)];

        if (op->op == GMMU_UPDATE_OP_MAP) {
            check_records();
            do_free_at(alloc_index(op->alloc_handle));
            stat_frees_after_batch++;
        }
    }
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
    if (e.kind == P_MAPPED && !mal[e.alloc].system) {
        assert_int_equal(rsp.segment, seg_of(&mal[e.alloc]));
        assert_int_equal(peek_tag(rsp.segment, rsp.pa), tag_of(mal[e.alloc].serial, e.page));
    }
}

/* ------------------------------------------------------------ residency commands */

/* A handle that names no live allocation. */
static uint32_t bad_handle(void)
{
    uint32_t h;

    switch (below(4)) {
    case 0:
        h = last_freed;
        break;
    case 1:
        h = scratch_as; /* an address space */
        break;
    case 2:
        h = 0;
        break;
    default:
        h = (uint32_t)rnd();
        break;
    }
    return alloc_index(h) < 0 && h != hog.sys ? h : 0;
}

static int pick_held(void)
{
    int start = (int)below(M_ALLOCS);

    for (int i = 0; i < M_ALLOCS; i++)
        if (mal[(start + i) % M_ALLOCS].live && mal[(start + i) % M_ALLOCS].count)
            return (start + i) % M_ALLOCS;
    return -1;
}

#define LIST_MAX 16

/*
 * MAKE_RESIDENT or EVICT over a random list (repeats; now and then a bad
 * handle, a bad count or a wrong length, which change nothing). EVICT
 * mostly names allocations that are held, so counts come back to 0.
 */
static void do_residency(bool make)
{
    static uint32_t buf[2 + GMMU_RESIDENCY_MAX + 1];
    struct gmmu_residency_req req;
    struct gmmu_residency_rsp rsp;
    int idx[LIST_MAX];
    bool listed[M_ALLOCS] = { false }, offline = false;
    uint32_t mult[M_ALLOCS] = { 0 }, n = 1 + (uint32_t)below(chance(10) ? LIST_MAX : 4);
    uint32_t want = GMMU_STATUS_OK, st, len;
    uint64_t fence = model_fence;

    /* EVICT names held allocations no more times than they are held,
       except now and then (below zero). */
    for (uint32_t k = 0; k < n; k++) {
        int i = k && chance(20) ? idx[below(k)] : !make ? pick_held() : -1;
        uint32_t times = 0;

        for (uint32_t j = 0; i >= 0 && j < k; j++)
            times += idx[j] == i;
        if (!make && (i < 0 || times >= mal[i].count) && !chance(3)) {
            n = k;
            break;
        }
        idx[k] = i < 0 ? pick_live_alloc() : i;
        if (idx[k] < 0)
            return;
    }
    if (!n)
        return;
    req = (struct gmmu_residency_req){ .count = n };
    for (uint32_t k = 0; k < n; k++)
        buf[2 + k] = mal[idx[k]].handle;
    if (chance(5)) {
        uint32_t k = (uint32_t)below(n);

        buf[2 + k] = bad_handle();
        idx[k] = -1;
        want = GMMU_STATUS_BAD_HANDLE;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (idx[k] < 0)
            continue;
        listed[idx[k]] = true;
        mult[idx[k]]++;
    }
    for (int i = 0; want == GMMU_STATUS_OK && i < M_ALLOCS; i++) {
        if (!listed[i])
            continue;
        offline |= mal[i].where == ST_OFFLINE;
        if (!make && mult[i] > mal[i].count)
            want = GMMU_STATUS_INVALID_ARGUMENT; /* below 0 */
    }
    len = (uint32_t)sizeof(req) + 4 * n;
    switch (below(50)) {
    case 0:
        req.count = 0;
        len = sizeof(req);
        want = GMMU_STATUS_INVALID_ARGUMENT;
        break;
    case 1:
        req.reserved = 1;
        want = GMMU_STATUS_INVALID_ARGUMENT;
        break;
    case 2:
        len += 4 * (chance(50) ? 1 : -1);
        want = GMMU_STATUS_MALFORMED_LENGTH;
        break;
    case 3:
        req.count = GMMU_RESIDENCY_MAX + 1;
        for (uint32_t k = n; k < req.count; k++)
            buf[2 + k] = buf[2];
        len = (uint32_t)sizeof(req) + 4 * req.count;
        want = GMMU_STATUS_INVALID_ARGUMENT;
        break;
    default:
        break;
    }
    memcpy(buf, &req, sizeof(req));
    moves_begin();
    st = call(make ? GMMU_OP_MAKE_RESIDENT : GMMU_OP_EVICT, buf, len, &rsp, make ? sizeof(rsp) : 0);
    if (want != GMMU_STATUS_OK) {
        assert_int_equal(st, want);
        stat_list_refused++;
        moves_end(MOVE_NONE, NULL, -1); /* nothing moved, no count changed */
        return;
    }
    if (!make) {
        assert_int_equal(st, GMMU_STATUS_OK);
        moves_end(MOVE_NONE, NULL, -1);
        stat_evict_ok++;
    } else if (st == GMMU_STATUS_NO_MEMORY && offline) {
        /* A VRAM-only one could not come in: no count changed; the moves
           made meanwhile were undone. */
        moves_end(MOVE_FAILED, listed, -1);
        stat_resident_nomem++;
        return;
    } else {
        assert_int_equal(st, GMMU_STATUS_OK);
        moves_end(MOVE_RESIDENT, listed, -1);
        model_fence++; /* MAKE_RESIDENT's own value, after its moves' */
        assert_int_equal(rsp.fence, model_fence);
        assert_true(rsp.fence >= fence);
        stat_resident_ok++;
    }
    for (uint32_t k = 0; k < n; k++) {
        struct m_alloc *m = &mal[idx[k]];

        m->count += make ? 1 : (uint32_t)-1;
        m->stamp = ++model_clock;
        /* Resident now: VRAM only in VRAM; the others where they were put. */
        if (make && vram_only(m) && !m->system)
            assert_int_equal(m->where, ST_VRAM);
    }
}

/* QUERY_ALLOC of a bad handle, ADD_BACKING that must be refused: nothing
   changes. */
static void do_refusals(void)
{
    struct gmmu_handle_req hr = { .handle = bad_handle() };
    struct gmmu_alloc_info info;
    struct gmmu_backing_req br;
    int i = pick_live_alloc();

    assert_int_equal(query_alloc(hr.handle, &info), GMMU_STATUS_BAD_HANDLE);
    if (i >= 0) {
        hr = (struct gmmu_handle_req){ .handle = mal[i].handle, .reserved = 1 };
        assert_int_equal(call(GMMU_OP_QUERY_ALLOC, &hr, sizeof(hr), &info, sizeof(info)),
                         GMMU_STATUS_INVALID_ARGUMENT);
    }
    switch (below(4)) {
    case 0: /* over the pool */
        br = (struct gmmu_backing_req){ .sys_addr = pool[below(2)].addr + below(16) * TILE,
                                        .size = TILE * (1 + below(64)) };
        assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OVERLAP);
        break;
    case 1:
        br = (struct gmmu_backing_req){ .sys_addr = HOST + 3 * MiB, .size = 0 };
        assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0),
                         GMMU_STATUS_INVALID_ARGUMENT);
        break;
    case 2:
        br = (struct gmmu_backing_req){ .sys_addr = HOST + 3 * MiB + PAGE, .size = TILE };
        assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0),
                         GMMU_STATUS_UNALIGNED);
        break;
    default: /* over a live host buffer */
        for (int k = 0; k < M_ALLOCS; k++) {
            if (mal[k].live && mal[k].system) {
                br = (struct gmmu_backing_req){ .sys_addr = mal[k].sys_addr & ~(TILE - 1),
                                                .size = TILE };
                assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0),
                                 GMMU_STATUS_OVERLAP);
                break;
            }
        }
        break;
    }
}

/* ------------------------------------------------------------ record hog */

/* Maps until at most `keep` records are free (or VA nodes, address spaces
   or VRAM for its tables run out first). */
static void hog_fill(uint32_t keep)
{
    while (records_free() > keep) {
        struct gmmu_map_req req = { .alloc_handle = hog.sys, .size = PAGE };
        struct gmmu_va_rsp rsp;
        uint32_t h = 0, st;

        while (h < hog.n_as && hog.maps[h] == NODES_PER_AS)
            h++;
        if (h == hog.n_as) {
            struct gmmu_as_rsp as;

            if (hog.n_as == HOG_AS || call(GMMU_OP_CREATE_AS, NULL, 0, &as, sizeof(as)))
                return;
            hog.as[hog.n_as++] = as.handle;
        }
        req.as_handle = hog.as[h];
        st = call(GMMU_OP_MAP_VA, &req, sizeof(req), &rsp, sizeof(rsp));
        if (st != GMMU_STATUS_OK) {
            assert_int_equal(st, GMMU_STATUS_NO_MEMORY);
            return;
        }
        hog.va[h][hog.maps[h]++] = rsp.va;
        hog.total++;
    }
}

/* Gives back up to n of the hog's records, the last taken first. */
static void hog_release(uint32_t n)
{
    while (n-- && hog.total) {
        uint32_t h = hog.n_as - 1;
        struct gmmu_range_req req = { .size = PAGE };

        while (!hog.maps[h])
            h--;
        req.as_handle = hog.as[h];
        req.va = hog.va[h][--hog.maps[h]];
        assert_int_equal(call(GMMU_OP_UNMAP_VA, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
        hog.total--;
    }
}

/* ------------------------------------------------------------ the run */

static uint64_t env_u64(const char *name, uint64_t fallback)
{
    const char *s = getenv(name);

    return s && *s ? strtoull(s, NULL, 0) : fallback;
}

static void destroy_everything(void)
{
    struct gmmu_handle_req hr = { .handle = hog.sys };

    hog_release(hog.total);
    for (uint32_t h = 0; h < hog.n_as; h++) {
        struct gmmu_handle_req req = { .handle = hog.as[h] };

        assert_int_equal(call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    }
    assert_int_equal(call(GMMU_OP_FREE, &hr, sizeof(hr), NULL, 0), GMMU_STATUS_OK);
    memset(&hog, 0, sizeof(hog));
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
    refs_drop(-1, -1, -1);
    assert_int_equal(records_used(), 0);
}

static void test_random_commands(void **state)
{
    uint64_t ops = env_u64("VIDMM_DIFF_OPS", DEFAULT_OPS);
    struct gmmu_as_rsp as;
    struct gmmu_handle_req req;
    struct gmmu_vram_rsp v0, v1;

    (void)state;
    rng = env_u64("VIDMM_DIFF_SEED", rng);
    vidmm_sim_init(&sim, VRAM_BYTES, HW_ASIDS, NODES_PER_AS);
    vidmm_sim_host(&sim, HOST_BYTES);
    vidmm_sim_aperture(&sim, APT_PAGES);
    sim.poison_moved = true;
    for (int k = 0; k < 2; k++) {
        struct gmmu_backing_req br = { .sys_addr = pool[k].addr, .size = pool[k].size };

        assert_int_equal(call(GMMU_OP_ADD_BACKING, &br, sizeof(br), NULL, 0), GMMU_STATUS_OK);
    }
    start_used = vidmm_sim_used(&sim);
    vidmm_get_vram(sim.vm, &v0);
    assert_int_equal(v0.backing_free, POOL_BYTES);
    assert_int_equal(call(GMMU_OP_CREATE_AS, NULL, 0, &as, sizeof(as)), GMMU_STATUS_OK);
    scratch_as = as.handle;
    {
        struct gmmu_alloc_req hr = { .size = PAGE,
                                     .flags = GMMU_ALLOC_FLAG_SYSTEM,
                                     .sys_addr = 0xF00000000ull };
        struct gmmu_alloc_rsp rsp;

        assert_int_equal(call(GMMU_OP_ALLOC, &hr, sizeof(hr), &rsp, sizeof(rsp)), GMMU_STATUS_OK);
        hog.sys = rsp.handle;
    }
    for (uint64_t n = 0; n < ops; n++) {
        uint64_t copies = sim.copies;
        bool residency = false;

        /* Phases of record exhaustion (at most 3 records free), about a
           fifth of the commands. */
        if (chance(hog.squeeze ? 4 : 1))
            hog.squeeze = !hog.squeeze;
        if (hog.squeeze)
            hog_fill((uint32_t)below(4));
        else
            hog_release(1 + (uint32_t)below(8));
        switch (below(24)) {
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
        case 18:
        case 19:
            do_query();
            break;
        case 20:
        case 21:
            do_residency(true);
            residency = true;
            break;
        case 22:
            do_residency(false);
            residency = true;
            break;
        default:
            if (chance(75))
                do_residency(false);
            else if (chance(30))
                do_refusals();
            residency = true;
            break;
        }
        check_sample();
        check_residency(residency || n % 8 == 0);
        if (sim.copies != copies || n % 16 == 0)
            check_pages();
    }
    check_pages();
    destroy_everything();
    req = (struct gmmu_handle_req){ .handle = scratch_as };
    assert_int_equal(call(GMMU_OP_DESTROY_AS, &req, sizeof(req), NULL, 0), GMMU_STATUS_OK);
    assert_int_equal(vidmm_sim_used(&sim), start_used);
    assert_int_equal(vidmm_sim_used(&sim), 0);
    /* VRAM and the pool are back to the start; every move was counted. */
    vidmm_get_vram(sim.vm, &v1);
    assert_int_equal(v1.free_bytes, v0.free_bytes);
    assert_int_equal(v1.backing_free, v0.backing_free);
    assert_int_equal(v1.resident_bytes, 0);
    assert_int_equal(v1.evictable_bytes, 0);
    assert_int_equal(v1.allocations, 0);
    assert_int_equal(v1.paging_fence, model_fence);
    printf("vidmm_diff: %llu commands; %lu pages checked (%lu mapped, %lu zero, %lu invalid); "
           "%lu allocations and %lu maps or batches out of VRAM; %lu batches short of records; "
           "%lu frees right after a batch; %lu bad batches rejected; "
           "%u id evictions; %u headroom reservations\n",
           (unsigned long long)ops, stat_checked, stat_kind[P_MAPPED], stat_kind[P_ZERO],
           stat_kind[P_INVALID], stat_failed_alloc, stat_nomem, stat_no_records,
           stat_frees_after_batch, stat_rejected, sim.vm->counters.asid_evictions,
           sim.vm->counters.batch_reservations);
    printf("vidmm_diff: residency: %lu allocations placed in the pool; %lu moves out, %lu in "
           "(%llu MiB copied); MAKE_RESIDENT %lu ok, %lu NO_MEMORY; %lu EVICT ok; %lu lists "
           "refused; %lu tile MAPs of OFFLINE allocations refused; LRU: %lu older evictable "
           "ones checked, %lu excused; %lu page censuses; %lu ALLOCs refused after moving "
           "victims (moved back; %lu moves back refused)\n",
           stat_pool_allocs, stat_moves_out, stat_moves_in,
           (unsigned long long)(sim.copy_bytes >> 20), stat_resident_ok, stat_resident_nomem,
           stat_evict_ok, stat_list_refused, stat_offline_maps, stat_lru_checked, stat_lru_excused,
           stat_page_checks, stat_alloc_moved_refused, stat_undo_refused);
    printf("vidmm_diff: ALLOC_PAGES: %lu lists allocated, %lu refused\n", stat_lists_ok,
           stat_lists_refused);
    printf("vidmm_diff: contiguous allocations: %lu moves out (into the aperture), %lu in\n",
           stat_contig_out, stat_contig_in);
    vidmm_sim_fini(&sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_commands),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
