// SPDX-License-Identifier: Apache-2.0
// The Wishbone port of a register block: the handshake wb_sysctl,
// wb_console, wb_timer, gpu_engine_regs and paging_regs share.
//
// A request (CYC and STB, not yet acknowledged) is taken when the block is
// ready (ready_i; a block that never waits ties it to 1). The block decodes
// the address itself, applies a write at the edge ending the cycle it is
// taken in (wr_o), and gives the addressed register's value combinationally
// (rdata_i), registered here when a read is taken. Timing: ACK, with the
// read data, the cycle after the request is taken, so one access every
// other cycle; never an error. Registers take whole words (SEL and CTI are
// not looked at).
module prim_wb_reg (
  input  logic            clk_i,
  input  logic            rst_ni,

  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  input  logic            ready_i,  // the block can take the request this cycle
  output logic            wr_o,     // a write is taken: apply it at this edge
  input  logic [31:0]     rdata_i   // the addressed register, for a read
);

  logic        ack_q, access;
  logic [31:0] rdata_q;

  assign access = wb_i.cyc && wb_i.stb && !ack_q && ready_i;
  assign wr_o   = access && wb_i.we;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q   <= 1'b0;
      rdata_q <= '0;
    end else begin
      ack_q <= access;
      if (access && !wb_i.we) rdata_q <= rdata_i;
    end
  end

  assign wb_o.ack = ack_q;
  assign wb_o.err = 1'b0;
  assign wb_o.dat = rdata_q;

  // The block decodes the address and takes the write data.
  logic unused_req;
  assign unused_req = ^{wb_i.adr, wb_i.dat, wb_i.sel, wb_i.cti};

endmodule : prim_wb_reg
