// SPDX-License-Identifier: Apache-2.0
// On-chip RAM for the firmware, a Wishbone slave.
//
// Synchronous block RAM: a read is answered one cycle after the request
// (ACK with data). Incrementing bursts (CTI = 3'b010) are pipelined: while a
// beat is acknowledged the next word is already read, so a cache-line refill
// streams one word per cycle after the first.
// The image is loaded at start: in simulation from the harness through DPI
// (it has parsed the firmware ELF), in synthesis from InitFile ($readmemh).
module wb_ram #(
  parameter int unsigned Words    = 32768,
  parameter string       InitFile = ""
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o
);

  localparam int unsigned AW = $clog2(Words);
  localparam logic [2:0] CtiIncr = 3'b010;

  logic [31:0]   mem [Words];
  logic          ack_q, ack_d;
  logic [31:0]   rdata_q;
  logic [AW-1:0] rd_idx;
  logic          burst_next;   // the master promised the next sequential word

  // The decoder matched the upper address bits already.
  logic unused_adr;
  assign unused_adr = ^wb_i.adr[29:AW];

`ifdef VERILATOR
  // The harness has parsed the firmware ELF; InitFile is for synthesis.
  /* verilator lint_off UNUSEDPARAM */
  localparam string UnusedInit = InitFile;
  /* verilator lint_on UNUSEDPARAM */
  import "DPI-C" function int unsigned gmmu_sim_ram_init_word(input int unsigned index);
  initial begin
    for (int unsigned i = 0; i < Words; i++) mem[i] = gmmu_sim_ram_init_word(i);
  end
`else
  initial begin
    if (InitFile != "") $readmemh(InitFile, mem);
  end
`endif

  assign burst_next = ack_q && !wb_i.we && (wb_i.cti == CtiIncr);
  assign rd_idx     = burst_next ? wb_i.adr[AW-1:0] + 1'b1 : wb_i.adr[AW-1:0];
  // Ack a new request after one cycle; keep acking back to back in a burst.
  assign ack_d      = wb_i.cyc && wb_i.stb && (!ack_q || burst_next);

  always_ff @(posedge clk_i) begin
    rdata_q <= mem[rd_idx];
    if (wb_i.cyc && wb_i.stb && wb_i.we && !ack_q) begin
      for (int unsigned b = 0; b < 4; b++) begin
        if (wb_i.sel[b]) mem[wb_i.adr[AW-1:0]][8*b +: 8] <= wb_i.dat[8*b +: 8];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ack_q <= 1'b0;
    else         ack_q <= ack_d;
  end

  assign wb_o.ack = ack_q;
  assign wb_o.err = 1'b0;
  assign wb_o.dat = rdata_q;

endmodule : wb_ram
