// SPDX-License-Identifier: Apache-2.0
/*
 * GPU engine testbench core: runs the engine cycle by cycle against the DDR
 * model and a C stand-in for the MMU, drives its registers (Wishbone) and
 * checks every bus it drives.
 *
 * The stand-in MMU answers each translation from a table of VA pages
 * (struct tb_page), after a random delay and, unless told otherwise, out of
 * order; it checks that tags are unique among the requests in flight. The
 * bus checks are: translation requests and AR/AW/W hold valid and payload
 * until accepted; bursts are 8-beat INCR bursts of 64 bits at 64-byte
 * aligned addresses with full strobes; W never runs ahead of its AW; the
 * sideband (segment, CacheCoherent, PA bits above 31) of every AR and AW
 * is the one of the page the address belongs to; zero pages and faulting
 * pages are never read or written (a FETCH never reads a NoExecute page).
 * Source translations are READ, or EXECUTE in a FETCH run (tb->fetch), and
 * an EXECUTE of a NoExecute page faults NO_EXECUTE, as mmu_port does. In a
 * physical-mode run (tb->phys) any translation request is a failure, and a
 * burst must be a VRAM burst inside its stream's range.
 */
#ifndef GMMU_TESTS_ENGINE_TB_H
#define GMMU_TESTS_ENGINE_TB_H

#include <stdbool.h>
#include <stdint.h>

#include "dut.h"
#include "sparse_mem.h"
#include "tb_rng.h"

/* ------------------------------------------------------------ the stand-in MMU's table */
#define TB_CHUNK     64u
#define TB_PAGE      4096u
#define TB_MAX_PAGES 8192u
#define TB_MAX_XLAT  64u

/* A VA page's translation as the stand-in MMU answers it. */
struct tb_page {
    uint64_t vpn; /* VA >> 12 */
    uint64_t pa;  /* page base; bits 51:32 may be set */
    uint8_t seg, cc, zero, ro, nx;
    uint8_t fault;        /* reason for every access to the page, 0: none */
    uint8_t chunk_reason; /* reason for the chunks in chunk_fault */
    uint64_t chunk_fault; /* bit i: the page's chunk i faults */
};

/* The answer to one translation. */
struct tb_xlat {
    uint8_t fault, zero, seg, cc, ro, nx;
    uint64_t pa;
};

/* Per-run environment. */
struct tb_env {
    unsigned lat_min, lat_max; /* translation latency, cycles from accept to response (>= 1) */
    bool in_order;             /* answer in request order */
    unsigned req_ready_pct;    /* chance the translation request is ready */
    unsigned gate_pct[5];      /* chance each AXI channel is open: AW, W, B, AR, R */
};

struct tb_pend {
    uint64_t seq, ready_cycle;
    struct dut_tr_rsp rsp;
};

/* The bus activity of one run. */
struct tb_counts {
    uint64_t translations, ar, aw, w_beats, r_beats, b;
    uint64_t rsp_reordered; /* responses sent before an older pending one */
};

struct tb {
    struct dut *dut;
    struct ddr_model *ddr;
    struct sparse_mem *ref; /* the expected memory */
    uint64_t ddr_size;
    struct dut_params prm;
    struct dut_io io;
    struct rng rng;
    struct tb_env env;
    uint32_t asid;
    bool fetch; /* the run is a FETCH: source translations are EXECUTE */
    /* The run is in physical mode (CTRL.PHYS): no translation request may
       be made, and every burst is a VRAM burst at a chunk of its stream's
       range [phys_src or phys_dst, + phys_len) below 4 GiB. */
    bool phys;
    uint64_t phys_src, phys_dst, phys_len;
    uint64_t max_cycles; /* per wait; 0: no limit */

    /* the table: pages[] with open-addressing indices by VPN and by PA page */
    struct tb_page pages[TB_MAX_PAGES];
    unsigned npages;
    int32_t by_vpn[4 * TB_MAX_PAGES], by_pa[4 * TB_MAX_PAGES];

    /* translations in flight */
    struct tb_pend pend[TB_MAX_XLAT];
    unsigned npend;
    bool presenting;
    struct tb_pend cur;
    uint64_t seq;
    uint8_t tag_busy[256];

    /* checks across cycles */
    struct dut_tr_req prev_req;
    bool prev_req_wait, prev_ar_wait, prev_aw_wait, prev_w_wait;
    struct axi4_pins prev;
    uint64_t aw_done, w_bursts; /* AW handshakes; W bursts finished */
    unsigned w_beat;

    struct tb_counts cnt;
    unsigned errors;
};

struct tb *tb_create(uint64_t seed, unsigned ddr_latency, const char *trace);
void tb_destroy(struct tb *tb);

/* Reports a failure (the first few are printed) and counts it. */
void tb_fail(struct tb *tb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One clock cycle with the current Wishbone inputs in tb->io.wb. */
void tb_cycle(struct tb *tb);
uint32_t tb_reg_read(struct tb *tb, uint32_t off);
void tb_reg_write(struct tb *tb, uint32_t off, uint32_t val);
/* Cycles until done_o; false (and a failure) after max_cycles. */
bool tb_wait_done(struct tb *tb);

/* The table. */
void tb_pages_clear(struct tb *tb);
struct tb_page *tb_page_add(struct tb *tb, uint64_t vpn, uint64_t pa);
struct tb_page *tb_page_find(struct tb *tb, uint64_t vpn);
struct tb_page *tb_page_by_pa(struct tb *tb, uint64_t pa); /* by PA bits 31:12 */
/* What the stand-in MMU answers for va and access (GMMU_ACCESS_READ, WRITE, EXECUTE). */
struct tb_xlat tb_translate(struct tb *tb, uint64_t va, unsigned access);

/* A new run: clears the counts (the table stays). */
void tb_run_begin(struct tb *tb);
/* After a run: nothing may be in flight. */
void tb_check_idle(struct tb *tb);

#endif /* GMMU_TESTS_ENGINE_TB_H */
