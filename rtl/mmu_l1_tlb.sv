// L1 TLB of one translation port: fully associative, in flops.
//
// Each entry holds an address space, the VA page number of the range it
// covers (aligned to that range) and a translation record (INFO_* layout of
// gmmu_mmu_pkg): any page size, and a covered range that may be smaller than
// the page where a 4 KB table overlays a 64 KB page. The lookup is
// combinational, so a port can answer a hit the cycle after the request.
// Several entries may match after duplicate fills; the lowest one wins.
//
// Install writes the first invalid entry, else the round-robin victim; the
// caller installs only what the lookup port did not find. Invalidation
// clears, in one cycle, every entry of all address spaces, of one, or of one
// whose covered range overlaps [inv_start_i, inv_end_i] (page numbers).
module mmu_l1_tlb #(
  parameter int unsigned Entries = 16,
  parameter int unsigned AsidW   = 6,
  parameter int unsigned VpnW    = 36
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,

  // Lookup
  input  logic [AsidW-1:0]                     lk_asid_i,
  input  logic [VpnW-1:0]                      lk_vpn_i,
  output logic                                 lk_hit_o,
  output logic [gmmu_mmu_pkg::INFO_BITS-1:0]   lk_info_o,

  // Install
  input  logic                                 ins_valid_i,
  input  logic [AsidW-1:0]                     ins_asid_i,
  input  logic [VpnW-1:0]                      ins_vpn_i,
  input  logic [gmmu_mmu_pkg::INFO_BITS-1:0]   ins_info_i,

  // Invalidate
  input  logic                                 inv_valid_i,
  input  logic [1:0]                           inv_type_i,
  input  logic [AsidW-1:0]                     inv_asid_i,
  input  logic [VpnW-1:0]                      inv_start_i,
  input  logic [VpnW-1:0]                      inv_end_i
);

  localparam int unsigned InfoW = gmmu_mmu_pkg::INFO_BITS;
  localparam int unsigned CovL  = gmmu_mmu_pkg::INFO_COV_LSB;
  localparam int unsigned IdxW  = (Entries > 1) ? $clog2(Entries) : 1;

  // VA page-number bits above the covered range of a PSIZE code (a
  // constant per code, so each mask bit is a small function of the code).
  function automatic logic [VpnW-1:0] entry_mask(input logic [2:0] cov);
    case (cov)
      gmmu_mmu_pkg::PSIZE_64K:  entry_mask = ~VpnW'(64'hF);
      gmmu_mmu_pkg::PSIZE_2M:   entry_mask = ~VpnW'(64'h1FF);
      gmmu_mmu_pkg::PSIZE_1G:   entry_mask = ~VpnW'(64'h3FFFF);
      gmmu_mmu_pkg::PSIZE_512G: entry_mask = ~VpnW'(64'h7FFFFFF);
      default:                  entry_mask = '1;
    endcase
  endfunction

  logic [Entries-1:0] valid_q;
  logic [AsidW-1:0]   asid_q [Entries];
  logic [VpnW-1:0]    vpn_q  [Entries];
  logic [InfoW-1:0]   info_q [Entries];
  logic [IdxW-1:0]    victim_q;

  logic [Entries-1:0] match;
  logic [Entries-1:0] inv_hit;
  logic [IdxW-1:0]    hit_idx;
  logic [IdxW-1:0]    free_idx;
  logic               free_any;
  logic [IdxW-1:0]    ins_idx;
  logic [VpnW-1:0]    ins_mask;

  always_comb begin
    for (int i = 0; i < Entries; i++) begin
      match[i] = valid_q[i] && (asid_q[i] == lk_asid_i) &&
                 ((lk_vpn_i & entry_mask(info_q[i][CovL +: 3])) == vpn_q[i]);
      unique case (inv_type_i)
        gmmu_mmu_pkg::INV_ALL:  inv_hit[i] = 1'b1;
        gmmu_mmu_pkg::INV_ASID: inv_hit[i] = (asid_q[i] == inv_asid_i);
        default: inv_hit[i] = (asid_q[i] == inv_asid_i) && (vpn_q[i] <= inv_end_i) &&
                              (vpn_q[i] >= (inv_start_i & entry_mask(info_q[i][CovL +: 3])));
      endcase
    end
  end

  always_comb begin
    hit_idx  = '0;
    free_idx = '0;
    free_any = 1'b0;
    for (int i = Entries - 1; i >= 0; i--) begin
      if (match[i]) hit_idx = IdxW'(i);
      if (!valid_q[i]) begin
        free_idx = IdxW'(i);
        free_any = 1'b1;
      end
    end
  end

  assign lk_hit_o  = |match;
  assign lk_info_o = info_q[hit_idx];
  assign ins_idx   = free_any ? free_idx : victim_q;
  assign ins_mask  = entry_mask(ins_info_i[CovL +: 3]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q  <= '0;
      victim_q <= '0;
    end else begin
      if (inv_valid_i) begin
        valid_q <= valid_q & ~inv_hit;
      end else if (ins_valid_i) begin
        valid_q[ins_idx] <= 1'b1;
        if (!free_any) begin
          victim_q <= (victim_q == IdxW'(Entries - 1)) ? '0 : victim_q + 1'b1;
        end
      end
    end
  end

  // Payload: no reset needed, valid_q guards it.
  always_ff @(posedge clk_i) begin
    if (ins_valid_i && !inv_valid_i) begin
      asid_q[ins_idx] <= ins_asid_i;
      vpn_q[ins_idx]  <= ins_vpn_i & ins_mask;
      info_q[ins_idx] <= ins_info_i;
    end
  end

endmodule : mmu_l1_tlb
