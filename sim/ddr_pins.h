// SPDX-License-Identifier: Apache-2.0
// C++ only (templates).
// The SoC's AXI4 DDR port <-> the DDR model's pins (ddr_model.h), for any
// Verilated top that has soc_top's ddr_* ports (soc_top itself, uart_soc).
#ifndef GMMU_SIM_DDR_PINS_H
#define GMMU_SIM_DDR_PINS_H

#include "ddr_model.h"

template <class Top> void drive_ddr_inputs(Top &top, const axi4_pins &p)
{
    top.ddr_awready_i = p.awready;
    top.ddr_wready_i = p.wready;
    top.ddr_bvalid_i = p.bvalid;
    top.ddr_bid_i = p.bid;
    top.ddr_bresp_i = p.bresp;
    top.ddr_arready_i = p.arready;
    top.ddr_rvalid_i = p.rvalid;
    top.ddr_rid_i = p.rid;
    top.ddr_rdata_i = p.rdata;
    top.ddr_rresp_i = p.rresp;
    top.ddr_rlast_i = p.rlast;
}

template <class Top> void sample_ddr_outputs(const Top &top, axi4_pins &p)
{
    p.awvalid = top.ddr_awvalid_o;
    p.awid = top.ddr_awid_o;
    p.awaddr = top.ddr_awaddr_o;
    p.awlen = top.ddr_awlen_o;
    p.awsize = top.ddr_awsize_o;
    p.awburst = top.ddr_awburst_o;
    p.wvalid = top.ddr_wvalid_o;
    p.wdata = top.ddr_wdata_o;
    p.wstrb = top.ddr_wstrb_o;
    p.wlast = top.ddr_wlast_o;
    p.bready = top.ddr_bready_o;
    p.arvalid = top.ddr_arvalid_o;
    p.arid = top.ddr_arid_o;
    p.araddr = top.ddr_araddr_o;
    p.arlen = top.ddr_arlen_o;
    p.arsize = top.ddr_arsize_o;
    p.arburst = top.ddr_arburst_o;
    p.rready = top.ddr_rready_o;
}

#endif // GMMU_SIM_DDR_PINS_H
