// SPDX-License-Identifier: Apache-2.0
// GPU engine register block, a Wishbone slave (include/defs/engine.toml).
//
// Holds the run configuration (OP, PHYS, ASID, VAs, LENGTH, PATTERN) and the
// sticky DONE bit, and shows the datapath's status, results and counters.
// START is honoured only while the engine is idle, ABORT only while it is
// busy; configuration writes are ignored while busy, so the datapath may use
// the configuration outputs directly for a whole run. VAs and LENGTH keep
// bits 5:0 zero (64-byte chunks).
//
// Timing: registers answer one cycle after the request (like wb_timer);
// start_o and abort_o are one-cycle pulses in the cycle after the write.
// done_o is STATUS.DONE: set by end_i, cleared by START or by writing 1 to
// STATUS.DONE (end_i wins over a clear in the same cycle).
module gpu_engine_regs
  import gmmu_engine_pkg::*;
#(
  parameter int unsigned AsidW = 6,
  parameter int unsigned Slots = ENGINE_SLOTS_DEFAULT
) (
  input  logic             clk_i,
  input  logic             rst_ni,

  // Wishbone classic slave, 32-bit, word address
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  // Configuration
  output logic [1:0]       op_o,
  output logic             phys_o,     // CTRL.PHYS: addresses are VRAM offsets, untranslated
  output logic [AsidW-1:0] asid_o,
  output logic [63:0]      dst_va_o,
  output logic [63:0]      src_va_o,
  output logic [31:0]      length_o,
  output logic [63:0]      pattern_o,
  output logic             start_o,
  output logic             abort_o,

  // Datapath status
  input  logic             busy_i,
  input  logic             end_i,      // pulse: the run ended
  input  logic             fault_i,
  input  logic             aborted_i,
  input  logic [2:0]       reason_i,
  input  logic [1:0]       access_i,
  input  logic [63:0]      fault_va_i,
  input  logic [63:0]      result_i,
  input  logic [63:0]      result2_i,
  input  logic [31:0]      bytes_done_i,
  input  logic [31:0]      cycles_i,
  input  logic [31:0]      translations_i,
  input  logic [31:0]      rd_bursts_i,
  input  logic [31:0]      wr_bursts_i,

  output logic             done_o
);

  logic        done_q, start_q, abort_q;
  logic [1:0]  op_q;
  logic        phys_q;
  logic [AsidW-1:0] asid_q;
  logic [63:6] dst_va_q, src_va_q;
  logic [31:6] length_q;
  logic [63:0] pattern_q;
  logic [15:0] reg_off;
  logic        wr, cfg_wr;
  logic [31:0] rdata;

  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (1'b1), .wr_o (wr), .rdata_i (rdata)
  );

  assign reg_off = {4'b0, wb_i.adr[9:0], 2'b00};  // offset within the 4 KiB block
  assign cfg_wr  = wr && !busy_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      done_q    <= 1'b0;
      start_q   <= 1'b0;
      abort_q   <= 1'b0;
      op_q      <= '0;
      phys_q    <= 1'b0;
      asid_q    <= '0;
      dst_va_q  <= '0;
      src_va_q  <= '0;
      length_q  <= '0;
      pattern_q <= '0;
    end else begin
      start_q <= cfg_wr && reg_off == ENGINE_CTRL && wb_i.dat[ENGINE_CTRL_START_LSB];
      abort_q <= wr && busy_i && reg_off == ENGINE_CTRL && wb_i.dat[ENGINE_CTRL_ABORT_LSB];
      if (cfg_wr) begin
        unique case (reg_off)
          ENGINE_CTRL: begin
            op_q   <= wb_i.dat[ENGINE_CTRL_OP_LSB +: 2];
            phys_q <= wb_i.dat[ENGINE_CTRL_PHYS_LSB];
          end
          ENGINE_ASID:       asid_q             <= wb_i.dat[AsidW-1:0];
          ENGINE_LENGTH:     length_q           <= wb_i.dat[31:6];
          ENGINE_DST_VA_LO:  dst_va_q[31:6]     <= wb_i.dat[31:6];
          ENGINE_DST_VA_HI:  dst_va_q[63:32]    <= wb_i.dat;
          ENGINE_SRC_VA_LO:  src_va_q[31:6]     <= wb_i.dat[31:6];
          ENGINE_SRC_VA_HI:  src_va_q[63:32]    <= wb_i.dat;
          ENGINE_PATTERN_LO: pattern_q[31:0]    <= wb_i.dat;
          ENGINE_PATTERN_HI: pattern_q[63:32]   <= wb_i.dat;
          default: ;
        endcase
      end
      // DONE: set at the end of a run; cleared by START or a write of 1.
      if (end_i) begin
        done_q <= 1'b1;
      end else if (start_q || (wr && reg_off == ENGINE_STATUS && wb_i.dat[ENGINE_STATUS_DONE_LSB])) begin
        done_q <= 1'b0;
      end
    end
  end

  always_comb begin
    unique case (reg_off)
      ENGINE_ID:           rdata = ENGINE_ID_VALUE;
      ENGINE_CONFIG:       rdata = {16'b0, 8'(AsidW), 8'(Slots)};
      ENGINE_CTRL:         rdata = (32'(op_q) << ENGINE_CTRL_OP_LSB) |
                                   (32'(phys_q) << ENGINE_CTRL_PHYS_LSB);
      ENGINE_STATUS: begin
        rdata = '0;
        rdata[ENGINE_STATUS_BUSY_LSB]        = busy_i;
        rdata[ENGINE_STATUS_DONE_LSB]        = done_q;
        rdata[ENGINE_STATUS_FAULT_LSB]       = fault_i;
        rdata[ENGINE_STATUS_ABORTED_LSB]     = aborted_i;
        rdata[ENGINE_STATUS_REASON_LSB +: 3] = reason_i;
        rdata[ENGINE_STATUS_ACCESS_LSB +: 2] = access_i;
      end
      ENGINE_ASID:         rdata = 32'(asid_q);
      ENGINE_LENGTH:       rdata = {length_q, 6'b0};
      ENGINE_DST_VA_LO:    rdata = {dst_va_q[31:6], 6'b0};
      ENGINE_DST_VA_HI:    rdata = dst_va_q[63:32];
      ENGINE_SRC_VA_LO:    rdata = {src_va_q[31:6], 6'b0};
      ENGINE_SRC_VA_HI:    rdata = src_va_q[63:32];
      ENGINE_PATTERN_LO:   rdata = pattern_q[31:0];
      ENGINE_PATTERN_HI:   rdata = pattern_q[63:32];
      ENGINE_FAULT_VA_LO:  rdata = fault_va_i[31:0];
      ENGINE_FAULT_VA_HI:  rdata = fault_va_i[63:32];
      ENGINE_RESULT_LO:    rdata = result_i[31:0];
      ENGINE_RESULT_HI:    rdata = result_i[63:32];
      ENGINE_RESULT2_LO:   rdata = result2_i[31:0];
      ENGINE_RESULT2_HI:   rdata = result2_i[63:32];
      ENGINE_BYTES_DONE:   rdata = bytes_done_i;
      ENGINE_CYCLES:       rdata = cycles_i;
      ENGINE_TRANSLATIONS: rdata = translations_i;
      ENGINE_READ_BURSTS:  rdata = rd_bursts_i;
      ENGINE_WRITE_BURSTS: rdata = wr_bursts_i;
      default:             rdata = '0;
    endcase
  end

  assign done_o    = done_q;
  assign start_o   = start_q;
  assign abort_o   = abort_q;
  assign op_o      = op_q;
  assign phys_o    = phys_q;
  assign asid_o    = asid_q;
  assign dst_va_o  = {dst_va_q, 6'b0};
  assign src_va_o  = {src_va_q, 6'b0};
  assign length_o  = {length_q, 6'b0};
  assign pattern_o = pattern_q;

endmodule : gpu_engine_regs
