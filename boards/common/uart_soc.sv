// SPDX-License-Identifier: Apache-2.0
// The SoC with its UART host link: soc_top whose BAR0/BAR1 AXI4-Lite slaves
// and MSI are driven by uart_bar_bridge, so a host reaches the mailbox over
// one serial line (libgmmu "uart:" transport, include/gmmu/uartlink.h).
//
// Used as is by the Verilator UART harness (sim/uart_main.cpp) and inside
// the OrangeCrab top (boards/orangecrab-85f/orangecrab_top.sv), so the board
// runs exactly the logic the host suite tests. Everything else of soc_top
// (console, exit, straps, the DDR AXI4 master) passes through, except the
// system-memory master: a serial line cannot carry the device's DMA into
// host memory, so it ends in an error slave (SLVERR on every burst, as a
// PCIe bridge answers an access the host refused). An engine touching a
// segment-0 page then faults with BUS_ERROR instead of hanging, and
// libgmmu's gmmu_sysmem_alloc says GMMU_E_NOT_SUPPORTED on uart:.
//
// ClkDiv: clock cycles per UART bit (clock / baud). The serial input is
// synchronised inside the bridge; the output is registered.
module uart_soc #(
  parameter int unsigned ClkDiv   = 8,
  parameter int unsigned RamWords = gmmu_soc_pkg::RAM_SIZE / 4,
  parameter string       RamInit  = "",
  parameter int unsigned MmuWalkers = gmmu_mmu_pkg::WALKERS,
  parameter int unsigned MmuMshrs   = gmmu_mmu_pkg::MSHRS,
  parameter int unsigned MmuSlots   = gmmu_mmu_pkg::MISS_SLOTS,
  parameter int unsigned MmuPfDepth = gmmu_mmu_pkg::PF_DEPTH,
  parameter bit          MmuFollow  = 1'b1,
  parameter int unsigned MmuL1Entries = gmmu_mmu_pkg::L1_ENTRIES,
  // The paging engine's configuration (soc_top's Paging* parameters)
  parameter int unsigned PagingQueueWords    = gmmu_paging_pkg::PAGING_QUEUE_WORDS_DEFAULT,
  parameter int unsigned PagingCopyFifoBeats = 128,
  parameter int unsigned PagingOutstanding   = 8,
  parameter int unsigned PagingPktSlots      = 8
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  input  logic [31:0] boot_arg_i,
  input  logic [15:0] ddr_size_mb_i,

  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  input  logic        console_ready_i,

  output logic        exit_valid_o,
  output logic [31:0] exit_code_o,

  // Host link: serial line and status pulses
  input  logic        uart_rx_i,
  output logic        uart_tx_o,
  output logic        link_req_o,
  output logic        link_nak_o,
  output logic        link_drop_o,
  output logic        host_irq_o,

  // DDR: AXI4 master
  output logic        ddr_awvalid_o,
  input  logic        ddr_awready_i,
  output logic [gmmu_soc_pkg::DDR_AXI_ID_BITS-1:0] ddr_awid_o,
  output logic [31:0] ddr_awaddr_o,
  output logic [7:0]  ddr_awlen_o,
  output logic [2:0]  ddr_awsize_o,
  output logic [1:0]  ddr_awburst_o,
  output logic        ddr_wvalid_o,
  input  logic        ddr_wready_i,
  output logic [63:0] ddr_wdata_o,
  output logic [7:0]  ddr_wstrb_o,
  output logic        ddr_wlast_o,
  input  logic        ddr_bvalid_i,
  output logic        ddr_bready_o,
  input  logic [gmmu_soc_pkg::DDR_AXI_ID_BITS-1:0] ddr_bid_i,
  input  logic [1:0]  ddr_bresp_i,
  output logic        ddr_arvalid_o,
  input  logic        ddr_arready_i,
  output logic [gmmu_soc_pkg::DDR_AXI_ID_BITS-1:0] ddr_arid_o,
  output logic [31:0] ddr_araddr_o,
  output logic [7:0]  ddr_arlen_o,
  output logic [2:0]  ddr_arsize_o,
  output logic [1:0]  ddr_arburst_o,
  input  logic        ddr_rvalid_i,
  output logic        ddr_rready_o,
  input  logic [gmmu_soc_pkg::DDR_AXI_ID_BITS-1:0] ddr_rid_i,
  input  logic [63:0] ddr_rdata_i,
  input  logic [1:0]  ddr_rresp_i,
  input  logic        ddr_rlast_i
);

  // The link's BAR0 and BAR1 masters (axi4_pkg's AXI4-Lite structs).
  axi4_pkg::axil_req_t [1:0] bar_req;
  axi4_pkg::axil_rsp_t [1:0] bar_rsp;
  logic        host_msi;

  // soc_top's system-memory master as axi4_pkg structs (its IDs are
  // SYSMEM_AXI_ID_BITS = axi4_pkg::ID_W wide, AxCACHE rides as the user field).
  axi4_pkg::axi4_req_t sys_req;
  axi4_pkg::axi4_rsp_t sys_rsp;

  soc_top #(.RamWords(RamWords), .RamInit(RamInit), .MmuWalkers(MmuWalkers), .MmuMshrs(MmuMshrs),
            .MmuSlots(MmuSlots), .MmuPfDepth(MmuPfDepth), .MmuFollow(MmuFollow),
            .MmuL1Entries(MmuL1Entries), .PagingQueueWords(PagingQueueWords),
            .PagingCopyFifoBeats(PagingCopyFifoBeats), .PagingOutstanding(PagingOutstanding),
            .PagingPktSlots(PagingPktSlots)) u_soc (
    .clk_i, .rst_ni, .boot_arg_i, .ddr_size_mb_i,
    .console_valid_o, .console_data_o, .console_ready_i,
    .exit_valid_o, .exit_code_o,
    .bar0_awvalid_i (bar_req[0].aw_valid), .bar0_awready_o (bar_rsp[0].aw_ready),
    .bar0_awaddr_i (bar_req[0].aw_addr[15:0]),
    .bar0_wvalid_i (bar_req[0].w_valid), .bar0_wready_o (bar_rsp[0].w_ready),
    .bar0_wdata_i (bar_req[0].w_data), .bar0_wstrb_i (bar_req[0].w_strb),
    .bar0_bvalid_o (bar_rsp[0].b_valid), .bar0_bready_i (bar_req[0].b_ready),
    .bar0_bresp_o (bar_rsp[0].b_resp),
    .bar0_arvalid_i (bar_req[0].ar_valid), .bar0_arready_o (bar_rsp[0].ar_ready),
    .bar0_araddr_i (bar_req[0].ar_addr[15:0]),
    .bar0_rvalid_o (bar_rsp[0].r_valid), .bar0_rready_i (bar_req[0].r_ready),
    .bar0_rdata_o (bar_rsp[0].r_data), .bar0_rresp_o (bar_rsp[0].r_resp),
    .bar1_awvalid_i (bar_req[1].aw_valid), .bar1_awready_o (bar_rsp[1].aw_ready),
    .bar1_awaddr_i (bar_req[1].aw_addr[23:0]),
    .bar1_wvalid_i (bar_req[1].w_valid), .bar1_wready_o (bar_rsp[1].w_ready),
    .bar1_wdata_i (bar_req[1].w_data), .bar1_wstrb_i (bar_req[1].w_strb),
    .bar1_bvalid_o (bar_rsp[1].b_valid), .bar1_bready_i (bar_req[1].b_ready),
    .bar1_bresp_o (bar_rsp[1].b_resp),
    .bar1_arvalid_i (bar_req[1].ar_valid), .bar1_arready_o (bar_rsp[1].ar_ready),
    .bar1_araddr_i (bar_req[1].ar_addr[23:0]),
    .bar1_rvalid_o (bar_rsp[1].r_valid), .bar1_rready_i (bar_req[1].r_ready),
    .bar1_rdata_o (bar_rsp[1].r_data), .bar1_rresp_o (bar_rsp[1].r_resp),
    .host_irq_o, .host_msi_o (host_msi),
    .ddr_awvalid_o, .ddr_awready_i, .ddr_awid_o, .ddr_awaddr_o, .ddr_awlen_o, .ddr_awsize_o,
    .ddr_awburst_o, .ddr_wvalid_o, .ddr_wready_i, .ddr_wdata_o, .ddr_wstrb_o, .ddr_wlast_o,
    .ddr_bvalid_i, .ddr_bready_o, .ddr_bid_i, .ddr_bresp_i, .ddr_arvalid_o, .ddr_arready_i,
    .ddr_arid_o, .ddr_araddr_o, .ddr_arlen_o, .ddr_arsize_o, .ddr_arburst_o, .ddr_rvalid_i,
    .ddr_rready_o, .ddr_rid_i, .ddr_rdata_i, .ddr_rresp_i, .ddr_rlast_i,
    .sysmem_awvalid_o (sys_req.aw_valid), .sysmem_awready_i (sys_rsp.aw_ready),
    .sysmem_awid_o (sys_req.aw.id), .sysmem_awaddr_o (sys_req.aw.addr),
    .sysmem_awlen_o (sys_req.aw.len), .sysmem_awsize_o (sys_req.aw.size),
    .sysmem_awburst_o (sys_req.aw.burst), .sysmem_awcache_o (sys_req.aw.user),
    .sysmem_wvalid_o (sys_req.w_valid), .sysmem_wready_i (sys_rsp.w_ready),
    .sysmem_wdata_o (sys_req.w.data), .sysmem_wstrb_o (sys_req.w.strb),
    .sysmem_wlast_o (sys_req.w.last),
    .sysmem_bvalid_i (sys_rsp.b_valid), .sysmem_bready_o (sys_req.b_ready),
    .sysmem_bid_i (sys_rsp.b.id), .sysmem_bresp_i (sys_rsp.b.resp),
    .sysmem_arvalid_o (sys_req.ar_valid), .sysmem_arready_i (sys_rsp.ar_ready),
    .sysmem_arid_o (sys_req.ar.id), .sysmem_araddr_o (sys_req.ar.addr),
    .sysmem_arlen_o (sys_req.ar.len), .sysmem_arsize_o (sys_req.ar.size),
    .sysmem_arburst_o (sys_req.ar.burst), .sysmem_arcache_o (sys_req.ar.user),
    .sysmem_rvalid_i (sys_rsp.r_valid), .sysmem_rready_o (sys_req.r_ready),
    .sysmem_rid_i (sys_rsp.r.id), .sysmem_rdata_i (sys_rsp.r.data),
    .sysmem_rresp_i (sys_rsp.r.resp), .sysmem_rlast_i (sys_rsp.r.last)
  );

  axi4_err_slave #(.IdW(gmmu_soc_pkg::SYSMEM_AXI_ID_BITS), .Resp(2'b10)) u_no_sysmem (
    .clk_i, .rst_ni,
    .req_i (sys_req), .rsp_o (sys_rsp)
  );

  uart_bar_bridge #(
    .ClkDiv   (ClkDiv),
    .Bar0Log2 ($clog2(gmmu_mbox_pkg::BAR0_BYTES)),
    .Bar1Log2 ($clog2(gmmu_mbox_pkg::BAR1_BYTES))
  ) u_link (
    .clk_i, .rst_ni,
    .rx_i (uart_rx_i), .tx_o (uart_tx_o),
    .bar_o (bar_req), .bar_i (bar_rsp),
    .msi_i ({31'b0, host_msi}),
    .req_o (link_req_o), .nak_o (link_nak_o), .drop_o (link_drop_o)
  );

  // The BARs' addresses are 16 and 24 bits (the link drives the rest 0).
  logic unused_bar;
  assign unused_bar = ^{bar_req[0].aw_addr[31:16], bar_req[0].ar_addr[31:16],
                        bar_req[1].aw_addr[31:24], bar_req[1].ar_addr[31:24]};

endmodule : uart_soc
