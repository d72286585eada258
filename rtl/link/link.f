// SPDX-License-Identifier: Apache-2.0
// The UART-to-BAR link for boards without PCIe.
// One path per line, relative to the repository root; read by tools/mk/rtl.mk
// (rtl_files) for every Verilator, Yosys and board flow. Order matters only
// for packages, which come before their users.
rtl/link/uart_rx.sv
rtl/link/uart_tx.sv
rtl/link/uart_bar_bridge.sv
