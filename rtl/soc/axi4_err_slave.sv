// SPDX-License-Identifier: Apache-2.0
// AXI4 error slave: answers every burst with an error response, so a master
// whose request has nowhere to go (a page in a segment with no memory behind
// it, a board without a system-memory bridge) finishes instead of hanging.
//
// One read and one write burst at a time. Timing: AR is taken when no read
// is being answered; its ARLEN+1 R beats (RRESP = Resp, RDATA 0, RLAST on
// the last) follow from the next cycle, one per cycle while RREADY. AW is
// taken when no write is open; its W beats are taken at once (WREADY is 1
// while the write is open) up to WLAST, and B (BRESP = Resp) follows the
// next cycle. Every output is registered state; no input-to-output path.
module axi4_err_slave #(
  parameter int unsigned IdW  = 4,
  parameter logic [1:0]  Resp = 2'b11   // DECERR: nothing decodes there
) (
  input  logic           clk_i,
  input  logic           rst_ni,

  input  logic           awvalid_i,
  output logic           awready_o,
  input  logic [IdW-1:0] awid_i,
  input  logic           wvalid_i,
  output logic           wready_o,
  input  logic           wlast_i,
  output logic           bvalid_o,
  input  logic           bready_i,
  output logic [IdW-1:0] bid_o,
  output logic [1:0]     bresp_o,

  input  logic           arvalid_i,
  output logic           arready_o,
  input  logic [IdW-1:0] arid_i,
  input  logic [7:0]     arlen_i,
  output logic           rvalid_o,
  input  logic           rready_i,
  output logic [IdW-1:0] rid_o,
  output logic [63:0]    rdata_o,
  output logic [1:0]     rresp_o,
  output logic           rlast_o
);

  // ---------------------------------------------------------------- reads
  logic           r_busy_d, r_busy_q;
  logic [7:0]     r_left_d, r_left_q;   // beats after the one on the bus
  logic [IdW-1:0] r_id_d, r_id_q;

  always_comb begin
    r_busy_d = r_busy_q;
    r_left_d = r_left_q;
    r_id_d   = r_id_q;
    if (!r_busy_q && arvalid_i) begin
      r_busy_d = 1'b1;
      r_left_d = arlen_i;
      r_id_d   = arid_i;
    end else if (r_busy_q && rready_i) begin
      if (r_left_q == '0) r_busy_d = 1'b0;
      else                r_left_d = r_left_q - 8'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_busy_q <= 1'b0;
      r_left_q <= '0;
      r_id_q   <= '0;
    end else begin
      r_busy_q <= r_busy_d;
      r_left_q <= r_left_d;
      r_id_q   <= r_id_d;
    end
  end

  assign arready_o = !r_busy_q;
  assign rvalid_o  = r_busy_q;
  assign rid_o     = r_id_q;
  assign rdata_o   = '0;
  assign rresp_o   = Resp;
  assign rlast_o   = r_busy_q && (r_left_q == '0);

  // --------------------------------------------------------------- writes
  logic           w_open_d, w_open_q;   // AW taken, WLAST not yet
  logic           b_valid_d, b_valid_q;
  logic [IdW-1:0] b_id_d, b_id_q;

  always_comb begin
    w_open_d  = w_open_q;
    b_valid_d = b_valid_q;
    b_id_d    = b_id_q;
    if (!w_open_q && !b_valid_q && awvalid_i) begin
      w_open_d = 1'b1;
      b_id_d   = awid_i;
    end
    if (w_open_q && wvalid_i && wlast_i) begin
      w_open_d  = 1'b0;
      b_valid_d = 1'b1;
    end
    if (b_valid_q && bready_i) b_valid_d = 1'b0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_open_q  <= 1'b0;
      b_valid_q <= 1'b0;
      b_id_q    <= '0;
    end else begin
      w_open_q  <= w_open_d;
      b_valid_q <= b_valid_d;
      b_id_q    <= b_id_d;
    end
  end

  assign awready_o = !w_open_q && !b_valid_q;
  assign wready_o  = w_open_q;
  assign bvalid_o  = b_valid_q;
  assign bid_o     = b_id_q;
  assign bresp_o   = Resp;

endmodule : axi4_err_slave
