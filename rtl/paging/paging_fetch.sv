// SPDX-License-Identifier: Apache-2.0
// Paging engine packet fetcher and decoder.
//
// Reads the queue RAM in stream order (word i of the stream at RAM address
// i mod QueueWords) up to HEAD, parses packets (docs/paging-engine.md),
// validates them and hands each out as one command, in order:
//   cmd_op_o     the opcode (PAGING_OP_*), or 0 for a packet that failed
//                validation (cmd_err_o = MALFORMED or RANGE; cmd_pos_o is
//                its header's stream position). The fetcher then halts
//                until flush_i.
//   cmd_w1..w3   operand words 1..3 as read (a FILL's w3 reads 0)
//   cmd_words_o  the packet's length in words (TAIL advances by it)
// A LITERAL WRITE_PTES is handed out only once HEAD covers the whole
// packet, and its COUNT entries then stream on lit_* (one per cycle while
// lit_ready_i), so a write burst that starts never waits for the CPU.
//
// A new packet is started only while enable_i and not stop_i (ENABLE=0
// stops at a packet boundary). flush_i (RESTART) drops everything and
// restarts at HEAD.
//
// Timing: the RAM read is synchronous; a 4-word buffer after it keeps one
// word per cycle flowing. A header costs a cycle, each operand a cycle, the
// check a cycle, the hand-out a cycle: a run-form WRITE_PTES every 6 cycles.
module paging_fetch #(
  parameter int unsigned QueueWords = 512,
  parameter int unsigned AsidW      = 6,
  localparam int unsigned QAW = $clog2(QueueWords)
) (
  input  logic           clk_i,
  input  logic           rst_ni,

  input  logic           enable_i,
  input  logic           stop_i,
  input  logic           flush_i,
  input  logic [31:0]    head_i,
  input  logic [63:0]    ddr_size_i,

  // Queue RAM read port (data the cycle after)
  output logic           q_re_o,
  output logic [QAW-1:0] q_raddr_o,
  input  logic [63:0]    q_rdata_i,

  // Decoded commands
  output logic           cmd_valid_o,
  input  logic           cmd_ready_i,
  output logic [2:0]     cmd_op_o,
  output logic           cmd_dst_sys_o,
  output logic           cmd_src_sys_o,
  output logic           cmd_literal_o,
  output logic           cmd_fence_irq_o,
  output logic           cmd_fence_write_o,
  output logic [31:0]    cmd_count_o,
  output logic [63:0]    cmd_w1_o,
  output logic [63:0]    cmd_w2_o,
  output logic [63:0]    cmd_w3_o,
  output logic [QAW:0]   cmd_words_o,
  output logic [2:0]     cmd_err_o,
  output logic [31:0]    cmd_pos_o,

  // Literal entries of the command just handed out
  output logic           lit_valid_o,
  input  logic           lit_ready_i,
  output logic [63:0]    lit_data_o,

  output logic           pending_o       // words or a packet not yet handed out
);

  localparam logic [2:0] OpWrite = 3'(gmmu_paging_pkg::PAGING_OP_WRITE_PTES);
  localparam logic [2:0] OpFill  = 3'(gmmu_paging_pkg::PAGING_OP_FILL);
  localparam logic [2:0] OpCopy  = 3'(gmmu_paging_pkg::PAGING_OP_COPY);
  localparam logic [2:0] OpFlush = 3'(gmmu_paging_pkg::PAGING_OP_FLUSH_TLB);
  localparam logic [2:0] OpFence = 3'(gmmu_paging_pkg::PAGING_OP_FENCE);
  localparam logic [2:0] ErrNone      = 3'(gmmu_paging_pkg::PAGING_ERR_NONE);
  localparam logic [2:0] ErrMalformed = 3'(gmmu_paging_pkg::PAGING_ERR_MALFORMED);
  localparam logic [2:0] ErrRange     = 3'(gmmu_paging_pkg::PAGING_ERR_RANGE);
  localparam logic [1:0] FlushRange   = 2'(gmmu_paging_pkg::PAGING_FLUSH_RANGE);
  localparam logic [1:0] FlushAll     = 2'(gmmu_paging_pkg::PAGING_FLUSH_ALL);

  // ------------------------------------------------------------ word stream
  logic [31:0] rd_ptr_q;       // next stream word to read from the RAM
  logic [31:0] parse_ptr_q;    // stream position of the next word parsed
  logic        inflight_q;     // a RAM read is returning this cycle
  logic [63:0] buf_q [4];
  logic [1:0]  buf_rd_q, buf_wr_q;
  logic [2:0]  buf_cnt_q;
  logic        wd_valid, wd_pop, rd_issue;
  logic [63:0] wd_data;

  assign wd_valid  = buf_cnt_q != 3'd0;
  assign wd_data   = buf_q[buf_rd_q];
  assign rd_issue  = (head_i != rd_ptr_q) && ({1'b0, buf_cnt_q} + {3'b0, inflight_q} < 4'd3);
  assign q_re_o    = rd_issue;
  assign q_raddr_o = rd_ptr_q[QAW-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q    <= '0;
      parse_ptr_q <= '0;
      inflight_q  <= 1'b0;
      buf_rd_q    <= '0;
      buf_wr_q    <= '0;
      buf_cnt_q   <= '0;
    end else if (flush_i) begin
      rd_ptr_q    <= head_i;
      parse_ptr_q <= head_i;
      inflight_q  <= 1'b0;
      buf_rd_q    <= '0;
      buf_wr_q    <= '0;
      buf_cnt_q   <= '0;
    end else begin
      inflight_q <= rd_issue;
      if (rd_issue) rd_ptr_q <= rd_ptr_q + 32'd1;
      if (inflight_q) buf_wr_q <= buf_wr_q + 2'd1;
      if (wd_pop) begin
        buf_rd_q    <= buf_rd_q + 2'd1;
        parse_ptr_q <= parse_ptr_q + 32'd1;
      end
      buf_cnt_q <= buf_cnt_q + 3'(inflight_q) - 3'(wd_pop);
    end
  end

  // The buffer holds data only; no reset needed.
  always_ff @(posedge clk_i) begin
    if (inflight_q) buf_q[buf_wr_q] <= q_rdata_i;
  end

  // ------------------------------------------------------------ parser
  typedef enum logic [2:0] { StHdr, StOps, StCheck, StEmit, StLit, StHalt } state_e;
  state_e      state_q, state_d;
  logic [63:0] hdr_q, w1_q, w2_q, w3_q;
  logic [31:0] pos_q;
  logic [1:0]  op_idx_q, nops_q;
  logic [2:0]  code_q;
  logic [31:0] lit_left_q;

  logic [7:0]  opcode;
  logic [2:0]  op;
  logic [31:0] count;
  logic        dst_sys, src_sys, literal, fence_irq, fence_write;
  logic [1:0]  nops;

  assign opcode      = hdr_q[7:0];
  assign op          = (opcode >= 8'd1 && opcode <= 8'd5) ? opcode[2:0] : 3'd0;
  assign count       = hdr_q[63:32];
  assign dst_sys     = hdr_q[8];
  assign src_sys     = hdr_q[9];
  assign literal     = hdr_q[10] && op == OpWrite;
  assign fence_irq   = hdr_q[11];
  assign fence_write = hdr_q[12];

  // Operand words after the header, from the header word being taken.
  always_comb begin
    unique case (wd_data[7:0])
      8'(OpWrite): nops = wd_data[10] ? 2'd1 : 2'd3;
      8'(OpFill):  nops = 2'd2;
      8'(OpCopy):  nops = 2'd2;
      8'(OpFlush): nops = 2'd3;
      8'(OpFence): nops = 2'd2;
      default:     nops = 2'd0;
    endcase
  end

  // ---- validation (from the registered packet)
  // A range [addr, addr + 8n) is bad in VRAM if it ends past the DDR (or
  // the 4 GiB the 32-bit port reaches), in system memory if it wraps.
  logic [64:0] ddr_limit, dst_end, src_end, dst_bytes;
  logic        dst_bad, src_bad;
  logic        malformed, out_of_range;
  logic [1:0]  flush_type;

  assign ddr_limit  = (ddr_size_i > 64'h1_0000_0000) ? 65'h1_0000_0000 : {1'b0, ddr_size_i};
  assign dst_bytes  = (op == OpFence) ? 65'd8 : {30'b0, count, 3'b000};
  assign dst_end    = {1'b0, w1_q} + dst_bytes;
  assign src_end    = {1'b0, w2_q} + {30'b0, count, 3'b000};
  assign dst_bad    = dst_sys ? (dst_end > 65'h1_0000_0000_0000_0000) : (dst_end > ddr_limit);
  assign src_bad    = src_sys ? (src_end > 65'h1_0000_0000_0000_0000) : (src_end > ddr_limit);
  assign flush_type = count[1:0];

  always_comb begin
    malformed = (hdr_q[31:13] != '0) || (op == 3'd0);
    unique case (op)
      OpWrite, OpFill, OpCopy: begin
        if (count == 32'd0 || w1_q[2:0] != 3'd0) malformed = 1'b1;
        if (op == OpCopy && w2_q[2:0] != 3'd0) malformed = 1'b1;
        if (literal && ({1'b0, count} + 33'd2 > 33'(QueueWords))) malformed = 1'b1;
      end
      OpFlush: begin
        if (count[31:2] != '0 || flush_type == 2'd3) malformed = 1'b1;
        if (flush_type != FlushAll && (w1_q >> AsidW) != 64'd0) malformed = 1'b1;
        if (flush_type == FlushRange && w2_q[63:12] > w3_q[63:12]) malformed = 1'b1;
      end
      OpFence: begin
        if (count != 32'd0) malformed = 1'b1;
        if (fence_write && w1_q[2:0] != 3'd0) malformed = 1'b1;
      end
      default: ;
    endcase
  end

  always_comb begin
    out_of_range = 1'b0;
    unique case (op)
      OpWrite, OpFill: out_of_range = dst_bad;
      OpCopy:          out_of_range = dst_bad || src_bad;
      OpFence:         out_of_range = fence_write && dst_bad;
      default: ;
    endcase
  end

  // Everything of a literal packet is published.
  logic published;
  assign published = (head_i - pos_q) >= (count + 32'd2);

  // ---- state machine
  logic take_hdr, take_op;
  assign take_hdr = state_q == StHdr && wd_valid && enable_i && !stop_i;
  assign take_op  = state_q == StOps && wd_valid;
  assign cmd_valid_o = state_q == StEmit && (code_q != ErrNone || !literal || published);
  assign lit_valid_o = state_q == StLit && wd_valid;
  assign lit_data_o  = wd_data;
  assign wd_pop      = take_hdr || take_op || (lit_valid_o && lit_ready_i);

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StHdr:   if (take_hdr) state_d = (nops == 2'd0) ? StCheck : StOps;
      StOps:   if (take_op && op_idx_q == nops_q - 2'd1) state_d = StCheck;
      StCheck: state_d = StEmit;
      StEmit:  if (cmd_valid_o && cmd_ready_i) state_d = (code_q != ErrNone) ? StHalt :
                                                         literal ? StLit : StHdr;
      StLit:   if (lit_valid_o && lit_ready_i && lit_left_q == 32'd1) state_d = StHdr;
      StHalt:  ;
      default: state_d = StHalt;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= StHdr;
      hdr_q      <= '0;
      w1_q       <= '0;
      w2_q       <= '0;
      w3_q       <= '0;
      pos_q      <= '0;
      op_idx_q   <= '0;
      nops_q     <= '0;
      code_q     <= ErrNone;
      lit_left_q <= '0;
    end else if (flush_i) begin
      state_q <= StHdr;
    end else begin
      state_q <= state_d;
      if (take_hdr) begin
        hdr_q    <= wd_data;
        pos_q    <= parse_ptr_q;
        nops_q   <= nops;
        op_idx_q <= '0;
        w1_q     <= '0;
        w2_q     <= '0;
        w3_q     <= '0;
      end
      if (take_op) begin
        op_idx_q <= op_idx_q + 2'd1;
        unique case (op_idx_q)
          2'd0:    w1_q <= wd_data;
          2'd1:    w2_q <= wd_data;
          default: w3_q <= wd_data;
        endcase
      end
      if (state_q == StCheck) begin
        code_q     <= malformed ? ErrMalformed : out_of_range ? ErrRange : ErrNone;
        lit_left_q <= count;
      end
      if (lit_valid_o && lit_ready_i) lit_left_q <= lit_left_q - 32'd1;
    end
  end

  // ---- outputs
  always_comb begin
    unique case (op)
      OpWrite: cmd_words_o = literal ? (QAW+1)'(count + 32'd2) : (QAW+1)'(4);
      OpFlush: cmd_words_o = (QAW+1)'(4);
      default: cmd_words_o = (QAW+1)'(3);
    endcase
  end

  assign cmd_op_o          = (code_q != ErrNone) ? 3'd0 : op;
  assign cmd_dst_sys_o     = dst_sys;
  assign cmd_src_sys_o     = src_sys;
  assign cmd_literal_o     = literal;
  assign cmd_fence_irq_o   = fence_irq;
  assign cmd_fence_write_o = fence_write;
  assign cmd_count_o       = count;
  assign cmd_w1_o          = w1_q;
  assign cmd_w2_o          = w2_q;
  assign cmd_w3_o          = w3_q;
  assign cmd_err_o         = code_q;
  assign cmd_pos_o         = pos_q;

  assign pending_o = (head_i != parse_ptr_q) || (state_q != StHdr && state_q != StHalt);

`ifndef SYNTHESIS
  // The word buffer never overflows; the hand-out holds until taken.
  always_ff @(posedge clk_i) begin
    if (rst_ni) buf_no_overflow: assert (buf_cnt_q <= 3'd3);
  end
  logic        cmd_wait_q;
  logic [2:0]  cmd_op_q;
  logic [63:0] cmd_w1_q;
  always_ff @(posedge clk_i) begin
    cmd_wait_q <= rst_ni && !flush_i && cmd_valid_o && !cmd_ready_i;
    cmd_op_q   <= cmd_op_o;
    cmd_w1_q   <= cmd_w1_o;
    if (rst_ni && !flush_i && cmd_wait_q) begin
      cmd_held: assert (cmd_valid_o && cmd_op_o == cmd_op_q && cmd_w1_o == cmd_w1_q);
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) literal_fits: assert (!(cmd_valid_o && cmd_literal_o && cmd_op_o != 3'd0) ||
                                    (cmd_count_o + 32'd2 <= 32'(QueueWords)));
  end
`endif

endmodule : paging_fetch
