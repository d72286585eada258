// SPDX-License-Identifier: Apache-2.0
// Cycle timer, a Wishbone slave.
//
// A free-running 64-bit cycle counter and a 64-bit compare. The machine timer
// interrupt is pending while CYCLE >= CMP; CMP resets to all ones so it never
// fires until firmware programs it. Registers answer one cycle after the
// request.
module wb_timer
  import gmmu_soc_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  output logic        irq_o,
  output logic [63:0] cycle_o
);

  logic [63:0] cycle_q;
  logic [63:0] cmp_q;
  logic [15:0] reg_off;
  logic        wr;
  logic [31:0] rdata;

  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (1'b1), .wr_o (wr), .rdata_i (rdata)
  );

  assign reg_off = {4'b0, wb_i.adr[9:0], 2'b00};  // offset within the 4 KiB block

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q <= '0;
      cmp_q   <= '1;
      irq_o   <= 1'b0;
    end else begin
      cycle_q <= cycle_q + 64'd1;
      irq_o   <= (cycle_q >= cmp_q);
      if (wr && reg_off == TIMER_CMP_LO) cmp_q[31:0]  <= wb_i.dat;
      if (wr && reg_off == TIMER_CMP_HI) cmp_q[63:32] <= wb_i.dat;
    end
  end

  always_comb begin
    unique case (reg_off)
      TIMER_CYCLE_LO: rdata = cycle_q[31:0];
      TIMER_CYCLE_HI: rdata = cycle_q[63:32];
      TIMER_CMP_LO:   rdata = cmp_q[31:0];
      TIMER_CMP_HI:   rdata = cmp_q[63:32];
      default:        rdata = '0;
    endcase
  end

  assign cycle_o = cycle_q;

  // Registers decode the low address bits only; the decoder checked the rest.

endmodule : wb_timer
