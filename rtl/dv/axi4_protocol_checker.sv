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
//                 (W beats belong to the AWs in order; a W burst may come
//                 before its AW, and is then checked when the AW arrives);
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
// Timing: the checks start at the first rising edge after reset ends (the
// falling edge before it sets active_q); a reset in the middle of a run
// clears the counts.
`include "prim_assert.svh"

module axi4_protocol_checker #(
  parameter int unsigned IdW       = 4,
  parameter int unsigned AddrW     = 32,
  parameter int unsigned DataW     = 64,
  parameter int unsigned UserW     = 1,
  parameter int unsigned MaxPerId  = 16,  // reads in flight per ID that are tracked: power of two
  parameter int unsigned MaxWrites = 16   // write bursts waiting for W (or W bursts for AW): power of two
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

  // Active from the first rising edge after reset (set at the falling edge
  // before it): a flop reset asynchronously, so that rst_ni stays an
  // asynchronous reset only (see prim_assert.svh).
  logic active_q, off;
  always_ff @(negedge clk_i or negedge rst_ni) begin
    if (!rst_ni) active_q <= 1'b0;
    else         active_q <= 1'b1;
  end
  assign off = !active_q;

  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid_i && awready_i;
  assign w_hs  = wvalid_i && wready_i;
  assign b_hs  = bvalid_i && bready_i;
  assign ar_hs = arvalid_i && arready_i;
  assign r_hs  = rvalid_i && rready_i;

  // ------------------------------------------------------------ handshakes
  `ASSERT(aw_valid_held, awvalid_i && !awready_i |=> awvalid_i, clk_i, off)
  `ASSERT(aw_stable, awvalid_i && !awready_i |=>
          $stable({awid_i, awaddr_i, awlen_i, awsize_i, awburst_i, awuser_i}), clk_i, off)
  `ASSERT(w_valid_held, wvalid_i && !wready_i |=> wvalid_i, clk_i, off)
  `ASSERT(w_stable, wvalid_i && !wready_i |=> $stable({wdata_i, wstrb_i, wlast_i}), clk_i, off)
  `ASSERT(b_valid_held, bvalid_i && !bready_i |=> bvalid_i, clk_i, off)
  `ASSERT(b_stable, bvalid_i && !bready_i |=> $stable({bid_i, bresp_i}), clk_i, off)
  `ASSERT(ar_valid_held, arvalid_i && !arready_i |=> arvalid_i, clk_i, off)
  `ASSERT(ar_stable, arvalid_i && !arready_i |=>
          $stable({arid_i, araddr_i, arlen_i, arsize_i, arburst_i, aruser_i}), clk_i, off)
  `ASSERT(r_valid_held, rvalid_i && !rready_i |=> rvalid_i, clk_i, off)
  `ASSERT(r_stable, rvalid_i && !rready_i |=> $stable({rid_i, rdata_i, rresp_i, rlast_i}), clk_i, off)

  `ASSERT_KNOWN(aw_known, {awvalid_i, awready_i}, clk_i, off)
  `ASSERT_KNOWN_IF(aw_payload_known, {awid_i, awaddr_i, awlen_i, awsize_i, awburst_i, awuser_i},
                   awvalid_i, clk_i, off)
  `ASSERT_KNOWN(w_known, {wvalid_i, wready_i}, clk_i, off)
  `ASSERT_KNOWN_IF(w_payload_known, {wstrb_i, wlast_i}, wvalid_i, clk_i, off)
  `ASSERT_KNOWN(b_known, {bvalid_i, bready_i}, clk_i, off)
  `ASSERT_KNOWN_IF(b_payload_known, {bid_i, bresp_i}, bvalid_i, clk_i, off)
  `ASSERT_KNOWN(ar_known, {arvalid_i, arready_i}, clk_i, off)
  `ASSERT_KNOWN_IF(ar_payload_known, {arid_i, araddr_i, arlen_i, arsize_i, arburst_i, aruser_i},
                   arvalid_i, clk_i, off)
  `ASSERT_KNOWN(r_known, {rvalid_i, rready_i}, clk_i, off)
  `ASSERT_KNOWN_IF(r_payload_known, {rid_i, rresp_i, rlast_i}, rvalid_i, clk_i, off)

  // ---------------------------------------------------------------- bursts
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

  logic [5:0] aw_err, ar_err;
  assign aw_err = burst_errors(awaddr_i[11:0], awlen_i, awsize_i, awburst_i);
  assign ar_err = burst_errors(araddr_i[11:0], arlen_i, arsize_i, arburst_i);

  `ASSERT_NEVER(aw_burst_reserved, awvalid_i && aw_err[0], clk_i, off)
  `ASSERT_NEVER(aw_size_too_big, awvalid_i && aw_err[1], clk_i, off)
  `ASSERT_NEVER(aw_wrap_len, awvalid_i && aw_err[2], clk_i, off)
  `ASSERT_NEVER(aw_wrap_unaligned, awvalid_i && aw_err[3], clk_i, off)
  `ASSERT_NEVER(aw_fixed_len, awvalid_i && aw_err[4], clk_i, off)
  `ASSERT_NEVER(aw_cross_4k, awvalid_i && aw_err[5], clk_i, off)
  `ASSERT_NEVER(ar_burst_reserved, arvalid_i && ar_err[0], clk_i, off)
  `ASSERT_NEVER(ar_size_too_big, arvalid_i && ar_err[1], clk_i, off)
  `ASSERT_NEVER(ar_wrap_len, arvalid_i && ar_err[2], clk_i, off)
  `ASSERT_NEVER(ar_wrap_unaligned, arvalid_i && ar_err[3], clk_i, off)
  `ASSERT_NEVER(ar_fixed_len, arvalid_i && ar_err[4], clk_i, off)
  `ASSERT_NEVER(ar_cross_4k, arvalid_i && ar_err[5], clk_i, off)

  // ---------------------------------------------------------------- writes
  // AWs whose W beats are not all taken, in order (W follows AW order).
  logic [IdW-1:0]   awq_id_q  [MaxWrites];
  logic [7:0]       awq_len_q [MaxWrites];
  logic [WPtrW-1:0] awq_head_q;
  logic [WPtrW:0]   awq_cnt_q;
  // W bursts complete before their AW: their beat counts, in order.
  logic [8:0]       wlead_q [MaxWrites];
  logic [WPtrW-1:0] wlead_head_q;
  logic [WPtrW:0]   wlead_cnt_q;
  logic [8:0]       wbeat_q;        // beats of the W burst in progress, before this one
  logic [NIds-1:0][7:0] bowed_q;   // per ID: writes with AW and every W taken, B not yet

  logic             w_from_q, w_from_aw, w_aw_known, w_done, aw_lead;
  logic             awq_push, awq_pop, wlead_push, b_inc, b_dec;
  logic [7:0]       w_len;
  logic [IdW-1:0]   w_id, b_inc_id;
  logic [WPtrW-1:0] awq_tail, wlead_tail;
  logic [8:0]       lead_beats;
  logic [7:0]       owed_b, owed_inc;

  always_comb begin
    // This W beat's AW: the oldest queued one, else one taken in this very
    // cycle when no earlier W burst is waiting for it.
    w_from_q  = (awq_cnt_q != '0);
    w_from_aw = !w_from_q && (wlead_cnt_q == '0) && aw_hs;
    w_aw_known   = w_from_q || w_from_aw;
    w_len     = w_from_q ? awq_len_q[awq_head_q] : awlen_i;
    w_id      = w_from_q ? awq_id_q[awq_head_q] : awid_i;
    w_done    = w_hs && wlast_i;
    aw_lead   = aw_hs && (wlead_cnt_q != '0);   // this AW's W burst is already complete
    awq_pop    = w_done && w_from_q;
    awq_push   = aw_hs && !aw_lead && !(w_from_aw && w_done);
    wlead_push = w_done && !w_aw_known;
    b_inc      = (w_done && w_aw_known) || aw_lead;
    b_inc_id   = aw_lead ? awid_i : w_id;
    lead_beats = wlead_q[wlead_head_q];
    owed_b     = bowed_q[bid_i];
    owed_inc   = bowed_q[b_inc_id];
    b_dec      = b_hs && (owed_b != '0);
    awq_tail   = awq_head_q + WPtrW'(awq_cnt_q);
    wlead_tail = wlead_head_q + WPtrW'(wlead_cnt_q);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      awq_head_q   <= '0;
      awq_cnt_q    <= '0;
      wlead_head_q <= '0;
      wlead_cnt_q  <= '0;
      wbeat_q      <= '0;
      bowed_q      <= '0;
    end else begin
      if (awq_pop) awq_head_q <= awq_head_q + WPtrW'(1);
      awq_cnt_q <= awq_cnt_q + (WPtrW + 1)'(awq_push) - (WPtrW + 1)'(awq_pop);
      if (aw_lead) wlead_head_q <= wlead_head_q + WPtrW'(1);
      wlead_cnt_q <= wlead_cnt_q + (WPtrW + 1)'(wlead_push) - (WPtrW + 1)'(aw_lead);
      if (w_hs) wbeat_q <= wlast_i ? 9'd0 : (wbeat_q == 9'h1FF ? wbeat_q : wbeat_q + 9'd1);
      if (b_inc) bowed_q[b_inc_id] <= bowed_q[b_inc_id] + 8'd1 - 8'(b_dec && bid_i == b_inc_id);
      if (b_dec && !(b_inc && bid_i == b_inc_id)) bowed_q[bid_i] <= bowed_q[bid_i] - 8'd1;
    end
  end

  // Payload arrays: written only where the counts say.
  always_ff @(posedge clk_i) begin
    if (awq_push) begin
      awq_id_q[awq_tail]  <= awid_i;
      awq_len_q[awq_tail] <= awlen_i;
    end
    if (wlead_push) wlead_q[wlead_tail] <= wbeat_q + 9'd1;
  end

  `ASSERT_NEVER(w_count, w_hs && w_aw_known &&
                ((wbeat_q > {1'b0, w_len}) || (wlast_i != (wbeat_q == {1'b0, w_len}))), clk_i, off)
  `ASSERT_NEVER(w_count_early, aw_lead && (lead_beats != {1'b0, awlen_i} + 9'd1),
                clk_i, off)
  `ASSERT_NEVER(b_unexpected, bvalid_i && (owed_b == '0), clk_i, off)
  `ASSERT_NEVER(b_exokay, bvalid_i && (bresp_i == ExOkay), clk_i, off)
  `ASSERT_NEVER(aw_overflow, awq_push && !awq_pop && (awq_cnt_q == (WPtrW + 1)'(MaxWrites)),
                clk_i, off)
  `ASSERT_NEVER(w_overflow, wlead_push && !aw_lead && (wlead_cnt_q == (WPtrW + 1)'(MaxWrites)),
                clk_i, off)
  `ASSERT_NEVER(b_overflow, b_inc && (owed_inc == 8'hFF), clk_i, off)

  // ----------------------------------------------------------------- reads
  // Per ID, the lengths of the reads in flight, oldest first (entry
  // {id, pointer}), and the beats already taken of the oldest.
  logic [7:0]       rq_len_q  [NIds * MaxPerId];
  // The per-ID counters are packed, so that reset clears them at once.
  logic [NIds-1:0][RPtrW-1:0] rq_head_q;
  logic [NIds-1:0][RPtrW:0]   rq_cnt_q;
  logic [NIds-1:0][7:0]       rbeat_q;

  logic             r_out, r_end, ar_same;
  logic [7:0]       r_len, r_beat;
  logic [RPtrW-1:0] ar_tail;
  logic [RPtrW:0]   ar_cnt;

  always_comb begin
    r_out   = (rq_cnt_q[rid_i] != '0);
    r_len   = rq_len_q[{rid_i, rq_head_q[rid_i]}];
    r_beat  = rbeat_q[rid_i];
    r_end   = r_hs && r_out && (r_beat == r_len);
    ar_same = r_end && (rid_i == arid_i);
    ar_cnt  = rq_cnt_q[arid_i];
    ar_tail = rq_head_q[arid_i] + RPtrW'(ar_cnt);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_head_q <= '0;
      rq_cnt_q  <= '0;
      rbeat_q   <= '0;
    end else begin
      if (ar_hs) rq_cnt_q[arid_i] <= rq_cnt_q[arid_i] + (RPtrW + 1)'(1) - (RPtrW + 1)'(ar_same);
      if (r_end && !(ar_hs && ar_same)) rq_cnt_q[rid_i] <= rq_cnt_q[rid_i] - (RPtrW + 1)'(1);
      if (r_end) begin
        rq_head_q[rid_i] <= rq_head_q[rid_i] + RPtrW'(1);
        rbeat_q[rid_i]   <= '0;
      end else if (r_hs && r_out) begin
        rbeat_q[rid_i]   <= rbeat_q[rid_i] + 8'd1;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (ar_hs) rq_len_q[{arid_i, ar_tail}] <= arlen_i;
  end

  `ASSERT_NEVER(r_unexpected, rvalid_i && !r_out, clk_i, off)
  `ASSERT_NEVER(r_last, r_hs && r_out && (rlast_i != (r_beat == r_len)), clk_i, off)
  `ASSERT_NEVER(r_exokay, rvalid_i && (rresp_i == ExOkay), clk_i, off)
  `ASSERT_NEVER(ar_overflow, ar_hs && !ar_same && (ar_cnt == (RPtrW + 1)'(MaxPerId)),
                clk_i, off)

endmodule : axi4_protocol_checker
