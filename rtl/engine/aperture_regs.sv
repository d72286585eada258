// SPDX-License-Identifier: Apache-2.0
// The aperture segment's register block (APERTURE in include/defs/engine.toml),
// a Wishbone slave shared by every engine's aperture translator
// (aperture_xlate, docs/aperture.md): the table's DDR offset and size, the
// invalidation, and two counters summed over the translators.
//
// Timing: ACK the cycle after the request (prim_wb_reg). inv_o is high in
// the cycle a write of 1 to INVALIDATE is taken, so the translators drop
// their entries at the edge that applies the write, before its ACK.
module aperture_regs
  import gmmu_engine_pkg::*;
#(
  parameter int unsigned N = 4   // translators
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  output logic [31:6]     table_o,
  output logic [20:0]     pages_o,
  output logic            inv_o,
  input  logic [N-1:0]    miss_i,
  input  logic [N-1:0]    refuse_i
);

  logic [31:6] table_q;
  logic [20:0] pages_q;
  logic [31:0] misses_q, refused_q;
  logic [15:0] reg_off;
  logic        wr;
  logic [31:0] rdata;

  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (1'b1), .wr_o (wr), .rdata_i (rdata)
  );

  assign reg_off = {4'b0, wb_i.adr[9:0], 2'b00};
  assign inv_o   = wr && (reg_off == APERTURE_INVALIDATE) && wb_i.dat[0];

  function automatic logic [31:0] count(input logic [N-1:0] v);
    count = '0;
    for (int unsigned k = 0; k < N; k++) count += 32'(v[k]);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      table_q   <= '0;
      pages_q   <= '0;
      misses_q  <= '0;
      refused_q <= '0;
    end else begin
      if (wr && reg_off == APERTURE_TABLE) table_q <= wb_i.dat[31:6];
      if (wr && reg_off == APERTURE_PAGES) pages_q <= (wb_i.dat > 32'h0010_0000) ? 21'h10_0000
                                                                                : wb_i.dat[20:0];
      misses_q  <= misses_q + count(miss_i);
      refused_q <= refused_q + count(refuse_i);
    end
  end

  always_comb begin
    unique case (reg_off)
      APERTURE_TABLE:   rdata = {table_q, 6'b0};
      APERTURE_PAGES:   rdata = 32'(pages_q);
      APERTURE_MISSES:  rdata = misses_q;
      APERTURE_REFUSED: rdata = refused_q;
      default:          rdata = '0;
    endcase
  end

  assign table_o = table_q;
  assign pages_o = pages_q;

  logic unused;
  assign unused = ^{wb_i.dat[31:21]};

endmodule : aperture_regs
