// SPDX-License-Identifier: Apache-2.0
/*
 * The part of a testbench's C interface to its Verilated model (dut.h of
 * tests/engine, tests/mmu, tests/paging) that is the same in every one: each
 * dut.h defines its struct dut_params, declares its own dut_create and
 * dut_eval, and includes this.
 */
#ifndef GMMU_TESTS_COMMON_VL_DUT_H
#define GMMU_TESTS_COMMON_VL_DUT_H

#ifdef __cplusplus
extern "C" {
#endif

struct dut;
struct dut_params;

void dut_destroy(struct dut *d);

/* The build parameters of the model: its -G values, which the shell is
 * compiled with as -D. */
struct dut_params dut_params(void);

/* Holds reset for a few cycles with idle inputs (gates closed, where the
 * testbench has them), then releases it. */
void dut_reset(struct dut *d);

/* The rising edge, for the RTL and the models on its clock. */
void dut_tick(struct dut *d);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_TESTS_COMMON_VL_DUT_H */
