// SPDX-License-Identifier: Apache-2.0
// Paging engine completion tracker: completes packets in queue order.
//
// Every packet in flight holds a slot (PktSlots, in order): its length in
// queue words, the count of its write bursts still waiting for B, a closed
// bit (the packet has issued its last burst, or its FLUSH_TLB finished) and
// an error bit. Each issued write burst is also remembered per port
// (Outstanding per port: slot and start address) until its B: AWID is
// constant, so a port's B responses come back in its AW order. The head
// slot retires when it is closed, has no burst outstanding and no error:
// TAIL advances by its words and PACKETS_DONE by one. A slot with an error
// never retires, so PACKETS_DONE stops at the failing packet.
//
// A B with BRESP != OKAY is reported as an AXI_WRITE event with the
// burst's start address and its packet's index (PACKETS_DONE plus the
// slot's distance from the head). rd_err_i (a COPY read error) marks the
// head slot, which is the COPY's: a COPY starts only with no other packet
// in flight and stays the head until it retires.
//
// Timing: open, close, burst push and B in any combination in one cycle;
// one retirement per cycle, the cycle after the packet's last B (or
// close). bready is always 1 (the caller ties it).
module paging_track #(
  parameter int unsigned PktSlots    = 8,
  parameter int unsigned Outstanding = 8,
  parameter int unsigned QAW         = 9,
  localparam int unsigned SlotW = $clog2(PktSlots),
  localparam int unsigned OutW  = $clog2(2 * Outstanding + 1),
  localparam int unsigned BW    = $clog2(Outstanding)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             flush_i,
  input  logic [31:0]      head_i,        // TAIL's value after a flush

  // Open a slot for the next packet
  input  logic             open_valid_i,
  output logic             open_ready_o,
  input  logic [QAW:0]     open_words_i,
  input  logic             open_closed_i,  // nothing to wait for (a FENCE without write)
  output logic [SlotW-1:0] open_slot_o,

  // Close a slot (A: the sequencer's FLUSH_TLB, B: the write generator)
  input  logic             close_a_i,
  input  logic [SlotW-1:0] close_a_slot_i,
  input  logic             close_b_i,
  input  logic [SlotW-1:0] close_b_slot_i,

  // A write burst committed on a port
  input  logic             push_i,
  input  logic             push_port_i,   // 0: DDR, 1: system memory
  input  logic [SlotW-1:0] push_slot_i,
  input  logic [63:0]      push_addr_i,
  output logic [1:0]       room_o,        // per port: another burst may be pushed

  // B channels of both ports
  input  logic [1:0]       b_valid_i,
  input  logic [3:0]       b_resp_i,

  input  logic             rd_err_i,

  // AXI_WRITE error events, per port
  output logic [1:0]       ev_valid_o,
  output logic [63:0]      ev_pkt_o,
  output logic [127:0]     ev_addr_o,

  output logic             empty_o,       // no packet in flight
  output logic             bursts_idle_o, // no write burst waiting for B
  output logic             retire_o,
  output logic [31:0]      tail_o,
  output logic [31:0]      packets_done_o
);

  // ------------------------------------------------------------ bursts per port
  logic [1:0]         b_take, b_err, bq_empty;
  logic [2*SlotW-1:0] b_slot;
  logic [127:0]       b_addr;

  for (genvar p = 0; p < 2; p++) begin : gen_port
    logic [SlotW-1:0] slot_q [Outstanding];
    logic [63:0]      addr_q [Outstanding];
    logic [BW-1:0]    rd_q, wr_q;
    logic [BW:0]      cnt_q;
    logic             push_here;

    assign push_here = push_i && (push_port_i == 1'(p));
    assign b_take[p] = b_valid_i[p];
    assign b_err[p]  = b_valid_i[p] && (b_resp_i[2*p +: 2] != 2'b00);
    assign b_slot[SlotW*p +: SlotW] = slot_q[rd_q];
    assign b_addr[64*p +: 64]       = addr_q[rd_q];
    assign room_o[p]   = cnt_q < (BW+1)'(Outstanding);
    assign bq_empty[p] = cnt_q == '0;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rd_q  <= '0;
        wr_q  <= '0;
        cnt_q <= '0;
      end else if (flush_i) begin
        rd_q  <= '0;
        wr_q  <= '0;
        cnt_q <= '0;
      end else begin
        if (push_here) wr_q <= wr_q + BW'(1);
        if (b_take[p]) rd_q <= rd_q + BW'(1);
        cnt_q <= cnt_q + (BW+1)'(push_here) - (BW+1)'(b_take[p]);
      end
    end

    // Burst records: data only, no reset.
    always_ff @(posedge clk_i) begin
      if (push_here) begin
        slot_q[wr_q] <= push_slot_i;
        addr_q[wr_q] <= push_addr_i;
      end
    end

`ifndef SYNTHESIS
    // A B answers a burst this port issued; a push finds room.
    always_ff @(posedge clk_i) begin
      if (rst_ni) b_expected: assert (!b_valid_i[p] || (cnt_q != '0));
    end
    always_ff @(posedge clk_i) begin
      if (rst_ni) push_room: assert (!push_here || (room_o[p]));
    end
`endif
  end

  // ------------------------------------------------------------ packet slots
  logic [QAW:0]     words_q [PktSlots];
  logic [OutW-1:0]  outst_q [PktSlots];
  logic [PktSlots-1:0] closed_q, err_q;
  logic [SlotW-1:0] head_q, tail_q;
  logic [SlotW:0]   cnt_q;
  logic [31:0]      tail_words_q, done_q;
  logic             open, retire;

  assign open_ready_o = cnt_q < (SlotW+1)'(PktSlots);
  assign open         = open_valid_i && open_ready_o;
  assign open_slot_o  = tail_q;
  assign retire       = (cnt_q != '0) && closed_q[head_q] && (outst_q[head_q] == '0) && !err_q[head_q];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q       <= '0;
      tail_q       <= '0;
      cnt_q        <= '0;
      closed_q     <= '0;
      err_q        <= '0;
      tail_words_q <= '0;
      done_q       <= '0;
      for (int unsigned s = 0; s < PktSlots; s++) begin
        outst_q[s] <= '0;
        words_q[s] <= '0;
      end
    end else if (flush_i) begin
      head_q       <= '0;
      tail_q       <= '0;
      cnt_q        <= '0;
      closed_q     <= '0;
      err_q        <= '0;
      tail_words_q <= head_i;
      for (int unsigned s = 0; s < PktSlots; s++) outst_q[s] <= '0;
    end else begin
      for (int unsigned s = 0; s < PktSlots; s++) begin
        outst_q[s] <= outst_q[s]
                    + OutW'(push_i && push_slot_i == SlotW'(s))
                    - OutW'(b_take[0] && b_slot[0 +: SlotW] == SlotW'(s))
                    - OutW'(b_take[1] && b_slot[SlotW +: SlotW] == SlotW'(s));
        if ((close_a_i && close_a_slot_i == SlotW'(s)) ||
            (close_b_i && close_b_slot_i == SlotW'(s))) closed_q[s] <= 1'b1;
        if ((b_err[0] && b_slot[0 +: SlotW] == SlotW'(s)) || (b_err[1] && b_slot[SlotW +: SlotW] == SlotW'(s)) ||
            (rd_err_i && head_q == SlotW'(s))) err_q[s] <= 1'b1;
      end
      if (open) begin
        words_q[tail_q]  <= open_words_i;
        closed_q[tail_q] <= open_closed_i;
        err_q[tail_q]    <= 1'b0;
        tail_q           <= tail_q + SlotW'(1);
      end
      if (retire) begin
        head_q       <= head_q + SlotW'(1);
        tail_words_q <= tail_words_q + 32'(words_q[head_q]);
        done_q       <= done_q + 32'd1;
      end
      cnt_q <= cnt_q + (SlotW+1)'(open) - (SlotW+1)'(retire);
    end
  end

  // ------------------------------------------------------------ outputs
  for (genvar p = 0; p < 2; p++) begin : gen_ev
    assign ev_valid_o[p]           = b_err[p];
    assign ev_pkt_o[32*p +: 32]    = done_q + 32'(SlotW'(b_slot[SlotW*p +: SlotW] - head_q));
    assign ev_addr_o[64*p +: 64]   = b_addr[64*p +: 64];
  end

  assign empty_o        = cnt_q == '0;
  assign bursts_idle_o  = &bq_empty;
  assign retire_o       = retire;
  assign tail_o         = tail_words_q;
  assign packets_done_o = done_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) open_closed_slot_is_new: assert (!open ||
        (!(close_a_i && close_a_slot_i == tail_q) && !(close_b_i && close_b_slot_i == tail_q)));
  end
`endif

endmodule : paging_track
