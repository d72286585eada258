// SPDX-License-Identifier: Apache-2.0
// Testbench top for the segment router: axi4_demux with three slaves, the
// third an axi4_err_slave as in soc_top; slaves 0 and 1 are left to the C
// models (tests/route). Ports are axi4_pkg structs (packed: the C++ shell
// packs and unpacks them, tests/route/dut.cpp).
module route_tb_top #(
  localparam int unsigned IdW = 4
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  input  axi4_pkg::axi4_req_t       m_req_i,
  input  logic [1:0]                m_awsel_i,
  input  logic [1:0]                m_arsel_i,
  output axi4_pkg::axi4_rsp_t       m_rsp_o,

  output axi4_pkg::axi4_req_t [1:0] s_req_o,
  input  axi4_pkg::axi4_rsp_t [1:0] s_rsp_i
);

  axi4_pkg::axi4_req_t [2:0] s_req;
  axi4_pkg::axi4_rsp_t [2:0] s_rsp;

  axi4_demux #(.NSlaves(3), .IdW(IdW)) u_dut (
    .clk_i, .rst_ni,
    .m_req_i, .m_awsel_i, .m_arsel_i, .m_rsp_o,
    .s_req_o (s_req), .s_rsp_i (s_rsp)
  );

  axi4_err_slave #(.IdW(IdW)) u_err (
    .clk_i, .rst_ni,
    .req_i (s_req[2]), .rsp_o (s_rsp[2])
  );

  assign s_req_o    = s_req[1:0];
  assign s_rsp[1:0] = s_rsp_i;

endmodule : route_tb_top
