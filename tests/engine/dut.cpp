// SPDX-License-Identifier: Apache-2.0
// The Verilated gpu_engine behind the C interface of dut.h: moves bits
// between the model's ports, the test's structs and the DDR model, through
// the channel gates. No test logic lives here.
#include "dut.h"

#include "Vgpu_engine.h"
#include "vl_axi.h"
#include "vl_harness.h"

#ifndef DUT_SLOTS
#error "build with -DDUT_SLOTS=... (and the other DUT_* parameters)"
#endif

struct dut : VlDdrClocked<Vgpu_engine> {
};

extern "C" {

struct dut_params dut_params(void)
{
    struct dut_params p;
    p.slots = DUT_SLOTS;
    p.asid_bits = DUT_ASID_BITS;
    p.tag_bits = DUT_TAG_BITS;
    p.pa_bits = DUT_PA_BITS;
    return p;
}

struct dut *dut_create(struct ddr_model *ddr, const char *trace_path)
{
    dut *d = vl_create<dut>(trace_path);
    if (d)
        d->ddr = ddr;
    return d;
}

void dut_destroy(struct dut *d)
{
    vl_destroy(d);
}

uint64_t dut_cycle(const struct dut *d)
{
    return d->cycle;
}

void dut_eval(struct dut *d, struct dut_io *io)
{
    Vgpu_engine &t = *d->top;
    axi4_pins &p = d->pins;

    t.wb_cyc_i = io->wb.cyc;
    t.wb_stb_i = io->wb.stb;
    t.wb_we_i = io->wb.we;
    t.wb_adr_i = io->wb.adr;
    t.wb_dat_i = io->wb.dat;

    t.tr_req_ready_i = io->tr_req_ready;
    t.tr_rsp_valid_i = io->rsp.valid;
    t.tr_rsp_tag_i = io->rsp.tag;
    t.tr_rsp_fault_i = io->rsp.fault;
    t.tr_rsp_zero_i = io->rsp.zero;
    t.tr_rsp_pa_i = io->rsp.pa;
    t.tr_rsp_seg_i = io->rsp.seg;
    t.tr_rsp_cc_i = io->rsp.cc;
    t.tr_rsp_ro_i = io->rsp.ro;
    t.tr_rsp_nx_i = io->rsp.nx;
    t.tr_rsp_psize_i = io->rsp.psize;

    ddr_model_drive(d->ddr, &p);
    t.axi_awready_i = p.awready && io->gate_aw;
    t.axi_wready_i = p.wready && io->gate_w;
    t.axi_bvalid_i = p.bvalid && io->gate_b;
    t.axi_bid_i = p.bid;
    t.axi_bresp_i = p.bresp;
    t.axi_arready_i = p.arready && io->gate_ar;
    t.axi_rvalid_i = p.rvalid && io->gate_r;
    t.axi_rid_i = p.rid;
    t.axi_rdata_i = p.rdata;
    t.axi_rresp_i = p.rresp;
    t.axi_rlast_i = p.rlast;

    d->eval_low();

    // The engine's view, then the model's.
    axi4_pins &e = io->axi;
    e = p;
    e.awready = t.axi_awready_i;
    e.wready = t.axi_wready_i;
    e.bvalid = t.axi_bvalid_i;
    e.arready = t.axi_arready_i;
    e.rvalid = t.axi_rvalid_i;
    VL_AXI_REQUEST(VL_AXI_GET, e, t, axi_);
    io->aw_sb.seg = t.axi_awseg_o;
    io->aw_sb.cc = t.axi_awcc_o;
    io->aw_sb.addr_hi = t.axi_awaddr_hi_o;
    io->ar_sb.seg = t.axi_arseg_o;
    io->ar_sb.cc = t.axi_arcc_o;
    io->ar_sb.addr_hi = t.axi_araddr_hi_o;

    p.awvalid = e.awvalid && io->gate_aw;
    p.awid = e.awid;
    p.awaddr = e.awaddr;
    p.awlen = e.awlen;
    p.awsize = e.awsize;
    p.awburst = e.awburst;
    p.wvalid = e.wvalid && io->gate_w;
    p.wdata = e.wdata;
    p.wstrb = e.wstrb;
    p.wlast = e.wlast;
    p.bready = e.bready && io->gate_b;
    p.arvalid = e.arvalid && io->gate_ar;
    p.arid = e.arid;
    p.araddr = e.araddr;
    p.arlen = e.arlen;
    p.arsize = e.arsize;
    p.arburst = e.arburst;
    p.rready = e.rready && io->gate_r;

    io->wb_ack = t.wb_ack_o;
    io->wb_dat = t.wb_dat_o;
    io->req.valid = t.tr_req_valid_o;
    io->req.access = t.tr_req_access_o;
    io->req.asid = t.tr_req_asid_o;
    io->req.tag = t.tr_req_tag_o;
    io->req.va = t.tr_req_va_o;
    io->rsp_ready = t.tr_rsp_ready_o;
    io->done = t.done_o;
}

void dut_tick(struct dut *d)
{
    d->tick();
}

void dut_reset(struct dut *d)
{
    vl_reset<dut_io>(d);
}

} // extern "C"
