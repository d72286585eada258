// SPDX-License-Identifier: Apache-2.0
// Testbench top for the segment router: axi4_demux with three slaves, the
// third an axi4_err_slave as in soc_top; slaves 0 and 1 are left to the C
// models (tests/route). Per-slave handshakes are vectors, payloads shared;
// the ports are flat for the C shell, the DUT's are axi4_pkg structs.
module route_tb_top #(
  localparam int unsigned IdW = 4
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  input  logic             m_awvalid_i,
  output logic             m_awready_o,
  input  logic [1:0]       m_awsel_i,
  input  logic [IdW-1:0]   m_awid_i,
  input  logic [63:0]      m_awaddr_i,
  input  logic [7:0]       m_awlen_i,
  input  logic             m_awuser_i,
  input  logic             m_wvalid_i,
  output logic             m_wready_o,
  input  logic [63:0]      m_wdata_i,
  input  logic [7:0]       m_wstrb_i,
  input  logic             m_wlast_i,
  output logic             m_bvalid_o,
  input  logic             m_bready_i,
  output logic [IdW-1:0]   m_bid_o,
  output logic [1:0]       m_bresp_o,
  input  logic             m_arvalid_i,
  output logic             m_arready_o,
  input  logic [1:0]       m_arsel_i,
  input  logic [IdW-1:0]   m_arid_i,
  input  logic [63:0]      m_araddr_i,
  input  logic [7:0]       m_arlen_i,
  input  logic             m_aruser_i,
  output logic             m_rvalid_o,
  input  logic             m_rready_i,
  output logic [IdW-1:0]   m_rid_o,
  output logic [63:0]      m_rdata_o,
  output logic [1:0]       m_rresp_o,
  output logic             m_rlast_o,

  output logic [1:0]       s_awvalid_o,
  input  logic [1:0]       s_awready_i,
  output logic [IdW-1:0]   s_awid_o,
  output logic [63:0]      s_awaddr_o,
  output logic [7:0]       s_awlen_o,
  output logic             s_awuser_o,
  output logic [1:0]       s_wvalid_o,
  input  logic [1:0]       s_wready_i,
  output logic [63:0]      s_wdata_o,
  output logic [7:0]       s_wstrb_o,
  output logic             s_wlast_o,
  input  logic [1:0]       s_bvalid_i,
  output logic [1:0]       s_bready_o,
  input  logic [2*IdW-1:0] s_bid_i,
  input  logic [3:0]       s_bresp_i,
  output logic [1:0]       s_arvalid_o,
  input  logic [1:0]       s_arready_i,
  output logic [IdW-1:0]   s_arid_o,
  output logic [63:0]      s_araddr_o,
  output logic [7:0]       s_arlen_o,
  output logic             s_aruser_o,
  input  logic [1:0]       s_rvalid_i,
  output logic [1:0]       s_rready_o,
  input  logic [2*IdW-1:0] s_rid_i,
  input  logic [127:0]     s_rdata_i,
  input  logic [3:0]       s_rresp_i,
  input  logic [1:0]       s_rlast_i
);

  import axi4_pkg::*;

  axi4_req_t       m_req;
  axi4_rsp_t       m_rsp;
  axi4_req_t [2:0] s_req;
  axi4_rsp_t [2:0] s_rsp;

  // The master's bursts have the engines' shape: 64-bit beats, INCR.
  assign m_req = '{
    aw_valid: m_awvalid_i,
    aw: '{id: ID_W'(m_awid_i), addr: m_awaddr_i, len: m_awlen_i, size: 3'd3,
          burst: 2'b01, user: USER_W'(m_awuser_i)},
    w_valid: m_wvalid_i, w: '{data: m_wdata_i, strb: m_wstrb_i, last: m_wlast_i},
    b_ready: m_bready_i,
    ar_valid: m_arvalid_i,
    ar: '{id: ID_W'(m_arid_i), addr: m_araddr_i, len: m_arlen_i, size: 3'd3,
          burst: 2'b01, user: USER_W'(m_aruser_i)},
    r_ready: m_rready_i};
  assign {m_awready_o, m_wready_o, m_bvalid_o, m_bid_o, m_bresp_o} =
         {m_rsp.aw_ready, m_rsp.w_ready, m_rsp.b_valid, m_rsp.b.id[IdW-1:0], m_rsp.b.resp};
  assign {m_arready_o, m_rvalid_o, m_rid_o, m_rdata_o, m_rresp_o, m_rlast_o} =
         {m_rsp.ar_ready, m_rsp.r_valid, m_rsp.r.id[IdW-1:0], m_rsp.r.data, m_rsp.r.resp,
          m_rsp.r.last};

  axi4_demux #(.NSlaves(3), .IdW(IdW)) u_dut (
    .clk_i, .rst_ni,
    .m_req_i (m_req), .m_awsel_i, .m_arsel_i, .m_rsp_o (m_rsp),
    .s_req_o (s_req), .s_rsp_i (s_rsp)
  );

  axi4_err_slave #(.IdW(IdW)) u_err (
    .clk_i, .rst_ni,
    .req_i (s_req[2]), .rsp_o (s_rsp[2])
  );

  // Slaves 0 and 1: the C models. Payloads are the same on every slave.
  assign {s_awid_o, s_awaddr_o, s_awlen_o, s_awuser_o} =
         {s_req[0].aw.id[IdW-1:0], s_req[0].aw.addr, s_req[0].aw.len, s_req[0].aw.user[0]};
  assign {s_wdata_o, s_wstrb_o, s_wlast_o} = s_req[0].w;
  assign {s_arid_o, s_araddr_o, s_arlen_o, s_aruser_o} =
         {s_req[0].ar.id[IdW-1:0], s_req[0].ar.addr, s_req[0].ar.len, s_req[0].ar.user[0]};
  for (genvar s = 0; s < 2; s++) begin : g_slave
    assign {s_awvalid_o[s], s_wvalid_o[s], s_bready_o[s], s_arvalid_o[s], s_rready_o[s]} =
           {s_req[s].aw_valid, s_req[s].w_valid, s_req[s].b_ready, s_req[s].ar_valid,
            s_req[s].r_ready};
    assign s_rsp[s] = '{
      aw_ready: s_awready_i[s], w_ready: s_wready_i[s], b_valid: s_bvalid_i[s],
      b: '{id: ID_W'(s_bid_i[s*IdW +: IdW]), resp: s_bresp_i[s*2 +: 2]},
      ar_ready: s_arready_i[s], r_valid: s_rvalid_i[s],
      r: '{id: ID_W'(s_rid_i[s*IdW +: IdW]), data: s_rdata_i[s*64 +: 64],
           resp: s_rresp_i[s*2 +: 2], last: s_rlast_i[s]}};
  end

  // Size and burst are fixed here (the engines' shape); not checked. The
  // IDs' upper bits are 0, the user sideband is one bit.
  logic unused;
  assign unused = ^{m_rsp, s_req};

endmodule : route_tb_top
