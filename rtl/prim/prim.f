// SPDX-License-Identifier: Apache-2.0
// Generic blocks shared by every other folder.
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/prim/wb_pkg.sv
rtl/prim/axi4_pkg.sv
rtl/prim/prim_wb_reg.sv
rtl/prim/prim_rr_arb.sv
rtl/prim/prim_sim_clock_gate.sv
rtl/prim/prim_sim_input_sample.sv
rtl/prim/prim_lowest_set.sv
rtl/prim/prim_ram_1r1w.sv
rtl/prim/prim_ram_2p.sv
rtl/prim/prim_cdc_fifo.sv
