// SPDX-License-Identifier: Apache-2.0
/*
 * The GPU engine under test (rtl/engine/gpu_engine.sv, Verilated) behind a plain C
 * interface, with its AXI4 master wired to a DDR model (sim/ddr_model.h)
 * through per-channel gates that the test opens and closes for
 * back-pressure.
 *
 * One clock cycle is:
 *   1. the test fills the inputs of io (Wishbone, translation response,
 *      translation request ready, gates);
 *   2. dut_eval(d, io): drives the inputs and the DDR model's outputs,
 *      evaluates the logic and samples every output into io, including the
 *      AXI pins as the engine sees them (after the gates);
 *   3. the test records the handshakes of this cycle (valid && ready);
 *   4. dut_tick(d): the rising edge, for the RTL and the DDR model.
 *
 * A closed gate hides the channel from both sides for the cycle: for AW, W
 * and AR the engine sees ready 0 and the model sees valid 0; for R and B the
 * engine sees valid 0 and the model sees ready 0. The engine's outputs do
 * not depend combinationally on its inputs, so one evaluation per cycle is
 * exact.
 */
#ifndef GMMU_TESTS_ENGINE_DUT_H
#define GMMU_TESTS_ENGINE_DUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ddr_model.h"

#include "vl_dut.h"

#ifdef __cplusplus
extern "C" {
#endif

struct dut_wb {
    uint8_t cyc, stb, we;
    uint32_t adr; /* word address */
    uint32_t dat;
};

struct dut_tr_req {
    uint8_t valid, access;
    uint32_t asid, tag;
    uint64_t va;
};

struct dut_tr_rsp {
    uint8_t valid, fault, zero, seg, cc, ro, nx, psize;
    uint32_t tag;
    uint64_t pa;
};

/* Segment, CacheCoherent and PA bits 51:32 of the AR or AW on the bus. */
struct dut_sideband {
    uint8_t seg, cc;
    uint32_t addr_hi;
};

struct dut_io {
    /* inputs */
    struct dut_wb wb;
    uint8_t tr_req_ready;
    struct dut_tr_rsp rsp;
    uint8_t gate_aw, gate_w, gate_b, gate_ar, gate_r; /* 1: the channel passes this cycle */
    /* outputs, valid after dut_eval */
    uint8_t wb_ack;
    uint32_t wb_dat;
    struct dut_tr_req req;
    uint8_t rsp_ready;
    uint8_t done;
    struct axi4_pins axi; /* the engine's view of the bus, after the gates */
    struct dut_sideband aw_sb, ar_sb;
};

/* Build parameters of the Verilated model (its -G values, through -D). */
struct dut_params {
    unsigned slots, asid_bits, tag_bits, pa_bits;
};

struct dut *dut_create(struct ddr_model *ddr, const char *trace_path);
uint64_t dut_cycle(const struct dut *d);
void dut_eval(struct dut *d, struct dut_io *io);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_TESTS_ENGINE_DUT_H */
