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
 * Read beats whose bytes overlap [lo, hi) answer SLVERR with data 0, until
 * cleared. Applies to beats sampled after the call (a beat already on the
 * bus is not changed). Returns false, and does nothing, when lo >= hi or
 * DDR_MODEL_MAX_ERROR_RANGES ranges are already set.
 */
bool ddr_model_inject_read_error(struct ddr_model *m, uint64_t lo, uint64_t hi);
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
