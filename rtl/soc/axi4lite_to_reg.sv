// SPDX-License-Identifier: Apache-2.0
// AXI4-Lite slave to a simple register request port.
//
// The shape a PCIe-to-AXI bridge gives for a BAR (Xilinx AXI-PCIe / XDMA
// AXI4-Lite master, LitePCIe): 32-bit data, one transaction at a time. A
// write needs both AW and W; a pending write goes before a pending read, as
// PCIe orders posted writes before later reads. The register port answers
// with ack (any later cycle) and err, which becomes SLVERR.
// Latency: request one cycle after the handshake, response one cycle after
// the acknowledge.
module axi4lite_to_reg #(
  parameter int unsigned AddrWidth = 16
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,

  // AXI4-Lite slave: the low AddrWidth address bits are the register's
  input  axi4_pkg::axil_req_t  axil_i,
  output axi4_pkg::axil_rsp_t  axil_o,

  // Register port (axi4_pkg): the low AddrWidth address bits are the BAR's
  output axi4_pkg::reg_req_t   reg_o,
  input  axi4_pkg::reg_rsp_t   reg_i
);

  localparam logic [1:0] RespOkay = 2'b00, RespSlvErr = 2'b10;

  typedef enum logic [1:0] { StIdle, StAccess, StWriteResp, StReadResp } state_e;
  state_e state_q, state_d;

  logic take_write, take_read;
  assign take_write = (state_q == StIdle) && axil_i.aw_valid && axil_i.w_valid;
  assign take_read  = (state_q == StIdle) && axil_i.ar_valid && !take_write;

  logic                 we_q;
  logic [AddrWidth-1:0] addr_q;
  logic [31:0]          wdata_q, rdata_q;
  logic [3:0]           wstrb_q;
  logic [1:0]           bresp_q, rresp_q;

  assign axil_o = '{aw_ready: take_write, w_ready: take_write,
                    b_valid: (state_q == StWriteResp), b_resp: bresp_q,
                    ar_ready: take_read, r_valid: (state_q == StReadResp),
                    r_data: rdata_q, r_resp: rresp_q};

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:      if (take_write || take_read) state_d = StAccess;
      StAccess:    if (reg_i.ack) state_d = we_q ? StWriteResp : StReadResp;
      StWriteResp: if (axil_i.b_ready) state_d = StIdle;
      StReadResp:  if (axil_i.r_ready) state_d = StIdle;
      default:     state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= StIdle;
      we_q        <= 1'b0;
      addr_q      <= '0;
      wdata_q     <= '0;
      wstrb_q     <= '0;
      rdata_q     <= '0;
      bresp_q     <= RespOkay;
      rresp_q     <= RespOkay;
    end else begin
      state_q <= state_d;
      if (take_write) begin
        we_q        <= 1'b1;
        addr_q      <= axil_i.aw_addr[AddrWidth-1:0];
        wdata_q     <= axil_i.w_data;
        wstrb_q     <= axil_i.w_strb;
      end else if (take_read) begin
        we_q        <= 1'b0;
        addr_q      <= axil_i.ar_addr[AddrWidth-1:0];
      end
      if (state_q == StAccess && reg_i.ack) begin
        rdata_q <= reg_i.rdata;
        bresp_q <= reg_i.err ? RespSlvErr : RespOkay;
        rresp_q <= reg_i.err ? RespSlvErr : RespOkay;
      end
    end
  end

  assign reg_o = '{req: (state_q == StAccess), we: we_q, addr: 32'(addr_q), wdata: wdata_q,
                   wstrb: wstrb_q};

  // A BAR's addresses are AddrWidth bits (the rest 0).
  logic unused;
  assign unused = ^{axil_i.aw_addr, axil_i.ar_addr};

endmodule : axi4lite_to_reg
