// SPDX-License-Identifier: Apache-2.0
// AXI4 protocol checker: watches one AXI4 (or AXI4-Lite) interface and
// asserts the rules of the AMBA AXI specification that this design relies
// on. Simulation only: it is listed in rtl/dv/dv.f, which the simulator
// builds read and no synthesis flow does, and the RTL never instantiates
// it: rtl/dv/<module>_dv.sv binds it to each AXI port of <module>. Every
// port is an input.
//
// Handshakes, on each of AW, W, B, AR and R:
//   *_valid_held   a valid stays high until its ready;
//   *_stable       the payload does not change while valid waits for ready;
//   *_known        no X on valid and ready, nor on the control payload of
//                  a valid (not the data: lanes without strobes, memory
//                  never written); four-state simulators only, see
//                  prim_assert.svh.
// Bursts, on AW and AR while valid:
//   *_burst_reserved  AxBURST is not 2'b11;
//   *_size_too_big    2^AxSIZE is no wider than the data bus;
//   *_wrap_len        a WRAP burst has 2, 4, 8 or 16 beats;
//   *_wrap_unaligned  a WRAP burst starts aligned to its size;
//   *_fixed_len       a FIXED burst has at most 16 beats;
//   *_cross_4k        an INCR burst stays within one 4 KB page.
// Counts and order, from the handshakes seen:
//   w_count       a burst's W beats are AWLEN+1, WLAST on the last one only
//                 (W beats belong to the AWs in order);
//   w_count_early the same for a W burst that came before its AW, checked
//                 when the AW arrives;
//   b_unexpected  a B only for an ID with a write whose AW and every W beat
//                 were taken in an earlier cycle;
//   r_unexpected  an R beat only for an ID with a read outstanding;
//   r_last        R beats of one ID answer that ID's reads in order
//                 (ARLEN+1 beats each, RLAST on the last one only), so an
//                 extra beat, a missing RLAST or same-ID reordering fires;
//   b_exokay, r_exokay  no EXOKAY: the design issues no exclusive access.
//   *_overflow    more in flight than the checker keeps (MaxPerId reads per
//                 ID, MaxWrites write bursts, 2^8-1 B per ID): raise the
//                 parameter.
//
// AXI4-Lite: tie the ID to 0, LEN to 0, SIZE to log2 of the bus bytes,
// BURST to INCR and both LASTs to 1 (as axi4lite_to_reg_dv does). A channel
// an interface does not have is tied off with its valid at 0 (mmu_dv: the
// walker only reads).
//
// Timing: every check is made at a rising edge with rst_ni high, by one
// process whose branches run only on a valid; a reset in the middle of a
// run clears the counts.
`include "prim_assert.svh"

module axi4_protocol_checker #(
  parameter int unsigned IdW       = 4,
  parameter int unsigned AddrW     = 32,
  parameter int unsigned DataW     = 64,
  parameter int unsigned UserW     = 1,
  parameter int unsigned MaxPerId  = 16,  // reads in flight per ID that are tracked: power of two
  // write bursts waiting for W (or W bursts for AW): power of two
  parameter int unsigned MaxWrites = 16,
  // 0: clk_i is already a gated clock whose edges run whenever any valid
  // of this port is high (the clock of the arbiter or demux the port
  // belongs to), so the checker adds no gate of its own.
  parameter bit          OwnGate   = 1'b1
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  input  logic               awvalid_i,
  input  logic               awready_i,
  input  logic [IdW-1:0]     awid_i,
  input  logic [AddrW-1:0]   awaddr_i,
  input  logic [7:0]         awlen_i,
  input  logic [2:0]         awsize_i,
  input  logic [1:0]         awburst_i,
  input  logic [UserW-1:0]   awuser_i,
  input  logic               wvalid_i,
  input  logic               wready_i,
  input  logic [DataW-1:0]   wdata_i,
  input  logic [DataW/8-1:0] wstrb_i,
  input  logic               wlast_i,
  input  logic               bvalid_i,
  input  logic               bready_i,
  input  logic [IdW-1:0]     bid_i,
  input  logic [1:0]         bresp_i,
  input  logic               arvalid_i,
  input  logic               arready_i,
  input  logic [IdW-1:0]     arid_i,
  input  logic [AddrW-1:0]   araddr_i,
  input  logic [7:0]         arlen_i,
  input  logic [2:0]         arsize_i,
  input  logic [1:0]         arburst_i,
  input  logic [UserW-1:0]   aruser_i,
  input  logic               rvalid_i,
  input  logic               rready_i,
  input  logic [IdW-1:0]     rid_i,
  input  logic [DataW-1:0]   rdata_i,
  input  logic [1:0]         rresp_i,
  input  logic               rlast_i
);

  localparam int unsigned NIds   = 1 << IdW;
  localparam int unsigned RPtrW  = (MaxPerId > 1) ? $clog2(MaxPerId) : 1;
  localparam int unsigned WPtrW  = (MaxWrites > 1) ? $clog2(MaxWrites) : 1;
  localparam int unsigned BusSz  = $clog2(DataW / 8);   // AxSIZE of a full-width beat
  localparam logic [1:0]  Fixed = 2'b00, Incr = 2'b01, Wrap = 2'b10;
  localparam logic [1:0]  ExOkay = 2'b01;

  // The checker's clock skips its edges while no valid is high, from a few
  // edges after the last one (prim_sim_clock_gate): every rule is about a
  // valid or a beat, so an idle port has nothing to check, and the SoC's
  // forty checkers cost the simulator nothing while their ports rest.
  // A checker of an arbiter's or demux's port runs on that block's gated
  // clock instead (OwnGate = 0): its edges cover every valid of every port
  // of the block, and each gate is one more clock for the simulator's
  // scheduler to test at every evaluation.
  logic clk_gated;
  if (OwnGate) begin : g_own_gate
    prim_sim_clock_gate u_clock_gate (
      .clk_i,
      .rst_ni,
      .active_i (awvalid_i || wvalid_i || bvalid_i || arvalid_i || rvalid_i),
      .clk_o    (clk_gated)
    );
  end else begin : g_block_clock
    assign clk_gated = clk_i;
  end

  // Active from the first rising edge after reset (set at the falling edge
  // before it): a flop reset asynchronously, so that rst_ni stays an
  // asynchronous reset only (see prim_assert.svh).
  `ASSERT_OFF(off)

  // No X: four-state simulators only (empty checks under Verilator).
  `ASSERT_KNOWN(aw_known, {awvalid_i, awready_i}, clk_gated, off)
  `ASSERT_KNOWN_IF(aw_payload_known, {awid_i, awaddr_i, awlen_i, awsize_i, awburst_i, awuser_i},
                   awvalid_i, clk_gated, off)
  `ASSERT_KNOWN(w_known, {wvalid_i, wready_i}, clk_gated, off)
  `ASSERT_KNOWN_IF(w_payload_known, {wstrb_i, wlast_i}, wvalid_i, clk_gated, off)
  `ASSERT_KNOWN(b_known, {bvalid_i, bready_i}, clk_gated, off)
  `ASSERT_KNOWN_IF(b_payload_known, {bid_i, bresp_i}, bvalid_i, clk_gated, off)
  `ASSERT_KNOWN(ar_known, {arvalid_i, arready_i}, clk_gated, off)
  `ASSERT_KNOWN_IF(ar_payload_known, {arid_i, araddr_i, arlen_i, arsize_i, arburst_i, aruser_i},
                   arvalid_i, clk_gated, off)
  `ASSERT_KNOWN(r_known, {rvalid_i, rready_i}, clk_gated, off)
  `ASSERT_KNOWN_IF(r_payload_known, {rid_i, rresp_i, rlast_i}, rvalid_i, clk_gated, off)

  // Everything else is checked at the rising edge by one process, whose
  // branches run only on a valid: most interfaces are idle most cycles, and
  // a simulator (Verilator above all) then pays a few tests per cycle.

  // One function for both address channels: bit 0 reserved burst type,
  // 1 size wider than the bus, 2 WRAP length, 3 WRAP alignment, 4 FIXED
  // length, 5 INCR across 4 KB.
  function automatic logic [5:0] burst_errors(input logic [11:0] addr, input logic [7:0] len,
                                              input logic [2:0] size, input logic [1:0] burst);
    logic [31:0] mask, bytes, first;
    mask  = (32'd1 << size) - 32'd1;
    bytes = (32'(len) + 32'd1) << size;
    first = 32'(addr) & ~mask;        // beats after the first are aligned to the size
    burst_errors[0] = (burst == 2'b11);
    burst_errors[1] = (32'(size) > BusSz);
    burst_errors[2] = (burst == Wrap) && !(len == 8'd1 || len == 8'd3 || len == 8'd7 || len == 8'd15);
    burst_errors[3] = (burst == Wrap) && ((32'(addr) & mask) != 32'd0);
    burst_errors[4] = (burst == Fixed) && (len > 8'd15);
    burst_errors[5] = (burst == Incr) && (first + bytes > 32'd4096);
  endfunction

  localparam int unsigned AxW = IdW + AddrW + 8 + 3 + 2 + UserW;
  localparam int unsigned WW  = DataW + DataW / 8 + 1;
  localparam int unsigned BW  = IdW + 2;
  localparam int unsigned RW  = IdW + DataW + 2 + 1;
  logic [AxW-1:0] aw_pl, ar_pl, aw_pl_q, ar_pl_q;   // payloads, and as offered last edge
  logic [WW-1:0]  w_pl, w_pl_q;
  logic [BW-1:0]  b_pl, b_pl_q;
  logic [RW-1:0]  r_pl, r_pl_q;
  logic           aw_wait_q, w_wait_q, b_wait_q, ar_wait_q, r_wait_q;  // valid without ready
  assign aw_pl = {awid_i, awaddr_i, awlen_i, awsize_i, awburst_i, awuser_i};
  assign ar_pl = {arid_i, araddr_i, arlen_i, arsize_i, arburst_i, aruser_i};
  assign w_pl  = {wdata_i, wstrb_i, wlast_i};
  assign b_pl  = {bid_i, bresp_i};
  assign r_pl  = {rid_i, rdata_i, rresp_i, rlast_i};

  // Writes. AWs whose W beats are not all taken, in order (W follows AW
  // order); W bursts complete before their AW (their beat counts); per ID,
  // the writes whose AW and every W beat were taken and whose B is due.
  logic [IdW-1:0]   awq_id_q  [MaxWrites];
  logic [7:0]       awq_len_q [MaxWrites];
  logic [WPtrW-1:0] awq_head_q;
  logic [WPtrW:0]   awq_cnt_q;
  logic [8:0]       wlead_q [MaxWrites];
  logic [WPtrW-1:0] wlead_head_q;
  logic [WPtrW:0]   wlead_cnt_q;
  logic [8:0]       wbeat_q;                // beats of the W burst in progress so far
  // Reads: per ID, the lengths of the reads in flight, oldest first (entry
  // {id, pointer}), and the beats already taken of the oldest. The per-ID
  // counters are packed, so that reset clears them at once.
  logic [7:0]                 rq_len_q [NIds * MaxPerId];
  logic [NIds-1:0][RPtrW-1:0] rq_head_q;
  logic [NIds-1:0][RPtrW:0]   rq_cnt_q;
  logic [NIds-1:0][7:0]       rbeat_q;
  logic [NIds-1:0][7:0]       bowed_q;

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_wait_q    <= 1'b0;
      w_wait_q     <= 1'b0;
      b_wait_q     <= 1'b0;
      ar_wait_q    <= 1'b0;
      r_wait_q     <= 1'b0;
      awq_head_q   <= '0;
      awq_cnt_q    <= '0;
      wlead_head_q <= '0;
      wlead_cnt_q  <= '0;
      wbeat_q      <= '0;
      bowed_q      <= '0;
      rq_head_q    <= '0;
      rq_cnt_q     <= '0;
      rbeat_q      <= '0;
    end else begin
      // ---------------------------------------------------- handshakes
      if (aw_wait_q) begin
        `ASSERT_I(aw_valid_held, awvalid_i)
        `ASSERT_I(aw_stable, !awvalid_i || aw_pl == aw_pl_q)
      end
      if (w_wait_q) begin
        `ASSERT_I(w_valid_held, wvalid_i)
        `ASSERT_I(w_stable, !wvalid_i || w_pl == w_pl_q)
      end
      if (b_wait_q) begin
        `ASSERT_I(b_valid_held, bvalid_i)
        `ASSERT_I(b_stable, !bvalid_i || b_pl == b_pl_q)
      end
      if (ar_wait_q) begin
        `ASSERT_I(ar_valid_held, arvalid_i)
        `ASSERT_I(ar_stable, !arvalid_i || ar_pl == ar_pl_q)
      end
      if (r_wait_q) begin
        `ASSERT_I(r_valid_held, rvalid_i)
        `ASSERT_I(r_stable, !rvalid_i || r_pl == r_pl_q)
      end
      aw_wait_q <= awvalid_i && !awready_i;
      w_wait_q  <= wvalid_i && !wready_i;
      b_wait_q  <= bvalid_i && !bready_i;
      ar_wait_q <= arvalid_i && !arready_i;
      r_wait_q  <= rvalid_i && !rready_i;
      if (awvalid_i) aw_pl_q <= aw_pl;
      if (wvalid_i)  w_pl_q  <= w_pl;
      if (bvalid_i)  b_pl_q  <= b_pl;
      if (arvalid_i) ar_pl_q <= ar_pl;
      if (rvalid_i)  r_pl_q  <= r_pl;

      // -------------------------------------------------------- bursts
      if (awvalid_i) begin : b_aw
        automatic logic [5:0] e = burst_errors(awaddr_i[11:0], awlen_i, awsize_i, awburst_i);
        `ASSERT_I(aw_burst_reserved, !e[0])
        `ASSERT_I(aw_size_too_big, !e[1])
        `ASSERT_I(aw_wrap_len, !e[2])
        `ASSERT_I(aw_wrap_unaligned, !e[3])
        `ASSERT_I(aw_fixed_len, !e[4])
        `ASSERT_I(aw_cross_4k, !e[5])
      end
      if (arvalid_i) begin : b_ar
        automatic logic [5:0] e = burst_errors(araddr_i[11:0], arlen_i, arsize_i, arburst_i);
        `ASSERT_I(ar_burst_reserved, !e[0])
        `ASSERT_I(ar_size_too_big, !e[1])
        `ASSERT_I(ar_wrap_len, !e[2])
        `ASSERT_I(ar_wrap_unaligned, !e[3])
        `ASSERT_I(ar_fixed_len, !e[4])
        `ASSERT_I(ar_cross_4k, !e[5])
      end

      // -------------------------------------------------------- writes
      if (awvalid_i || wvalid_i || bvalid_i) begin : b_write
        automatic logic aw_hs = awvalid_i && awready_i;
        automatic logic w_hs  = wvalid_i && wready_i;
        automatic logic b_hs  = bvalid_i && bready_i;
        // This W beat's AW: the oldest queued one, else one taken in this
        // very cycle when no earlier W burst is waiting for it.
        automatic logic from_q  = (awq_cnt_q != '0);
        automatic logic from_aw = !from_q && (wlead_cnt_q == '0) && aw_hs;
        automatic logic known   = from_q || from_aw;
        automatic logic [7:0] len = from_q ? awq_len_q[awq_head_q] : awlen_i;
        automatic logic [IdW-1:0] id = from_q ? awq_id_q[awq_head_q] : awid_i;
        automatic logic done    = w_hs && wlast_i;
        automatic logic lead    = aw_hs && (wlead_cnt_q != '0);  // its W burst is complete
        automatic logic pop     = done && from_q;
        automatic logic push    = aw_hs && !lead && !(from_aw && done);
        automatic logic lpush   = done && !known;
        automatic logic inc     = (done && known) || lead;
        automatic logic [IdW-1:0] inc_id = lead ? awid_i : id;
        automatic logic [7:0] owed_b   = bowed_q[bid_i];
        automatic logic [7:0] owed_inc = bowed_q[inc_id];
        automatic logic dec     = b_hs && (owed_b != '0);

        if (w_hs && known) begin
          `ASSERT_I(w_count, wbeat_q <= {1'b0, len} && wlast_i == (wbeat_q == {1'b0, len}))
        end
        if (lead) begin
          `ASSERT_I(w_count_early, wlead_q[wlead_head_q] == {1'b0, awlen_i} + 9'd1)
        end
        if (bvalid_i) begin
          `ASSERT_I(b_unexpected, owed_b != '0)
          `ASSERT_I(b_exokay, bresp_i != ExOkay)
        end
        `ASSERT_I(aw_overflow, !(push && !pop && awq_cnt_q == (WPtrW + 1)'(MaxWrites)))
        `ASSERT_I(w_overflow, !(lpush && !lead && wlead_cnt_q == (WPtrW + 1)'(MaxWrites)))
        `ASSERT_I(b_overflow, !(inc && owed_inc == 8'hFF))

        if (pop) awq_head_q <= awq_head_q + WPtrW'(1);
        awq_cnt_q <= awq_cnt_q + (WPtrW + 1)'(push) - (WPtrW + 1)'(pop);
        if (push) begin
          awq_id_q[awq_head_q + WPtrW'(awq_cnt_q)]  <= awid_i;
          awq_len_q[awq_head_q + WPtrW'(awq_cnt_q)] <= awlen_i;
        end
        if (lead) wlead_head_q <= wlead_head_q + WPtrW'(1);
        wlead_cnt_q <= wlead_cnt_q + (WPtrW + 1)'(lpush) - (WPtrW + 1)'(lead);
        if (lpush) wlead_q[wlead_head_q + WPtrW'(wlead_cnt_q)] <= wbeat_q + 9'd1;
        if (w_hs) wbeat_q <= wlast_i ? 9'd0 : (wbeat_q == 9'h1FF ? wbeat_q : wbeat_q + 9'd1);
        if (inc) bowed_q[inc_id] <= owed_inc + 8'd1 - 8'(dec && bid_i == inc_id);
        if (dec && !(inc && bid_i == inc_id)) bowed_q[bid_i] <= owed_b - 8'd1;
      end

      // --------------------------------------------------------- reads
      if (arvalid_i || rvalid_i) begin : b_read
        automatic logic ar_hs = arvalid_i && arready_i;
        automatic logic r_hs  = rvalid_i && rready_i;
        automatic logic [RPtrW:0] r_cnt = rq_cnt_q[rid_i];
        automatic logic out     = (r_cnt != '0);
        automatic logic [7:0] len  = rq_len_q[{rid_i, rq_head_q[rid_i]}];
        automatic logic [7:0] beat = rbeat_q[rid_i];
        automatic logic fin     = r_hs && out && (beat == len);
        automatic logic same    = fin && (rid_i == arid_i);
        automatic logic [RPtrW:0] ar_cnt = rq_cnt_q[arid_i];

        if (rvalid_i) begin
          `ASSERT_I(r_unexpected, out)
          `ASSERT_I(r_exokay, rresp_i != ExOkay)
        end
        if (r_hs && out) begin
          `ASSERT_I(r_last, rlast_i == (beat == len))
        end
        `ASSERT_I(ar_overflow, !(ar_hs && !same && ar_cnt == (RPtrW + 1)'(MaxPerId)))

        if (ar_hs) begin
          rq_len_q[{arid_i, rq_head_q[arid_i] + RPtrW'(ar_cnt)}] <= arlen_i;
          rq_cnt_q[arid_i] <= ar_cnt + (RPtrW + 1)'(1) - (RPtrW + 1)'(same);
        end
        if (fin && !(ar_hs && same)) rq_cnt_q[rid_i] <= r_cnt - (RPtrW + 1)'(1);
        if (fin) begin
          rq_head_q[rid_i] <= rq_head_q[rid_i] + RPtrW'(1);
          rbeat_q[rid_i]   <= '0;
        end else if (r_hs && out) begin
          rbeat_q[rid_i]   <= beat + 8'd1;
        end
      end
    end
  end

endmodule : axi4_protocol_checker
