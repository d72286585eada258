// SPDX-License-Identifier: Apache-2.0
// MMU register block: a 32-bit Wishbone classic slave (like wb_timer).
//
// Holds the address-space table (root table offset and valid bit per ASID,
// read combinationally by the walker), the invalidation command and its
// DONE status, the fault FIFO and its interrupt, and the performance
// counters. The layout is include/defs/mmu.toml (gmmu_mmu_pkg); registers
// answer one cycle after the request and decode the low 16 address bits.
//
// Invalidation: a write of INV_CMD latches the command (type, INV_ASID,
// INV_START/END as VA page numbers clamped to the VA space) and sends a
// one-cycle pulse (inv_valid_o) the cycle after the write; DONE is low from
// the write until the pulse is over and the sweeps of the L2, L1 and walk
// cache, if any, have finished (inv_busy_i). A command written while one
// runs is sent as INV_ALL, which covers both.
//
// A second source, the paging engine's FLUSH_TLB (ext_*), shares the same
// pulse: ext_valid_i/ext_ready_o is a valid/ready handshake, ready while no
// invalidation is pending or running (no register pulse, no engine request
// latched, inv_busy_i low). An accepted request is latched (type, ASID, VA
// page numbers clamped to the VA space like INV_START/END) and pulses the
// cycle after; ext_busy_o is high from that cycle until the sweeps are done.
// A register command written in the cycle of an acceptance, or while the
// engine's runs, is sent as INV_ALL, so neither source is ever lost, and a
// range pulse never meets a running sweep. INV_STATUS (DONE, COUNT) and
// PERF_INVALIDATIONS see both sources.
//
// Every register field is placed and read by its generated position and
// width (gmmu_mmu_pkg::MMU_<REG>_<FIELD>_LSB and _WIDTH), so the layout has
// one source. Parameters default to the same file's build parameters;
// mmu_top passes the ones it is built with.
module mmu_regs #(
  parameter int unsigned NPorts     = gmmu_mmu_pkg::PORTS,
  parameter int unsigned AsidW      = $clog2(gmmu_mmu_pkg::ASIDS),
  parameter int unsigned Levels     = gmmu_pte_pkg::LEVELS_DEFAULT,
  parameter int unsigned VaBits     = 12 + 9 * Levels,
  parameter int unsigned NWalkers   = gmmu_mmu_pkg::WALKERS,
  parameter int unsigned L1Entries  = gmmu_mmu_pkg::L1_ENTRIES,
  parameter int unsigned L2Entries  = gmmu_mmu_pkg::L2_ENTRIES,
  parameter int unsigned PwcEntries = gmmu_mmu_pkg::PWC_ENTRIES,
  parameter int unsigned FaultDepth = gmmu_mmu_pkg::FAULT_FIFO_DEPTH,
  parameter int unsigned TagW       = gmmu_mmu_pkg::TAG_BITS,
  parameter int unsigned PortW      = (NPorts > 1) ? $clog2(NPorts) : 1,
  parameter int unsigned WCntW      = $clog2(NWalkers + 1)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  // Wishbone slave
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  // Address-space table read port
  input  logic [AsidW-1:0]        as_asid_i,
  output logic                    as_valid_o,
  output logic [39:0]             as_root_o,

  // Invalidation
  output logic                    inv_valid_o,
  output logic [1:0]              inv_type_o,
  output logic [AsidW-1:0]        inv_asid_o,
  output logic [VaBits-13:0]      inv_start_o,
  output logic [VaBits-13:0]      inv_end_o,
  input  logic                    inv_busy_i,

  // A second invalidation source (the paging engine): handshake, then busy
  input  logic                    ext_valid_i,
  output logic                    ext_ready_o,
  input  logic [1:0]              ext_type_i,
  input  logic [AsidW-1:0]        ext_asid_i,
  input  logic [51:0]             ext_start_i,   // VA page numbers (VA bits 63:12)
  input  logic [51:0]             ext_end_i,
  output logic                    ext_busy_o,

  // Fault records (always taken)
  input  logic                    flt_valid_i,
  input  logic [63:0]             flt_va_i,
  input  logic [AsidW-1:0]        flt_asid_i,
  input  logic [PortW-1:0]        flt_port_i,
  input  logic [1:0]              flt_access_i,
  input  logic [2:0]              flt_reason_i,
  input  logic [TagW-1:0]         flt_tag_i,
  output logic                    irq_o,

  // Performance events
  input  logic [NPorts-1:0]       ev_req_i,
  input  logic [NPorts-1:0]       ev_hit_i,
  input  logic [NPorts-1:0]       ev_miss_i,
  input  logic [NPorts-1:0]       ev_merge_i,
  input  logic [NPorts-1:0]       ev_fault_i,
  input  logic [NPorts-1:0]       ev_pf_i,
  input  logic                    ev_l2_lookup_i,
  input  logic                    ev_l2_hit_i,
  input  logic                    ev_walk_i,
  input  logic [WCntW-1:0]        walk_busy_i,
  input  logic                    ev_pwc_hit_i,
  input  logic                    ev_pte_read_i,
  input  logic                    ev_l2_nb_i,
  input  logic                    ev_fault_i_any
);

  localparam int unsigned NAsids  = 1 << AsidW;
  localparam int unsigned VpnW    = VaBits - 12;
  localparam int unsigned FltW    = 64 + AsidW + PortW + 2 + 3 + TagW;
  localparam int unsigned FCntW   = $clog2(FaultDepth + 1);
  localparam int unsigned NPc     = gmmu_mmu_pkg::PERF_PORT_COUNTERS;
  localparam int unsigned NSc     = gmmu_mmu_pkg::PERF_SHARED_COUNTERS;
  // Fields the bus writes: their positions and widths.
  localparam int unsigned AsRootL   = gmmu_mmu_pkg::MMU_AS_ROOT_LO_ROOT_LSB;
  localparam int unsigned AsRootW   = gmmu_mmu_pkg::MMU_AS_ROOT_LO_ROOT_WIDTH;
  localparam int unsigned AsValidL  = gmmu_mmu_pkg::MMU_AS_ROOT_LO_VALID_LSB;
  localparam int unsigned AsValidW  = gmmu_mmu_pkg::MMU_AS_ROOT_LO_VALID_WIDTH;
  localparam int unsigned AsRootHiL = gmmu_mmu_pkg::MMU_AS_ROOT_HI_ROOT_LSB;
  localparam int unsigned AsRootHiW = gmmu_mmu_pkg::MMU_AS_ROOT_HI_ROOT_WIDTH;
  localparam int unsigned InvTypeL  = gmmu_mmu_pkg::MMU_INV_CMD_TYPE_LSB;
  localparam int unsigned InvTypeW  = gmmu_mmu_pkg::MMU_INV_CMD_TYPE_WIDTH;
  localparam int unsigned InvVaL    = gmmu_mmu_pkg::MMU_INV_START_LO_VA_LSB;
  localparam int unsigned InvVaW    = gmmu_mmu_pkg::MMU_INV_START_LO_VA_WIDTH;
  localparam int unsigned PerfClrL  = gmmu_mmu_pkg::MMU_PERF_CTRL_CLEAR_LSB;

  // A field's value v at bits [lsb +: width] of a register word (v cut to
  // the width); only ever called with a constant lsb and width.
  function automatic logic [31:0] fld(input int unsigned lsb, input int unsigned width,
                                      input logic [31:0] v);
    fld = (v & ((32'd1 << width) - 32'd1)) << lsb;
  endfunction

  logic [15:0] reg_off;
  logic        access, wr, rd;
  logic        ack_q;
  logic [31:0] rdata_q;

  assign reg_off = {wb_i.adr[13:0], 2'b00};
  assign access  = wb_i.cyc && wb_i.stb && !ack_q;
  assign wr      = access && wb_i.we;
  assign rd      = access && !wb_i.we;

  // ---------------------------------------------------------------- AS table
  logic [NAsids-1:0] as_valid_q;
  logic [AsRootW-1:0]   as_lo_mem [NAsids];   // root[31:12]
  logic [AsRootHiW-1:0] as_hi_mem [NAsids];   // root[51:32]
  logic              as_sel;
  logic [AsidW-1:0]  as_idx;

  assign as_sel = (reg_off[15:12] == 4'h1) && (32'(reg_off[11:3]) < NAsids);
  assign as_idx = AsidW'(reg_off[11:3]);

  always_ff @(posedge clk_i) begin
    if (wr && as_sel && !reg_off[2]) as_lo_mem[as_idx] <= wb_i.dat[AsRootL +: AsRootW];
    if (wr && as_sel && reg_off[2])  as_hi_mem[as_idx] <= wb_i.dat[AsRootHiL +: AsRootHiW];
  end

  assign as_valid_o = as_valid_q[as_asid_i];
  assign as_root_o  = {as_hi_mem[as_asid_i], as_lo_mem[as_asid_i]};

  // ---------------------------------------------------------------- invalidation
  logic              pulse_q, busy, busy_core;
  logic [1:0]        cmd_type_q;
  logic [AsidW-1:0]  cmd_asid_q;
  logic [VpnW-1:0]   cmd_start_q, cmd_end_q;
  logic [AsidW-1:0]  inv_asid_q;
  logic [31:0]       start_lo_q, start_hi_q, end_lo_q, end_hi_q;
  logic [51:0]       start_pn, end_pn;
  logic [15:0]       inv_count_q;
  logic              busy_q;
  logic              inv_write;
  logic [InvTypeW-1:0] inv_wr_type;
  logic              ext_fire, ext_q;
  logic [1:0]        ext_type_q;
  logic [AsidW-1:0]  ext_asid_q;
  logic [VpnW-1:0]   ext_start_q, ext_end_q;

  // busy_core: an invalidation pulses or sweeps. busy adds an engine
  // request accepted this cycle: a register command written then becomes
  // INV_ALL (covering the engine's, which pulses with it), and DONE is low.
  // COUNT counts the falls of busy_core, so an engine request taken in the
  // cycle the previous invalidation ends is counted on its own.
  assign busy_core   = pulse_q || ext_q || inv_busy_i;
  assign ext_ready_o = !busy_core;
  assign ext_fire    = ext_valid_i && ext_ready_o;
  assign busy        = busy_core || ext_fire;
  assign ext_busy_o  = busy_core;
  assign inv_write   = wr && (reg_off == gmmu_mmu_pkg::MMU_INV_CMD);
  assign inv_wr_type = wb_i.dat[InvTypeL +: InvTypeW];
  assign start_pn    = {start_hi_q, start_lo_q[InvVaL +: InvVaW]};
  assign end_pn      = {end_hi_q, end_lo_q[InvVaL +: InvVaW]};

  // ---------------------------------------------------------------- faults
  logic [FltW-1:0]   flt_head;
  logic [FCntW-1:0]  flt_count;
  logic [31:0]       flt_overflow;
  logic              flt_pop, flt_clr;
  logic [63:0]       h_va;
  logic [AsidW-1:0]  h_asid;
  logic [PortW-1:0]  h_port;
  logic [1:0]        h_access;
  logic [2:0]        h_reason;
  logic [TagW-1:0]   h_tag;

  assign flt_pop = wr && (reg_off == gmmu_mmu_pkg::MMU_FAULT_POP);
  assign flt_clr = wr && (reg_off == gmmu_mmu_pkg::MMU_FAULT_OVERFLOW);

  mmu_fault_fifo #(
    .Width (FltW),
    .Depth (FaultDepth),
    .CntW  (FCntW)
  ) u_fifo (
    .clk_i,
    .rst_ni,
    .push_i         (flt_valid_i),
    .data_i         ({flt_va_i, flt_asid_i, flt_port_i, flt_access_i, flt_reason_i, flt_tag_i}),
    .pop_i          (flt_pop),
    .clr_overflow_i (flt_clr),
    .head_o         (flt_head),
    .count_o        (flt_count),
    .overflow_o     (flt_overflow)
  );

  assign {h_va, h_asid, h_port, h_access, h_reason, h_tag} = flt_head;

  // ---------------------------------------------------------------- counters
  logic [31:0] pc_q [NPorts*NPc];
  logic [31:0] sc_q [NSc];
  logic        perf_clr;

  assign perf_clr = wr && (reg_off == gmmu_mmu_pkg::MMU_PERF_CTRL) && wb_i.dat[PerfClrL];

  // Each counter counts with its event as the register's enable and a
  // constant increment: an event that arrives late in the cycle (a port's
  // fault decision after its L1 lookup) then drives a clock enable, not the
  // carry chain's first input and all 32 bits of ripple after it. The
  // events are registered first (counts lag one cycle): from a port's
  // lookup to the enables of its 32-bit counters was still one of the
  // MMU's longer path groups on ECP5. Events of a clear's cycle are dropped
  // (as before the register), those of the cycle before it too.
  logic [NPorts*NPc-1:0] pc_ev;
  logic [NSc-1:0]        sc_ev;
  always_comb begin
    pc_ev = '0;
    sc_ev = '0;
    for (int p = 0; p < NPorts; p++) begin
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_REQUESTS]   = ev_req_i[p];
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_HITS]       = ev_hit_i[p];
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_MISSES]     = ev_miss_i[p];
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_MERGES]     = ev_merge_i[p];
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_FAULTS]     = ev_fault_i[p];
      pc_ev[p*NPc + gmmu_mmu_pkg::PERF_PORT_PREFETCHES] = ev_pf_i[p];
    end
    sc_ev[gmmu_mmu_pkg::PERF_L2_LOOKUPS]    = ev_l2_lookup_i;
    sc_ev[gmmu_mmu_pkg::PERF_L2_HITS]       = ev_l2_hit_i;
    sc_ev[gmmu_mmu_pkg::PERF_WALKS]         = ev_walk_i;
    sc_ev[gmmu_mmu_pkg::PERF_WALK_CYCLES]   = walk_busy_i != '0;  // adds the walks busy
    sc_ev[gmmu_mmu_pkg::PERF_PWC_HITS]      = ev_pwc_hit_i;
    sc_ev[gmmu_mmu_pkg::PERF_PTE_READS]     = ev_pte_read_i;
    sc_ev[gmmu_mmu_pkg::PERF_FAULTS]        = ev_fault_i_any;
    sc_ev[gmmu_mmu_pkg::PERF_INVALIDATIONS] = pulse_q || ext_q;
    sc_ev[gmmu_mmu_pkg::PERF_CYCLES]        = 1'b1;
    sc_ev[gmmu_mmu_pkg::PERF_L2_NEIGHBOURS] = ev_l2_nb_i;
  end

  logic [NPorts*NPc-1:0] pc_ev_q;
  logic [NSc-1:0]        sc_ev_q;
  logic [WCntW-1:0]      walk_busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_ev_q     <= '0;
      sc_ev_q     <= '0;
      walk_busy_q <= '0;
    end else begin
      pc_ev_q     <= perf_clr ? '0 : pc_ev;
      sc_ev_q     <= perf_clr ? '0 : sc_ev;
      walk_busy_q <= walk_busy_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NPorts * NPc; i++) pc_q[i] <= '0;
      for (int i = 0; i < NSc; i++) sc_q[i] <= '0;
    end else if (perf_clr) begin
      for (int i = 0; i < NPorts * NPc; i++) pc_q[i] <= '0;
      for (int i = 0; i < NSc; i++) sc_q[i] <= '0;
    end else begin
      for (int i = 0; i < NPorts * NPc; i++) begin
        if (pc_ev_q[i]) pc_q[i] <= pc_q[i] + 32'd1;
      end
      for (int i = 0; i < NSc; i++) begin
        if (sc_ev_q[i]) begin
          sc_q[i] <= sc_q[i] + (i == gmmu_mmu_pkg::PERF_WALK_CYCLES ? 32'(walk_busy_q) : 32'd1);
        end
      end
    end
  end

  // ---------------------------------------------------------------- registers
  // The read-only words, field by field.
  logic [31:0] config_rd, config2_rd, inv_status_rd, fault_status_rd, fault_info_rd;

  assign config_rd =
      fld(gmmu_mmu_pkg::MMU_CONFIG_PORTS_LSB,      gmmu_mmu_pkg::MMU_CONFIG_PORTS_WIDTH,      NPorts)
    | fld(gmmu_mmu_pkg::MMU_CONFIG_LEVELS_LSB,     gmmu_mmu_pkg::MMU_CONFIG_LEVELS_WIDTH,     Levels)
    | fld(gmmu_mmu_pkg::MMU_CONFIG_WALKERS_LSB,    gmmu_mmu_pkg::MMU_CONFIG_WALKERS_WIDTH,    NWalkers)
    | fld(gmmu_mmu_pkg::MMU_CONFIG_L1_ENTRIES_LSB, gmmu_mmu_pkg::MMU_CONFIG_L1_ENTRIES_WIDTH, L1Entries)
    | fld(gmmu_mmu_pkg::MMU_CONFIG_ASID_BITS_LSB,  gmmu_mmu_pkg::MMU_CONFIG_ASID_BITS_WIDTH,  AsidW);
  assign config2_rd =
      fld(gmmu_mmu_pkg::MMU_CONFIG2_L2_ENTRIES_LSB,  gmmu_mmu_pkg::MMU_CONFIG2_L2_ENTRIES_WIDTH,  L2Entries)
    | fld(gmmu_mmu_pkg::MMU_CONFIG2_PWC_ENTRIES_LSB, gmmu_mmu_pkg::MMU_CONFIG2_PWC_ENTRIES_WIDTH, PwcEntries)
    | fld(gmmu_mmu_pkg::MMU_CONFIG2_FAULT_DEPTH_LSB, gmmu_mmu_pkg::MMU_CONFIG2_FAULT_DEPTH_WIDTH, FaultDepth);
  assign inv_status_rd =
      fld(gmmu_mmu_pkg::MMU_INV_STATUS_DONE_LSB,  gmmu_mmu_pkg::MMU_INV_STATUS_DONE_WIDTH,
          32'(!(busy || inv_write)))
    | fld(gmmu_mmu_pkg::MMU_INV_STATUS_COUNT_LSB, gmmu_mmu_pkg::MMU_INV_STATUS_COUNT_WIDTH,
          32'(inv_count_q));
  assign fault_status_rd =
      fld(gmmu_mmu_pkg::MMU_FAULT_STATUS_COUNT_LSB,   gmmu_mmu_pkg::MMU_FAULT_STATUS_COUNT_WIDTH,
          32'(flt_count))
    | fld(gmmu_mmu_pkg::MMU_FAULT_STATUS_PENDING_LSB, gmmu_mmu_pkg::MMU_FAULT_STATUS_PENDING_WIDTH,
          32'(flt_count != '0));
  assign fault_info_rd =
      fld(gmmu_mmu_pkg::MMU_FAULT_INFO_REASON_LSB, gmmu_mmu_pkg::MMU_FAULT_INFO_REASON_WIDTH, 32'(h_reason))
    | fld(gmmu_mmu_pkg::MMU_FAULT_INFO_ACCESS_LSB, gmmu_mmu_pkg::MMU_FAULT_INFO_ACCESS_WIDTH, 32'(h_access))
    | fld(gmmu_mmu_pkg::MMU_FAULT_INFO_PORT_LSB,   gmmu_mmu_pkg::MMU_FAULT_INFO_PORT_WIDTH,   32'(h_port))
    | fld(gmmu_mmu_pkg::MMU_FAULT_INFO_ASID_LSB,   gmmu_mmu_pkg::MMU_FAULT_INFO_ASID_WIDTH,   32'(h_asid))
    | fld(gmmu_mmu_pkg::MMU_FAULT_INFO_VALID_LSB,  gmmu_mmu_pkg::MMU_FAULT_INFO_VALID_WIDTH,
          32'(flt_count != '0));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q       <= 1'b0;
      rdata_q       <= '0;
      as_valid_q  <= '0;
      pulse_q     <= 1'b0;
      busy_q      <= 1'b0;
      cmd_type_q  <= '0;
      cmd_asid_q  <= '0;
      cmd_start_q <= '0;
      cmd_end_q   <= '0;
      inv_asid_q  <= '0;
      start_lo_q  <= '0;
      start_hi_q  <= '0;
      end_lo_q    <= '0;
      end_hi_q    <= '0;
      inv_count_q <= '0;
      ext_q       <= 1'b0;
      ext_type_q  <= '0;
      ext_asid_q  <= '0;
      ext_start_q <= '0;
      ext_end_q   <= '0;
    end else begin
      ack_q   <= access;
      pulse_q <= inv_write;
      ext_q   <= ext_fire;
      busy_q  <= busy_core;
      if (ext_fire) begin
        ext_type_q  <= (ext_type_i > 2'(gmmu_mmu_pkg::INV_RANGE)) ? 2'(gmmu_mmu_pkg::INV_ALL)
                                                                   : ext_type_i;
        ext_asid_q  <= ext_asid_i;
        ext_start_q <= (ext_start_i[51:VpnW] != '0) ? '1 : ext_start_i[VpnW-1:0];
        ext_end_q   <= (ext_end_i[51:VpnW] != '0) ? '1 : ext_end_i[VpnW-1:0];
      end
      if (busy_q && !busy_core) inv_count_q <= inv_count_q + 16'd1;

      if (inv_write) begin
        // A second command while one runs becomes INV_ALL (covers both).
        // A type beyond the defined ones runs as INV_ALL too.
        cmd_type_q  <= (busy || inv_wr_type > InvTypeW'(gmmu_mmu_pkg::INV_RANGE))
                       ? 2'(gmmu_mmu_pkg::INV_ALL) : inv_wr_type;
        cmd_asid_q  <= inv_asid_q;
        cmd_start_q <= (start_pn[51:VpnW] != '0) ? '1 : start_pn[VpnW-1:0];
        cmd_end_q   <= (end_pn[51:VpnW] != '0) ? '1 : end_pn[VpnW-1:0];
      end

      if (wr) begin
        unique case (reg_off)
          gmmu_mmu_pkg::MMU_INV_ASID:     inv_asid_q <= wb_i.dat[AsidW-1:0];
          gmmu_mmu_pkg::MMU_INV_START_LO: start_lo_q <= fld(InvVaL, InvVaW, wb_i.dat >> InvVaL);
          gmmu_mmu_pkg::MMU_INV_START_HI: start_hi_q <= wb_i.dat;
          gmmu_mmu_pkg::MMU_INV_END_LO:   end_lo_q   <= fld(InvVaL, InvVaW, wb_i.dat >> InvVaL);
          gmmu_mmu_pkg::MMU_INV_END_HI:   end_hi_q   <= wb_i.dat;
          default: ;
        endcase
        if (as_sel && !reg_off[2]) as_valid_q[as_idx] <= wb_i.dat[AsValidL];
      end

      if (rd) begin
        rdata_q <= '0;
        if (as_sel) begin
          rdata_q <= reg_off[2] ? fld(AsRootHiL, AsRootHiW, 32'(as_hi_mem[as_idx]))
                              : fld(AsRootL, AsRootW, 32'(as_lo_mem[as_idx]))
                                | fld(AsValidL, AsValidW, 32'(as_valid_q[as_idx]));
        end else if (reg_off[15:9] == 7'h04) begin        // 0x800 .. 0x9FF
          for (int p = 0; p < NPorts; p++) begin
            for (int c = 0; c < NPc; c++) begin
              if (32'(reg_off[8:0]) == p * gmmu_mmu_pkg::PERF_PORT_STRIDE + 4 * c) rdata_q <= pc_q[p*NPc + c];
            end
          end
        end else if (reg_off[15:8] == 8'h0A) begin        // 0xA00 .. 0xAFF
          for (int c = 0; c < NSc; c++) begin
            if (32'(reg_off[7:0]) == 4 * c) rdata_q <= sc_q[c];
          end
        end else begin
          unique case (reg_off)
            gmmu_mmu_pkg::MMU_ID:           rdata_q <= gmmu_mmu_pkg::MMU_ID_VALUE;
            gmmu_mmu_pkg::MMU_CONFIG:       rdata_q <= config_rd;
            gmmu_mmu_pkg::MMU_CONFIG2:      rdata_q <= config2_rd;
            gmmu_mmu_pkg::MMU_INV_STATUS:   rdata_q <= inv_status_rd;
            gmmu_mmu_pkg::MMU_INV_ASID:     rdata_q <= 32'(inv_asid_q);
            gmmu_mmu_pkg::MMU_INV_START_LO: rdata_q <= start_lo_q;
            gmmu_mmu_pkg::MMU_INV_START_HI: rdata_q <= start_hi_q;
            gmmu_mmu_pkg::MMU_INV_END_LO:   rdata_q <= end_lo_q;
            gmmu_mmu_pkg::MMU_INV_END_HI:   rdata_q <= end_hi_q;
            gmmu_mmu_pkg::MMU_FAULT_STATUS: rdata_q <= fault_status_rd;
            gmmu_mmu_pkg::MMU_FAULT_VA_LO:  rdata_q <= h_va[31:0];
            gmmu_mmu_pkg::MMU_FAULT_VA_HI:  rdata_q <= h_va[63:32];
            gmmu_mmu_pkg::MMU_FAULT_INFO:   rdata_q <= fault_info_rd;
            gmmu_mmu_pkg::MMU_FAULT_TAG:    rdata_q <= 32'(h_tag);
            gmmu_mmu_pkg::MMU_FAULT_OVERFLOW: rdata_q <= flt_overflow;
            default:                        rdata_q <= '0;
          endcase
        end
      end
    end
  end

  assign wb_o.ack = ack_q;
  assign wb_o.err = 1'b0;
  assign wb_o.dat = rdata_q;
  assign irq_o       = (flt_count != '0);
  // One pulse for both sources; when both pulse together the register
  // command is INV_ALL (see ext_fire above) and its payload wins.
  assign inv_valid_o = pulse_q || ext_q;
  assign inv_type_o  = pulse_q ? cmd_type_q  : ext_type_q;
  assign inv_asid_o  = pulse_q ? cmd_asid_q  : ext_asid_q;
  assign inv_start_o = pulse_q ? cmd_start_q : ext_start_q;
  assign inv_end_o   = pulse_q ? cmd_end_q   : ext_end_q;

`ifndef SYNTHESIS
  // The second source holds its request and payload until it is accepted.
  logic                 ext_wait_q, ext_fired_q;
  logic [AsidW+106-1:0] ext_payload_q;
  always_ff @(posedge clk_i) begin
    ext_wait_q    <= rst_ni && ext_valid_i && !ext_ready_o;
    ext_fired_q   <= rst_ni && ext_fire;
    ext_payload_q <= {ext_type_i, ext_asid_i, ext_start_i, ext_end_i};
    if (rst_ni && ext_wait_q) begin
      ext_held: assert (ext_valid_i &&
                        {ext_type_i, ext_asid_i, ext_start_i, ext_end_i} == ext_payload_q);
    end
    // Busy (for the engine) from the cycle after an acceptance.
    if (rst_ni && ext_fired_q) ext_busy: assert (ext_busy_o);
  end
  // When both sources pulse together, the register command is INV_ALL.
  always_ff @(posedge clk_i) begin
    if (rst_ni) both_all: assert (!(pulse_q && ext_q) || (cmd_type_q == 2'(gmmu_mmu_pkg::INV_ALL)));
  end
`endif

  // Whole-word registers: byte selects and burst types are ignored; the
  // decoder checked the upper address bits.
  logic unused_bus;
  assign unused_bus = ^{wb_i.sel, wb_i.cti, wb_i.adr[29:14]};

endmodule : mmu_regs
