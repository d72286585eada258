// SPDX-License-Identifier: Apache-2.0
/* MMU testbench core; see tb.h. */
#include "tb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/mmu_regs.h"
#include "gmmu/pte_util.h"
#include "gmmu/soc.h"

#define WB_TIMEOUT_CYCLES 100000u

/* ------------------------------------------------------------ fault queues */

static void fq_push(struct tb_fault_q *q, const struct tb_fault *f)
{
    if (q->n == q->cap) {
        unsigned cap = q->cap ? q->cap * 2 : 64;
        struct tb_fault *v = malloc(sizeof *v * cap);
        if (!v) {
            fprintf(stderr, "tb: out of memory\n");
            exit(2);
        }
        for (unsigned i = 0; i < q->n; i++)
            v[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = v;
        q->head = 0;
        q->cap = cap;
    }
    q->v[(q->head + q->n) % q->cap] = *f;
    q->n++;
}

static const struct tb_fault *fq_head(const struct tb_fault_q *q)
{
    return &q->v[q->head];
}

static void fq_pop(struct tb_fault_q *q)
{
    q->head = (q->head + 1) % q->cap;
    q->n--;
}

static bool fault_eq(const struct tb_fault *a, const struct tb_fault *b)
{
    return a->tag == b->tag && a->asid == b->asid && a->access == b->access &&
           a->reason == b->reason && a->va == b->va;
}

/* Records leave the FIFO in the order the port answered with faults, so a
 * seen fault that does not match the next record was dropped (overflow). */
static void fault_match(struct tb *tb, unsigned port)
{
    struct tb_fault_q *s = &tb->seen[port], *r = &tb->recs[port];
    while (s->n && r->n) {
        if (!fault_eq(fq_head(s), fq_head(r)))
            tb->faults_dropped++;
        else
            fq_pop(r);
        fq_pop(s);
    }
}

/* ------------------------------------------------------------ model view */

struct overlay {
    struct tb *tb;
    unsigned version;
};

static int overlay_read64(void *ctx, uint64_t off, uint64_t *value)
{
    const struct overlay *o = ctx;
    const struct tb *tb = o->tb;
    if (off + 8 > tb->ddr_size)
        return 1;
    for (unsigned i = 0; i < tb->n_err; i++) {
        if (off < tb->err_hi[i] && off + 8 > tb->err_lo[i])
            return 1;
    }
    uint64_t v = sparse_mem_read_u64(tb->mem, off);
    for (unsigned i = tb->n_changes; i > o->version; i--) {
        const struct tb_change *c = &tb->changes[i - 1];
        if (!c->is_as && c->addr == off)
            v = c->old_val;
    }
    *value = v;
    return 0;
}

void tb_expect(struct tb *tb, unsigned version, uint32_t asid, uint64_t va, unsigned access,
               struct gmmu_ref_result *out)
{
    struct overlay o = { tb, version };
    bool valid = false;
    uint64_t root = 0;
    if (asid < (1u << tb->prm.asid_bits)) {
        valid = tb->as_valid[asid];
        root = tb->as_root[asid];
        for (unsigned i = tb->n_changes; i > version; i--) {
            const struct tb_change *c = &tb->changes[i - 1];
            if (c->is_as && c->addr == asid) {
                valid = c->old_val & 1;
                root = c->old_val & ~UINT64_C(0xFFF);
            }
        }
    }
    gmmu_ref_translate(&tb->ref, overlay_read64, &o, valid, root, va, (enum gmmu_access)access,
                       out);
}

unsigned tb_psize_of_shift(unsigned shift)
{
    switch (shift) {
    case 12:
        return GMMU_PSIZE_4K;
    case 16:
        return GMMU_PSIZE_64K;
    case 21:
        return GMMU_PSIZE_2M;
    case 30:
        return GMMU_PSIZE_1G;
    case 39:
        return GMMU_PSIZE_512G;
    }
    return 7;
}

static bool rsp_matches(const struct dut_rsp *r, const struct gmmu_ref_result *e)
{
    if (r->fault != (unsigned)e->fault)
        return false;
    if (e->fault != GMMU_FAULT_NONE)
        return !r->zero && !r->pa && !r->seg && !r->cc && !r->ro && !r->nx && !r->psize;
    return r->zero == e->zero && r->pa == e->pa && r->seg == e->segment &&
           r->psize == tb_psize_of_shift(e->page_shift) && r->cc == e->cache_coherent &&
           r->ro == e->read_only && r->nx == e->no_execute;
}

static void print_rsp(const char *what, const struct dut_rsp *r)
{
    fprintf(stderr,
            "  %s: fault %s zero %u pa 0x%013" PRIx64 " seg %u psize %s cc %u ro %u nx %u\n", what,
            gmmu_ref_fault_name((enum gmmu_fault)r->fault), r->zero, r->pa, r->seg,
            gmmu_psize_name(r->psize) ? gmmu_psize_name(r->psize) : "?", r->cc, r->ro, r->nx);
}

static void print_exp(unsigned version, const struct gmmu_ref_result *e)
{
    fprintf(stderr,
            "  model v%u: fault %s zero %u pa 0x%013" PRIx64 " seg %u shift %u cc %u ro %u nx %u"
            " (level %u, %u reads)\n",
            version, gmmu_ref_fault_name(e->fault), e->zero, e->pa, e->segment, e->page_shift,
            e->cache_coherent, e->read_only, e->no_execute, e->level, e->reads);
}

static void handle_rsp(struct tb *tb, unsigned port, const struct dut_rsp *r)
{
    struct tb_pending *pd = &tb->pend[port][r->tag];
    if (!pd->used) {
        fprintf(stderr,
                "tb: cycle %" PRIu64 ": port %u: response with tag %u that is not in flight\n",
                tb_now(tb), port, r->tag);
        tb->mismatches++;
        return;
    }
    if (tb->check) {
        struct gmmu_ref_result e;
        bool ok = false;
        for (unsigned v = pd->min_version; v <= tb->n_changes && !ok; v++) {
            tb_expect(tb, v, pd->asid, pd->va, pd->access, &e);
            ok = rsp_matches(r, &e);
        }
        if (tb->n_changes > pd->min_version)
            tb->multi_version++;
        tb->checked++;
        if (!ok) {
            tb->mismatches++;
            if (tb->max_mismatch_reports) {
                tb->max_mismatch_reports--;
                fprintf(stderr,
                        "MISMATCH cycle %" PRIu64 " port %u tag %u: asid %u va 0x%" PRIx64
                        " access %u accepted at %" PRIu64 " (versions %u..%u)\n",
                        tb_now(tb), port, r->tag, pd->asid, pd->va, pd->access, pd->accept_cycle,
                        pd->min_version, tb->n_changes);
                print_rsp("dut", r);
                for (unsigned v = pd->min_version; v <= tb->n_changes; v++) {
                    tb_expect(tb, v, pd->asid, pd->va, pd->access, &e);
                    print_exp(v, &e);
                }
            }
        }
    }
    tb->responses[port]++;
    tb->by_fault[r->fault & 7]++;
    if (r->fault == GMMU_FAULT_NONE) {
        tb->by_psize[r->psize & 7]++;
        tb->zero_rsps += r->zero;
    }
    if (r->fault != GMMU_FAULT_NONE) {
        struct tb_fault f = { r->tag, pd->asid, pd->access, r->fault, pd->va };
        tb->fault_rsps[port]++;
        fq_push(&tb->seen[port], &f);
        fault_match(tb, port);
    }
    if (tb->on_rsp)
        tb->on_rsp(tb, port, r, pd, tb->rsp_ctx);
    pd->used = false;
    tb->outstanding[port]--;
}

/* ------------------------------------------------------------ cycles */

static bool rsp_same(const struct dut_rsp *a, const struct dut_rsp *b)
{
    return a->valid == b->valid && a->fault == b->fault && a->zero == b->zero && a->seg == b->seg &&
           a->cc == b->cc && a->ro == b->ro && a->nx == b->nx && a->psize == b->psize &&
           a->tag == b->tag && a->pa == b->pa;
}

/* Valid/ready: a response offered and not taken stays offered, unchanged. */
static void check_rsp_held(struct tb *tb, unsigned port)
{
    const struct dut_rsp *r = &tb->io.rsp[port];
    if (tb->rsp_waiting[port] && !rsp_same(r, &tb->rsp_offered[port])) {
        fprintf(
            stderr,
            "tb: port %u: response (tag %u) withdrawn or changed before it was taken, cycle %" PRIu64
            "\n",
            port, tb->rsp_offered[port].tag, tb_now(tb));
        exit(2);
    }
    tb->rsp_waiting[port] = r->valid && !tb->io.rsp_ready[port];
    tb->rsp_offered[port] = *r;
}

uint64_t tb_now(const struct tb *tb)
{
    return dut_cycle(tb->dut);
}

void tb_cycle(struct tb *tb)
{
    struct dut_io *io = &tb->io;
    if (tb->gen)
        tb->gen(tb, tb->gen_ctx);
    for (unsigned p = 0; p < tb->prm.ports; p++)
        io->rsp_ready[p] = rng_chance(&tb->rng, tb->rsp_ready_percent);

    dut_eval(tb->dut, io);

    for (unsigned p = 0; p < tb->prm.ports; p++) {
        struct dut_req *q = &io->req[p];
        if (q->valid && io->req_ready[p]) {
            struct tb_pending *pd = &tb->pend[p][q->tag];
            if (pd->used) {
                fprintf(stderr, "tb: port %u: tag %u reused while in flight\n", p, q->tag);
                exit(2);
            }
            pd->used = true;
            pd->asid = q->asid;
            pd->va = q->va;
            pd->access = q->access;
            pd->accept_cycle = tb_now(tb);
            pd->min_version = tb->committed;
            tb->outstanding[p]++;
            tb->accepted[p]++;
            q->valid = 0;
        }
        check_rsp_held(tb, p);
        if (io->rsp[p].valid && io->rsp_ready[p])
            handle_rsp(tb, p, &io->rsp[p]);
    }
    if (tb->wb_busy && io->wb_ack) {
        tb->wb_rdata = io->wb_dat;
        tb->wb_done = true;
        tb->wb_busy = false;
        io->wb.cyc = io->wb.stb = io->wb.we = 0;
    }
    dut_tick(tb->dut);
}

void tb_run(struct tb *tb, uint64_t cycles)
{
    for (uint64_t i = 0; i < cycles; i++)
        tb_cycle(tb);
}

/* ------------------------------------------------------------ registers */

static void wb_access(struct tb *tb, uint32_t off, bool we, uint32_t value)
{
    struct dut_io *io = &tb->io;
    io->wb.cyc = io->wb.stb = 1;
    io->wb.we = we;
    io->wb.adr = (GMMU_MMU_BASE + off) >> 2;
    io->wb.dat = value;
    tb->wb_busy = true;
    tb->wb_done = false;
    for (unsigned i = 0; !tb->wb_done; i++) {
        if (i > WB_TIMEOUT_CYCLES) {
            fprintf(stderr, "tb: Wishbone access to 0x%04x not acknowledged\n", off);
            exit(2);
        }
        tb_cycle(tb);
    }
}

void tb_wb_write(struct tb *tb, uint32_t off, uint32_t value)
{
    wb_access(tb, off, true, value);
}

uint32_t tb_wb_read(struct tb *tb, uint32_t off)
{
    wb_access(tb, off, false, 0);
    return tb->wb_rdata;
}

static bool debug_on(void)
{
    static int on = -1;
    if (on < 0)
        on = getenv("MMU_TB_DEBUG") != NULL;
    return on;
}

static void add_change(struct tb *tb, bool is_as, uint64_t addr, uint64_t old_val)
{
    if (debug_on())
        fprintf(stderr, "[%" PRIu64 "] change v%u -> v%u: %s 0x%" PRIx64 " old 0x%016" PRIx64 "\n",
                tb_now(tb), tb->n_changes, tb->n_changes + 1, is_as ? "AS" : "word", addr, old_val);
    if (tb->n_changes == tb->cap_changes) {
        unsigned cap = tb->cap_changes ? tb->cap_changes * 2 : 1024;
        struct tb_change *c = realloc(tb->changes, sizeof *c * cap);
        if (!c) {
            fprintf(stderr, "tb: out of memory\n");
            exit(2);
        }
        tb->changes = c;
        tb->cap_changes = cap;
    }
    tb->changes[tb->n_changes++] = (struct tb_change){ is_as, addr, old_val };
}

void tb_set_as(struct tb *tb, unsigned asid, bool valid, uint64_t root)
{
    if (root >> 32) {
        fprintf(stderr, "tb: roots above 4 GiB are not supported by the testbench\n");
        exit(2);
    }
    add_change(tb, true, asid, tb->as_root[asid] | (tb->as_valid[asid] ? 1u : 0u));
    tb->as_valid[asid] = valid;
    tb->as_root[asid] = root & ~UINT64_C(0xFFF);
    uint32_t off = GMMU_MMU_AS_ROOT_LO + asid * GMMU_AS_STRIDE;
    tb_wb_write(tb, off + 4, 0);
    tb_wb_write(tb, off, (uint32_t)(root & 0xFFFFF000u) | (valid ? 1u : 0u));
}

void tb_write_word(struct tb *tb, uint64_t addr, uint64_t value)
{
    add_change(tb, false, addr, sparse_mem_read_u64(tb->mem, addr));
    sparse_mem_write_u64(tb->mem, addr, value);
}

bool tb_inject_error(struct tb *tb, uint64_t lo, uint64_t hi)
{
    if (tb->n_err == TB_MAX_ERR || !ddr_model_inject_read_error(tb->ddr, lo, hi))
        return false;
    tb->err_lo[tb->n_err] = lo;
    tb->err_hi[tb->n_err] = hi;
    tb->n_err++;
    return true;
}

static unsigned inv_snapshot;

void tb_invalidate_start(struct tb *tb, unsigned type, unsigned asid, uint64_t va_start,
                         uint64_t va_end)
{
    inv_snapshot = tb->n_changes;
    if (debug_on())
        fprintf(stderr, "[%" PRIu64 "] invalidate type %u asid %u 0x%" PRIx64 "..0x%" PRIx64 "\n",
                tb_now(tb), type, asid, va_start, va_end);
    if (type != GMMU_INV_ALL)
        tb_wb_write(tb, GMMU_MMU_INV_ASID, asid);
    if (type == GMMU_INV_RANGE) {
        tb_wb_write(tb, GMMU_MMU_INV_START_LO, (uint32_t)va_start);
        tb_wb_write(tb, GMMU_MMU_INV_START_HI, (uint32_t)(va_start >> 32));
        tb_wb_write(tb, GMMU_MMU_INV_END_LO, (uint32_t)va_end);
        tb_wb_write(tb, GMMU_MMU_INV_END_HI, (uint32_t)(va_end >> 32));
    }
    tb_wb_write(tb, GMMU_MMU_INV_CMD, type);
}

uint64_t tb_wait_done(struct tb *tb)
{
    uint64_t start = tb_now(tb);
    unsigned snap = inv_snapshot;
    while (!(tb_wb_read(tb, GMMU_MMU_INV_STATUS) & GMMU_MMU_INV_STATUS_DONE)) {
        if (tb_now(tb) - start > 1000000) {
            fprintf(stderr, "tb: INV_STATUS.DONE never rose\n");
            exit(2);
        }
    }
    if (snap > tb->committed)
        tb->committed = snap;
    if (debug_on())
        fprintf(stderr, "[%" PRIu64 "] done, committed v%u\n", tb_now(tb), tb->committed);
    return tb_now(tb) - start;
}

uint64_t tb_invalidate(struct tb *tb, unsigned type, unsigned asid, uint64_t va_start,
                       uint64_t va_end)
{
    uint64_t start = tb_now(tb);
    tb_invalidate_start(tb, type, asid, va_start, va_end);
    tb_wait_done(tb);
    return tb_now(tb) - start;
}

unsigned tb_pending_before_commit(const struct tb *tb)
{
    unsigned n = 0;
    for (unsigned p = 0; p < tb->prm.ports; p++)
        for (unsigned t = 0; t < TB_MAX_TAGS; t++)
            n += tb->pend[p][t].used && tb->pend[p][t].min_version < tb->committed;
    return n;
}

/* ------------------------------------------------------------ requests */

bool tb_port_idle(const struct tb *tb, unsigned port)
{
    return !tb->io.req[port].valid && tb->outstanding[port] + 1 < (1u << tb->prm.tag_bits);
}

void tb_present(struct tb *tb, unsigned port, uint32_t asid, uint64_t va, unsigned access)
{
    unsigned ntags = 1u << tb->prm.tag_bits;
    unsigned t = tb->next_tag[port];
    while (tb->pend[port][t].used)
        t = (t + 1) % ntags;
    tb->next_tag[port] = (t + 1) % ntags;
    struct dut_req *q = &tb->io.req[port];
    q->valid = 1;
    q->asid = asid;
    q->va = va;
    q->access = (uint8_t)access;
    q->tag = t;
}

unsigned tb_outstanding(const struct tb *tb)
{
    unsigned n = 0;
    for (unsigned p = 0; p < tb->prm.ports; p++)
        n += tb->outstanding[p] + tb->io.req[p].valid;
    return n;
}

bool tb_drain(struct tb *tb, uint64_t max_cycles)
{
    tb_gen_fn gen = tb->gen;
    tb->gen = NULL;
    uint64_t start = tb_now(tb);
    while (tb_outstanding(tb) && tb_now(tb) - start < max_cycles)
        tb_cycle(tb);
    tb->gen = gen;
    return tb_outstanding(tb) == 0;
}

/* ------------------------------------------------------------ faults */

void tb_faults_drain(struct tb *tb, unsigned max_records)
{
    uint32_t st = tb_wb_read(tb, GMMU_MMU_FAULT_STATUS);
    unsigned n = (st & GMMU_MMU_FAULT_STATUS_COUNT) >> GMMU_MMU_FAULT_STATUS_COUNT_LSB;
    for (unsigned i = 0; i < n && i < max_records; i++) {
        uint32_t lo = tb_wb_read(tb, GMMU_MMU_FAULT_VA_LO);
        uint32_t hi = tb_wb_read(tb, GMMU_MMU_FAULT_VA_HI);
        uint32_t info = tb_wb_read(tb, GMMU_MMU_FAULT_INFO);
        uint32_t tag = tb_wb_read(tb, GMMU_MMU_FAULT_TAG);
        tb_wb_write(tb, GMMU_MMU_FAULT_POP, 1);
        if (!(info & GMMU_MMU_FAULT_INFO_VALID)) {
            fprintf(stderr, "tb: FAULT_INFO.VALID is 0 with FAULT_STATUS.COUNT %u\n", n);
            tb->mismatches++;
            continue;
        }
        unsigned port = (info & GMMU_MMU_FAULT_INFO_PORT) >> GMMU_MMU_FAULT_INFO_PORT_LSB;
        struct tb_fault f = {
            tag,
            (info & GMMU_MMU_FAULT_INFO_ASID) >> GMMU_MMU_FAULT_INFO_ASID_LSB,
            (uint8_t)((info & GMMU_MMU_FAULT_INFO_ACCESS) >> GMMU_MMU_FAULT_INFO_ACCESS_LSB),
            (uint8_t)((info & GMMU_MMU_FAULT_INFO_REASON) >> GMMU_MMU_FAULT_INFO_REASON_LSB),
            ((uint64_t)hi << 32) | lo,
        };
        if (port >= tb->prm.ports) {
            fprintf(stderr, "tb: fault record names port %u\n", port);
            tb->mismatches++;
            continue;
        }
        tb->records_read++;
        fq_push(&tb->recs[port], &f);
        fault_match(tb, port);
    }
}

bool tb_faults_check(struct tb *tb)
{
    bool ok = true;
    tb_run(tb, 16); /* let the last records reach the FIFO */
    for (;;) {
        uint32_t st = tb_wb_read(tb, GMMU_MMU_FAULT_STATUS);
        if (!(st & GMMU_MMU_FAULT_STATUS_COUNT))
            break;
        tb_faults_drain(tb, 1000);
    }
    uint64_t dropped = tb->faults_dropped;
    for (unsigned p = 0; p < tb->prm.ports; p++) {
        if (tb->recs[p].n) {
            fprintf(stderr, "tb: port %u: %u fault records match no faulting response\n", p,
                    tb->recs[p].n);
            ok = false;
        }
        dropped += tb->seen[p].n;
    }
    uint32_t overflow = tb_wb_read(tb, GMMU_MMU_FAULT_OVERFLOW);
    if (overflow != dropped) {
        fprintf(stderr, "tb: FAULT_OVERFLOW %u but %" PRIu64 " faulting responses have no record\n",
                overflow, dropped);
        ok = false;
    }
    printf("faults: %" PRIu64 " records read, %u dropped (FAULT_OVERFLOW), all accounted: %s\n",
           tb->records_read, overflow, ok ? "yes" : "NO");
    return ok;
}

/* ------------------------------------------------------------ set-up */

bool tb_init(struct tb *tb, const struct dut_config *cfg, uint64_t seed)
{
    memset(tb, 0, sizeof *tb);
    tb->dut = dut_create(cfg);
    if (!tb->dut)
        return false;
    tb->prm = dut_params();
    tb->ddr = dut_ddr(tb->dut);
    tb->mem = ddr_model_mem(tb->ddr);
    tb->ddr_size = ddr_model_get_config(tb->ddr).size_bytes;
    tb->va_bits = gmmu_va_bits(tb->prm.levels);
    tb->ref.levels = tb->prm.levels;
    tb->check = true;
    tb->rsp_ready_percent = 100;
    tb->max_mismatch_reports = 10;
    rng_seed(&tb->rng, seed ^ 0x5eed);
    dut_reset(tb->dut);
    return true;
}

void tb_fini(struct tb *tb)
{
    for (unsigned p = 0; p < DUT_MAX_PORTS; p++) {
        free(tb->seen[p].v);
        free(tb->recs[p].v);
    }
    free(tb->changes);
    dut_destroy(tb->dut);
}

void tb_print_stats(const struct tb *tb, double seconds)
{
    uint64_t acc = 0, rsp = 0;
    for (unsigned p = 0; p < tb->prm.ports; p++) {
        acc += tb->accepted[p];
        rsp += tb->responses[p];
    }
    printf("translations: %" PRIu64 " accepted, %" PRIu64 " answered, %" PRIu64
           " checked against the model, %" PRIu64 " mismatches\n",
           acc, rsp, tb->checked, tb->mismatches);
    printf("  faults:");
    for (unsigned f = 0; f < 7; f++)
        printf(" %s %" PRIu64, gmmu_ref_fault_name((enum gmmu_fault)f), tb->by_fault[f]);
    printf("\n  page sizes:");
    for (unsigned s = 0; s < 5; s++)
        printf(" %s %" PRIu64, gmmu_psize_name(s), tb->by_psize[s]);
    printf(", zero %" PRIu64 "\n", tb->zero_rsps);
    printf("  table changes %u, answers checked against two versions %" PRIu64 "\n", tb->n_changes,
           tb->multi_version);
    double cyc = (double)tb_now(tb);
    printf("  %" PRIu64 " cycles in %.1f s (%.0f cycles/s, %.2f translations/cycle)\n", tb_now(tb),
           seconds, seconds > 0 ? cyc / seconds : 0.0, cyc > 0 ? rsp / cyc : 0.0);
}
