// SPDX-License-Identifier: Apache-2.0
/*
 * The segment router (route_tb_top: axi4_demux + axi4_err_slave, Verilated)
 * behind a plain C interface. Slaves 0 and 1 are the caller's AXI4 slave
 * models (sim/sysmem_port.h pins); the user bit travels as AxCACHE 0xF
 * (set) or 0x3.
 *
 * One cycle: the caller sets the master's inputs in m and the slave models'
 * outputs in s (sysmem_port_drive); route_dut_eval evaluates and fills in
 * the master's outputs and the slaves' inputs; the caller records the
 * handshakes, clocks its models, and calls route_dut_tick.
 */
#ifndef GMMU_TESTS_ROUTE_DUT_H
#define GMMU_TESTS_ROUTE_DUT_H

#include <stdint.h>

#include "sysmem_port.h"

#ifdef __cplusplus
extern "C" {
#endif

struct route_master {
    uint8_t awvalid, awready, awsel, awid, awlen, awuser;
    uint64_t awaddr;
    uint8_t wvalid, wready, wstrb, wlast;
    uint64_t wdata;
    uint8_t bvalid, bready, bid, bresp;
    uint8_t arvalid, arready, arsel, arid, arlen, aruser;
    uint64_t araddr;
    uint8_t rvalid, rready, rid, rresp, rlast;
    uint64_t rdata;
};

struct route_dut;

struct route_dut *route_dut_create(void); /* in reset for a few cycles, then running */
void route_dut_destroy(struct route_dut *d);
void route_dut_eval(struct route_dut *d, struct route_master *m, struct sysmem_pins s[2]);
void route_dut_tick(struct route_dut *d);

#ifdef __cplusplus
}
#endif

#endif
