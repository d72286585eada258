// SPDX-License-Identifier: Apache-2.0
// Platform control registers, a Wishbone slave (single-cycle registered ACK).
//
// Identity, a scratch word, and the DDR size and boot argument straps. A write
// to EXIT raises exit_valid_o for one cycle with the code; the simulation
// harness stops on it, and on a board it is left unconnected.
// It also records CPU bus errors (bus_err_i pulses with the address) and
// raises buserr_irq_o until firmware clears BUSERR_STATUS.PENDING.
module wb_sysctl
  import gmmu_soc_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  input  logic [31:0] boot_arg_i,
  input  logic [15:0] ddr_size_mb_i,
  input  logic        bus_err_i,
  input  logic        bus_err_we_i,
  input  logic [31:0] bus_err_addr_i,
  output logic        buserr_irq_o,
  input  logic        ibus_busy_i,
  input  logic        dbus_busy_i,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o
);

  logic [31:0] scratch_q;
  logic        err_pending_q, err_write_q;
  logic [31:0] err_addr_q;
  logic [15:0] err_count_q;
  logic        err_clear;
  logic [31:0] ibus_busy_q, dbus_busy_q;
  logic [15:0] reg_off;
  logic        wr;
  logic [31:0] rdata;

  prim_wb_reg u_port (
    .clk_i, .rst_ni, .wb_i, .wb_o,
    .ready_i (1'b1), .wr_o (wr), .rdata_i (rdata)
  );

  assign reg_off = {4'b0, wb_i.adr[9:0], 2'b00};  // offset within the 4 KiB block
  assign err_clear = wr && (reg_off == SYSCTL_BUSERR_STATUS) &&
                     wb_i.dat[SYSCTL_BUSERR_STATUS_PENDING_LSB];

  // The first error's address is kept until firmware clears it; a new error
  // in the clearing cycle wins, so none goes unreported.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_pending_q <= 1'b0;
      err_write_q   <= 1'b0;
      err_addr_q    <= '0;
      err_count_q   <= '0;
    end else begin
      if (err_clear) err_pending_q <= 1'b0;
      if (bus_err_i && (!err_pending_q || err_clear)) begin
        err_pending_q <= 1'b1;
        err_write_q   <= bus_err_we_i;
        err_addr_q    <= bus_err_addr_i;
      end
      if (bus_err_i && err_count_q != '1) err_count_q <= err_count_q + 16'd1;
    end
  end
  assign buserr_irq_o = err_pending_q;

  // Bus-occupancy counters for firmware profiling.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ibus_busy_q <= '0;
      dbus_busy_q <= '0;
    end else begin
      ibus_busy_q <= ibus_busy_q + 32'(ibus_busy_i);
      dbus_busy_q <= dbus_busy_q + 32'(dbus_busy_i);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scratch_q    <= '0;
      exit_valid_o <= 1'b0;
      exit_code_o  <= '0;
    end else begin
      exit_valid_o <= wr && (reg_off == SYSCTL_EXIT);
      if (wr && (reg_off == SYSCTL_EXIT))    exit_code_o <= wb_i.dat;
      if (wr && (reg_off == SYSCTL_SCRATCH)) scratch_q   <= wb_i.dat;
    end
  end

  always_comb begin
    unique case (reg_off)
      SYSCTL_ID:             rdata = SYSCTL_MAGIC;
      SYSCTL_BOOT_ARG:       rdata = boot_arg_i;
      SYSCTL_DDR_SIZE_MB:    rdata = {16'b0, ddr_size_mb_i};
      SYSCTL_SCRATCH:        rdata = scratch_q;
      SYSCTL_BUSERR_ADDR:    rdata = err_addr_q;
      SYSCTL_PERF_IBUS_BUSY: rdata = ibus_busy_q;
      SYSCTL_PERF_DBUS_BUSY: rdata = dbus_busy_q;
      SYSCTL_BUSERR_STATUS: begin
        rdata = '0;
        rdata[SYSCTL_BUSERR_STATUS_PENDING_LSB]     = err_pending_q;
        rdata[SYSCTL_BUSERR_STATUS_WRITE_LSB]       = err_write_q;
        rdata[SYSCTL_BUSERR_STATUS_COUNT_LSB +: 16] = err_count_q;
      end
      default:               rdata = '0;
    endcase
  end

  // Registers decode the low address bits only; the decoder checked the rest.

endmodule : wb_sysctl
