// SPDX-License-Identifier: Apache-2.0
// Wishbone arbiter: two masters share one bus.
//
// Round-robin between the masters (prim_rr_arb). A grant is held for as long
// as the granted master keeps CYC high, so bursts and read-modify-write
// sequences are never split: the owner is kept here, and the arbiter's
// pointer moves only when an idle bus is granted. Arbitration is
// combinational on an idle bus (no added latency); the grant is registered
// while a cycle is in progress.
module wb_arbiter (
  input  logic            clk_i,
  input  logic            rst_ni,

  // Master 0 (higher priority on a tie at reset), master 1
  input  wb_pkg::wb_req_t m0_i,
  output wb_pkg::wb_rsp_t m0_o,
  input  wb_pkg::wb_req_t m1_i,
  output wb_pkg::wb_rsp_t m1_o,

  // Shared bus
  output wb_pkg::wb_req_t s_o,
  input  wb_pkg::wb_rsp_t s_i
);

  logic busy_q, busy_d;       // a granted cycle is in progress
  logic owner_q, owner_d;     // which master owns the bus while busy
  logic sel;                  // master currently driving the bus
  logic gnt_valid, gnt_idx;   // the round-robin choice for an idle bus

  // Both asking: the one not served last wins; master 0 first after reset.
  prim_rr_arb #(.N(2)) u_arb (
    .clk_i,
    .rst_ni,
    .req_i       ({m1_i.cyc, m0_i.cyc}),
    .take_i      (!busy_q),
    .gnt_valid_o (gnt_valid),
    .gnt_idx_o   (gnt_idx)
  );

  always_comb begin
    busy_d  = busy_q;
    owner_d = owner_q;
    // An idle bus with no request selects master 0.
    sel = busy_q ? owner_q : (gnt_valid && gnt_idx);
    // The grant sticks until the owner drops CYC.
    if (sel ? m1_i.cyc : m0_i.cyc) begin
      busy_d  = 1'b1;
      owner_d = sel;
    end else begin
      busy_d  = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      owner_q <= 1'b0;
    end else begin
      busy_q  <= busy_d;
      owner_q <= owner_d;
    end
  end

  assign s_o = sel ? m1_i : m0_i;

  assign m0_o.ack = ~sel & s_i.ack;
  assign m0_o.err = ~sel & s_i.err;
  assign m0_o.dat = s_i.dat;
  assign m1_o.ack =  sel & s_i.ack;
  assign m1_o.err =  sel & s_i.err;
  assign m1_o.dat = s_i.dat;

endmodule : wb_arbiter
