// SPDX-License-Identifier: Apache-2.0
/*
 * Cycle-level AXI4 slave model of the DDR behind the SoC's 64-bit AXI4 port.
 *
 * The harness calls, once per clock cycle and in this order:
 *   1. ddr_model_drive(m, &pins)  -- sets the slave outputs for this cycle.
 *      They depend only on the model's state, never on this cycle's master
 *      inputs, so the harness may call it before evaluating the RTL.
 *   2. ddr_model_clock(m, &pins)  -- the rising edge: every channel whose
 *      valid and ready were both 1 completes its handshake.
 *
 * Timing: an AR accepted in cycle c presents its first R beat in cycle
 * c + read_latency, then one beat per cycle while rready is 1. Reads are
 * answered in acceptance order. A B response is presented the cycle after
 * the last W beat was accepted; the write is in memory by then.
 */
#ifndef GMMU_SIM_DDR_MODEL_H
#define GMMU_SIM_DDR_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "sparse_mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bus shape: 64-bit data, 32-bit address, 4-bit IDs. */
struct axi4_pins {
    /* write address */ uint8_t awvalid, awready, awid, awlen, awsize, awburst;
    uint32_t awaddr;
    /* write data    */ uint8_t wvalid, wready, wstrb, wlast;
    uint64_t wdata;
    /* write resp    */ uint8_t bvalid, bready, bid, bresp;
    /* read address  */ uint8_t arvalid, arready, arid, arlen, arsize, arburst;
    uint32_t araddr;
    /* read data     */ uint8_t rvalid, rready, rid, rresp, rlast;
    uint64_t rdata;
};

enum axi_burst_type { AXI_BURST_FIXED = 0, AXI_BURST_INCR = 1, AXI_BURST_WRAP = 2 };
enum axi_resp { AXI_RESP_OKAY = 0, AXI_RESP_EXOKAY = 1, AXI_RESP_SLVERR = 2, AXI_RESP_DECERR = 3 };

#define DDR_MODEL_DEFAULT_SIZE_BYTES             (UINT64_C(1) << 30)
#define DDR_MODEL_DEFAULT_READ_LATENCY           40u
#define DDR_MODEL_DEFAULT_MAX_OUTSTANDING_READS  16u
#define DDR_MODEL_DEFAULT_MAX_OUTSTANDING_WRITES 16u
#define DDR_MODEL_WRITE_DATA_BUFFER_BEATS        16u /* W beats held while their AW has not arrived */
#define DDR_MODEL_MAX_ERROR_RANGES               8u

/* A zero field means "use the default" (a read latency of 0 is impossible anyway). */
struct ddr_model_config {
    uint64_t size_bytes;             /* bursts touching addresses >= this get DECERR */
    unsigned read_latency;           /* cycles from AR handshake to the first R beat */
    unsigned max_outstanding_reads;  /* accepted ARs whose last R beat is not yet taken */
    unsigned max_outstanding_writes; /* accepted AWs whose B is not yet taken */
};

struct ddr_model_stats {
    uint64_t cycles;       /* ddr_model_clock calls */
    uint64_t read_bursts;  /* AR handshakes */
    uint64_t read_beats;   /* R handshakes */
    uint64_t write_bursts; /* AW handshakes */
    uint64_t write_beats;  /* W handshakes */
    uint64_t protocol_errors;
    uint64_t injected_read_beats;   /* R beats answered SLVERR by an injected error */
    uint64_t injected_write_bursts; /* write bursts answered SLVERR by an injected error */
};

struct ddr_model;

/* cfg may be NULL for all defaults. Returns NULL if out of host memory. */
struct ddr_model *ddr_model_create(const struct ddr_model_config *cfg);
void ddr_model_destroy(struct ddr_model *m); /* NULL is ignored */

/* The effective configuration, defaults filled in. */
struct ddr_model_config ddr_model_get_config(const struct ddr_model *m);

/* Drops every in-flight transaction (for AXI reset); memory, counters and error ranges stay. */
void ddr_model_reset(struct ddr_model *m);

void ddr_model_drive(const struct ddr_model *m, struct axi4_pins *pins);
void ddr_model_clock(struct ddr_model *m, const struct axi4_pins *pins);

/* Backdoor: offset 0 is the first byte of the AXI address space. */
struct sparse_mem *ddr_model_mem(struct ddr_model *m);

/*
 * Injected errors, in windows [lo, hi) of the address space (at most
 * DDR_MODEL_MAX_ERROR_RANGES set at a time):
 *
 * - DDR_MODEL_FAULT_WRITE: a write burst whose AW is accepted after the
 *   call and that touches the window answers SLVERR (out of range still
 *   DECERR) and writes nothing, none of its beats.
 * - DDR_MODEL_FAULT_READ with a count: a read burst whose AR is accepted
 *   after the call and that touches the window answers SLVERR with data 0
 *   on its beats that overlap the window.
 * - DDR_MODEL_FAULT_READ with count 0 (ddr_model_inject_read_error): read
 *   beats sampled after the call whose bytes overlap the window answer
 *   SLVERR with data 0 (a beat already on the bus is not changed).
 *
 * count: the bursts the window fails before it goes (both kinds together
 * when both are set); 0 fails every one until ddr_model_clear_errors. When
 * windows overlap, the first set takes the burst. Returns false, and does
 * nothing, when lo >= hi, kinds is 0 or has other bits, or the windows are
 * all in use.
 */
enum ddr_model_fault_kind {
    DDR_MODEL_FAULT_READ = 1u,
    DDR_MODEL_FAULT_WRITE = 2u,
    DDR_MODEL_FAULT_ALL = 3u
};
bool ddr_model_inject_error(struct ddr_model *m, unsigned kinds, uint64_t lo, uint64_t hi,
                            unsigned count);
bool ddr_model_inject_read_error(struct ddr_model *m, uint64_t lo, uint64_t hi); /* count 0 */
bool ddr_model_inject_write_error(struct ddr_model *m, uint64_t lo, uint64_t hi, unsigned count);
/* Removes every window (bursts already taken keep their error). */
void ddr_model_clear_errors(struct ddr_model *m);

struct ddr_model_stats ddr_model_get_stats(const struct ddr_model *m);
uint64_t ddr_model_cycles(const struct ddr_model *m);

/* Master misbehaviour seen so far (wlast misplaced, valid withdrawn, ...). */
uint64_t ddr_model_protocol_errors(const struct ddr_model *m);
/* Description of the most recent one, or NULL if none. Static storage. */
const char *ddr_model_last_protocol_error(const struct ddr_model *m);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_DDR_MODEL_H */
