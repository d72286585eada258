// SPDX-License-Identifier: Apache-2.0
// The SoC: top, CPU bus (Wishbone), AXI interconnect, mailbox, BAR1 aperture, AXI CDC.
// A file list as tools/mk/rtl.mk describes (rtl_files).
// axi4_cdc is used by the boards only, not by soc_top.
rtl/soc/soc_top.sv
rtl/soc/wb_arbiter.sv
rtl/soc/wb_decoder.sv
rtl/soc/wb_ram.sv
rtl/soc/wb_sysctl.sv
rtl/soc/wb_console.sv
rtl/soc/wb_timer.sv
rtl/soc/wb_to_axi4.sv
rtl/soc/axi4lite_to_reg.sv
rtl/soc/mbox.sv
rtl/soc/axi4_arbiter.sv
rtl/soc/axi4_demux.sv
rtl/soc/axi4_err_slave.sv
rtl/soc/bar1_aperture.sv
rtl/soc/axi4_cdc.sv
