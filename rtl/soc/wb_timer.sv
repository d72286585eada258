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
  input  logic        cyc_i,
  input  logic        stb_i,
  input  logic        we_i,
  input  logic [29:0] adr_i,
  input  logic [31:0] dat_i,
  output logic        ack_o,
  output logic [31:0] dat_o,

  output logic        irq_o,
  output logic [63:0] cycle_o
);

  logic        ack_q;
  logic [63:0] cycle_q;
  logic [63:0] cmp_q;
  logic [15:0] reg_off;
  logic        access;

  assign reg_off = {4'b0, adr_i[9:0], 2'b00};  // offset within the 4 KiB block
  assign access  = cyc_i && stb_i && !ack_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q   <= 1'b0;
      cycle_q <= '0;
      cmp_q   <= '1;
      dat_o   <= '0;
      irq_o   <= 1'b0;
    end else begin
      ack_q   <= access;
      cycle_q <= cycle_q + 64'd1;
      irq_o   <= (cycle_q >= cmp_q);
      if (access && we_i && reg_off == TIMER_CMP_LO) cmp_q[31:0]  <= dat_i;
      if (access && we_i && reg_off == TIMER_CMP_HI) cmp_q[63:32] <= dat_i;
      if (access && !we_i) begin
        unique case (reg_off)
          TIMER_CYCLE_LO: dat_o <= cycle_q[31:0];
          TIMER_CYCLE_HI: dat_o <= cycle_q[63:32];
          TIMER_CMP_LO:   dat_o <= cmp_q[31:0];
          TIMER_CMP_HI:   dat_o <= cmp_q[63:32];
          default:        dat_o <= '0;
        endcase
      end
    end
  end

  assign ack_o   = ack_q;
  assign cycle_o = cycle_q;

  // Registers decode the low address bits only; the decoder checked the rest.
  logic unused_adr;
  assign unused_adr = ^adr_i[29:10];

endmodule : wb_timer
