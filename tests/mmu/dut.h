// SPDX-License-Identifier: Apache-2.0
/*
 * The MMU under test (rtl/mmu/mmu_top.sv, Verilated) behind a plain C interface,
 * wired to the DDR model (sim/ddr_model.h) on its AXI4 read master.
 *
 * One clock cycle is:
 *   1. the test fills io->req, io->rsp_ready and io->wb (the inputs);
 *   2. dut_eval(d, io): drives the inputs and the DDR model's outputs,
 *      evaluates the logic and samples every output into io;
 *   3. the test looks at the outputs and records the handshakes of this
 *      cycle (valid && ready; no ready depends on a valid of the same port);
 *   4. dut_tick(d): the rising edge, for the RTL and the DDR model.
 *
 * The only C++ in the testbench is behind this interface (dut.cpp).
 */
#ifndef GMMU_TESTS_MMU_DUT_H
#define GMMU_TESTS_MMU_DUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ddr_model.h"

#include "vl_dut.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DUT_MAX_PORTS 16

struct dut_req {
    uint8_t valid;
    uint8_t access; /* enum gmmu_access */
    uint32_t asid;
    uint32_t tag;
    uint64_t va;
};

struct dut_rsp {
    uint8_t valid;
    uint8_t fault; /* enum gmmu_fault */
    uint8_t zero, seg, cc, ro, nx;
    uint8_t psize; /* enum gmmu_psize */
    uint32_t tag;
    uint64_t pa;
};

struct dut_wb {
    uint8_t cyc, stb, we;
    uint32_t adr; /* word address */
    uint32_t dat;
};

struct dut_io {
    /* inputs */
    struct dut_req req[DUT_MAX_PORTS];
    uint8_t rsp_ready[DUT_MAX_PORTS];
    struct dut_wb wb;
    /* outputs, valid after dut_eval */
    uint8_t req_ready[DUT_MAX_PORTS];
    struct dut_rsp rsp[DUT_MAX_PORTS];
    uint8_t wb_ack;
    uint32_t wb_dat;
    uint8_t irq;
};

/* Build parameters of the Verilated model (its -G values). */
struct dut_params {
    unsigned ports, walkers, levels, asid_bits, tag_bits, mshrs, l1_entries, pwc_entries;
};

struct dut_config {
    unsigned ddr_latency;    /* 0: the model's default (40) */
    uint64_t ddr_size_bytes; /* 0: the model's default (1 GiB) */
    const char *trace_path;  /* FST file, or NULL */
};

struct dut *dut_create(const struct dut_config *cfg);
struct ddr_model *dut_ddr(struct dut *d);
uint64_t dut_cycle(const struct dut *d);
void dut_eval(struct dut *d, struct dut_io *io);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_TESTS_MMU_DUT_H */
