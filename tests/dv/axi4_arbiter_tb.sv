// SPDX-License-Identifier: Apache-2.0
// axi4_arbiter under a slave that is not ready, with the protocol checker
// bound to it (rtl/dv/axi4_arbiter_dv.sv): master 1's AR and AW wait, then
// master 0, which round robin puts first, asks too. The slave port must go
// on offering master 1's unchanged until the slave takes it; an arbiter
// that hands the waiting grant to master 0 changes ARADDR/AWADDR under a
// held valid, and the checker stops the run on ar_stable or aw_stable.
// make t-axi-checker runs it and expects no assertion.
/* verilator lint_off PINCONNECTEMPTY */
module axi4_arbiter_tb;

  import axi4_pkg::*;

  logic        clk = 1'b0, rst_n = 1'b0;
  logic [1:0]  arvalid = '0, awvalid = '0, wvalid = '0, wlast = '0;
  logic        s_arready = 1'b0, s_awready = 1'b0;
  axi4_req_t [1:0] m_req;
  axi4_req_t       s_req;
  axi4_rsp_t       s_rsp;

  // Master m reads at 0x3000 + m * 0x1000 and writes at 0x1000 + m * 0x1000,
  // single 64-bit beats; the slave takes W at once and never answers.
  for (genvar m = 0; m < 2; m++) begin : g_m
    always_comb begin
      m_req[m]          = '0;
      m_req[m].aw_valid = awvalid[m];
      m_req[m].aw.addr  = 64'h1000 + 64'(m) * 64'h1000;
      m_req[m].aw.size  = 3'd3;
      m_req[m].aw.burst = 2'b01;
      m_req[m].ar       = m_req[m].aw;
      m_req[m].ar.addr  = 64'h3000 + 64'(m) * 64'h1000;
      m_req[m].ar_valid = arvalid[m];
      m_req[m].w_valid  = wvalid[m];
      m_req[m].w.strb   = '1;
      m_req[m].w.last   = wlast[m];
      m_req[m].b_ready  = 1'b1;
      m_req[m].r_ready  = 1'b1;
    end
  end
  always_comb begin
    s_rsp          = '0;
    s_rsp.ar_ready = s_arready;
    s_rsp.aw_ready = s_awready;
    s_rsp.w_ready  = 1'b1;
  end

  // The bench looks at the slave's addresses and valids only.
  logic unused;
  assign unused = ^{s_req};

  axi4_arbiter #(.NMasters(2), .IdW(4)) u_arb (
    .clk_i (clk), .rst_ni (rst_n),
    .m_req_i (m_req), .m_rsp_o (),
    .s_req_o (s_req), .s_rsp_i (s_rsp)
  );

  initial forever #5 clk = !clk;

  initial begin
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    arvalid = 2'b10;                 // master 1 asks; the slave is not ready
    awvalid = 2'b10;
    @(negedge clk);
    arvalid = 2'b11;                 // master 0 asks too
    awvalid = 2'b11;
    repeat (2) @(negedge clk);
    if (s_req.ar.addr != 64'h4000 || s_req.aw.addr != 64'h2000)
      $fatal(1, "axi4_arbiter_tb: the waiting grant moved (AR %h, AW %h)", s_req.ar.addr,
             s_req.aw.addr);
    s_arready = 1'b1;                // master 1's go; then master 0's
    s_awready = 1'b1;
    @(negedge clk);
    arvalid = 2'b01;
    awvalid = 2'b01;
    s_awready = 1'b0;                // master 1's W beat (AW taken, W owed)
    wvalid = 2'b10; wlast = 2'b10;
    @(negedge clk);
    arvalid = 2'b00;
    wvalid = 2'b00;
    s_awready = 1'b1;
    @(negedge clk);
    awvalid = 2'b00;
    wvalid = 2'b01; wlast = 2'b01;
    @(negedge clk);
    wvalid = 2'b00;
    repeat (2) @(negedge clk);
    $display("axi4_arbiter_tb: s_arvalid %b s_awvalid %b at the end", s_req.ar_valid,
             s_req.aw_valid);
    $finish;
  end

endmodule : axi4_arbiter_tb
