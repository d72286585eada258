// SPDX-License-Identifier: Apache-2.0
// Shared L2 TLB: set associative, in block RAM, one lookup per cycle.
//
// Four banks, one per covered-range size (4 KB, 64 KB, 2 MB, 1 GB), are
// looked up in parallel, each indexed by the VA bits just above its size
// (folded once with the next bits, so power-of-two strides spread over the
// sets, and XORed with the address space, so address spaces do), so a
// lookup needs no page-size guess. A 512 GB zero range is kept in the
// 1 GB bank as the 1 GB range around the VA. Each way of each bank is a
// synchronous-read RAM (prim_ram_1r1w) holding {asid, VA page tag,
// translation record}; valid bits are flops so they can be cleared at once.
//
// Pipeline: cycle 0 accepts a lookup and reads the RAMs; in cycle 1 the
// words pass the RAMs' output registers; cycle 2 compares every way; cycle
// 3 picks the hit within each bank and among the banks (the smallest
// covered size wins); cycle 4 presents the result (res_*), which the
// consumer must take that cycle (a hit becomes a fill, a miss starts a
// walk: the caller guarantees a free walker through can_accept_i).
// Latency 4, one per cycle. The output registers take the block RAMs'
// clock-to-output (unregistered on ECP5, most of a cycle) off the compare:
// RAM, compare and compare register in one cycle made fmax-mmu's routed
// critical path, and a compare split in two registered halves did not
// shorten it. The selection has a cycle of its own because compare and
// select in one cycle, straight off the block RAMs, was the MMU's longest
// path on ECP5, even with the choice within a bank after the compare.
//
// Install (from a completed walk) writes, the cycle after ins_valid_i, the
// bank of the record's covered size: an invalid way of the set, else a
// pseudo-random one. Invalidation:
// INV_ALL clears every valid bit in one cycle; INV_ASID and INV_RANGE sweep
// the sets (one per cycle, MaxSets + 4 cycles: read, output register,
// compare, and the clear a cycle after the compare, so the range compares
// do not reach the valid bits in one cycle) reading the tags,
// while lookups are held off (busy_o). A lookup in flight when an invalidation
// starts is marked stale (res_stale_o): its answer must not be installed.
//
// The banks' geometry defaults to include/defs/mmu.toml (L2_SETS_* and
// L2_WAYS_*, whose sum is L2_ENTRIES): sets a power of two, ways 1 to 4.
module mmu_l2_tlb #(
  parameter int unsigned AsidW  = $clog2(gmmu_mmu_pkg::ASIDS),
  parameter int unsigned VpnW   = 36,
  parameter int unsigned MetaW  = 5,
  parameter int unsigned Sets0  = gmmu_mmu_pkg::L2_SETS_4K,   // 4 KB bank
  parameter int unsigned Ways0  = gmmu_mmu_pkg::L2_WAYS_4K,
  parameter int unsigned Sets1  = gmmu_mmu_pkg::L2_SETS_64K,  // 64 KB bank
  parameter int unsigned Ways1  = gmmu_mmu_pkg::L2_WAYS_64K,
  parameter int unsigned Sets2  = gmmu_mmu_pkg::L2_SETS_2M,   // 2 MB bank
  parameter int unsigned Ways2  = gmmu_mmu_pkg::L2_WAYS_2M,
  parameter int unsigned Sets3  = gmmu_mmu_pkg::L2_SETS_1G,   // 1 GB bank (and 512 GB zero ranges)
  parameter int unsigned Ways3  = gmmu_mmu_pkg::L2_WAYS_1G
) (
  input  logic                                clk_i,
  // The same clock, never gated: the pseudo-random way choice steps on every
  // cycle whether or not the MMU's clock skips edges (prim_sim_clock_gate).
  input  logic                                clk_free_i,
  input  logic                                rst_ni,

  // Lookup
  input  logic                                in_valid_i,
  output logic                                in_ready_o,
  input  logic [AsidW-1:0]                    in_asid_i,
  input  logic [VpnW-1:0]                     in_vpn_i,
  input  logic [MetaW-1:0]                    in_meta_i,
  input  logic                                can_accept_i,

  // Result, four cycles later
  output logic                                res_valid_o,
  output logic                                res_hit_o,
  output logic                                res_stale_o,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]  res_info_o,
  output logic [AsidW-1:0]                    res_asid_o,
  output logic [VpnW-1:0]                     res_vpn_o,
  output logic [MetaW-1:0]                    res_meta_o,
  output logic [2:0]                          inflight_o,   // lookups in cycles 1 to 4
  // The address space of the lookup whose result is presented next cycle
  // (if s3 holds one): the walker reads its address-space entry a cycle
  // ahead of a miss
  output logic [AsidW-1:0]                    nx_asid_o,
  // The same lookup's control as presented next cycle: a hit, stale (with
  // this cycle's invalidation), its meta. The top registers the fill bus
  // per port from them.
  output logic                                nx_hit_o,
  output logic                                nx_stale_o,
  output logic [MetaW-1:0]                    nx_meta_o,
  // The lookup whose result is presented in two cycles (if s2 holds one):
  // the walk cache compares with it then
  output logic [AsidW-1:0]                    nx2_asid_o,
  output logic [VpnW-1:0]                     nx2_vpn_o,

  // Install
  input  logic                                ins_valid_i,
  input  logic [AsidW-1:0]                    ins_asid_i,
  input  logic [VpnW-1:0]                     ins_vpn_i,
  input  logic [gmmu_mmu_pkg::INFO_BITS-1:0]  ins_info_i,

  // Invalidate
  input  logic                                inv_valid_i,
  input  logic [1:0]                          inv_type_i,
  input  logic [AsidW-1:0]                    inv_asid_i,
  input  logic [VpnW-1:0]                     inv_start_i,
  input  logic [VpnW-1:0]                     inv_end_i,
  output logic                                busy_o,

  output logic                                ev_lookup_o,
  output logic                                ev_hit_o
);

  localparam int unsigned InfoW   = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned CovL    = gmmu_mmu_pkg::INFO_COV_LSB;
  localparam int unsigned Banks   = 4;
  localparam int unsigned MaxWays = 4;
  localparam int unsigned MaxSets = (Sets0 > Sets1 ? (Sets0 > Sets2 ? (Sets0 > Sets3 ? Sets0 : Sets3)
                                                                    : (Sets2 > Sets3 ? Sets2 : Sets3))
                                                   : (Sets1 > Sets2 ? (Sets1 > Sets3 ? Sets1 : Sets3)
                                                                    : (Sets2 > Sets3 ? Sets2 : Sets3)));
  localparam int unsigned SetW    = (MaxSets > 1) ? $clog2(MaxSets) : 1;
  localparam int unsigned EntW    = AsidW + VpnW + InfoW;
  localparam int unsigned NRam    = Banks * MaxWays;   // RAM b * MaxWays + w (some unused)

  // The set hash masks with a bank's sets - 1; each way is a RAM of its own.
  if (Sets0 == 0 || (Sets0 & (Sets0 - 1)) != 0 || Sets1 == 0 || (Sets1 & (Sets1 - 1)) != 0 ||
      Sets2 == 0 || (Sets2 & (Sets2 - 1)) != 0 || Sets3 == 0 || (Sets3 & (Sets3 - 1)) != 0)
  begin : gen_bad_sets
    $error("mmu_l2_tlb: each bank's sets must be a power of two");
  end
  if (Ways0 == 0 || Ways0 > MaxWays || Ways1 == 0 || Ways1 > MaxWays ||
      Ways2 == 0 || Ways2 > MaxWays || Ways3 == 0 || Ways3 > MaxWays) begin : gen_bad_ways
    $error("mmu_l2_tlb: each bank's ways must be 1 to MaxWays (4)");
  end

  function automatic int unsigned bank_sets(input int unsigned b);
    bank_sets = (b == 0) ? Sets0 : (b == 1) ? Sets1 : (b == 2) ? Sets2 : Sets3;
  endfunction
  function automatic int unsigned bank_ways(input int unsigned b);
    bank_ways = (b == 0) ? Ways0 : (b == 1) ? Ways1 : (b == 2) ? Ways2 : Ways3;
  endfunction
  // VA page-number bits below a bank's covered size.
  function automatic int unsigned bank_low(input int unsigned b);
    bank_low = (b == 0) ? 0 : (b == 1) ? 4 : (b == 2) ? 9 : 18;
  endfunction
  // Only ever called with constant arguments (one per bank).
  function automatic logic [VpnW-1:0] low_mask(input int unsigned low);
    low_mask = {VpnW{1'b1}} << low;
  endfunction
  // The set a page number maps to in bank b: the page-number bits above the
  // bank's size, folded once (the next SetW bits XORed in) and XORed with
  // the address space. The fold spreads power-of-two strides: the rows of a
  // tile over a 16 KB pitch (every fourth 4 KB page) would otherwise share
  // a quarter of the sets.
  function automatic logic [SetW-1:0] set_of(input int unsigned b, input logic [VpnW-1:0] vpn,
                                             input logic [AsidW-1:0] asid);
    logic [SetW-1:0] set_mask;
    logic [2*SetW-1:0] hi;
    set_mask = SetW'(bank_sets(b) - 1);
    hi       = (2*SetW)'({{(2*SetW){1'b0}}, vpn} >> bank_low(b));
    set_of   = (hi[SetW-1:0] ^ (hi[2*SetW-1:SetW] & set_mask) ^ SetW'(asid)) & set_mask;
  endfunction

  // ---------------------------------------------------------------- state
  // Valid bits, one vector over the sets per RAM (bank, way).
  logic [MaxSets-1:0] vb_q [NRam];
  logic [15:0]       lfsr_q;

  always_ff @(posedge clk_free_i or negedge rst_ni) begin
    if (!rst_ni) lfsr_q <= 16'hACE1;
    else         lfsr_q <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
  end

  logic              s1_v_q;
  logic [AsidW-1:0]  s1_asid_q;
  logic [VpnW-1:0]   s1_vpn_q;
  logic [MetaW-1:0]  s1_meta_q;
  logic [Banks*MaxWays-1:0] s1_vbits_q;

  logic              s2_v_q, s2_stale_q;
  logic [AsidW-1:0]  s2_asid_q;
  logic [VpnW-1:0]   s2_vpn_q;
  logic [MetaW-1:0]  s2_meta_q;
  logic [Banks*MaxWays-1:0] s2_vbits_q;

  logic              s3_v_q, s3_stale_q;
  logic [NRam-1:0]   s3_way_hit_q;
  logic [InfoW-1:0]  s3_way_info_q [NRam];
  logic [AsidW-1:0]  s3_asid_q;
  logic [VpnW-1:0]   s3_vpn_q;
  logic [MetaW-1:0]  s3_meta_q;

  logic              s4_v_q, s4_hit_q, s4_stale_q;
  logic [AsidW-1:0]  s4_asid_q;
  logic [VpnW-1:0]   s4_vpn_q;
  logic [MetaW-1:0]  s4_meta_q;
  logic [InfoW-1:0]  s4_info_q;

  logic              sw_active_q, sw_rd_q, sw_cmp_q, sw_clr_q;
  logic [SetW-1:0]   sw_set_q, sw_rd_set_q, sw_cmp_set_q, sw_clr_set_q;
  logic [NRam-1:0]   sw_clear_q;
  logic [1:0]        sw_type_q;
  logic [AsidW-1:0]  sw_asid_q;
  logic [VpnW-1:0]   sw_start_q, sw_end_q;

  logic              in_fire;
  logic              ram_re;
  logic [SetW-1:0]   rd_set  [Banks];
  logic [SetW-1:0]   in_set  [Banks];
  logic [EntW-1:0]   rdata   [Banks*MaxWays];

  assign in_ready_o = can_accept_i && !busy_o && !inv_valid_i;
  assign in_fire    = in_valid_i && in_ready_o;
  // The RAMs read every cycle. Nothing keeps a word in their registers:
  // the pipeline never stalls, and a lookup's (or a sweep step's) word is
  // used exactly two cycles after its read, whatever is read meanwhile. A
  // read enable of in_fire carried the walker's can-accept through the
  // ready into the clock enables of every block RAM, across the chip: it
  // was fmax-mmu's routed critical path.
  assign ram_re     = 1'b1;

  // ---------------------------------------------------------------- install
  // An install takes two registered steps before it writes. Cycle A (from
  // ins_*_q): the bank of its covered size, the set, the word, and the
  // set's valid bits in that bank. Cycle B (from ins_b_*_q): the way (the
  // first invalid one, else a pseudo-random one), the RAM write and the
  // valid-bit update. Straight from a finished walk, the set's valid bits
  // through a MaxSets-to-1 select, the way choice and the block RAMs' write
  // enables made the MMU's longest routed path on ECP5.
  //
  // Against invalidation: the caller lets no install through in an
  // invalidation's cycle, and one in cycle A during an invalidation is
  // dropped (the invalidation would remove it anyway), so whatever reaches
  // cycle B lands no later than the invalidation's own cycle, where INV_ALL
  // clears after it and a sweep has not read its first set yet.
  logic              ins_valid_q;
  logic [AsidW-1:0]  ins_asid_q;
  logic [VpnW-1:0]   ins_vpn_q;
  logic [InfoW-1:0]  ins_info_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ins_valid_q <= 1'b0;
    else         ins_valid_q <= ins_valid_i;
  end

  always_ff @(posedge clk_i) begin
    if (ins_valid_i) begin
      ins_asid_q <= ins_asid_i;
      ins_vpn_q  <= ins_vpn_i;
      ins_info_q <= ins_info_i;
    end
  end

  // Cycle A.
  logic [1:0]         ins_bank;
  logic [2:0]         ins_cov;
  logic [SetW-1:0]    ins_set;
  logic [InfoW-1:0]   ins_info;
  logic [EntW-1:0]    ins_word;
  logic [MaxWays-1:0] ins_set_valid;
  logic [VpnW-1:0]    ins_mask;
  logic [SetW-1:0]    ins_set_b   [Banks];   // the set in each bank (constant shifts)
  logic [VpnW-1:0]    ins_mask_b  [Banks];
  logic [MaxWays-1:0] ins_valid_b [Banks];   // the set's valid bits in each bank

  always_comb begin
    unique case (ins_info_q[CovL +: 3])
      gmmu_mmu_pkg::PSIZE_4K:  begin ins_bank = 2'd0; ins_cov = gmmu_mmu_pkg::PSIZE_4K;  end
      gmmu_mmu_pkg::PSIZE_64K: begin ins_bank = 2'd1; ins_cov = gmmu_mmu_pkg::PSIZE_64K; end
      gmmu_mmu_pkg::PSIZE_2M:  begin ins_bank = 2'd2; ins_cov = gmmu_mmu_pkg::PSIZE_2M;  end
      default:                 begin ins_bank = 2'd3; ins_cov = gmmu_mmu_pkg::PSIZE_1G;  end
    endcase
    ins_set       = ins_set_b[ins_bank];
    ins_mask      = ins_mask_b[ins_bank];
    ins_set_valid = ins_valid_b[ins_bank];
    ins_info = ins_info_q;
    ins_info[CovL +: 3] = ins_cov;
    ins_word = {ins_asid_q, ins_vpn_q & ins_mask, ins_info};
  end

  // Cycle B.
  logic               ins_b_valid_q;
  logic [1:0]         ins_b_bank_q;
  logic [SetW-1:0]    ins_b_set_q;
  logic [EntW-1:0]    ins_b_word_q;
  logic [MaxWays-1:0] ins_b_set_valid_q;
  logic [1:0]         ins_b_way;
  logic [MaxWays-1:0] ins_b_way_onehot;
  logic [MaxWays-1:0] ins_set_valid_fwd;

  // The way cycle B writes this cycle is valid by the time cycle A's
  // install writes, if that is the same set.
  always_comb begin
    ins_set_valid_fwd = ins_set_valid;
    if (ins_b_valid_q && ins_b_bank_q == ins_bank && ins_b_set_q == ins_set) begin
      ins_set_valid_fwd = ins_set_valid | ins_b_way_onehot;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ins_b_valid_q <= 1'b0;
    else         ins_b_valid_q <= ins_valid_q && !inv_valid_i;
  end

  always_ff @(posedge clk_i) begin
    if (ins_valid_q) begin
      ins_b_bank_q      <= ins_bank;
      ins_b_set_q       <= ins_set;
      ins_b_word_q      <= ins_word;
      ins_b_set_valid_q <= ins_set_valid_fwd;
    end
  end

  always_comb begin
    ins_b_way = lfsr_q[1:0] & 2'(bank_ways(32'(ins_b_bank_q)) - 1);
    for (int w = MaxWays - 1; w >= 0; w--) begin
      if (!ins_b_set_valid_q[w] && w < 32'(bank_ways(32'(ins_b_bank_q)))) ins_b_way = 2'(w);
    end
    ins_b_way_onehot = MaxWays'(1) << ins_b_way;
  end

  // ---------------------------------------------------------------- RAMs
  for (genvar b = 0; b < Banks; b++) begin : gen_bank
    localparam int unsigned BSets = bank_sets(b);
    localparam int unsigned BWays = bank_ways(b);
    localparam int unsigned BSetW = (BSets > 1) ? $clog2(BSets) : 1;

    assign in_set[b]     = set_of(b, in_vpn_i, in_asid_i);
    assign ins_set_b[b]  = set_of(b, ins_vpn_q, ins_asid_q);
    assign ins_mask_b[b] = low_mask(bank_low(b));
    assign rd_set[b] = sw_active_q ? sw_set_q : in_set[b];
    for (genvar w = 0; w < MaxWays; w++) begin : gen_ins_valid
      assign ins_valid_b[b][w] = vb_q[b*MaxWays+w][ins_set_b[b]];
    end

    for (genvar w = 0; w < MaxWays; w++) begin : gen_way
      if (w < BWays) begin : gen_ram
        logic we;
        assign we = ins_b_valid_q && (ins_b_bank_q == 2'(b)) && ins_b_way_onehot[w];
        prim_ram_1r1w #(
          .Depth (BSets),
          .Width (EntW),
          .AddrW (BSetW),
          .OutReg(1'b1)
        ) u_ram (
          .clk_i,
          .we_i    (we),
          .waddr_i (ins_b_set_q[BSetW-1:0]),
          .wdata_i (ins_b_word_q),
          .re_i    (ram_re),
          .raddr_i (rd_set[b][BSetW-1:0]),
          .rdata_o (rdata[b*MaxWays+w])
        );
      end else begin : gen_none
        assign rdata[b*MaxWays+w] = '0;
      end
    end
  end

  // ---------------------------------------------------------------- compare
  // Cycle 2: every way compared, and the hits and the ways' records
  // registered as they are (the selection waits for cycle 3, so the
  // compares have the cycle to themselves).
  logic [NRam-1:0]    s2_way_hit;
  logic [AsidW-1:0]   way_asid;
  logic [VpnW-1:0]    way_tag;

  always_comb begin
    way_asid = '0;
    way_tag  = '0;
    for (int b = 0; b < Banks; b++) begin
      for (int w = 0; w < MaxWays; w++) begin
        {way_asid, way_tag} = rdata[b*MaxWays+w][EntW-1:InfoW];
        s2_way_hit[b*MaxWays+w] = s2_vbits_q[b*MaxWays+w] && (w < bank_ways(b)) &&
                                  (way_asid == s2_asid_q) &&
                                  (way_tag == (s2_vpn_q & low_mask(bank_low(b))));
      end
    end
  end

  // Cycle 3: within a bank the lowest hitting way wins (two ways of a bank
  // hold the same page only when two walks of it finished together, and
  // then they agree); among the banks the smallest covered size wins.
  logic              s3_hit;
  logic [InfoW-1:0]  s3_info;
  logic [MaxWays-1:0] way_hit, way_first;
  logic [InfoW-1:0]  bank_info;
  always_comb begin
    s3_hit  = |s3_way_hit_q;
    s3_info = '0;
    for (int b = Banks - 1; b >= 0; b--) begin
      way_hit   = s3_way_hit_q[b*MaxWays +: MaxWays];
      way_first = way_hit & ~(way_hit - MaxWays'(1));   // the lowest set bit
      bank_info = '0;
      for (int w = 0; w < MaxWays; w++) begin
        bank_info = bank_info | ({InfoW{way_first[w]}} & s3_way_info_q[b*MaxWays+w]);
      end
      if (|way_hit) s3_info = bank_info;
    end
  end

  // Sweep: which ways of the set read last cycle the command removes.
  logic [NRam-1:0]  sw_clear;
  logic [AsidW-1:0] sasid;
  logic [VpnW-1:0]  stag;
  always_comb begin
    sw_clear = '0;
    sasid    = '0;
    stag     = '0;
    for (int b = 0; b < Banks; b++) begin
      for (int w = 0; w < MaxWays; w++) begin
        {sasid, stag} = rdata[b*MaxWays+w][EntW-1:InfoW];
        if (sw_cmp_q && (w < bank_ways(b)) && (32'(sw_cmp_set_q) < bank_sets(b)) &&
            (sasid == sw_asid_q) &&
            (sw_type_q != 2'(gmmu_mmu_pkg::INV_RANGE) ||
             (stag <= sw_end_q && stag >= (sw_start_q & low_mask(bank_low(b)))))) begin
          sw_clear[b*MaxWays+w] = 1'b1;
        end
      end
    end
  end

  // Valid bits of the sets a lookup reads, captured with the RAM read.
  logic [Banks*MaxWays-1:0] in_vbits;
  always_comb begin
    for (int b = 0; b < Banks; b++) begin
      for (int w = 0; w < MaxWays; w++) begin
        in_vbits[b*MaxWays+w] = vb_q[b*MaxWays+w][in_set[b]];
      end
    end
  end

  // Valid bits: install sets one, a sweep step clears some, INV_ALL all.
  // The bits of sets and ways a bank does not have are held at zero here,
  // so synthesis drops their flip-flops (it cannot see that the indices
  // never reach them: the vectors are MaxSets wide for every RAM). A
  // constant mask rather than a loop over the sets: Verilator does not
  // unroll a loop of MaxSets (128) and ran it on every evaluation.
  function automatic logic [MaxSets-1:0] present_sets(input int unsigned r);
    logic [MaxSets-1:0] m;
    m = '0;
    if (r % MaxWays < bank_ways(r / MaxWays)) begin
      for (int st = 0; st < MaxSets; st++) m[st] = (32'(st) < bank_sets(r / MaxWays));
    end
    present_sets = m;
  endfunction

  logic [MaxSets-1:0] vb_d [NRam];
  for (genvar r = 0; r < NRam; r++) begin : gen_vb
    localparam logic [MaxSets-1:0] Present = present_sets(r);
    always_comb begin
      vb_d[r] = vb_q[r];
      if (sw_clear_q[r]) vb_d[r][sw_clr_set_q] = 1'b0;
      if (ins_b_valid_q && r / MaxWays == 32'(ins_b_bank_q) && ins_b_way_onehot[r % MaxWays]) begin
        vb_d[r][ins_b_set_q] = 1'b1;
      end
      if (inv_valid_i && inv_type_i == 2'(gmmu_mmu_pkg::INV_ALL)) vb_d[r] = '0;
      vb_d[r] = vb_d[r] & Present;
    end
  end

  // ---------------------------------------------------------------- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int r = 0; r < NRam; r++) vb_q[r] <= '0;
      s1_v_q       <= 1'b0;
      s2_v_q       <= 1'b0;
      s2_stale_q   <= 1'b0;
      s3_v_q       <= 1'b0;
      s3_stale_q   <= 1'b0;
      s4_v_q       <= 1'b0;
      s4_hit_q     <= 1'b0;
      s4_stale_q   <= 1'b0;
      sw_active_q  <= 1'b0;
      sw_rd_q      <= 1'b0;
      sw_cmp_q     <= 1'b0;
      sw_set_q     <= '0;
      sw_rd_set_q  <= '0;
      sw_cmp_set_q <= '0;
      sw_clr_q     <= 1'b0;
      sw_clr_set_q <= '0;
      sw_clear_q   <= '0;
      sw_type_q    <= '0;
      sw_asid_q    <= '0;
      sw_start_q   <= '0;
      sw_end_q     <= '0;
    end else begin

      // Lookup pipeline.
      // Nothing enters in an invalidation cycle, so only lookups in cycles
      // 1 to 3 can be overtaken by one (cycle 4 is covered by the caller).
      s1_v_q     <= in_fire;
      s2_v_q     <= s1_v_q;
      s2_stale_q <= inv_valid_i;
      s3_v_q     <= s2_v_q;
      s3_stale_q <= s2_stale_q || inv_valid_i;
      s4_v_q     <= s3_v_q;
      s4_hit_q   <= s3_hit;
      s4_stale_q <= s3_stale_q || inv_valid_i;

      for (int r = 0; r < NRam; r++) vb_q[r] <= vb_d[r];

      // Sweep.
      sw_rd_q      <= sw_active_q;
      sw_rd_set_q  <= sw_set_q;
      sw_cmp_q     <= sw_rd_q;
      sw_cmp_set_q <= sw_rd_set_q;
      sw_clr_q     <= sw_cmp_q;
      sw_clr_set_q <= sw_cmp_set_q;
      sw_clear_q   <= sw_clear;
      if (sw_active_q) begin
        sw_set_q <= sw_set_q + 1'b1;
        if (sw_set_q == SetW'(MaxSets - 1)) sw_active_q <= 1'b0;
      end
      if (inv_valid_i && inv_type_i != 2'(gmmu_mmu_pkg::INV_ALL) && !sw_active_q) begin
        sw_active_q <= 1'b1;
        sw_set_q    <= '0;
        sw_type_q   <= inv_type_i;
        sw_asid_q   <= inv_asid_i;
        sw_start_q  <= inv_start_i;
        sw_end_q    <= inv_end_i;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (in_fire) begin
      s1_asid_q  <= in_asid_i;
      s1_vpn_q   <= in_vpn_i;
      s1_meta_q  <= in_meta_i;
      s1_vbits_q <= in_vbits;
    end
    if (s1_v_q) begin
      s2_asid_q  <= s1_asid_q;
      s2_vpn_q   <= s1_vpn_q;
      s2_meta_q  <= s1_meta_q;
      s2_vbits_q <= s1_vbits_q;
    end
    if (s2_v_q) begin
      s3_asid_q      <= s2_asid_q;
      s3_vpn_q       <= s2_vpn_q;
      s3_meta_q      <= s2_meta_q;
      s3_way_hit_q   <= s2_way_hit;
      for (int r = 0; r < NRam; r++) s3_way_info_q[r] <= rdata[r][InfoW-1:0];
    end
    if (s3_v_q) begin
      s4_asid_q <= s3_asid_q;
      s4_vpn_q  <= s3_vpn_q;
      s4_meta_q <= s3_meta_q;
      s4_info_q <= s3_info;
    end
  end

  assign res_valid_o = s4_v_q;
  assign res_hit_o   = s4_hit_q;
  assign res_stale_o = s4_stale_q;
  assign res_info_o  = s4_info_q;
  assign res_asid_o  = s4_asid_q;
  assign res_vpn_o   = s4_vpn_q;
  assign res_meta_o  = s4_meta_q;
  assign nx_asid_o   = s3_asid_q;
  assign nx_hit_o    = s3_v_q && s3_hit;
  assign nx_stale_o  = s3_stale_q || inv_valid_i;
  assign nx_meta_o   = s3_meta_q;
  assign nx2_asid_o  = s2_asid_q;
  assign nx2_vpn_o   = s2_vpn_q;
  assign inflight_o  = 3'(s1_v_q) + 3'(s2_v_q) + 3'(s3_v_q) + 3'(s4_v_q);
  assign busy_o      = sw_active_q || sw_rd_q || sw_cmp_q || sw_clr_q;
  assign ev_lookup_o = in_fire;
  assign ev_hit_o    = s4_v_q && s4_hit_q;

endmodule : mmu_l2_tlb
