// SPDX-License-Identifier: Apache-2.0
// Wishbone (32-bit, CPU side) to AXI4 master (64-bit, DDR side) bridge.
//
// Reads: a single read becomes a one-beat AXI read; an incrementing Wishbone
// burst (CTI = 3'b010, a cache-line refill) becomes one AXI INCR burst from
// the requested word to the end of its CPU cache line, so a 32-byte refill is
// four 64-bit beats. Each 64-bit beat serves two Wishbone words. If the
// master ends a burst early, the remaining beats are drained before the next
// request. Writes are single beats with byte strobes; the Wishbone ACK waits
// for the AXI write response, so a bus error reaches the CPU as ERR.
// Latency: one cycle to issue, the memory's latency, then one Wishbone word
// every second cycle. One transaction is outstanding at a time.
module wb_to_axi4
  import gmmu_soc_pkg::*;
#(
  parameter int unsigned AddrWidth = 30,   // DDR offset bits (1 GiB window)
  parameter logic [3:0]  AxiId     = 4'd0
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Wishbone slave
  input  wb_pkg::wb_req_t wb_i,
  output wb_pkg::wb_rsp_t wb_o,

  // AXI4 master (axi4_pkg: ID AxiId, 32-bit addresses, user 0)
  output axi4_pkg::axi4_req_t axi_o,
  input  axi4_pkg::axi4_rsp_t axi_i
);

  localparam logic [2:0] CtiIncr   = 3'b010;
  localparam logic [1:0] BurstIncr = 2'b01;
  localparam int unsigned LineBeats = CPU_LINE_BYTES / DDR_AXI_DATA_BYTES;
  localparam int unsigned BeatBits  = $clog2(LineBeats);

  typedef enum logic [2:0] {
    StIdle, StReadAddr, StRead, StDrain, StWrite, StWriteResp
  } state_e;

  state_e      state_q, state_d;
  logic        ack_q, err_q;
  logic [31:0] dat_q;

  logic [31:0] beat_addr;            // 8-byte aligned byte address of the request
  logic [31:0] rbuf_addr_q;          // address of the beat held in rbuf
  logic [31:0] next_beat_addr_q;     // address of the next beat to arrive
  logic [63:0] rbuf_q;
  logic        rbuf_valid_q, rbuf_err_q, rbuf_last_q;
  logic        aw_done_q, w_done_q;
  logic [7:0]  arlen_q;
  logic        serve;                // answer the pending Wishbone read now
  logic        request;

  assign request   = wb_i.cyc && wb_i.stb && !ack_q && !err_q;
  assign beat_addr = {{(32 - AddrWidth){1'b0}}, wb_i.adr[AddrWidth-3:1], 3'b000};
  assign serve     = (state_q == StRead) && request && !wb_i.we && rbuf_valid_q &&
                     (beat_addr == rbuf_addr_q);

  // A burst read runs to the end of the cache line holding the first word.
  function automatic logic [7:0] burst_len(input logic [BeatBits-1:0] beat_in_line,
                                           input logic [2:0] cti);
    return (cti == CtiIncr) ? 8'(LineBeats - 1 - 32'(beat_in_line)) : 8'd0;
  endfunction

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle: begin
        if (request) state_d = wb_i.we ? StWrite : StReadAddr;
      end
      StReadAddr: if (axi_i.ar_ready) state_d = StRead;
      StRead: begin
        // Finished when the master ends its burst, or left for another
        // address; drain whatever the memory still owes.
        if (serve && wb_i.cti != CtiIncr) begin
          state_d = (rbuf_last_q) ? StIdle : StDrain;
        end else if (serve && wb_i.adr[0] && rbuf_last_q) begin
          state_d = StIdle;
        end else if (!wb_i.cyc || (request && (wb_i.we || (rbuf_valid_q && beat_addr != rbuf_addr_q)))) begin
          state_d = (rbuf_valid_q && rbuf_last_q) ? StIdle : StDrain;
        end
      end
      StDrain: if (axi_i.r_valid && axi_i.r.last) state_d = StIdle;
      StWrite: if ((aw_done_q || axi_i.aw_ready) && (w_done_q || axi_i.w_ready)) state_d = StWriteResp;
      StWriteResp: if (axi_i.b_valid) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q          <= StIdle;
      ack_q            <= 1'b0;
      err_q            <= 1'b0;
      dat_q            <= '0;
      rbuf_q           <= '0;
      rbuf_valid_q     <= 1'b0;
      rbuf_err_q       <= 1'b0;
      rbuf_last_q      <= 1'b0;
      rbuf_addr_q      <= '0;
      next_beat_addr_q <= '0;
      aw_done_q        <= 1'b0;
      w_done_q         <= 1'b0;
      arlen_q          <= '0;
    end else begin
      state_q <= state_d;
      ack_q   <= 1'b0;
      err_q   <= 1'b0;

      if (state_q == StIdle && request) begin
        next_beat_addr_q <= beat_addr;
        arlen_q          <= burst_len(wb_i.adr[BeatBits:1], wb_i.cti);
        aw_done_q        <= 1'b0;
        w_done_q         <= 1'b0;
        rbuf_valid_q     <= 1'b0;
      end

      // Read data: a one-beat buffer in front of the Wishbone side.
      if (axi_i.r_valid && axi_o.r_ready && state_q == StRead) begin
        rbuf_q           <= axi_i.r.data;
        rbuf_err_q       <= (axi_i.r.resp != 2'b00);
        rbuf_last_q      <= axi_i.r.last;
        rbuf_addr_q      <= next_beat_addr_q;
        rbuf_valid_q     <= 1'b1;
        next_beat_addr_q <= next_beat_addr_q + 32'd8;
      end
      if (serve) begin
        ack_q <= !rbuf_err_q;
        err_q <= rbuf_err_q;
        dat_q <= wb_i.adr[0] ? rbuf_q[63:32] : rbuf_q[31:0];
        // The upper word, or a lone word, uses the beat up.
        if (wb_i.adr[0] || wb_i.cti != CtiIncr) rbuf_valid_q <= 1'b0;
      end
      if (state_d == StDrain || state_d == StIdle) rbuf_valid_q <= 1'b0;

      if (state_q == StWrite) begin
        if (axi_i.aw_ready) aw_done_q <= 1'b1;
        if (axi_i.w_ready)  w_done_q  <= 1'b1;
      end
      if (state_q == StWriteResp && axi_i.b_valid) begin
        ack_q <= (axi_i.b.resp == 2'b00);
        err_q <= (axi_i.b.resp != 2'b00);
      end
    end
  end

  assign wb_o.ack = ack_q;
  assign wb_o.err = err_q;
  assign wb_o.dat = dat_q;

  always_comb begin
    axi_o          = '0;
    axi_o.ar_valid = (state_q == StReadAddr);
    axi_o.ar.id    = axi4_pkg::ID_W'(AxiId);
    axi_o.ar.addr  = axi4_pkg::ADDR_W'(next_beat_addr_q);
    axi_o.ar.len   = arlen_q;
    axi_o.ar.size  = 3'd3;           // 64-bit beats
    axi_o.ar.burst = BurstIncr;
    axi_o.r_ready  = (state_q == StDrain) || (state_q == StRead && !rbuf_valid_q);

    axi_o.aw_valid = (state_q == StWrite) && !aw_done_q;
    axi_o.aw       = axi_o.ar;
    axi_o.aw.len   = 8'd0;
    axi_o.w_valid  = (state_q == StWrite) && !w_done_q;
    axi_o.w.data   = {wb_i.dat, wb_i.dat};
    axi_o.w.strb   = wb_i.adr[0] ? {wb_i.sel, 4'b0000} : {4'b0000, wb_i.sel};
    axi_o.w.last   = 1'b1;
    axi_o.b_ready  = (state_q == StWriteResp);
  end

  // Single-ID master: the response ids carry no information here. The top
  // address bits only chose the cached or uncached alias.
  logic unused_ids;
  assign unused_ids = ^{axi_i.b.id, axi_i.r.id, wb_i.adr[29:AddrWidth-2]};

endmodule : wb_to_axi4
