/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paging engine testbench core: runs the engine cycle by cycle against two
 * AXI4 slave models (sim/ddr_model.h: one for the DDR port, a second one
 * standing for system memory at SYS_BASE), a modelled MMU on the
 * invalidation port, and a Wishbone master for its registers and queue.
 *
 * Every AXI channel of both ports has a gate that opens with a per-test
 * probability (back-pressure). Bus checks on every cycle: bursts INCR of
 * 64-bit beats, at most MaxBurst, never across 4 KiB, ID 0, full strobes,
 * W never before its AW; the models' own protocol checks (valid held,
 * WLAST); no AR of a COPY before every earlier write was answered; no
 * invalidation request while a write is outstanding, and no burst while
 * the MMU reports busy. Any failure prints and exits (status 1); so does
 * the watchdog when a test runs longer than its cycle budget.
 */
#ifndef GMMU_TESTS_PAGING_TB_H
#define GMMU_TESTS_PAGING_TB_H

#include <stdbool.h>
#include <stdint.h>

#include "ddr_model.h"
#include "dut.h"
#include "ref.h"
#include "tb_rng.h"

/* ------------------------------------------------------------ memory map of the test */
#define TB_DDR_SIZE (UINT64_C(64) << 20)         /* the DDR model */
#define TB_SYS_BASE UINT64_C(0x00007F0000000000) /* system memory as the engine addresses it */
#define TB_SYS_SIZE (UINT64_C(16) << 20)         /* the system-memory model */
#define TB_REGION   (UINT64_C(2) << 20)          /* test traffic stays in the first 2 MiB of each */

enum { TB_DDR = 0, TB_SYS = 1 };
enum { CH_AW, CH_W, CH_B, CH_AR, CH_R, CH_N };

struct tb_env {
    unsigned gate_pct[2][CH_N];          /* chance each channel is open in a cycle */
    unsigned inv_ready_pct;              /* chance the MMU accepts a request in a cycle */
    unsigned inv_busy_min, inv_busy_max; /* MMU busy min..max cycles after accepting */
};

#define TB_MAX_AW  256u
#define TB_MAX_ERR 4u

struct tb_aw {
    uint64_t addr;
    unsigned beats, sent;
};

struct tb_port {
    struct ddr_model *model;
    struct axi4_pins pins;
    bool gate[CH_N];
    bool aw_wait, w_wait, ar_wait; /* the model saw valid without a handshake last cycle */
    struct tb_aw aw[TB_MAX_AW]; /* accepted AWs: [b_idx, aw_count) wait for B, [w_idx, ..) for W */
    uint64_t aw_count, w_idx, b_idx;
    uint64_t ar_bursts, r_beats, w_beats, b_count;
    uint64_t werr_lo[TB_MAX_ERR],
        werr_hi[TB_MAX_ERR]; /* B answers SLVERR for bursts touching these */
    unsigned n_werr;
};

struct tb {
    struct dut *dut;
    struct dut_params prm;
    struct paging_pins pins;
    struct tb_port port[2];
    struct rng rng;
    struct tb_env env;
    struct ref ref;
    uint64_t cycle, deadline;
    const char *test;

    /* Queue producer state (the firmware's view) */
    uint32_t head;

    /* MMU model */
    unsigned inv_busy_left;
    uint64_t inv_requests;
    uint64_t inv_aw_mark; /* AW + AR handshakes when the MMU went busy */
    struct ref_flush inv_log[REF_MAX_FLUSHES];

    /* COPY ordering check: read beats at which the next COPY's reads begin */
    uint64_t ar_beats, copy_cum;
    uint64_t copy_start[1024];
    unsigned copy_head, copy_tail;
};

struct tb *tb_create(uint64_t seed, unsigned ddr_latency, unsigned sys_latency, const char *trace);
void tb_destroy(struct tb *t);

_Noreturn void tb_fail(struct tb *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define TB_CHECK(t, cond, ...)         \
    do {                               \
        if (!(cond))                   \
            tb_fail((t), __VA_ARGS__); \
    } while (0)

/* Starts a test: name, environment, cycle budget for the watchdog. */
void tb_begin(struct tb *t, const char *name, const struct tb_env *env, uint64_t budget);
void tb_env_ideal(struct tb_env *e);
void tb_env_random(struct tb *t, struct tb_env *e);

void tb_cycle(struct tb *t);
void tb_cycles(struct tb *t, unsigned n);

/* Registers (byte offsets in the window) */
void tb_wr(struct tb *t, uint32_t off, uint32_t v);
uint32_t tb_rd(struct tb *t, uint32_t off);

/* Queue: write a packet at the producer position (not yet published);
 * returns false if it does not fit in the free space. */
bool tb_queue_put(struct tb *t, const uint64_t *w, unsigned n);
void tb_publish(struct tb *t);
/* Polls STATUS until BUSY is 0 (watchdog-bounded). */
void tb_wait_idle(struct tb *t);

/* Fills the test regions of both memories (and the reference) with random words. */
void tb_randomize_memory(struct tb *t);
/* Copies the models' test regions into the reference (after an error). */
void tb_sync_ref(struct tb *t);
/* Compares the test regions word by word. */
void tb_compare_memory(struct tb *t);

/* Registers the next COPY (its word count) for the read-ordering check. */
void tb_expect_copy(struct tb *t, uint32_t words);
void tb_reset_tracking(struct tb *t);

void tb_inject_write_error(struct tb *t, int port, uint64_t lo, uint64_t hi);
void tb_inject_read_error(struct tb *t, int port, uint64_t lo, uint64_t hi);
void tb_clear_errors(struct tb *t);

#endif /* GMMU_TESTS_PAGING_TB_H */
