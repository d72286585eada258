// SPDX-License-Identifier: Apache-2.0
// AXI4 demultiplexer: one master to NSlaves slaves; the slave of each burst
// is named by a select sideband that travels with it (m_awsel_i with AW,
// m_arsel_i with AR). soc_top uses it to route a GPU engine's bursts by the
// page's segment: VRAM to the DDR arbiter, system memory to the host port,
// anything else to an error slave.
//
// Responses with one ID must return in order, and different slaves answer in
// their own time, so each direction only changes slave when nothing is
// outstanding on it: an AR for another slave waits until the last R beat of
// the outstanding reads, an AW for another slave until their last B. W beats
// go to the slave of the accepted AWs; WREADY stays low until an AW has been
// accepted (AXI lets a slave wait for AW), so W never leads its AW here.
// Up to 2^CntW - 1 bursts per direction in flight.
//
// Timing: address, data and response paths are combinational (no added
// latency; ready paths go through, as in axi4_arbiter); the outstanding
// counts and the current slave of each direction are registered.
module axi4_demux #(
  parameter int unsigned NSlaves = 3,
  parameter int unsigned IdW     = 4,
  parameter int unsigned AddrW   = 32,
  parameter int unsigned UserW   = 1,
  parameter int unsigned CntW    = 5,
  localparam int unsigned SW     = (NSlaves > 1) ? $clog2(NSlaves) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // Master
  input  logic                    m_awvalid_i,
  output logic                    m_awready_o,
  input  logic [SW-1:0]           m_awsel_i,
  input  logic [IdW-1:0]          m_awid_i,
  input  logic [AddrW-1:0]        m_awaddr_i,
  input  logic [7:0]              m_awlen_i,
  input  logic [2:0]              m_awsize_i,
  input  logic [1:0]              m_awburst_i,
  input  logic [UserW-1:0]        m_awuser_i,
  input  logic                    m_wvalid_i,
  output logic                    m_wready_o,
  input  logic [63:0]             m_wdata_i,
  input  logic [7:0]              m_wstrb_i,
  input  logic                    m_wlast_i,
  output logic                    m_bvalid_o,
  input  logic                    m_bready_i,
  output logic [IdW-1:0]          m_bid_o,
  output logic [1:0]              m_bresp_o,
  input  logic                    m_arvalid_i,
  output logic                    m_arready_o,
  input  logic [SW-1:0]           m_arsel_i,
  input  logic [IdW-1:0]          m_arid_i,
  input  logic [AddrW-1:0]        m_araddr_i,
  input  logic [7:0]              m_arlen_i,
  input  logic [2:0]              m_arsize_i,
  input  logic [1:0]              m_arburst_i,
  input  logic [UserW-1:0]        m_aruser_i,
  output logic                    m_rvalid_o,
  input  logic                    m_rready_i,
  output logic [IdW-1:0]          m_rid_o,
  output logic [63:0]             m_rdata_o,
  output logic [1:0]              m_rresp_o,
  output logic                    m_rlast_o,

  // Slaves, flattened: slave s uses bits [s*W +: W]. Payloads are shared;
  // only the valids and readies are per slave.
  output logic [NSlaves-1:0]      s_awvalid_o,
  input  logic [NSlaves-1:0]      s_awready_i,
  output logic [IdW-1:0]          s_awid_o,
  output logic [AddrW-1:0]        s_awaddr_o,
  output logic [7:0]              s_awlen_o,
  output logic [2:0]              s_awsize_o,
  output logic [1:0]              s_awburst_o,
  output logic [UserW-1:0]        s_awuser_o,
  output logic [NSlaves-1:0]      s_wvalid_o,
  input  logic [NSlaves-1:0]      s_wready_i,
  output logic [63:0]             s_wdata_o,
  output logic [7:0]              s_wstrb_o,
  output logic                    s_wlast_o,
  input  logic [NSlaves-1:0]      s_bvalid_i,
  output logic [NSlaves-1:0]      s_bready_o,
  input  logic [NSlaves*IdW-1:0]  s_bid_i,
  input  logic [NSlaves*2-1:0]    s_bresp_i,
  output logic [NSlaves-1:0]      s_arvalid_o,
  input  logic [NSlaves-1:0]      s_arready_i,
  output logic [IdW-1:0]          s_arid_o,
  output logic [AddrW-1:0]        s_araddr_o,
  output logic [7:0]              s_arlen_o,
  output logic [2:0]              s_arsize_o,
  output logic [1:0]              s_arburst_o,
  output logic [UserW-1:0]        s_aruser_o,
  input  logic [NSlaves-1:0]      s_rvalid_i,
  output logic [NSlaves-1:0]      s_rready_o,
  input  logic [NSlaves*IdW-1:0]  s_rid_i,
  input  logic [NSlaves*64-1:0]   s_rdata_i,
  input  logic [NSlaves*2-1:0]    s_rresp_i,
  input  logic [NSlaves-1:0]      s_rlast_i
);

  localparam logic [CntW-1:0] CntMax = '1;

  // ---------------------------------------------------------------- reads
  logic [CntW-1:0] rd_cnt_d, rd_cnt_q;   // ARs whose last R beat is still due
  logic [SW-1:0]   rd_dst_d, rd_dst_q;
  logic            ar_ok, ar_hs, r_hs_last;

  assign ar_ok     = ((rd_cnt_q == '0) || (rd_dst_q == m_arsel_i)) && (rd_cnt_q != CntMax) &&
                     (32'(m_arsel_i) < NSlaves);
  assign ar_hs     = m_arvalid_i && ar_ok && s_arready_i[m_arsel_i];
  assign r_hs_last = m_rvalid_o && m_rready_i && m_rlast_o;

  always_comb begin
    rd_cnt_d = rd_cnt_q + CntW'(ar_hs) - CntW'(r_hs_last);
    rd_dst_d = ar_hs ? m_arsel_i : rd_dst_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_cnt_q <= '0;
      rd_dst_q <= '0;
    end else begin
      rd_cnt_q <= rd_cnt_d;
      rd_dst_q <= rd_dst_d;
    end
  end

  always_comb begin
    s_arvalid_o = '0;
    s_arvalid_o[m_arsel_i] = m_arvalid_i && ar_ok;
    s_rready_o = '0;
    s_rready_o[rd_dst_q] = m_rready_i;
  end
  assign m_arready_o = ar_ok && s_arready_i[m_arsel_i];
  assign s_arid_o    = m_arid_i;
  assign s_araddr_o  = m_araddr_i;
  assign s_arlen_o   = m_arlen_i;
  assign s_arsize_o  = m_arsize_i;
  assign s_arburst_o = m_arburst_i;
  assign s_aruser_o  = m_aruser_i;

  assign m_rvalid_o = s_rvalid_i[rd_dst_q];
  assign m_rid_o    = s_rid_i[rd_dst_q*IdW +: IdW];
  assign m_rdata_o  = s_rdata_i[rd_dst_q*64 +: 64];
  assign m_rresp_o  = s_rresp_i[rd_dst_q*2 +: 2];
  assign m_rlast_o  = s_rlast_i[rd_dst_q];

  // --------------------------------------------------------------- writes
  logic [CntW-1:0] wr_cnt_d, wr_cnt_q;   // AWs whose B is still due
  logic [CntW-1:0] w_owed_d, w_owed_q;   // AWs whose WLAST is still due
  logic [SW-1:0]   wr_dst_d, wr_dst_q;
  logic            aw_ok, aw_hs, w_hs_last, b_hs;

  assign aw_ok     = ((wr_cnt_q == '0) || (wr_dst_q == m_awsel_i)) && (wr_cnt_q != CntMax) &&
                     (32'(m_awsel_i) < NSlaves);
  assign aw_hs     = m_awvalid_i && aw_ok && s_awready_i[m_awsel_i];
  assign w_hs_last = m_wvalid_i && m_wready_o && m_wlast_i;
  assign b_hs      = m_bvalid_o && m_bready_i;

  always_comb begin
    wr_cnt_d = wr_cnt_q + CntW'(aw_hs) - CntW'(b_hs);
    w_owed_d = w_owed_q + CntW'(aw_hs) - CntW'(w_hs_last);
    wr_dst_d = aw_hs ? m_awsel_i : wr_dst_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_cnt_q <= '0;
      w_owed_q <= '0;
      wr_dst_q <= '0;
    end else begin
      wr_cnt_q <= wr_cnt_d;
      w_owed_q <= w_owed_d;
      wr_dst_q <= wr_dst_d;
    end
  end

  always_comb begin
    s_awvalid_o = '0;
    s_awvalid_o[m_awsel_i] = m_awvalid_i && aw_ok;
    s_wvalid_o = '0;
    s_wvalid_o[wr_dst_q] = m_wvalid_i && (w_owed_q != '0);
    s_bready_o = '0;
    s_bready_o[wr_dst_q] = m_bready_i;
  end
  assign m_awready_o = aw_ok && s_awready_i[m_awsel_i];
  assign s_awid_o    = m_awid_i;
  assign s_awaddr_o  = m_awaddr_i;
  assign s_awlen_o   = m_awlen_i;
  assign s_awsize_o  = m_awsize_i;
  assign s_awburst_o = m_awburst_i;
  assign s_awuser_o  = m_awuser_i;

  assign m_wready_o = (w_owed_q != '0) && s_wready_i[wr_dst_q];
  assign s_wdata_o  = m_wdata_i;
  assign s_wstrb_o  = m_wstrb_i;
  assign s_wlast_o  = m_wlast_i;

  assign m_bvalid_o = s_bvalid_i[wr_dst_q];
  assign m_bid_o    = s_bid_i[wr_dst_q*IdW +: IdW];
  assign m_bresp_o  = s_bresp_i[wr_dst_q*2 +: 2];

endmodule : axi4_demux
