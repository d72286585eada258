// SPDX-License-Identifier: Apache-2.0
// Simple dual-port RAM: one synchronous read port, one write port.
//
// The shape FPGA tools map to block RAM (or to distributed RAM when small):
// the read address is registered inside the array, so rdata_o shows the
// word addressed in the cycle before, and holds it while re_i is low. A
// read of the address being written returns the old word. No reset: the
// contents start undefined, so whoever uses it keeps valid bits elsewhere.
//
// OutReg adds a second register after the read register: the word then
// shows two cycles after its address (and follows the read register every
// cycle). It takes the block RAM's clock-to-output off whatever uses the
// word (ECP5's DP16KD without its output register: most of a cycle at
// the MMU's target clock). A tool may fold it into the block RAM's own
// output register; Yosys leaves it in the fabric on ECP5 (docs/mmu.md).
module prim_ram_1r1w #(
  parameter int unsigned Depth = 64,
  parameter int unsigned Width = 32,
  parameter int unsigned AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  parameter bit          OutReg = 1'b0
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  // Block RAM even when small: the L2 TLB is specified "in block RAM", and
  // distributed RAM would spend LUTs the TLBs and walker need.
  (* ram_style = "block" *) logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    if (re_i) rdata_q <= mem[raddr_i];
  end

  if (OutReg) begin : gen_out_reg
    logic [Width-1:0] rdata_out_q;
    always_ff @(posedge clk_i) rdata_out_q <= rdata_q;
    assign rdata_o = rdata_out_q;
  end else begin : gen_no_out_reg
    assign rdata_o = rdata_q;
  end

endmodule : prim_ram_1r1w
