/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The paging engine under test (rtl/paging/paging_engine.sv, Verilated)
 * behind a plain C interface: the test sets the inputs in struct
 * paging_pins, dut_eval() evaluates the logic and fills in the outputs,
 * dut_tick() is the rising edge. Everything else (memory models, gates,
 * checks) is C in tb.c.
 *
 * No output of the engine depends combinationally on an input, so one
 * evaluation per cycle is exact.
 */
#ifndef GMMU_TESTS_PAGING_DUT_H
#define GMMU_TESTS_PAGING_DUT_H

#include <stdint.h>

#include "vl_dut.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slave-driven signals of one AXI4 port (inputs of the engine). */
struct paging_axi_in {
    uint8_t awready, wready, bvalid, bresp, bid, arready, rvalid, rresp, rlast, rid;
    uint64_t rdata;
};

/* Master-driven signals of one AXI4 port (outputs of the engine). */
struct paging_axi_out {
    uint8_t awvalid, awid, awlen, awsize, awburst;
    uint8_t wvalid, wstrb, wlast, bready;
    uint8_t arvalid, arid, arlen, arsize, arburst, rready;
    uint64_t awaddr, araddr, wdata;
};

struct paging_pins {
    /* inputs */
    uint8_t wb_cyc, wb_stb, wb_we;
    uint32_t wb_adr, wb_dat; /* word address */
    uint64_t ddr_size;
    struct paging_axi_in ddr_in, sys_in;
    uint8_t inv_ready, inv_busy;
    /* outputs */
    uint8_t wb_ack;
    uint32_t wb_dat_o;
    struct paging_axi_out ddr_out, sys_out;
    uint8_t inv_valid, inv_type;
    uint32_t inv_asid;
    uint64_t inv_start, inv_end;
    uint8_t irq;
};

/* Build parameters of the Verilated model (its -G values, through -D). */
struct dut_params {
    unsigned queue_words, max_burst, copy_fifo_beats, outstanding, pkt_slots, asid_bits;
};

struct dut *dut_create(const char *trace_path);
void dut_eval(struct dut *d, struct paging_pins *p);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_TESTS_PAGING_DUT_H */
