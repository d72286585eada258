// SPDX-License-Identifier: Apache-2.0
// The AXI4 protocol checker (rtl/dv/axi4_protocol_checker.sv) against
// traffic written by hand: this bench is both master and slave. Every run
// first drives legal traffic that touches each rule (stalls with a held
// payload, interleaved reads of two IDs, a WRAP burst, W before its AW, W
// with its AW, a B per write); then +case=NAME adds one violation, which
// must stop the simulation on the named assertion (make t-axi-checker checks
// the exit status and the name). +case=none adds nothing and must finish.
module axi_checker_tb;

  logic        clk = 1'b0, rst_n = 1'b0;
  logic        awvalid = 1'b0, awready = 1'b1, wvalid = 1'b0, wready = 1'b1, wlast = 1'b0;
  logic        bvalid = 1'b0, bready = 1'b1, arvalid = 1'b0, arready = 1'b1;
  logic        rvalid = 1'b0, rready = 1'b1, rlast = 1'b0;
  logic [3:0]  awid = '0, bid = '0, arid = '0, rid = '0;
  logic [31:0] awaddr = '0, araddr = '0;
  logic [7:0]  awlen = '0, arlen = '0, wstrb = 8'hFF;
  logic [2:0]  awsize = 3'd3, arsize = 3'd3;
  logic [1:0]  awburst = 2'b01, arburst = 2'b01, bresp = '0, rresp = '0;
  logic [63:0] wdata = '0, rdata = '0;

  axi4_protocol_checker #(.IdW(4), .AddrW(32), .DataW(64), .UserW(1)) u_chk (
    .clk_i (clk), .rst_ni (rst_n),
    .awvalid_i (awvalid), .awready_i (awready), .awid_i (awid), .awaddr_i (awaddr),
    .awlen_i (awlen), .awsize_i (awsize), .awburst_i (awburst), .awuser_i (1'b0),
    .wvalid_i (wvalid), .wready_i (wready), .wdata_i (wdata), .wstrb_i (wstrb), .wlast_i (wlast),
    .bvalid_i (bvalid), .bready_i (bready), .bid_i (bid), .bresp_i (bresp),
    .arvalid_i (arvalid), .arready_i (arready), .arid_i (arid), .araddr_i (araddr),
    .arlen_i (arlen), .arsize_i (arsize), .arburst_i (arburst), .aruser_i (1'b0),
    .rvalid_i (rvalid), .rready_i (rready), .rid_i (rid), .rdata_i (rdata), .rresp_i (rresp),
    .rlast_i (rlast)
  );

  initial forever #5 clk = !clk;

  // Signals change at the falling edge; the checker samples the rising one.
  task automatic step(input int n = 1);
    repeat (n) @(negedge clk);
  endtask

  task automatic idle();
    awvalid = 1'b0; wvalid = 1'b0; bvalid = 1'b0; arvalid = 1'b0; rvalid = 1'b0;
    awready = 1'b1; wready = 1'b1; bready = 1'b1; arready = 1'b1; rready = 1'b1;
  endtask

  task automatic ar(input logic [3:0] id, input logic [31:0] addr, input logic [7:0] len,
                    input logic [1:0] burst);
    arvalid = 1'b1; arid = id; araddr = addr; arlen = len; arburst = burst;
    step();
    arvalid = 1'b0;
  endtask

  task automatic aw(input logic [3:0] id, input logic [31:0] addr, input logic [7:0] len,
                    input logic [1:0] burst);
    awvalid = 1'b1; awid = id; awaddr = addr; awlen = len; awburst = burst;
    step();
    awvalid = 1'b0;
  endtask

  task automatic r(input logic [3:0] id, input logic last);
    rvalid = 1'b1; rid = id; rlast = last; rdata = rdata + 64'd1;
    step();
    rvalid = 1'b0;
  endtask

  task automatic w(input logic last);
    wvalid = 1'b1; wlast = last; wdata = wdata + 64'd1;
    step();
    wvalid = 1'b0;
  endtask

  task automatic b(input logic [3:0] id);
    bvalid = 1'b1; bid = id;
    step();
    bvalid = 1'b0;
  endtask

  task automatic legal_traffic();
    // An AR held three cycles without ready, payload unchanged.
    arready = 1'b0; arvalid = 1'b1; arid = 4'd1; araddr = 32'h1000; arlen = 8'd3;
    arburst = 2'b01;
    step(3);
    arready = 1'b1;
    step();
    arvalid = 1'b0;
    // A WRAP read of 4 beats from the middle of its 32 bytes.
    ar(4'd2, 32'h2008, 8'd3, 2'b10);
    // The two reads' beats interleaved, with an R stall.
    r(4'd2, 1'b0); r(4'd1, 1'b0);
    rready = 1'b0; rvalid = 1'b1; rid = 4'd2; rlast = 1'b0; step(2); rready = 1'b1; step();
    rvalid = 1'b0;
    r(4'd1, 1'b0); r(4'd2, 1'b0); r(4'd2, 1'b1); r(4'd1, 1'b0); r(4'd1, 1'b1);
    // A read that ends the page exactly.
    ar(4'd3, 32'h2FC0, 8'd7, 2'b01);
    repeat (7) r(4'd3, 1'b0);
    r(4'd3, 1'b1);
    // W before its AW, then the AW and its B.
    w(1'b0); w(1'b1);
    aw(4'd3, 32'h3000, 8'd1, 2'b01);
    b(4'd3);
    // A single beat with its AW in the same cycle.
    awvalid = 1'b1; awid = 4'd4; awaddr = 32'h4000; awlen = 8'd0;
    wvalid = 1'b1; wlast = 1'b1;
    step();
    awvalid = 1'b0; wvalid = 1'b0;
    b(4'd4);
    // A three-beat write with a W stall; two writes' Bs out of order by ID.
    aw(4'd5, 32'h5000, 8'd2, 2'b01);
    aw(4'd6, 32'h6000, 8'd0, 2'b01);
    w(1'b0);
    wready = 1'b0; wvalid = 1'b1; wlast = 1'b0; step(2); wready = 1'b1; step();
    w(1'b1); w(1'b1);
    b(4'd6); b(4'd5);
    idle();
    step(2);
  endtask

  initial begin
    string c;
    if (!$value$plusargs("case=%s", c)) c = "none";
    step(3);
    rst_n = 1'b1;
    step(2);
    legal_traffic();
    case (c)
      "none": ;
      "valid_drop": begin     // ARVALID falls before ARREADY
        arready = 1'b0; arvalid = 1'b1; arid = 4'd0; araddr = 32'h100; arlen = 8'd0;
        step();
        arvalid = 1'b0;
      end
      "payload_change": begin // AWADDR moves while AWVALID waits
        awready = 1'b0; awvalid = 1'b1; awid = 4'd0; awaddr = 32'h100; awlen = 8'd0;
        step();
        awaddr = 32'h108;
      end
      "cross_4k": ar(4'd0, 32'h0FF8, 8'd1, 2'b01);   // two beats over a page end
      "wrap_len": aw(4'd0, 32'h0, 8'd2, 2'b10);      // a 3-beat WRAP
      "extra_r": begin        // a second beat for a one-beat read
        ar(4'd0, 32'h100, 8'd0, 2'b01);
        r(4'd0, 1'b1);
        r(4'd0, 1'b1);
      end
      "no_rlast": begin       // RLAST missing on the last beat
        ar(4'd0, 32'h100, 8'd1, 2'b01);
        r(4'd0, 1'b0);
        r(4'd0, 1'b0);
      end
      "same_id_order": begin  // the second read of an ID answered first
        ar(4'd0, 32'h100, 8'd0, 2'b01);
        ar(4'd0, 32'h200, 8'd1, 2'b01);
        r(4'd0, 1'b0);
      end
      "b_early": begin        // B before the last W beat
        aw(4'd0, 32'h100, 8'd1, 2'b01);
        w(1'b0);
        b(4'd0);
      end
      "wlast_early": begin    // WLAST on the first of two beats
        aw(4'd0, 32'h100, 8'd1, 2'b01);
        w(1'b1);
      end
      default: $fatal(1, "axi_checker_tb: unknown +case=%s", c);
    endcase
    step(3);
    $display("axi_checker_tb: %s: no assertion fired", c);
    $finish;
  end

endmodule : axi_checker_tb
