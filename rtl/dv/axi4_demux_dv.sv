// SPDX-License-Identifier: Apache-2.0
// Bound into every axi4_demux (the bind at the end of this file): a protocol checker on
// the master port (the select is checked as part of the user field, so it
// must hold with its burst) and one per slave port. Its ports are the
// demux's, all inputs, connected by name.
//
// The checkers run on the demux's gated clock, clk_gated (prim_sim_clock_gate
// in the Verilator build, clk_i otherwise): its edges run while any valid of
// any of its ports is high and for some edges after, which is every edge at
// which a checker has something to check, so the checkers need no gates of
// their own (each gate is a clock the simulator tests at every evaluation).
module axi4_demux_dv #(
  parameter int unsigned NSlaves = 3,
  parameter int unsigned IdW     = 4,
  localparam int unsigned SW     = (NSlaves > 1) ? $clog2(NSlaves) : 1
) (
  input logic                               clk_gated,
  input logic                               rst_ni,
  input axi4_pkg::axi4_req_t                m_req_i,
  input logic [SW-1:0]                      m_awsel_i,
  input logic [SW-1:0]                      m_arsel_i,
  input axi4_pkg::axi4_rsp_t                m_rsp_o,
  input axi4_pkg::axi4_req_t [NSlaves-1:0]  s_req_o,
  input axi4_pkg::axi4_rsp_t [NSlaves-1:0]  s_rsp_i
);

  axi4_port_checker #(
    .IdW(IdW), .UserW(axi4_pkg::USER_W), .SideW(SW), .OwnGate(1'b0)
  ) u_master_chk (
    .clk_i (clk_gated), .rst_ni, .req_i (m_req_i), .rsp_i (m_rsp_o), .side_aw_i (m_awsel_i),
    .side_ar_i (m_arsel_i)
  );

  for (genvar s = 0; s < NSlaves; s++) begin : g_slave
    axi4_port_checker #(.IdW(IdW), .UserW(axi4_pkg::USER_W), .OwnGate(1'b0)) u_chk (
      .clk_i (clk_gated), .rst_ni, .req_i (s_req_o[s]), .rsp_i (s_rsp_i[s]),
      .side_aw_i ('0), .side_ar_i ('0)
    );
  end

endmodule : axi4_demux_dv

// Every axi4_demux carries one (the parameters are the bound instance's).
bind axi4_demux axi4_demux_dv #(.NSlaves (NSlaves), .IdW (IdW)) u_axi4_demux_dv (.*);
