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

  // Register port (axi4lite_to_reg's): the low WindowBits address bits
  input  axi4_pkg::reg_req_t    reg_i,
  output axi4_pkg::reg_rsp_t    reg_o,

  // AXI4 master (axi4_pkg): one single 64-bit beat at a time, ID 0
  output axi4_pkg::axi4_req_t   axi_o,
  input  axi4_pkg::axi4_rsp_t   axi_i
);

  typedef enum logic [2:0] { StIdle, StRead, StReadData, StWrite, StWriteResp, StDone } state_e;
  state_e      state_q, state_d;
  logic [31:0] addr_q;
  logic [32:0] sum;         // base + offset without wrapping
  assign sum = {1'b0, base_i} + {{(33 - WindowBits){1'b0}}, reg_i.addr[WindowBits-1:0]};
  // Beyond 4 GiB or at or above the firmware's limit (its own DDR area):
  // no transfer, the error is known at once.
  logic        refused;
  assign refused = sum >= {1'b0, limit_i};
  logic        aw_done_q, w_done_q, err_q;
  logic [31:0] rdata_q;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle:      if (reg_i.req) state_d = refused ? StDone : (reg_i.we ? StWrite : StRead);
      StRead:      if (axi_i.ar_ready) state_d = StReadData;
      StReadData:  if (axi_i.r_valid) state_d = StDone;
      StWrite:     if ((aw_done_q || axi_i.aw_ready) && (w_done_q || axi_i.w_ready)) state_d = StWriteResp;
      StWriteResp: if (axi_i.b_valid) state_d = StDone;
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
      if (state_q == StIdle && reg_i.req) begin
        addr_q    <= sum[31:0];
        aw_done_q <= 1'b0;
        w_done_q  <= 1'b0;
        err_q     <= refused;
        rdata_q   <= '1;
      end
      if (state_q == StWrite) begin
        if (axi_i.aw_ready) aw_done_q <= 1'b1;
        if (axi_i.w_ready)  w_done_q  <= 1'b1;
      end
      if (state_q == StReadData && axi_i.r_valid) begin
        err_q   <= (axi_i.r.resp != 2'b00);
        if (axi_i.r.resp != 2'b00) rdata_q <= '1;
        else if (addr_q[2])       rdata_q <= axi_i.r.data[63:32];
        else                      rdata_q <= axi_i.r.data[31:0];
      end
      if (state_q == StWriteResp && axi_i.b_valid) err_q <= (axi_i.b.resp != 2'b00);
    end
  end

  assign reg_o = '{ack: (state_q == StDone), err: err_q, rdata: rdata_q};

  always_comb begin
    axi_o          = '0;
    axi_o.ar_valid = (state_q == StRead);
    axi_o.ar.addr  = axi4_pkg::ADDR_W'({addr_q[31:3], 3'b000});
    axi_o.ar.size  = 3'd3;
    axi_o.ar.burst = 2'b01;
    axi_o.r_ready  = (state_q == StReadData);
    axi_o.aw_valid = (state_q == StWrite) && !aw_done_q;
    axi_o.aw       = axi_o.ar;
    axi_o.w_valid  = (state_q == StWrite) && !w_done_q;
    axi_o.w.data   = {reg_i.wdata, reg_i.wdata};
    axi_o.w.strb   = addr_q[2] ? {reg_i.wstrb, 4'b0000} : {4'b0000, reg_i.wstrb};
    axi_o.w.last   = 1'b1;
    axi_o.b_ready  = (state_q == StWriteResp);
  end

  // Accesses are whole words: the two low address bits are always zero.
  // A single ID: the response IDs carry nothing; nor does RLAST of a
  // single beat.
  logic unused;
  assign unused = ^{addr_q[1:0], axi_i.b.id, axi_i.r.id, axi_i.r.last, reg_i.addr};

endmodule : bar1_aperture
