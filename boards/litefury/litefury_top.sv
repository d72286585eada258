// SPDX-License-Identifier: Apache-2.0
// LiteFury (RHS Research; Xilinx Artix-7 XC7A100T-L2FGG484, M.2 PCIe x4,
// 512 MiB DDR3 MT41J256M16) board top for the Vivado batch flow in
// boards/litefury/build.tcl.
//
// Pieces:
//   u_bd   the block design litefury_bd (boards/litefury/bd.tcl): the
//          Xilinx AXI-PCIe bridge (axi_pcie, Gen2 x4) whose AXI4 master
//          carries host BAR accesses (BAR0 64 KiB -> AXI 0x0000_0000, BAR1
//          16 MiB -> AXI 0x0100_0000) through a SmartConnect that splits
//          them into two AXI4-Lite masters M_BAR0/M_BAR1 and moves them to
//          the DDR controller's clock; the MIG DDR3 controller (400 MHz
//          memory clock, 4:1, ui_clk 100 MHz) with its AXI4 slave S_DDR;
//          S_SYSMEM, an AXI4 slave (64-bit data, 32-bit addresses, 8-bit
//          IDs, AxCACHE) through a SmartConnect to the bridge's AXI slave,
//          whose bursts become PCIe memory requests into host memory; and
//          BAR2 (4 KiB) onto the bridge's own control registers, where the
//          host driver programs the AXI-to-PCIe translation (below).
//   u_sysmem_route  soc_top's system-memory master (engine bursts to Segment 0
//          pages) goes to S_SYSMEM when its 64-bit address is below 4 GiB,
//          else to u_sysmem_decerr (DECERR: the engine faults with
//          BUS_ERROR and nothing reaches PCIe). So the device's system-memory
//          addresses are 0 .. 4 GiB - 1: two 2 GiB windows, bit 31 picks
//          AXIBAR 0 or 1 of the bridge, and the bridge replaces bits 63:31
//          with that window's AXIBAR2PCIEBAR register (reset values 0 and
//          0x8000_0000: device address = host bus address below 4 GiB; the
//          host driver may point either window at any 2 GiB-aligned host bus
//          address through BAR2). AxCACHE (CacheCoherent: 0xF, else 0x3)
//          travels on the AXI side up to the bridge; axi_pcie's AXI slave
//          has no AxCACHE input, so CacheCoherent cannot set PCIe No
//          Snoop: every request goes out with the bridge's fixed attributes
//          (expected snooped, not confirmed). See boards/litefury/README.md.
//   u_soc  soc_top on ui_clk, so its DDR master needs no clock crossing.
//
// Interrupts: soc_top's MSI pulse (ui_clk) crosses to the bridge's clock as
// a toggle; the request is held until the bridge grants it (PG055 MSI
// handshake), one vector.
//
// Reset: PERST# resets the bridge and the MIG; the SoC runs once the MIG
// reports calibration done and its user reset is released.
module litefury_top #(
  parameter string RamInit = "",  // firmware image for $readmemh (build.tcl sets it)
  // 8 miss registers per port, not the default 16 (which pays the L2's
  // output registers back on the bench): the XC7A100T also
  // holds the PCIe bridge and the MIG, and the MMU takes 39 695 LUTs with
  // 8 and 49 756 with 16 (Yosys estimates, docs/performance.md).
  parameter int unsigned MmuMshrs = 8
) (
  // PCIe (M.2 key M), 100 MHz reference clock from the host
  input  logic        pcie_refclk_p_i,
  input  logic        pcie_refclk_n_i,
  input  logic        pcie_perst_ni,
  output logic        pcie_clkreq_no,
  input  logic [3:0]  pcie_rx_p_i,
  input  logic [3:0]  pcie_rx_n_i,
  output logic [3:0]  pcie_tx_p_o,
  output logic [3:0]  pcie_tx_n_o,

  // 200 MHz oscillator: MIG system and reference clock
  input  logic        ddr_refclk_p_i,
  input  logic        ddr_refclk_n_i,

  // DDR3 (MT41J256M16, 16-bit, no chip select on the board)
  output logic [14:0] ddr3_addr_o,
  output logic [2:0]  ddr3_ba_o,
  output logic        ddr3_ras_no,
  output logic        ddr3_cas_no,
  output logic        ddr3_we_no,
  output logic        ddr3_reset_no,
  output logic        ddr3_ck_p_o,
  output logic        ddr3_ck_n_o,
  output logic        ddr3_cke_o,
  output logic        ddr3_odt_o,
  output logic [1:0]  ddr3_dm_o,
  inout  wire  [15:0] ddr3_dq_io,
  inout  wire  [1:0]  ddr3_dqs_p_io,
  inout  wire  [1:0]  ddr3_dqs_n_io,

  // LEDs A1..A4, active low
  output logic [3:0]  led_no
);

  import gmmu_soc_pkg::DDR_AXI_ID_BITS;

  localparam int unsigned DdrMb  = 512;
  localparam int unsigned SysIdW = gmmu_soc_pkg::SYSMEM_AXI_ID_BITS;

  // ------------------------------------------------------------ block design
  logic        ui_clk, ui_rstn, calib_done, link_up, pcie_clk;
  logic        msi_request, msi_grant, msi_enable;

  logic        bar0_awvalid, bar0_awready, bar0_wvalid, bar0_wready, bar0_bvalid, bar0_bready;
  logic        bar0_arvalid, bar0_arready, bar0_rvalid, bar0_rready;
  logic [31:0] bar0_awaddr, bar0_araddr, bar0_wdata, bar0_rdata;
  logic [3:0]  bar0_wstrb;
  logic [1:0]  bar0_bresp, bar0_rresp;
  logic        bar1_awvalid, bar1_awready, bar1_wvalid, bar1_wready, bar1_bvalid, bar1_bready;
  logic        bar1_arvalid, bar1_arready, bar1_rvalid, bar1_rready;
  logic [31:0] bar1_awaddr, bar1_araddr, bar1_wdata, bar1_rdata;
  logic [3:0]  bar1_wstrb;
  logic [1:0]  bar1_bresp, bar1_rresp;

  logic                       ddr_awvalid, ddr_awready, ddr_wvalid, ddr_wready, ddr_wlast;
  logic                       ddr_bvalid, ddr_bready, ddr_arvalid, ddr_arready;
  logic                       ddr_rvalid, ddr_rready, ddr_rlast;
  logic [DDR_AXI_ID_BITS-1:0] ddr_awid, ddr_bid, ddr_arid, ddr_rid;
  logic [31:0]                ddr_awaddr, ddr_araddr;
  logic [7:0]                 ddr_awlen, ddr_arlen, ddr_wstrb;
  logic [2:0]                 ddr_awsize, ddr_arsize;
  logic [1:0]                 ddr_awburst, ddr_arburst, ddr_bresp, ddr_rresp;
  logic [63:0]                ddr_wdata, ddr_rdata;

  // S_SYSMEM: u_sysmem_route's bridge side (slave 0)
  logic              br_awvalid, br_awready, br_wvalid, br_wready, br_wlast;
  logic              br_bvalid, br_bready, br_arvalid, br_arready;
  logic              br_rvalid, br_rready, br_rlast;
  logic [SysIdW-1:0] br_awid, br_bid, br_arid, br_rid;
  logic [63:0]       br_awaddr, br_araddr, br_wdata, br_rdata;
  logic [7:0]        br_awlen, br_arlen, br_wstrb;
  logic [2:0]        br_awsize, br_arsize;
  logic [1:0]        br_awburst, br_arburst, br_bresp, br_rresp;
  logic [3:0]        br_awcache, br_arcache;

  litefury_bd_wrapper u_bd (
    .pcie_refclk_clk_p    (pcie_refclk_p_i),
    .pcie_refclk_clk_n    (pcie_refclk_n_i),
    .pcie_perst_n         (pcie_perst_ni),
    .pcie_mgt_rxp         (pcie_rx_p_i),
    .pcie_mgt_rxn         (pcie_rx_n_i),
    .pcie_mgt_txp         (pcie_tx_p_o),
    .pcie_mgt_txn         (pcie_tx_n_o),
    .pcie_axi_clk         (pcie_clk),
    .pcie_link_up         (link_up),
    .pcie_msi_request     (msi_request),
    .pcie_msi_grant       (msi_grant),
    .pcie_msi_enable      (msi_enable),

    .ddr_sys_clk_clk_p    (ddr_refclk_p_i),
    .ddr_sys_clk_clk_n    (ddr_refclk_n_i),
    .DDR3_addr            (ddr3_addr_o),
    .DDR3_ba              (ddr3_ba_o),
    .DDR3_ras_n           (ddr3_ras_no),
    .DDR3_cas_n           (ddr3_cas_no),
    .DDR3_we_n            (ddr3_we_no),
    .DDR3_reset_n         (ddr3_reset_no),
    .DDR3_ck_p            (ddr3_ck_p_o),
    .DDR3_ck_n            (ddr3_ck_n_o),
    .DDR3_cke             (ddr3_cke_o),
    .DDR3_odt             (ddr3_odt_o),
    .DDR3_dm              (ddr3_dm_o),
    .DDR3_dq              (ddr3_dq_io),
    .DDR3_dqs_p           (ddr3_dqs_p_io),
    .DDR3_dqs_n           (ddr3_dqs_n_io),
    .ui_clk               (ui_clk),
    .ui_rstn              (ui_rstn),
    .init_calib_complete  (calib_done),

    .M_BAR0_awaddr (bar0_awaddr), .M_BAR0_awprot (), .M_BAR0_awvalid (bar0_awvalid),
    .M_BAR0_awready (bar0_awready), .M_BAR0_wdata (bar0_wdata), .M_BAR0_wstrb (bar0_wstrb),
    .M_BAR0_wvalid (bar0_wvalid), .M_BAR0_wready (bar0_wready), .M_BAR0_bresp (bar0_bresp),
    .M_BAR0_bvalid (bar0_bvalid), .M_BAR0_bready (bar0_bready), .M_BAR0_araddr (bar0_araddr),
    .M_BAR0_arprot (), .M_BAR0_arvalid (bar0_arvalid), .M_BAR0_arready (bar0_arready),
    .M_BAR0_rdata (bar0_rdata), .M_BAR0_rresp (bar0_rresp), .M_BAR0_rvalid (bar0_rvalid),
    .M_BAR0_rready (bar0_rready),

    .M_BAR1_awaddr (bar1_awaddr), .M_BAR1_awprot (), .M_BAR1_awvalid (bar1_awvalid),
    .M_BAR1_awready (bar1_awready), .M_BAR1_wdata (bar1_wdata), .M_BAR1_wstrb (bar1_wstrb),
    .M_BAR1_wvalid (bar1_wvalid), .M_BAR1_wready (bar1_wready), .M_BAR1_bresp (bar1_bresp),
    .M_BAR1_bvalid (bar1_bvalid), .M_BAR1_bready (bar1_bready), .M_BAR1_araddr (bar1_araddr),
    .M_BAR1_arprot (), .M_BAR1_arvalid (bar1_arvalid), .M_BAR1_arready (bar1_arready),
    .M_BAR1_rdata (bar1_rdata), .M_BAR1_rresp (bar1_rresp), .M_BAR1_rvalid (bar1_rvalid),
    .M_BAR1_rready (bar1_rready),

    .S_DDR_awid (ddr_awid), .S_DDR_awaddr (ddr_awaddr[28:0]), .S_DDR_awlen (ddr_awlen),
    .S_DDR_awsize (ddr_awsize), .S_DDR_awburst (ddr_awburst), .S_DDR_awlock (1'b0),
    .S_DDR_awcache (4'b0011), .S_DDR_awprot (3'b000), .S_DDR_awqos (4'b0000),
    .S_DDR_awvalid (ddr_awvalid), .S_DDR_awready (ddr_awready),
    .S_DDR_wdata (ddr_wdata), .S_DDR_wstrb (ddr_wstrb), .S_DDR_wlast (ddr_wlast),
    .S_DDR_wvalid (ddr_wvalid), .S_DDR_wready (ddr_wready),
    .S_DDR_bid (ddr_bid), .S_DDR_bresp (ddr_bresp), .S_DDR_bvalid (ddr_bvalid),
    .S_DDR_bready (ddr_bready),
    .S_DDR_arid (ddr_arid), .S_DDR_araddr (ddr_araddr[28:0]), .S_DDR_arlen (ddr_arlen),
    .S_DDR_arsize (ddr_arsize), .S_DDR_arburst (ddr_arburst), .S_DDR_arlock (1'b0),
    .S_DDR_arcache (4'b0011), .S_DDR_arprot (3'b000), .S_DDR_arqos (4'b0000),
    .S_DDR_arvalid (ddr_arvalid), .S_DDR_arready (ddr_arready),
    .S_DDR_rid (ddr_rid), .S_DDR_rdata (ddr_rdata), .S_DDR_rresp (ddr_rresp),
    .S_DDR_rlast (ddr_rlast), .S_DDR_rvalid (ddr_rvalid), .S_DDR_rready (ddr_rready),

    // soc_top's system-memory master, after u_sysmem_route (addresses
    // below 4 GiB only, so the low 32 bits are the whole address).
    .S_SYSMEM_awid (br_awid), .S_SYSMEM_awaddr (br_awaddr[31:0]), .S_SYSMEM_awlen (br_awlen),
    .S_SYSMEM_awsize (br_awsize), .S_SYSMEM_awburst (br_awburst), .S_SYSMEM_awcache (br_awcache),
    .S_SYSMEM_awvalid (br_awvalid), .S_SYSMEM_awready (br_awready),
    .S_SYSMEM_wdata (br_wdata), .S_SYSMEM_wstrb (br_wstrb), .S_SYSMEM_wlast (br_wlast),
    .S_SYSMEM_wvalid (br_wvalid), .S_SYSMEM_wready (br_wready),
    .S_SYSMEM_bid (br_bid), .S_SYSMEM_bresp (br_bresp), .S_SYSMEM_bvalid (br_bvalid),
    .S_SYSMEM_bready (br_bready),
    .S_SYSMEM_arid (br_arid), .S_SYSMEM_araddr (br_araddr[31:0]), .S_SYSMEM_arlen (br_arlen),
    .S_SYSMEM_arsize (br_arsize), .S_SYSMEM_arburst (br_arburst), .S_SYSMEM_arcache (br_arcache),
    .S_SYSMEM_arvalid (br_arvalid), .S_SYSMEM_arready (br_arready),
    .S_SYSMEM_rid (br_rid), .S_SYSMEM_rdata (br_rdata), .S_SYSMEM_rresp (br_rresp),
    .S_SYSMEM_rlast (br_rlast), .S_SYSMEM_rvalid (br_rvalid), .S_SYSMEM_rready (br_rready)
  );

  assign pcie_clkreq_no = 1'b0;  // always want the reference clock

  // ------------------------------------------------------------ reset
  logic [1:0] rst_sync_q;
  logic       run;
  assign run = ui_rstn && calib_done;
  always_ff @(posedge ui_clk or negedge run) begin
    if (!run) rst_sync_q <= 2'b00;
    else      rst_sync_q <= {rst_sync_q[0], 1'b1};
  end

  // ------------------------------------------------------------ SoC
  logic        host_msi, host_irq, console_valid, exit_valid;
  logic [7:0]  console_data;
  logic [31:0] exit_code;

  // soc_top's system-memory master as axi4_pkg structs (its IDs are
  // SYSMEM_AXI_ID_BITS = axi4_pkg::ID_W wide, AxCACHE rides as the user field).
  axi4_pkg::axi4_req_t sys_req;
  axi4_pkg::axi4_rsp_t sys_rsp;

  soc_top #(.RamInit(RamInit), .MmuMshrs(MmuMshrs)) u_soc (
    .clk_i (ui_clk), .rst_ni (rst_sync_q[1]),
    .boot_arg_i ('0), .ddr_size_mb_i (16'(DdrMb)),
    .console_valid_o (console_valid), .console_data_o (console_data), .console_ready_i (1'b1),
    .exit_valid_o (exit_valid), .exit_code_o (exit_code),
    .bar0_awvalid_i (bar0_awvalid), .bar0_awready_o (bar0_awready), .bar0_awaddr_i (bar0_awaddr[15:0]),
    .bar0_wvalid_i (bar0_wvalid), .bar0_wready_o (bar0_wready), .bar0_wdata_i (bar0_wdata),
    .bar0_wstrb_i (bar0_wstrb), .bar0_bvalid_o (bar0_bvalid), .bar0_bready_i (bar0_bready),
    .bar0_bresp_o (bar0_bresp), .bar0_arvalid_i (bar0_arvalid), .bar0_arready_o (bar0_arready),
    .bar0_araddr_i (bar0_araddr[15:0]), .bar0_rvalid_o (bar0_rvalid), .bar0_rready_i (bar0_rready),
    .bar0_rdata_o (bar0_rdata), .bar0_rresp_o (bar0_rresp),
    .bar1_awvalid_i (bar1_awvalid), .bar1_awready_o (bar1_awready), .bar1_awaddr_i (bar1_awaddr[23:0]),
    .bar1_wvalid_i (bar1_wvalid), .bar1_wready_o (bar1_wready), .bar1_wdata_i (bar1_wdata),
    .bar1_wstrb_i (bar1_wstrb), .bar1_bvalid_o (bar1_bvalid), .bar1_bready_i (bar1_bready),
    .bar1_bresp_o (bar1_bresp), .bar1_arvalid_i (bar1_arvalid), .bar1_arready_o (bar1_arready),
    .bar1_araddr_i (bar1_araddr[23:0]), .bar1_rvalid_o (bar1_rvalid), .bar1_rready_i (bar1_rready),
    .bar1_rdata_o (bar1_rdata), .bar1_rresp_o (bar1_rresp),
    .host_irq_o (host_irq), .host_msi_o (host_msi),
    .ddr_awvalid_o (ddr_awvalid), .ddr_awready_i (ddr_awready), .ddr_awid_o (ddr_awid),
    .ddr_awaddr_o (ddr_awaddr), .ddr_awlen_o (ddr_awlen), .ddr_awsize_o (ddr_awsize),
    .ddr_awburst_o (ddr_awburst), .ddr_wvalid_o (ddr_wvalid), .ddr_wready_i (ddr_wready),
    .ddr_wdata_o (ddr_wdata), .ddr_wstrb_o (ddr_wstrb), .ddr_wlast_o (ddr_wlast),
    .ddr_bvalid_i (ddr_bvalid), .ddr_bready_o (ddr_bready), .ddr_bid_i (ddr_bid),
    .ddr_bresp_i (ddr_bresp), .ddr_arvalid_o (ddr_arvalid), .ddr_arready_i (ddr_arready),
    .ddr_arid_o (ddr_arid), .ddr_araddr_o (ddr_araddr), .ddr_arlen_o (ddr_arlen),
    .ddr_arsize_o (ddr_arsize), .ddr_arburst_o (ddr_arburst), .ddr_rvalid_i (ddr_rvalid),
    .ddr_rready_o (ddr_rready), .ddr_rid_i (ddr_rid), .ddr_rdata_i (ddr_rdata),
    .ddr_rresp_i (ddr_rresp), .ddr_rlast_i (ddr_rlast),
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

  // ------------------------------------------------------------ system memory
  // Route each burst by its address: below 4 GiB (the bridge's two 2 GiB
  // AXI BARs) to S_SYSMEM, at or above it to the DECERR slave. Bursts are
  // 64-byte aligned and at most 64 bytes (the engines'), so none straddles
  // 4 GiB or the 2 GiB window boundary. The demux keeps per-ID order when
  // a master switches between the two (see rtl/axi4_demux.sv); AxCACHE
  // rides on its user sideband to S_SYSMEM_awcache/arcache.
  localparam int unsigned RBridge = 0, RDecErr = 1;
  logic        sys_aw_out, sys_ar_out;
  assign sys_aw_out = |sys_req.aw.addr[63:32];
  assign sys_ar_out = |sys_req.ar.addr[63:32];

  axi4_pkg::axi4_req_t [1:0] rt_req;
  axi4_pkg::axi4_rsp_t [1:0] rt_rsp;

  axi4_demux #(.NSlaves(2), .IdW(SysIdW)) u_sysmem_route (
    .clk_i (ui_clk), .rst_ni (rst_sync_q[1]),
    .m_req_i (sys_req), .m_awsel_i (sys_aw_out), .m_arsel_i (sys_ar_out), .m_rsp_o (sys_rsp),
    .s_req_o (rt_req), .s_rsp_i (rt_rsp)
  );

  // Slave 0: the bridge (S_SYSMEM)
  assign {br_awvalid, br_awid, br_awaddr, br_awlen, br_awsize, br_awburst, br_awcache} =
         {rt_req[RBridge].aw_valid, rt_req[RBridge].aw};
  assign {br_wvalid, br_wdata, br_wstrb, br_wlast} = {rt_req[RBridge].w_valid, rt_req[RBridge].w};
  assign br_bready = rt_req[RBridge].b_ready;
  assign {br_arvalid, br_arid, br_araddr, br_arlen, br_arsize, br_arburst, br_arcache} =
         {rt_req[RBridge].ar_valid, rt_req[RBridge].ar};
  assign br_rready = rt_req[RBridge].r_ready;
  assign rt_rsp[RBridge] = '{aw_ready: br_awready, w_ready: br_wready, b_valid: br_bvalid,
                             b: '{id: br_bid, resp: br_bresp}, ar_ready: br_arready,
                             r_valid: br_rvalid,
                             r: '{id: br_rid, data: br_rdata, resp: br_rresp, last: br_rlast}};

  // Slave 1: addresses at or above 4 GiB, outside both windows
  axi4_err_slave #(.IdW(SysIdW), .Resp(2'b11)) u_sysmem_decerr (
    .clk_i (ui_clk), .rst_ni (rst_sync_q[1]),
    .req_i (rt_req[RDecErr]), .rsp_o (rt_rsp[RDecErr])
  );

  // ------------------------------------------------------------ MSI crossing
  // Each MSI pulse flips a toggle in ui_clk; the PCIe side sees the flip
  // after two flops and raises INTX_MSI_Request until the grant. Pulses
  // closer together than the crossing merge into one MSI, which is what
  // the mailbox expects (the host re-reads HOST_IRQ_STATUS).
  logic       msi_toggle_q;
  logic [2:0] msi_sync_q;
  logic       msi_req_q;
  always_ff @(posedge ui_clk) begin
    if (!rst_sync_q[1])  msi_toggle_q <= 1'b0;
    else if (host_msi)   msi_toggle_q <= !msi_toggle_q;
  end
  always_ff @(posedge pcie_clk or negedge pcie_perst_ni) begin
    if (!pcie_perst_ni) begin
      msi_sync_q <= '0;
      msi_req_q  <= 1'b0;
    end else begin
      msi_sync_q <= {msi_sync_q[1:0], msi_toggle_q};
      if (msi_sync_q[2] != msi_sync_q[1] && msi_enable) msi_req_q <= 1'b1;
      else if (msi_grant)                                msi_req_q <= 1'b0;
    end
  end
  assign msi_request = msi_req_q;

  // ------------------------------------------------------------ LEDs
  // A1: PCIe link up; A2: DDR calibrated; A3: SoC running; A4: heartbeat.
  logic [26:0] beat_q;
  always_ff @(posedge ui_clk) beat_q <= beat_q + 1'b1;
  assign led_no = ~{beat_q[26] & rst_sync_q[1], rst_sync_q[1], calib_done, link_up};

  // No console pin on this board (the M.2 card has only PCIe): the byte
  // stream is dropped; the firmware's log goes through the mailbox events.
  logic unused;
  assign unused = ^{console_valid, console_data, exit_valid, exit_code, host_irq,
                    bar0_awaddr[31:16], bar0_araddr[31:16], bar1_awaddr[31:24],
                    bar1_araddr[31:24], ddr_awaddr[31:29], ddr_araddr[31:29],
                    br_awaddr[63:32], br_araddr[63:32]};

endmodule : litefury_top
