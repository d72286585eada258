// SPDX-License-Identifier: Apache-2.0
// Aperture translator: the aperture segment (Segment 2) in hardware, on one
// engine's system-memory route (docs/aperture.md).
//
// The aperture is one table in DDR (APERTURE.TABLE, APERTURE.PAGES
// entries of APERTURE_ENTRY_BYTES): entry p maps aperture offsets
// [4 KB p, 4 KB (p + 1)) onto the host page whose bus address it holds
// (bit 0 VALID, bits 51:12 the page). A burst on the slave port with
// AxUSER[AptBit] set addresses aperture offset AxADDR; this module
// translates it and sends it on the master port as a system-memory (Segment
// 0) burst to the host page, CacheCoherent (AxUSER = 1). A burst without
// that bit passes through unchanged, in order with the others.
//
// TLB: Lines lines, each the APERTURE_LINE_ENTRIES consecutive entries one
// 64-byte table read brings (32 KB of aperture); a miss reads the line on
// the table port (AR/R, ID 0, one read at a time) into the next line in
// round-robin order. inv_i drops every line at the edge it is high, and a
// table read in flight then is not kept.
//
// Refusal: an offset at or beyond PAGES (or at or above 4 GiB), an entry
// without VALID or a table read with an error response refuses the burst:
// it never reaches the master port; once the master port has no read (for
// AR) or write (for AW, with every W beat passed) outstanding, a read gets
// AxLEN + 1 R beats with SLVERR, and a write's W beats are taken and
// dropped and its B is SLVERR. The engine turns that into a BUS_ERROR fault.
//
// Timing: a pass-through burst adds no cycle (AR/AW combinational, as
// axi4_demux). An aperture burst is held one cycle for the lookup and goes
// out the cycle after it was taken on a hit (so at most one aperture AR and
// one AW every other cycle); a miss adds the table read (the DDR's latency
// plus 8 beats). W beats pass only for a burst whose AW the master port
// took (W never runs ahead of its AW here). R, B and W are combinational
// pass-throughs.
`ifndef SYNTHESIS
`include "prim_assert.svh"
`endif

module aperture_xlate #(
  parameter int unsigned Lines  = 2,   // TLB lines of APERTURE_LINE_ENTRIES entries, >= 1
  parameter int unsigned PaBits = 52,  // host bus address bits (gmmu_mmu_pkg::PA_BITS)
  parameter int unsigned AptBit = 1    // AxUSER bit that marks an aperture burst
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // Configuration (APERTURE registers)
  input  logic [31:6]         table_i,   // DDR offset of the table
  input  logic [20:0]         pages_i,   // entries in it
  input  logic                inv_i,     // drop every cached entry
  output logic                miss_o,    // pulse: a table read issued
  output logic                refuse_o,  // pulse: a burst refused (its response done)
  // Slave: the engine's system-memory route
  input  axi4_pkg::axi4_req_t s_req_i,
  output axi4_pkg::axi4_rsp_t s_rsp_o,
  // Master: to the system-memory arbiter
  output axi4_pkg::axi4_req_t m_req_o,
  input  axi4_pkg::axi4_rsp_t m_rsp_i,
  // Table reads: a DDR master, AR and R only (ID 0, 64-byte bursts)
  output axi4_pkg::axi4_req_t t_req_o,
  input  axi4_pkg::axi4_rsp_t t_rsp_i
);

  localparam int unsigned PfnW  = PaBits - 12;
  localparam int unsigned LineW = (Lines > 1) ? $clog2(Lines) : 1;
  localparam int unsigned Ents  = 8;   // APERTURE_LINE_ENTRIES
  localparam int unsigned TagW  = 17;  // page[19:3]
  localparam logic [1:0]  RespSlvErr = 2'b10;

  typedef struct packed {
    logic            v;
    logic [PfnW-1:0] pfn;
  } ent_t;

  logic clk_gated;  // see the end

  // ------------------------------------------------------------ the TLB
  logic [Lines-1:0]                lv_q;
  logic [Lines-1:0][TagW-1:0]      ltag_q;
  ent_t [Lines-1:0][Ents-1:0]      lent_q;

  // One lookup: hit, refuse (out of range or invalid entry) or miss.
  typedef struct packed {
    logic            fwd;
    logic            refuse;
    logic            miss;
    logic [PfnW-1:0] pfn;
  } look_t;

  function automatic look_t lookup(input logic [63:12] addr, input logic [20:0] pages,
                                   input logic [Lines-1:0] lv,
                                   input logic [Lines-1:0][TagW-1:0] ltag,
                                   input ent_t [Lines-1:0][Ents-1:0] lent);
    look_t r;
    logic  hit;
    ent_t  e;
    r   = '0;
    hit = 1'b0;
    e   = '0;
    for (int unsigned i = 0; i < Lines; i++) begin
      if (lv[i] && ltag[i] == addr[31:15]) begin
        hit = 1'b1;
        e   = lent[i][addr[14:12]];
      end
    end
    if (addr[63:32] != '0 || {1'b0, addr[31:12]} >= pages) begin
      r.refuse = 1'b1;
    end else if (!hit) begin
      r.miss = 1'b1;
    end else if (e.v) begin
      r.fwd = 1'b1;
      r.pfn = e.pfn;
    end else begin
      r.refuse = 1'b1;
    end
    return r;
  endfunction

  function automatic axi4_pkg::axi4_ax_t xlate(input axi4_pkg::axi4_ax_t ax,
                                               input logic [PfnW-1:0] pfn);
    axi4_pkg::axi4_ax_t o;
    o      = ax;
    o.addr = axi4_pkg::ADDR_W'({pfn, ax.addr[11:0]});
    o.user = axi4_pkg::USER_W'(1'b1);   // CacheCoherent
    return o;
  endfunction

  // ------------------------------------------------------------ AR channel
  typedef enum logic [1:0] {ArIdle, ArHeld, ArErr} ar_st_e;
  ar_st_e             ar_st_q, ar_st_d;
  axi4_pkg::axi4_ax_t ar_q;
  logic [7:0]         ar_beats_q, ar_beats_d;
  logic [5:0]         rd_out_q;
  look_t              ar_look;
  logic               ar_take, ar_refused;

  assign ar_look = lookup(ar_q.addr[63:12], pages_i, lv_q, ltag_q, lent_q);

  // ------------------------------------------------------------ AW channel
  typedef enum logic [1:0] {AwIdle, AwHeld, AwSink, AwResp} aw_st_e;
  aw_st_e             aw_st_q, aw_st_d;
  axi4_pkg::axi4_ax_t aw_q;
  logic [5:0]         wr_out_q, wcred_q;
  look_t              aw_look;
  logic               aw_take, aw_refused;

  assign aw_look = lookup(aw_q.addr[63:12], pages_i, lv_q, ltag_q, lent_q);

  // ------------------------------------------------------------ ports
  logic m_ar_fire, m_r_end, m_aw_fire, m_w_end, m_b_fire;

  always_comb begin
    m_req_o = s_req_i;
    s_rsp_o = m_rsp_i;

    // AR: pass through when idle, else the held burst translated.
    ar_take = 1'b0;
    unique case (ar_st_q)
      ArIdle: begin
        m_req_o.ar_valid = s_req_i.ar_valid && !s_req_i.ar.user[AptBit];
        s_rsp_o.ar_ready = s_req_i.ar.user[AptBit] ? 1'b1 : m_rsp_i.ar_ready;
        ar_take          = s_req_i.ar_valid && s_req_i.ar.user[AptBit];
      end
      ArHeld: begin
        m_req_o.ar_valid = ar_look.fwd;
        m_req_o.ar       = xlate(ar_q, ar_look.pfn);
        s_rsp_o.ar_ready = 1'b0;
      end
      default: begin
        m_req_o.ar_valid = 1'b0;
        s_rsp_o.ar_ready = 1'b0;
      end
    endcase
    // R: the refused read's beats (nothing is outstanding on the master then).
    if (ar_st_q == ArErr) begin
      s_rsp_o.r_valid = 1'b1;
      s_rsp_o.r       = '{id: ar_q.id, data: '0, resp: RespSlvErr, last: (ar_beats_q == '0)};
      m_req_o.r_ready = 1'b0;
    end

    // AW, as AR.
    aw_take = 1'b0;
    unique case (aw_st_q)
      AwIdle: begin
        m_req_o.aw_valid = s_req_i.aw_valid && !s_req_i.aw.user[AptBit];
        s_rsp_o.aw_ready = s_req_i.aw.user[AptBit] ? 1'b1 : m_rsp_i.aw_ready;
        aw_take          = s_req_i.aw_valid && s_req_i.aw.user[AptBit];
      end
      AwHeld: begin
        m_req_o.aw_valid = aw_look.fwd;
        m_req_o.aw       = xlate(aw_q, aw_look.pfn);
        s_rsp_o.aw_ready = 1'b0;
      end
      default: begin
        m_req_o.aw_valid = 1'b0;
        s_rsp_o.aw_ready = 1'b0;
      end
    endcase
    // W: only for a burst the master port took; a refused write's beats
    // are dropped.
    if (aw_st_q == AwSink) begin
      m_req_o.w_valid = 1'b0;
      s_rsp_o.w_ready = 1'b1;
    end else begin
      m_req_o.w_valid = s_req_i.w_valid && (wcred_q != '0);
      s_rsp_o.w_ready = m_rsp_i.w_ready && (wcred_q != '0);
    end
    // B: the refused write's (nothing is outstanding on the master then).
    if (aw_st_q == AwResp) begin
      s_rsp_o.b_valid = 1'b1;
      s_rsp_o.b       = '{id: aw_q.id, resp: RespSlvErr};
      m_req_o.b_ready = 1'b0;
    end
  end

  assign m_ar_fire = m_req_o.ar_valid && m_rsp_i.ar_ready;
  assign m_r_end   = m_rsp_i.r_valid && m_req_o.r_ready && m_rsp_i.r.last;
  assign m_aw_fire = m_req_o.aw_valid && m_rsp_i.aw_ready;
  assign m_w_end   = m_req_o.w_valid && m_rsp_i.w_ready && s_req_i.w.last;
  assign m_b_fire  = m_rsp_i.b_valid && m_req_o.b_ready;

  // A refused burst answers only once the master port is quiet, so its
  // response cannot pass one of an earlier burst (the engine's AWIDs are
  // all 0).
  assign ar_refused = (ar_st_q == ArHeld) && ar_look.refuse && (rd_out_q == '0);
  assign aw_refused = (aw_st_q == AwHeld) && aw_look.refuse && (wr_out_q == '0) &&
                      (wcred_q == '0);

  always_comb begin
    ar_st_d    = ar_st_q;
    ar_beats_d = ar_beats_q;
    unique case (ar_st_q)
      ArIdle: if (ar_take) ar_st_d = ArHeld;
      ArHeld: begin
        if (m_ar_fire) ar_st_d = ArIdle;
        else if (ar_refused) begin
          ar_st_d    = ArErr;
          ar_beats_d = ar_q.len;
        end
      end
      ArErr: if (s_req_i.r_ready) begin
        if (ar_beats_q == '0) ar_st_d = ArIdle;
        else ar_beats_d = ar_beats_q - 8'd1;
      end
      default: ar_st_d = ArIdle;
    endcase
  end

  logic w_sink_last;
  assign w_sink_last = (aw_st_q == AwSink) && s_req_i.w_valid && s_req_i.w.last;

  always_comb begin
    aw_st_d = aw_st_q;
    unique case (aw_st_q)
      AwIdle: if (aw_take) aw_st_d = AwHeld;
      AwHeld: begin
        if (m_aw_fire) aw_st_d = AwIdle;
        else if (aw_refused) aw_st_d = AwSink;
      end
      AwSink: if (w_sink_last) aw_st_d = AwResp;
      AwResp: if (s_req_i.b_ready) aw_st_d = AwIdle;
      default: aw_st_d = AwIdle;
    endcase
  end

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_st_q    <= ArIdle;
      aw_st_q    <= AwIdle;
      ar_q       <= '0;
      aw_q       <= '0;
      ar_beats_q <= '0;
      rd_out_q   <= '0;
      wr_out_q   <= '0;
      wcred_q    <= '0;
    end else begin
      ar_st_q    <= ar_st_d;
      aw_st_q    <= aw_st_d;
      ar_beats_q <= ar_beats_d;
      if (ar_take) ar_q <= s_req_i.ar;
      if (aw_take) aw_q <= s_req_i.aw;
      rd_out_q <= rd_out_q + 6'(m_ar_fire) - 6'(m_r_end);
      wr_out_q <= wr_out_q + 6'(m_aw_fire) - 6'(m_b_fire);
      wcred_q  <= wcred_q + 6'(m_aw_fire) - 6'(m_w_end);
    end
  end

  assign refuse_o = ((ar_st_q == ArErr) && s_req_i.r_ready && (ar_beats_q == '0)) ||
                    ((aw_st_q == AwResp) && s_req_i.b_ready);

  // ------------------------------------------------------------ table reads
  typedef enum logic [1:0] {FIdle, FAr, FR} f_st_e;
  f_st_e              f_st_q;
  logic [TagW-1:0]    f_tag_q;
  logic               f_drop_q, f_err_q;
  logic [2:0]         f_beat_q;
  ent_t [Ents-1:0]    f_buf_q;
  logic [LineW-1:0]   victim_q;
  logic               want_ar, want_aw, t_r_fire, f_done;
  ent_t               t_ent;

  assign want_ar  = (ar_st_q == ArHeld) && ar_look.miss;
  assign want_aw  = (aw_st_q == AwHeld) && aw_look.miss;
  assign t_r_fire = (f_st_q == FR) && t_rsp_i.r_valid;
  assign f_done   = t_r_fire && t_rsp_i.r.last;
  assign t_ent    = '{v: t_rsp_i.r.data[0], pfn: t_rsp_i.r.data[PaBits-1:12]};

  always_comb begin
    t_req_o            = '0;
    t_req_o.ar_valid   = (f_st_q == FAr);
    t_req_o.ar.addr    = axi4_pkg::ADDR_W'({table_i + 26'(f_tag_q), 6'b0});
    t_req_o.ar.len     = 8'(Ents - 1);
    t_req_o.ar.size    = 3'd3;
    t_req_o.ar.burst   = 2'b01;
    t_req_o.r_ready    = (f_st_q == FR);
    t_req_o.b_ready    = 1'b1;
  end
  assign miss_o = t_req_o.ar_valid && t_rsp_i.ar_ready;

  always_ff @(posedge clk_gated or negedge rst_ni) begin
    if (!rst_ni) begin
      f_st_q   <= FIdle;
      f_tag_q  <= '0;
      f_drop_q <= 1'b0;
      f_err_q  <= 1'b0;
      f_beat_q <= '0;
      f_buf_q  <= '0;
      victim_q <= '0;
      lv_q     <= '0;
      ltag_q   <= '0;
      lent_q   <= '0;
    end else begin
      unique case (f_st_q)
        FIdle: begin
          if (want_ar || want_aw) begin
            f_st_q   <= FAr;
            f_tag_q  <= want_ar ? ar_q.addr[31:15] : aw_q.addr[31:15];
            f_drop_q <= 1'b0;
            f_err_q  <= 1'b0;
            f_beat_q <= '0;
          end
        end
        FAr: if (t_rsp_i.ar_ready) f_st_q <= FR;
        FR: begin
          if (t_r_fire) begin
            f_buf_q[f_beat_q] <= t_ent;
            f_beat_q          <= f_beat_q + 3'd1;
            if (t_rsp_i.r.resp != 2'b00) f_err_q <= 1'b1;
          end
          if (f_done) f_st_q <= FIdle;
        end
        default: f_st_q <= FIdle;
      endcase

      // The line read is kept unless an invalidation came while it was read.
      if (f_done && !f_drop_q && !inv_i) begin
        lv_q[victim_q]   <= 1'b1;
        ltag_q[victim_q] <= f_tag_q;
        for (int unsigned i = 0; i < Ents; i++) begin
          if (32'(f_beat_q) == i) lent_q[victim_q][i] <= t_ent;
          else lent_q[victim_q][i] <= f_buf_q[i];
          if (f_err_q || t_rsp_i.r.resp != 2'b00) lent_q[victim_q][i].v <= 1'b0;
        end
        victim_q <= (32'(victim_q) == Lines - 1) ? '0 : victim_q + LineW'(1);
      end
      if (inv_i) begin
        lv_q <= '0;
        if (f_st_q != FIdle) f_drop_q <= 1'b1;
      end
    end
  end

  // The table port only reads; its R channel is the AR's.
  logic unused;
  assign unused = ^{t_rsp_i.aw_ready, t_rsp_i.w_ready, t_rsp_i.b_valid, t_rsp_i.b,
                    t_rsp_i.r.id, t_rsp_i.r.data[63:PaBits], t_rsp_i.r.data[11:1]};

  // ------------------------------------------------------------ clock
  // The translator's clock skips its edges while no burst, beat or response
  // is offered on any of its ports, no invalidation is asked for and its
  // three state machines rest (prim_sim_clock_gate: in the Verilator build
  // only).
  logic active;
  assign active = s_req_i.ar_valid || s_req_i.aw_valid || s_req_i.w_valid || m_rsp_i.r_valid ||
                  m_rsp_i.b_valid || t_rsp_i.r_valid || inv_i || (ar_st_q != ArIdle) ||
                  (aw_st_q != AwIdle) || (f_st_q != FIdle);
  prim_sim_clock_gate u_clock_gate (
    .clk_i,
    .rst_ni,
    .active_i (active),
    .clk_o    (clk_gated)
  );

  // ------------------------------------------------------------ assertions
  // Simulation only, as the paging engine's: the synthesis flows do not
  // read rtl/prim's headers. Immediate checks at the translator's clock: a
  // concurrent assertion makes the verilated model copy every signal it
  // reads at each eval, these four translators' alone about 160 words.
`ifndef SYNTHESIS
  `ASSERT_OFF(assert_off)
  always_ff @(posedge clk_gated) begin
    if (!assert_off) begin
      `ASSERT_I(RdOutUnderflow, !(m_r_end && rd_out_q == '0 && !m_ar_fire))
      `ASSERT_I(WrOutUnderflow, !(m_b_fire && wr_out_q == '0 && !m_aw_fire))
      `ASSERT_I(WWithoutAw, !(m_req_o.w_valid && wcred_q == '0))
      `ASSERT_I(ErrWithReadsOut, !(ar_st_q == ArErr && rd_out_q != '0))
      `ASSERT_I(SinkWithWritesOut, !(aw_st_q != AwIdle && aw_st_q != AwHeld &&
                                     (wr_out_q != '0 || wcred_q != '0)))
      `ASSERT_I(TableReadShape, !t_req_o.ar_valid ||
                                (t_req_o.ar.len == 8'd7 && t_req_o.ar.size == 3'd3))
      `ASSERT_I(TableRLast, !t_r_fire || (t_rsp_i.r.last == (f_beat_q == 3'd7)))
      `ASSERT_I(ApertureOnMaster, !(m_req_o.ar_valid && m_req_o.ar.user[AptBit]))
    end
  end
`endif

endmodule : aperture_xlate
