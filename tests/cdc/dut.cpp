// SPDX-License-Identifier: Apache-2.0
// The Verilated axi4_cdc behind the C interface of dut.h: moves bits between
// struct axi4_pins and the model's ports and toggles the two clocks. No test
// logic lives here.
#include "dut.h"

#include "Vaxi4_cdc.h"
#include "vl_axi.h"
#include "vl_harness.h"

struct cdc_dut : VlModel<Vaxi4_cdc> {
    unsigned long long time_ps = 0;
};

extern "C" {

struct cdc_dut *cdc_dut_create(const char *trace_path)
{
    return vl_create<cdc_dut>(trace_path);
}

void cdc_dut_destroy(struct cdc_dut *d)
{
    vl_destroy(d);
}

void cdc_dut_eval(struct cdc_dut *d)
{
    d->top->eval();
}

void cdc_dut_edge(struct cdc_dut *d, bool s_edge, bool m_edge, unsigned long long time_ps)
{
    Vaxi4_cdc *t = d->top.get();
    t->s_clk_i = s_edge;
    t->m_clk_i = m_edge;
    t->eval();
    d->fst.dump(time_ps);
    t->s_clk_i = 0;
    t->m_clk_i = 0;
    t->eval();
    d->fst.dump(time_ps + 1);
}

void cdc_dut_reset(struct cdc_dut *d)
{
    Vaxi4_cdc *t = d->top.get();
    t->s_rst_ni = 0;
    t->m_rst_ni = 0;
    t->eval();
    for (int i = 0; i < 4; i++)
        cdc_dut_edge(d, true, true, 0);
    t->s_rst_ni = 1;
    t->m_rst_ni = 1;
    t->eval();
}

void cdc_dut_set_s(struct cdc_dut *d, const struct axi4_pins *p)
{
    VL_AXI_REQUEST(VL_AXI_SET, *d->top, s_, *p);
}

void cdc_dut_get_s(struct cdc_dut *d, struct axi4_pins *p)
{
    VL_AXI_RESPONSE(VL_AXI_GET, *p, *d->top, s_);
}

void cdc_dut_set_m(struct cdc_dut *d, const struct axi4_pins *p)
{
    VL_AXI_RESPONSE(VL_AXI_SET, *d->top, m_, *p);
}

void cdc_dut_get_m(struct cdc_dut *d, struct axi4_pins *p)
{
    VL_AXI_REQUEST(VL_AXI_GET, *p, *d->top, m_);
}

} // extern "C"
