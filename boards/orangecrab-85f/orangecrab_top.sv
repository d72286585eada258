// SPDX-License-Identifier: Apache-2.0
// OrangeCrab r0.2 (Lattice ECP5 LFE5U-85F-8MG285C) board top.
//
// Pieces:
//   u_dram  the LiteDRAM standalone core, generated at build time from
//           litedram.yml (tools/board_litedram.sh): the ECP5 PLL (EHXPLLL)
//           and clock tree for the DDR3 PHY, the DDR3 controller, an AXI4
//           user port, and a small init CPU that runs DDR3 initialisation
//           and read leveling at power-up (init_done / init_error).
//   u_soc   the SoC with its UART host link (boards/common/uart_soc.sv),
//           on its own clock (soc, SocHz: 24 MHz by default) from a second
//           PLL: the placed SoC does not reach the DDR core's 48 MHz, and
//           the DDR3 PHY cannot run slower. orangecrab_soc_pll is generated
//           at build time by the pinned yowasp-ecppll (48 MHz in, OC_SOC_MHZ
//           out; tools/mk/boards.mk), which also passes SocHz.
//   u_cdc   the AXI4 clock crossing (rtl/axi4_cdc.sv) from the SoC's DDR
//           master to the core's user port (sys, 48 MHz).
//   console soc_top's console byte stream goes out on its own TX-only UART.
//
// Reset: the SoC leaves reset when the DDR core is out of reset and reports
// init_done without init_error, the SoC's PLL is locked, and while the user
// button is not pressed. One condition resets both clock domains (asserted
// at once, released two cycles later in each), as the crossing requires.
// Holding the button for
// one second pulls the board's reset line, which reloads the FPGA from the
// bootloader (as the OrangeCrab's own designs do).
//
// LEDs (RGB, active low): green blinks at about 1.4 Hz while the SoC runs;
// blue flashes for each host request; red is steady on a DDR calibration
// failure and flashes for each NAK the link sends.
//
// Baud rates: host link and console 1 Mbaud (ClkDiv 24 at 24 MHz); the DDR
// core's calibration log 115200.
//
// MMU configuration: the product's default MMU (8 walkers, 8 miss registers
// and 32 miss slots per port, stride prefetch) is too large beside the CPU,
// four engines and LiteDRAM on an 85F. The board builds it with 2 walkers,
// 2 miss registers and 4 miss slots per port, no prefetch and no walk
// following, and 8-entry L1 TLBs (docs/boards.md): with more the 85F is
// too full for nextpnr to route. MMU_CONFIG reports these (the firmware reads the walker
// count); nothing else changes. `make fmax-mmu` times mmu_top with these values.
//
// The paging engine is built smaller than soc_top's default too: a 32-beat
// COPY FIFO (two 16-beat bursts), 4 bursts in flight per port and 4 packets
// in flight (the queue stays 512 words: it is block RAM either way). The
// firmware reads QUEUE_WORDS and CONFIG back; DDR at 48 MHz behind the clock
// crossing needs no deeper pipeline.
module orangecrab_top #(
  parameter string       RamInit   = "",
  parameter int unsigned SysHz     = 48_000_000,   // the DDR core's user clock
  parameter int unsigned SocHz     = 24_000_000,   // the SoC's clock (orangecrab_soc_pll)
  parameter int unsigned Baud      = 1_000_000,
  parameter int unsigned DdrSizeMb = 128,
  parameter int unsigned MmuWalkers = 2,
  parameter int unsigned MmuMshrs   = 2,
  parameter int unsigned MmuSlots   = 4,
  parameter int unsigned MmuPfDepth = 0,
  parameter bit          MmuFollow  = 1'b0,
  parameter int unsigned MmuL1Entries = 8,
  parameter int unsigned PagingCopyFifoBeats = 32,
  parameter int unsigned PagingOutstanding   = 4,
  parameter int unsigned PagingPktSlots      = 4
) (
  input  logic        clk48_i,        // 48 MHz oscillator
  input  logic        usr_btn_ni,     // user button, low when pressed
  output logic        rst_no,         // low: reload the FPGA (bootloader)
  output logic        led_r_no,
  output logic        led_g_no,
  output logic        led_b_no,

  input  logic        uart_rx_i,      // host link, from the host's TX
  output logic        uart_tx_o,      // host link, to the host's RX
  output logic        console_tx_o,   // SoC console, TX only
  output logic        dram_log_tx_o,  // DDR core's calibration log, TX only

  // DDR3L (MT41K64M16: 13 row address bits)
  output logic [12:0] ddram_a_o,
  output logic [2:0]  ddram_ba_o,
  output logic        ddram_ras_no,
  output logic        ddram_cas_no,
  output logic        ddram_we_no,
  output logic        ddram_cs_no,
  output logic [1:0]  ddram_dm_o,
  inout  wire  [15:0] ddram_dq_io,
  inout  wire  [1:0]  ddram_dqs_p_io,
  output logic        ddram_clk_p_o,
  output logic        ddram_cke_o,
  output logic        ddram_odt_o,
  output logic        ddram_reset_no,
  // Pins of the DDR bank tied to the rails, as the board expects
  output logic [5:0]  ddram_vccio_o,
  output logic [1:0]  ddram_gnd_o
);

  localparam int unsigned ClkDiv = SocHz / Baud;
  localparam int unsigned IdW = gmmu_soc_pkg::DDR_AXI_ID_BITS;
  localparam int unsigned DdrAw = 27;  // byte address bits of the 128 MiB user port

  assign ddram_vccio_o = '1;
  assign ddram_gnd_o   = '0;

  // ------------------------------------------------------------ DDR core
  logic        sys_clk, sys_rst, init_done, init_error, pll_locked;

  logic              awvalid, awready, wvalid, wready, wlast, bvalid, bready;
  logic              arvalid, arready, rvalid, rready, rlast;
  logic [IdW-1:0]    awid, bid, arid, rid;
  logic [31:0]       awaddr, araddr;
  logic [7:0]        awlen, arlen, wstrb;
  logic [2:0]        awsize, arsize;
  logic [1:0]        awburst, arburst, bresp, rresp;
  logic [63:0]       wdata, rdata;

  litedram_core u_dram (
    .clk                   (clk48_i),
    .rst                   (1'b0),          // the core has its own power-on reset
    .pll_locked            (pll_locked),
    .init_done             (init_done),
    .init_error            (init_error),
    .user_clk              (sys_clk),
    .user_rst              (sys_rst),
    .uart_rx               (1'b1),
    .uart_tx               (dram_log_tx_o),
    .ddram_a               (ddram_a_o),
    .ddram_ba              (ddram_ba_o),
    .ddram_ras_n           (ddram_ras_no),
    .ddram_cas_n           (ddram_cas_no),
    .ddram_we_n            (ddram_we_no),
    .ddram_cs_n            (ddram_cs_no),
    .ddram_dm              (ddram_dm_o),
    .ddram_dq              (ddram_dq_io),
    .ddram_dqs_p           (ddram_dqs_p_io),
    .ddram_dqs_n           (2'b00),         // SSTL135D: the pad pair is one differential buffer
    .ddram_clk_p           (ddram_clk_p_o),
    .ddram_clk_n           (1'b0),
    .ddram_cke             (ddram_cke_o),
    .ddram_odt             (ddram_odt_o),
    .ddram_reset_n         (ddram_reset_no),
    .user_port_axi_awvalid (awvalid),
    .user_port_axi_awready (awready),
    .user_port_axi_awaddr  (awaddr[DdrAw-1:0]),
    .user_port_axi_awburst (awburst),
    .user_port_axi_awlen   (awlen),
    .user_port_axi_awsize  ({1'b0, awsize}),
    .user_port_axi_awid    (awid),
    .user_port_axi_wvalid  (wvalid),
    .user_port_axi_wready  (wready),
    .user_port_axi_wlast   (wlast),
    .user_port_axi_wstrb   (wstrb),
    .user_port_axi_wdata   (wdata),
    .user_port_axi_bvalid  (bvalid),
    .user_port_axi_bready  (bready),
    .user_port_axi_bresp   (bresp),
    .user_port_axi_bid     (bid),
    .user_port_axi_arvalid (arvalid),
    .user_port_axi_arready (arready),
    .user_port_axi_araddr  (araddr[DdrAw-1:0]),
    .user_port_axi_arburst (arburst),
    .user_port_axi_arlen   (arlen),
    .user_port_axi_arsize  ({1'b0, arsize}),
    .user_port_axi_arid    (arid),
    .user_port_axi_rvalid  (rvalid),
    .user_port_axi_rready  (rready),
    .user_port_axi_rlast   (rlast),
    .user_port_axi_rresp   (rresp),
    .user_port_axi_rdata   (rdata),
    .user_port_axi_rid     (rid)
  );

  // ------------------------------------------------------------ clocks, reset
  logic soc_clk, soc_locked;
  orangecrab_soc_pll u_soc_pll (.clk48_i, .clk_o (soc_clk), .locked (soc_locked));

  logic [1:0] btn_sync_q;
  logic [1:0] rst_sync_q;       // sys domain: the crossing's DDR side
  logic [1:0] soc_rst_sync_q;   // soc domain: the SoC and the crossing's SoC side
  logic       run;

  always_ff @(posedge sys_clk) btn_sync_q <= {btn_sync_q[0], usr_btn_ni};

  assign run = !sys_rst && init_done && !init_error && btn_sync_q[1] && soc_locked;

  // Asynchronous assertion, synchronous release, in each domain.
  always_ff @(posedge sys_clk or negedge run) begin
    if (!run) rst_sync_q <= 2'b00;
    else      rst_sync_q <= {rst_sync_q[0], 1'b1};
  end
  always_ff @(posedge soc_clk or negedge run) begin
    if (!run) soc_rst_sync_q <= 2'b00;
    else      soc_rst_sync_q <= {soc_rst_sync_q[0], 1'b1};
  end

  // A button held for a second reloads the FPGA.
  localparam int unsigned HoldW = $clog2(SysHz + 1);
  logic [HoldW-1:0] hold_q;
  logic             reload_q;
  always_ff @(posedge sys_clk) begin
    if (btn_sync_q[1]) begin
      hold_q <= '0;
    end else if (hold_q != HoldW'(SysHz)) begin
      hold_q <= hold_q + 1'b1;
    end
    reload_q <= !btn_sync_q[1] && hold_q == HoldW'(SysHz);
  end
  assign rst_no = !reload_q;

  // ------------------------------------------------------------ SoC
  logic       console_valid, console_ready;
  logic [7:0] console_data;
  logic       link_req, link_nak, link_drop, host_irq;
  logic       exit_valid;
  logic [31:0] exit_code;

  // The SoC's DDR master, in the soc domain.
  logic              s_awvalid, s_awready, s_wvalid, s_wready, s_wlast, s_bvalid, s_bready;
  logic              s_arvalid, s_arready, s_rvalid, s_rready, s_rlast;
  logic [IdW-1:0]    s_awid, s_bid, s_arid, s_rid;
  logic [31:0]       s_awaddr, s_araddr;
  logic [7:0]        s_awlen, s_arlen, s_wstrb;
  logic [2:0]        s_awsize, s_arsize;
  logic [1:0]        s_awburst, s_arburst, s_bresp, s_rresp;
  logic [63:0]       s_wdata, s_rdata;

  uart_soc #(.ClkDiv(ClkDiv), .RamInit(RamInit), .MmuWalkers(MmuWalkers), .MmuMshrs(MmuMshrs),
             .MmuSlots(MmuSlots), .MmuPfDepth(MmuPfDepth), .MmuFollow(MmuFollow),
             .MmuL1Entries(MmuL1Entries), .PagingCopyFifoBeats(PagingCopyFifoBeats),
             .PagingOutstanding(PagingOutstanding), .PagingPktSlots(PagingPktSlots)) u_soc (
    .clk_i (soc_clk), .rst_ni (soc_rst_sync_q[1]),
    .boot_arg_i ('0), .ddr_size_mb_i (16'(DdrSizeMb)),
    .console_valid_o (console_valid), .console_data_o (console_data),
    .console_ready_i (console_ready),
    .exit_valid_o (exit_valid), .exit_code_o (exit_code),
    .uart_rx_i, .uart_tx_o,
    .link_req_o (link_req), .link_nak_o (link_nak), .link_drop_o (link_drop),
    .host_irq_o (host_irq),
    .ddr_awvalid_o (s_awvalid), .ddr_awready_i (s_awready), .ddr_awid_o (s_awid),
    .ddr_awaddr_o (s_awaddr), .ddr_awlen_o (s_awlen), .ddr_awsize_o (s_awsize),
    .ddr_awburst_o (s_awburst), .ddr_wvalid_o (s_wvalid), .ddr_wready_i (s_wready),
    .ddr_wdata_o (s_wdata), .ddr_wstrb_o (s_wstrb), .ddr_wlast_o (s_wlast),
    .ddr_bvalid_i (s_bvalid), .ddr_bready_o (s_bready), .ddr_bid_i (s_bid), .ddr_bresp_i (s_bresp),
    .ddr_arvalid_o (s_arvalid), .ddr_arready_i (s_arready), .ddr_arid_o (s_arid),
    .ddr_araddr_o (s_araddr), .ddr_arlen_o (s_arlen), .ddr_arsize_o (s_arsize),
    .ddr_arburst_o (s_arburst), .ddr_rvalid_i (s_rvalid), .ddr_rready_o (s_rready),
    .ddr_rid_i (s_rid), .ddr_rdata_i (s_rdata), .ddr_rresp_i (s_rresp), .ddr_rlast_i (s_rlast)
  );

  axi4_cdc #(.IdW(IdW), .AddrW(32), .DataW(64)) u_cdc (
    .s_clk_i (soc_clk), .s_rst_ni (soc_rst_sync_q[1]),
    .s_awvalid_i (s_awvalid), .s_awready_o (s_awready), .s_awid_i (s_awid), .s_awaddr_i (s_awaddr),
    .s_awlen_i (s_awlen), .s_awsize_i (s_awsize), .s_awburst_i (s_awburst),
    .s_wvalid_i (s_wvalid), .s_wready_o (s_wready), .s_wdata_i (s_wdata), .s_wstrb_i (s_wstrb),
    .s_wlast_i (s_wlast), .s_bvalid_o (s_bvalid), .s_bready_i (s_bready), .s_bid_o (s_bid),
    .s_bresp_o (s_bresp), .s_arvalid_i (s_arvalid), .s_arready_o (s_arready), .s_arid_i (s_arid),
    .s_araddr_i (s_araddr), .s_arlen_i (s_arlen), .s_arsize_i (s_arsize), .s_arburst_i (s_arburst),
    .s_rvalid_o (s_rvalid), .s_rready_i (s_rready), .s_rid_o (s_rid), .s_rdata_o (s_rdata),
    .s_rresp_o (s_rresp), .s_rlast_o (s_rlast),
    .m_clk_i (sys_clk), .m_rst_ni (rst_sync_q[1]),
    .m_awvalid_o (awvalid), .m_awready_i (awready), .m_awid_o (awid), .m_awaddr_o (awaddr),
    .m_awlen_o (awlen), .m_awsize_o (awsize), .m_awburst_o (awburst),
    .m_wvalid_o (wvalid), .m_wready_i (wready), .m_wdata_o (wdata), .m_wstrb_o (wstrb),
    .m_wlast_o (wlast), .m_bvalid_i (bvalid), .m_bready_o (bready), .m_bid_i (bid),
    .m_bresp_i (bresp), .m_arvalid_o (arvalid), .m_arready_i (arready), .m_arid_o (arid),
    .m_araddr_o (araddr), .m_arlen_o (arlen), .m_arsize_o (arsize), .m_arburst_o (arburst),
    .m_rvalid_i (rvalid), .m_rready_o (rready), .m_rid_i (rid), .m_rdata_i (rdata),
    .m_rresp_i (rresp), .m_rlast_i (rlast)
  );

  uart_tx #(.ClkDiv(ClkDiv)) u_console (
    .clk_i (soc_clk), .rst_ni (soc_rst_sync_q[1]),
    .valid_i (console_valid), .data_i (console_data), .ready_o (console_ready),
    .tx_o (console_tx_o)
  );

  // ------------------------------------------------------------ LEDs
  // In the soc domain, where the link's pulses come from.
  localparam int unsigned FlashW = $clog2(SocHz / 20);  // about 50 ms
  localparam int unsigned BeatW  = $clog2(SocHz) - 1;   // top bit: 1 to 2 Hz
  logic [BeatW-1:0]  beat_q;
  logic [FlashW-1:0] blue_q, red_q;

  always_ff @(posedge soc_clk) begin
    beat_q <= beat_q + 1'b1;
    if (link_req)            blue_q <= '1;
    else if (blue_q != '0)   blue_q <= blue_q - 1'b1;
    if (link_nak | link_drop) red_q <= '1;
    else if (red_q != '0)    red_q <= red_q - 1'b1;
  end

  assign led_g_no = !(soc_rst_sync_q[1] && beat_q[BeatW-1]);
  assign led_b_no = !(blue_q != '0);
  assign led_r_no = !(init_error || red_q != '0);

  // The exit request is for simulation; the level interrupt has no pin.
  logic unused;
  assign unused = ^{exit_valid, exit_code, host_irq, pll_locked, awaddr[31:DdrAw], araddr[31:DdrAw]};

endmodule : orangecrab_top
