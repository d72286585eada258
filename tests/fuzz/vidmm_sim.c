// SPDX-License-Identifier: Apache-2.0
/*
 * Simulated VRAM and MMU for vidmm tests: see vidmm_sim.h.
 */
#include "vidmm_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POISON 0xA5A5A5A5A5A5A5A5ull /* VALID set: a dangling pointer shows */

static _Noreturn void die(const char *what, uint64_t value)
{
    fprintf(stderr, "vidmm_sim: %s (0x%llx)\n", what, (unsigned long long)value);
    abort();
}

static void *must_alloc(size_t bytes)
{
    void *p = calloc(1, bytes);

    if (!p)
        die("out of host memory", bytes);
    return p;
}

static void check_word(const struct vidmm_sim *s, uint64_t off)
{
    if (off % 8 || off > s->bytes - 8)
        die("VRAM word outside the segment or unaligned", off);
}

static uint64_t sim_read64(void *ctx, uint64_t off)
{
    struct vidmm_sim *s = ctx;
    uint64_t v;

    check_word(s, off);
    memcpy(&v, s->mem + off, 8);
    return s->failing ? 0 : v; /* ptm_hw.failed: reads as 0 once failed */
}

static void sim_write64(void *ctx, uint64_t off, uint64_t value)
{
    struct vidmm_sim *s = ctx;

    if (s->fail_at_write && !--s->fail_at_write)
        s->failing = true;
    if (s->failing) {
        s->dropped_writes++;
        return;
    }
    check_word(s, off);
    memcpy(s->mem + off, &value, 8);
    s->writes++;
}

static void sim_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sim_write64(ctx, off + 8 * i, words[i]);
}

static bool tlb_hit(const struct vidmm_sim_tlb *e, uint32_t asid, uint64_t start, uint64_t end)
{
    uint64_t va = e->va_page << 12;

    return e->valid && e->asid == asid && va >= start && va < end;
}

static void sim_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    struct vidmm_sim *s = ctx;

    if (asid >= s->hw_asids || start >= end)
        die("invalidate: bad id or empty range", asid);
    s->invalidations++;
    s->full_invalidations += start == 0 && end == UINT64_MAX;
    s->last_inv_asid = asid;
    s->last_inv_start = start;
    s->last_inv_end = end;
    for (unsigned i = 0; i < VIDMM_SIM_TLB_ENTRIES; i++)
        if (tlb_hit(&s->tlb[i], asid, start, end))
            s->tlb[i].valid = false;
}

static void sim_set_as(void *ctx, uint32_t asid, uint64_t root, bool valid)
{
    struct vidmm_sim *s = ctx;

    if (asid >= s->hw_asids)
        die("set_as: bad id", asid);
    s->as_table[asid].root = root;
    s->as_table[asid].valid = valid;
    s->set_as_calls++;
}

static void sim_table_freed(void *ctx, uint64_t off, uint64_t bytes)
{
    struct vidmm_sim *s = ctx;

    for (uint64_t i = 0; i < bytes; i += 8)
        if (sim_read64(s, off + i) & GMMU_PTE_VALID)
            die("freed table holds a valid word", off + i);
    for (uint64_t i = 0; i < bytes; i += 8)
        memcpy(s->mem + off + i, &(uint64_t){ POISON }, 8);
    s->tables_freed++;
}

/* Where (seg, addr) .. + bytes is in the simulated memories. */
static uint8_t *seg_ptr(const struct vidmm_sim *s, unsigned seg, uint64_t addr, uint64_t bytes)
{
    if (seg == GMMU_SEGMENT_VRAM) {
        if (addr > s->bytes || bytes > s->bytes - addr)
            die("copy outside VRAM", addr);
        return s->mem + addr;
    }
    if (seg != GMMU_SEGMENT_SYSTEM || addr < VIDMM_SIM_HOST_BASE ||
        addr - VIDMM_SIM_HOST_BASE > s->host_bytes ||
        bytes > s->host_bytes - (addr - VIDMM_SIM_HOST_BASE))
        die("copy outside host memory", addr);
    return s->host + (addr - VIDMM_SIM_HOST_BASE);
}

static bool sim_copy(void *ctx, unsigned dst_seg, uint64_t dst, unsigned src_seg, uint64_t src,
                     uint64_t bytes)
{
    struct vidmm_sim *s = ctx;
    uint8_t *to, *from;

    if ((dst | src | bytes) & 0xFFF || !bytes)
        die("copy not in whole pages", bytes);
    if ((dst_seg == GMMU_SEGMENT_SYSTEM && dst < s->gone_hi && s->gone_lo < dst + bytes) ||
        (src_seg == GMMU_SEGMENT_SYSTEM && src < s->gone_hi && s->gone_lo < src + bytes))
        return false;
    to = seg_ptr(s, dst_seg, dst, bytes);
    from = seg_ptr(s, src_seg, src, bytes);
    memmove(to, from, bytes);
    if (s->poison_moved && (from + bytes <= to || to + bytes <= from))
        for (uint64_t i = 0; i < bytes; i += 8)
            memcpy(from + i, &(uint64_t){ POISON }, 8);
    s->copies++;
    s->copy_bytes += bytes;
    return true;
}

/* The device reaches the host memory of vidmm_sim_host, nothing else. */
static bool sim_sys_reachable(void *ctx, uint64_t sys_addr)
{
    const struct vidmm_sim *s = ctx;

    return !(sys_addr >= s->gone_lo && sys_addr < s->gone_hi) && sys_addr >= VIDMM_SIM_HOST_BASE &&
           sys_addr - VIDMM_SIM_HOST_BASE < s->host_bytes &&
           s->host_bytes - (sys_addr - VIDMM_SIM_HOST_BASE) >= 8;
}

static bool sim_phys_busy(void *ctx, uint64_t offset, uint64_t bytes)
{
    const struct vidmm_sim *s = ctx;

    return offset < s->phys_hi && s->phys_lo < offset + bytes;
}

static bool sim_asid_busy(void *ctx, uint32_t asid)
{
    const struct vidmm_sim *s = ctx;

    return asid < 32 && (s->busy_asids >> asid) & 1;
}

static bool sim_va_in_use(void *ctx, uint32_t as_handle, uint32_t asid, uint64_t va, uint64_t bytes,
                          uint32_t after)
{
    struct vidmm_sim *s = ctx;

    (void)asid;
    s->in_use_after = after;
    for (uint32_t i = 0; i < s->in_use_n && i < 4; i++)
        if (s->in_use[i].as_handle == as_handle && bytes &&
            va < s->in_use[i].va + s->in_use[i].bytes && s->in_use[i].va < va + bytes)
            return true;
    return false;
}

uint64_t vidmm_sim_peek_seg(const struct vidmm_sim *s, unsigned seg, uint64_t addr)
{
    uint64_t v;

    memcpy(&v, seg_ptr(s, seg, addr, 8), 8);
    return v;
}

static void sim_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sim_write64(ctx, off + 8 * i, first + step * i);
}

static bool sim_failed(void *ctx)
{
    const struct vidmm_sim *s = ctx;

    return s->failing;
}

static bool sim_complete(void *ctx)
{
    struct vidmm_sim *s = ctx;

    if (s->failing) {
        s->failing = false;
        return false;
    }
    if (!s->fail_completes)
        return true;
    s->fail_completes--;
    return false;
}

void vidmm_sim_engine(struct vidmm_sim *s, bool on)
{
    s->engine = on;
    vidmm_sim_reset(s);
}

void vidmm_sim_poke_seg(struct vidmm_sim *s, unsigned seg, uint64_t addr, uint64_t value)
{
    memcpy(seg_ptr(s, seg, addr, 8), &value, 8);
}

void vidmm_sim_host(struct vidmm_sim *s, uint64_t bytes)
{
    free(s->host);
    s->host = must_alloc(bytes);
    s->host_bytes = bytes;
    vidmm_sim_reset(s);
}

static int ref_read(void *ctx, uint64_t off, uint64_t *value)
{
    const struct vidmm_sim *s = ctx;

    if (off % 8 || off > s->bytes - 8)
        return 1;
    memcpy(value, s->mem + off, 8);
    return 0;
}

static void sim_aperture_write(void *ctx, uint32_t page, uint64_t entry)
{
    struct vidmm_sim *s = ctx;

    if (page >= s->apt_pages)
        die("aperture entry out of the table", page);
    s->apt_table[page] = entry;
    s->apt_writes++;
    s->apt_last_write_seq = ++s->apt_seq;
}

static void sim_aperture_invalidate(void *ctx)
{
    struct vidmm_sim *s = ctx;

    s->apt_invalidations++;
    s->apt_last_inv_seq = ++s->apt_seq;
}

void vidmm_sim_aperture(struct vidmm_sim *s, uint32_t pages)
{
    free(s->apt_table);
    s->apt_table = pages ? must_alloc((size_t)pages * sizeof(uint64_t)) : NULL;
    s->apt_pages = pages;
    vidmm_sim_reset(s);
}

void vidmm_sim_init(struct vidmm_sim *s, uint64_t vram_bytes, uint32_t hw_asids,
                    uint32_t nodes_per_as)
{
    memset(s, 0, sizeof(*s));
    s->bytes = vram_bytes;
    s->hw_asids = hw_asids;
    s->nodes_per_as = nodes_per_as;
    s->mem = must_alloc(vram_bytes);
    s->meta = must_alloc(vram_alloc_metadata_bytes(vram_bytes));
    s->counts = must_alloc(PTM_COUNT_WORDS(vram_bytes) * sizeof(uint32_t));
    s->nodes = must_alloc((size_t)VIDMM_MAX_AS * nodes_per_as * sizeof(struct va_node));
    s->tables = must_alloc(sizeof(*s->tables));
    s->vm = must_alloc(sizeof(*s->vm));
    vidmm_sim_reset(s);
}

void vidmm_sim_reset(struct vidmm_sim *s)
{
    size_t meta = vram_alloc_metadata_bytes(s->bytes);
    struct vidmm_config cfg;
    struct vram_stats st;

    memset(s->mem, 0xA5, s->bytes);
    /* Garbage, as DDR would hold: ptmgr writes a count when it makes the
       table. */
    memset(s->counts, 0xA5, PTM_COUNT_WORDS(s->bytes) * sizeof(uint32_t));
    /* On the SoC the tables are DDR the self-test left its patterns in:
       vidmm_init must not count on zeros. */
    memset(s->tables, 0x5A, sizeof(*s->tables));
    memset(s->as_table, 0, sizeof(s->as_table));
    memset(s->tlb, 0, sizeof(s->tlb));
    s->tlb_next = 0;
    s->writes = s->invalidations = s->full_invalidations = 0;
    s->set_as_calls = s->tables_freed = 0;
    s->copies = s->copy_bytes = 0;
    if (vram_alloc_init(&s->vram, s->meta, meta, s->bytes) != VRAM_OK)
        die("vram_alloc_init", s->bytes);
    vram_alloc_stats(&s->vram, &st);
    s->start_free = st.free_bytes;
    s->hw = (struct vidmm_hw){
        .read64 = sim_read64,
        .write64 = sim_write64,
        .write_run = sim_write_run,
        .invalidate = sim_invalidate,
        .set_as = sim_set_as,
        .table_freed = sim_table_freed,
        .asid_busy = sim_asid_busy,
        .va_in_use = sim_va_in_use,
        .phys_busy = sim_phys_busy,
        .copy = s->host ? sim_copy : NULL,
        .sys_reachable = s->host ? sim_sys_reachable : NULL,
        .write_pattern = s->engine ? sim_write_pattern : NULL,
        .complete = s->engine ? sim_complete : NULL,
        .failed = s->engine ? sim_failed : NULL,
        .aperture_write = s->apt_pages ? sim_aperture_write : NULL,
        .aperture_invalidate = s->apt_pages ? sim_aperture_invalidate : NULL,
    };
    if (s->apt_pages)
        memset(s->apt_table, 0, (size_t)s->apt_pages * sizeof(uint64_t));
    s->apt_writes = s->apt_invalidations = s->apt_seq = 0;
    s->apt_last_write_seq = s->apt_last_inv_seq = 0;
    s->fail_completes = 0;
    s->in_use_n = 0;
    s->phys_lo = s->phys_hi = 0;
    s->fail_at_write = 0;
    s->failing = false;
    cfg = (struct vidmm_config){
        .hw = &s->hw,
        .hw_ctx = s,
        .vram = &s->vram,
        .table_counts = s->counts,
        .tables = s->tables,
        .va_nodes = s->nodes,
        .va_nodes_per_as = s->nodes_per_as,
        .hw_asids = s->hw_asids,
        .aperture_pages = s->apt_pages,
    };
    if (vidmm_init(s->vm, &cfg) != GMMU_STATUS_OK)
        die("vidmm_init", 0);
}

void vidmm_sim_fini(struct vidmm_sim *s)
{
    free(s->mem);
    free(s->host);
    free(s->meta);
    free(s->counts);
    free(s->nodes);
    free(s->tables);
    free(s->vm);
    free(s->apt_table);
    memset(s, 0, sizeof(*s));
}

uint64_t vidmm_sim_used(const struct vidmm_sim *s)
{
    struct vram_stats st;

    vram_alloc_stats(&s->vram, &st);
    return s->start_free - st.free_bytes;
}

bool vidmm_sim_accounting_ok(const struct vidmm_sim *s)
{
    uint32_t tables;
    uint64_t table_bytes;

    vidmm_table_usage(s->vm, &tables, &table_bytes);
    return vidmm_sim_used(s) == s->vm->alloc_vram_bytes + table_bytes;
}

void vidmm_sim_walk(const struct vidmm_sim *s, uint64_t root, uint64_t va, enum gmmu_access access,
                    struct gmmu_ref_result *out)
{
    const struct gmmu_ref_config cfg = { .levels = GMMU_LEVELS_DEFAULT };

    gmmu_ref_translate(&cfg, ref_read, (void *)s, true, root, va, access, out);
}

static void walk_asid(const struct vidmm_sim *s, uint32_t asid, uint64_t va,
                      struct gmmu_ref_result *out)
{
    const struct gmmu_ref_config cfg = { .levels = GMMU_LEVELS_DEFAULT };

    gmmu_ref_translate(&cfg, ref_read, (void *)s, s->as_table[asid].valid, s->as_table[asid].root,
                       va, GMMU_ACCESS_READ, out);
}

void vidmm_sim_access(struct vidmm_sim *s, uint32_t asid, uint64_t va, struct gmmu_ref_result *out)
{
    uint64_t page = va >> 12;
    struct vidmm_sim_tlb *e;

    if (asid >= s->hw_asids)
        die("access: bad id", asid);
    for (unsigned i = 0; i < VIDMM_SIM_TLB_ENTRIES; i++) {
        if (s->tlb[i].valid && s->tlb[i].asid == asid && s->tlb[i].va_page == page) {
            *out = s->tlb[i].result;
            return;
        }
    }
    walk_asid(s, asid, page << 12, out);
    if (out->fault != GMMU_FAULT_NONE)
        return; /* faults are not cached */
    e = &s->tlb[s->tlb_next++ % VIDMM_SIM_TLB_ENTRIES];
    *e = (struct vidmm_sim_tlb){ .valid = true, .asid = asid, .va_page = page, .result = *out };
}

static bool same_result(const struct gmmu_ref_result *a, const struct gmmu_ref_result *b)
{
    return a->fault == b->fault && a->zero == b->zero && a->pa == b->pa &&
           a->segment == b->segment && a->page_shift == b->page_shift &&
           a->cache_coherent == b->cache_coherent && a->read_only == b->read_only &&
           a->no_execute == b->no_execute;
}

unsigned vidmm_sim_tlb_stale(const struct vidmm_sim *s)
{
    unsigned stale = 0;

    for (unsigned i = 0; i < VIDMM_SIM_TLB_ENTRIES; i++) {
        const struct vidmm_sim_tlb *e = &s->tlb[i];
        struct gmmu_ref_result now;

        if (!e->valid)
            continue;
        walk_asid(s, e->asid, e->va_page << 12, &now);
        stale += !same_result(&now, &e->result);
    }
    return stale;
}

uint64_t vidmm_sim_peek(const struct vidmm_sim *s, uint64_t off)
{
    uint64_t v;

    check_word(s, off);
    memcpy(&v, s->mem + off, 8);
    return v;
}

void vidmm_sim_poke(struct vidmm_sim *s, uint64_t off, uint64_t value)
{
    check_word(s, off);
    memcpy(s->mem + off, &value, 8);
}
