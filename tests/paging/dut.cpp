// SPDX-License-Identifier: Apache-2.0
// The Verilated paging_engine behind the C interface of dut.h: copies bits
// between the model's ports and struct paging_pins. No test logic here.
#include "dut.h"

#include "Vpaging_engine.h"
#include "vl_axi.h"
#include "vl_harness.h"
#include "vl_packed.h"

#ifndef DUT_QUEUE_WORDS
#error "build with -DDUT_QUEUE_WORDS=... (and the other DUT_* parameters)"
#endif

// The packed struct ports' sizes: wb_pkg's 72-bit request, 34-bit response.
static_assert(sizeof(Vpaging_engine::wb_i) == 12, "wb_pkg::wb_req_t width");
static_assert(sizeof(Vpaging_engine::wb_o) == 8, "wb_pkg::wb_rsp_t width");

struct dut : VlClocked<Vpaging_engine> {
    dut()
    {
        ctx->assertOn(true);
    }
};

extern "C" {

struct dut_params dut_params(void)
{
    struct dut_params p;
    p.queue_words = DUT_QUEUE_WORDS;
    p.max_burst = DUT_MAX_BURST;
    p.copy_fifo_beats = DUT_COPY_FIFO_BEATS;
    p.outstanding = DUT_OUTSTANDING;
    p.pkt_slots = DUT_PKT_SLOTS;
    p.asid_bits = DUT_ASID_BITS;
    return p;
}

struct dut *dut_create(const char *trace_path)
{
    return vl_create<dut>(trace_path);
}

void dut_destroy(struct dut *d)
{
    vl_destroy(d);
}

void dut_eval(struct dut *d, struct paging_pins *p)
{
    Vpaging_engine &t = *d->top;
    // wb_pkg::wb_req_t: cyc, stb, we, adr, dat, sel, cti (whole words).
    packed_cursor wb(t.wb_i.data(), 0, 72);
    wb.put(p->wb_cyc, 1).put(p->wb_stb, 1).put(p->wb_we, 1).put(p->wb_adr, 30).put(p->wb_dat, 32);
    wb.put(0xF, 4).put(0, 3).done();
    t.ddr_size_i = p->ddr_size;
    t.inv_ready_i = p->inv_ready;
    t.inv_busy_i = p->inv_busy;

    VL_AXI_RESPONSE(VL_AXI_SET, t, m_ddr_, p->ddr_in);
    VL_AXI_RESPONSE(VL_AXI_SET, t, m_sys_, p->sys_in);

    d->eval_low();

    // wb_pkg::wb_rsp_t: ack, err, dat.
    p->wb_ack = (uint8_t)((t.wb_o >> 33) & 1);
    p->wb_dat_o = (uint32_t)t.wb_o;
    p->inv_valid = t.inv_valid_o;
    p->inv_type = t.inv_type_o;
    p->inv_asid = t.inv_asid_o;
    p->inv_start = t.inv_start_o;
    p->inv_end = t.inv_end_o;
    p->irq = t.irq_o;

    VL_AXI_REQUEST(VL_AXI_GET, p->ddr_out, t, m_ddr_);
    VL_AXI_REQUEST(VL_AXI_GET, p->sys_out, t, m_sys_);
}

void dut_tick(struct dut *d)
{
    d->tick();
}

void dut_reset(struct dut *d)
{
    vl_reset<paging_pins>(d);
}

} // extern "C"
