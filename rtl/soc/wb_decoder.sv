// SPDX-License-Identifier: Apache-2.0
// Wishbone address decoder: one master, NSlaves slaves.
//
// Slave i is selected when (address & SlaveMask[i]) == SlaveBase[i]; the
// first match wins. An address that matches no slave is answered with ERR one
// cycle later, so a stray firmware access traps instead of hanging the bus.
// Purely combinational except for that error responder.
module wb_decoder #(
  parameter int unsigned NSlaves = 2,
  // Byte-address base and mask of each slave, slave i in bits [32*i +: 32].
  parameter logic [32*NSlaves-1:0] SlaveBase = '0,
  parameter logic [32*NSlaves-1:0] SlaveMask = '0
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  input  logic                m_cyc_i,
  input  logic                m_stb_i,
  input  logic [29:0]         m_adr_i,
  output logic                m_ack_o,
  output logic                m_err_o,
  output logic [31:0]         m_dat_o,

  output logic [NSlaves-1:0]  s_stb_o,   // per-slave strobe; other signals are shared
  input  logic [NSlaves-1:0]  s_ack_i,
  input  logic [NSlaves-1:0]  s_err_i,
  input  logic [32*NSlaves-1:0] s_dat_i
);

  logic [31:0]         byte_addr;
  logic [NSlaves-1:0]  hit;
  logic                any_hit;
  logic [$clog2(NSlaves > 1 ? NSlaves : 2)-1:0] hit_idx;
  logic                miss_err_q;

  assign byte_addr = {m_adr_i, 2'b00};

  always_comb begin
    hit     = '0;
    any_hit = 1'b0;
    hit_idx = '0;
    for (int unsigned i = 0; i < NSlaves; i++) begin
      if (!any_hit && ((byte_addr & SlaveMask[32*i +: 32]) == SlaveBase[32*i +: 32])) begin
        hit[i]  = 1'b1;
        any_hit = 1'b1;
        hit_idx = i[$bits(hit_idx)-1:0];
      end
    end
  end

  assign s_stb_o = (m_cyc_i && m_stb_i) ? hit : '0;

  // One-cycle error pulse for an unmapped access; cleared in the pulse cycle
  // so a master holding STB sees exactly one ERR per access.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      miss_err_q <= 1'b0;
    end else begin
      miss_err_q <= m_cyc_i && m_stb_i && !any_hit && !miss_err_q;
    end
  end

  assign m_ack_o = any_hit && s_ack_i[hit_idx];
  assign m_err_o = miss_err_q || (any_hit && s_err_i[hit_idx]);
  assign m_dat_o = s_dat_i[32*hit_idx +: 32];

endmodule : wb_decoder
