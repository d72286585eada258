// Page-walk cache: upper-level table entries, fully associative, in flops.
//
// An entry of level L (1 .. Levels-1) is tagged with an address space and
// the VA bits above 12 + 9L; it says where the level L-1 table of that VA
// range is, so a walk that hits starts at level L-1 instead of the root.
// Level-1 entries hold both words of the dual entry as two table pointers
// (4 KB-page and 64 KB-page leaf tables, each with a valid bit); only dual
// entries made of plain table pointers or invalid words are cached. The
// lookup is combinational and returns the deepest level that hits.
//
// Install writes up to one entry per level at once (the entries one walk
// read from memory), skipping those already present, into round-robin
// slots. Invalidation clears in one cycle every entry, those of one address
// space, or those whose VA range overlaps [inv_start_i, inv_end_i].
module mmu_pwc #(
  parameter int unsigned Entries = 16,
  parameter int unsigned AsidW   = 6,
  parameter int unsigned Levels  = 4,
  parameter int unsigned VpnW    = 9 * Levels,
  parameter int unsigned NLv     = Levels - 1,   // cached levels: 1 .. Levels-1
  parameter int unsigned DataW   = 90            // {p0 valid, p0 PA[51:8], p1 valid, p1 PA[51:8]}
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // Lookup
  input  logic [AsidW-1:0]     lk_asid_i,
  input  logic [VpnW-1:0]      lk_vpn_i,
  output logic                 lk_hit_o,
  output logic [1:0]           lk_level_o,
  output logic [DataW-1:0]     lk_data_o,

  // Install: entry k (level k+1) when ins_mask_i[k]
  input  logic                 ins_valid_i,
  input  logic [AsidW-1:0]     ins_asid_i,
  input  logic [VpnW-1:0]      ins_vpn_i,
  input  logic [NLv-1:0]       ins_mask_i,
  input  logic [NLv*DataW-1:0] ins_data_i,

  // Invalidate
  input  logic                 inv_valid_i,
  input  logic [1:0]           inv_type_i,
  input  logic [AsidW-1:0]     inv_asid_i,
  input  logic [VpnW-1:0]      inv_start_i,
  input  logic [VpnW-1:0]      inv_end_i
);

  localparam int unsigned IdxW = (Entries > 1) ? $clog2(Entries) : 1;

  // VA page-number bits above the range an entry of a level covers.
  function automatic logic [VpnW-1:0] level_mask(input logic [1:0] level);
    case (level)
      2'd1:    level_mask = ~VpnW'(64'h1FF);
      2'd2:    level_mask = ~VpnW'(64'h3FFFF);
      2'd3:    level_mask = ~VpnW'(64'h7FFFFFF);
      default: level_mask = '1;
    endcase
  endfunction

  logic [Entries-1:0] valid_q;
  logic [AsidW-1:0]   asid_q  [Entries];
  logic [1:0]         level_q [Entries];
  logic [VpnW-1:0]    tag_q   [Entries];
  logic [DataW-1:0]   data_q  [Entries];
  logic [IdxW-1:0]    ptr_q;

  // ---------------------------------------------------------------- lookup
  logic [Entries-1:0] match;
  logic [IdxW-1:0]    sel;

  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      match[i] = valid_q[i] && (asid_q[i] == lk_asid_i) &&
                 ((lk_vpn_i & level_mask(level_q[i])) == tag_q[i]);
    end
    lk_hit_o   = 1'b0;
    lk_level_o = '0;
    sel        = '0;
    for (int l = NLv; l >= 1; l--) begin
      for (int i = Entries - 1; i >= 0; i--) begin
        if (match[i] && level_q[i] == 2'(l)) begin
          lk_hit_o   = 1'b1;
          lk_level_o = 2'(l);
          sel        = IdxW'(i);
        end
      end
    end
  end

  assign lk_data_o = data_q[sel];

  // ---------------------------------------------------------------- install
  logic [NLv-1:0]  present;
  logic [NLv-1:0]  wr;
  logic [IdxW-1:0] slot [NLv];
  logic [IdxW:0]   next_ptr;

  always_comb begin
    for (int k = 0; k < NLv; k++) begin
      present[k] = 1'b0;
      for (int i = 0; i < Entries; i++) begin
        if (valid_q[i] && asid_q[i] == ins_asid_i && level_q[i] == 2'(k + 1) &&
            tag_q[i] == (ins_vpn_i & level_mask(2'(k + 1)))) begin
          present[k] = 1'b1;
        end
      end
    end
    wr       = ins_mask_i & ~present & {NLv{ins_valid_i && !inv_valid_i}};
    next_ptr = {1'b0, ptr_q};
    for (int k = 0; k < NLv; k++) begin
      slot[k] = next_ptr[IdxW-1:0];
      if (wr[k]) begin
        next_ptr = next_ptr + 1'b1;
        if (next_ptr >= (IdxW+1)'(Entries)) next_ptr = '0;
      end
    end
  end

  // ---------------------------------------------------------------- invalidate
  logic [Entries-1:0] inv_hit;
  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      unique case (inv_type_i)
        gmmu_mmu_pkg::INV_ALL:  inv_hit[i] = 1'b1;
        gmmu_mmu_pkg::INV_ASID: inv_hit[i] = (asid_q[i] == inv_asid_i);
        default: inv_hit[i] = (asid_q[i] == inv_asid_i) && (tag_q[i] <= inv_end_i) &&
                              (tag_q[i] >= (inv_start_i & level_mask(level_q[i])));
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      ptr_q   <= '0;
    end else begin
      if (inv_valid_i) begin
        valid_q <= valid_q & ~inv_hit;
      end else begin
        for (int k = 0; k < NLv; k++) begin
          if (wr[k]) valid_q[slot[k]] <= 1'b1;
        end
        ptr_q <= next_ptr[IdxW-1:0];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    for (int k = 0; k < NLv; k++) begin
      if (wr[k]) begin
        asid_q[slot[k]]  <= ins_asid_i;
        level_q[slot[k]] <= 2'(k + 1);
        tag_q[slot[k]]   <= ins_vpn_i & level_mask(2'(k + 1));
        data_q[slot[k]]  <= ins_data_i[k*DataW +: DataW];
      end
    end
  end

endmodule : mmu_pwc
