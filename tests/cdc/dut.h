// SPDX-License-Identifier: Apache-2.0
/*
 * The Verilated axi4_cdc behind a C interface: two clocks, each side's pins
 * as a struct axi4_pins (sim/ddr_model.h). The test (cdc_test.c) owns all
 * logic; dut.cpp only moves bits.
 */
#ifndef CDC_DUT_H
#define CDC_DUT_H

#include <stdbool.h>

#include "ddr_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cdc_dut;

struct cdc_dut *cdc_dut_create(const char *trace_path);
void cdc_dut_destroy(struct cdc_dut *d);

/* Both resets asserted for a few edges of each clock, then released. */
void cdc_dut_reset(struct cdc_dut *d);

/* Master side (s): the master's outputs in, the crossing's outputs back. */
void cdc_dut_set_s(struct cdc_dut *d, const struct axi4_pins *p);
void cdc_dut_get_s(struct cdc_dut *d, struct axi4_pins *p);
/* Slave side (m): the slave's outputs in, the crossing's outputs back. */
void cdc_dut_set_m(struct cdc_dut *d, const struct axi4_pins *p);
void cdc_dut_get_m(struct cdc_dut *d, struct axi4_pins *p);

/* Settles the combinational logic with the inputs set so far. */
void cdc_dut_eval(struct cdc_dut *d);
/* Rising edges of the s clock, the m clock, or both at one instant;
 * time_ps stamps the trace. */
void cdc_dut_edge(struct cdc_dut *d, bool s_edge, bool m_edge, unsigned long long time_ps);

#ifdef __cplusplus
}
#endif

#endif
