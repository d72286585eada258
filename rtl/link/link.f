// SPDX-License-Identifier: Apache-2.0
// The UART-to-BAR link for boards without PCIe.
// A file list as tools/mk/rtl.mk describes (rtl_files).
rtl/link/uart_rx.sv
rtl/link/uart_tx.sv
rtl/link/uart_bar_bridge.sv
