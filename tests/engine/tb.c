// SPDX-License-Identifier: Apache-2.0
/* GPU engine testbench core: the cycle loop, the stand-in MMU and the bus checks (tb.h). */
#include "tb.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmu/engine_regs.h"
#include "gmmu/pte.h"

#define TB_PRINT_ERRORS 10u
#define TB_HASH_SIZE    (4 * TB_MAX_PAGES)

void tb_fail(struct tb *tb, const char *fmt, ...)
{
    if (tb->errors++ < TB_PRINT_ERRORS) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "FAIL (cycle %" PRIu64 "): ", dut_cycle(tb->dut));
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* ------------------------------------------------------------ the table */
static unsigned hash_slot(uint64_t key)
{
    key *= UINT64_C(0x9E3779B97F4A7C15);
    return (unsigned)(key >> 40) % TB_HASH_SIZE;
}

void tb_pages_clear(struct tb *tb)
{
    tb->npages = 0;
    for (unsigned i = 0; i < TB_HASH_SIZE; i++)
        tb->by_vpn[i] = tb->by_pa[i] = -1;
}

static int32_t *hash_find(struct tb *tb, int32_t *table, uint64_t key, bool by_pa)
{
    for (unsigned s = hash_slot(key);; s = (s + 1) % TB_HASH_SIZE) {
        if (table[s] < 0)
            return &table[s];
        const struct tb_page *p = &tb->pages[table[s]];
        uint64_t k = by_pa ? (p->pa & 0xFFFFFFFFu) >> 12 : p->vpn;
        if (k == key)
            return &table[s];
    }
}

struct tb_page *tb_page_find(struct tb *tb, uint64_t vpn)
{
    int32_t *s = hash_find(tb, tb->by_vpn, vpn, false);
    return *s < 0 ? NULL : &tb->pages[*s];
}

struct tb_page *tb_page_by_pa(struct tb *tb, uint64_t pa)
{
    int32_t *s = hash_find(tb, tb->by_pa, (pa & 0xFFFFFFFFu) >> 12, true);
    return *s < 0 ? NULL : &tb->pages[*s];
}

/* Adds a page; NULL if the VPN or the PA page (bits 31:12) is taken or the table is full. */
struct tb_page *tb_page_add(struct tb *tb, uint64_t vpn, uint64_t pa)
{
    if (tb->npages == TB_MAX_PAGES)
        return NULL;
    int32_t *sv = hash_find(tb, tb->by_vpn, vpn, false);
    int32_t *sp = hash_find(tb, tb->by_pa, (pa & 0xFFFFFFFFu) >> 12, true);
    if (*sv >= 0 || *sp >= 0)
        return NULL;
    struct tb_page *p = &tb->pages[tb->npages];
    memset(p, 0, sizeof *p);
    p->vpn = vpn;
    p->pa = pa & ~(uint64_t)(TB_PAGE - 1);
    p->seg = GMMU_SEGMENT_VRAM;
    *sv = *sp = (int32_t)tb->npages++;
    return p;
}

struct tb_xlat tb_translate(struct tb *tb, uint64_t va, unsigned access)
{
    struct tb_xlat x = { 0 };
    const struct tb_page *p = tb_page_find(tb, va >> 12);
    unsigned chunk = (unsigned)((va % TB_PAGE) / TB_CHUNK);
    if (!p)
        x.fault = GMMU_FAULT_INVALID;
    else if (p->fault)
        x.fault = p->fault;
    else if ((p->chunk_fault >> chunk) & 1)
        x.fault = p->chunk_reason;
    else if (access == GMMU_ACCESS_WRITE && p->ro)
        x.fault = GMMU_FAULT_READ_ONLY;
    else if (access == GMMU_ACCESS_EXECUTE && p->nx)
        x.fault = GMMU_FAULT_NO_EXECUTE;
    if (x.fault || !p)
        return x;
    x.zero = p->zero;
    x.seg = p->seg;
    x.cc = p->cc;
    x.ro = p->ro;
    x.nx = p->nx;
    x.pa = p->zero ? 0 : p->pa + (va % TB_PAGE);
    return x;
}

/* ------------------------------------------------------------ set-up */
struct tb *tb_create(uint64_t seed, unsigned ddr_latency, const char *trace)
{
    struct tb *tb = (struct tb *)calloc(1, sizeof *tb);
    if (!tb)
        return NULL;
    struct ddr_model_config mc = { 0, 0, 0, 0 };
    mc.size_bytes = UINT64_C(256) << 20;
    mc.read_latency = ddr_latency;
    tb->ddr = ddr_model_create(&mc);
    tb->ddr_size = mc.size_bytes;
    tb->ref = sparse_mem_create(mc.size_bytes);
    if (!tb->ddr || !tb->ref) {
        tb_destroy(tb);
        return NULL;
    }
    tb->dut = dut_create(tb->ddr, trace);
    if (!tb->dut) {
        tb_destroy(tb);
        return NULL;
    }
    tb->prm = dut_params();
    rng_seed(&tb->rng, seed);
    tb->max_cycles = 2000000;
    tb->env.lat_min = tb->env.lat_max = 1;
    tb->env.req_ready_pct = 100;
    for (unsigned i = 0; i < 5; i++)
        tb->env.gate_pct[i] = 100;
    tb_pages_clear(tb);
    dut_reset(tb->dut);
    return tb;
}

void tb_destroy(struct tb *tb)
{
    if (!tb)
        return;
    dut_destroy(tb->dut);
    ddr_model_destroy(tb->ddr);
    sparse_mem_destroy(tb->ref);
    free(tb);
}

void tb_run_begin(struct tb *tb)
{
    memset(&tb->cnt, 0, sizeof tb->cnt);
}

/* ------------------------------------------------------------ the cycle */
static void present_response(struct tb *tb)
{
    if (tb->presenting || tb->npend == 0)
        return;
    uint64_t now = dut_cycle(tb->dut);
    unsigned oldest = 0;
    for (unsigned i = 1; i < tb->npend; i++) {
        if (tb->pend[i].seq < tb->pend[oldest].seq)
            oldest = i;
    }
    int pick = -1;
    if (tb->env.in_order) {
        if (tb->pend[oldest].ready_cycle <= now)
            pick = (int)oldest;
    } else {
        unsigned ready[TB_MAX_XLAT], n = 0;
        for (unsigned i = 0; i < tb->npend; i++) {
            if (tb->pend[i].ready_cycle <= now)
                ready[n++] = i;
        }
        if (n)
            pick = (int)ready[rng_below(&tb->rng, n)];
    }
    if (pick < 0)
        return;
    if ((unsigned)pick != oldest)
        tb->cnt.rsp_reordered++;
    tb->cur = tb->pend[pick];
    tb->pend[pick] = tb->pend[--tb->npend];
    tb->presenting = true;
}

static void accept_request(struct tb *tb, const struct dut_tr_req *r)
{
    /* A FETCH only executes its source; the other runs read and write. */
    bool access_ok = tb->fetch ? r->access == GMMU_ACCESS_EXECUTE
                               : (r->access == GMMU_ACCESS_READ || r->access == GMMU_ACCESS_WRITE);
    if (!access_ok)
        tb_fail(tb, "translation request with access %u in a %s run", r->access,
                tb->fetch ? "FETCH" : "non-FETCH");
    if (r->va % TB_CHUNK)
        tb_fail(tb, "translation VA 0x%" PRIx64 " not 64-byte aligned", r->va);
    if (r->asid != tb->asid)
        tb_fail(tb, "translation ASID %u, expected %u", r->asid, tb->asid);
    if (r->tag >= (1u << tb->prm.tag_bits) || r->tag >= 256u) {
        tb_fail(tb, "translation tag %u out of range", r->tag);
        return;
    }
    if (tb->tag_busy[r->tag])
        tb_fail(tb, "translation tag %u reused while in flight", r->tag);
    if (tb->npend == TB_MAX_XLAT) {
        tb_fail(tb, "more than %u translations in flight", TB_MAX_XLAT);
        return;
    }
    tb->tag_busy[r->tag] = 1;
    struct tb_xlat x = tb_translate(tb, r->va, r->access);
    struct tb_pend *p = &tb->pend[tb->npend++];
    memset(p, 0, sizeof *p);
    p->seq = tb->seq++;
    unsigned span = tb->env.lat_max > tb->env.lat_min ? tb->env.lat_max - tb->env.lat_min + 1 : 1;
    p->ready_cycle = dut_cycle(tb->dut) + tb->env.lat_min + rng_below(&tb->rng, span);
    p->rsp.valid = 1;
    p->rsp.tag = r->tag;
    p->rsp.fault = x.fault;
    p->rsp.zero = x.zero;
    p->rsp.pa = x.pa;
    p->rsp.seg = x.seg;
    p->rsp.cc = x.cc;
    p->rsp.ro = x.ro;
    p->rsp.nx = x.nx;
    p->rsp.psize = 0;
    tb->cnt.translations++;
}

/* Segment, CacheCoherent and PA bits above 31 must be the page's; the
 * page must be readable (or writable) memory, not Zero or faulting. */
static void check_burst(struct tb *tb, const char *what, uint32_t addr, uint8_t len, uint8_t size,
                        uint8_t burst, const struct dut_sideband *sb, bool write)
{
    if (len != 7 || size != 3 || burst != AXI_BURST_INCR || addr % TB_CHUNK)
        tb_fail(tb, "%s: addr 0x%08x len %u size %u burst %u (want 64-byte aligned 8x64-bit INCR)",
                what, addr, len, size, burst);
    if (tb->phys) {
        /* The address is the stream's own, never an alias of one at or above 4 GiB. */
        uint64_t lo = write ? tb->phys_dst : tb->phys_src;
        if (addr < lo || addr >= lo + tb->phys_len)
            tb_fail(tb,
                    "%s to 0x%08x in a physical-mode run: outside [0x%" PRIx64 ", 0x%" PRIx64 ")",
                    what, addr, lo, lo + tb->phys_len);
        if (sb->seg != GMMU_SEGMENT_VRAM || sb->cc || sb->addr_hi)
            tb_fail(tb, "%s to 0x%08x in a physical-mode run: sideband seg %u cc %u hi 0x%x", what,
                    addr, sb->seg, sb->cc, sb->addr_hi);
        return;
    }
    const struct tb_page *p = tb_page_by_pa(tb, addr);
    if (!p) {
        tb_fail(tb, "%s to 0x%08x: no page maps there", what, addr);
        return;
    }
    unsigned chunk = (addr % TB_PAGE) / TB_CHUNK;
    bool chunk_bad = p->fault || ((p->chunk_fault >> chunk) & 1) || p->zero || (write && p->ro) ||
                     (!write && tb->fetch && p->nx);
    if (chunk_bad || (p->seg == GMMU_SEGMENT_VRAM && (p->pa >> 32)))
        tb_fail(tb, "%s to 0x%08x: the page (VPN 0x%" PRIx64 ") is zero or faults for it", what,
                addr, p->vpn);
    if (sb->seg != p->seg || sb->cc != p->cc || sb->addr_hi != (uint32_t)(p->pa >> 32))
        tb_fail(tb, "%s to 0x%08x: sideband seg %u cc %u hi 0x%x, page has seg %u cc %u hi 0x%x",
                what, addr, sb->seg, sb->cc, sb->addr_hi, p->seg, p->cc, (uint32_t)(p->pa >> 32));
}

void tb_cycle(struct tb *tb)
{
    struct dut_io *io = &tb->io;
    struct rng *r = &tb->rng;

    io->tr_req_ready = rng_chance(r, tb->env.req_ready_pct);
    present_response(tb);
    if (tb->presenting)
        io->rsp = tb->cur.rsp;
    else
        memset(&io->rsp, 0, sizeof io->rsp);
    io->gate_aw = rng_chance(r, tb->env.gate_pct[0]);
    io->gate_w = rng_chance(r, tb->env.gate_pct[1]);
    io->gate_b = rng_chance(r, tb->env.gate_pct[2]);
    io->gate_ar = rng_chance(r, tb->env.gate_pct[3]);
    io->gate_r = rng_chance(r, tb->env.gate_pct[4]);

    dut_eval(tb->dut, io);

    const struct axi4_pins *a = &io->axi;
    /* Physical mode leaves the MMU port idle: not even a request offered. */
    if (tb->phys && io->req.valid)
        tb_fail(tb, "translation request (VA 0x%" PRIx64 ") in a physical-mode run", io->req.va);
    /* Valid must stay up, with the same payload, until accepted. */
    if (tb->prev_req_wait &&
        (!io->req.valid || io->req.va != tb->prev_req.va || io->req.tag != tb->prev_req.tag ||
         io->req.access != tb->prev_req.access || io->req.asid != tb->prev_req.asid))
        tb_fail(tb, "translation request changed before it was accepted");
    if (tb->prev_ar_wait &&
        (!a->arvalid || a->araddr != tb->prev.araddr || a->arid != tb->prev.arid))
        tb_fail(tb, "AR changed before it was accepted");
    if (tb->prev_aw_wait && (!a->awvalid || a->awaddr != tb->prev.awaddr))
        tb_fail(tb, "AW changed before it was accepted");
    if (tb->prev_w_wait && (!a->wvalid || a->wdata != tb->prev.wdata || a->wlast != tb->prev.wlast))
        tb_fail(tb, "W changed before it was accepted");
    tb->prev_req_wait = io->req.valid && !io->tr_req_ready;
    tb->prev_ar_wait = a->arvalid && !a->arready;
    tb->prev_aw_wait = a->awvalid && !a->awready;
    tb->prev_w_wait = a->wvalid && !a->wready;
    tb->prev_req = io->req;
    tb->prev = *a;

    if (io->req.valid && io->tr_req_ready)
        accept_request(tb, &io->req);
    if (tb->presenting && io->rsp_ready) {
        tb->tag_busy[tb->cur.rsp.tag] = 0;
        tb->presenting = false;
    }
    if (a->arvalid && a->arready) {
        check_burst(tb, "AR", a->araddr, a->arlen, a->arsize, a->arburst, &io->ar_sb, false);
        tb->cnt.ar++;
    }
    if (a->awvalid && a->awready) {
        check_burst(tb, "AW", a->awaddr, a->awlen, a->awsize, a->awburst, &io->aw_sb, true);
        tb->cnt.aw++;
        tb->aw_done++;
    }
    if (a->wvalid && a->wready) {
        if (tb->w_bursts >= tb->aw_done)
            tb_fail(tb, "W beat before its AW was accepted");
        if (a->wstrb != 0xFF)
            tb_fail(tb, "W strobes 0x%02x", a->wstrb);
        if ((tb->w_beat == 7) != (a->wlast != 0))
            tb_fail(tb, "WLAST %u on beat %u", a->wlast, tb->w_beat);
        tb->cnt.w_beats++;
        if (++tb->w_beat == 8) {
            tb->w_beat = 0;
            tb->w_bursts++;
        }
    }
    if (a->rvalid && a->rready)
        tb->cnt.r_beats++;
    if (a->bvalid && a->bready)
        tb->cnt.b++;

    dut_tick(tb->dut);
}

/* ------------------------------------------------------------ registers */
static uint32_t wb_access(struct tb *tb, uint32_t off, bool we, uint32_t val)
{
    struct dut_wb *wb = &tb->io.wb;
    wb->cyc = wb->stb = 1;
    wb->we = we;
    wb->adr = off >> 2;
    wb->dat = val;
    uint32_t data = 0;
    for (unsigned i = 0;; i++) {
        tb_cycle(tb);
        if (tb->io.wb_ack) {
            data = tb->io.wb_dat;
            break;
        }
        if (i > 16) {
            tb_fail(tb, "register 0x%02x: no acknowledge", off);
            break;
        }
    }
    memset(wb, 0, sizeof *wb);
    return data;
}

uint32_t tb_reg_read(struct tb *tb, uint32_t off)
{
    return wb_access(tb, off, false, 0);
}
void tb_reg_write(struct tb *tb, uint32_t off, uint32_t val)
{
    (void)wb_access(tb, off, true, val);
}

bool tb_wait_done(struct tb *tb)
{
    for (uint64_t i = 0; tb->max_cycles == 0 || i < tb->max_cycles; i++) {
        tb_cycle(tb);
        if (tb->io.done)
            return true;
    }
    tb_fail(tb, "no done_o within %" PRIu64 " cycles", tb->max_cycles);
    return false;
}

void tb_check_idle(struct tb *tb)
{
    if (tb->npend || tb->presenting)
        tb_fail(tb, "translations still in flight after DONE (%u pending)", tb->npend);
    if (tb->cnt.r_beats != 8 * tb->cnt.ar)
        tb_fail(tb, "%" PRIu64 " R beats for %" PRIu64 " read bursts", tb->cnt.r_beats, tb->cnt.ar);
    if (tb->cnt.w_beats != 8 * tb->cnt.aw || tb->cnt.b != tb->cnt.aw)
        tb_fail(tb, "%" PRIu64 " W beats and %" PRIu64 " B for %" PRIu64 " write bursts",
                tb->cnt.w_beats, tb->cnt.b, tb->cnt.aw);
    if (ddr_model_protocol_errors(tb->ddr))
        tb_fail(tb, "DDR model: %" PRIu64 " AXI protocol errors (last: %s)",
                ddr_model_protocol_errors(tb->ddr), ddr_model_last_protocol_error(tb->ddr));
}
