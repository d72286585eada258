// SPDX-License-Identifier: Apache-2.0
// Generic blocks shared by every other folder.
// One path per line, relative to the repository root; read by tools/mk/rtl.mk
// (rtl_files) for every Verilator, Yosys and board flow. Order matters only
// for packages, which come before their users.
rtl/prim/wb_pkg.sv
rtl/prim/axi4_pkg.sv
rtl/prim/prim_wb_reg.sv
rtl/prim/prim_rr_arb.sv
rtl/prim/prim_lowest_set.sv
rtl/prim/prim_ram_1r1w.sv
rtl/prim/prim_ram_2p.sv
rtl/prim/prim_cdc_fifo.sv
