// SPDX-License-Identifier: Apache-2.0
// VRAM aperture: the host's BAR1 window into DDR (WDDM's programmable CPU
// host aperture). A BAR1 access at offset o reaches DDR offset base + o,
// where base is the host-programmed MBOX.APERTURE_BASE.
//
// Takes the register-port side of axi4lite_to_reg (32-bit accesses) and
// makes one single-beat AXI4 transfer on the 64-bit DDR bus per access,
// with byte strobes on the right half. A DDR error response (an address
// beyond the DDR) becomes an error on the register port, hence SLVERR on
// the PCIe side. base + o is taken at its full width (33 bits): a sum at or
// beyond 4 GiB is beyond any DDR this bus reaches and answers the error at
// once, without a DDR transfer, instead of wrapping to a low address. So
// does a sum at or above limit (MBOX.APERTURE_LIMIT, set by the firmware to
// the end of its VRAM segment: the DDR above it is the firmware's own). A
// failed read returns all ones, as a PCIe error completion does. Latency:
// the DDR's, plus two cycles; a refused access, two cycles.
module bar1_aperture #(
  parameter int unsigned WindowBits = 24
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  input  logic [31:0]           base_i,      // DDR offset of the window
  input  logic [31:0]           limit_i,     // DDR offsets at or above it are refused

  input  logic                  req_i,
  input  logic                  we_i,
  input  logic [WindowBits-1:0] addr_i,
  input  logic [31:0]           wdata_i,
  input  logic [3:0]            wstrb_i,
  output logic                  ack_o,
  output logic                  err_o,
  output logic [31:0]           rdata_o,

  // AXI4 master (one transfer at a time)
  output logic                  awvalid_o,
  input  logic                  awready_i,
  output logic [31:0]           awaddr_o,
  output logic                  wvalid_o,
  input  logic                  wready_i,
  output logic [63:0]           wdata_o,
  output logic [7:0]            wstrb_o,
  input  logic                  bvalid_i,
  output logic                  bready_o,
  input  logic [1:0]            bresp_i,
  output logic                  arvalid_o,
  input  logic                  arready_i,
  output logic [31:0]           araddr_o,
  input  logic                  rvalid_i,
  output logic                  rready_o,
  input  logic [63:0]           rdata_i,
  input  logic [1:0]            rresp_i
);

  typedef enum logic [2:0] { StIdle, StRead, StReadData, StWrite, StWriteResp, StDone } state_e;
  state_e      state_q, state_d;
  logic [31:0] addr_q;
  logic [32:0] sum;         // base + offset without wrapping
  assign sum = {1'b0, base_i} + {{(33 - WindowBits){1'b0}}, addr_i};
  // Beyond 4 GiB or at or above the firmware's limit (its own DDR area):
  // no transfer, the error is known at once.
  logic        refused;
  assign refused = sum >= {1'b0, limit_i};
  logic        aw_done_q, w_done_q, err_q;
  logic [31:0] rdata_q;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:      if (req_i) state_d = refused ? StDone : (we_i ? StWrite : StRead);
      StRead:      if (arready_i) state_d = StReadData;
      StReadData:  if (rvalid_i) state_d = StDone;
      StWrite:     if ((aw_done_q || awready_i) && (w_done_q || wready_i)) state_d = StWriteResp;
      StWriteResp: if (bvalid_i) state_d = StDone;
      StDone:      state_d = StIdle;   // the one-cycle acknowledge
      default:     state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= StIdle;
      addr_q    <= '0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      err_q     <= 1'b0;
      rdata_q   <= '0;
    end else begin
      state_q <= state_d;
      if (state_q == StIdle && req_i) begin
        addr_q    <= sum[31:0];
        aw_done_q <= 1'b0;
        w_done_q  <= 1'b0;
        err_q     <= refused;
        rdata_q   <= '1;
      end
      if (state_q == StWrite) begin
        if (awready_i) aw_done_q <= 1'b1;
        if (wready_i)  w_done_q  <= 1'b1;
      end
      if (state_q == StReadData && rvalid_i) begin
        err_q   <= (rresp_i != 2'b00);
        if (rresp_i != 2'b00)   rdata_q <= '1;
        else if (addr_q[2])     rdata_q <= rdata_i[63:32];
        else                    rdata_q <= rdata_i[31:0];
      end
      if (state_q == StWriteResp && bvalid_i) err_q <= (bresp_i != 2'b00);
    end
  end

  assign ack_o   = (state_q == StDone);
  assign err_o   = err_q;
  assign rdata_o = rdata_q;

  assign arvalid_o = (state_q == StRead);
  assign araddr_o  = {addr_q[31:3], 3'b000};
  assign rready_o  = (state_q == StReadData);
  assign awvalid_o = (state_q == StWrite) && !aw_done_q;
  assign awaddr_o  = {addr_q[31:3], 3'b000};
  assign wvalid_o  = (state_q == StWrite) && !w_done_q;
  assign wdata_o   = {wdata_i, wdata_i};
  assign wstrb_o   = addr_q[2] ? {wstrb_i, 4'b0000} : {4'b0000, wstrb_i};
  assign bready_o  = (state_q == StWriteResp);

  // Accesses are whole words: the two low address bits are always zero.
  logic unused;
  assign unused = ^{addr_q[1:0]};

endmodule : bar1_aperture
