// SPDX-License-Identifier: Apache-2.0
// Simulation-only checkers (docs/architecture.md, "Protocol checkers"):
// the AXI4 protocol checker, then rtl/dv/<module>_dv.sv, which binds it to
// <module>'s AXI ports (and checks its outputs for X). Read by
// tools/mk/dv.mk for the Verilator builds and lint targets only, never by
// Yosys or a board flow; a build takes the checker and the <module>_dv.sv
// of each <module>.sv it verilates. They include rtl/prim/prim_assert.svh.
rtl/dv/axi4_protocol_checker.sv
rtl/dv/axi4_port_checker.sv
rtl/dv/axi4_arbiter_dv.sv
rtl/dv/axi4_demux_dv.sv
rtl/dv/axi4lite_to_reg_dv.sv
rtl/dv/axi4_cdc_dv.sv
rtl/dv/mmu_top_dv.sv
rtl/dv/gpu_engine_dv.sv
rtl/dv/paging_engine_dv.sv
rtl/dv/mbox_dv.sv
