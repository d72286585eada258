// SPDX-License-Identifier: Apache-2.0
// Bench of aperture_xlate (make t-aperture): the translator between a
// master (this bench, as an engine's system-memory route) and a model of
// system memory, its table port served from a model of the aperture table.
// Every burst's outcome is checked against the model: an aperture burst on
// a valid entry below PAGES reaches the entry's host page (data read back,
// data written), any other aperture burst is refused (SLVERR, every beat)
// and reaches no host page; a burst without the aperture bit passes
// unchanged. Phases: random single bursts with entries changed (and the
// TLB invalidated) as they go; eight reads in flight at once, refused and
// translated mixed; invalidation with the entry cached (the old page is
// never reached again); an invalidation during a table read (the read is
// not kept). The run ends with "aperture_xlate_tb: PASS" or $fatal.
`timescale 1ns / 1ps
module aperture_xlate_tb;
  import axi4_pkg::*;

  localparam int unsigned NP      = 64;   // table entries the model has
  localparam int unsigned PAGES   = 48;   // APERTURE.PAGES: 48..63 out of range
  localparam logic [31:0] TABLE   = 32'h0002_0000;
  localparam int unsigned AptBit  = 1;

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  axi4_req_t s_req, m_req, t_req;
  axi4_rsp_t s_rsp, m_rsp, t_rsp;
  logic inv = 1'b0, miss, refuse;

  aperture_xlate #(.Lines(2), .PaBits(52), .AptBit(AptBit)) dut (
    .clk_i (clk), .rst_ni (rst_n),
    .table_i (TABLE[31:6]), .pages_i (21'(PAGES)), .inv_i (inv),
    .miss_o (miss), .refuse_o (refuse),
    .s_req_i (s_req), .s_rsp_o (s_rsp),
    .m_req_o (m_req), .m_rsp_i (m_rsp),
    .t_req_o (t_req), .t_rsp_i (t_rsp)
  );

  // ------------------------------------------------------------ models
  logic [63:0] tbl [NP];                 // the aperture table in "DDR"
  logic [63:0] mem [logic [63:0]];       // host memory, by 8-byte word
  int unsigned touched [logic [63:0]];   // host pages a burst reached
  int unsigned misses = 0, refusals = 0, errors = 0;

  function automatic logic [63:0] word_at(input logic [63:0] a);
    logic [63:0] w;
    w = {a[31:0] ^ 32'h5A5A_0000, a[63:32] ^ 32'h0000_A5A5};
    if (mem.exists(a) != 0) w = mem[a];
    return w;
  endfunction

  always begin
    @(negedge clk);
    #1;
    if (miss) misses++;
    if (refuse) refusals++;
  end

  task automatic fail(input string what);
    $display("aperture_xlate_tb: FAIL: %s (t=%0t)", what, $time);
    $fatal(1);
  endtask

  // The bench drives at the falling edge and samples 1 ns later (settled,
  // before the rising edge that takes a handshake): `tick` does both.
  task automatic tick();
    @(negedge clk);
    #1;
  endtask

  // Table port: one read at a time, 0..12 cycles, 8 beats; the entries are
  // those of the table when the read is taken.
  initial begin
    t_rsp = '0;
    forever begin
      tick();
      if (t_req.ar_valid) begin
        logic [63:0] a, line[8];
        int unsigned first;
        a = t_req.ar.addr;
        if (a[5:0] != 0 || a < 64'(TABLE) || a >= 64'(TABLE) + NP * 8) fail("table read address");
        if (t_req.ar.len != 7) fail("table read length");
        first = int'((a - 64'(TABLE)) / 8);
        for (int unsigned i = 0; i < 8; i++) line[i] = tbl[first + i];
        @(negedge clk);
        t_rsp.ar_ready = 1'b1;   // taken at the next rising edge
        @(negedge clk);
        t_rsp.ar_ready = 1'b0;
        repeat ($urandom_range(12, 0)) @(negedge clk);
        for (int unsigned i = 0; i < 8; i++) begin
          t_rsp.r_valid = 1'b1;
          t_rsp.r       = '{id: '0, data: line[i], resp: 2'b00, last: (i == 7)};
          #1;
          while (!t_req.r_ready) tick();
          @(negedge clk);
        end
        t_rsp.r_valid = 1'b0;
      end
    end
  end

  // System memory behind the master port: reads in order after a latency,
  // writes applied beat by beat; every burst's page is recorded.
  axi4_ax_t rdq[$];
  initial begin
    m_rsp = '0;
    fork
      forever begin   // AR
        @(negedge clk);
        m_rsp.ar_ready = ($urandom_range(3, 0) != 0);
        #1;
        if (m_req.ar_valid && m_rsp.ar_ready) begin
          if (32'(m_req.ar.addr[11:0]) + 64 > 4096) fail("burst crosses a page");
          rdq.push_back(m_req.ar);
          touched[m_req.ar.addr >> 12] = 1;
        end
      end
      forever begin   // R
        tick();
        if (rdq.size() != 0) begin
          axi4_ax_t ar;
          ar = rdq.pop_front();
          repeat ($urandom_range(6, 0)) @(negedge clk);
          for (int unsigned i = 0; i <= 32'(ar.len); i++) begin
            @(negedge clk);
            m_rsp.r_valid = 1'b1;
            m_rsp.r = '{id: ar.id, data: word_at(ar.addr + 64'(8 * i)), resp: 2'b00,
                        last: (i == 32'(ar.len))};
            #1;
            while (!m_req.r_ready) tick();
          end
          @(negedge clk);
          m_rsp.r_valid = 1'b0;
        end
      end
      forever begin   // AW, W, B
        tick();
        if (m_req.aw_valid) begin
          axi4_ax_t aw;
          aw = m_req.aw;
          @(negedge clk);
          m_rsp.aw_ready = 1'b1;
          #1;
          if (!m_req.aw_valid || m_req.aw != aw) fail("AW changed before it was taken");
          @(negedge clk);
          m_rsp.aw_ready = 1'b0;
          touched[aw.addr >> 12] = 1;
          m_rsp.w_ready = 1'b1;
          for (int unsigned i = 0; i <= 32'(aw.len); i++) begin
            #1;
            while (!m_req.w_valid) tick();
            if (m_req.w.last != (i == 32'(aw.len))) fail("W last");
            mem[aw.addr + 64'(8 * i)] = m_req.w.data;
            @(negedge clk);
          end
          m_rsp.w_ready = 1'b0;
          m_rsp.b_valid = 1'b1;
          m_rsp.b       = '{id: aw.id, resp: 2'b00};
          #1;
          while (!m_req.b_ready) tick();
          @(negedge clk);
          m_rsp.b_valid = 1'b0;
        end
      end
    join
  end

  // Every burst on the master port: the aperture bit never leaves.
  always begin
    @(negedge clk);
    #1;
    if (m_req.ar_valid && m_req.ar.user[AptBit]) fail("aperture bit on the master AR");
    if (m_req.aw_valid && m_req.aw.user[AptBit]) fail("aperture bit on the master AW");
  end

  // ------------------------------------------------------------ the master
  // What the model says an aperture offset reaches: ok and the host address.
  function automatic bit resolve(input logic [63:0] off, output logic [63:0] pa);
    logic [63:0] e;
    int unsigned p;
    p  = int'(off >> 12);
    pa = '0;
    if (off >= 64'(PAGES) * 4096) return 1'b0;
    e = tbl[p];
    if (!e[0]) return 1'b0;
    pa = {12'b0, e[51:12], off[11:0]};
    return 1'b1;
  endfunction

  task automatic read_burst(input logic [63:0] addr, input bit apt, input logic [3:0] id,
                            output logic [63:0] data[8], output logic [1:0] resp);
    @(negedge clk);
    s_req.ar_valid = 1'b1;
    s_req.ar       = '{id: ID_W'(id), addr: addr, len: 8'd7, size: 3'd3, burst: 2'b01,
                       user: USER_W'({apt, 1'b0})};
    #1;
    while (!s_rsp.ar_ready) tick();
    @(negedge clk);
    s_req.ar_valid = 1'b0;
    resp = 2'b00;
    for (int unsigned i = 0; i < 8; i++) begin
      #1;
      while (!s_rsp.r_valid) tick();
      if (s_rsp.r.id != ID_W'(id)) fail($sformatf("R id %0d, expected %0d, resp %0d", s_rsp.r.id, id, s_rsp.r.resp));
      if (s_rsp.r.last != (i == 7)) fail($sformatf("R last: beat %0d id %0d resp %0d last %0d st %0d", i, s_rsp.r.id, s_rsp.r.resp, s_rsp.r.last, dut.ar_st_q));
      data[i] = s_rsp.r.data;
      if (i == 0) resp = s_rsp.r.resp;
      else if (s_rsp.r.resp != resp) fail("R resp differs between beats");
      @(negedge clk);
    end
  endtask

  task automatic write_burst(input logic [63:0] addr, input bit apt, input logic [63:0] seed,
                             output logic [1:0] resp);
    @(negedge clk);
    s_req.aw_valid = 1'b1;
    s_req.aw       = '{id: '0, addr: addr, len: 8'd7, size: 3'd3, burst: 2'b01,
                       user: USER_W'({apt, 1'b0})};
    #1;
    while (!s_rsp.aw_ready) tick();
    @(negedge clk);
    s_req.aw_valid = 1'b0;
    for (int unsigned i = 0; i < 8; i++) begin
      s_req.w_valid = 1'b1;
      s_req.w       = '{data: seed + 64'(i), strb: 8'hFF, last: (i == 7)};
      #1;
      while (!s_rsp.w_ready) tick();
      @(negedge clk);
    end
    s_req.w_valid = 1'b0;
    #1;
    while (!s_rsp.b_valid) tick();
    resp = s_rsp.b.resp;
    @(negedge clk);
  endtask

  // One burst at a time, checked against the model.
  task automatic check_one(input logic [63:0] addr, input bit apt, input bit write);
    logic [63:0] pa, data[8];
    logic [1:0]  resp;
    bit          ok;
    if (apt) ok = resolve(addr, pa);
    else begin
      ok = 1'b1;
      pa = addr;
    end
    touched.delete();
    if (write) begin
      write_burst(addr, apt, {addr[31:0], 32'hC0DE_0000}, resp);
    end else begin
      read_burst(addr, apt, 4'($urandom_range(15, 0)), data, resp);
    end
    if (ok) begin
      if (resp != 2'b00) fail($sformatf("burst at %h refused, the model maps it to %h", addr, pa));
      if (!touched.exists(pa >> 12) || touched.size() != 1)
        fail($sformatf("burst at %h did not reach (only) host page %h", addr, pa));
      for (int unsigned i = 0; i < 8; i++) begin
        if (write && word_at(pa + 64'(8 * i)) != {addr[31:0], 32'hC0DE_0000} + 64'(i))
          fail("written data not at the host page");
        if (!write && data[i] != word_at(pa + 8 * i))
          fail($sformatf("read data at %h beat %0d: %h, host page %h has %h", addr, i, data[i], pa, word_at(pa + 64'(8 * i))));
      end
    end else begin
      if (resp != 2'b10) fail($sformatf("burst at %h not refused (resp %0d)", addr, resp));
      if (touched.size() != 0) fail($sformatf("refused burst at %h reached a host page", addr));
    end
  endtask

  task automatic invalidate();
    @(negedge clk);
    inv = 1'b1;
    @(negedge clk);
    inv = 1'b0;
  endtask

  function automatic logic [63:0] host_page(input int unsigned p);
    // distinct pages above 4 GiB, in no order
    return 64'h1_0000_0000 + 64'((p * 37 + 11) % 4096) * 4096;
  endfunction

  int unsigned gen = 0;
  task automatic set_entry(input int unsigned p, input bit valid);
    gen++;
    tbl[p] = valid ? (host_page(p + gen * 64) | 64'h1) : (host_page(p + gen * 64) & ~64'h1);
  endtask

  // ------------------------------------------------------------ phases
  initial begin
    logic [63:0] data[8], pa;
    logic [1:0]  resp;
    int unsigned m0;
    s_req = '0;
    s_req.r_ready = 1'b1;
    s_req.b_ready = 1'b1;
    for (int unsigned p = 0; p < NP; p++) set_entry(p, $urandom_range(9, 0) < 8);
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);

    // 1. Random single bursts; now and then entries change, then the TLB
    //    is invalidated (as the firmware does).
    for (int unsigned n = 0; n < 1500; n++) begin
      logic [63:0] off;
      off = 64'($urandom_range(NP - 1, 0)) * 4096 + 64'($urandom_range(63, 0)) * 64;
      if ($urandom_range(19, 0) == 0) off = off | 64'h1_0000_0000;   // beyond 4 GiB
      if ($urandom_range(9, 0) == 0) begin
        check_one(host_page(n) + off[11:0], 1'b0, $urandom_range(1, 0));   // pass-through
      end else begin
        check_one(off, 1'b1, $urandom_range(1, 0));
      end
      if ($urandom_range(29, 0) == 0) begin
        for (int unsigned k = 0; k < 4; k++) set_entry($urandom_range(NP - 1, 0), $urandom_range(3, 0) != 0);
        invalidate();
      end
    end
    $display("aperture_xlate_tb: random: 1500 bursts, %0d table reads, %0d refused", misses, refusals);

    // 2. Eight reads in flight, refused and translated mixed, each checked
    //    by its ID (a refused one answers only once the others are done).
    for (int unsigned round = 0; round < 40; round++) begin
      logic [63:0] offs[8];
      bit          oks[8];
      logic [63:0] pas[8];
      int unsigned got, beat[8];
      for (int unsigned i = 0; i < 8; i++) begin
        offs[i] = 64'($urandom_range(NP - 1, 0)) * 4096 + 64'($urandom_range(63, 0)) * 64;
        oks[i]  = resolve(offs[i], pas[i]);
      end
      fork
        begin
          for (int unsigned i = 0; i < 8; i++) begin
            @(negedge clk);
            s_req.ar_valid = 1'b1;
            s_req.ar = '{id: ID_W'(i), addr: offs[i], len: 8'd7, size: 3'd3, burst: 2'b01,
                         user: USER_W'(2'b10)};
            #1;
            while (!s_rsp.ar_ready) tick();
          end
          @(negedge clk);
          s_req.ar_valid = 1'b0;
        end
        begin
          got = 0;
          for (int unsigned i = 0; i < 8; i++) beat[i] = 0;
          while (got < 8) begin
            tick();
            if (s_rsp.r_valid) begin
              int unsigned i;
              i = int'(s_rsp.r.id);
              if (oks[i] && (s_rsp.r.resp != 2'b00 || s_rsp.r.data != word_at(pas[i] + 8 * beat[i])))
                fail($sformatf("in flight: read %0d at %h", i, offs[i]));
              beat[i]++;
              if (!oks[i] && s_rsp.r.resp != 2'b10) fail($sformatf("in flight: read %0d at %h not refused", i, offs[i]));
              if (s_rsp.r.last) got++;
            end
          end
        end
      join
    end
    $display("aperture_xlate_tb: in flight: 40 rounds of 8 reads");

    // 3. Invalidation with the entry cached.
    set_entry(5, 1'b1);
    invalidate();
    check_one(5 * 4096, 1'b1, 1'b0);
    m0 = misses;
    check_one(5 * 4096 + 64, 1'b1, 1'b0);
    if (misses != m0) fail("second read of a cached line read the table");
    pa = {12'b0, tbl[5][51:12], 12'b0};
    tbl[5] = tbl[5] & ~64'h1;               // the allocation leaves the aperture
    read_burst(5 * 4096, 1'b1, 4'd3, data, resp);
    if (resp != 2'b00) fail("an entry changed without INVALIDATE is still cached (the hardware's contract)");
    invalidate();
    touched.delete();
    for (int unsigned i = 0; i < 16; i++) begin
      read_burst(5 * 4096 + 64 * i, 1'b1, 4'd1, data, resp);
      if (resp != 2'b10) fail("read through an invalidated entry not refused");
      write_burst(5 * 4096 + 64 * i, 1'b1, 64'hDEAD, resp);
      if (resp != 2'b10) fail("write through an invalidated entry not refused");
    end
    if (touched.exists(pa >> 12)) fail("the old host page was reached after INVALIDATE");
    set_entry(5, 1'b1);                     // another allocation takes the offset
    invalidate();
    check_one(5 * 4096 + 128, 1'b1, 1'b1);
    check_one(5 * 4096 + 128, 1'b1, 1'b0);
    $display("aperture_xlate_tb: invalidation: the old page never reached, the new one is");

    // 4. Invalidation while a table read is in flight: the line read is not
    //    kept, the next lookup reads the table again.
    for (int unsigned round = 0; round < 20; round++) begin
      int unsigned p;
      p = 8 + 8 * (round % 4);
      invalidate();
      set_entry(p, 1'b1);
      @(negedge clk);
      s_req.ar_valid = 1'b1;
      s_req.ar = '{id: ID_W'(2), addr: 64'(p) * 4096, len: 8'd7, size: 3'd3, burst: 2'b01,
                   user: USER_W'(2'b10)};
      #1;
      while (!s_rsp.ar_ready) tick();
      @(negedge clk);
      s_req.ar_valid = 1'b0;
      #1;
      while (!(t_req.ar_valid && t_rsp.ar_ready)) tick();
      set_entry(p, 1'b0);                  // changed while the old one is read
      invalidate();
      resp = 2'b11;
      forever begin
        tick();
        if (s_rsp.r_valid) begin
          if (resp == 2'b11 || resp == s_rsp.r.resp) resp = s_rsp.r.resp;
          else fail("R resp differs between beats");
          if (s_rsp.r.last) break;
        end
      end
      if (resp != 2'b10) fail("a table read in flight at INVALIDATE was kept");
    end
    $display("aperture_xlate_tb: invalidation during a table read: 20 rounds");

    if (errors != 0) fail("errors");
    $display("aperture_xlate_tb: PASS (%0d table reads, %0d refused)", misses, refusals);
    $finish;
  end

  initial begin
    #20ms;
    fail("timeout");
  end

endmodule : aperture_xlate_tb
