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
  input  logic                          clk_i,
  input  logic                          rst_ni,

  input  wb_pkg::wb_req_t               m_i,
  output wb_pkg::wb_rsp_t               m_o,

  // The master's request to every slave, with stb only to the selected one
  output wb_pkg::wb_req_t [NSlaves-1:0] s_o,
  input  wb_pkg::wb_rsp_t [NSlaves-1:0] s_i
);

  logic [31:0]         byte_addr;
  logic [NSlaves-1:0]  hit;
  logic                any_hit;
  logic [$clog2(NSlaves > 1 ? NSlaves : 2)-1:0] hit_idx;
  logic                miss_err_q;

  assign byte_addr = {m_i.adr, 2'b00};

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

  always_comb begin
    for (int unsigned i = 0; i < NSlaves; i++) begin
      s_o[i]     = m_i;
      s_o[i].stb = m_i.cyc && m_i.stb && hit[i];
    end
  end

  // One-cycle error pulse for an unmapped access; cleared in the pulse cycle
  // so a master holding STB sees exactly one ERR per access.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      miss_err_q <= 1'b0;
    end else begin
      miss_err_q <= m_i.cyc && m_i.stb && !any_hit && !miss_err_q;
    end
  end

  assign m_o.ack = any_hit && s_i[hit_idx].ack;
  assign m_o.err = miss_err_q || (any_hit && s_i[hit_idx].err);
  assign m_o.dat = s_i[hit_idx].dat;

endmodule : wb_decoder
