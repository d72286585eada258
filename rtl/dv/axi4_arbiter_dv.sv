// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_arbiter (the bind at the end of this file): one protocol checker
// per master port and one on the slave port. Its ports are the arbiter's,
// all inputs, connected by name.
//
// The checkers run on the arbiter's gated clock, clk_gated (prim_sim_clock_gate
// in the Verilator build, clk_i otherwise): its edges run while any valid of
// any of its ports is high and for some edges after, which is every edge at
// which a checker has something to check, so the checkers need no gates of
// their own (each gate is a clock the simulator tests at every evaluation).
module axi4_arbiter_dv #(
  parameter int unsigned NMasters = 2,
  parameter int unsigned IdW      = 4,
  localparam int unsigned MW      = (NMasters > 1) ? $clog2(NMasters) : 1,
  localparam int unsigned OIdW    = IdW + MW
) (
  input logic                                clk_gated,
  input logic                                rst_ni,
  input axi4_pkg::axi4_req_t [NMasters-1:0]  m_req_i,
  input axi4_pkg::axi4_rsp_t [NMasters-1:0]  m_rsp_o,
  input axi4_pkg::axi4_req_t                 s_req_o,
  input axi4_pkg::axi4_rsp_t                 s_rsp_i
);

  for (genvar m = 0; m < NMasters; m++) begin : g_master
    axi4_port_checker #(.IdW(IdW), .UserW(axi4_pkg::USER_W), .OwnGate(1'b0)) u_chk (
      .clk_i (clk_gated), .rst_ni, .req_i (m_req_i[m]), .rsp_i (m_rsp_o[m]),
      .side_aw_i ('0), .side_ar_i ('0)
    );
  end

  axi4_port_checker #(.IdW(OIdW), .UserW(axi4_pkg::USER_W), .OwnGate(1'b0)) u_slave_chk (
    .clk_i (clk_gated), .rst_ni, .req_i (s_req_o), .rsp_i (s_rsp_i),
    .side_aw_i ('0), .side_ar_i ('0)
  );

endmodule : axi4_arbiter_dv

// Every axi4_arbiter carries one (the parameters are the bound instance's).
bind axi4_arbiter axi4_arbiter_dv #(.NMasters (NMasters), .IdW (IdW)) u_axi4_arbiter_dv (.*);
