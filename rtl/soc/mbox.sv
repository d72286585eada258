// SPDX-License-Identifier: Apache-2.0
// Host mailbox (mbox: "mailbox" is a SystemVerilog keyword): the BAR0
// register block and its rings.
//
// Two ports see the same layout (gmmu_mbox_pkg, from include/defs/
// mailbox.toml): the host port (a register request port, behind
// axi4lite_to_reg for PCIe BAR0) and the CPU port (Wishbone). Each register
// and each ring has one writer: the host owns DOORBELL, HOST_IRQ_STATUS/MASK,
// CMD_HEAD, CPL_TAIL, EVT_TAIL and the command ring; the firmware owns the
// rest. Writes from the wrong side are dropped, and host ones are counted in
// HOST_WRITE_ERRORS, so a misbehaving host cannot corrupt firmware state.
// The host's ring pointers only move forward, within what the firmware's
// side allows: CMD_HEAD from its value up to CMD_TAIL + CMD_SLOTS, CPL_TAIL
// (EVT_TAIL) from its value up to CPL_HEAD (EVT_HEAD). Any other value (a
// pointer moved back, past the other side, wrapped or far) can only come
// from a broken host; such a write is refused the same way, so the
// registers always hold values the firmware can serve. The last refused
// write's offset and reason stay in HOST_WRITE_LAST.
//
// A host write to DOORBELL sets DEV_IRQ_STATUS.DOORBELL; dev_irq_o is
// STATUS & MASK and interrupts the CPU. The firmware sets HOST_IRQ_STATUS
// bits through HOST_IRQ_SET; host_irq_o is STATUS & MASK (a level, like
// INTx) and msi_o pulses for one cycle whenever an unmasked bit newly rises
// (MSI).
// Timing: both ports answer one cycle after the request (registers and
// block-RAM rings alike); a burst of host and CPU accesses can proceed in
// parallel every other cycle.
module mbox
  import gmmu_mbox_pkg::*;
  import gmmu_pte_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,

  // Host (BAR0) register port
  input  axi4_pkg::reg_req_t host_i,   // BAR0 offsets: the low 16 address bits
  output axi4_pkg::reg_rsp_t host_o,

  // CPU Wishbone slave
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  input  logic [31:0] cycle_i,     // the timer's cycle counter, for DOORBELL_CYCLE and CYCLE

  output logic [31:0] aperture_base_o,
  output logic [31:0] aperture_limit_o,  // APERTURE_LIMIT: BAR1 stops there

  output logic        dev_irq_o,
  output logic        host_irq_o,
  output logic        msi_o
);

  localparam int unsigned CmdWords = CMD_SLOTS * SLOT_BYTES / 4;
  localparam int unsigned CplWords = CPL_SLOTS * SLOT_BYTES / 4;
  localparam int unsigned EvtWords = EVT_SLOTS * SLOT_BYTES / 4;
  localparam logic [15:0] CmdBase = 16'(CMD_RING);
  localparam logic [15:0] CplBase = 16'(CPL_RING);
  localparam logic [15:0] EvtBase = 16'(EVT_RING);
  localparam logic [15:0] CmdEnd  = 16'(CMD_RING + CMD_SLOTS * SLOT_BYTES);
  localparam logic [15:0] CplEnd  = 16'(CPL_RING + CPL_SLOTS * SLOT_BYTES);
  localparam logic [15:0] EvtEnd  = 16'(EVT_RING + EVT_SLOTS * SLOT_BYTES);

  localparam logic [31:0] Geometry = {16'(CAP_LEAF_PAGE_TABLE_SIZE_FOR64_KPAGES_IN_BYTES),
      4'b0, 4'(CAP_PAGE_TABLE_LEVEL_COUNT), 8'(CAP_VIRTUAL_ADDRESS_BIT_COUNT)};
  localparam logic [31:0] Rings = {8'($clog2(SLOT_BYTES)), 8'($clog2(EVT_SLOTS)),
      8'($clog2(CPL_SLOTS)), 8'($clog2(CMD_SLOTS))};

  // ------------------------------------------------------------ registers
  logic [31:0] fw_version_q, fw_build_q, fw_state_q, heartbeat_q, next_seq_q;
  logic [31:0] cpl_fence_q, evt_dropped_q;
  logic [31:0] dev_status_q, dev_mask_q, host_status_q, host_mask_q;
  logic [31:0] cmd_head_q, cmd_tail_q, cpl_head_q, cpl_tail_q, evt_head_q, evt_tail_q;
  logic [31:0] host_write_errors_q, doorbell_cycle_q, cpl_latency_q, aperture_base_q;
  logic [31:0] aperture_limit_q;
  logic [31:0] host_write_last_q;
  logic        latency_armed_q;
  logic [31:0] host_status_d;

  logic        host_access, cpu_access, host_ack_q, cpu_ack_q;
  logic [15:0] host_addr;   // BAR0 offset
  assign host_addr = host_i.addr[15:0];
  logic [15:0] cpu_addr;
  logic [31:0] cpu_rdata;
  logic        host_wr, cpu_wr;

  assign host_access = host_i.req && !host_ack_q;
  assign cpu_access  = wb_i.cyc && wb_i.stb && !cpu_ack_q;
  assign cpu_addr    = {wb_i.adr[13:0], 2'b00};   // the 64 KiB block
  assign host_wr     = host_access && host_i.we;
  assign cpu_wr      = cpu_access && wb_i.we;

  function automatic logic in_range(input logic [15:0] a, input logic [15:0] lo,
                                    input logic [15:0] hi);
    return (a >= lo) && (a < hi);
  endfunction

  function automatic logic host_owned(input logic [15:0] a);
    return a == MBOX_DOORBELL || a == MBOX_HOST_IRQ_STATUS || a == MBOX_HOST_IRQ_MASK ||
           a == MBOX_CMD_HEAD || a == MBOX_CPL_TAIL || a == MBOX_EVT_TAIL ||
           a == MBOX_APERTURE_BASE ||
           in_range(a, CmdBase, CmdEnd);
  endfunction

  // Ring pointers move forward by at most the room the other side leaves
  // (free-running counters: unsigned differences). A correct host never
  // fails these: the firmware's pointer only moves forward too, so a value
  // valid against an older read of it is valid against the current one.
  logic [31:0] cmd_step, cmd_room, cpl_step, cpl_room, evt_step, evt_room;
  logic        host_ptr_ok;
  assign cmd_step = host_i.wdata - cmd_head_q;
  assign cmd_room = cmd_tail_q + 32'(CMD_SLOTS) - cmd_head_q;
  assign cpl_step = host_i.wdata - cpl_tail_q;
  assign cpl_room = cpl_head_q - cpl_tail_q;
  assign evt_step = host_i.wdata - evt_tail_q;
  assign evt_room = evt_head_q - evt_tail_q;
  always_comb begin
    unique case (host_addr)
      MBOX_CMD_HEAD: host_ptr_ok = cmd_step <= cmd_room;
      MBOX_CPL_TAIL: host_ptr_ok = cpl_step <= cpl_room;
      MBOX_EVT_TAIL: host_ptr_ok = evt_step <= evt_room;
      default:       host_ptr_ok = 1'b1;
    endcase
  end

  logic host_wr_ok, cpu_wr_ok;
  assign host_wr_ok = host_wr && host_owned(host_addr) && host_ptr_ok;
  assign cpu_wr_ok  = cpu_wr && !host_owned(cpu_addr);

  function automatic logic [31:0] reg_value(input logic [15:0] a);
    unique case (a)
      MBOX_IDENT_MAGIC:       return MBOX_MAGIC;
      MBOX_IDENT_PROTO:       return PROTO_VERSION;
      MBOX_IDENT_FW_VERSION:  return fw_version_q;
      MBOX_IDENT_FW_BUILD:    return fw_build_q;
      MBOX_IDENT_CAPS:        return CAPS_FLAGS;
      MBOX_IDENT_GEOMETRY:    return Geometry;
      MBOX_IDENT_RINGS:       return Rings;
      MBOX_FW_STATE:          return fw_state_q;
      MBOX_FW_HEARTBEAT:      return heartbeat_q;
      MBOX_NEXT_SEQ:          return next_seq_q;
      MBOX_CPL_FENCE:         return cpl_fence_q;
      MBOX_EVT_DROPPED:       return evt_dropped_q;
      MBOX_DEV_IRQ_STATUS:    return dev_status_q;
      MBOX_DEV_IRQ_MASK:      return dev_mask_q;
      MBOX_HOST_IRQ_STATUS:   return host_status_q;
      MBOX_HOST_IRQ_MASK:     return host_mask_q;
      MBOX_CMD_HEAD:          return cmd_head_q;
      MBOX_CMD_TAIL:          return cmd_tail_q;
      MBOX_CPL_HEAD:          return cpl_head_q;
      MBOX_CPL_TAIL:          return cpl_tail_q;
      MBOX_EVT_HEAD:          return evt_head_q;
      MBOX_EVT_TAIL:          return evt_tail_q;
      MBOX_HOST_WRITE_ERRORS: return host_write_errors_q;
      MBOX_DOORBELL_CYCLE:    return doorbell_cycle_q;
      MBOX_CYCLE:             return cycle_i;
      MBOX_CPL_LATENCY:       return cpl_latency_q;
      MBOX_APERTURE_BASE:     return aperture_base_q;
      MBOX_APERTURE_LIMIT:    return aperture_limit_q;
      MBOX_HOST_WRITE_LAST:   return host_write_last_q;
      default:                return '0;
    endcase
  endfunction

  // Host-set, firmware-cleared and firmware-set, host-cleared status bits:
  // a set in the same cycle as a clear wins, so no event is lost.
  always_comb begin
    host_status_d = host_status_q;
    if (host_wr_ok && host_addr == MBOX_HOST_IRQ_STATUS) host_status_d &= ~host_i.wdata;
    if (cpu_wr_ok && cpu_addr == MBOX_HOST_IRQ_SET)        host_status_d |= wb_i.dat;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fw_version_q <= '0; fw_build_q <= '0; fw_state_q <= '0; heartbeat_q <= '0;
      next_seq_q <= '0; cpl_fence_q <= '0; evt_dropped_q <= '0;
      dev_status_q <= '0; dev_mask_q <= '0; host_status_q <= '0; host_mask_q <= '0;
      cmd_head_q <= '0; cmd_tail_q <= '0; cpl_head_q <= '0; cpl_tail_q <= '0;
      evt_head_q <= '0; evt_tail_q <= '0; host_write_errors_q <= '0; doorbell_cycle_q <= '0;
      cpl_latency_q <= '0; latency_armed_q <= 1'b0; aperture_base_q <= '0;
      aperture_limit_q <= '0;
      host_write_last_q <= '0;
      msi_o <= 1'b0;
    end else begin
      host_status_q <= host_status_d;
      msi_o <= |((host_status_d & host_mask_q) & ~(host_status_q & host_mask_q));

      if (host_wr && !host_wr_ok) begin
        host_write_errors_q <= host_write_errors_q + 32'd1;
        host_write_last_q   <= '0;
        host_write_last_q[MBOX_HOST_WRITE_LAST_OFFSET_LSB +: MBOX_HOST_WRITE_LAST_OFFSET_WIDTH] <=
            host_addr;
        host_write_last_q[MBOX_HOST_WRITE_LAST_REASON_LSB +: MBOX_HOST_WRITE_LAST_REASON_WIDTH] <=
            host_owned(host_addr) ? 8'(HOST_WRITE_RANGE) : 8'(HOST_WRITE_NOT_HOST);
      end
      if (host_wr_ok) begin
        unique case (host_addr)
          MBOX_HOST_IRQ_MASK: host_mask_q <= host_i.wdata;
          MBOX_CMD_HEAD:      cmd_head_q  <= host_i.wdata;
          MBOX_CPL_TAIL:      cpl_tail_q  <= host_i.wdata;
          MBOX_EVT_TAIL:      evt_tail_q  <= host_i.wdata;
          MBOX_APERTURE_BASE: aperture_base_q <= {host_i.wdata[31:12], 12'b0};
          default: ;
        endcase
      end

      if (cpu_wr_ok) begin
        unique case (cpu_addr)
          MBOX_IDENT_FW_VERSION: fw_version_q  <= wb_i.dat;
          MBOX_IDENT_FW_BUILD:   fw_build_q    <= wb_i.dat;
          MBOX_FW_STATE:         fw_state_q    <= wb_i.dat;
          MBOX_FW_HEARTBEAT:     heartbeat_q   <= wb_i.dat;
          MBOX_NEXT_SEQ:         next_seq_q    <= wb_i.dat;
          MBOX_CPL_FENCE:        cpl_fence_q   <= wb_i.dat;
          MBOX_EVT_DROPPED:      evt_dropped_q <= wb_i.dat;
          MBOX_DEV_IRQ_MASK:     dev_mask_q    <= wb_i.dat;
          MBOX_CMD_TAIL:         cmd_tail_q    <= wb_i.dat;
          MBOX_CPL_HEAD:         cpl_head_q    <= wb_i.dat;
          MBOX_EVT_HEAD:         evt_head_q    <= wb_i.dat;
          MBOX_APERTURE_LIMIT:   aperture_limit_q <= wb_i.dat;
          default: ;
        endcase
      end

      // DEV_IRQ_STATUS: the doorbell sets, the firmware's write-1 clears.
      if (cpu_wr_ok && cpu_addr == MBOX_DEV_IRQ_STATUS) dev_status_q <= dev_status_q & ~wb_i.dat;
      if (host_wr_ok && host_addr == MBOX_DOORBELL) begin
        dev_status_q[MBOX_DEV_IRQ_STATUS_DOORBELL_LSB] <= 1'b1;
        doorbell_cycle_q <= cycle_i;
      end

      // Doorbell-to-completion latency: armed by a doorbell, taken at the
      // first completion published after it.
      if (host_wr_ok && host_addr == MBOX_DOORBELL) begin
        latency_armed_q <= 1'b1;
      end else if (latency_armed_q && cpu_wr_ok && cpu_addr == MBOX_CPL_HEAD) begin
        latency_armed_q <= 1'b0;
        cpl_latency_q   <= cycle_i - doorbell_cycle_q;
      end
    end
  end

  assign dev_irq_o       = |(dev_status_q & dev_mask_q);
  assign aperture_base_o = aperture_base_q;
  assign aperture_limit_o = aperture_limit_q;
  assign host_irq_o = |(host_status_q & host_mask_q);

  // ---------------------------------------------------------------- rings
  // Command ring: written by the host (port A), read by the CPU (port B).
  // Completion and event rings: written by the CPU (A), read by the host (B).
  logic [31:0] cmd_a_rdata, cmd_b_rdata, cpl_a_rdata, cpl_b_rdata, evt_a_rdata, evt_b_rdata;
  logic [15:0] host_cmd_off, cpu_cpl_off, cpu_evt_off, cpu_cmd_off, host_cpl_off, host_evt_off;

  assign host_cmd_off = host_addr - CmdBase;
  assign cpu_cmd_off  = cpu_addr - CmdBase;
  assign cpu_cpl_off  = cpu_addr - CplBase;
  assign host_cpl_off = host_addr - CplBase;
  assign cpu_evt_off  = cpu_addr - EvtBase;
  assign host_evt_off = host_addr - EvtBase;

  prim_ram_2p #(.Words(CmdWords)) u_cmd_ring (
    .clk_i,
    .a_we_i    (host_wr_ok && in_range(host_addr, CmdBase, CmdEnd)),
    .a_addr_i  (host_cmd_off[$clog2(CmdWords)+1:2]),
    .a_wdata_i (host_i.wdata),
    .a_rdata_o (cmd_a_rdata),
    .b_addr_i  (cpu_cmd_off[$clog2(CmdWords)+1:2]),
    .b_rdata_o (cmd_b_rdata)
  );

  prim_ram_2p #(.Words(CplWords)) u_cpl_ring (
    .clk_i,
    .a_we_i    (cpu_wr_ok && in_range(cpu_addr, CplBase, CplEnd)),
    .a_addr_i  (cpu_cpl_off[$clog2(CplWords)+1:2]),
    .a_wdata_i (wb_i.dat),
    .a_rdata_o (cpl_a_rdata),
    .b_addr_i  (host_cpl_off[$clog2(CplWords)+1:2]),
    .b_rdata_o (cpl_b_rdata)
  );

  prim_ram_2p #(.Words(EvtWords)) u_evt_ring (
    .clk_i,
    .a_we_i    (cpu_wr_ok && in_range(cpu_addr, EvtBase, EvtEnd)),
    .a_addr_i  (cpu_evt_off[$clog2(EvtWords)+1:2]),
    .a_wdata_i (wb_i.dat),
    .a_rdata_o (evt_a_rdata),
    .b_addr_i  (host_evt_off[$clog2(EvtWords)+1:2]),
    .b_rdata_o (evt_b_rdata)
  );

  // --------------------------------------------------------- read returns
  // Registers are sampled with the request; ring words arrive from the RAM
  // a cycle later, so remember which source each port reads.
  typedef enum logic [1:0] { SrcReg, SrcCmd, SrcCpl, SrcEvt } src_e;
  src_e        host_src_q, cpu_src_q;
  logic [31:0] host_reg_q, cpu_reg_q;

  function automatic src_e source_of(input logic [15:0] a);
    if (in_range(a, CmdBase, CmdEnd)) return SrcCmd;
    if (in_range(a, CplBase, CplEnd)) return SrcCpl;
    if (in_range(a, EvtBase, EvtEnd)) return SrcEvt;
    return SrcReg;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      host_ack_q <= 1'b0;
      cpu_ack_q  <= 1'b0;
      host_src_q <= SrcReg;
      cpu_src_q  <= SrcReg;
      host_reg_q <= '0;
      cpu_reg_q  <= '0;
    end else begin
      host_ack_q <= host_access;
      cpu_ack_q  <= cpu_access;
      if (host_access) begin
        host_src_q <= source_of(host_addr);
        host_reg_q <= reg_value(host_addr);
      end
      if (cpu_access) begin
        cpu_src_q <= source_of(cpu_addr);
        cpu_reg_q <= reg_value(cpu_addr);
      end
    end
  end

  always_comb begin
    unique case (host_src_q)
      SrcCmd:  host_o.rdata = cmd_a_rdata;
      SrcCpl:  host_o.rdata = cpl_b_rdata;
      SrcEvt:  host_o.rdata = evt_b_rdata;
      default: host_o.rdata = host_reg_q;
    endcase
    unique case (cpu_src_q)
      SrcCmd:  cpu_rdata = cmd_b_rdata;
      SrcCpl:  cpu_rdata = cpl_a_rdata;
      SrcEvt:  cpu_rdata = evt_a_rdata;
      default: cpu_rdata = cpu_reg_q;
    endcase
  end

  assign host_o.ack = host_ack_q;
  assign host_o.err = 1'b0;
  assign wb_o.ack    = cpu_ack_q;
  assign wb_o.err    = 1'b0;
  assign wb_o.dat    = cpu_rdata;

  // Only whole-word register access is defined (no byte selects, no
  // bursts); the upper CPU address bits were decoded already.
  // Ring offsets beyond a ring's size select another ring or a register, and
  // byte bits below a word are not used.
  logic unused;
  assign unused = ^{host_i.addr[31:16], host_i.wstrb, wb_i.adr[29:14], wb_i.sel, wb_i.cti, host_cmd_off, cpu_cpl_off, cpu_evt_off, cpu_cmd_off,
                    host_cpl_off, host_evt_off};

endmodule : mbox
