// SPDX-License-Identifier: Apache-2.0
// Length of the next AXI burst of a run: the beats left, at most MaxBurst,
// and never past the next 4 KiB boundary (AXI forbids a burst to cross one).
// 64-bit beats, so the boundary is 512 - addr[11:3] beats away.
//
// Purely combinational. beats_left_i must be at least 1.
module paging_burst_len #(
  parameter int unsigned MaxBurst = 16,
  localparam int unsigned LenW = $clog2(MaxBurst) + 1
) (
  input  logic [8:0]      addr_beat_i,   // address bits 11:3
  input  logic [31:0]     beats_left_i,
  output logic [LenW-1:0] len_o          // 1 .. MaxBurst
);

  logic [9:0]  to_boundary;
  logic [31:0] len;

  assign to_boundary = 10'd512 - {1'b0, addr_beat_i};

  always_comb begin
    len = beats_left_i;
    if (len > 32'(MaxBurst))    len = 32'(MaxBurst);
    if (len > 32'(to_boundary)) len = 32'(to_boundary);
  end

  assign len_o = LenW'(len);

  logic unused_len;
  assign unused_len = ^len[31:LenW];

endmodule : paging_burst_len
