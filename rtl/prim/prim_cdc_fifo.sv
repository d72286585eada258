// SPDX-License-Identifier: Apache-2.0
// Asynchronous FIFO: carries words from one clock domain to another, with
// valid/ready handshakes on both sides.
//
// Each side keeps its pointer in binary and in Gray code (one bit changes
// per word), and sees the other side's Gray pointer through a two-flop
// synchroniser, so a pointer is never sampled half-changed. The storage is
// a register array written in the write domain; the read side reads the
// word at its own pointer, which the synchronised write pointer proves was
// written at least two read-clock cycles earlier.
//
// Reset: both sides must be reset together (each reset asserted
// asynchronously, released in its own domain); a side reset alone would
// lose or repeat words.
//
// Timing: a word written in write-clock cycle t is offered on the read side
// 2 to 3 read-clock cycles later; a read frees its place for the writer 2 to
// 3 write-clock cycles later. Depth (a power of two, at least 4) must cover
// that round trip for full throughput. Outputs come from registers or the
// storage, never combinationally from the other side's inputs.
module prim_cdc_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 4,
  parameter int unsigned PtrW  = $clog2(Depth)   // address bits of the storage
) (
  // Write domain
  input  logic             wclk_i,
  input  logic             wrst_ni,
  input  logic             wvalid_i,
  output logic             wready_o,
  input  logic [Width-1:0] wdata_i,

  // Read domain
  input  logic             rclk_i,
  input  logic             rrst_ni,
  output logic             rvalid_o,
  input  logic             rready_i,
  output logic [Width-1:0] rdata_o
);

  if (Depth < 4 || (Depth & (Depth - 1)) != 0) begin : gen_bad_depth
    $error("prim_cdc_fifo: Depth must be a power of two, at least 4");
  end

  function automatic logic [PtrW:0] bin2gray(input logic [PtrW:0] b);
    bin2gray = b ^ (b >> 1);
  endfunction

  logic [Width-1:0] mem_q [Depth];

  // ---------------------------------------------------------------- write side
  logic [PtrW:0] wbin_q, wbin_d, wgray_q;
  logic [PtrW:0] rgray_w1_q, rgray_w2_q;   // the read pointer, synchronised
  logic          wfire;

  // Full: the write pointer is one lap ahead of the read pointer (Gray code:
  // the two top bits inverted, the rest equal).
  assign wready_o = (wgray_q != {~rgray_w2_q[PtrW:PtrW-1], rgray_w2_q[PtrW-2:0]});
  assign wfire    = wvalid_i && wready_o;
  assign wbin_d   = wbin_q + (PtrW+1)'(wfire);

  always_ff @(posedge wclk_i or negedge wrst_ni) begin
    if (!wrst_ni) begin
      wbin_q     <= '0;
      wgray_q    <= '0;
      rgray_w1_q <= '0;
      rgray_w2_q <= '0;
    end else begin
      wbin_q     <= wbin_d;
      wgray_q    <= bin2gray(wbin_d);
      rgray_w1_q <= rgray_q;
      rgray_w2_q <= rgray_w1_q;
    end
  end

  always_ff @(posedge wclk_i) begin
    if (wfire) mem_q[wbin_q[PtrW-1:0]] <= wdata_i;
  end

  // ---------------------------------------------------------------- read side
  logic [PtrW:0] rbin_q, rbin_d, rgray_q;
  logic [PtrW:0] wgray_r1_q, wgray_r2_q;   // the write pointer, synchronised
  logic          rfire;

  assign rvalid_o = (rgray_q != wgray_r2_q);
  assign rfire    = rvalid_o && rready_i;
  assign rbin_d   = rbin_q + (PtrW+1)'(rfire);
  assign rdata_o  = mem_q[rbin_q[PtrW-1:0]];

  always_ff @(posedge rclk_i or negedge rrst_ni) begin
    if (!rrst_ni) begin
      rbin_q     <= '0;
      rgray_q    <= '0;
      wgray_r1_q <= '0;
      wgray_r2_q <= '0;
    end else begin
      rbin_q     <= rbin_d;
      rgray_q    <= bin2gray(rbin_d);
      wgray_r1_q <= wgray_q;
      wgray_r2_q <= wgray_r1_q;
    end
  end

endmodule : prim_cdc_fifo
