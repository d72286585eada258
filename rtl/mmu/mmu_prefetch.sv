// SPDX-License-Identifier: Apache-2.0
// Stride prefetcher of one translation port: from the port's prefetch
// events, the pages whose translations the port should ask for before they
// are used.
//
// The port reports the first use of a new translation as a prefetch event
// (the first request that hits a fresh L1 entry, or a miss that asks for a
// new entry or merges into a prefetch). A one-entry stride detector (a
// reference-prediction table of one entry) remembers the page number (4 KB
// units) of the last event and a candidate delta (non-zero, StrideW bits
// signed) with a 2-bit confidence: a delta equal to the candidate raises it
// (saturating at 3), another one replaces the candidate (confidence 1)
// except at confidence 3, which only drops to 2: one jump (to the next tile)
// keeps a well-established stride. At confidence 2 or more (the delta seen
// twice in a row) an event asks for the translations of the Depth pages
// event + k*delta, k = 1.. (a strided stream, the rows of a tile);
// otherwise the first use of a hit entry asks for the Depth ranges right
// after it, of the entry's size (a stream), and a miss asks for nothing. A
// stride smaller than the hit entry's range falls back to the next ranges.
//
// The detector also learns the last jump that broke a confirmed stride
// (from page S to page J: the last row of a tile back to its first row, the
// bottom of a column to its top) and, along the stride, takes J as the page
// after S, so the rows after a repeated jump are asked for before it (a
// one-entry Markov predictor over the stride's breaks). A stride that goes
// on past S forgets the jump, and so does an invalidation or a change of
// address space. The last Depth prefetches issued are remembered and not
// offered again (forgotten at an invalidation).
//
// Interface: event_valid_i is a one-cycle pulse with its fields (no
// back-pressure: an event while the pages of the last one are still being
// offered replaces them). The pages leave one per cycle on a valid/ready
// channel (pf_*); pf_stride_o, a register, says the page follows a
// confirmed stride, and the port may base pf_ready_i on it (it lets a
// stride's prefetch take a miss register in the same cycle as a request's
// miss, a next-range one not). A page already in the recent list is
// dropped without being offered.
//
// Timing: the event is registered (stage 1), the detector is updated and
// the decision registered (stage 2), the first page computed (stage 3);
// then one page per cycle while they are taken. pf_valid_o is the stage-3
// register and a compare with the recent list, all from registers; nothing
// of the prefetcher is on the port's lookup path beyond the event's flops.
module mmu_prefetch #(
  parameter int unsigned AsidW   = 6,
  parameter int unsigned VpnW    = 36,
  parameter int unsigned Depth   = 3,    // pages (or ranges) asked for per event, 0..3 (0: none)
  parameter int unsigned StrideW = 10    // stride detector: signed 4 KB-page delta bits (<2: none)
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // Prefetch event (one-cycle pulse)
  input  logic             event_valid_i,
  input  logic             event_miss_i,  // a miss (else the first hit on an L1 entry)
  input  logic [AsidW-1:0] event_asid_i,
  input  logic [VpnW-1:0]  event_vpn_i,
  input  logic [2:0]       event_cov_i,   // the hit entry's covered range (PSIZE code); 4 KB for a miss

  // Page to prefetch
  output logic             pf_valid_o,
  input  logic             pf_ready_i,
  output logic             pf_stride_o,   // along a confirmed stride (else the next ranges)
  output logic [AsidW-1:0] pf_asid_o,
  output logic [VpnW-1:0]  pf_vpn_o,

  // Invalidation pulse
  input  logic             inv_valid_i
);

  // The stride detector slices the page-number delta at StrideW - 1.
  if (StrideW > VpnW) begin : gen_bad_stride
    $error("mmu_prefetch: StrideW must not exceed the page-number bits (VpnW)");
  end
  if (Depth > 3) begin : gen_bad_depth
    $error("mmu_prefetch: Depth must be 0 to 3");
  end

  localparam int unsigned Recent = (Depth > 0) ? Depth : 1;
  localparam int unsigned SW     = (StrideW > 1) ? StrideW : 2;

  // VA page-number bits above the covered range of a PSIZE code.
  function automatic logic [VpnW-1:0] above_cov(input logic [2:0] cov);
    case (cov)
      gmmu_mmu_pkg::PSIZE_64K:  above_cov = ~VpnW'(64'hF);
      gmmu_mmu_pkg::PSIZE_2M:   above_cov = ~VpnW'(64'h1FF);
      gmmu_mmu_pkg::PSIZE_1G:   above_cov = ~VpnW'(64'h3FFFF);
      gmmu_mmu_pkg::PSIZE_512G: above_cov = ~VpnW'(64'h7FFFFFF);
      default:                  above_cov = '1;
    endcase
  endfunction

  // Stage 1: the event.
  logic             event_take;
  logic             event_valid_q, event_miss_q;
  logic [AsidW-1:0] event_asid_q;
  logic [VpnW-1:0]  event_vpn_q;
  logic [2:0]       event_cov_q;
  // The stride detector: the last event's page and the candidate stride.
  logic             det_valid_q;
  logic [AsidW-1:0] det_asid_q;
  logic [VpnW-1:0]  det_last_vpn_q;
  logic [SW-1:0]    det_stride_q, det_stride_d;
  logic [1:0]       det_conf_q, det_conf_d;
  logic [VpnW-1:0]  det_delta;        // the event's page minus the last event's
  logic             det_same_as;      // the same address space as the last event
  logic             det_delta_zero;   // the same page as the last event
  logic             det_delta_fits;   // the delta fits the stride's SW bits
  logic             det_stride_match; // the delta is the candidate stride
  logic [SW-1:0]    det_stride_mag;   // |candidate stride|
  logic             use_stride;       // the event's pages follow the stride
  // Stage 2: the decision. plan_vpn_q is the page the first prefetch
  // steps from (the event's page, or the last page of the hit entry's
  // range), plan_step_q the step (sign-extended stride, or the range).
  logic             plan_valid_q;
  logic             plan_stride_q;
  logic [AsidW-1:0] plan_asid_q;
  logic [VpnW-1:0]  plan_vpn_q;
  logic [VpnW:0]    plan_step_q;
  // Stage 3: the page offered (issue_vpn_q) and how many are left.
  logic             issue_valid_q, issue_stride_q;
  logic [AsidW-1:0] issue_asid_q;
  logic [VpnW-1:0]  issue_vpn_q;
  logic [VpnW:0]    issue_step_q;
  logic [1:0]       issue_left_q;
  logic [VpnW:0]    issue_first;      // the first page of a new plan (bit VpnW: beyond the VA space)
  logic [VpnW:0]    issue_next;       // the page after issue_vpn_q (the same)
  logic             issue_recent;     // issue_vpn_q was prefetched recently
  logic             issue_skip;       // ... so it is dropped
  logic             pf_fire;
  // The learned jump: the last break of a confirmed stride (from the page
  // of one event to the page of the next).
  logic             jump_valid_q;
  logic [VpnW-1:0]  jump_src_q, jump_dst_q;
  logic             jump_at_plan, jump_at_issue;
  // The recent prefetches (a ring of Depth entries).
  logic [Recent-1:0] recent_valid_q;
  logic [AsidW-1:0]  recent_asid_q [Recent];
  logic [VpnW-1:0]   recent_vpn_q  [Recent];
  logic [$clog2(Recent+1)-1:0] recent_wr_q;

  assign event_take = (Depth > 0) && event_valid_i;

  // Stage 2 (from registers): the delta to the last event and the update.
  assign det_delta        = event_vpn_q - det_last_vpn_q;
  assign det_same_as      = det_valid_q && (det_asid_q == event_asid_q);
  assign det_delta_zero   = (det_delta == '0);
  assign det_delta_fits   = (det_delta[VpnW-1:SW-1] == '0) || (det_delta[VpnW-1:SW-1] == '1);
  assign det_stride_match = det_same_as && det_delta_fits && (det_delta[SW-1:0] == det_stride_q);

  always_comb begin
    det_conf_d   = det_conf_q;
    det_stride_d = det_stride_q;
    if (!det_same_as) begin
      det_conf_d = '0;
    end else if (det_delta_zero) begin
      // The same page again (the first hit after its own miss): no news.
    end else if (det_stride_match) begin
      if (det_conf_q != 2'd3) det_conf_d = det_conf_q + 2'd1;
    end else if (det_conf_q == 2'd3) begin
      det_conf_d = 2'd2;                    // one jump (to the next tile) keeps the stride
    end else if (det_delta_fits) begin
      det_stride_d = det_delta[SW-1:0];     // a new candidate, to be seen once more
      det_conf_d   = 2'd1;
    end else begin
      det_conf_d   = '0;
    end
  end

  // Use the stride when it is confident and at least the entry's range
  // (for a hit on a larger entry), so the targets are outside the entry.
  // Confidence 2 or more always comes with the stride unchanged, so the
  // magnitude is taken from the register, off the delta's carry chain.
  assign det_stride_mag = det_stride_q[SW-1] ? (~det_stride_q + SW'(1)) : det_stride_q;
  assign use_stride     = (StrideW > 1) && det_conf_d[1] &&
                          ((({{(VpnW-SW){1'b0}}, det_stride_mag}) & above_cov(event_cov_q)) != '0);

  // Stage 3: the first page to prefetch. Along a stride, the page after the
  // learned jump's source is its target.
  assign jump_at_plan  = plan_stride_q && jump_valid_q && (plan_vpn_q == jump_src_q);
  assign jump_at_issue = issue_stride_q && jump_valid_q && (issue_vpn_q == jump_src_q);
  assign issue_first   = jump_at_plan ? {1'b0, jump_dst_q} : {1'b0, plan_vpn_q} + plan_step_q;
  assign issue_next    = jump_at_issue ? {1'b0, jump_dst_q} : {1'b0, issue_vpn_q} + issue_step_q;

  always_comb begin
    issue_recent = 1'b0;
    for (int k = 0; k < Recent; k++) begin
      if (recent_valid_q[k] && recent_asid_q[k] == issue_asid_q && recent_vpn_q[k] == issue_vpn_q) begin
        issue_recent = 1'b1;
      end
    end
  end
  assign issue_skip = issue_valid_q && issue_recent;

  assign pf_valid_o  = issue_valid_q && !issue_recent;
  assign pf_stride_o = issue_stride_q;
  assign pf_asid_o   = issue_asid_q;
  assign pf_vpn_o    = issue_vpn_q;
  assign pf_fire     = pf_valid_o && pf_ready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      event_valid_q  <= 1'b0;
      event_miss_q   <= 1'b0;
      event_asid_q   <= '0;
      event_vpn_q    <= '0;
      event_cov_q    <= '0;
      det_valid_q    <= 1'b0;
      det_asid_q     <= '0;
      det_last_vpn_q <= '0;
      det_stride_q   <= '0;
      det_conf_q     <= '0;
      jump_valid_q   <= 1'b0;
      jump_src_q     <= '0;
      jump_dst_q     <= '0;
      plan_valid_q   <= 1'b0;
      plan_stride_q  <= 1'b0;
      issue_stride_q <= 1'b0;
      plan_asid_q    <= '0;
      plan_vpn_q     <= '0;
      plan_step_q    <= '0;
      issue_valid_q  <= 1'b0;
      issue_asid_q   <= '0;
      issue_vpn_q    <= '0;
      issue_step_q   <= '0;
      issue_left_q   <= '0;
      recent_valid_q <= '0;
      recent_wr_q    <= '0;
    end else begin
      if (pf_fire) begin
        recent_valid_q[recent_wr_q] <= 1'b1;
        recent_wr_q <= (32'(recent_wr_q) == Recent - 1) ? '0 : recent_wr_q + 1'b1;
      end
      // Stage 1: the event.
      event_valid_q <= event_take;
      if (event_take) begin
        event_miss_q <= event_miss_i;
        event_asid_q <= event_asid_i;
        event_vpn_q  <= event_vpn_i;
        event_cov_q  <= event_cov_i;
      end
      // Stage 2: the stride detector and the decision.
      // A repeat of the last event's page with the stride asks for the list
      // just asked; a miss without a stride asks for nothing.
      plan_valid_q <= event_valid_q && (use_stride ? !(det_same_as && det_delta_zero) : !event_miss_q);
      if (event_valid_q) begin
        det_valid_q    <= 1'b1;
        det_asid_q     <= event_asid_q;
        det_last_vpn_q <= event_vpn_q;
        det_stride_q   <= det_stride_d;
        det_conf_q     <= det_conf_d;
        // A stride that goes on past the jump's source unlearns the jump.
        if (!det_same_as || (det_stride_match && det_last_vpn_q == jump_src_q)) jump_valid_q <= 1'b0;
        if (det_same_as && !det_delta_zero && !det_stride_match && det_conf_q == 2'd3) begin
          jump_valid_q <= 1'b1;
          jump_src_q   <= det_last_vpn_q;
          jump_dst_q   <= event_vpn_q;
        end
        plan_asid_q   <= event_asid_q;
        plan_stride_q <= use_stride;
        if (use_stride) begin
          plan_vpn_q  <= event_vpn_q;
          plan_step_q <= {{(VpnW+1-SW){det_stride_q[SW-1]}}, det_stride_q};
        end else begin
          plan_vpn_q  <= event_vpn_q | ~above_cov(event_cov_q);
          plan_step_q <= {1'b0, ~above_cov(event_cov_q) + VpnW'(1)};
        end
      end
      // Stage 3: the prefetches, one page per cycle.
      if (plan_valid_q) begin
        issue_valid_q  <= !issue_first[VpnW];
        issue_asid_q   <= plan_asid_q;
        issue_stride_q <= plan_stride_q;
        issue_vpn_q    <= issue_first[VpnW-1:0];
        issue_step_q   <= plan_step_q;
        issue_left_q   <= 2'(Depth);
      end else if (pf_fire || issue_skip) begin
        // On to the next page, if any is left and it exists.
        issue_vpn_q  <= issue_next[VpnW-1:0];
        issue_left_q <= issue_left_q - 2'd1;
        if (issue_left_q == 2'd1 || issue_next[VpnW]) issue_valid_q <= 1'b0;
      end
      if (inv_valid_i) begin
        recent_valid_q <= '0;
        jump_valid_q   <= 1'b0;
      end
    end
  end

  // Payload: recent_valid_q guards it.
  always_ff @(posedge clk_i) begin
    if (pf_fire) begin
      recent_asid_q[recent_wr_q] <= issue_asid_q;
      recent_vpn_q[recent_wr_q]  <= issue_vpn_q;
    end
  end

endmodule : mmu_prefetch
