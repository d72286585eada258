/* SPDX-License-Identifier: Apache-2.0 */
#include "tb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/paging.h"

#define OFF_QUEUE GMMU_PAGING_QUEUE_OFFSET

_Noreturn void tb_fail(struct tb *t, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL [%s] cycle %llu: ", t->test ? t->test : "?",
            (unsigned long long)t->cycle);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

struct tb *tb_create(uint64_t seed, unsigned ddr_latency, unsigned sys_latency, const char *trace)
{
    struct tb *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    rng_seed(&t->rng, seed);
    t->prm = dut_params();
    struct ddr_model_config dc = { TB_DDR_SIZE, ddr_latency, 0, 0 };
    struct ddr_model_config sc = { TB_SYS_SIZE, sys_latency, 0, 0 };
    t->port[TB_DDR].model = ddr_model_create(&dc);
    t->port[TB_SYS].model = ddr_model_create(&sc);
    t->ref.ddr = sparse_mem_create(TB_DDR_SIZE);
    t->ref.sys = sparse_mem_create(TB_SYS_SIZE);
    t->dut = dut_create(trace);
    if (!t->port[0].model || !t->port[1].model || !t->ref.ddr || !t->ref.sys || !t->dut) {
        tb_destroy(t);
        return NULL;
    }
    t->ref.cfg.queue_words = t->prm.queue_words;
    t->ref.cfg.asid_bits = t->prm.asid_bits;
    t->ref.cfg.ddr_size = TB_DDR_SIZE;
    t->ref.cfg.sys_base = TB_SYS_BASE;
    t->pins.ddr_size = TB_DDR_SIZE;
    dut_reset(t->dut);
    tb_env_ideal(&t->env);
    return t;
}

void tb_destroy(struct tb *t)
{
    if (!t)
        return;
    dut_destroy(t->dut);
    ddr_model_destroy(t->port[0].model);
    ddr_model_destroy(t->port[1].model);
    sparse_mem_destroy(t->ref.ddr);
    sparse_mem_destroy(t->ref.sys);
    free(t);
}

void tb_env_ideal(struct tb_env *e)
{
    memset(e, 0, sizeof *e);
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < CH_N; c++)
            e->gate_pct[p][c] = 100;
    e->inv_ready_pct = 100;
    e->inv_busy_max = 4;
}

void tb_env_random(struct tb *t, struct tb_env *e)
{
    static const unsigned levels[] = { 100, 100, 90, 70, 50, 25 };
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < CH_N; c++)
            e->gate_pct[p][c] = levels[rng_below(&t->rng, 6)];
    e->inv_ready_pct = (unsigned)(10 + rng_below(&t->rng, 91));
    e->inv_busy_max = (unsigned)rng_below(&t->rng, 120);
}

void tb_begin(struct tb *t, const char *name, const struct tb_env *env, uint64_t budget)
{
    t->test = name;
    t->env = *env;
    t->deadline = t->cycle + budget;
}

/* The engine's address as the slave model sees it: VRAM offsets as they
 * are; system memory relative to TB_SYS_BASE, anything outside it beyond
 * the model (which answers DECERR). */
static uint32_t model_addr(int port, uint64_t a)
{
    if (port == TB_DDR)
        return (uint32_t)a;
    uint64_t off = a - TB_SYS_BASE;
    return off < TB_SYS_SIZE ? (uint32_t)off : (uint32_t)TB_SYS_SIZE + 0x1000u;
}

static bool burst_hits(const struct tb_port *P, uint64_t addr, unsigned beats)
{
    for (unsigned i = 0; i < P->n_werr; i++)
        if (addr < P->werr_hi[i] && addr + 8ull * beats > P->werr_lo[i])
            return true;
    return false;
}

static uint64_t outstanding_writes(const struct tb *t)
{
    return (t->port[0].aw_count - t->port[0].b_idx) + (t->port[1].aw_count - t->port[1].b_idx);
}

static uint64_t bursts_accepted(const struct tb *t)
{
    return t->port[0].aw_count + t->port[1].aw_count + t->port[0].ar_bursts + t->port[1].ar_bursts;
}

static void check_burst(struct tb *t, int p, const char *ch, uint64_t addr, unsigned len,
                        unsigned size, unsigned burst, unsigned id)
{
    unsigned beats = len + 1;
    TB_CHECK(t, beats <= t->prm.max_burst, "port %d %s: %u beats > MaxBurst %u", p, ch, beats,
             t->prm.max_burst);
    TB_CHECK(t, size == 3 && burst == AXI_BURST_INCR && id == 0,
             "port %d %s: size %u burst %u id %u", p, ch, size, burst, id);
    TB_CHECK(t, (addr & 7) == 0, "port %d %s: unaligned address %#llx", p, ch,
             (unsigned long long)addr);
    TB_CHECK(t, (addr & 0xFFF) + 8ull * beats <= 4096,
             "port %d %s: burst %#llx + %u beats crosses 4 KiB", p, ch, (unsigned long long)addr,
             beats);
}

void tb_cycle(struct tb *t)
{
    struct paging_pins *pp = &t->pins;
    for (int p = 0; p < 2; p++) {
        struct tb_port *P = &t->port[p];
        struct paging_axi_in *in = p ? &pp->sys_in : &pp->ddr_in;
        ddr_model_drive(P->model, &P->pins);
        for (int c = 0; c < CH_N; c++)
            P->gate[c] = rng_chance(&t->rng, t->env.gate_pct[p][c]);
        /* A valid the model has seen must stay visible until it is taken. */
        P->gate[CH_AW] |= P->aw_wait;
        P->gate[CH_W] |= P->w_wait;
        P->gate[CH_AR] |= P->ar_wait;
        in->awready = P->pins.awready && P->gate[CH_AW];
        in->wready = P->pins.wready && P->gate[CH_W];
        in->bvalid = P->pins.bvalid && P->gate[CH_B];
        in->bid = P->pins.bid;
        in->bresp = P->pins.bresp;
        if (P->pins.bvalid && P->b_idx < P->aw_count) {
            const struct tb_aw *a = &P->aw[P->b_idx % TB_MAX_AW];
            if (burst_hits(P, a->addr, a->beats))
                in->bresp = AXI_RESP_SLVERR;
        }
        in->arready = P->pins.arready && P->gate[CH_AR];
        in->rvalid = P->pins.rvalid && P->gate[CH_R];
        in->rdata = P->pins.rdata;
        in->rresp = P->pins.rresp;
        in->rlast = P->pins.rlast;
        in->rid = P->pins.rid;
    }
    pp->inv_busy = t->inv_busy_left > 0;
    pp->inv_ready = !pp->inv_busy && rng_chance(&t->rng, t->env.inv_ready_pct);

    dut_eval(t->dut, pp);

    bool inv_hs = pp->inv_valid && pp->inv_ready;
    if (inv_hs) {
        TB_CHECK(t, outstanding_writes(t) == 0 && !pp->ddr_out.awvalid && !pp->sys_out.awvalid,
                 "FLUSH_TLB requested with %llu writes outstanding",
                 (unsigned long long)outstanding_writes(t));
        if (t->inv_requests < REF_MAX_FLUSHES) {
            struct ref_flush f = { pp->inv_type, pp->inv_asid, pp->inv_start, pp->inv_end };
            t->inv_log[t->inv_requests] = f;
        }
        t->inv_requests++;
    }

    for (int p = 0; p < 2; p++) {
        struct tb_port *P = &t->port[p];
        struct paging_axi_in *in = p ? &pp->sys_in : &pp->ddr_in;
        struct paging_axi_out *o = p ? &pp->sys_out : &pp->ddr_out;
        TB_CHECK(t, o->bready && o->rready, "port %d: bready/rready not 1", p);
        if (o->wvalid && in->wready) {
            TB_CHECK(t, P->w_idx < P->aw_count, "port %d: W beat before its AW", p);
            struct tb_aw *a = &P->aw[P->w_idx % TB_MAX_AW];
            TB_CHECK(t, o->wstrb == 0xFF, "port %d: WSTRB %#x", p, o->wstrb);
            TB_CHECK(t, o->wlast == (a->sent + 1 == a->beats), "port %d: WLAST wrong", p);
            if (++a->sent == a->beats)
                P->w_idx++;
            P->w_beats++;
        }
        if (in->bvalid && o->bready) {
            TB_CHECK(t, P->b_idx < P->w_idx, "port %d: B before the burst's data", p);
            P->b_idx++;
            P->b_count++;
        }
        if (o->awvalid && in->awready) {
            check_burst(t, p, "AW", o->awaddr, o->awlen, o->awsize, o->awburst, o->awid);
            TB_CHECK(t, P->aw_count - P->b_idx < TB_MAX_AW, "port %d: too many AWs", p);
            struct tb_aw a = { o->awaddr, o->awlen + 1u, 0 };
            P->aw[P->aw_count++ % TB_MAX_AW] = a;
            TB_CHECK(t, t->inv_busy_left == 0, "write burst while the MMU invalidates");
        }
        if (o->arvalid && in->arready) {
            check_burst(t, p, "AR", o->araddr, o->arlen, o->arsize, o->arburst, o->arid);
            TB_CHECK(t, t->inv_busy_left == 0, "read burst while the MMU invalidates");
            if (t->copy_head < t->copy_tail && t->copy_start[t->copy_head % 1024] == t->ar_beats) {
                TB_CHECK(t, outstanding_writes(t) == 0,
                         "COPY read issued with %llu earlier writes outstanding",
                         (unsigned long long)outstanding_writes(t));
                t->copy_head++;
            }
            t->ar_beats += o->arlen + 1u;
            P->ar_bursts++;
        }
        if (in->rvalid && o->rready)
            P->r_beats++;

        /* The model's view, through the gates. */
        struct axi4_pins *m = &P->pins;
        m->awvalid = o->awvalid && P->gate[CH_AW];
        m->awid = o->awid;
        m->awaddr = model_addr(p, o->awaddr);
        m->awlen = o->awlen;
        m->awsize = o->awsize;
        m->awburst = o->awburst;
        m->wvalid = o->wvalid && P->gate[CH_W];
        m->wdata = o->wdata;
        m->wstrb = o->wstrb;
        m->wlast = o->wlast;
        m->bready = o->bready && P->gate[CH_B];
        m->arvalid = o->arvalid && P->gate[CH_AR];
        m->arid = o->arid;
        m->araddr = model_addr(p, o->araddr);
        m->arlen = o->arlen;
        m->arsize = o->arsize;
        m->arburst = o->arburst;
        m->rready = o->rready && P->gate[CH_R];
        P->aw_wait = m->awvalid && !m->awready;
        P->w_wait = m->wvalid && !m->wready;
        P->ar_wait = m->arvalid && !m->arready;
        ddr_model_clock(P->model, m);
        TB_CHECK(t, ddr_model_protocol_errors(P->model) == 0, "port %d: slave model saw: %s", p,
                 ddr_model_last_protocol_error(P->model));
    }

    if (inv_hs) {
        t->inv_busy_left =
            t->env.inv_busy_min +
            (unsigned)rng_below(&t->rng, t->env.inv_busy_max - t->env.inv_busy_min + 1ull);
        t->inv_aw_mark = bursts_accepted(t);
    } else if (t->inv_busy_left > 0) {
        t->inv_busy_left--;
    }

    dut_tick(t->dut);
    t->cycle++;
    TB_CHECK(t, t->cycle < t->deadline, "watchdog: the test did not finish in its cycle budget");
}

void tb_cycles(struct tb *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        tb_cycle(t);
}

static uint32_t wb_access(struct tb *t, uint32_t off, bool we, uint32_t v)
{
    t->pins.wb_cyc = t->pins.wb_stb = 1;
    t->pins.wb_we = we;
    t->pins.wb_adr = off >> 2;
    t->pins.wb_dat = v;
    for (unsigned n = 0;; n++) {
        tb_cycle(t);
        if (t->pins.wb_ack)
            break;
        TB_CHECK(t, n < 4, "Wishbone access to %#x not answered", off);
    }
    t->pins.wb_cyc = t->pins.wb_stb = t->pins.wb_we = 0;
    return t->pins.wb_dat_o;
}

void tb_wr(struct tb *t, uint32_t off, uint32_t v)
{
    (void)wb_access(t, off, true, v);
}
uint32_t tb_rd(struct tb *t, uint32_t off)
{
    return wb_access(t, off, false, 0);
}

bool tb_queue_put(struct tb *t, const uint64_t *w, unsigned n)
{
    uint32_t tail = tb_rd(t, GMMU_PAGING_TAIL);
    uint32_t used = t->head - tail;
    TB_CHECK(t, used <= t->prm.queue_words, "HEAD - TAIL = %u > QUEUE_WORDS", used);
    if (n > t->prm.queue_words - used)
        return false;
    for (unsigned i = 0; i < n; i++) {
        uint32_t idx = (t->head + i) % t->prm.queue_words;
        tb_wr(t, OFF_QUEUE + 8 * idx, (uint32_t)w[i]);
        tb_wr(t, OFF_QUEUE + 8 * idx + 4, (uint32_t)(w[i] >> 32));
    }
    t->head += n;
    return true;
}

void tb_publish(struct tb *t)
{
    tb_wr(t, GMMU_PAGING_HEAD, t->head);
}

void tb_wait_idle(struct tb *t)
{
    while (tb_rd(t, GMMU_PAGING_STATUS) & GMMU_PAGING_STATUS_BUSY)
        tb_cycles(t, (unsigned)rng_below(&t->rng, 8));
}

void tb_randomize_memory(struct tb *t)
{
    for (uint64_t a = 0; a < TB_REGION; a += 8) {
        uint64_t v = rng_next(&t->rng), u = rng_next(&t->rng);
        sparse_mem_write_u64(ddr_model_mem(t->port[TB_DDR].model), a, v);
        sparse_mem_write_u64(t->ref.ddr, a, v);
        sparse_mem_write_u64(ddr_model_mem(t->port[TB_SYS].model), a, u);
        sparse_mem_write_u64(t->ref.sys, a, u);
    }
}

void tb_sync_ref(struct tb *t)
{
    for (uint64_t a = 0; a < TB_REGION; a += 8) {
        sparse_mem_write_u64(t->ref.ddr, a,
                             sparse_mem_read_u64(ddr_model_mem(t->port[TB_DDR].model), a));
        sparse_mem_write_u64(t->ref.sys, a,
                             sparse_mem_read_u64(ddr_model_mem(t->port[TB_SYS].model), a));
    }
}

void tb_compare_memory(struct tb *t)
{
    for (int p = 0; p < 2; p++) {
        const struct sparse_mem *got = ddr_model_mem(t->port[p].model);
        const struct sparse_mem *exp = p ? t->ref.sys : t->ref.ddr;
        for (uint64_t a = 0; a < TB_REGION; a += 8) {
            uint64_t g = sparse_mem_read_u64(got, a), e = sparse_mem_read_u64(exp, a);
            TB_CHECK(t, g == e, "%s word %#llx: %#018llx, expected %#018llx",
                     p ? "system memory" : "VRAM", (unsigned long long)(p ? TB_SYS_BASE + a : a),
                     (unsigned long long)g, (unsigned long long)e);
        }
    }
}

void tb_expect_copy(struct tb *t, uint32_t words)
{
    TB_CHECK(t, t->copy_tail - t->copy_head < 1024, "too many COPYs pending");
    t->copy_start[t->copy_tail++ % 1024] = t->copy_cum;
    t->copy_cum += words;
}

/* Only while nothing is in flight (after a drain). */
void tb_reset_tracking(struct tb *t)
{
    t->copy_head = t->copy_tail = 0;
    t->copy_cum = t->ar_beats;
}

void tb_inject_write_error(struct tb *t, int port, uint64_t lo, uint64_t hi)
{
    struct tb_port *P = &t->port[port];
    TB_CHECK(t, P->n_werr < TB_MAX_ERR, "too many write error ranges");
    P->werr_lo[P->n_werr] = lo;
    P->werr_hi[P->n_werr] = hi;
    P->n_werr++;
}

void tb_inject_read_error(struct tb *t, int port, uint64_t lo, uint64_t hi)
{
    TB_CHECK(t,
             ddr_model_inject_read_error(t->port[port].model, model_addr(port, lo),
                                         model_addr(port, hi - 8) + 8),
             "cannot inject a read error");
}

void tb_clear_errors(struct tb *t)
{
    for (int p = 0; p < 2; p++) {
        t->port[p].n_werr = 0;
        ddr_model_clear_errors(t->port[p].model);
    }
}
