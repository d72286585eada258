// SPDX-License-Identifier: Apache-2.0
// UART host link, device side: frames from the host become AXI4-Lite
// accesses on the SoC's BAR0/BAR1 slave ports (axi4_pkg's AXI4-Lite
// structs); answers and MSI interrupts
// go back as frames. The protocol (frame layout, CRC-16, types, status
// codes, the retry and duplicate rules) is in include/gmmu/uartlink.h, its
// constants in gmmu_uartlink_pkg.
//
// Three parts:
//   receive  uart_rx bytes are collected into a 13-byte request after the
//            SOF byte, the CRC-16 running as they arrive. A frame whose
//            bytes stop for FrameTimeoutBytes byte times, whose CRC is wrong
//            or which holds a byte with a bad stop bit is dropped and
//            answered with a NAK; a good one goes to the executor. The NAK
//            waits until the receiver hunts for a SOF and the line has been
//            quiet for NakQuietBytes byte times (bad frames before that
//            share it): sent while the host's bytes still arrive, it would
//            bring the resend into a frame begun at a 0xA5 inside the
//            request, which would then end inside the resend, and so on.
//   execute  one request at a time (stop-and-wait). HELLO clears the
//            duplicate memory. READ/WRITE with the seq and type of the last
//            executed request is answered from that memory without touching
//            the bus; anything else is checked (BAR, offset) and run as one
//            AXI4-Lite transaction with all byte strobes. A request that
//            arrives while the executor is busy is dropped (drop_o): the
//            host's retry timeout covers it. A pending NAK waits for it.
//   transmit 10-byte frames through uart_tx, the CRC computed while they go
//            out. A pending answer goes before an IRQ frame; MSI pulses that
//            arrive meanwhile are OR-ed into one IRQ frame.
//
// Timing: a request's AXI access starts two cycles after its last byte's
// stop bit is sampled; its answer's start bit goes out two cycles after the
// AXI response (when the line is free). ClkDiv is clock cycles per bit.
module uart_bar_bridge
  import gmmu_uartlink_pkg::*;
#(
  parameter int unsigned ClkDiv            = 16,
  parameter int unsigned FrameTimeoutBytes = UARTLINK_FRAME_TIMEOUT_BYTES,
  parameter int unsigned NakQuietBytes     = UARTLINK_NAK_QUIET_BYTES,
  parameter int unsigned Bar0Log2          = 16,  // BAR0 size, log2 bytes
  parameter int unsigned Bar1Log2          = 24   // BAR1 size, log2 bytes (0: none)
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Serial line (rx_i is synchronised inside)
  input  logic        rx_i,
  output logic        tx_o,

  // BAR0 (index 0) and BAR1 (1): AXI4-Lite masters (axi4_pkg). BAR0 gets
  // the offset's low 16 bits, BAR1 its 24; the other address bits are 0.
  output axi4_pkg::axil_req_t [1:0] bar_o,
  input  axi4_pkg::axil_rsp_t [1:0] bar_i,

  // MSI: a one-cycle pulse per vector raised
  input  logic [31:0] msi_i,

  // Status pulses (for LEDs and counters)
  output logic        req_o,     // a request was executed on the bus
  output logic        nak_o,     // a NAK was sent for one or more dropped frames
  output logic        drop_o     // a request was dropped: executor busy
);

  localparam int unsigned TimeoutCycles = FrameTimeoutBytes * 10 * ClkDiv;
  localparam int unsigned GapW = $clog2(TimeoutCycles + 1);
  localparam logic [GapW-1:0] GapMax = GapW'(TimeoutCycles);
  localparam int unsigned QuietCycles = NakQuietBytes * 10 * ClkDiv;
  localparam int unsigned QuietW = $clog2(QuietCycles + 1);
  localparam logic [QuietW-1:0] QuietMax = QuietW'(QuietCycles);
  localparam int unsigned ReqLast = UARTLINK_REQ_BYTES - 2;  // index of the last byte after SOF
  localparam int unsigned RspLast = UARTLINK_RSP_BYTES - 1;

  localparam logic [31:0] HelloData =
      (32'(UARTLINK_VERSION) << UARTLINK_HELLO_VERSION_SHIFT) |
      (32'(Bar0Log2) << UARTLINK_HELLO_BAR0_LOG2_SHIFT) |
      (32'(Bar1Log2) << UARTLINK_HELLO_BAR1_LOG2_SHIFT);

  function automatic logic [15:0] crc16_byte(logic [15:0] crc, logic [7:0] b);
    logic [15:0] c;
    c = crc ^ {b, 8'h00};
    for (int i = 0; i < 8; i++) begin
      c = c[15] ? ((c << 1) ^ UARTLINK_CRC_POLY) : (c << 1);
    end
    crc16_byte = c;
  endfunction

  // ------------------------------------------------------------ UART
  logic       rx_valid, rx_frame_err;
  logic [7:0] rx_data;
  logic       tx_valid, tx_ready;
  logic [7:0] tx_data;

  uart_rx #(.ClkDiv(ClkDiv)) u_rx (
    .clk_i, .rst_ni, .rx_i,
    .valid_o (rx_valid), .data_o (rx_data), .frame_err_o (rx_frame_err)
  );

  uart_tx #(.ClkDiv(ClkDiv)) u_tx (
    .clk_i, .rst_ni,
    .valid_i (tx_valid), .data_i (tx_data), .ready_o (tx_ready), .tx_o
  );

  // ------------------------------------------------------------ receive
  logic            in_frame_q, in_frame_d;
  logic [3:0]      idx_q, idx_d;       // bytes after SOF received so far
  logic [15:0]     rcrc_q, rcrc_d;
  logic            rbad_q, rbad_d;     // a byte of this frame had a bad stop bit
  logic [GapW-1:0] gap_q, gap_d;
  logic [7:0]      f_type_q, f_type_d, f_seq_q, f_seq_d, f_bar_q, f_bar_d;
  logic [23:0]     f_off_q, f_off_d;
  logic [31:0]     f_data_q, f_data_d;

  // One-cycle events (fields: f_*_d of this cycle): a good request for the
  // executor, or a dropped frame for the NAK below
  logic       ev_req, ev_bad;
  logic [7:0] ev_bad_reason;

  logic       rx_byte;
  logic [15:0] rcrc_next;
  assign rx_byte   = rx_valid | rx_frame_err;
  assign rcrc_next = crc16_byte(rcrc_q, rx_data);

  always_comb begin
    in_frame_d    = in_frame_q;
    idx_d         = idx_q;
    rcrc_d        = rcrc_q;
    rbad_d        = rbad_q;
    gap_d         = gap_q;
    f_type_d      = f_type_q;
    f_seq_d       = f_seq_q;
    f_bar_d       = f_bar_q;
    f_off_d       = f_off_q;
    f_data_d      = f_data_q;
    ev_req        = 1'b0;
    ev_bad        = 1'b0;
    ev_bad_reason = UARTLINK_NAK_CRC;

    if (!in_frame_q) begin
      // Hunting: only a clean SOF byte starts a frame.
      if (rx_valid && rx_data == UARTLINK_SOF) begin
        in_frame_d = 1'b1;
        idx_d      = '0;
        rcrc_d     = UARTLINK_CRC_INIT;
        rbad_d     = 1'b0;
        gap_d      = '0;
      end
    end else if (rx_byte) begin
      gap_d  = '0;
      rcrc_d = rcrc_next;
      rbad_d = rbad_q | rx_frame_err;
      idx_d  = idx_q + 1'b1;
      unique case (idx_q)
        4'd0:  f_type_d = rx_data;
        4'd1:  f_seq_d  = rx_data;
        4'd2:  f_bar_d  = rx_data;
        4'd3:  f_off_d[7:0]    = rx_data;
        4'd4:  f_off_d[15:8]   = rx_data;
        4'd5:  f_off_d[23:16]  = rx_data;
        4'd6:  f_data_d[7:0]   = rx_data;
        4'd7:  f_data_d[15:8]  = rx_data;
        4'd8:  f_data_d[23:16] = rx_data;
        4'd9:  f_data_d[31:24] = rx_data;
        default: ;  // 10, 11: the CRC, checked through the running remainder
      endcase
      if (idx_q == 4'(ReqLast)) begin
        in_frame_d = 1'b0;
        if (rbad_d) begin
          ev_bad        = 1'b1;
          ev_bad_reason = UARTLINK_NAK_FRAMING;
        end else if (rcrc_next != 16'h0000) begin
          ev_bad        = 1'b1;
          ev_bad_reason = UARTLINK_NAK_CRC;
        end else if (f_type_q != UARTLINK_HELLO && f_type_q != UARTLINK_READ &&
                     f_type_q != UARTLINK_WRITE) begin
          ev_bad        = 1'b1;
          ev_bad_reason = UARTLINK_NAK_BAD_TYPE;
        end else begin
          ev_req = 1'b1;
        end
      end
    end else if (gap_q == GapMax) begin
      // The rest of the frame is not coming: a byte was lost.
      in_frame_d    = 1'b0;
      ev_bad        = 1'b1;
      ev_bad_reason = UARTLINK_NAK_TIMEOUT;
    end else begin
      gap_d = gap_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_frame_q <= 1'b0;
      idx_q      <= '0;
      rcrc_q     <= UARTLINK_CRC_INIT;
      rbad_q     <= 1'b0;
      gap_q      <= '0;
      f_type_q   <= '0;
      f_seq_q    <= '0;
      f_bar_q    <= '0;
      f_off_q    <= '0;
      f_data_q   <= '0;
    end else begin
      in_frame_q <= in_frame_d;
      idx_q      <= idx_d;
      rcrc_q     <= rcrc_d;
      rbad_q     <= rbad_d;
      gap_q      <= gap_d;
      f_type_q   <= f_type_d;
      f_seq_q    <= f_seq_d;
      f_bar_q    <= f_bar_d;
      f_off_q    <= f_off_d;
      f_data_q   <= f_data_d;
    end
  end

  // ------------------------------------------------------------ execute
  typedef enum logic [2:0] { StIdle, StWrite, StWriteResp, StRead, StReadResp, StRsp } ex_state_e;

  ex_state_e   ex_q, ex_d;
  logic        q_bar1_q, q_bar1_d;     // the access goes to BAR1
  logic [23:0] q_off_q, q_off_d;
  logic [31:0] q_data_q, q_data_d;
  logic [7:0]  q_seq_q, q_seq_d;
  logic        aw_done_q, aw_done_d, w_done_q, w_done_d;

  // The answer being sent, and the memory of the last executed request
  logic [7:0]  rsp_type_q, rsp_type_d, rsp_seq_q, rsp_seq_d, rsp_status_q, rsp_status_d;
  logic [31:0] rsp_data_q, rsp_data_d;
  logic        mem_valid_q, mem_valid_d;
  logic [7:0]  mem_type_q, mem_type_d, mem_seq_q, mem_seq_d, mem_status_q, mem_status_d;
  logic [31:0] mem_data_q, mem_data_d;

  logic rsp_take;  // the transmitter takes the answer this cycle

  // Bus handshakes of the selected BAR
  logic        awready, wready, bvalid, arready, rvalid;
  logic        bresp_err, rresp_err;  // SLVERR or DECERR; EXOKAY counts as OKAY
  logic [31:0] rdata;
  always_comb begin
    awready   = bar_i[q_bar1_q].aw_ready;
    wready    = bar_i[q_bar1_q].w_ready;
    bvalid    = bar_i[q_bar1_q].b_valid;
    bresp_err = bar_i[q_bar1_q].b_resp[1];
    arready   = bar_i[q_bar1_q].ar_ready;
    rvalid    = bar_i[q_bar1_q].r_valid;
    rresp_err = bar_i[q_bar1_q].r_resp[1];
    rdata     = bar_i[q_bar1_q].r_data;
  end

  // Checks of a new request (fields as they are this cycle). The limits
  // have one bit more than an offset, so a 2^24-byte BAR fits.
  localparam logic [UARTLINK_OFFSET_BITS:0] Bar0Limit = (UARTLINK_OFFSET_BITS + 1)'(1) << Bar0Log2;
  localparam logic [UARTLINK_OFFSET_BITS:0] Bar1Limit = (UARTLINK_OFFSET_BITS + 1)'(1) << Bar1Log2;
  logic bad_bar, bad_off, duplicate;
  always_comb begin
    bad_bar = f_bar_d > 8'd1 || (f_bar_d == 8'd1 && Bar1Log2 == 0);
    bad_off = f_off_d[1:0] != 2'b00 ||
              (f_bar_d == 8'd0 && {1'b0, f_off_d} >= Bar0Limit) ||
              (f_bar_d == 8'd1 && {1'b0, f_off_d} >= Bar1Limit);
    duplicate = mem_valid_q && mem_seq_q == f_seq_d && mem_type_q == f_type_d;
  end

  // ------------------------------------------------------------ NAK
  // A dropped frame leaves a NAK pending (the latest reason and seq); it
  // goes out when the line is quiet and the receiver hunts, and a good
  // request the executor takes meanwhile answers in its place.
  logic              nak_pend_q, nak_pend_d;
  logic [7:0]        nak_seq_q, nak_seq_d, nak_reason_q, nak_reason_d;
  logic [QuietW-1:0] quiet_q, quiet_d;   // cycles since the last byte, saturating
  logic              nak_fire;           // the executor sends the NAK now

  always_comb begin
    quiet_d      = rx_byte ? '0 : (quiet_q == QuietMax ? quiet_q : quiet_q + 1'b1);
    nak_fire     = nak_pend_q && !in_frame_q && quiet_q == QuietMax && ex_q == StIdle;
    nak_pend_d   = nak_pend_q && !nak_fire;
    nak_seq_d    = nak_seq_q;
    nak_reason_d = nak_reason_q;
    if (ev_bad) begin
      nak_pend_d   = 1'b1;
      nak_seq_d    = f_seq_d;
      nak_reason_d = ev_bad_reason;
    end else if (ev_req && ex_q == StIdle) begin
      nak_pend_d   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      nak_pend_q   <= 1'b0;
      nak_seq_q    <= '0;
      nak_reason_q <= '0;
      quiet_q      <= '0;
    end else begin
      nak_pend_q   <= nak_pend_d;
      nak_seq_q    <= nak_seq_d;
      nak_reason_q <= nak_reason_d;
      quiet_q      <= quiet_d;
    end
  end

  logic req_pulse, nak_pulse, drop_pulse;

  // The answer type of a READ or WRITE request
  function automatic logic [7:0] rsp_type_of(logic [7:0] req_type);
    rsp_type_of = req_type == UARTLINK_WRITE ? UARTLINK_WRITE_ACK : UARTLINK_READ_RSP;
  endfunction

  always_comb begin
    ex_d         = ex_q;
    q_bar1_d     = q_bar1_q;
    q_off_d      = q_off_q;
    q_data_d     = q_data_q;
    q_seq_d      = q_seq_q;
    aw_done_d    = aw_done_q;
    w_done_d     = w_done_q;
    rsp_type_d   = rsp_type_q;
    rsp_seq_d    = rsp_seq_q;
    rsp_status_d = rsp_status_q;
    rsp_data_d   = rsp_data_q;
    mem_valid_d  = mem_valid_q;
    mem_type_d   = mem_type_q;
    mem_seq_d    = mem_seq_q;
    mem_status_d = mem_status_q;
    mem_data_d   = mem_data_q;
    req_pulse    = 1'b0;
    nak_pulse    = 1'b0;
    drop_pulse   = 1'b0;

    unique case (ex_q)
      StIdle: begin
        if (nak_fire) begin
          nak_pulse    = 1'b1;
          rsp_type_d   = UARTLINK_NAK;
          rsp_seq_d    = nak_seq_q;
          rsp_status_d = nak_reason_q;
          rsp_data_d   = '0;
          ex_d         = StRsp;
        end else if (ev_req) begin
          rsp_seq_d  = f_seq_d;
          rsp_data_d = '0;
          if (f_type_d == UARTLINK_HELLO) begin
            mem_valid_d  = 1'b0;
            rsp_type_d   = UARTLINK_HELLO_ACK;
            rsp_status_d = UARTLINK_ST_OK;
            rsp_data_d   = HelloData;
            ex_d         = StRsp;
          end else if (duplicate) begin
            rsp_type_d   = rsp_type_of(f_type_d);
            rsp_status_d = mem_status_q;
            rsp_data_d   = mem_data_q;
            ex_d         = StRsp;
          end else if (bad_bar || bad_off) begin
            rsp_type_d   = rsp_type_of(f_type_d);
            rsp_status_d = bad_bar ? UARTLINK_ST_BAD_BAR : UARTLINK_ST_BAD_OFFSET;
            rsp_data_d   = f_type_d == UARTLINK_READ ? '1 : '0;
            mem_valid_d  = 1'b1;
            mem_type_d   = f_type_d;
            mem_seq_d    = f_seq_d;
            mem_status_d = rsp_status_d;
            mem_data_d   = rsp_data_d;
            ex_d         = StRsp;
          end else begin
            req_pulse = 1'b1;
            q_bar1_d  = f_bar_d == 8'd1;
            q_off_d   = f_off_d;
            q_data_d  = f_data_d;
            q_seq_d   = f_seq_d;
            aw_done_d = 1'b0;
            w_done_d  = 1'b0;
            ex_d      = f_type_d == UARTLINK_WRITE ? StWrite : StRead;
          end
        end
      end
      StWrite: begin
        if (awready) aw_done_d = 1'b1;
        if (wready)  w_done_d  = 1'b1;
        if ((aw_done_q || awready) && (w_done_q || wready)) ex_d = StWriteResp;
      end
      StWriteResp: begin
        if (bvalid) begin
          rsp_type_d   = UARTLINK_WRITE_ACK;
          rsp_seq_d    = q_seq_q;
          rsp_status_d = bresp_err ? UARTLINK_ST_BUS_ERROR : UARTLINK_ST_OK;
          rsp_data_d   = '0;
          mem_valid_d  = 1'b1;
          mem_type_d   = UARTLINK_WRITE;
          mem_seq_d    = q_seq_q;
          mem_status_d = rsp_status_d;
          mem_data_d   = '0;
          ex_d         = StRsp;
        end
      end
      StRead: begin
        if (arready) ex_d = StReadResp;
      end
      StReadResp: begin
        if (rvalid) begin
          rsp_type_d   = UARTLINK_READ_RSP;
          rsp_seq_d    = q_seq_q;
          rsp_status_d = rresp_err ? UARTLINK_ST_BUS_ERROR : UARTLINK_ST_OK;
          rsp_data_d   = rresp_err ? '1 : rdata;
          mem_valid_d  = 1'b1;
          mem_type_d   = UARTLINK_READ;
          mem_seq_d    = q_seq_q;
          mem_status_d = rsp_status_d;
          mem_data_d   = rsp_data_d;
          ex_d         = StRsp;
        end
      end
      StRsp: begin
        if (rsp_take) ex_d = StIdle;
      end
      default: ex_d = StIdle;
    endcase

    // Busy: a frame that completes now is lost; the host will resend it.
    if (ex_q != StIdle && ev_req) drop_pulse = 1'b1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ex_q         <= StIdle;
      q_bar1_q     <= 1'b0;
      q_off_q      <= '0;
      q_data_q     <= '0;
      q_seq_q      <= '0;
      aw_done_q    <= 1'b0;
      w_done_q     <= 1'b0;
      rsp_type_q   <= '0;
      rsp_seq_q    <= '0;
      rsp_status_q <= '0;
      rsp_data_q   <= '0;
      mem_valid_q  <= 1'b0;
      mem_type_q   <= '0;
      mem_seq_q    <= '0;
      mem_status_q <= '0;
      mem_data_q   <= '0;
    end else begin
      ex_q         <= ex_d;
      q_bar1_q     <= q_bar1_d;
      q_off_q      <= q_off_d;
      q_data_q     <= q_data_d;
      q_seq_q      <= q_seq_d;
      aw_done_q    <= aw_done_d;
      w_done_q     <= w_done_d;
      rsp_type_q   <= rsp_type_d;
      rsp_seq_q    <= rsp_seq_d;
      rsp_status_q <= rsp_status_d;
      rsp_data_q   <= rsp_data_d;
      mem_valid_q  <= mem_valid_d;
      mem_type_q   <= mem_type_d;
      mem_seq_q    <= mem_seq_d;
      mem_status_q <= mem_status_d;
      mem_data_q   <= mem_data_d;
    end
  end

  // AXI4-Lite outputs: only the selected BAR sees valid/ready.
  always_comb begin
    for (int unsigned b = 0; b < 2; b++) begin
      bar_o[b].aw_valid = ex_q == StWrite && q_bar1_q == b[0] && !aw_done_q;
      bar_o[b].w_valid  = ex_q == StWrite && q_bar1_q == b[0] && !w_done_q;
      bar_o[b].b_ready  = ex_q == StWriteResp && q_bar1_q == b[0];
      bar_o[b].ar_valid = ex_q == StRead && q_bar1_q == b[0];
      bar_o[b].r_ready  = ex_q == StReadResp && q_bar1_q == b[0];
      bar_o[b].aw_addr  = (b == 0) ? 32'(q_off_q[15:0]) : 32'(q_off_q);
      bar_o[b].ar_addr  = bar_o[b].aw_addr;
      bar_o[b].w_data   = q_data_q;
      bar_o[b].w_strb   = 4'hF;
    end
  end

  // ------------------------------------------------------------ transmit
  logic        tx_active_q, tx_active_d;
  logic [3:0]  tx_idx_q, tx_idx_d;
  logic [7:0]  t_type_q, t_type_d, t_seq_q, t_seq_d, t_status_q, t_status_d;
  logic [31:0] t_data_q, t_data_d;
  logic [15:0] tcrc_q, tcrc_d;
  logic [31:0] irq_pend_q, irq_pend_d;
  logic [7:0]  irq_cnt_q, irq_cnt_d;

  always_comb begin
    unique case (tx_idx_q)
      4'd0:    tx_data = UARTLINK_SOF;
      4'd1:    tx_data = t_type_q;
      4'd2:    tx_data = t_seq_q;
      4'd3:    tx_data = t_status_q;
      4'd4:    tx_data = t_data_q[7:0];
      4'd5:    tx_data = t_data_q[15:8];
      4'd6:    tx_data = t_data_q[23:16];
      4'd7:    tx_data = t_data_q[31:24];
      4'd8:    tx_data = tcrc_q[15:8];
      default: tx_data = tcrc_q[7:0];
    endcase
  end
  assign tx_valid = tx_active_q;

  always_comb begin
    tx_active_d = tx_active_q;
    tx_idx_d    = tx_idx_q;
    t_type_d    = t_type_q;
    t_seq_d     = t_seq_q;
    t_status_d  = t_status_q;
    t_data_d    = t_data_q;
    tcrc_d      = tcrc_q;
    irq_pend_d  = irq_pend_q | msi_i;
    irq_cnt_d   = irq_cnt_q;
    rsp_take    = 1'b0;

    if (!tx_active_q) begin
      tx_idx_d = '0;
      tcrc_d   = UARTLINK_CRC_INIT;
      if (ex_q == StRsp) begin
        rsp_take    = 1'b1;
        tx_active_d = 1'b1;
        t_type_d    = rsp_type_q;
        t_seq_d     = rsp_seq_q;
        t_status_d  = rsp_status_q;
        t_data_d    = rsp_data_q;
      end else if (irq_pend_q != '0) begin
        tx_active_d = 1'b1;
        t_type_d    = UARTLINK_IRQ;
        t_seq_d     = irq_cnt_q;
        t_status_d  = UARTLINK_ST_OK;
        t_data_d    = irq_pend_q;
        irq_pend_d  = msi_i;
        irq_cnt_d   = irq_cnt_q + 1'b1;
      end
    end else if (tx_ready) begin
      // Bytes 1..7 enter the CRC; 8 and 9 are the CRC itself.
      if (tx_idx_q != 4'd0 && tx_idx_q < 4'd8) tcrc_d = crc16_byte(tcrc_q, tx_data);
      tx_idx_d = tx_idx_q + 1'b1;
      if (tx_idx_q == 4'(RspLast)) tx_active_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_active_q <= 1'b0;
      tx_idx_q    <= '0;
      t_type_q    <= '0;
      t_seq_q     <= '0;
      t_status_q  <= '0;
      t_data_q    <= '0;
      tcrc_q      <= UARTLINK_CRC_INIT;
      irq_pend_q  <= '0;
      irq_cnt_q   <= '0;
    end else begin
      tx_active_q <= tx_active_d;
      tx_idx_q    <= tx_idx_d;
      t_type_q    <= t_type_d;
      t_seq_q     <= t_seq_d;
      t_status_q  <= t_status_d;
      t_data_q    <= t_data_d;
      tcrc_q      <= tcrc_d;
      irq_pend_q  <= irq_pend_d;
      irq_cnt_q   <= irq_cnt_d;
    end
  end

  assign req_o  = req_pulse;
  assign nak_o  = nak_pulse;
  assign drop_o = drop_pulse;

  logic unused_resp;
  assign unused_resp = ^{bar_i[0].b_resp[0], bar_i[0].r_resp[0], bar_i[1].b_resp[0],
                        bar_i[1].r_resp[0]};

endmodule : uart_bar_bridge
