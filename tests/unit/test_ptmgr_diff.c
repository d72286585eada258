// SPDX-License-Identifier: Apache-2.0
/*
 * Randomized differential test of the page-table manager.
 *
 * Random commands (map with random sizes, alignments, extents and allowed
 * page sizes; zero; unmap of partial ranges that split large pages;
 * protect; copy; batches; destroy and re-create) run on several address
 * spaces of different depths, some in VRAM segments so small that table
 * allocation fails often. A deliberately simple model, a hash map from
 * (address space, 4 KB VA page) to PA + segment + attributes + zero flag,
 * runs the same commands.
 *
 * After every command the reference walker (tests/model/gmmu_ref.c) reads
 * the built tables for the command's pages (all of them up to CHECK_ALL
 * pages, a sample beyond) and for random mapped pages, and must agree with
 * the model; a command that fails with PTM_ERR_NO_VRAM must leave the
 * model's view unchanged. VRAM accounting must equal what the managers
 * report, and after everything is destroyed it must be back where it
 * started. After every command each table covering the command's range
 * must hold as many valid words as the manager's count of it says
 * (ptm_count_check.h), whether the command succeeded, failed with
 * PTM_ERR_NO_VRAM or ran inside a batch; the audit checks every table's. The simulated hardware poisons freed tables, so a dangling
 * table pointer shows up as a wrong translation.
 *
 * PTMGR_DIFF_OPS and PTMGR_DIFF_SEED (environment) override the defaults.
 *
 * Built with PTMGR_DIFF_ENGINE (test ptmgr_diff_engine), every address
 * space writes its tables through the paging engine's queue
 * (firmware/lib/ptm_paging.c, firmware/lib/paging_queue.c), and the
 * packets are run by the engine's reference model (tests/paging/ref.c,
 * written from the packet definition) behind a model of its registers
 * (tests/unit/fake_paging) that runs a few packets only when the producer
 * polls: a table word read before the engine wrote it reads stale.
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

#include "gmmu_ref.h"
#include "ptm_count_check.h"
#include "ptmgr.h"
#include "vram_alloc.h"

#define KiB  1024ull
#define MiB  (1024ull * KiB)
#define GiB  (1024ull * MiB)
#define PAGE 4096ull
#define TOP  (1ull << 48)

#define DEFAULT_OPS  100000u
#define CHECK_ALL    2048u /* pages checked one by one per command */
#define CHECK_SAMPLE 1024u /* pages sampled beyond that */

/* ------------------------------------------------------------ random */

static uint64_t rng = 0x2545F4914F6CDD1Dull;
#include "test_rng.h"

/* ------------------------------------------------------------ simulated VRAM */

struct sim {
    const char *name;
    uint8_t *mem;
    uint64_t bytes;
    struct vram_alloc vram;
    uint32_t *meta;
    uint32_t *counts; /* the tables' valid-entry counts (ptm_config) */
    uint64_t start_free;
    /* Per address space (the segment is shared). */
    uint32_t invalidations[8];
    uint64_t inv_start[8], inv_end[8];
    bool clean_since_inv;
};

static uint64_t sim_read64(void *ctx, uint64_t off)
{
    struct sim *s = ctx;
    uint64_t v;

    if (off % 8 || off + 8 > s->bytes)
        fail_msg("read outside %s: 0x%llx", s->name, (unsigned long long)off);
    memcpy(&v, s->mem + off, 8);
    return v;
}

static void sim_write64(void *ctx, uint64_t off, uint64_t value)
{
    struct sim *s = ctx;

    if (off % 8 || off + 8 > s->bytes)
        fail_msg("write outside %s: 0x%llx", s->name, (unsigned long long)off);
    memcpy(s->mem + off, &value, 8);
    s->clean_since_inv = false;
}

static void sim_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sim_write64(ctx, off + 8 * i, words[i]);
}

static void sim_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    struct sim *s = ctx;

    assert_true(asid < 8);
    assert_true(start < end);
    s->invalidations[asid]++;
    s->inv_start[asid] = start;
    s->inv_end[asid] = end;
    s->clean_since_inv = true;
}

static void sim_table_freed(void *ctx, uint64_t off, uint64_t bytes)
{
    struct sim *s = ctx;

    assert_true(s->clean_since_inv);
    for (uint64_t i = 0; i < bytes; i += 8) {
        uint64_t w;

        memcpy(&w, s->mem + off + i, 8);
        if (w & GMMU_PTE_VALID)
            fail_msg("freed table 0x%llx holds a valid word at +0x%llx", (unsigned long long)off,
                     (unsigned long long)i);
    }
    memset(s->mem + off, 0xA5, bytes);
}

static const struct ptm_hw hw_runs = {
    .read64 = sim_read64,
    .write64 = sim_write64,
    .write_run = sim_write_run,
    .invalidate = sim_invalidate,
    .table_freed = sim_table_freed,
};

/* Without write_run: the word-by-word fallback. */
static const struct ptm_hw hw_words = {
    .read64 = sim_read64,
    .write64 = sim_write64,
    .invalidate = sim_invalidate,
    .table_freed = sim_table_freed,
};

static void sim_init(struct sim *s, const char *name, uint64_t bytes)
{
    size_t meta = vram_alloc_metadata_bytes(bytes);
    struct vram_stats st;

    memset(s, 0, sizeof(*s));
    s->name = name;
    s->bytes = bytes;
    s->mem = malloc(bytes);
    s->meta = malloc(meta);
    s->counts = malloc(PTM_COUNT_WORDS(bytes) * sizeof(uint32_t));
    assert_non_null(s->mem);
    assert_non_null(s->meta);
    assert_non_null(s->counts);
    memset(s->mem, 0xA5, bytes);
    /* Counts need no clearing: the manager writes one when it makes a
     * table. */
    memset(s->counts, 0xA5, PTM_COUNT_WORDS(bytes) * sizeof(uint32_t));
    assert_int_equal(vram_alloc_init(&s->vram, s->meta, meta, bytes), VRAM_OK);
    vram_alloc_stats(&s->vram, &st);
    s->start_free = st.free_bytes;
}

static uint64_t sim_used(const struct sim *s)
{
    struct vram_stats st;

    vram_alloc_stats(&s->vram, &st);
    return s->start_free - st.free_bytes;
}

static int walk_read(void *ctx, uint64_t off, uint64_t *value)
{
    struct sim *s = ctx;

    if (off % 8 || off + 8 > s->bytes)
        return 1;
    memcpy(value, s->mem + off, 8);
    return 0;
}

/* ------------------------------------------------------------ model */

/* Open addressing, linear probing, backward-shift deletion. A key is
 * (as << 40 | VA page) + 1, 0 marks a free slot. A value is the page's PA
 * with the segment, attributes and zero flag in its low 12 bits. */
#define MODEL_BITS  22
#define MODEL_SLOTS (1u << MODEL_BITS)
#define MODEL_MAX   (MODEL_SLOTS / 2)

#define VAL_ZERO       1ull
#define VAL_ATTR_SHIFT 1
#define VAL_SEG_SHIFT  4

struct slot {
    uint64_t key, val;
};

static struct slot *model;
static uint32_t model_count;

static uint64_t model_key(unsigned as, uint64_t va)
{
    return ((uint64_t)as << 40 | va >> 12) + 1;
}

static uint32_t model_home(uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - MODEL_BITS));
}

static struct slot *model_find(uint64_t key)
{
    for (uint32_t i = model_home(key);; i = (i + 1) & (MODEL_SLOTS - 1)) {
        if (model[i].key == key)
            return &model[i];
        if (!model[i].key)
            return NULL;
    }
}

static void model_set(unsigned as, uint64_t va, uint64_t val)
{
    uint64_t key = model_key(as, va);
    uint32_t i;

    for (i = model_home(key); model[i].key && model[i].key != key; i = (i + 1) & (MODEL_SLOTS - 1))
        ;
    if (!model[i].key) {
        assert_true(model_count < MODEL_MAX);
        model_count++;
    }
    model[i].key = key;
    model[i].val = val;
}

static void model_del(unsigned as, uint64_t va)
{
    uint64_t key = model_key(as, va);
    uint32_t i = model_home(key), j;

    while (model[i].key != key) {
        if (!model[i].key)
            return;
        i = (i + 1) & (MODEL_SLOTS - 1);
    }
    model_count--;
    /* Pull later entries of the probe run back over the hole. */
    for (j = (i + 1) & (MODEL_SLOTS - 1); model[j].key; j = (j + 1) & (MODEL_SLOTS - 1)) {
        uint32_t home = model_home(model[j].key);
        bool movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);

        if (movable) {
            model[i] = model[j];
            i = j;
        }
    }
    model[i].key = 0;
}

static bool model_get(unsigned as, uint64_t va, uint64_t *val)
{
    struct slot *s = model_find(model_key(as, va));

    if (s)
        *val = s->val;
    return s != NULL;
}

static uint64_t pack(uint64_t pa, unsigned seg, unsigned attrs, bool zero)
{
    return pa | (uint64_t)seg << VAL_SEG_SHIFT | (uint64_t)attrs << VAL_ATTR_SHIFT |
           (zero ? VAL_ZERO : 0);
}

static uint64_t val_with_attrs(uint64_t val, unsigned attrs)
{
    return (val & ~(7ull << VAL_ATTR_SHIFT)) | (uint64_t)attrs << VAL_ATTR_SHIFT;
}

/* ------------------------------------------------------------ address spaces */

struct space {
    const char *name;
    struct sim *sim;
    const struct ptm_hw *hw;
    unsigned levels;
    uint64_t lo, hi; /* VA window the commands use */
    struct ptm pm;
    bool live;
    unsigned batch; /* commands left in an open batch */
    uint32_t inv_at_batch;
};

static struct sim seg_big, seg_small, seg_tiny;

static struct space spaces[] = {
    { .name = "low", .sim = &seg_big, .hw = &hw_runs, .levels = 4, .lo = 0, .hi = 4 * GiB },
    { .name = "top", .sim = &seg_big, .hw = &hw_runs, .levels = 4, .lo = TOP - 4 * GiB, .hi = TOP },
    { .name = "l3",
      .sim = &seg_big,
      .hw = &hw_words,
      .levels = 3,
      .lo = 508 * GiB,
      .hi = 512 * GiB },
    { .name = "small",
      .sim = &seg_small,
      .hw = &hw_runs,
      .levels = 4,
      .lo = 510 * GiB,
      .hi = 514 * GiB },
    { .name = "tiny", .sim = &seg_tiny, .hw = &hw_words, .levels = 2, .lo = 0, .hi = GiB },
    { .name = "small2", .sim = &seg_small, .hw = &hw_runs, .levels = 4, .lo = 0, .hi = 2 * GiB },
};
#define SPACES (sizeof(spaces) / sizeof(spaces[0]))

#ifdef PTMGR_DIFF_ENGINE
static struct space *space_of_asid(uint32_t asid)
{
    assert_true(asid < SPACES);
    return &spaces[asid];
}

#include "fake_paging.h"
#include "paging_queue.h"
#include "ptm_paging.h"

/* The three segments side by side in the engine's one DDR. */
struct eng {
    struct ptm_paging pp;
    struct sim *s;
    uint64_t base;
};

static struct ref eng_model;
static struct pq eng_q;
static struct eng engs[3];

static uint64_t eng_cpu_read(void *ctx, uint64_t addr)
{
    struct eng *e = ctx;

    return sim_read64(e->s, addr - e->base);
}

static uint64_t eng_read64(void *ctx, uint64_t off)
{
    struct eng *e = ctx;

    return ptm_paging_read64(&e->pp, e->base + off);
}

static void eng_write64(void *ctx, uint64_t off, uint64_t value)
{
    struct eng *e = ctx;

    ptm_paging_write64(&e->pp, e->base + off, value);
}

static void eng_write_run(void *ctx, uint64_t off, const uint64_t *words, size_t n)
{
    struct eng *e = ctx;

    ptm_paging_write_run(&e->pp, e->base + off, words, n);
}

static void eng_write_pattern(void *ctx, uint64_t off, uint64_t first, uint64_t step, size_t n)
{
    struct eng *e = ctx;

    ptm_paging_write_pattern(&e->pp, e->base + off, first, step, n);
}

static void eng_invalidate(void *ctx, uint32_t asid, uint64_t start, uint64_t end)
{
    struct eng *e = ctx;

    assert_true(start < end);
    ptm_paging_flush(&e->pp, asid, start, end);
}

static bool eng_complete(void *ctx)
{
    struct eng *e = ctx;

    return ptm_paging_complete(&e->pp);
}

static void eng_table_freed(void *ctx, uint64_t off, uint64_t bytes)
{
    struct eng *e = ctx;

    sim_table_freed(e->s, off, bytes);
}

static const struct ptm_hw hw_engine = {
    .read64 = eng_read64,
    .write64 = eng_write64,
    .write_run = eng_write_run,
    .write_pattern = eng_write_pattern,
    .invalidate = eng_invalidate,
    .complete = eng_complete,
    .table_freed = eng_table_freed,
};

/* A packet ran in the model: its writes land in the segment's buffer, its
 * flush counts as the address space's invalidation. */
static void eng_after(void *ctx, const uint64_t *w)
{
    unsigned op = (unsigned)(w[0] & 0xFF);
    uint64_t n = w[0] >> 32;

    (void)ctx;
    if (op == GMMU_PAGING_OP_WRITE_PTES || op == GMMU_PAGING_OP_FILL) {
        for (unsigned k = 0; k < 3; k++) {
            struct eng *e = &engs[k];

            if (w[1] >= e->base && w[1] < e->base + e->s->bytes) {
                if (w[1] + 8 * n > e->base + e->s->bytes)
                    fail_msg("packet writes past %s", e->s->name);
                sparse_mem_read(eng_model.ddr, w[1], e->s->mem + (w[1] - e->base), 8 * n);
                e->s->clean_since_inv = false;
                return;
            }
        }
        fail_msg("packet writes outside every segment: 0x%llx", (unsigned long long)w[1]);
    }
    if (op == GMMU_PAGING_OP_FLUSH_TLB) {
        struct space *sp = space_of_asid((uint32_t)w[1]);
        struct sim *s = sp->sim;
        uint32_t asid = (uint32_t)w[1];

        s->invalidations[asid]++;
        if ((n & 3) == GMMU_PAGING_FLUSH_RANGE) {
            s->inv_start[asid] = w[2] & ~(PAGE - 1);
            s->inv_end[asid] = (w[3] | (PAGE - 1)) + 1;
        } else {
            s->inv_start[asid] = 0;
            s->inv_end[asid] = UINT64_MAX;
        }
        s->clean_since_inv = true;
    }
}

static struct eng *eng_of(struct sim *s)
{
    for (unsigned k = 0; k < 3; k++)
        if (engs[k].s == s)
            return &engs[k];
    fail_msg("no engine binding for %s", s->name);
    return NULL;
}

static void engine_setup(struct sim *big, struct sim *small, struct sim *tiny)
{
    struct sim *segs[3] = { big, small, tiny };
    uint64_t base = 0;

    for (unsigned k = 0; k < 3; k++) {
        engs[k].s = segs[k];
        engs[k].base = base;
        ptm_paging_init(&engs[k].pp, &eng_q, eng_cpu_read, NULL, &engs[k], TOP);
        base += segs[k]->bytes;
    }
    eng_model.cfg =
        (struct ref_cfg){ .queue_words = 512, .asid_bits = 6, .ddr_size = base, .sys_base = 0 };
    eng_model.ddr = sparse_mem_create(base);
    eng_model.sys = sparse_mem_create(MiB);
    fake_paging_reset(512, &eng_model, eng_after, NULL);
    fake_paging.max_step = 3;
    assert_int_equal(pq_init(&eng_q), PQ_OK);
}

/* Between commands everything queued runs, as it would soon on the SoC:
 * the checks read the tables directly. */
static void settle(void)
{
    pq_publish(&eng_q);
    fake_paging_drain();
}
#else
static void settle(void)
{
}
#endif

static void space_create(unsigned i)
{
    struct space *sp = &spaces[i];
    struct ptm_config cfg = {
        .hw = sp->hw,
        .hw_ctx = sp->sim,
        .vram = &sp->sim->vram,
        .table_counts = sp->sim->counts,
        .asid = i,
        .levels = sp->levels,
    };

#ifdef PTMGR_DIFF_ENGINE
    cfg.hw = &hw_engine;
    cfg.hw_ctx = eng_of(sp->sim);
#endif

    sp->live = ptm_init(&sp->pm, &cfg) == PTM_OK;
    sp->batch = 0;
}

/* Every model entry of space `as` goes. A full scan: used rarely. */
static void model_drop_space(unsigned as)
{
    for (uint32_t i = 0; i < MODEL_SLOTS;) {
        if (model[i].key && ((model[i].key - 1) >> 40) == as) {
            uint64_t page = (model[i].key - 1) & ((1ull << 40) - 1);

            model_del(as, page << 12);
            continue; /* the slot may now hold another entry */
        }
        i++;
    }
}

static void space_destroy(unsigned i)
{
    struct space *sp = &spaces[i];

    if (!sp->live)
        return;
    ptm_destroy(&sp->pm);
    sp->live = false;
    model_drop_space(i);
}

/* ------------------------------------------------------------ checks */

struct stats {
    uint64_t ops, ok, no_vram, align_err, checks, splits_seen, sweeps, count_checks;
    uint64_t by_kind[8];
};

static struct stats stats;

static void check_page(unsigned as, uint64_t va)
{
    struct space *sp = &spaces[as];
    struct gmmu_ref_config cfg = { .levels = sp->levels };
    struct gmmu_ref_result r;
    uint64_t val, off = below(PAGE) & ~7ull;
    bool have = model_get(as, va, &val);

    gmmu_ref_translate(&cfg, walk_read, sp->sim, true, ptm_root(&sp->pm), va + off,
                       GMMU_ACCESS_READ, &r);
    stats.checks++;
    if (!have) {
        if (r.fault != GMMU_FAULT_INVALID)
            fail_msg("%s va 0x%llx: fault %s, model says unmapped", sp->name,
                     (unsigned long long)va, gmmu_ref_fault_name(r.fault));
        return;
    }
    if (r.fault != GMMU_FAULT_NONE)
        fail_msg("%s va 0x%llx: fault %s, model says 0x%llx", sp->name, (unsigned long long)va,
                 gmmu_ref_fault_name(r.fault), (unsigned long long)val);
    {
        unsigned attrs = (r.read_only ? PTM_ATTR_READ_ONLY : 0) |
                         (r.no_execute ? PTM_ATTR_NO_EXECUTE : 0) |
                         (r.cache_coherent ? PTM_ATTR_CACHE_COHERENT : 0);
        uint64_t got = r.zero ? pack(0, 0, attrs, true) : pack(r.pa - off, r.segment, attrs, false);

        if (got != val || (!r.zero && (r.pa & (PAGE - 1)) != off))
            fail_msg("%s va 0x%llx: tables say 0x%llx (pa 0x%llx shift %u), model 0x%llx", sp->name,
                     (unsigned long long)va, (unsigned long long)got, (unsigned long long)r.pa,
                     r.page_shift, (unsigned long long)val);
        if (r.page_shift > 12 && !r.zero)
            stats.splits_seen++;
    }
}

/* The pages of [va, va + size): every one up to CHECK_ALL, else the ends,
 * every 2 MB boundary's neighbours and a random sample. */
static void check_range(unsigned as, uint64_t va, uint64_t size)
{
    uint64_t pages = size / PAGE;

    if (pages <= CHECK_ALL) {
        for (uint64_t p = 0; p < pages; p++)
            check_page(as, va + p * PAGE);
        return;
    }
    for (uint64_t p = 0; p < 64; p++) {
        check_page(as, va + p * PAGE);
        check_page(as, va + size - (p + 1) * PAGE);
    }
    for (uint64_t x = (va + 2 * MiB) & ~(2 * MiB - 1); x < va + size && x - va < 64 * 2 * MiB;
         x += 2 * MiB) {
        check_page(as, x - PAGE);
        check_page(as, x);
    }
    for (unsigned k = 0; k < CHECK_SAMPLE; k++)
        check_page(as, va + below(pages) * PAGE);
}

/* Random mapped pages anywhere, and random VAs of the window. */
static void check_random(void)
{
    for (unsigned k = 0; k < 16 && model_count; k++) {
        for (unsigned tries = 0; tries < 64; tries++) {
            struct slot *s = &model[below(MODEL_SLOTS)];
            unsigned as;

            if (!s->key)
                continue;
            as = (unsigned)((s->key - 1) >> 40);
            if (spaces[as].live)
                check_page(as, ((s->key - 1) & ((1ull << 40) - 1)) << 12);
            break;
        }
    }
    for (unsigned as = 0; as < SPACES; as++) {
        struct space *sp = &spaces[as];

        if (sp->live)
            check_page(as, sp->lo + below((sp->hi - sp->lo) / PAGE) * PAGE);
    }
}

/* What vram_alloc handed out equals what the managers say they hold. */
static void check_accounting(void)
{
    struct sim *segs[] = { &seg_big, &seg_small, &seg_tiny };

    for (unsigned k = 0; k < 3; k++) {
        uint64_t held = 0;

        for (unsigned as = 0; as < SPACES; as++) {
            struct ptm_usage u;

            if (spaces[as].sim != segs[k] || !spaces[as].live)
                continue;
            ptm_usage(&spaces[as].pm, &u);
            held += u.vram_bytes;
            assert_int_equal(spaces[as].pm.count_short, 0);
            assert_int_equal(spaces[as].pm.count_excess, 0);
        }
        if (held != sim_used(segs[k]))
            fail_msg("%s: %llu bytes used, managers hold %llu", segs[k]->name,
                     (unsigned long long)sim_used(segs[k]), (unsigned long long)held);
    }
}

/* ------------------------------------------------------------ table audit */

/*
 * Walk every table reachable from the root, independently of the
 * manager, and check its structure: no table but the root is empty (empty
 * tables are freed), a 2 MB page or zero word 0 leaves word 1 empty, the
 * 256-byte tables of one 32 MB window share one 4 KB block, no 64 KB chunk
 * is mapped both ways; and the tables counted match ptm_usage().
 */
struct audit {
    const struct space *sp;
    uint32_t upper, l1, leaf4k, leaf64k, slabs;
};

static uint64_t audit_word(const struct audit *a, uint64_t off)
{
    uint64_t w;

    assert_int_equal(walk_read(a->sp->sim, off, &w), 0);
    return w;
}

static bool audit_any_valid(const struct audit *a, uint64_t off, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        if (audit_word(a, off + 8 * i) & GMMU_PTE_VALID)
            return true;
    return false;
}

static uint64_t ptr_addr(uint64_t e)
{
    return e & GMMU_PTE_ADDR;
}

static void audit_dual_entry(struct audit *a, uint64_t w0, uint64_t w1)
{
    if ((w0 & GMMU_PTE_VALID) && !count_check_is_table(w0) && w1)
        fail_msg("%s: word 1 set under a terminal word 0", a->sp->name);
    if (count_check_is_table(w0)) {
        a->leaf4k++;
        if (!audit_any_valid(a, ptr_addr(w0), 512))
            fail_msg("%s: empty 4 KB leaf table", a->sp->name);
    }
    if (!w1)
        return;
    assert_true(count_check_is_table(w1));
    a->leaf64k++;
    if (!audit_any_valid(a, ptr_addr(w1), 32))
        fail_msg("%s: empty 64 KB leaf table", a->sp->name);
    for (unsigned c = 0; count_check_is_table(w0) && c < 32; c++)
        if ((audit_word(a, ptr_addr(w1) + 8 * c) & GMMU_PTE_VALID) &&
            audit_any_valid(a, ptr_addr(w0) + 128 * c, 16))
            fail_msg("%s: chunk %u mapped by 64 KB and 4 KB entries", a->sp->name, c);
}

static void audit_dual(struct audit *a, uint64_t off, bool root)
{
    a->l1++;
    if (!root && !audit_any_valid(a, off, 1024))
        fail_msg("%s: empty level-1 table", a->sp->name);
    for (unsigned w = 0; w < 32; w++) {
        uint64_t slab = UINT64_MAX;

        for (unsigned j = 0; j < 16; j++) {
            uint64_t e = off + 16 * (16 * w + j);
            uint64_t w0 = audit_word(a, e), w1 = audit_word(a, e + 8);

            audit_dual_entry(a, w0, w1);
            if (!w1)
                continue;
            if (slab == UINT64_MAX)
                slab = ptr_addr(w1) & ~4095ull;
            if (ptr_addr(w1) != slab + 256 * j)
                fail_msg("%s: 64 KB table of entry %u outside its window's slab", a->sp->name,
                         16 * w + j);
        }
        a->slabs += slab != UINT64_MAX;
    }
}

static void audit_table(struct audit *a, unsigned level, uint64_t off, bool root)
{
    if (level == 1) {
        audit_dual(a, off, root);
        return;
    }
    a->upper++;
    if (!root && !audit_any_valid(a, off, 512))
        fail_msg("%s: empty level-%u table", a->sp->name, level);
    for (unsigned i = 0; i < 512; i++) {
        uint64_t e = audit_word(a, off + 8 * i);

        if (count_check_is_table(e))
            audit_table(a, level - 1, ptr_addr(e), false);
    }
}

static void audit_space(unsigned as)
{
    struct audit a = { .sp = &spaces[as] };
    struct ptm_usage u;

    if (!spaces[as].live)
        return;
    audit_table(&a, spaces[as].levels - 1, ptm_root(&spaces[as].pm), true);
    ptm_usage(&spaces[as].pm, &u);
    assert_int_equal(a.upper, u.upper_tables);
    assert_int_equal(a.l1, u.l1_tables);
    assert_int_equal(a.leaf4k, u.leaf4k_tables);
    assert_int_equal(a.leaf64k, u.leaf64k_tables);
    assert_int_equal(a.slabs, u.slab_pages);
    stats.count_checks += check_table_counts(&spaces[as].pm, walk_read, spaces[as].sim, a.sp->name);
}

/* ------------------------------------------------------------ commands */

enum kind { K_MAP, K_EXTENTS, K_ZERO, K_UNMAP, K_PROTECT, K_COPY, K_KINDS };

static const uint64_t grains[] = { PAGE, 64 * KiB, 2 * MiB, GiB };

static unsigned random_attrs(void)
{
    return (unsigned)below(8);
}

/* A page-aligned VA range inside the window, biased to page-size
 * boundaries and to sizes around them. */
static void random_range(const struct space *sp, uint64_t *va, uint64_t *size)
{
    uint64_t span = sp->hi - sp->lo;
    unsigned g = chance(40) ? 0 : chance(55) ? 1 : chance(85) ? 2 : 3;
    uint64_t grain = grains[g];
    unsigned pick = (unsigned)below(100);

    *va = sp->lo + below(span / grain) * grain;
    if (chance(30))
        *va += below(grain / PAGE) * PAGE;
    if (pick < 45)
        *size = (1 + below(32)) * PAGE;
    else if (pick < 65)
        *size = (1 + below(600)) * PAGE;
    else if (pick < 80)
        *size = (1 + below(40)) * 64 * KiB;
    else if (pick < 98)
        *size = (1 + below(6)) * 2 * MiB;
    else if (pick < 99 || !chance(20))
        *size = (1 + below(3)) * 32 * MiB;
    else
        *size = GiB;
    if (chance(25))
        *size += below(16) * PAGE;
    if (chance(15) && *size > 16 * PAGE)
        *size -= below(16) * PAGE;
    if (*va < sp->lo + PAGE)
        *va = sp->lo + PAGE;
    if (*va >= sp->hi)
        *va = sp->hi - PAGE;
    if (*size > sp->hi - *va)
        *size = sp->hi - *va;
}

/* A PA for va that often shares its alignment, so large pages happen. */
static uint64_t random_pa(uint64_t va)
{
    uint64_t base = below(1ull << 28) << 12; /* below 1 TB */

    if (chance(65))
        return (base & ~(GiB - 1)) + (va & (GiB - 1));
    if (chance(50))
        return (base & ~(64 * KiB - 1)) + (va & (64 * KiB - 1));
    return base;
}

static unsigned random_pages(void)
{
    static const unsigned subsets[] = {
        PTM_PAGE_4K,
        PTM_PAGE_4K | PTM_PAGE_64K,
        PTM_PAGE_4K | PTM_PAGE_2M,
        PTM_PAGE_64K,
        PTM_PAGE_2M,
        PTM_PAGE_64K | PTM_PAGE_2M | PTM_PAGE_1G,
    };

    return chance(75) ? PTM_PAGE_ALL : subsets[below(6)];
}

static uint64_t smallest(unsigned pages, unsigned levels)
{
    if (levels == 2)
        pages &= ~PTM_PAGE_1G;
    for (unsigned k = 0; k < 4; k++)
        if (pages & (1u << k))
            return grains[k];
    return 0;
}

struct command {
    enum kind kind;
    unsigned as;
    uint64_t va, size, src;
    unsigned seg, attrs, pages;
    struct ptm_extent ext[4];
    size_t n_ext;
};

static enum ptm_status issue(struct command *c)
{
    struct ptm *pm = &spaces[c->as].pm;

    switch (c->kind) {
    case K_MAP:
        return ptm_map(pm, c->va, c->ext[0].pa, c->size, c->seg, c->attrs, c->pages);
    case K_EXTENTS:
        return ptm_map_extents(pm, c->va, c->ext, c->n_ext, c->seg, c->attrs, c->pages);
    case K_ZERO:
        return ptm_map_zero(pm, c->va, c->size, c->attrs);
    case K_UNMAP:
        return ptm_unmap(pm, c->va, c->size);
    case K_PROTECT:
        return ptm_protect(pm, c->va, c->size, c->attrs);
    case K_COPY:
        return ptm_copy(pm, c->src, c->va, c->size);
    case K_KINDS:
        break;
    }
    return PTM_ERR_INVALID;
}

/* The status the command must return unless VRAM runs out. */
static enum ptm_status expected_status(const struct command *c)
{
    uint64_t min;

    if (c->kind == K_COPY && c->src != c->va && c->src < c->va + c->size &&
        c->va < c->src + c->size)
        return PTM_ERR_OVERLAP;
    if (c->kind != K_MAP && c->kind != K_EXTENTS)
        return PTM_OK;
    min = smallest(c->pages, spaces[c->as].levels);
    if (!min)
        return PTM_ERR_INVALID;
    if (c->va % min)
        return PTM_ERR_ALIGN;
    for (size_t i = 0; i < c->n_ext; i++)
        if (c->ext[i].pa % min || c->ext[i].size % min)
            return PTM_ERR_ALIGN;
    return PTM_OK;
}

static void model_apply(const struct command *c)
{
    uint64_t pages = c->size / PAGE;

    switch (c->kind) {
    case K_MAP:
    case K_EXTENTS: {
        uint64_t va = c->va;

        for (size_t i = 0; i < c->n_ext; i++)
            for (uint64_t off = 0; off < c->ext[i].size; off += PAGE, va += PAGE)
                model_set(c->as, va, pack(c->ext[i].pa + off, c->seg, c->attrs, false));
        break;
    }
    case K_ZERO:
        for (uint64_t p = 0; p < pages; p++)
            model_set(c->as, c->va + p * PAGE, pack(0, 0, c->attrs, true));
        break;
    case K_UNMAP:
        for (uint64_t p = 0; p < pages; p++)
            model_del(c->as, c->va + p * PAGE);
        break;
    case K_PROTECT:
        for (uint64_t p = 0; p < pages; p++) {
            struct slot *s = model_find(model_key(c->as, c->va + p * PAGE));

            if (s)
                s->val = val_with_attrs(s->val, c->attrs);
        }
        break;
    case K_COPY:
        for (uint64_t p = 0; p < pages; p++) {
            uint64_t val;

            if (model_get(c->as, c->src + p * PAGE, &val))
                model_set(c->as, c->va + p * PAGE, val);
            else
                model_del(c->as, c->va + p * PAGE);
        }
        break;
    case K_KINDS:
        break;
    }
}

static void random_command(struct command *c, unsigned as)
{
    const struct space *sp = &spaces[as];
    unsigned pick = (unsigned)below(100);

    memset(c, 0, sizeof(*c));
    c->as = as;
    random_range(sp, &c->va, &c->size);
    c->attrs = random_attrs();
    c->seg = chance(50) ? 1 : (unsigned)below(32);
    c->pages = random_pages();
    /* Keep the model from growing without bound: sweep big ranges. */
    if (model_count > MODEL_MAX / 2 && chance(50)) {
        uint64_t sweep = (64 + below(960)) * MiB;

        stats.sweeps++;
        c->size = sweep < sp->hi - c->va ? sweep : sp->hi - c->va;
        pick = 50;
    }
    if (pick < 28) {
        c->kind = K_MAP;
        c->ext[0] = (struct ptm_extent){ random_pa(c->va), c->size };
        c->n_ext = 1;
    } else if (pick < 36) {
        uint64_t left = c->size, pa = random_pa(c->va);

        c->kind = K_EXTENTS;
        while (left) {
            uint64_t piece = c->n_ext == 3 ? left : (1 + below(left / PAGE)) * PAGE;

            if (c->n_ext < 3 && chance(30) && left >= 64 * KiB)
                piece = (left / (64 * KiB)) * 64 * KiB;
            c->ext[c->n_ext++] = (struct ptm_extent){ pa, piece };
            left -= piece;
            /* Contiguous or not. */
            pa = chance(30) ? pa + piece : random_pa(c->va + c->size - left);
        }
    } else if (pick < 44) {
        c->kind = K_ZERO;
    } else if (pick < 72) {
        c->kind = K_UNMAP;
    } else if (pick < 86) {
        c->kind = K_PROTECT;
    } else {
        c->kind = K_COPY;
        c->src = sp->lo + below((sp->hi - sp->lo - c->size) / PAGE + 1) * PAGE;
        if (chance(50)) {
            /* Near the destination, often sharing its 2 MB or 64 KB
             * alignment, sometimes overlapping (an error). */
            uint64_t shift = (chance(50) ? 2 * MiB : 64 * KiB) * (1 + below(8));

            if (chance(15))
                shift = below(c->size / PAGE + 1) * PAGE;
            if (c->va >= sp->lo + shift && chance(50))
                c->src = c->va - shift;
            else if (c->va + shift + c->size <= sp->hi)
                c->src = c->va + shift;
        }
        if (c->src < sp->lo + PAGE)
            c->src = sp->lo + PAGE;
    }
}

static void run_command(struct command *c)
{
    struct space *sp = &spaces[c->as];
    uint32_t *inv = &sp->sim->invalidations[c->as];
    uint32_t inv_before = *inv;
    enum ptm_status want = expected_status(c), got;

    got = issue(c);
    settle();
    stats.ops++;
    stats.by_kind[c->kind]++;
    if (got == PTM_ERR_NO_VRAM && want == PTM_OK) {
        stats.no_vram++;
        assert_int_equal(*inv, inv_before);
    } else {
        if (got != want)
            fail_msg("%s kind %d va 0x%llx size 0x%llx: status %s, want %s", sp->name, c->kind,
                     (unsigned long long)c->va, (unsigned long long)c->size, ptm_status_name(got),
                     ptm_status_name(want));
        if (got == PTM_OK) {
            stats.ok++;
            model_apply(c);
        } else {
            stats.align_err++;
        }
    }
    /* One invalidation per command, none inside a batch, covering the
     * command's range. */
    if (sp->batch) {
        assert_int_equal(*inv, inv_before);
    } else {
        assert_true(*inv - inv_before <= 1);
        if (*inv != inv_before)
            assert_true(sp->sim->inv_start[c->as] <= c->va &&
                        sp->sim->inv_end[c->as] >= c->va + c->size);
    }
    check_range(c->as, c->va, c->size);
    if (c->kind == K_COPY)
        check_range(c->as, c->src, c->size < 64 * PAGE ? c->size : 64 * PAGE);
    /* The tables the command may have written: those over its range (a
     * copy writes only its destination). */
    stats.count_checks +=
        check_table_counts_in(&sp->pm, walk_read, sp->sim, sp->name, c->va, c->va + c->size - 1);
}

/* ------------------------------------------------------------ the test */

static unsigned env_uint(const char *name, unsigned fallback)
{
    const char *v = getenv(name);

    return v && *v ? (unsigned)strtoul(v, NULL, 0) : fallback;
}

static void pick_space(unsigned *as)
{
    /* The small-segment spaces fail often; give the others more turns. */
    static const unsigned weights[SPACES] = { 30, 15, 20, 12, 13, 10 };
    unsigned x = (unsigned)below(100);

    for (*as = 0; *as < SPACES - 1 && x >= weights[*as]; (*as)++)
        x -= weights[*as];
}

static void batch_step(unsigned as)
{
    struct space *sp = &spaces[as];

    if (sp->batch && --sp->batch == 0) {
        ptm_batch_end(&sp->pm);
        assert_true(sp->sim->invalidations[as] - sp->inv_at_batch <= 1);
    } else if (!sp->batch && chance(3)) {
        sp->batch = 2 + (unsigned)below(6);
        sp->inv_at_batch = sp->sim->invalidations[as];
        ptm_batch_begin(&sp->pm);
    }
}

static void test_differential(void **state)
{
    unsigned ops = env_uint("PTMGR_DIFF_OPS", DEFAULT_OPS);

    (void)state;
    rng = env_uint("PTMGR_DIFF_SEED", 1) * 0x2545F4914F6CDD1Dull | 1;
    model = calloc(MODEL_SLOTS, sizeof(*model));
    assert_non_null(model);
    sim_init(&seg_big, "big", 64 * MiB);
    sim_init(&seg_small, "small", 160 * KiB);
    sim_init(&seg_tiny, "tiny", 48 * KiB);
#ifdef PTMGR_DIFF_ENGINE
    engine_setup(&seg_big, &seg_small, &seg_tiny);
#endif
    for (unsigned as = 0; as < SPACES; as++) {
        space_create(as);
        assert_true(spaces[as].live);
    }

    for (unsigned n = 0; n < ops; n++) {
        struct command c;
        unsigned as;

        pick_space(&as);
        if (!spaces[as].live) {
            space_create(as);
            continue;
        }
        if (n % 20000 == 19999 && !spaces[as].batch) {
            space_destroy(as);
            check_accounting();
            continue;
        }
        batch_step(as);
        random_command(&c, as);
        run_command(&c);
        check_random();
        check_accounting();
        if (n % 256 == 0)
            audit_space(as);
    }

    /* Everything the model knows, then tear down. */
    for (unsigned as = 0; as < SPACES; as++)
        audit_space(as);
    for (uint32_t i = 0; i < MODEL_SLOTS; i++) {
        unsigned as;

        if (!model[i].key)
            continue;
        as = (unsigned)((model[i].key - 1) >> 40);
        check_page(as, ((model[i].key - 1) & ((1ull << 40) - 1)) << 12);
    }
    for (unsigned as = 0; as < SPACES; as++) {
        if (spaces[as].batch)
            ptm_batch_end(&spaces[as].pm);
        space_destroy(as);
    }
    check_accounting();
    assert_int_equal(model_count, 0);
    assert_int_equal(sim_used(&seg_big), 0);
    assert_int_equal(sim_used(&seg_small), 0);
    assert_int_equal(sim_used(&seg_tiny), 0);

    printf("ptmgr_diff: %llu commands (%llu ok, %llu NO_VRAM, %llu rejected), "
           "%llu page checks, %llu through large pages, %llu table counts checked\n",
           (unsigned long long)stats.ops, (unsigned long long)stats.ok,
           (unsigned long long)stats.no_vram, (unsigned long long)stats.align_err,
           (unsigned long long)stats.checks, (unsigned long long)stats.splits_seen,
           (unsigned long long)stats.count_checks);
    printf("ptmgr_diff: map %llu, extents %llu, zero %llu, unmap %llu (%llu sweeps), "
           "protect %llu, copy %llu\n",
           (unsigned long long)stats.by_kind[K_MAP], (unsigned long long)stats.by_kind[K_EXTENTS],
           (unsigned long long)stats.by_kind[K_ZERO], (unsigned long long)stats.by_kind[K_UNMAP],
           (unsigned long long)stats.sweeps, (unsigned long long)stats.by_kind[K_PROTECT],
           (unsigned long long)stats.by_kind[K_COPY]);
    free(seg_big.mem);
    free(seg_big.meta);
    free(seg_big.counts);
    free(seg_small.mem);
    free(seg_small.meta);
    free(seg_small.counts);
    free(seg_tiny.mem);
    free(seg_tiny.meta);
    free(seg_tiny.counts);
    free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_differential),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
