// Platform control registers, a Wishbone slave (single-cycle registered ACK).
//
// Identity, a scratch word, and the DDR size and boot argument straps. A write
// to EXIT raises exit_valid_o for one cycle with the code; the simulation
// harness stops on it, and on a board it is left unconnected.
module wb_sysctl
  import gmmu_soc_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        cyc_i,
  input  logic        stb_i,
  input  logic        we_i,
  input  logic [29:0] adr_i,
  input  logic [31:0] dat_i,
  output logic        ack_o,
  output logic [31:0] dat_o,

  input  logic [31:0] boot_arg_i,
  input  logic [15:0] ddr_size_mb_i,
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o
);

  logic        ack_q;
  logic [31:0] scratch_q;
  logic [15:0] reg_off;
  logic        access;

  assign reg_off = {4'b0, adr_i[9:0], 2'b00};  // offset within the 4 KiB block
  assign access  = cyc_i && stb_i && !ack_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ack_q        <= 1'b0;
      scratch_q    <= '0;
      exit_valid_o <= 1'b0;
      exit_code_o  <= '0;
      dat_o        <= '0;
    end else begin
      ack_q        <= access;
      exit_valid_o <= access && we_i && (reg_off == SYSCTL_EXIT);
      if (access && we_i && (reg_off == SYSCTL_EXIT))    exit_code_o <= dat_i;
      if (access && we_i && (reg_off == SYSCTL_SCRATCH)) scratch_q   <= dat_i;
      if (access && !we_i) begin
        unique case (reg_off)
          SYSCTL_ID:          dat_o <= SYSCTL_MAGIC;
          SYSCTL_BOOT_ARG:    dat_o <= boot_arg_i;
          SYSCTL_DDR_SIZE_MB: dat_o <= {16'b0, ddr_size_mb_i};
          SYSCTL_SCRATCH:     dat_o <= scratch_q;
          default:            dat_o <= '0;
        endcase
      end
    end
  end

  assign ack_o = ack_q;

  // Registers decode the low address bits only; the decoder checked the rest.
  logic unused_adr;
  assign unused_adr = ^adr_i[29:10];

endmodule : wb_sysctl
