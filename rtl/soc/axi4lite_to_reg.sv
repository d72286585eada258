// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite slave to a simple register request port.
//
// The shape a PCIe-to-AXI bridge gives for a BAR (Xilinx AXI-PCIe / XDMA
// AXI4-Lite master, LitePCIe): 32-bit data, one transaction at a time. A
// write needs both AW and W; a pending write goes before a pending read, as
// PCIe orders posted writes before later reads. The register port answers
// with reg_ack_i (any later cycle) and reg_err_i, which becomes SLVERR.
// Latency: request one cycle after the handshake, response one cycle after
// the acknowledge.
module axi4lite_to_reg #(
  parameter int unsigned AddrWidth = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  input  logic                 awvalid_i,
  output logic                 awready_o,
  input  logic [AddrWidth-1:0] awaddr_i,
  input  logic                 wvalid_i,
  output logic                 wready_o,
  input  logic [31:0]          wdata_i,
  input  logic [3:0]           wstrb_i,
  output logic                 bvalid_o,
  input  logic                 bready_i,
  output logic [1:0]           bresp_o,
  input  logic                 arvalid_i,
  output logic                 arready_o,
  input  logic [AddrWidth-1:0] araddr_i,
  output logic                 rvalid_o,
  input  logic                 rready_i,
  output logic [31:0]          rdata_o,
  output logic [1:0]           rresp_o,

  output logic                 reg_req_o,
  output logic                 reg_we_o,
  output logic [AddrWidth-1:0] reg_addr_o,
  output logic [31:0]          reg_wdata_o,
  output logic [3:0]           reg_wstrb_o,
  input  logic                 reg_ack_i,
  input  logic                 reg_err_i,
  input  logic [31:0]          reg_rdata_i
);

  localparam logic [1:0] RespOkay = 2'b00, RespSlvErr = 2'b10;

  typedef enum logic [1:0] { StIdle, StAccess, StWriteResp, StReadResp } state_e;
  state_e state_q, state_d;

  logic take_write, take_read;
  assign take_write = (state_q == StIdle) && awvalid_i && wvalid_i;
  assign take_read  = (state_q == StIdle) && arvalid_i && !take_write;

  assign awready_o = take_write;
  assign wready_o  = take_write;
  assign arready_o = take_read;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:      if (take_write || take_read) state_d = StAccess;
      StAccess:    if (reg_ack_i) state_d = reg_we_o ? StWriteResp : StReadResp;
      StWriteResp: if (bready_i) state_d = StIdle;
      StReadResp:  if (rready_i) state_d = StIdle;
      default:     state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      reg_we_o    <= 1'b0;
      reg_addr_o  <= '0;
      reg_wdata_o <= '0;
      reg_wstrb_o <= '0;
      rdata_o     <= '0;
      bresp_o     <= RespOkay;
      rresp_o     <= RespOkay;
    end else begin
      state_q <= state_d;
      if (take_write) begin
        reg_we_o    <= 1'b1;
        reg_addr_o  <= awaddr_i;
        reg_wdata_o <= wdata_i;
        reg_wstrb_o <= wstrb_i;
      end else if (take_read) begin
        reg_we_o    <= 1'b0;
        reg_addr_o  <= araddr_i;
      end
      if (state_q == StAccess && reg_ack_i) begin
        rdata_o <= reg_rdata_i;
        bresp_o <= reg_err_i ? RespSlvErr : RespOkay;
        rresp_o <= reg_err_i ? RespSlvErr : RespOkay;
      end
    end
  end

  assign reg_req_o = (state_q == StAccess);
  assign bvalid_o  = (state_q == StWriteResp);
  assign rvalid_o  = (state_q == StReadResp);

endmodule : axi4lite_to_reg
