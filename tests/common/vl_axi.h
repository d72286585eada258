// SPDX-License-Identifier: Apache-2.0
// AXI4 pins between a Verilated model and the testbench's structs. A model's
// AXI4 ports are named like the fields of struct axi4_pins (sim/ddr_model.h)
// between a prefix (axi_, m_ddr_, s_, ...) and _i or _o, so one list of the
// fields copies every port the same way, and a field cannot be forgotten on
// one port only.
#ifndef GMMU_TESTS_COMMON_VL_AXI_H
#define GMMU_TESTS_COMMON_VL_AXI_H

// X-macro lists: F(a, b, c, field) for each signal the master drives
// (requests), and for each signal the slave drives (responses).
// clang-format off
#define VL_AXI_REQUEST(F, a, b, c)                                                 \
    F(a, b, c, awvalid) F(a, b, c, awid) F(a, b, c, awaddr) F(a, b, c, awlen)      \
    F(a, b, c, awsize) F(a, b, c, awburst)                                         \
    F(a, b, c, wvalid) F(a, b, c, wdata) F(a, b, c, wstrb) F(a, b, c, wlast)       \
    F(a, b, c, bready)                                                             \
    F(a, b, c, arvalid) F(a, b, c, arid) F(a, b, c, araddr) F(a, b, c, arlen)      \
    F(a, b, c, arsize) F(a, b, c, arburst)                                         \
    F(a, b, c, rready)
#define VL_AXI_RESPONSE(F, a, b, c)                                                \
    F(a, b, c, awready)                                                            \
    F(a, b, c, wready)                                                             \
    F(a, b, c, bvalid) F(a, b, c, bid) F(a, b, c, bresp)                           \
    F(a, b, c, arready)                                                            \
    F(a, b, c, rvalid) F(a, b, c, rid) F(a, b, c, rdata) F(a, b, c, rresp)         \
    F(a, b, c, rlast)
// clang-format on

// The model's outputs into a struct: dst.field = top.<prefix>field_o.
#define VL_AXI_GET(dst, top, prefix, field) (dst).field = (top).prefix##field##_o;
// A struct into the model's inputs: top.<prefix>field_i = src.field.
#define VL_AXI_SET(top, prefix, src, field) (top).prefix##field##_i = (src).field;

#endif /* GMMU_TESTS_COMMON_VL_AXI_H */
