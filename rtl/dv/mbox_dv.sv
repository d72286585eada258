// SPDX-License-Identifier: Apache-2.0
// Bound into every mbox (the bind at the end of this file): no X on what the mailbox
// gives the host (BAR0 read data while acknowledged, the interrupt lines,
// the aperture base BAR1 adds to every access) nor on the CPU's interrupt.
// The mailbox rings are RAM, so an X read from a slot never written is the
// leak these checks exist for under a four-state simulator. Its ports are
// the mailbox's, all inputs, connected by name.
`include "prim_assert.svh"

module mbox_dv (
  input logic        clk_i,
  input logic        rst_ni,
  input axi4_pkg::reg_rsp_t host_o,
  input logic [31:0] aperture_base_o,
  input logic        dev_irq_o,
  input logic        host_irq_o,
  input logic        msi_o
);

  `ASSERT_OFF(off)

  `ASSERT_KNOWN(host_ack_known, host_o.ack, clk_i, off)
  `ASSERT_KNOWN_IF(host_rsp_known, {host_o.err, host_o.rdata}, host_o.ack, clk_i, off)
  `ASSERT_KNOWN(irq_known, {dev_irq_o, host_irq_o, msi_o}, clk_i, off)
  `ASSERT_KNOWN(aperture_base_known, aperture_base_o, clk_i, off)

endmodule : mbox_dv

// Every mbox carries one (the parameters are the bound instance's).
bind mbox mbox_dv u_mbox_dv (.*);
