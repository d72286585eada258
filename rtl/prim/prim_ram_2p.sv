// SPDX-License-Identifier: Apache-2.0
// Dual-port RAM: port A reads and writes, port B only reads. Both reads are
// synchronous (data the cycle after the address), so it maps onto FPGA block
// RAM. A read on B of the word A writes in the same cycle returns the old
// value.
module prim_ram_2p #(
  parameter int unsigned Words = 1024,
  localparam int unsigned AW = $clog2(Words)
) (
  input  logic          clk_i,
  input  logic          a_we_i,
  input  logic [AW-1:0] a_addr_i,
  input  logic [31:0]   a_wdata_i,
  output logic [31:0]   a_rdata_o,
  input  logic [AW-1:0] b_addr_i,
  output logic [31:0]   b_rdata_o
);

  logic [31:0] mem [Words];

  always_ff @(posedge clk_i) begin
    if (a_we_i) mem[a_addr_i] <= a_wdata_i;
    a_rdata_o <= mem[a_addr_i];
    b_rdata_o <= mem[b_addr_i];
  end

endmodule : prim_ram_2p
