// SPDX-License-Identifier: Apache-2.0
// Paging engine sequencer: takes the decoded packets in queue order and
// starts each one, enforcing the ordering rules (docs/paging-engine.md):
//
//   WRITE_PTES, FILL  open a tracker slot and hand a write job to the write
//                     generator at once (one packet per cycle): writes of
//                     consecutive packets overlap.
//   COPY              waits until every earlier packet completed (all its B
//                     responses), so its reads see earlier writes; then a
//                     read job and a write job (data from the FIFO).
//   FLUSH_TLB         waits likewise, then requests the invalidation
//                     (inv_valid_o until inv_ready_i), then waits for
//                     inv_busy_i low, from the cycle after the request was
//                     accepted on; then its slot closes.
//   FENCE             waits likewise; writes its value (a one-word job) if
//                     FENCE_WRITE; waits until that completed; then
//                     fence_o (value, FENCE_IRQ) for the register block.
//   decode error      an error event (MALFORMED/RANGE) with the packet's
//                     index and header position.
//
// stop_i: no new packet is started and a packet waiting for the earlier
// ones is dropped; an invalidation request already raised is completed
// (valid is never withdrawn), then the sequencer idles. Packet indices
// (pkt counts the packets started) restart from PACKETS_DONE at flush_i.
//
// Timing: all outputs except the handshake valids are registers or
// straight from the command; a waiting packet starts the cycle after the
// tracker is empty.
module paging_exec #(
  parameter int unsigned QAW   = 9,
  parameter int unsigned SlotW = 3,
  parameter int unsigned AsidW = 6
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             stop_i,
  input  logic             flush_i,

  // Decoded packets
  input  logic             cmd_valid_i,
  output logic             cmd_ready_o,
  input  logic [2:0]       cmd_op_i,
  input  logic             cmd_dst_sys_i,
  input  logic             cmd_src_sys_i,
  input  logic             cmd_literal_i,
  input  logic             cmd_fence_irq_i,
  input  logic             cmd_fence_write_i,
  input  logic [31:0]      cmd_count_i,
  input  logic [63:0]      cmd_w1_i,
  input  logic [63:0]      cmd_w2_i,
  input  logic [63:0]      cmd_w3_i,
  input  logic [QAW:0]     cmd_words_i,
  input  logic [2:0]       cmd_err_i,
  input  logic [31:0]      cmd_pos_i,

  // Tracker
  output logic             open_valid_o,
  input  logic             open_ready_i,
  output logic [QAW:0]     open_words_o,
  output logic             open_closed_o,
  input  logic [SlotW-1:0] open_slot_i,
  output logic             close_o,
  output logic [SlotW-1:0] close_slot_o,
  input  logic             trk_empty_i,
  input  logic [31:0]      packets_done_i,

  // Write jobs
  output logic             wj_valid_o,
  input  logic             wj_ready_i,
  output logic             wj_port_o,
  output logic [63:0]      wj_addr_o,
  output logic [31:0]      wj_count_o,
  output logic [1:0]       wj_src_o,
  output logic [63:0]      wj_first_o,
  output logic [63:0]      wj_inc_o,
  output logic [SlotW-1:0] wj_slot_o,

  // Read jobs (COPY)
  output logic             rj_valid_o,
  input  logic             rj_ready_i,
  output logic             rj_port_o,
  output logic [63:0]      rj_addr_o,
  output logic [31:0]      rj_count_o,

  // Invalidation request (FLUSH_TLB)
  output logic             inv_valid_o,
  input  logic             inv_ready_i,
  output logic [1:0]       inv_type_o,
  output logic [AsidW-1:0] inv_asid_o,
  output logic [51:0]      inv_start_o,
  output logic [51:0]      inv_end_o,
  input  logic             inv_busy_i,

  // Decode error event
  output logic             ev_valid_o,
  output logic [2:0]       ev_code_o,
  output logic [31:0]      ev_pkt_o,
  output logic [63:0]      ev_addr_o,

  // A FENCE passed
  output logic             fence_o,
  output logic             fence_irq_o,
  output logic [63:0]      fence_value_o,

  output logic             idle_o
);

  localparam logic [2:0] OpWrite = 3'(gmmu_paging_pkg::PAGING_OP_WRITE_PTES);
  localparam logic [2:0] OpFill  = 3'(gmmu_paging_pkg::PAGING_OP_FILL);
  localparam logic [2:0] OpCopy  = 3'(gmmu_paging_pkg::PAGING_OP_COPY);
  localparam logic [2:0] OpFlush = 3'(gmmu_paging_pkg::PAGING_OP_FLUSH_TLB);

  typedef enum logic [2:0] { StIdle, StWaitEmpty, StInvReq, StInvWait, StFenceWait } state_e;
  state_e state_q, state_d;

  // The packet waiting in StWaitEmpty and after.
  logic [2:0]       op_q;
  logic             dst_sys_q, src_sys_q, fence_irq_q, fence_write_q;
  logic [31:0]      count_q;
  logic [63:0]      w1_q, w2_q, w3_q;
  logic [QAW:0]     words_q;
  logic [SlotW-1:0] slot_q;
  logic [31:0]      pkt_q;         // index of the next packet started

  logic is_write, is_err, start_now, start_waiting;

  assign is_write = cmd_op_i == OpWrite || cmd_op_i == OpFill;
  assign is_err   = cmd_op_i == 3'd0;

  always_comb begin
    state_d       = state_q;
    cmd_ready_o   = 1'b0;
    open_valid_o  = 1'b0;
    open_words_o  = cmd_words_i;
    open_closed_o = 1'b0;
    close_o       = 1'b0;
    close_slot_o  = slot_q;
    wj_valid_o    = 1'b0;
    wj_port_o     = cmd_dst_sys_i;
    wj_addr_o     = cmd_w1_i;
    wj_count_o    = cmd_count_i;
    wj_src_o      = cmd_literal_i ? paging_pkg::SRC_LIT : paging_pkg::SRC_RUN;
    wj_first_o    = cmd_literal_i ? 64'd0 : cmd_w2_i;
    wj_inc_o      = (cmd_literal_i || cmd_op_i == OpFill) ? 64'd0 : cmd_w3_i;
    wj_slot_o     = open_slot_i;
    rj_valid_o    = 1'b0;
    rj_port_o     = src_sys_q;
    rj_addr_o     = w2_q;
    rj_count_o    = count_q;
    inv_valid_o   = 1'b0;
    ev_valid_o    = 1'b0;
    fence_o       = 1'b0;
    start_now     = 1'b0;
    start_waiting = 1'b0;

    unique case (state_q)
      StIdle: begin
        if (cmd_valid_i && !stop_i) begin
          if (is_err) begin
            ev_valid_o  = 1'b1;
            cmd_ready_o = 1'b1;
          end else if (is_write) begin
            open_valid_o = wj_ready_i;
            wj_valid_o   = open_ready_i;
            cmd_ready_o  = open_ready_i && wj_ready_i;
            start_now    = cmd_ready_o;
          end else begin
            cmd_ready_o = 1'b1;
            state_d     = StWaitEmpty;
          end
        end
      end

      StWaitEmpty: begin
        // Packet data comes from the registers from here on.
        open_words_o = words_q;
        wj_port_o    = dst_sys_q;
        wj_addr_o    = w1_q;
        wj_count_o   = (op_q == OpCopy) ? count_q : 32'd1;
        wj_src_o     = (op_q == OpCopy) ? paging_pkg::SRC_FIFO : paging_pkg::SRC_RUN;
        wj_first_o   = w2_q;
        wj_inc_o     = 64'd0;
        if (stop_i) begin
          state_d = StIdle;
        end else if (trk_empty_i) begin
          unique case (op_q)
            OpCopy: begin
              open_valid_o  = wj_ready_i && rj_ready_i;
              wj_valid_o    = open_ready_i && rj_ready_i;
              rj_valid_o    = open_ready_i && wj_ready_i;
              start_waiting = open_ready_i && wj_ready_i && rj_ready_i;
              if (start_waiting) state_d = StIdle;
            end
            OpFlush: begin
              open_valid_o  = 1'b1;
              start_waiting = open_ready_i;
              if (start_waiting) state_d = StInvReq;
            end
            default: begin  // FENCE
              open_closed_o = !fence_write_q;
              open_valid_o  = !fence_write_q || wj_ready_i;
              wj_valid_o    = fence_write_q && open_ready_i;
              start_waiting = open_ready_i && (!fence_write_q || wj_ready_i);
              if (start_waiting) state_d = StFenceWait;
            end
          endcase
        end
      end

      StInvReq: begin
        inv_valid_o = 1'b1;
        if (inv_ready_i) state_d = StInvWait;
      end

      StInvWait: begin
        if (!inv_busy_i) begin
          close_o = 1'b1;
          state_d = StIdle;
        end
      end

      StFenceWait: begin
        if (stop_i) begin
          state_d = StIdle;
        end else if (trk_empty_i) begin
          fence_o = 1'b1;
          state_d = StIdle;
        end
      end

      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      op_q          <= '0;
      dst_sys_q     <= 1'b0;
      src_sys_q     <= 1'b0;
      fence_irq_q   <= 1'b0;
      fence_write_q <= 1'b0;
      count_q       <= '0;
      w1_q          <= '0;
      w2_q          <= '0;
      w3_q          <= '0;
      words_q       <= '0;
      slot_q        <= '0;
      pkt_q         <= '0;
    end else if (flush_i) begin
      state_q <= StIdle;
      pkt_q   <= packets_done_i;
    end else begin
      state_q <= state_d;
      if (state_q == StIdle && cmd_valid_i && cmd_ready_o && !is_err && !is_write) begin
        op_q          <= cmd_op_i;
        dst_sys_q     <= cmd_dst_sys_i;
        src_sys_q     <= cmd_src_sys_i;
        fence_irq_q   <= cmd_fence_irq_i;
        fence_write_q <= cmd_fence_write_i;
        count_q       <= cmd_count_i;
        w1_q          <= cmd_w1_i;
        w2_q          <= cmd_w2_i;
        w3_q          <= cmd_w3_i;
        words_q       <= cmd_words_i;
      end
      if (start_waiting) slot_q <= open_slot_i;
      if (start_now || start_waiting) pkt_q <= pkt_q + 32'd1;
    end
  end

  assign inv_type_o    = count_q[1:0];
  assign inv_asid_o    = w1_q[AsidW-1:0];
  assign inv_start_o   = w2_q[63:12];
  assign inv_end_o     = w3_q[63:12];
  assign ev_code_o     = cmd_err_i;
  assign ev_pkt_o      = pkt_q;
  assign ev_addr_o     = {32'b0, cmd_pos_i};
  assign fence_irq_o   = fence_irq_q;
  assign fence_value_o = w2_q;
  assign idle_o        = state_q == StIdle;

  logic unused_cmd;
  assign unused_cmd = ^w3_q[11:0];

`ifndef SYNTHESIS
  // The invalidation request is held until accepted, with its payload.
  logic                   inv_wait_q;
  logic [AsidW+106-1:0]   inv_payload_q;
  always_ff @(posedge clk_i) begin
    inv_wait_q    <= rst_ni && inv_valid_o && !inv_ready_i;
    inv_payload_q <= {inv_type_o, inv_asid_o, inv_start_o, inv_end_o};
    if (rst_ni && inv_wait_q) begin
      inv_held: assert (inv_valid_o &&
                        {inv_type_o, inv_asid_o, inv_start_o, inv_end_o} == inv_payload_q);
    end
  end
`endif

endmodule : paging_exec
