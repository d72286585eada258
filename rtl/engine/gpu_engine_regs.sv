// SPDX-License-Identifier: Apache-2.0
// GPU engine register block, a Wishbone slave (include/defs/engine.toml).
//
// Holds the run configuration (OP, ASID, VAs, LENGTH, PATTERN) and the
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
  input  logic             cyc_i,
  input  logic             stb_i,
  input  logic             we_i,
  input  logic [29:0]      adr_i,
  input  logic [31:0]      dat_i,
  output logic             ack_o,
  output logic [31:0]      dat_o,

  // Configuration
  output logic [1:0]       op_o,
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

  logic        ack_q, done_q, start_q, abort_q;
  logic [1:0]  op_q;
  logic [AsidW-1:0] asid_q;
  logic [63:6] dst_va_q, src_va_q;
  logic [31:6] length_q;
  logic [63:0] pattern_q;
  logic [15:0] reg_off;
  logic        access, wr, cfg_wr;

  assign reg_off = {4'b0, adr_i[9:0], 2'b00};  // offset within the 4 KiB block
  assign access  = cyc_i && stb_i && !ack_q;
  assign wr      = access && we_i;
  assign cfg_wr  = wr && !busy_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q     <= 1'b0;
      dat_o     <= '0;
      done_q    <= 1'b0;
      start_q   <= 1'b0;
      abort_q   <= 1'b0;
      op_q      <= '0;
      asid_q    <= '0;
      dst_va_q  <= '0;
      src_va_q  <= '0;
      length_q  <= '0;
      pattern_q <= '0;
    end else begin
      ack_q   <= access;
      start_q <= cfg_wr && reg_off == ENGINE_CTRL && dat_i[ENGINE_CTRL_START_LSB];
      abort_q <= wr && busy_i && reg_off == ENGINE_CTRL && dat_i[ENGINE_CTRL_ABORT_LSB];
      if (cfg_wr) begin
        unique case (reg_off)
          ENGINE_CTRL:       op_q               <= dat_i[ENGINE_CTRL_OP_LSB +: 2];
          ENGINE_ASID:       asid_q             <= dat_i[AsidW-1:0];
          ENGINE_LENGTH:     length_q           <= dat_i[31:6];
          ENGINE_DST_VA_LO:  dst_va_q[31:6]     <= dat_i[31:6];
          ENGINE_DST_VA_HI:  dst_va_q[63:32]    <= dat_i;
          ENGINE_SRC_VA_LO:  src_va_q[31:6]     <= dat_i[31:6];
          ENGINE_SRC_VA_HI:  src_va_q[63:32]    <= dat_i;
          ENGINE_PATTERN_LO: pattern_q[31:0]    <= dat_i;
          ENGINE_PATTERN_HI: pattern_q[63:32]   <= dat_i;
          default: ;
        endcase
      end
      // DONE: set at the end of a run; cleared by START or a write of 1.
      if (end_i) begin
        done_q <= 1'b1;
      end else if (start_q || (wr && reg_off == ENGINE_STATUS && dat_i[ENGINE_STATUS_DONE_LSB])) begin
        done_q <= 1'b0;
      end
      if (access && !we_i) begin
        unique case (reg_off)
          ENGINE_ID:           dat_o <= ENGINE_ID_VALUE;
          ENGINE_CONFIG:       dat_o <= {16'b0, 8'(AsidW), 8'(Slots)};
          ENGINE_CTRL:         dat_o <= 32'(op_q) << ENGINE_CTRL_OP_LSB;
          ENGINE_STATUS: begin
            dat_o <= '0;
            dat_o[ENGINE_STATUS_BUSY_LSB]      <= busy_i;
            dat_o[ENGINE_STATUS_DONE_LSB]      <= done_q;
            dat_o[ENGINE_STATUS_FAULT_LSB]     <= fault_i;
            dat_o[ENGINE_STATUS_ABORTED_LSB]   <= aborted_i;
            dat_o[ENGINE_STATUS_REASON_LSB +: 3] <= reason_i;
            dat_o[ENGINE_STATUS_ACCESS_LSB +: 2] <= access_i;
          end
          ENGINE_ASID:         dat_o <= 32'(asid_q);
          ENGINE_LENGTH:       dat_o <= {length_q, 6'b0};
          ENGINE_DST_VA_LO:    dat_o <= {dst_va_q[31:6], 6'b0};
          ENGINE_DST_VA_HI:    dat_o <= dst_va_q[63:32];
          ENGINE_SRC_VA_LO:    dat_o <= {src_va_q[31:6], 6'b0};
          ENGINE_SRC_VA_HI:    dat_o <= src_va_q[63:32];
          ENGINE_PATTERN_LO:   dat_o <= pattern_q[31:0];
          ENGINE_PATTERN_HI:   dat_o <= pattern_q[63:32];
          ENGINE_FAULT_VA_LO:  dat_o <= fault_va_i[31:0];
          ENGINE_FAULT_VA_HI:  dat_o <= fault_va_i[63:32];
          ENGINE_RESULT_LO:    dat_o <= result_i[31:0];
          ENGINE_RESULT_HI:    dat_o <= result_i[63:32];
          ENGINE_RESULT2_LO:   dat_o <= result2_i[31:0];
          ENGINE_RESULT2_HI:   dat_o <= result2_i[63:32];
          ENGINE_BYTES_DONE:   dat_o <= bytes_done_i;
          ENGINE_CYCLES:       dat_o <= cycles_i;
          ENGINE_TRANSLATIONS: dat_o <= translations_i;
          ENGINE_READ_BURSTS:  dat_o <= rd_bursts_i;
          ENGINE_WRITE_BURSTS: dat_o <= wr_bursts_i;
          default:             dat_o <= '0;
        endcase
      end
    end
  end

  assign ack_o     = ack_q;
  assign done_o    = done_q;
  assign start_o   = start_q;
  assign abort_o   = abort_q;
  assign op_o      = op_q;
  assign asid_o    = asid_q;
  assign dst_va_o  = {dst_va_q, 6'b0};
  assign src_va_o  = {src_va_q, 6'b0};
  assign length_o  = {length_q, 6'b0};
  assign pattern_o = pattern_q;

  // Registers decode the low address bits only; the decoder checked the rest.
  logic unused_adr;
  assign unused_adr = ^{adr_i[29:10], dat_i[5:0]};

endmodule : gpu_engine_regs
