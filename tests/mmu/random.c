// SPDX-License-Identifier: Apache-2.0
/*
 * Random test: random page tables in several address spaces, random
 * requests on every port, and random page-table changes made through the
 * documented protocol (change, invalidate, wait for DONE), with traffic
 * running all the time. Every response is checked against the model.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gmmu/mmu_regs.h"
#include "gmmu/pte_util.h"
#include "mmu_tests.h"
#include "pt.h"
#include "tb.h"

#define RECENT   32u
#define MAX_UNDO 8u
#define TABLE_LO (UINT64_C(1) << 20)
#define TABLE_HI (UINT64_C(768) << 20)

struct rgen {
    struct tb *tb;
    struct pt *pt;
    struct rng rng;
    unsigned n_asids;
    unsigned issue_pct;
    /* Focus: most requests go to one VA while its tables change, so walks
     * and lookups of it are in flight when the invalidation starts. */
    bool focus;
    uint32_t focus_asid;
    uint64_t focus_va;
    unsigned focus_shift;
    struct undo {
        uint32_t asid;
        unsigned shift;
        uint64_t addr, old, base;
    } undo[MAX_UNDO];
    unsigned n_undo;
    uint64_t root_a[TB_MAX_ASIDS], root_b[TB_MAX_ASIDS]; /* main and alternate tree */
    uint32_t recent_asid[DUT_MAX_PORTS][RECENT];
    uint64_t recent_va[DUT_MAX_PORTS][RECENT];
    unsigned recent_n[DUT_MAX_PORTS];
};

static const unsigned access_mix[10] = { 0, 0, 0, 0, 0, 0, 1, 1, 1, 2 };

static void remember(struct rgen *g, unsigned p, uint32_t asid, uint64_t va)
{
    unsigned i = g->recent_n[p] % RECENT;
    g->recent_asid[p][i] = asid;
    g->recent_va[p][i] = va;
    g->recent_n[p]++;
}

static void pick_recent(struct rgen *g, unsigned p, uint32_t *asid, uint64_t *va)
{
    unsigned q = rng_chance(&g->rng, 80) ? p : (unsigned)rng_below(&g->rng, g->tb->prm.ports);
    unsigned n = g->recent_n[q] < RECENT ? g->recent_n[q] : RECENT;
    if (!n) {
        *asid = 0;
        *va = 0;
        return;
    }
    unsigned i = (unsigned)rng_below(&g->rng, n);
    *asid = g->recent_asid[q][i];
    *va = g->recent_va[q][i];
}

static void gen(struct tb *tb, void *ctx)
{
    struct rgen *g = ctx;
    for (unsigned p = 0; p < tb->prm.ports; p++) {
        if (!tb_port_idle(tb, p) || !rng_chance(&g->rng, g->issue_pct))
            continue;
        uint32_t asid = (uint32_t)rng_below(&g->rng, g->n_asids);
        uint64_t va;
        unsigned r = (unsigned)rng_below(&g->rng, 100);
        if (g->focus && rng_chance(&g->rng, 60)) {
            unsigned shift = g->focus_shift > 16 ? 16 : g->focus_shift;
            asid = g->focus_asid;
            va = g->focus_va;
            unsigned k = (unsigned)rng_below(&g->rng, 100);
            if (k < 40)
                va =
                    (va & ~((UINT64_C(1) << shift) - 1)) | rng_below(&g->rng, UINT64_C(1) << shift);
            else if (k < 60) /* its 2 MB range: walks that share a dual entry run together */
                va = (va & ~UINT64_C(0x1FFFFF)) | rng_below(&g->rng, UINT64_C(0x200000));
            else
                va = (va & ~UINT64_C(0xFFF)) | rng_below(&g->rng, 0x1000);
        } else if (r < 55 && g->recent_n[p]) {
            pick_recent(g, p, &asid, &va);
            if (rng_chance(&g->rng, 50))
                va = (va & ~UINT64_C(0xFFF)) | rng_below(&g->rng, 0x1000);
            if (rng_chance(&g->rng, 5))
                asid = (uint32_t)rng_below(&g->rng, g->n_asids); /* same VA, other space */
        } else if (r < 92) {
            va = pt_random_va(g->pt, &asid, true);
            if (rng_chance(&g->rng, 15))
                asid = (uint32_t)rng_below(&g->rng, g->n_asids);
            remember(g, p, asid, va);
        } else if (r < 96) {
            va = rng_below(&g->rng, UINT64_C(1) << tb->va_bits);
        } else if (r < 98) {
            va = rng_next(&g->rng) |
                 (UINT64_C(1) << (tb->va_bits + rng_below(&g->rng, 64 - tb->va_bits)));
        } else {
            asid = (uint32_t)rng_below(&g->rng, 1u << tb->prm.asid_bits);
            va = pt_random_va(g->pt, &asid, false);
        }
        tb_present(tb, p, asid, va, access_mix[rng_below(&g->rng, 10)]);
    }
}

/* Requests accepted before the last DONE must be answered before the next
 * change, so that no answer can mix two changes. */
static void settle(struct tb *tb)
{
    uint64_t start = tb_now(tb);
    while (tb_pending_before_commit(tb)) {
        tb_cycle(tb);
        if (tb_now(tb) - start > 200000) {
            fprintf(stderr, "random: requests still unanswered %" PRIu64 " cycles after DONE\n",
                    tb_now(tb) - start);
            tb->mismatches++;
            return;
        }
    }
}

/* Pick an invalidation that covers a change of the VA range [base, base + 2^shift). */
static void invalidate_for(struct rgen *g, uint32_t asid, uint64_t base, unsigned shift,
                           bool any_range)
{
    struct tb *tb = g->tb;
    unsigned r = (unsigned)rng_below(&g->rng, 100);
    unsigned type = r < 15 ? GMMU_INV_ALL : r < 40 ? GMMU_INV_ASID : GMMU_INV_RANGE;
    uint64_t lo = base, hi = base + (UINT64_C(1) << shift) - 1;
    if (!any_range) {
        lo = 0;
        hi = rng_chance(&g->rng, 50) ? (UINT64_C(1) << tb->va_bits) - 1 : ~UINT64_C(0);
    } else if (rng_chance(&g->rng, 30)) {
        /* Wider than needed. */
        lo -= rng_below(&g->rng, lo + 1) & ~UINT64_C(0xFFF);
        hi += rng_below(&g->rng, UINT64_C(1) << 30);
    }
    tb_invalidate_start(tb, type, asid, lo, hi);
    if (rng_chance(&g->rng, 10)) /* a second command while the first may still run */
        tb_wb_write(tb, GMMU_MMU_INV_CMD, (unsigned)rng_below(&g->rng, 3));
    tb_wait_done(tb);
}

/* Undo the latest change still in place (a new version restoring the old
 * word), so the tables do not decay into faults over a long run. Changes
 * are undone last first, so the word still holds what the change wrote. */
static bool revert_table_word(struct rgen *g)
{
    struct tb *tb = g->tb;
    if (!g->n_undo)
        return false;
    const struct undo *u = &g->undo[--g->n_undo];
    tb_write_word(tb, u->addr, u->old);
    tb_run(tb, rng_below(&g->rng, 100));
    invalidate_for(g, u->asid, u->base, u->shift, true);
    settle(tb);
    return true;
}

static bool change_table_word(struct rgen *g)
{
    struct tb *tb = g->tb;
    struct pt_step steps[8];
    uint32_t asid;
    uint64_t va;
    /* Prefer a VA that translates now: its change is the one that matters. */
    for (unsigned i = 0; i < 6; i++) {
        struct gmmu_ref_result res;
        pick_recent(g, (unsigned)rng_below(&g->rng, tb->prm.ports), &asid, &va);
        if (asid >= g->n_asids || (va >> tb->va_bits))
            continue;
        tb_expect(tb, tb->n_changes, asid, va, GMMU_ACCESS_READ, &res);
        if (res.fault == GMMU_FAULT_NONE)
            break;
    }
    if (asid >= g->n_asids || !tb->as_valid[asid] || (va >> tb->va_bits))
        return false;
    unsigned n = pt_path(g->pt, tb->as_root[asid], va, steps);
    unsigned tries = 0;
    g->focus = rng_chance(&g->rng, 50);
    g->focus_asid = asid;
    g->focus_va = va;
    g->focus_shift = 12;
    if (g->focus)
        tb_run(tb, rng_below(&g->rng, 400));
    while (tries++ < 8 && n) {
        const struct pt_step *s = &steps[rng_below(&g->rng, n)];
        if (s->addr < TABLE_LO || s->addr + 8 > g->pt->next)
            continue; /* junk, error region or beyond: never changed */
        uint64_t old = sparse_mem_read_u64(tb->mem, s->addr);
        uint64_t w = pt_mutate(g->pt, asid, s, va, old);
        if (w == old)
            continue;
        g->focus_shift = s->shift;
        g->undo[g->n_undo++] =
            (struct undo){ asid, s->shift, s->addr, old, va & ~((UINT64_C(1) << s->shift) - 1) };
        tb_write_word(tb, s->addr, w);
        tb_run(tb, rng_chance(&g->rng, 30) ? rng_below(&g->rng, 8) : rng_below(&g->rng, 300));
        invalidate_for(g, asid, va & ~((UINT64_C(1) << s->shift) - 1), s->shift, true);
        settle(tb);
        g->focus = false;
        return true;
    }
    g->focus = false;
    return false;
}

/* An address space is switched off and on, or to its alternate (small)
 * tree and back, so most of the time it has its main tree. */
static void change_as(struct rgen *g)
{
    struct tb *tb = g->tb;
    uint32_t asid = (uint32_t)rng_below(&g->rng, g->n_asids);
    bool on_main = tb->as_root[asid] == g->root_a[asid];
    if (!tb->as_valid[asid] || (on_main && rng_chance(&g->rng, 30)))
        tb_set_as(tb, asid, !tb->as_valid[asid], tb->as_root[asid]);
    else
        tb_set_as(tb, asid, true, on_main ? g->root_b[asid] : g->root_a[asid]);
    tb_run(tb, rng_below(&g->rng, 200));
    invalidate_for(g, asid, 0, 0, false);
    settle(tb);
}

int mmu_test_random(const struct mmu_test_opts *o)
{
    static struct tb tbs;
    struct tb *tb = &tbs;
    struct pt pt;
    struct rgen g;
    static const unsigned latencies[8] = { 40, 40, 40, 40, 1, 7, 23, 97 };
    struct dut_config cfg = { 0 };
    cfg.ddr_latency = o->ddr_latency ? o->ddr_latency : latencies[o->seed % 8];
    cfg.trace_path = o->trace;
    if (!tb_init(tb, &cfg, o->seed))
        return 2;

    memset(&g, 0, sizeof g);
    g.tb = tb;
    g.pt = &pt;
    rng_seed(&g.rng, o->seed);
    g.n_asids = 6 + (unsigned)rng_below(&g.rng, 10);
    if (g.n_asids > (1u << tb->prm.asid_bits))
        g.n_asids = 1u << tb->prm.asid_bits;
    g.issue_pct = 30 + (unsigned)rng_below(&g.rng, 71);
    tb->rsp_ready_percent = rng_chance(&g.rng, 50) ? 100 : 60 + (unsigned)rng_below(&g.rng, 40);

    pt_init(&pt, tb->mem, &g.rng, tb->prm.levels, tb->ddr_size, TABLE_LO, TABLE_HI);
    tb_inject_error(tb, pt.err_lo, pt.err_hi);
    for (uint32_t a = 0; a < g.n_asids; a++) {
        g.root_a[a] = pt_build_root(&pt, a);
        pt.density = 1;
        pt.no_maps = true;
        g.root_b[a] = pt_build_root(&pt, a);
        pt.density = 0;
        pt.no_maps = false;
        tb_set_as(tb, a, !rng_chance(&g.rng, 10), g.root_a[a]);
    }
    tb->committed = tb->n_changes; /* nothing was in flight yet */

    printf("random: seed %" PRIu64
           ", %u ports, %u walkers, %u levels, DDR latency %u, %u address spaces, "
           "%u%% issue, %u%% ready, %" PRIu64 " tables, target %" PRIu64 " translations\n",
           o->seed, tb->prm.ports, tb->prm.walkers, tb->prm.levels, cfg.ddr_latency, g.n_asids,
           g.issue_pct, tb->rsp_ready_percent, pt.tables, o->count);
    fflush(stdout);

    clock_t t0 = clock();
    tb->gen = gen;
    tb->gen_ctx = &g;
    uint64_t next_report = o->count / 10;
    unsigned changes = 0, as_changes = 0, spurious = 0;
    while (tb->checked < o->count && tb->mismatches == 0) {
        tb_run(tb, 50 + rng_below(&g.rng, 1500));
        if (o->quiet && rng_chance(&g.rng, 30)) {
            /* Every request answered, then no request for a while: the
             * MMU goes idle, and what follows wakes it (clock gating). */
            if (!tb_drain(tb, 100000))
                break;
            tb->gen = NULL;
            tb_run(tb, 1 + rng_below(&g.rng, 200));
            tb->gen = gen;
        }
        unsigned r = (unsigned)rng_below(&g.rng, 100);
        if (o->no_changes && r < 52)
            r = 99;
        if (r < 25 && g.n_undo < MAX_UNDO) {
            changes += change_table_word(&g);
        } else if (r < 44) {
            changes += revert_table_word(&g);
        } else if (r < 47) {
            change_as(&g);
            as_changes++;
        } else if (r < 52) {
            unsigned type = (unsigned)rng_below(&g.rng, 3);
            uint64_t lo = rng_below(&g.rng, UINT64_C(1) << tb->va_bits);
            tb_invalidate(tb, type, (unsigned)rng_below(&g.rng, g.n_asids), lo,
                          lo + rng_below(&g.rng, UINT64_C(1) << 32));
            spurious++;
        } else if (r < 62) {
            tb_faults_drain(tb, 1 + (unsigned)rng_below(&g.rng, 8));
        }
        if (tb->checked >= next_report && o->count >= 1000000) {
            printf("  %" PRIu64 " checked, %" PRIu64 " cycles\n", tb->checked, tb_now(tb));
            fflush(stdout);
            next_report += o->count / 10;
        }
    }
    tb->gen = NULL;
    bool ok = tb_drain(tb, 100000);
    if (!ok)
        fprintf(stderr, "random: %u requests never answered\n", tb_outstanding(tb));
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    ok = mmu_check_counters(tb) && ok;
    ok = tb_faults_check(tb) && ok;
    printf("changes: %u table words, %u address-space entries, %u other invalidations\n", changes,
           as_changes, spurious);
    tb_print_stats(tb, secs);
    ok = ok && tb->mismatches == 0 && tb->checked >= o->count;
    printf("random: %s\n", ok ? "PASS" : "FAIL");
    pt_fini(&pt);
    tb_fini(tb);
    return ok ? 0 : 1;
}
