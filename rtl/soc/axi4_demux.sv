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
//
// Ports are axi4_pkg structs; each slave has its own request, all carrying
// the master's payloads (only the valids and readies differ).
module axi4_demux
  import axi4_pkg::*;
#(
  parameter int unsigned NSlaves = 3,
  parameter int unsigned IdW     = 4,   // ID bits the master uses (the rest 0): for the checkers
  parameter int unsigned CntW    = 5,
  localparam int unsigned SW     = (NSlaves > 1) ? $clog2(NSlaves) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  axi4_req_t               m_req_i,
  input  logic [SW-1:0]           m_awsel_i,   // the slave of the burst on AW
  input  logic [SW-1:0]           m_arsel_i,   // the slave of the burst on AR
  output axi4_rsp_t               m_rsp_o,

  output axi4_req_t [NSlaves-1:0] s_req_o,
  input  axi4_rsp_t [NSlaves-1:0] s_rsp_i
);

  localparam logic [CntW-1:0] CntMax = '1;

  if (IdW > ID_W) begin : g_id_too_narrow
    $error("axi4_demux: IdW %0d is wider than axi4_pkg's IDs (%0d)", IdW, ID_W);
  end

  // ---------------------------------------------------------------- reads
  logic clk_gated;  // see the end
  logic [CntW-1:0] rd_cnt_d, rd_cnt_q;   // ARs whose last R beat is still due
  logic [SW-1:0]   rd_dst_d, rd_dst_q;
  logic            ar_ok, ar_hs, r_hs_last;

  assign ar_ok     = ((rd_cnt_q == '0) || (rd_dst_q == m_arsel_i)) && (rd_cnt_q != CntMax) &&
                     (32'(m_arsel_i) < NSlaves);
  assign ar_hs     = m_req_i.ar_valid && ar_ok && s_rsp_i[m_arsel_i].ar_ready;
  assign r_hs_last = m_rsp_o.r_valid && m_req_i.r_ready && m_rsp_o.r.last;

  always_comb begin
    rd_cnt_d = rd_cnt_q + CntW'(ar_hs) - CntW'(r_hs_last);
    rd_dst_d = ar_hs ? m_arsel_i : rd_dst_q;
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_cnt_q <= '0;
      rd_dst_q <= '0;
    end else begin
      rd_cnt_q <= rd_cnt_d;
      rd_dst_q <= rd_dst_d;
    end
  end

  assign m_rsp_o.ar_ready = ar_ok && s_rsp_i[m_arsel_i].ar_ready;
  assign m_rsp_o.r_valid  = s_rsp_i[rd_dst_q].r_valid;
  assign m_rsp_o.r        = s_rsp_i[rd_dst_q].r;

  // --------------------------------------------------------------- writes
  logic [CntW-1:0] wr_cnt_d, wr_cnt_q;   // AWs whose B is still due
  logic [CntW-1:0] w_owed_d, w_owed_q;   // AWs whose WLAST is still due
  logic [SW-1:0]   wr_dst_d, wr_dst_q;
  logic            aw_ok, aw_hs, w_hs_last, b_hs;

  assign aw_ok     = ((wr_cnt_q == '0) || (wr_dst_q == m_awsel_i)) && (wr_cnt_q != CntMax) &&
                     (32'(m_awsel_i) < NSlaves);
  assign aw_hs     = m_req_i.aw_valid && aw_ok && s_rsp_i[m_awsel_i].aw_ready;
  assign w_hs_last = m_req_i.w_valid && m_rsp_o.w_ready && m_req_i.w.last;
  assign b_hs      = m_rsp_o.b_valid && m_req_i.b_ready;

  always_comb begin
    wr_cnt_d = wr_cnt_q + CntW'(aw_hs) - CntW'(b_hs);
    w_owed_d = w_owed_q + CntW'(aw_hs) - CntW'(w_hs_last);
    wr_dst_d = aw_hs ? m_awsel_i : wr_dst_q;
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
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

  // Every slave sees the master's request; only the chosen one its valid
  // and ready.
  always_comb begin
    for (int unsigned s = 0; s < NSlaves; s++) begin
      s_req_o[s]          = m_req_i;
      s_req_o[s].ar_valid = (SW'(s) == m_arsel_i) && m_req_i.ar_valid && ar_ok;
      s_req_o[s].r_ready  = (SW'(s) == rd_dst_q) && m_req_i.r_ready;
      s_req_o[s].aw_valid = (SW'(s) == m_awsel_i) && m_req_i.aw_valid && aw_ok;
      s_req_o[s].w_valid  = (SW'(s) == wr_dst_q) && m_req_i.w_valid && (w_owed_q != '0);
      s_req_o[s].b_ready  = (SW'(s) == wr_dst_q) && m_req_i.b_ready;
    end
  end
  assign m_rsp_o.aw_ready = aw_ok && s_rsp_i[m_awsel_i].aw_ready;
  assign m_rsp_o.w_ready  = (w_owed_q != '0) && s_rsp_i[wr_dst_q].w_ready;
  assign m_rsp_o.b_valid  = s_rsp_i[wr_dst_q].b_valid;
  assign m_rsp_o.b        = s_rsp_i[wr_dst_q].b;

  // The demux's clock skips its edges while no burst, beat or response is
  // offered on either side (prim_sim_clock_gate: in the Verilator build
  // only); its counts change only with handshakes.
  logic active, slave_rsp_valid;
  always_comb begin
    slave_rsp_valid = 1'b0;
    for (int unsigned s = 0; s < NSlaves; s++) begin
      slave_rsp_valid = slave_rsp_valid || s_rsp_i[s].r_valid || s_rsp_i[s].b_valid;
    end
  end
  assign active = m_req_i.ar_valid || m_req_i.aw_valid || m_req_i.w_valid || slave_rsp_valid;
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (active),
    .clk_o    (clk_gated)
  );

endmodule : axi4_demux
