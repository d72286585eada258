// SPDX-License-Identifier: Apache-2.0
// Paging engine stop control: latches the error that stops the engine and
// sequences CTRL.RESTART.
//
// Errors arrive as events from NSrc sources (the packet decoder's
// MALFORMED/RANGE, COPY read errors, write errors of either port), each
// with the index of its packet (the PACKETS_DONE value the packet has) and
// an address. Responses of different ports and the decoder's verdicts come
// back out of packet order, so the error kept is the one of the earliest
// packet, not the first in time: then, once the engine has drained,
// PACKETS_DONE == ERR_PACKET (packets complete in order and the failing one
// never does). Indices are compared relative to PACKETS_DONE, so they may
// wrap.
//
// A MALFORMED or RANGE packet stops only what follows it (stop_o): the
// packets before it complete. An AXI error also aborts (abort_o) what is
// left of the packets already started.
//
// RESTART stops and aborts like an AXI error, waits until nothing is
// in flight (drained_i), then pulses flush_o for one cycle: every block
// drops what it holds, the consumer and TAIL move to HEAD, and the error
// clears. Error events during that drain are ignored (their packets are
// being dropped).
//
// Timing: stop_o and the error outputs are registers; err_raise_o is a
// pulse in the cycle the error is latched (STATUS.ERROR rises the cycle
// after); flush_o is combinational from registers and drained_i.
module paging_ctrl #(
  parameter int unsigned NSrc = 4
) (
  input  logic               clk_i,
  input  logic               rst_ni,

  input  logic [NSrc-1:0]    ev_valid_i,
  input  logic [NSrc*3-1:0]  ev_code_i,
  input  logic [NSrc*32-1:0] ev_pkt_i,
  input  logic [NSrc*64-1:0] ev_addr_i,
  input  logic [31:0]        packets_done_i,

  input  logic               restart_i,     // pulse: CTRL.RESTART
  input  logic               drained_i,     // nothing in flight anywhere

  output logic               stop_o,        // start no new packet
  output logic               abort_o,       // also drop the rest of the packets started
  output logic               err_o,
  output logic               restarting_o,
  output logic [2:0]         err_code_o,
  output logic [31:0]        err_pkt_o,
  output logic [63:0]        err_addr_o,
  output logic               err_raise_o,
  output logic               flush_o
);

  logic        err_q, restart_q;
  logic [2:0]  code_q;
  logic [31:0] pkt_q;
  logic [63:0] addr_q;

  // The earliest event of this cycle.
  logic        ev_any;
  logic [2:0]  ev_code;
  logic [31:0] ev_pkt, ev_rel;
  logic [63:0] ev_addr;

  always_comb begin
    ev_any  = 1'b0;
    ev_code = '0;
    ev_pkt  = '0;
    ev_rel  = '0;
    ev_addr = '0;
    for (int unsigned i = 0; i < NSrc; i++) begin
      if (ev_valid_i[i] &&
          (!ev_any || (ev_pkt_i[i*32 +: 32] - packets_done_i) < ev_rel)) begin
        ev_any  = 1'b1;
        ev_code = ev_code_i[i*3 +: 3];
        ev_pkt  = ev_pkt_i[i*32 +: 32];
        ev_rel  = ev_pkt_i[i*32 +: 32] - packets_done_i;
        ev_addr = ev_addr_i[i*64 +: 64];
      end
    end
  end

  logic take;
  assign take        = ev_any && !restart_q && (!err_q || ev_rel < (pkt_q - packets_done_i));
  assign err_raise_o = ev_any && !restart_q && !err_q;
  assign flush_o     = restart_q && drained_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q     <= 1'b0;
      restart_q <= 1'b0;
      code_q    <= '0;
      pkt_q     <= '0;
      addr_q    <= '0;
    end else begin
      if (flush_o) begin
        err_q     <= 1'b0;
        restart_q <= 1'b0;
        code_q    <= '0;
      end else begin
        if (restart_i) restart_q <= 1'b1;
        if (take) begin
          err_q  <= 1'b1;
          code_q <= ev_code;
          pkt_q  <= ev_pkt;
          addr_q <= ev_addr;
        end
      end
    end
  end

  // A bad packet stops the engine before it: the packets started earlier
  // finish. An AXI error (of the earliest failing packet) or RESTART also
  // drops what is left of the packets started.
  assign stop_o       = err_q || restart_q;
  assign abort_o      = restart_q || (err_q && (code_q == 3'(gmmu_paging_pkg::PAGING_ERR_AXI_READ) ||
                                                code_q == 3'(gmmu_paging_pkg::PAGING_ERR_AXI_WRITE)));
  assign err_o        = err_q;
  assign restarting_o = restart_q;
  assign err_code_o   = code_q;
  assign err_pkt_o    = pkt_q;
  assign err_addr_o   = addr_q;

`ifndef SYNTHESIS
  // Every event names a real error code.
  for (genvar i = 0; i < NSrc; i++) begin : gen_ev_check
    always_ff @(posedge clk_i) begin
      if (rst_ni) ev_code_known: assert (!ev_valid_i[i] ||
          (ev_code_i[i*3 +: 3] != 3'(gmmu_paging_pkg::PAGING_ERR_NONE) &&
           ev_code_i[i*3 +: 3] <= 3'(gmmu_paging_pkg::PAGING_ERR_AXI_WRITE)));
    end
  end
`endif

endmodule : paging_ctrl
