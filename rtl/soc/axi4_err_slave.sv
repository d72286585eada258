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
//
// Ports are axi4_pkg structs; IdW is how many ID bits the masters use (the
// rest are 0), and only those are kept.
module axi4_err_slave
  import axi4_pkg::*;
#(
  parameter int unsigned IdW  = 4,
  parameter logic [1:0]  Resp = 2'b11   // DECERR: nothing decodes there
) (
  input  logic      clk_i,
  input  logic      rst_ni,

  input  axi4_req_t req_i,
  output axi4_rsp_t rsp_o
);

  // ---------------------------------------------------------------- reads
  logic           r_busy_d, r_busy_q;
  logic [7:0]     r_left_d, r_left_q;   // beats after the one on the bus
  logic [IdW-1:0] r_id_d, r_id_q;

  always_comb begin
    r_busy_d = r_busy_q;
    r_left_d = r_left_q;
    r_id_d   = r_id_q;
    if (!r_busy_q && req_i.ar_valid) begin
      r_busy_d = 1'b1;
      r_left_d = req_i.ar.len;
      r_id_d   = req_i.ar.id[IdW-1:0];
    end else if (r_busy_q && req_i.r_ready) begin
      if (r_left_q == '0) r_busy_d = 1'b0;
      else                r_left_d = r_left_q - 8'd1;
    end
  end

  logic clk_gated;  // see the end
  always_ff @(posedge clk_gated or negedge rst_ni) begin
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

  assign rsp_o.ar_ready = !r_busy_q;
  assign rsp_o.r_valid  = r_busy_q;
  assign rsp_o.r        = '{id: ID_W'(r_id_q), data: '0, resp: Resp,
                            last: r_busy_q && (r_left_q == '0)};

  // --------------------------------------------------------------- writes
  logic           w_open_d, w_open_q;   // AW taken, WLAST not yet
  logic           b_valid_d, b_valid_q;
  logic [IdW-1:0] b_id_d, b_id_q;

  always_comb begin
    w_open_d  = w_open_q;
    b_valid_d = b_valid_q;
    b_id_d    = b_id_q;
    if (!w_open_q && !b_valid_q && req_i.aw_valid) begin
      w_open_d = 1'b1;
      b_id_d   = req_i.aw.id[IdW-1:0];
    end
    if (w_open_q && req_i.w_valid && req_i.w.last) begin
      w_open_d  = 1'b0;
      b_valid_d = 1'b1;
    end
    if (b_valid_q && req_i.b_ready) b_valid_d = 1'b0;
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
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

  assign rsp_o.aw_ready = !w_open_q && !b_valid_q;
  assign rsp_o.w_ready  = w_open_q;
  assign rsp_o.b_valid  = b_valid_q;
  assign rsp_o.b        = '{id: ID_W'(b_id_q), resp: Resp};

  // Only the IDs, lengths, handshakes and WLAST matter here.
  logic unused;
  assign unused = ^{req_i};

  // The slave's clock skips its edges while nothing is offered to it and it
  // owes nothing (prim_sim_clock_gate: in the Verilator build only).
  logic active;
  assign active = req_i.ar_valid || req_i.aw_valid || req_i.w_valid || rsp_o.r_valid ||
                  rsp_o.b_valid || r_busy_q || w_open_q;
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (active),
    .clk_o    (clk_gated)
  );

endmodule : axi4_err_slave
