// SPDX-License-Identifier: Apache-2.0
/*
 * GPU engine tests: random FILL/COPY/CHECKSUM/FETCH runs against a C model
 * of the engine and of memory, aborts, directed register behaviour, FETCH
 * and NoExecute, and the throughput measurement.
 *
 * The model (ref_run) walks the chunks in order, as docs/engine.md defines
 * the result: for chunk i, the source is translated (READ, or EXECUTE for
 * FETCH) and read (Zero: zeros),
 * then the destination is translated and written (Zero: dropped); the first
 * fault stops the run, and the chunks before it are done. A write error is
 * found only after later writes may have been posted: the chunks after it
 * (up to the next fault) may or may not be written, and the check accepts
 * either, chunk by chunk.
 */
#include "engine_tests.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/engine_regs.h"
#include "gmmu/pte.h"

#define MAX_ERR_RANGES 4u
#define MAX_OPT        4096u

struct run {
    unsigned op;
    uint64_t src, dst, len, pattern;
};

struct opt_write {
    uint32_t addr;
    uint8_t data[TB_CHUNK];
};

struct expect {
    bool fault, write_err;
    uint8_t reason, access;
    uint64_t fault_va, bytes_done;
    uint64_t s1, s2;
    uint64_t ntr, nrd, nwr;
    unsigned nopt;
    struct opt_write opt[MAX_OPT];
};

/* Read-error ranges injected into the DDR model for the current run. */
static struct {
    uint64_t lo, hi;
} err_ranges[MAX_ERR_RANGES];
static unsigned n_err_ranges;

/* CHECKSUM and FETCH sum the source; FETCH translates it as EXECUTE. */
static bool is_sum(unsigned op)
{
    return op == GMMU_ENGINE_OP_CHECKSUM || op == GMMU_ENGINE_OP_FETCH;
}
static bool need_src(unsigned op)
{
    return op == GMMU_ENGINE_OP_COPY || is_sum(op);
}
static bool need_dst(unsigned op)
{
    return op == GMMU_ENGINE_OP_COPY || op == GMMU_ENGINE_OP_FILL;
}
static unsigned src_access(unsigned op)
{
    return op == GMMU_ENGINE_OP_FETCH ? GMMU_ACCESS_EXECUTE : GMMU_ACCESS_READ;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ------------------------------------------------------------ the model */
enum chunk_result { CHUNK_OK, CHUNK_ZERO, CHUNK_FAULT, CHUNK_WRITE_ERROR };

/* One stream's access to one chunk, as the engine sees it. */
static enum chunk_result model_access(struct tb *tb, uint64_t va, unsigned access, uint32_t *addr,
                                      uint8_t *reason)
{
    /* Physical mode: the address is a VRAM (DDR) address, untranslated. */
    struct tb_xlat x = { 0, 0, GMMU_SEGMENT_VRAM, 0, 0, 0, va };
    if (!tb->phys)
        x = tb_translate(tb, va, access);
    if (x.fault) {
        *reason = x.fault;
        return CHUNK_FAULT;
    }
    if (x.zero)
        return CHUNK_ZERO;
    if (x.seg == GMMU_SEGMENT_VRAM && (x.pa >> 32)) {
        *reason = GMMU_FAULT_BUS_ERROR;
        return CHUNK_FAULT;
    }
    *addr = (uint32_t)x.pa;
    bool outside = (uint64_t)*addr + TB_CHUNK > tb->ddr_size;
    if (access != GMMU_ACCESS_WRITE) {
        for (unsigned i = 0; i < n_err_ranges; i++) {
            if (*addr<err_ranges[i].hi && * addr + TB_CHUNK> err_ranges[i].lo)
                outside = true;
        }
        if (outside) {
            *reason = GMMU_FAULT_BUS_ERROR;
            return CHUNK_FAULT;
        }
    } else if (outside) {
        *reason = GMMU_FAULT_BUS_ERROR;
        return CHUNK_WRITE_ERROR;
    }
    return CHUNK_OK;
}

/* Runs r over at most limit chunks on tb->ref. */
static void ref_run(struct tb *tb, const struct run *r, uint64_t limit, struct expect *e)
{
    memset(e, 0, offsetof(struct expect, opt));
    uint64_t n = r->len / TB_CHUNK;
    if (limit < n)
        n = limit;
    bool optional = false;
    uint64_t s1 = 0, s2 = 0;
    uint64_t i;
    for (i = 0; i < n; i++) {
        uint8_t data[TB_CHUNK], reason = 0;
        uint32_t addr = 0;
        uint64_t sva = r->src + i * TB_CHUNK, dva = r->dst + i * TB_CHUNK;
        memset(data, 0, sizeof data);
        if (need_src(r->op)) {
            enum chunk_result c = model_access(tb, sva, src_access(r->op), &addr, &reason);
            if (c == CHUNK_FAULT) {
                if (!optional) {
                    e->fault = true;
                    e->reason = reason;
                    e->access = (uint8_t)src_access(r->op);
                    e->fault_va = sva;
                }
                break;
            }
            if (c == CHUNK_OK) {
                sparse_mem_read(tb->ref, addr, data, TB_CHUNK);
                e->nrd++;
            }
        }
        if (r->op == GMMU_ENGINE_OP_FILL) {
            for (unsigned w = 0; w < TB_CHUNK / 8; w++)
                put_u64(data + 8 * w, r->pattern);
        }
        if (need_dst(r->op)) {
            enum chunk_result c = model_access(tb, dva, GMMU_ACCESS_WRITE, &addr, &reason);
            if (c == CHUNK_FAULT) {
                if (!optional) {
                    e->fault = true;
                    e->reason = reason;
                    e->access = GMMU_ACCESS_WRITE;
                    e->fault_va = dva;
                }
                break;
            }
            if (c == CHUNK_WRITE_ERROR) {
                if (!optional) {
                    e->fault = e->write_err = true;
                    e->reason = reason;
                    e->access = GMMU_ACCESS_WRITE;
                    e->fault_va = dva;
                    e->bytes_done = i * TB_CHUNK;
                    optional = true;
                }
                continue;
            }
            if (c == CHUNK_OK) {
                if (optional) {
                    if (e->nopt < MAX_OPT) {
                        e->opt[e->nopt].addr = addr;
                        memcpy(e->opt[e->nopt].data, data, TB_CHUNK);
                        e->nopt++;
                    }
                } else {
                    sparse_mem_write(tb->ref, addr, data, TB_CHUNK);
                    e->nwr++;
                }
            }
        }
        if (is_sum(r->op)) {
            for (unsigned w = 0; w < TB_CHUNK / 8; w++) {
                s1 += get_u64(data + 8 * w);
                s2 += s1;
            }
        }
    }
    if (!optional)
        e->bytes_done = i * TB_CHUNK;
    e->s1 = s1;
    e->s2 = s2;
    e->ntr = tb->phys ? 0 : i * ((need_src(r->op) ? 1u : 0u) + (need_dst(r->op) ? 1u : 0u));
}

/* ------------------------------------------------------------ engine runs */
static void reg_write64(struct tb *tb, uint32_t lo, uint64_t v)
{
    tb_reg_write(tb, lo, (uint32_t)v);
    tb_reg_write(tb, lo + 4, (uint32_t)(v >> 32));
}

static uint64_t reg_read64(struct tb *tb, uint32_t lo)
{
    uint64_t v = tb_reg_read(tb, lo);
    return v | (uint64_t)tb_reg_read(tb, lo + 4) << 32;
}

static void program(struct tb *tb, const struct run *r)
{
    tb_reg_write(tb, GMMU_ENGINE_ASID, tb->asid);
    tb_reg_write(tb, GMMU_ENGINE_LENGTH, (uint32_t)r->len);
    reg_write64(tb, GMMU_ENGINE_DST_VA_LO, r->dst);
    reg_write64(tb, GMMU_ENGINE_SRC_VA_LO, r->src);
    reg_write64(tb, GMMU_ENGINE_PATTERN_LO, r->pattern);
}

static void start(struct tb *tb, unsigned op)
{
    tb_run_begin(tb);
    tb->fetch = op == GMMU_ENGINE_OP_FETCH;
    tb_reg_write(tb, GMMU_ENGINE_CTRL,
                 GMMU_ENGINE_CTRL_START | (op << GMMU_ENGINE_CTRL_OP_LSB) |
                     (tb->phys ? GMMU_ENGINE_CTRL_PHYS : 0u));
}

/* Accept the optional writes that happened, then compare every page. */
static void check_memory(struct tb *tb, const struct expect *e, const char *what)
{
    struct sparse_mem *dm = ddr_model_mem(tb->ddr);
    for (unsigned i = 0; i < e->nopt; i++) {
        uint8_t got[TB_CHUNK];
        sparse_mem_read(dm, e->opt[i].addr, got, TB_CHUNK);
        if (!memcmp(got, e->opt[i].data, TB_CHUNK))
            sparse_mem_write(tb->ref, e->opt[i].addr, got, TB_CHUNK);
    }
    for (unsigned p = 0; p < tb->npages; p++) {
        uint64_t pa = tb->pages[p].pa & 0xFFFFF000u;
        if (pa + TB_PAGE > tb->ddr_size)
            continue;
        uint8_t got[TB_PAGE], want[TB_PAGE];
        sparse_mem_read(dm, pa, got, TB_PAGE);
        sparse_mem_read(tb->ref, pa, want, TB_PAGE);
        if (memcmp(got, want, TB_PAGE)) {
            unsigned off = 0;
            while (got[off] == want[off])
                off++;
            tb_fail(tb,
                    "%s: memory at PA 0x%08" PRIx64 " (VA 0x%" PRIx64 "): 0x%02x, expected 0x%02x",
                    what, pa + off, (tb->pages[p].vpn << 12) + off, got[off], want[off]);
            return;
        }
    }
}

/* STATUS, FAULT_VA, BYTES_DONE, RESULT, counters and done_o after a run. */
static void check_registers(struct tb *tb, const struct run *r, const struct expect *e,
                            bool aborted, const char *what)
{
    unsigned errs = tb->errors;
    if (!tb->io.done)
        tb_fail(tb, "%s: done_o low after the run", what);
    uint32_t st = tb_reg_read(tb, GMMU_ENGINE_STATUS);
    uint32_t want = GMMU_ENGINE_STATUS_DONE;
    if (e->fault)
        want |= GMMU_ENGINE_STATUS_FAULT | (uint32_t)e->reason << GMMU_ENGINE_STATUS_REASON_LSB |
                (uint32_t)e->access << GMMU_ENGINE_STATUS_ACCESS_LSB;
    if (aborted)
        want |= GMMU_ENGINE_STATUS_ABORTED;
    if (st != want)
        tb_fail(tb, "%s: STATUS 0x%03x, expected 0x%03x", what, st, want);
    if (e->fault) {
        uint64_t fva = reg_read64(tb, GMMU_ENGINE_FAULT_VA_LO);
        if (fva != e->fault_va)
            tb_fail(tb, "%s: FAULT_VA 0x%" PRIx64 ", expected 0x%" PRIx64, what, fva, e->fault_va);
    }
    uint32_t bd = tb_reg_read(tb, GMMU_ENGINE_BYTES_DONE);
    if (bd != (uint32_t)e->bytes_done)
        tb_fail(tb, "%s: BYTES_DONE %u, expected %" PRIu64, what, bd, e->bytes_done);
    uint64_t s1 = reg_read64(tb, GMMU_ENGINE_RESULT_LO),
             s2 = reg_read64(tb, GMMU_ENGINE_RESULT2_LO);
    if (s1 != e->s1 || s2 != e->s2)
        tb_fail(tb,
                "%s: RESULT 0x%016" PRIx64 " RESULT2 0x%016" PRIx64 ", expected 0x%016" PRIx64
                " 0x%016" PRIx64,
                what, s1, s2, e->s1, e->s2);
    uint32_t ntr = tb_reg_read(tb, GMMU_ENGINE_TRANSLATIONS);
    uint32_t nrd = tb_reg_read(tb, GMMU_ENGINE_READ_BURSTS);
    uint32_t nwr = tb_reg_read(tb, GMMU_ENGINE_WRITE_BURSTS);
    if (ntr != tb->cnt.translations || nrd != tb->cnt.ar || nwr != tb->cnt.aw)
        tb_fail(tb,
                "%s: counters TRANSLATIONS %u READ_BURSTS %u WRITE_BURSTS %u, bus saw %" PRIu64
                " %" PRIu64 " %" PRIu64,
                what, ntr, nrd, nwr, tb->cnt.translations, tb->cnt.ar, tb->cnt.aw);
    if (!e->fault && !aborted && (ntr != e->ntr || nrd != e->nrd || nwr != e->nwr))
        tb_fail(tb,
                "%s: TRANSLATIONS %u READ_BURSTS %u WRITE_BURSTS %u, expected %" PRIu64 " %" PRIu64
                " %" PRIu64,
                what, ntr, nrd, nwr, e->ntr, e->nrd, e->nwr);
    tb_check_idle(tb);
    /* DONE clears by writing 1; done_o follows. */
    tb_reg_write(tb, GMMU_ENGINE_STATUS, GMMU_ENGINE_STATUS_DONE);
    if (tb->io.done)
        tb_fail(tb, "%s: done_o still high after STATUS.DONE was cleared", what);
    if (tb->errors != errs)
        fprintf(stderr, "  in %s: op %s src 0x%" PRIx64 " dst 0x%" PRIx64 " length %" PRIu64 "\n",
                what, gmmu_engine_op_name(r->op) ? gmmu_engine_op_name(r->op) : "reserved", r->src,
                r->dst, r->len);
}

/* ------------------------------------------------------------ random set-up */
/* A fresh PA page in DDR (above 1 MiB, so no page sits at PA 0). */
static uint64_t fresh_pa(struct tb *tb)
{
    for (;;) {
        uint64_t pa = ((1u << 20) + rng_below(&tb->rng, tb->ddr_size - (1u << 20))) &
                      ~(uint64_t)(TB_PAGE - 1);
        if (!tb_page_by_pa(tb, pa))
            return pa;
    }
}

static void fill_random(struct tb *tb, uint64_t pa)
{
    uint8_t buf[TB_PAGE];
    for (unsigned i = 0; i < TB_PAGE; i += 8)
        put_u64(buf + i, rng_next(&tb->rng));
    sparse_mem_write(ddr_model_mem(tb->ddr), pa, buf, TB_PAGE);
    sparse_mem_write(tb->ref, pa, buf, TB_PAGE);
}

/* Nonzero PA bits above 31 that fit the engine's PaBits. */
static uint64_t random_pa_hi(struct tb *tb)
{
    uint64_t max = (UINT64_C(1) << (tb->prm.pa_bits - 32)) - 1;
    return 1 + rng_below(&tb->rng, max);
}

/* Maps every page of [va, va + len) with random attributes. */
static void map_range(struct tb *tb, uint64_t va, uint64_t len, bool clean)
{
    if (!len)
        return;
    for (uint64_t vpn = va >> 12; vpn <= (va + len - 1) >> 12; vpn++) {
        struct tb_page *p = tb_page_add(tb, vpn, fresh_pa(tb));
        if (!p) {
            tb_fail(tb, "test set-up: page table full");
            return;
        }
        p->cc = rng_chance(&tb->rng, 25);
        if (rng_chance(&tb->rng, 15)) {
            p->seg = GMMU_SEGMENT_SYSTEM;
            if (rng_chance(&tb->rng, 50))
                p->pa |= random_pa_hi(tb) << 32;
        }
        p->zero = rng_chance(&tb->rng, clean ? 3 : 6);
        p->nx = rng_chance(&tb->rng, 10); /* matters to FETCH only: see clear_nx */
        fill_random(tb, p->pa & 0xFFFFFFFFu);
    }
}

/* Every page executable: a FETCH run that must not fault. */
static void clear_nx(struct tb *tb)
{
    for (unsigned i = 0; i < tb->npages; i++)
        tb->pages[i].nx = 0;
}

static struct tb_page *random_page_of(struct tb *tb, uint64_t va, uint64_t len)
{
    uint64_t first = va >> 12, last = (va + len - 1) >> 12;
    return tb_page_find(tb, first + rng_below(&tb->rng, last - first + 1));
}

/* One fault of a random kind somewhere in the run's pages. */
static void inject(struct tb *tb, const struct run *r)
{
    if (!r->len)
        return;
    bool src_side = need_src(r->op) && (!need_dst(r->op) || rng_chance(&tb->rng, 50));
    uint64_t va = src_side ? r->src : r->dst;
    struct tb_page *p = random_page_of(tb, va, r->len);
    if (!p)
        return;
    switch (rng_below(&tb->rng, 8)) {
    case 0: /* the whole page faults */
        p->fault = (uint8_t)(1 + rng_below(&tb->rng, 6));
        break;
    case 1: /* one chunk faults */
        p->chunk_fault |= UINT64_C(1) << rng_below(&tb->rng, 64);
        p->chunk_reason = (uint8_t)(1 + rng_below(&tb->rng, 6));
        break;
    case 2: /* read-only */
        p->ro = 1;
        break;
    case 3: /* VRAM above 4 GiB */
        p->seg = GMMU_SEGMENT_VRAM;
        p->zero = 0;
        p->pa = (p->pa & 0xFFFFFFFFu) | random_pa_hi(tb) << 32;
        break;
    case 4: /* beyond the DDR: DECERR */
        p->zero = 0;
        p->pa = tb->ddr_size + rng_below(&tb->rng, (UINT64_C(1) << 32) - tb->ddr_size - TB_PAGE);
        p->pa &= ~(uint64_t)(TB_PAGE - 1);
        break;
    case 5: /* NoExecute: faults a FETCH source, nothing else */
        p->nx = 1;
        break;
    default: { /* an AXI read error on one beat */
        if (!need_src(r->op) || n_err_ranges == MAX_ERR_RANGES)
            break;
        uint64_t off = rng_below(&tb->rng, r->len / 8) * 8;
        struct tb_xlat x = tb_translate(tb, r->src + off, GMMU_ACCESS_READ);
        if (x.fault || x.zero)
            break;
        uint64_t a = (uint32_t)x.pa;
        if (ddr_model_inject_read_error(tb->ddr, a, a + 8)) {
            err_ranges[n_err_ranges].lo = a;
            err_ranges[n_err_ranges].hi = a + 8;
            n_err_ranges++;
        }
        break;
    }
    }
}

/* The PA-index of a page moved by inject() case 4: rebuild the indices. */
static void reindex(struct tb *tb)
{
    static struct tb_page saved[TB_MAX_PAGES];
    unsigned n = tb->npages;
    memcpy(saved, tb->pages, n * sizeof saved[0]);
    tb_pages_clear(tb);
    for (unsigned i = 0; i < n; i++) {
        struct tb_page *p = tb_page_add(tb, saved[i].vpn, saved[i].pa);
        if (!p) {
            tb_fail(tb, "test set-up: PA collision after moving a page");
            continue;
        }
        *p = saved[i];
    }
}

static void random_env(struct tb *tb)
{
    struct tb_env *e = &tb->env;
    struct rng *r = &tb->rng;
    switch (rng_below(r, 4)) {
    case 0: /* ideal */
        e->lat_min = e->lat_max = 1;
        e->in_order = true;
        e->req_ready_pct = 100;
        for (unsigned i = 0; i < 5; i++)
            e->gate_pct[i] = 100;
        break;
    case 1: /* short, reordered */
        e->lat_min = 1;
        e->lat_max = 1 + (unsigned)rng_below(r, 8);
        e->in_order = false;
        e->req_ready_pct = 70 + (unsigned)rng_below(r, 31);
        for (unsigned i = 0; i < 5; i++)
            e->gate_pct[i] = 70 + (unsigned)rng_below(r, 31);
        break;
    case 2: /* heavy back-pressure */
        e->lat_min = 1 + (unsigned)rng_below(r, 10);
        e->lat_max = e->lat_min + (unsigned)rng_below(r, 60);
        e->in_order = false;
        e->req_ready_pct = 20 + (unsigned)rng_below(r, 81);
        for (unsigned i = 0; i < 5; i++)
            e->gate_pct[i] = 15 + (unsigned)rng_below(r, 86);
        break;
    default: /* long walks, open bus */
        e->lat_min = 1;
        e->lat_max = 1 + (unsigned)rng_below(r, 200);
        e->in_order = rng_chance(r, 20);
        e->req_ready_pct = 100;
        for (unsigned i = 0; i < 5; i++)
            e->gate_pct[i] = 100;
        break;
    }
}

static uint64_t random_chunks(struct tb *tb)
{
    unsigned k = (unsigned)rng_below(&tb->rng, 100);
    if (k < 2)
        return 0;
    if (k < 60)
        return 1 + rng_below(&tb->rng, 64);
    if (k < 92)
        return 1 + rng_below(&tb->rng, 512);
    return 1 + rng_below(&tb->rng, 2048);
}

static uint64_t random_va(struct tb *tb, uint64_t region)
{
    uint64_t vpn;
    if (rng_chance(&tb->rng, 15))
        vpn = (rng_below(&tb->rng, 1u << 16) << 20) - rng_below(&tb->rng, 4); /* straddles 4 GiB */
    else
        vpn = rng_below(&tb->rng, UINT64_C(1) << 34);
    return region | vpn << 12 | rng_below(&tb->rng, TB_PAGE / TB_CHUNK) * TB_CHUNK;
}

static void new_run(struct tb *tb, struct run *r, bool faults)
{
    r->op = (unsigned)rng_below(&tb->rng, 4);
    r->len = random_chunks(tb) * TB_CHUNK;
    r->src = random_va(tb, UINT64_C(1) << 48);
    r->dst = random_va(tb, UINT64_C(1) << 49);
    r->pattern = rng_next(&tb->rng);
    tb->asid = (uint32_t)rng_below(&tb->rng, 1u << tb->prm.asid_bits);
    tb_pages_clear(tb);
    ddr_model_clear_errors(tb->ddr);
    n_err_ranges = 0;
    if (need_src(r->op))
        map_range(tb, r->src, r->len, !faults);
    if (need_dst(r->op))
        map_range(tb, r->dst, r->len, !faults);
    if (!faults)
        clear_nx(tb);
    if (faults) {
        unsigned n = rng_chance(&tb->rng, 20) ? 2 : 1;
        for (unsigned i = 0; i < n; i++)
            inject(tb, r);
        reindex(tb);
    }
}

static struct expect exp_buf;

/* ------------------------------------------------------------ tests */
bool test_random(struct tb *tb, unsigned count)
{
    unsigned errs = tb->errors;
    uint64_t cycles = 0, faults = 0, reordered = 0, bytes = 0;
    unsigned by_op[4] = { 0 }, by_fault[3][8] = { { 0 } }, write_errors = 0;
    for (unsigned n = 0; n < count && tb->errors == errs; n++) {
        struct run r;
        bool faulty = rng_chance(&tb->rng, 45);
        random_env(tb);
        new_run(tb, &r, faulty);
        ref_run(tb, &r, UINT64_MAX, &exp_buf);
        program(tb, &r);
        uint64_t c0 = dut_cycle(tb->dut);
        start(tb, r.op);
        if (!tb_wait_done(tb))
            break;
        cycles += dut_cycle(tb->dut) - c0;
        reordered += tb->cnt.rsp_reordered;
        faults += exp_buf.fault;
        if (exp_buf.fault)
            by_fault[exp_buf.access][exp_buf.reason & 7]++;
        write_errors += exp_buf.write_err;
        bytes += exp_buf.bytes_done;
        by_op[r.op]++;
        char what[64];
        snprintf(what, sizeof what, "random run %u", n);
        check_registers(tb, &r, &exp_buf, false, what);
        check_memory(tb, &exp_buf, what);
    }
    ddr_model_clear_errors(tb->ddr);
    n_err_ranges = 0;
    printf("random: %u runs (fill %u, copy %u, checksum %u, fetch %u), %" PRIu64
           " faulted, %" PRIu64 " bytes done, %" PRIu64 " cycles, %" PRIu64
           " translations answered out of order: %s\n",
           count, by_op[0], by_op[1], by_op[2], by_op[3], faults, bytes, cycles, reordered,
           tb->errors == errs ? "PASS" : "FAIL");
    printf("random: faults by reason (read/write/execute):");
    for (unsigned f = 1; f < 8; f++) {
        if (by_fault[0][f] || by_fault[1][f] || by_fault[2][f])
            printf(" %s %u/%u/%u", gmmu_fault_name(f) ? gmmu_fault_name(f) : "?", by_fault[0][f],
                   by_fault[1][f], by_fault[2][f]);
    }
    printf(" (%u write errors)\n", write_errors);
    return tb->errors == errs;
}

bool test_abort(struct tb *tb, unsigned count)
{
    unsigned errs = tb->errors, aborted_runs = 0;
    for (unsigned n = 0; n < count && tb->errors == errs; n++) {
        struct run r;
        random_env(tb);
        new_run(tb, &r, false);
        if (r.len < 64 * TB_CHUNK) {
            r.len = 64 * TB_CHUNK;
            tb_pages_clear(tb);
            if (need_src(r.op))
                map_range(tb, r.src, r.len, true);
            if (need_dst(r.op))
                map_range(tb, r.dst, r.len, true);
            clear_nx(tb);
        }
        program(tb, &r);
        start(tb, r.op);
        unsigned wait = (unsigned)rng_below(&tb->rng, 400);
        for (unsigned i = 0; i < wait && !tb->io.done; i++)
            tb_cycle(tb);
        /* ABORT lands only while busy; a run that already ended is not aborted. */
        tb_reg_write(tb, GMMU_ENGINE_CTRL, GMMU_ENGINE_CTRL_ABORT);
        if (!tb_wait_done(tb))
            break;
        bool aborted = (tb_reg_read(tb, GMMU_ENGINE_STATUS) & GMMU_ENGINE_STATUS_ABORTED) != 0;
        aborted_runs += aborted;
        uint32_t bd = tb_reg_read(tb, GMMU_ENGINE_BYTES_DONE);
        if (bd % TB_CHUNK || bd > r.len)
            tb_fail(tb, "abort: BYTES_DONE %u for length %" PRIu64, bd, r.len);
        if (!aborted && bd != r.len)
            tb_fail(tb, "abort: not aborted, but BYTES_DONE %u of %" PRIu64, bd, r.len);
        ref_run(tb, &r, bd / TB_CHUNK, &exp_buf);
        char what[64];
        snprintf(what, sizeof what, "abort run %u", n);
        check_registers(tb, &r, &exp_buf, aborted, what);
        check_memory(tb, &exp_buf, what);
    }
    printf("abort: %u runs, %u stopped early: %s\n", count, aborted_runs,
           tb->errors == errs ? "PASS" : "FAIL");
    return tb->errors == errs;
}

/* The checksum of [va, va + len) computed here from the DDR model's bytes
   (every page mapped, none Zero): docs/engine.md's formula. */
static void sum_by_va(struct tb *tb, uint64_t va, uint64_t len, uint64_t *s1, uint64_t *s2)
{
    *s1 = *s2 = 0;
    for (uint64_t a = va; a < va + len; a += 8) {
        const struct tb_page *p = tb_page_find(tb, a >> 12);
        uint8_t w[8] = { 0 };
        if (p)
            sparse_mem_read(ddr_model_mem(tb->ddr), (p->pa & 0xFFFFFFFFu) + a % TB_PAGE, w, 8);
        *s1 += get_u64(w);
        *s2 += *s1;
    }
}

/* One FETCH or CHECKSUM run of r; its STATUS, BYTES_DONE, RESULT and READ_BURSTS
   against what the caller expects, and against the model (check_registers). */
static void fetch_run(struct tb *tb, struct run *r, uint32_t want_status, uint64_t want_done,
                      uint64_t s1, uint64_t s2, const char *what)
{
    ref_run(tb, r, UINT64_MAX, &exp_buf);
    program(tb, r);
    start(tb, r->op);
    tb_wait_done(tb);
    uint32_t st = tb_reg_read(tb, GMMU_ENGINE_STATUS);
    uint32_t bd = tb_reg_read(tb, GMMU_ENGINE_BYTES_DONE);
    uint64_t g1 = reg_read64(tb, GMMU_ENGINE_RESULT_LO),
             g2 = reg_read64(tb, GMMU_ENGINE_RESULT2_LO);
    uint32_t nrd = tb_reg_read(tb, GMMU_ENGINE_READ_BURSTS);
    if (st != want_status)
        tb_fail(tb, "%s: STATUS 0x%03x, expected 0x%03x", what, st, want_status);
    if (bd != want_done)
        tb_fail(tb, "%s: BYTES_DONE %u, expected %" PRIu64, what, bd, want_done);
    if (g1 != s1 || g2 != s2)
        tb_fail(tb,
                "%s: RESULT 0x%016" PRIx64 " 0x%016" PRIx64 ", computed 0x%016" PRIx64
                " 0x%016" PRIx64,
                what, g1, g2, s1, s2);
    if (nrd != want_done / TB_CHUNK)
        tb_fail(tb, "%s: READ_BURSTS %u, expected %" PRIu64 " (no read of a NoExecute page)", what,
                nrd, want_done / TB_CHUNK);
    if (st & GMMU_ENGINE_STATUS_FAULT) {
        uint64_t fva = reg_read64(tb, GMMU_ENGINE_FAULT_VA_LO);
        if (fva != r->src + want_done)
            tb_fail(tb, "%s: FAULT_VA 0x%" PRIx64 ", expected 0x%" PRIx64, what, fva,
                    r->src + want_done);
        /* ACCESS is the run's, kept after CTRL.OP is rewritten (without START). */
        tb_reg_write(tb, GMMU_ENGINE_CTRL, GMMU_ENGINE_OP_FILL << GMMU_ENGINE_CTRL_OP_LSB);
        if (tb_reg_read(tb, GMMU_ENGINE_STATUS) != st)
            tb_fail(tb, "%s: STATUS changed to 0x%03x after a write of CTRL.OP", what,
                    tb_reg_read(tb, GMMU_ENGINE_STATUS));
    }
    check_registers(tb, r, &exp_buf, false, what);
}

/* FETCH is CHECKSUM with EXECUTE translations: on executable pages it sums
   what CHECKSUM sums; a NoExecute page faults NO_EXECUTE (access EXECUTE) at
   its first chunk, with nothing of it read; CHECKSUM (READ) ignores NoExecute. */
static void directed_fetch(struct tb *tb)
{
    struct tb_env envs[2] = { { 1, 1, true, 100, { 100, 100, 100, 100, 100 } },
                              { 1, 40, false, 60, { 70, 70, 70, 70, 70 } } };
    const uint32_t done = GMMU_ENGINE_STATUS_DONE;
    const uint32_t nx_fault = GMMU_ENGINE_STATUS_DONE | GMMU_ENGINE_STATUS_FAULT |
                              GMMU_FAULT_NO_EXECUTE << GMMU_ENGINE_STATUS_REASON_LSB |
                              GMMU_ACCESS_EXECUTE << GMMU_ENGINE_STATUS_ACCESS_LSB;
    for (unsigned e = 0; e < 2; e++) {
        tb->env = envs[e];
        struct run r = { GMMU_ENGINE_OP_FETCH, 0x3400000000ull + e * 0x100000, 0, 4 * TB_PAGE, 0 };
        uint64_t s1, s2, h1, h2;
        tb->asid = 5;
        tb_pages_clear(tb);
        map_range(tb, r.src, r.len, true);
        for (unsigned i = 0; i < tb->npages; i++)
            tb->pages[i].zero = tb->pages[i].nx = 0;
        sum_by_va(tb, r.src, r.len, &s1, &s2);
        sum_by_va(tb, r.src, 2 * TB_PAGE, &h1, &h2);
        if (!s1 || s1 == h1)
            tb_fail(tb, "fetch set-up: the computed checksums do not tell the pages apart");

        /* Executable: FETCH and CHECKSUM give the checksum computed here. */
        fetch_run(tb, &r, done, r.len, s1, s2, "fetch, executable");
        r.op = GMMU_ENGINE_OP_CHECKSUM;
        fetch_run(tb, &r, done, r.len, s1, s2, "checksum, executable");

        /* All NoExecute: FETCH faults at the first chunk; CHECKSUM still reads. */
        for (unsigned i = 0; i < tb->npages; i++)
            tb->pages[i].nx = 1;
        r.op = GMMU_ENGINE_OP_FETCH;
        fetch_run(tb, &r, nx_fault, 0, 0, 0, "fetch, NoExecute");
        r.op = GMMU_ENGINE_OP_CHECKSUM;
        fetch_run(tb, &r, done, r.len, s1, s2, "checksum, NoExecute");

        /* The third page NoExecute: FETCH sums the first two and faults there. */
        for (unsigned i = 0; i < tb->npages; i++)
            tb->pages[i].nx = tb->pages[i].vpn == (r.src >> 12) + 2;
        r.op = GMMU_ENGINE_OP_FETCH;
        fetch_run(tb, &r, nx_fault, 2 * TB_PAGE, h1, h2, "fetch, third page NoExecute");
    }
    tb->fetch = false;
}

/* Registers, odd lengths and operations, writes while busy. */
bool test_directed(struct tb *tb)
{
    unsigned errs = tb->errors;
    struct tb_env ideal = { 1, 1, true, 100, { 100, 100, 100, 100, 100 } };
    tb->env = ideal;

    if (tb_reg_read(tb, GMMU_ENGINE_ID) != GMMU_ENGINE_ID_VALUE)
        tb_fail(tb, "ID reads 0x%08x", tb_reg_read(tb, GMMU_ENGINE_ID));
    uint32_t cfg = tb_reg_read(tb, GMMU_ENGINE_CONFIG);
    if ((cfg & GMMU_ENGINE_CONFIG_SLOTS) != tb->prm.slots ||
        (cfg & GMMU_ENGINE_CONFIG_ASID_BITS) >> GMMU_ENGINE_CONFIG_ASID_BITS_LSB !=
            tb->prm.asid_bits)
        tb_fail(tb, "CONFIG reads 0x%08x", cfg);

    /* Read back; bits 5:0 of VAs and LENGTH read 0. */
    static const struct {
        uint32_t off, val, want;
    } rb[] = {
        { GMMU_ENGINE_LENGTH, 0xFFFFFFFFu, 0xFFFFFFC0u },
        { GMMU_ENGINE_DST_VA_LO, 0x12345678u, 0x12345640u },
        { GMMU_ENGINE_DST_VA_HI, 0x9ABCDEF0u, 0x9ABCDEF0u },
        { GMMU_ENGINE_SRC_VA_LO, 0xFFFFFFFFu, 0xFFFFFFC0u },
        { GMMU_ENGINE_SRC_VA_HI, 0x00000001u, 0x00000001u },
        { GMMU_ENGINE_PATTERN_LO, 0xDEADBEEFu, 0xDEADBEEFu },
        { GMMU_ENGINE_PATTERN_HI, 0x01234567u, 0x01234567u },
    };
    for (unsigned i = 0; i < sizeof rb / sizeof rb[0]; i++) {
        tb_reg_write(tb, rb[i].off, rb[i].val);
        uint32_t got = tb_reg_read(tb, rb[i].off);
        if (got != rb[i].want)
            tb_fail(tb, "register 0x%02x: wrote 0x%08x, reads 0x%08x, expected 0x%08x", rb[i].off,
                    rb[i].val, got, rb[i].want);
    }
    uint32_t amask = (1u << tb->prm.asid_bits) - 1;
    tb_reg_write(tb, GMMU_ENGINE_ASID, 0xFFFFFFFFu);
    if (tb_reg_read(tb, GMMU_ENGINE_ASID) != amask)
        tb_fail(tb, "ASID reads 0x%x", tb_reg_read(tb, GMMU_ENGINE_ASID));
    tb_reg_write(tb, GMMU_ENGINE_CTRL, 2u << GMMU_ENGINE_CTRL_OP_LSB);
    if (tb_reg_read(tb, GMMU_ENGINE_CTRL) != 2u << GMMU_ENGINE_CTRL_OP_LSB)
        tb_fail(tb, "CTRL reads 0x%x", tb_reg_read(tb, GMMU_ENGINE_CTRL));
    if (tb->io.done || tb_reg_read(tb, GMMU_ENGINE_STATUS) != 0)
        tb_fail(tb, "STATUS 0x%x before any run", tb_reg_read(tb, GMMU_ENGINE_STATUS));

    /* LENGTH 0 finishes at once with nothing done, whatever the OP. */
    struct run r = { GMMU_ENGINE_OP_COPY, 0x1000, 0x2000, 0, 0 };
    tb_pages_clear(tb);
    for (unsigned op = 0; op < 4; op++) {
        r.op = op;
        r.len = 0;
        tb->asid = 1;
        program(tb, &r);
        start(tb, op);
        tb_wait_done(tb);
        ref_run(tb, &r, UINT64_MAX, &exp_buf);
        check_registers(tb, &r, &exp_buf, false, "LENGTH 0");
        if (tb->cnt.translations)
            tb_fail(tb, "empty run: %" PRIu64 " translations", tb->cnt.translations);
    }

    /* Writes while busy are ignored; START while busy is ignored; DONE stays clear. */
    r.op = GMMU_ENGINE_OP_COPY;
    r.len = 256 * TB_CHUNK;
    r.src = 0x7000000000ull;
    r.dst = 0x8000000040ull;
    r.pattern = 0;
    tb->asid = 3;
    tb_pages_clear(tb);
    map_range(tb, r.src, r.len, true);
    map_range(tb, r.dst, r.len, true);
    ref_run(tb, &r, UINT64_MAX, &exp_buf);
    program(tb, &r);
    start(tb, r.op);
    tb_reg_write(tb, GMMU_ENGINE_DST_VA_LO, 0);
    tb_reg_write(tb, GMMU_ENGINE_LENGTH, 64);
    tb_reg_write(tb, GMMU_ENGINE_CTRL,
                 GMMU_ENGINE_CTRL_START | (GMMU_ENGINE_OP_FILL << GMMU_ENGINE_CTRL_OP_LSB));
    uint32_t st = tb_reg_read(tb, GMMU_ENGINE_STATUS);
    if (st != GMMU_ENGINE_STATUS_BUSY)
        tb_fail(tb, "STATUS 0x%x while busy", st);
    if (tb_reg_read(tb, GMMU_ENGINE_DST_VA_LO) != (uint32_t)r.dst ||
        tb_reg_read(tb, GMMU_ENGINE_LENGTH) != r.len ||
        tb_reg_read(tb, GMMU_ENGINE_CTRL) != GMMU_ENGINE_OP_COPY << GMMU_ENGINE_CTRL_OP_LSB)
        tb_fail(tb, "a configuration write while busy took effect");
    tb_wait_done(tb);
    check_registers(tb, &r, &exp_buf, false, "writes while busy");
    check_memory(tb, &exp_buf, "writes while busy");

    /* A write error (DECERR beyond the DDR) in the middle of a fill. */
    r.op = GMMU_ENGINE_OP_FILL;
    r.len = 200 * TB_CHUNK;
    r.dst = 0x123456000ull;
    r.pattern = 0x0123456789ABCDEFull;
    tb_pages_clear(tb);
    map_range(tb, r.dst, r.len, true);
    for (unsigned i = 0; i < tb->npages; i++)
        tb->pages[i].zero = 0;
    tb->pages[1].pa = tb->ddr_size + 0x10000;
    reindex(tb);
    ref_run(tb, &r, UINT64_MAX, &exp_buf);
    if (!exp_buf.write_err || exp_buf.fault_va != 0x123457000ull)
        tb_fail(tb, "write-error set-up: the model expects no write error at VA 0x123457000");
    program(tb, &r);
    start(tb, r.op);
    tb_wait_done(tb);
    check_registers(tb, &r, &exp_buf, false, "write error");
    check_memory(tb, &exp_buf, "write error");

    /* The same, with the next chunk faulting and B responses late: the
     * translation fault is seen first, but the write error is older. */
    tb->pages[1].chunk_fault = 2;
    tb->pages[1].chunk_reason = GMMU_FAULT_INVALID;
    tb->env.gate_pct[2] = 3;
    ref_run(tb, &r, UINT64_MAX, &exp_buf);
    program(tb, &r);
    start(tb, r.op);
    tb_wait_done(tb);
    check_registers(tb, &r, &exp_buf, false, "late write error");
    check_memory(tb, &exp_buf, "late write error");
    tb->env = ideal;

    directed_fetch(tb);
    tb->env = ideal;

    printf(
        "directed: registers, empty runs, writes while busy, write errors, fetch and NoExecute: %s\n",
        tb->errors == errs ? "PASS" : "FAIL");
    return tb->errors == errs;
}

/* Beats per cycle of long runs: translation latency 1, the bus always open. */
bool test_throughput(struct tb *tb, uint64_t len, double min_ratio)
{
    unsigned errs = tb->errors;
    struct tb_env ideal = { 1, 1, true, 100, { 100, 100, 100, 100, 100 } };
    tb->env = ideal;
    bool ok = true;
    for (unsigned op = 0; op < 4; op++) {
        struct run r = { op, UINT64_C(0x100000000000), UINT64_C(0x200000000000), len,
                         0x5555AAAA5555AAAAull };
        tb->asid = 2;
        tb_pages_clear(tb);
        if (need_src(op))
            map_range(tb, r.src, r.len, true);
        if (need_dst(op))
            map_range(tb, r.dst, r.len, true);
        for (unsigned i = 0; i < tb->npages; i++)
            tb->pages[i].zero = tb->pages[i].nx = 0;
        ref_run(tb, &r, UINT64_MAX, &exp_buf);
        program(tb, &r);
        start(tb, op);
        tb_wait_done(tb);
        uint32_t cycles = tb_reg_read(tb, GMMU_ENGINE_CYCLES);
        double ratio = (double)(len / 8) / cycles;
        check_registers(tb, &r, &exp_buf, false, "throughput");
        check_memory(tb, &exp_buf, "throughput");
        printf("throughput: %-8s %7" PRIu64 " KiB, %6" PRIu64
               " beats per stream in %6u cycles: %.3f beats/cycle%s\n",
               gmmu_engine_op_name(op), len >> 10, len / 8, cycles, ratio,
               op == GMMU_ENGINE_OP_COPY ? " (read and write each)" : "");
        if (ratio < min_ratio) {
            tb_fail(tb, "throughput of %s: %.3f beats per cycle, below %.2f",
                    gmmu_engine_op_name(op), ratio, min_ratio);
            ok = false;
        }
    }
    return ok && tb->errors == errs;
}

/* ------------------------------------------------------------ physical mode */
/* Pages of [lo, hi) below the DDR's end, as identity entries of the table
   (never translated in physical mode: check_memory compares them), filled
   with random bytes. An address at or above 4 GiB adds the page it would
   alias on the 32-bit port, which must stay untouched. */
static void phys_pages(struct tb *tb, uint64_t lo, uint64_t hi)
{
    for (uint64_t a = lo & ~(uint64_t)(TB_PAGE - 1); a < hi; a += TB_PAGE) {
        uint64_t pa = a & 0xFFFFFFFFu;
        if (pa + TB_PAGE > tb->ddr_size || tb_page_by_pa(tb, pa))
            continue;
        if (!tb_page_add(tb, pa >> 12, pa)) {
            tb_fail(tb, "test set-up: page table full");
            return;
        }
        fill_random(tb, pa);
    }
}

/* A random 64-byte aligned address for a physical-mode stream of len bytes:
   mostly inside the DDR, sometimes across its end (DECERR), at or across
   4 GiB (BUS_ERROR without a burst), or far above it. */
static uint64_t phys_addr(struct tb *tb, uint64_t len, bool faults)
{
    unsigned k = faults ? (unsigned)rng_below(&tb->rng, 5) : 0;
    uint64_t chunks = tb->ddr_size / TB_CHUNK;
    switch (k) {
    case 1: /* across the DDR's end */
        return tb->ddr_size - (1 + rng_below(&tb->rng, len / TB_CHUNK + 1)) * TB_CHUNK;
    case 2: /* across 4 GiB */
        return (UINT64_C(1) << 32) - (1 + rng_below(&tb->rng, len / TB_CHUNK + 1)) * TB_CHUNK;
    case 3: /* above 4 GiB, over an alias of DDR */
        return (UINT64_C(1) << 32) * (1 + rng_below(&tb->rng, 3)) +
               rng_below(&tb->rng, chunks / 2) * TB_CHUNK;
    default:
        return rng_below(&tb->rng, chunks - len / TB_CHUNK) * TB_CHUNK;
    }
}

static void phys_new_run(struct tb *tb, struct run *r, bool faults)
{
    r->op = (unsigned)rng_below(&tb->rng, 4);
    r->len = random_chunks(tb) * TB_CHUNK;
    r->pattern = rng_next(&tb->rng);
    tb->asid = (uint32_t)rng_below(&tb->rng, 1u << tb->prm.asid_bits);
    tb_pages_clear(tb);
    ddr_model_clear_errors(tb->ddr);
    n_err_ranges = 0;
    /* COPY's streams must not overlap (undefined): draw again until apart. */
    do {
        r->src = phys_addr(tb, r->len, faults);
        r->dst = phys_addr(tb, r->len, faults);
    } while (r->op == GMMU_ENGINE_OP_COPY &&
             (r->src & 0xFFFFFFFFu) < (r->dst & 0xFFFFFFFFu) + r->len + TB_PAGE &&
             (r->dst & 0xFFFFFFFFu) < (r->src & 0xFFFFFFFFu) + r->len + TB_PAGE);
    /* The streams' pages and a page either side: nothing outside is written. */
    if (need_src(r->op))
        phys_pages(tb, r->src >= TB_PAGE ? r->src - TB_PAGE : 0, r->src + r->len + TB_PAGE);
    if (need_dst(r->op))
        phys_pages(tb, r->dst >= TB_PAGE ? r->dst - TB_PAGE : 0, r->dst + r->len + TB_PAGE);
    if (faults && need_src(r->op) && r->len && r->src + r->len <= tb->ddr_size &&
        rng_chance(&tb->rng, 40)) {
        uint64_t a = r->src + rng_below(&tb->rng, r->len / 8) * 8;
        if (ddr_model_inject_read_error(tb->ddr, a, a + 8)) {
            err_ranges[0].lo = a;
            err_ranges[0].hi = a + 8;
            n_err_ranges = 1;
        }
    }
    tb->phys_src = r->src;
    tb->phys_dst = r->dst;
    tb->phys_len = r->len;
}

/* Physical mode (CTRL.PHYS): random runs against the model (addresses used
   as DDR addresses; the MMU port idle; BUS_ERROR at or above 4 GiB, DECERR
   beyond the DDR, read errors; some aborted), then a translated run to show
   the mode ends with PHYS 0, then the throughput of both modes on the same
   memory. */
bool test_phys(struct tb *tb, unsigned count, uint64_t tput_len)
{
    unsigned errs = tb->errors, faults = 0, aborted_runs = 0, by_op[4] = { 0 };
    uint64_t bytes = 0;

    tb->env = (struct tb_env){ 1, 1, true, 100, { 100, 100, 100, 100, 100 } };
    tb_reg_write(tb, GMMU_ENGINE_CTRL,
                 GMMU_ENGINE_CTRL_PHYS | (GMMU_ENGINE_OP_COPY << GMMU_ENGINE_CTRL_OP_LSB));
    if (tb_reg_read(tb, GMMU_ENGINE_CTRL) !=
        (GMMU_ENGINE_CTRL_PHYS | (GMMU_ENGINE_OP_COPY << GMMU_ENGINE_CTRL_OP_LSB)))
        tb_fail(tb, "CTRL reads 0x%x after a write of PHYS | OP COPY",
                tb_reg_read(tb, GMMU_ENGINE_CTRL));

    for (unsigned n = 0; n < count && tb->errors == errs; n++) {
        struct run r;
        bool faulty = rng_chance(&tb->rng, 45);
        /* Faulty runs are not aborted: a write error's later posted writes
           are optional to the model only up to the next fault. */
        bool abort = !faulty && rng_chance(&tb->rng, 15);
        random_env(tb);
        tb->phys = true;
        phys_new_run(tb, &r, faulty);
        program(tb, &r);
        start(tb, r.op);
        if (abort) {
            unsigned wait = (unsigned)rng_below(&tb->rng, 400);
            for (unsigned i = 0; i < wait && !tb->io.done; i++)
                tb_cycle(tb);
            tb_reg_write(tb, GMMU_ENGINE_CTRL, GMMU_ENGINE_CTRL_ABORT);
        }
        if (!tb_wait_done(tb))
            break;
        bool aborted = (tb_reg_read(tb, GMMU_ENGINE_STATUS) & GMMU_ENGINE_STATUS_ABORTED) != 0;
        uint64_t limit = UINT64_MAX;
        if (aborted) {
            /* Stopped early: the model runs the chunks the engine says it did. */
            uint32_t bd = tb_reg_read(tb, GMMU_ENGINE_BYTES_DONE);
            if (bd % TB_CHUNK || bd > r.len)
                tb_fail(tb, "phys abort: BYTES_DONE %u for length %" PRIu64, bd, r.len);
            limit = bd / TB_CHUNK;
            aborted_runs++;
        }
        ref_run(tb, &r, limit, &exp_buf);
        /* A fault the abort cut off is not reported: the model stops before it. */
        if (aborted)
            exp_buf.fault = exp_buf.write_err = false;
        faults += exp_buf.fault;
        bytes += exp_buf.bytes_done;
        by_op[r.op]++;
        char what[64];
        snprintf(what, sizeof what, "phys run %u", n);
        if (!aborted)
            check_registers(tb, &r, &exp_buf, false, what);
        else
            tb_reg_write(tb, GMMU_ENGINE_STATUS, GMMU_ENGINE_STATUS_DONE);
        check_memory(tb, &exp_buf, what);
        if (tb->cnt.translations)
            tb_fail(tb, "%s: %" PRIu64 " translations", what, tb->cnt.translations);
    }
    ddr_model_clear_errors(tb->ddr);
    n_err_ranges = 0;

    /* The bound: a FILL at 4 GiB + 0x100000 faults at its first chunk, with
       no burst, and the DDR page it would alias keeps its bytes. */
    tb->env = (struct tb_env){ 1, 1, true, 100, { 100, 100, 100, 100, 100 } };
    struct run b = { GMMU_ENGINE_OP_FILL, 0, (UINT64_C(1) << 32) + 0x100000, 16 * TB_CHUNK, 7 };
    tb_pages_clear(tb);
    phys_pages(tb, b.dst, b.dst + b.len);
    tb->phys_dst = b.dst;
    tb->phys_len = b.len;
    ref_run(tb, &b, UINT64_MAX, &exp_buf);
    if (!exp_buf.fault || exp_buf.reason != GMMU_FAULT_BUS_ERROR || exp_buf.bytes_done)
        tb_fail(tb, "phys bound set-up: the model expects no BUS_ERROR at chunk 0");
    program(tb, &b);
    start(tb, b.op);
    tb_wait_done(tb);
    if (tb->cnt.aw || tb->cnt.ar)
        tb_fail(tb, "phys bound: %" PRIu64 " AW, %" PRIu64 " AR", tb->cnt.aw, tb->cnt.ar);
    check_registers(tb, &b, &exp_buf, false, "phys bound");
    check_memory(tb, &exp_buf, "phys bound");

    /* PHYS 0 again: the next run translates. */
    tb->phys = false;
    struct run v = { GMMU_ENGINE_OP_COPY, 0x5500000000ull, 0x6600000000ull, 32 * TB_CHUNK, 0 };
    tb->asid = 4;
    tb_pages_clear(tb);
    map_range(tb, v.src, v.len, true);
    map_range(tb, v.dst, v.len, true);
    ref_run(tb, &v, UINT64_MAX, &exp_buf);
    program(tb, &v);
    start(tb, v.op);
    tb_wait_done(tb);
    if (tb->cnt.translations != 2 * v.len / TB_CHUNK)
        tb_fail(tb, "after physical mode: %" PRIu64 " translations, expected %" PRIu64,
                tb->cnt.translations, 2 * v.len / TB_CHUNK);
    check_registers(tb, &v, &exp_buf, false, "translated after physical");
    check_memory(tb, &exp_buf, "translated after physical");

    printf("phys: %u runs (fill %u, copy %u, checksum %u, fetch %u), %u faulted, %u aborted, "
           "%" PRIu64 " bytes done, the 4 GiB bound, translation after: %s\n",
           count, by_op[0], by_op[1], by_op[2], by_op[3], faults, aborted_runs, bytes,
           tb->errors == errs ? "PASS" : "FAIL");

    /* Throughput: the same job on the same DDR bytes, through the VA path
       (identity-mapped 4 KiB VRAM pages, translation latency 1) and in
       physical mode; cycles START to DONE. */
    for (unsigned op = 0; op < 3 && tput_len; op++) {
        struct run t = { op, 0x1000000, 0x3000000, tput_len, 0x3C3C3C3C5A5A5A5Aull };
        uint32_t cyc[2];
        for (unsigned m = 0; m < 2; m++) {
            tb->phys = m == 1;
            tb->asid = 2;
            tb_pages_clear(tb);
            for (uint64_t a = 0; a < t.len; a += TB_PAGE) {
                if (need_src(op))
                    tb_page_add(tb, (t.src + a) >> 12, t.src + a);
                if (need_dst(op))
                    tb_page_add(tb, (t.dst + a) >> 12, t.dst + a);
            }
            tb->phys_src = t.src;
            tb->phys_dst = t.dst;
            tb->phys_len = t.len;
            ref_run(tb, &t, UINT64_MAX, &exp_buf);
            program(tb, &t);
            start(tb, op);
            tb_wait_done(tb);
            cyc[m] = tb_reg_read(tb, GMMU_ENGINE_CYCLES);
            check_registers(tb, &t, &exp_buf, false, m ? "phys throughput" : "VA throughput");
            check_memory(tb, &exp_buf, m ? "phys throughput" : "VA throughput");
        }
        printf("phys: %-8s %5" PRIu64 " KiB: VA %6u cycles, physical %6u cycles, "
               "physical/VA throughput %.3f\n",
               gmmu_engine_op_name(op), t.len >> 10, cyc[0], cyc[1], (double)cyc[0] / cyc[1]);
    }
    tb->phys = false;
    return tb->errors == errs;
}
