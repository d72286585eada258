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

  logic        clk = 1'b0, rst_n = 1'b0;
  logic [1:0]  arvalid = '0, awvalid = '0, wvalid = '0, wlast = '0;
  logic        s_arready = 1'b0, s_awready = 1'b0;
  logic        s_arvalid, s_awvalid;
  logic [31:0] s_araddr, s_awaddr;

  axi4_arbiter #(.NMasters(2), .IdW(4), .AddrW(32), .UserW(1)) u_arb (
    .clk_i (clk), .rst_ni (rst_n),
    .m_awvalid_i (awvalid), .m_awready_o (), .m_awid_i ('0), .m_awaddr_i ({32'h2000, 32'h1000}),
    .m_awuser_i ('0), .m_awlen_i ('0), .m_awsize_i ({2{3'd3}}), .m_awburst_i ({2{2'b01}}),
    .m_wvalid_i (wvalid), .m_wready_o (), .m_wdata_i ('0), .m_wstrb_i ('1), .m_wlast_i (wlast),
    .m_bvalid_o (), .m_bready_i ('1), .m_bid_o (), .m_bresp_o (),
    .m_arvalid_i (arvalid), .m_arready_o (), .m_arid_i ('0), .m_araddr_i ({32'h4000, 32'h3000}),
    .m_aruser_i ('0), .m_arlen_i ('0), .m_arsize_i ({2{3'd3}}), .m_arburst_i ({2{2'b01}}),
    .m_rvalid_o (), .m_rready_i ('1), .m_rid_o (), .m_rdata_o (), .m_rresp_o (), .m_rlast_o (),
    .s_awvalid_o (s_awvalid), .s_awready_i (s_awready), .s_awid_o (), .s_awaddr_o (s_awaddr),
    .s_awuser_o (), .s_awlen_o (), .s_awsize_o (), .s_awburst_o (),
    .s_wvalid_o (), .s_wready_i (1'b1), .s_wdata_o (), .s_wstrb_o (), .s_wlast_o (),
    .s_bvalid_i (1'b0), .s_bready_o (), .s_bid_i ('0), .s_bresp_i ('0),
    .s_arvalid_o (s_arvalid), .s_arready_i (s_arready), .s_arid_o (), .s_araddr_o (s_araddr),
    .s_aruser_o (), .s_arlen_o (), .s_arsize_o (), .s_arburst_o (),
    .s_rvalid_i (1'b0), .s_rready_o (), .s_rid_i ('0), .s_rdata_i ('0), .s_rresp_i ('0),
    .s_rlast_i (1'b0)
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
    if (s_araddr != 32'h4000 || s_awaddr != 32'h2000)
      $fatal(1, "axi4_arbiter_tb: the waiting grant moved (AR %h, AW %h)", s_araddr, s_awaddr);
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
    $display("axi4_arbiter_tb: s_arvalid %b s_awvalid %b at the end", s_arvalid, s_awvalid);
    $finish;
  end

endmodule : axi4_arbiter_tb
