// SPDX-License-Identifier: Apache-2.0
/* Random page tables for the MMU testbench; see pt.h. */
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>

#include "gmmu/pte_util.h"

#define JUNK_BYTES (64u * 1024u)
#define ERR_BYTES  (64u * 1024u)
#define PA_LIMIT   (UINT64_C(1) << 52)

static uint64_t rnd(struct pt *pt)
{
    return rng_next(pt->rng);
}
static uint64_t below(struct pt *pt, uint64_t n)
{
    return rng_below(pt->rng, n);
}
static bool chance(struct pt *pt, unsigned pct)
{
    return rng_chance(pt->rng, pct);
}

static void add_map(struct pt *pt, uint32_t asid, uint64_t va, unsigned shift)
{
    if (pt->no_maps)
        return;
    if (pt->n_maps == pt->cap_maps) {
        unsigned cap = pt->cap_maps ? pt->cap_maps * 2 : 4096;
        struct pt_map *m = realloc(pt->maps, sizeof *m * cap);
        if (!m) {
            fprintf(stderr, "pt: out of memory\n");
            exit(2);
        }
        pt->maps = m;
        pt->cap_maps = cap;
    }
    pt->maps[pt->n_maps++] = (struct pt_map){ asid, shift, va };
}

static void put(struct pt *pt, uint64_t addr, uint64_t word)
{
    sparse_mem_write_u64(pt->mem, addr, word);
}

uint64_t pt_safe_addr(struct pt *pt)
{
    if (chance(pt, 50))
        return (pt->junk_lo + below(pt, pt->junk_hi - pt->junk_lo)) & ~UINT64_C(0xFF);
    return (pt->ddr_size + below(pt, PA_LIMIT - pt->ddr_size)) & ~UINT64_C(0xFF);
}

bool pt_full(const struct pt *pt)
{
    return pt->next + 64 * 1024 > pt->limit;
}

static uint64_t alloc(struct pt *pt, uint64_t bytes, uint64_t align)
{
    uint64_t a = (pt->next + align - 1) & ~(align - 1);
    pt->next = a + bytes;
    pt->tables++;
    return a;
}

/* Reserved bits (7 and 63:57) and the informational TABLE_64K, now and then. */
static uint64_t noise(struct pt *pt)
{
    uint64_t n = 0;
    if (chance(pt, 5))
        n |= (rnd(pt) & UINT64_C(0xFE00000000000000)) | (rnd(pt) & 0x80);
    if (chance(pt, 5))
        n |= GMMU_PTE_TABLE_64K;
    return n;
}

static uint64_t attrs(struct pt *pt)
{
    uint64_t a = 0;
    if (chance(pt, 30))
        a |= GMMU_PTE_CACHE_COHERENT;
    if (chance(pt, 30))
        a |= GMMU_PTE_READ_ONLY;
    if (chance(pt, 30))
        a |= GMMU_PTE_NO_EXECUTE;
    return a;
}

static unsigned rand_seg(struct pt *pt)
{
    unsigned r = (unsigned)below(pt, 100);
    return r < 70 ? GMMU_SEGMENT_VRAM : r < 95 ? GMMU_SEGMENT_SYSTEM : (unsigned)below(pt, 32);
}

static unsigned bad_seg(struct pt *pt)
{
    unsigned s = (unsigned)below(pt, 31);
    return s >= GMMU_SEGMENT_VRAM ? s + 1 : s;
}

/* A word with VALID clear and anything else, holding a safe address. */
static uint64_t garbage_invalid(struct pt *pt)
{
    if (chance(pt, 50))
        return 0;
    return ((rnd(pt) &
             (GMMU_PTE_ZERO | GMMU_PTE_LARGE_PAGE | GMMU_PTE_PAGE_ATTRS | GMMU_PTE_SEGMENT)) |
            gmmu_pte_addr_bits(pt_safe_addr(pt))) &
           ~GMMU_PTE_VALID;
}

static uint64_t safe_ptr(struct pt *pt, uint64_t addr, unsigned seg)
{
    return GMMU_PTE_VALID | gmmu_pte_addr_bits(addr) | gmmu_pte_segment_bits(seg) | noise(pt);
}

static unsigned pick_index(struct pt *pt, unsigned level)
{
    if (chance(pt, 60))
        return pt->popular[level][below(pt, 4)];
    return (unsigned)below(pt, 512);
}

/* An index not used yet in this table (entries are never overwritten, so
 * every table stays reachable from exactly one entry). */
static unsigned fresh_index(struct pt *pt, unsigned level, const unsigned *used, unsigned n)
{
    for (;;) {
        unsigned idx = pick_index(pt, level), k;
        for (k = 0; k < n && used[k] != idx; k++)
            ;
        if (k == n)
            return idx;
    }
}

/* ------------------------------------------------------------ leaves */

static uint64_t gen_leaf(struct pt *pt)
{
    unsigned r = (unsigned)below(pt, 100);
    if (r < 80)
        return gmmu_pte_make_page(rnd(pt) & GMMU_PTE_ADDR, rand_seg(pt), attrs(pt)) | noise(pt);
    if (r < 86)
        return gmmu_pte_make_zero(attrs(pt)) | (rnd(pt) & (GMMU_PTE_ADDR | GMMU_PTE_LARGE_PAGE)) |
               noise(pt);
    if (r < 95)
        return rnd(pt) & ~GMMU_PTE_VALID;
    return gmmu_pte_make_large_page(rnd(pt) & GMMU_PTE_ADDR, rand_seg(pt), attrs(pt));
}

static uint64_t build_leaf4k(struct pt *pt, uint32_t asid, uint64_t va2m)
{
    uint64_t t = alloc(pt, GMMU_TABLE_BYTES, GMMU_TABLE_BYTES);
    unsigned n = pt->density ? 2 + (unsigned)below(pt, 5) : 16 + (unsigned)below(pt, 48);
    unsigned run = chance(pt, 30) ? (unsigned)below(pt, 512 - 16) : 512;
    for (unsigned k = 0; k < n; k++) {
        unsigned idx = (run < 512 && k < 16) ? run + k : (unsigned)below(pt, 512);
        uint64_t va = va2m | ((uint64_t)idx << GMMU_PAGE_SHIFT_4K);
        put(pt, t + idx * GMMU_PTE_BYTES, gen_leaf(pt));
        add_map(pt, asid, va, GMMU_PAGE_SHIFT_4K);
    }
    return t;
}

static uint64_t build_leaf64k(struct pt *pt, uint32_t asid, uint64_t va2m)
{
    if (pt->l64_used == 0 || pt->l64_used >= GMMU_TABLE_BYTES) {
        pt->l64_page = alloc(pt, GMMU_TABLE_BYTES, GMMU_TABLE_BYTES);
        pt->l64_used = 0;
    }
    uint64_t t = pt->l64_page + pt->l64_used;
    pt->l64_used += GMMU_LEAF64K_TABLE_BYTES;
    unsigned n = pt->density ? 1 + (unsigned)below(pt, 4) : 4 + (unsigned)below(pt, 20);
    for (unsigned k = 0; k < n; k++) {
        unsigned idx = (unsigned)below(pt, GMMU_LEAF64K_ENTRIES);
        put(pt, t + idx * GMMU_PTE_BYTES, gen_leaf(pt));
        add_map(pt, asid, va2m | ((uint64_t)idx << GMMU_PAGE_SHIFT_64K), GMMU_PAGE_SHIFT_64K);
    }
    return t;
}

/* ------------------------------------------------------------ level 1 */

static uint64_t gen_dual0(struct pt *pt, uint32_t asid, uint64_t va)
{
    unsigned r = (unsigned)below(pt, 100);
    if (r < 48 && !pt_full(pt))
        return gmmu_pte_make_table(build_leaf4k(pt, asid, va)) | noise(pt);
    if (r < 60)
        return gmmu_pte_make_large_page(pt_safe_addr(pt), rand_seg(pt), attrs(pt)) | noise(pt);
    if (r < 65)
        return gmmu_pte_make_zero(attrs(pt)) | gmmu_pte_addr_bits(pt_safe_addr(pt));
    if (r < 85)
        return garbage_invalid(pt);
    if (r < 90)
        return safe_ptr(pt, pt_safe_addr(pt), bad_seg(pt));
    if (r < 93)
        return safe_ptr(pt, pt->junk_lo + (below(pt, pt->junk_hi - pt->junk_lo) & ~UINT64_C(0xFFF)),
                        GMMU_SEGMENT_VRAM);
    if (r < 96)
        return safe_ptr(pt, pt->err_lo + (below(pt, pt->err_hi - pt->err_lo) & ~UINT64_C(0xFFF)),
                        GMMU_SEGMENT_VRAM);
    return safe_ptr(pt, (pt->ddr_size + below(pt, PA_LIMIT - pt->ddr_size)) & ~UINT64_C(0xFFF),
                    GMMU_SEGMENT_VRAM);
}

static uint64_t gen_dual1(struct pt *pt, uint32_t asid, uint64_t va)
{
    unsigned r = (unsigned)below(pt, 100);
    if (r < 42 && !pt_full(pt)) {
        uint64_t w = gmmu_pte_make_table(build_leaf64k(pt, asid, va)) | noise(pt);
        return chance(pt, 80) ? w | GMMU_PTE_TABLE_64K : w;
    }
    if (r < 75)
        return garbage_invalid(pt);
    if (r < 80)
        return gmmu_pte_make_zero(attrs(pt)) | gmmu_pte_addr_bits(pt_safe_addr(pt));
    if (r < 84)
        return gmmu_pte_make_large_page(pt_safe_addr(pt), GMMU_SEGMENT_VRAM, attrs(pt));
    if (r < 88)
        return safe_ptr(pt, pt_safe_addr(pt), bad_seg(pt));
    if (r < 92)
        return safe_ptr(pt, pt->junk_lo + (below(pt, pt->junk_hi - pt->junk_lo) & ~UINT64_C(0xFF)),
                        GMMU_SEGMENT_VRAM);
    if (r < 96)
        return safe_ptr(pt, pt->err_lo + (below(pt, pt->err_hi - pt->err_lo) & ~UINT64_C(0xFF)),
                        GMMU_SEGMENT_VRAM);
    return safe_ptr(pt, (pt->ddr_size + below(pt, PA_LIMIT - pt->ddr_size)) & ~UINT64_C(0xFF),
                    GMMU_SEGMENT_VRAM);
}

static uint64_t build_dual(struct pt *pt, uint32_t asid, uint64_t va_base)
{
    uint64_t t = alloc(pt, GMMU_L1_TABLE_BYTES, GMMU_L1_TABLE_BYTES);
    unsigned n = pt->density ? 1 + (unsigned)below(pt, 2) : 3 + (unsigned)below(pt, 6);
    unsigned used[8];
    for (unsigned k = 0; k < n; k++) {
        unsigned idx = used[k] = fresh_index(pt, 1, used, k);
        uint64_t va = va_base | ((uint64_t)idx << gmmu_level_shift(1));
        uint64_t a = t + (uint64_t)idx * GMMU_L1_ENTRY_WORDS * GMMU_PTE_BYTES;
        put(pt, a, gen_dual0(pt, asid, va));
        put(pt, a + GMMU_PTE_BYTES, gen_dual1(pt, asid, va));
        add_map(pt, asid, va, gmmu_level_shift(1));
    }
    return t;
}

/* ------------------------------------------------------------ levels >= 2 */

static uint64_t build_upper(struct pt *pt, uint32_t asid, unsigned level, uint64_t va_base);

static uint64_t gen_upper(struct pt *pt, uint32_t asid, unsigned level, uint64_t va)
{
    unsigned r = (unsigned)below(pt, 100);
    add_map(pt, asid, va, gmmu_level_shift(level));
    if (r < 66 && !pt_full(pt)) {
        uint64_t child =
            level - 1 >= 2 ? build_upper(pt, asid, level - 1, va) : build_dual(pt, asid, va);
        return gmmu_pte_make_table(child) | noise(pt);
    }
    if (r < 72)
        return garbage_invalid(pt);
    if (r < 78)
        return gmmu_pte_make_zero(attrs(pt)) | gmmu_pte_addr_bits(pt_safe_addr(pt)) | noise(pt);
    if (r < 86)
        return gmmu_pte_make_large_page(pt_safe_addr(pt), rand_seg(pt), attrs(pt)) | noise(pt);
    if (r < 91)
        return safe_ptr(pt, pt_safe_addr(pt), bad_seg(pt));
    if (r < 95)
        return safe_ptr(pt, pt->junk_lo + (below(pt, pt->junk_hi - pt->junk_lo) & ~UINT64_C(0xFFF)),
                        GMMU_SEGMENT_VRAM);
    if (r < 98)
        return safe_ptr(pt, (pt->ddr_size + below(pt, PA_LIMIT - pt->ddr_size)) & ~UINT64_C(0xFFF),
                        GMMU_SEGMENT_VRAM);
    return safe_ptr(pt, pt->err_lo + (below(pt, pt->err_hi - pt->err_lo) & ~UINT64_C(0xFFF)),
                    GMMU_SEGMENT_VRAM);
}

static uint64_t build_upper(struct pt *pt, uint32_t asid, unsigned level, uint64_t va_base)
{
    uint64_t t = alloc(pt, GMMU_TABLE_BYTES, GMMU_TABLE_BYTES);
    unsigned n = pt->density ? 1 + (unsigned)below(pt, 2) : 3 + (unsigned)below(pt, 3);
    unsigned used[8];
    for (unsigned k = 0; k < n; k++) {
        unsigned idx = used[k] = fresh_index(pt, level, used, k);
        uint64_t va = va_base | ((uint64_t)idx << gmmu_level_shift(level));
        put(pt, t + (uint64_t)idx * GMMU_PTE_BYTES, gen_upper(pt, asid, level, va));
    }
    return t;
}

uint64_t pt_build_root(struct pt *pt, uint32_t asid)
{
    unsigned root_level = pt->levels - 1;
    return root_level >= 2 ? build_upper(pt, asid, root_level, 0) : build_dual(pt, asid, 0);
}

/* ------------------------------------------------------------ set-up */

void pt_init(struct pt *pt, struct sparse_mem *mem, struct rng *rng, unsigned levels,
             uint64_t ddr_size, uint64_t table_lo, uint64_t table_hi)
{
    *pt = (struct pt){ 0 };
    pt->mem = mem;
    pt->rng = rng;
    pt->levels = levels;
    pt->ddr_size = ddr_size;
    pt->junk_lo = 0;
    pt->junk_hi = JUNK_BYTES;
    pt->err_lo = JUNK_BYTES;
    pt->err_hi = JUNK_BYTES + ERR_BYTES;
    pt->next = table_lo;
    pt->limit = table_hi;
    for (unsigned l = 0; l < 4; l++)
        for (unsigned i = 0; i < 4; i++)
            pt->popular[l][i] = i == 0 ? 0 : i == 1 ? 511 : (unsigned)below(pt, 512);
    for (uint64_t a = pt->junk_lo; a < pt->junk_hi; a += 8) {
        uint64_t w = rnd(pt) & (GMMU_PTE_VALID | GMMU_PTE_ZERO | GMMU_PTE_LARGE_PAGE |
                                GMMU_PTE_PAGE_ATTRS | GMMU_PTE_TABLE_64K);
        if (chance(pt, 30))
            w &= ~(GMMU_PTE_ZERO | GMMU_PTE_LARGE_PAGE);
        unsigned seg = chance(pt, 60) ? GMMU_SEGMENT_VRAM : (unsigned)below(pt, 32);
        put(pt, a, w | gmmu_pte_addr_bits(pt_safe_addr(pt)) | gmmu_pte_segment_bits(seg));
    }
}

void pt_fini(struct pt *pt)
{
    free(pt->maps);
}

/* ------------------------------------------------------------ walks and changes */

unsigned pt_path(const struct pt *pt, uint64_t root, uint64_t va, struct pt_step *steps)
{
    unsigned n = 0;
    uint64_t table = root, a, e, w0, w1;
#define IN_DDR(x) ((x) + 8 <= pt->ddr_size)
    for (unsigned level = pt->levels - 1; level >= 2; level--) {
        a = table + (uint64_t)gmmu_va_index(va, level) * GMMU_PTE_BYTES;
        steps[n++] = (struct pt_step){ PT_UPPER, level, a, gmmu_level_shift(level) };
        if (!IN_DDR(a))
            return n;
        e = sparse_mem_read_u64(pt->mem, a);
        if (!gmmu_pte_is_valid(e) || gmmu_pte_is_zero(e) || gmmu_pte_is_large_page(e) ||
            gmmu_pte_segment(e) != GMMU_SEGMENT_VRAM)
            return n;
        table = gmmu_pte_addr(e);
    }
    a = table + (uint64_t)gmmu_va_index(va, 1) * GMMU_L1_ENTRY_WORDS * GMMU_PTE_BYTES;
    steps[n++] = (struct pt_step){ PT_DUAL0, 1, a, gmmu_level_shift(1) };
    steps[n++] = (struct pt_step){ PT_DUAL1, 1, a + 8, gmmu_level_shift(1) };
    if (!IN_DDR(a + 8))
        return n;
    w0 = sparse_mem_read_u64(pt->mem, a);
    w1 = sparse_mem_read_u64(pt->mem, a + 8);
    if (gmmu_pte_is_valid(w0) && (gmmu_pte_is_zero(w0) || gmmu_pte_is_large_page(w0)))
        return n;
    if (gmmu_pte_is_valid(w0)) {
        if (gmmu_pte_segment(w0) != GMMU_SEGMENT_VRAM)
            return n;
        a = gmmu_pte_addr(w0) + (uint64_t)gmmu_va_index(va, 0) * GMMU_PTE_BYTES;
        steps[n++] = (struct pt_step){ PT_LEAF4K, 0, a, GMMU_PAGE_SHIFT_4K };
        if (!IN_DDR(a) || gmmu_pte_is_valid(sparse_mem_read_u64(pt->mem, a)))
            return n;
    }
    if (gmmu_pte_is_valid(w1) && !gmmu_pte_is_zero(w1) && !gmmu_pte_is_large_page(w1) &&
        gmmu_pte_segment(w1) == GMMU_SEGMENT_VRAM) {
        a = gmmu_pte_addr(w1) + (uint64_t)gmmu_va_index_64k(va) * GMMU_PTE_BYTES;
        steps[n++] = (struct pt_step){ PT_LEAF64K, 0, a, GMMU_PAGE_SHIFT_64K };
    }
#undef IN_DDR
    return n;
}

uint64_t pt_mutate(struct pt *pt, uint32_t asid, const struct pt_step *step, uint64_t va,
                   uint64_t old)
{
    uint64_t base = va & ~((UINT64_C(1) << step->shift) - 1);
    bool leaf = step->kind == PT_LEAF4K || step->kind == PT_LEAF64K;
    unsigned r = (unsigned)below(pt, 100);
    if (r < 25) {
        unsigned density = pt->density;
        bool no_maps = pt->no_maps;
        uint64_t w;
        pt->density = 1;
        pt->no_maps = true;
        switch (step->kind) {
        case PT_UPPER:
            w = gen_upper(pt, asid, step->level, base);
            break;
        case PT_DUAL0:
            w = gen_dual0(pt, asid, base);
            break;
        case PT_DUAL1:
            w = gen_dual1(pt, asid, base);
            break;
        default:
            w = gen_leaf(pt);
            break;
        }
        pt->density = density;
        pt->no_maps = no_maps;
        return w;
    }
    if (r < 40)
        return 0;
    if (r < 55)
        return old ^ GMMU_PTE_VALID;
    if (r < 65)
        return old ^ GMMU_PTE_ZERO;
    if (r < 75) {
        static const uint64_t bits[3] = { GMMU_PTE_READ_ONLY, GMMU_PTE_NO_EXECUTE,
                                          GMMU_PTE_CACHE_COHERENT };
        return old ^ bits[below(pt, 3)];
    }
    if (r < 85)
        return old ^ GMMU_PTE_LARGE_PAGE;
    if (r < 92)
        return (old & ~GMMU_PTE_SEGMENT) | gmmu_pte_segment_bits((unsigned)below(pt, 32));
    if (leaf)
        return (old & ~GMMU_PTE_ADDR) | (rnd(pt) & GMMU_PTE_ADDR);
    return old ^ GMMU_PTE_VALID;
}

uint64_t pt_random_va(struct pt *pt, uint32_t *asid, bool any_asid)
{
    if (!pt->n_maps)
        return 0;
    /* Mostly pages (leaf entries, 80% of them map something). */
    const struct pt_map *m = &pt->maps[below(pt, pt->n_maps)];
    for (unsigned i = 0; i < 6 && m->shift > GMMU_PAGE_SHIFT_64K && chance(pt, 85); i++)
        m = &pt->maps[below(pt, pt->n_maps)];
    if (any_asid)
        *asid = m->asid;
    unsigned shift = m->shift;
    uint64_t span = UINT64_C(1) << (shift > 24 ? 24 : shift);
    uint64_t off = below(pt, span);
    /* Within large ranges prefer a few pages, so they get reused. */
    if (shift > 16 && chance(pt, 70))
        off = (below(pt, 8) << GMMU_PAGE_SHIFT_4K) | (off & 0xFFF);
    return m->va + off;
}
