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
  input  logic        clk_i,
  input  logic        rst_ni,

  // Master 0 (higher priority on a tie at reset)
  input  logic        m0_cyc_i,
  input  logic        m0_stb_i,
  input  logic        m0_we_i,
  input  logic [29:0] m0_adr_i,
  input  logic [31:0] m0_dat_i,
  input  logic [3:0]  m0_sel_i,
  input  logic [2:0]  m0_cti_i,
  output logic        m0_ack_o,
  output logic        m0_err_o,
  output logic [31:0] m0_dat_o,

  // Master 1
  input  logic        m1_cyc_i,
  input  logic        m1_stb_i,
  input  logic        m1_we_i,
  input  logic [29:0] m1_adr_i,
  input  logic [31:0] m1_dat_i,
  input  logic [3:0]  m1_sel_i,
  input  logic [2:0]  m1_cti_i,
  output logic        m1_ack_o,
  output logic        m1_err_o,
  output logic [31:0] m1_dat_o,

  // Shared bus
  output logic        s_cyc_o,
  output logic        s_stb_o,
  output logic        s_we_o,
  output logic [29:0] s_adr_o,
  output logic [31:0] s_dat_o,
  output logic [3:0]  s_sel_o,
  output logic [2:0]  s_cti_o,
  input  logic        s_ack_i,
  input  logic        s_err_i,
  input  logic [31:0] s_dat_i
);

  logic busy_q, busy_d;       // a granted cycle is in progress
  logic owner_q, owner_d;     // which master owns the bus while busy
  logic sel;                  // master currently driving the bus
  logic gnt_valid, gnt_idx;   // the round-robin choice for an idle bus

  // Both asking: the one not served last wins; master 0 first after reset.
  prim_rr_arb #(.N(2)) u_arb (
    .clk_i,
    .rst_ni,
    .req_i       ({m1_cyc_i, m0_cyc_i}),
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
    if (sel ? m1_cyc_i : m0_cyc_i) begin
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

  assign s_cyc_o = sel ? m1_cyc_i : m0_cyc_i;
  assign s_stb_o = sel ? m1_stb_i : m0_stb_i;
  assign s_we_o  = sel ? m1_we_i  : m0_we_i;
  assign s_adr_o = sel ? m1_adr_i : m0_adr_i;
  assign s_dat_o = sel ? m1_dat_i : m0_dat_i;
  assign s_sel_o = sel ? m1_sel_i : m0_sel_i;
  assign s_cti_o = sel ? m1_cti_i : m0_cti_i;

  assign m0_ack_o = ~sel & s_ack_i;
  assign m0_err_o = ~sel & s_err_i;
  assign m1_ack_o =  sel & s_ack_i;
  assign m1_err_o =  sel & s_err_i;
  assign m0_dat_o = s_dat_i;
  assign m1_dat_o = s_dat_i;

endmodule : wb_arbiter
