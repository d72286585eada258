// SPDX-License-Identifier: Apache-2.0
// GPU MMU SoC top: VexRiscv, a Wishbone interconnect, on-chip RAM, platform
// peripherals and the DDR port.
//
// The CPU's instruction and data buses share one Wishbone bus through an
// arbiter; a decoder routes it by the memory map in gmmu_soc_pkg (generated
// from include/defs/soc.toml). DDR is reached through both a cached and an
// uncached alias, bridged to an AXI4 master: the interface a LiteDRAM or
// Xilinx MIG controller offers on a board, and the DDR model in simulation.
//
// The GPU engines' bursts are routed by the segment of the page they hit:
// VRAM (segment 1) to the DDR arbiter, system memory (segment 0) to the
// system-memory AXI4 master (the PCIe bridge's slave on a board: 64-bit bus
// addresses, CacheCoherent as AxCACHE), any other segment to an error slave
// (DECERR, which the engine reports as a BUS_ERROR fault). Routing adds no
// latency; an engine's reads (or writes) wait for its outstanding ones when
// they switch between VRAM and system memory (axi4_demux).
//
// The paging engine (rtl/paging/, docs/paging-engine.md) sits on the CPU bus
// at PAGING_BASE (its 8 KiB window repeats across the region), is the last
// master of the DDR arbiter (m_ddr) and of the system-memory arbiter (m_sys,
// always CacheCoherent: see below), raises IRQ_PAGING, and asks the MMU for
// FLUSH_TLB invalidations through mmu_top's inv_req_* handshake, merged there
// with the firmware's INV_* registers.
module soc_top
  import gmmu_soc_pkg::*;
#(
  parameter int unsigned RamWords  = RAM_SIZE / 4,
  parameter string       RamInit   = "",
  // MMU configuration (mmu_top's parameters; firmware reads them back from
  // MMU_CONFIG). Defaults are the product's; boards short of logic pass a
  // smaller one (boards/orangecrab-85f).
  parameter int unsigned MmuWalkers = gmmu_mmu_pkg::WALKERS,
  parameter int unsigned MmuMshrs   = gmmu_mmu_pkg::MSHRS,
  parameter int unsigned MmuSlots   = gmmu_mmu_pkg::MISS_SLOTS,
  parameter int unsigned MmuPfDepth = gmmu_mmu_pkg::PF_DEPTH,
  parameter bit          MmuFollow  = 1'b1,
  parameter int unsigned MmuL1Entries = gmmu_mmu_pkg::L1_ENTRIES,
  // Paging engine configuration (paging_engine's parameters; firmware reads
  // QUEUE_WORDS and CONFIG back). Boards short of logic pass smaller ones.
  parameter int unsigned PagingQueueWords    = gmmu_paging_pkg::PAGING_QUEUE_WORDS_DEFAULT,
  parameter int unsigned PagingMaxBurst      = gmmu_paging_pkg::PAGING_MAX_BURST_DEFAULT,
  parameter int unsigned PagingCopyFifoBeats = 128,
  parameter int unsigned PagingOutstanding   = 8,
  parameter int unsigned PagingPktSlots      = 8
) (
  input  logic        clk_i,
  input  logic        rst_ni,

  // Straps: a boot-mode word for the firmware and the DDR size in MiB
  input  logic [31:0] boot_arg_i,
  input  logic [15:0] ddr_size_mb_i,

  // Console byte stream
  output logic        console_valid_o,
  output logic [7:0]  console_data_o,
  input  logic        console_ready_i,

  // Simulation exit request (unused on boards)
  output logic        exit_valid_o,
  output logic [31:0] exit_code_o,

  // PCIe BAR0 (mailbox): AXI4-Lite slave, as a PCIe-to-AXI bridge drives it
  input  logic        bar0_awvalid_i,
  output logic        bar0_awready_o,
  input  logic [15:0] bar0_awaddr_i,
  input  logic        bar0_wvalid_i,
  output logic        bar0_wready_o,
  input  logic [31:0] bar0_wdata_i,
  input  logic [3:0]  bar0_wstrb_i,
  output logic        bar0_bvalid_o,
  input  logic        bar0_bready_i,
  output logic [1:0]  bar0_bresp_o,
  input  logic        bar0_arvalid_i,
  output logic        bar0_arready_o,
  input  logic [15:0] bar0_araddr_i,
  output logic        bar0_rvalid_o,
  input  logic        bar0_rready_i,
  output logic [31:0] bar0_rdata_o,
  output logic [1:0]  bar0_rresp_o,

  // PCIe BAR1: the VRAM aperture, AXI4-Lite as BAR0. A 32-bit access at
  // offset o of the 16 MiB window reaches DDR at MBOX.APERTURE_BASE + o
  // (bar1_aperture); one beyond the DDR answers SLVERR.
  input  logic        bar1_awvalid_i,
  output logic        bar1_awready_o,
  input  logic [23:0] bar1_awaddr_i,
  input  logic        bar1_wvalid_i,
  output logic        bar1_wready_o,
  input  logic [31:0] bar1_wdata_i,
  input  logic [3:0]  bar1_wstrb_i,
  output logic        bar1_bvalid_o,
  input  logic        bar1_bready_i,
  output logic [1:0]  bar1_bresp_o,
  input  logic        bar1_arvalid_i,
  output logic        bar1_arready_o,
  input  logic [23:0] bar1_araddr_i,
  output logic        bar1_rvalid_o,
  input  logic        bar1_rready_i,
  output logic [31:0] bar1_rdata_o,
  output logic [1:0]  bar1_rresp_o,

  // Host interrupt: a level (INTx-like) and a pulse per new event (MSI)
  output logic        host_irq_o,
  output logic        host_msi_o,

  // DDR: AXI4 master
  output logic        ddr_awvalid_o,
  input  logic        ddr_awready_i,
  output logic [DDR_AXI_ID_BITS-1:0] ddr_awid_o,
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
  input  logic [DDR_AXI_ID_BITS-1:0] ddr_bid_i,
  input  logic [1:0]  ddr_bresp_i,
  output logic        ddr_arvalid_o,
  input  logic        ddr_arready_i,
  output logic [DDR_AXI_ID_BITS-1:0] ddr_arid_o,
  output logic [31:0] ddr_araddr_o,
  output logic [7:0]  ddr_arlen_o,
  output logic [2:0]  ddr_arsize_o,
  output logic [1:0]  ddr_arburst_o,
  input  logic        ddr_rvalid_i,
  output logic        ddr_rready_o,
  input  logic [DDR_AXI_ID_BITS-1:0] ddr_rid_i,
  input  logic [63:0] ddr_rdata_i,
  input  logic [1:0]  ddr_rresp_i,
  input  logic        ddr_rlast_i,

  // System memory (segment 0): AXI4 master towards the host, 64-bit bus
  // addresses; AxCACHE is SYSMEM_AXCACHE_COHERENT or _NONCOHERENT
  output logic        sysmem_awvalid_o,
  input  logic        sysmem_awready_i,
  output logic [SYSMEM_AXI_ID_BITS-1:0] sysmem_awid_o,
  output logic [63:0] sysmem_awaddr_o,
  output logic [7:0]  sysmem_awlen_o,
  output logic [2:0]  sysmem_awsize_o,
  output logic [1:0]  sysmem_awburst_o,
  output logic [3:0]  sysmem_awcache_o,
  output logic        sysmem_wvalid_o,
  input  logic        sysmem_wready_i,
  output logic [63:0] sysmem_wdata_o,
  output logic [7:0]  sysmem_wstrb_o,
  output logic        sysmem_wlast_o,
  input  logic        sysmem_bvalid_i,
  output logic        sysmem_bready_o,
  input  logic [SYSMEM_AXI_ID_BITS-1:0] sysmem_bid_i,
  input  logic [1:0]  sysmem_bresp_i,
  output logic        sysmem_arvalid_o,
  input  logic        sysmem_arready_i,
  output logic [SYSMEM_AXI_ID_BITS-1:0] sysmem_arid_o,
  output logic [63:0] sysmem_araddr_o,
  output logic [7:0]  sysmem_arlen_o,
  output logic [2:0]  sysmem_arsize_o,
  output logic [1:0]  sysmem_arburst_o,
  output logic [3:0]  sysmem_arcache_o,
  input  logic        sysmem_rvalid_i,
  output logic        sysmem_rready_o,
  input  logic [SYSMEM_AXI_ID_BITS-1:0] sysmem_rid_i,
  input  logic [63:0] sysmem_rdata_i,
  input  logic [1:0]  sysmem_rresp_i,
  input  logic        sysmem_rlast_i
);

  // ------------------------------------------------------------------ CPU
  wb_pkg::wb_req_t ibus_req, dbus_req;
  wb_pkg::wb_rsp_t ibus_rsp, dbus_rsp;
  logic [1:0]  ibus_bte, dbus_bte;
  logic        timer_irq;
  logic [63:0] cycle;
  logic [31:0] ext_irq;

  logic buserr_irq, mbox_irq, mmu_irq, engine_irq, paging_irq;
  always_comb begin
    ext_irq = '0;
    ext_irq[IRQ_BUS_ERROR]     = buserr_irq;
    ext_irq[IRQ_MBOX_DOORBELL] = mbox_irq;
    ext_irq[IRQ_MMU_FAULT]     = mmu_irq;
    ext_irq[IRQ_ENGINE_DONE]   = engine_irq;
    ext_irq[IRQ_PAGING]        = paging_irq;
  end

  VexRiscv u_cpu (
    .externalResetVector    (RAM_BASE),
    .timerInterrupt         (timer_irq),
    .softwareInterrupt      (1'b0),
    .externalInterruptArray (ext_irq),
    .iBusWishbone_CYC       (ibus_req.cyc),
    .iBusWishbone_STB       (ibus_req.stb),
    .iBusWishbone_ACK       (ibus_rsp.ack),
    .iBusWishbone_WE        (ibus_req.we),
    .iBusWishbone_ADR       (ibus_req.adr),
    .iBusWishbone_DAT_MISO  (ibus_rsp.dat),
    .iBusWishbone_DAT_MOSI  (ibus_req.dat),
    .iBusWishbone_SEL       (ibus_req.sel),
    .iBusWishbone_ERR       (ibus_rsp.err),
    .iBusWishbone_CTI       (ibus_req.cti),
    .iBusWishbone_BTE       (ibus_bte),
    .dBusWishbone_CYC       (dbus_req.cyc),
    .dBusWishbone_STB       (dbus_req.stb),
    .dBusWishbone_ACK       (dbus_rsp.ack),
    .dBusWishbone_WE        (dbus_req.we),
    .dBusWishbone_ADR       (dbus_req.adr),
    .dBusWishbone_DAT_MISO  (dbus_rsp.dat),
    .dBusWishbone_DAT_MOSI  (dbus_req.dat),
    .dBusWishbone_SEL       (dbus_req.sel),
    .dBusWishbone_ERR       (dbus_rsp.err),
    .dBusWishbone_CTI       (dbus_req.cti),
    .dBusWishbone_BTE       (dbus_bte),
    .clk                    (clk_i),
    .reset                  (!rst_ni)
  );

  // Both caches use linear bursts only; BTE carries no information.
  logic unused_bte;
  assign unused_bte = ^{ibus_bte, dbus_bte};

  // ------------------------------------------------------- interconnect
  wb_pkg::wb_req_t bus;        // the arbiter's winner
  wb_pkg::wb_rsp_t bus_rsp;    // what the arbiter returns to it
  wb_pkg::wb_rsp_t slave_rsp;  // the decoder's answer

  // VexRiscv's Wishbone adapters ignore ERR (the generated Verilog ties the
  // response error to 0), so an ERR alone would leave the CPU waiting forever.
  // An error therefore completes the access (reads return all ones, like a
  // PCIe master abort) and is reported through SYSCTL.BUSERR_* and IRQ_BUS_ERROR.
  assign bus_rsp.ack = slave_rsp.ack | slave_rsp.err;
  assign bus_rsp.err = 1'b0;
  assign bus_rsp.dat = slave_rsp.err ? '1 : slave_rsp.dat;

  wb_arbiter u_arbiter (
    .clk_i, .rst_ni,
    .m0_i (dbus_req), .m0_o (dbus_rsp),
    .m1_i (ibus_req), .m1_o (ibus_rsp),
    .s_o  (bus),      .s_i  (bus_rsp)
  );

  // Slave order: the DDR bridge takes both DDR aliases.
  localparam int unsigned NSlaves = 10;
  localparam int unsigned SRam = 0, SSysctl = 1, SConsole = 2, STimer = 3,
                          SDdrCached = 4, SDdr = 5, SMbox = 6, SMmu = 7, SEngine = 8,
                          SPaging = 9;
  localparam logic [32*NSlaves-1:0] SlaveBase = {
    PAGING_BASE, ENGINE_BASE, MMU_BASE, MBOX_BASE, DDR_BASE, DDR_CACHED_BASE, TIMER_BASE,
    CONSOLE_BASE, SYSCTL_BASE, RAM_BASE};
  localparam logic [32*NSlaves-1:0] SlaveMask = {
    ~(PAGING_SIZE - 1), ~(ENGINE_SIZE - 1), ~(MMU_SIZE - 1), ~(MBOX_SIZE - 1), ~(DDR_SIZE - 1),
    ~(DDR_CACHED_SIZE - 1), ~(TIMER_SIZE - 1), ~(CONSOLE_SIZE - 1), ~(SYSCTL_SIZE - 1),
    ~(RAM_SIZE - 1)};

  wb_pkg::wb_req_t [NSlaves-1:0] slv_req;
  wb_pkg::wb_rsp_t [NSlaves-1:0] slv_rsp;

  wb_decoder #(.NSlaves(NSlaves), .SlaveBase(SlaveBase), .SlaveMask(SlaveMask)) u_decoder (
    .clk_i, .rst_ni,
    .m_i (bus), .m_o (slave_rsp),
    .s_o (slv_req), .s_i (slv_rsp)
  );

  wb_ram #(.Words(RamWords), .InitFile(RamInit)) u_ram (
    .clk_i, .rst_ni,
    .wb_i (slv_req[SRam]), .wb_o (slv_rsp[SRam])
  );

  wb_sysctl u_sysctl (
    .clk_i, .rst_ni,
    .wb_i (slv_req[SSysctl]), .wb_o (slv_rsp[SSysctl]),
    .boot_arg_i, .ddr_size_mb_i, .exit_valid_o, .exit_code_o,
    .bus_err_i (slave_rsp.err), .bus_err_we_i (bus.we), .bus_err_addr_i ({bus.adr, 2'b00}),
    .buserr_irq_o (buserr_irq), .ibus_busy_i (ibus_req.cyc), .dbus_busy_i (dbus_req.cyc)
  );

  wb_console u_console (
    .clk_i, .rst_ni,
    .wb_i (slv_req[SConsole]), .wb_o (slv_rsp[SConsole]),
    .tx_valid_o (console_valid_o), .tx_data_o (console_data_o), .tx_ready_i (console_ready_i)
  );

  wb_timer u_timer (
    .clk_i, .rst_ni,
    .wb_i (slv_req[STimer]), .wb_o (slv_rsp[STimer]),
    .irq_o (timer_irq), .cycle_o (cycle)
  );

  // Both DDR aliases share one bridge; the decoder tells them apart only for
  // routing, the bridge sees the 1 GiB offset.
  wb_pkg::wb_req_t ddr_req;
  wb_pkg::wb_rsp_t ddr_rsp;
  always_comb begin
    ddr_req     = bus;
    ddr_req.stb = slv_req[SDdrCached].stb | slv_req[SDdr].stb;
  end

  // DDR masters, in arbiter order: 0 CPU bridge, 1 BAR1 aperture, 2 MMU
  // walker (reads only), 3.. the GPU engines, then the paging engine.
  localparam int unsigned NEngines = ENGINES;
  localparam int unsigned NDdrMasters = 4 + NEngines, MCpu = 0, MAperture = 1, MMmu = 2,
                          MEngine0 = 3, MPaging = 3 + NEngines;
  localparam int unsigned DdrIdW = 4;
  localparam int unsigned ArbIdW = DdrIdW + $clog2(NDdrMasters);

  logic [NDdrMasters-1:0]        dm_awvalid, dm_awready, dm_wvalid, dm_wready, dm_wlast;
  logic [NDdrMasters-1:0]        dm_bvalid, dm_bready, dm_arvalid, dm_arready;
  logic [NDdrMasters-1:0]        dm_rvalid, dm_rready, dm_rlast;
  logic [NDdrMasters*DdrIdW-1:0] dm_awid, dm_bid, dm_arid, dm_rid;
  logic [NDdrMasters*32-1:0]     dm_awaddr, dm_araddr;
  logic [NDdrMasters*8-1:0]      dm_awlen, dm_arlen, dm_wstrb;
  logic [NDdrMasters*3-1:0]      dm_awsize, dm_arsize;
  logic [NDdrMasters*2-1:0]      dm_awburst, dm_arburst, dm_bresp, dm_rresp;
  logic [NDdrMasters*64-1:0]     dm_wdata, dm_rdata;

  wb_to_axi4 u_ddr_bridge (
    .clk_i, .rst_ni,
    .wb_i (ddr_req), .wb_o (ddr_rsp),
    .awvalid_o (dm_awvalid[MCpu]), .awready_i (dm_awready[MCpu]),
    .awid_o (dm_awid[MCpu*DdrIdW +: DdrIdW]), .awaddr_o (dm_awaddr[MCpu*32 +: 32]),
    .awlen_o (dm_awlen[MCpu*8 +: 8]), .awsize_o (dm_awsize[MCpu*3 +: 3]),
    .awburst_o (dm_awburst[MCpu*2 +: 2]), .wvalid_o (dm_wvalid[MCpu]),
    .wready_i (dm_wready[MCpu]), .wdata_o (dm_wdata[MCpu*64 +: 64]),
    .wstrb_o (dm_wstrb[MCpu*8 +: 8]), .wlast_o (dm_wlast[MCpu]),
    .bvalid_i (dm_bvalid[MCpu]), .bready_o (dm_bready[MCpu]),
    .bid_i (dm_bid[MCpu*DdrIdW +: DdrIdW]), .bresp_i (dm_bresp[MCpu*2 +: 2]),
    .arvalid_o (dm_arvalid[MCpu]), .arready_i (dm_arready[MCpu]),
    .arid_o (dm_arid[MCpu*DdrIdW +: DdrIdW]), .araddr_o (dm_araddr[MCpu*32 +: 32]),
    .arlen_o (dm_arlen[MCpu*8 +: 8]), .arsize_o (dm_arsize[MCpu*3 +: 3]),
    .arburst_o (dm_arburst[MCpu*2 +: 2]), .rvalid_i (dm_rvalid[MCpu]),
    .rready_o (dm_rready[MCpu]), .rid_i (dm_rid[MCpu*DdrIdW +: DdrIdW]),
    .rdata_i (dm_rdata[MCpu*64 +: 64]), .rresp_i (dm_rresp[MCpu*2 +: 2]),
    .rlast_i (dm_rlast[MCpu])
  );

  assign slv_rsp[SDdrCached] = ddr_rsp;
  assign slv_rsp[SDdr]       = ddr_rsp;

  // ------------------------------------------------------------ mailbox
  logic        bar0_req, bar0_we, bar0_ack, bar0_err;
  logic [15:0] bar0_addr;
  logic [31:0] bar0_wdata, bar0_rdata;
  logic [3:0]  bar0_wstrb;

  axi4lite_to_reg #(.AddrWidth(16)) u_bar0 (
    .clk_i, .rst_ni,
    .awvalid_i (bar0_awvalid_i), .awready_o (bar0_awready_o), .awaddr_i (bar0_awaddr_i),
    .wvalid_i (bar0_wvalid_i), .wready_o (bar0_wready_o), .wdata_i (bar0_wdata_i),
    .wstrb_i (bar0_wstrb_i), .bvalid_o (bar0_bvalid_o), .bready_i (bar0_bready_i),
    .bresp_o (bar0_bresp_o), .arvalid_i (bar0_arvalid_i), .arready_o (bar0_arready_o),
    .araddr_i (bar0_araddr_i), .rvalid_o (bar0_rvalid_o), .rready_i (bar0_rready_i),
    .rdata_o (bar0_rdata_o), .rresp_o (bar0_rresp_o),
    .reg_req_o (bar0_req), .reg_we_o (bar0_we), .reg_addr_o (bar0_addr),
    .reg_wdata_o (bar0_wdata), .reg_wstrb_o (bar0_wstrb), .reg_ack_i (bar0_ack),
    .reg_err_i (bar0_err), .reg_rdata_i (bar0_rdata)
  );

  // The mailbox owns APERTURE_BASE; BAR1 below uses it.
  logic [31:0] aperture_base, aperture_limit;

  mbox u_mbox (
    .clk_i, .rst_ni,
    .host_req_i (bar0_req), .host_we_i (bar0_we), .host_addr_i (bar0_addr),
    .host_wdata_i (bar0_wdata), .host_ack_o (bar0_ack), .host_err_o (bar0_err),
    .host_rdata_o (bar0_rdata),
    .wb_i (slv_req[SMbox]), .wb_o (slv_rsp[SMbox]),
    .cycle_i (cycle[31:0]), .aperture_base_o (aperture_base), .aperture_limit_o (aperture_limit),
    .dev_irq_o (mbox_irq), .host_irq_o, .msi_o (host_msi_o)
  );

  // BAR1: the VRAM aperture, a window into DDR at MBOX.APERTURE_BASE.
  logic        bar1_req, bar1_we, bar1_ack, bar1_err;
  logic [23:0] bar1_addr;
  logic [31:0] bar1_wdata, bar1_rdata;
  logic [3:0]  bar1_wstrb;

  axi4lite_to_reg #(.AddrWidth(24)) u_bar1 (
    .clk_i, .rst_ni,
    .awvalid_i (bar1_awvalid_i), .awready_o (bar1_awready_o), .awaddr_i (bar1_awaddr_i),
    .wvalid_i (bar1_wvalid_i), .wready_o (bar1_wready_o), .wdata_i (bar1_wdata_i),
    .wstrb_i (bar1_wstrb_i), .bvalid_o (bar1_bvalid_o), .bready_i (bar1_bready_i),
    .bresp_o (bar1_bresp_o), .arvalid_i (bar1_arvalid_i), .arready_o (bar1_arready_o),
    .araddr_i (bar1_araddr_i), .rvalid_o (bar1_rvalid_o), .rready_i (bar1_rready_i),
    .rdata_o (bar1_rdata_o), .rresp_o (bar1_rresp_o),
    .reg_req_o (bar1_req), .reg_we_o (bar1_we), .reg_addr_o (bar1_addr),
    .reg_wdata_o (bar1_wdata), .reg_wstrb_o (bar1_wstrb), .reg_ack_i (bar1_ack),
    .reg_err_i (bar1_err), .reg_rdata_i (bar1_rdata)
  );

  bar1_aperture #(.WindowBits(24)) u_aperture (
    .clk_i, .rst_ni,
    .base_i (aperture_base), .limit_i (aperture_limit),
    .req_i (bar1_req), .we_i (bar1_we), .addr_i (bar1_addr), .wdata_i (bar1_wdata),
    .wstrb_i (bar1_wstrb), .ack_o (bar1_ack), .err_o (bar1_err), .rdata_o (bar1_rdata),
    .awvalid_o (dm_awvalid[MAperture]), .awready_i (dm_awready[MAperture]),
    .awaddr_o (dm_awaddr[MAperture*32 +: 32]),
    .wvalid_o (dm_wvalid[MAperture]), .wready_i (dm_wready[MAperture]),
    .wdata_o (dm_wdata[MAperture*64 +: 64]), .wstrb_o (dm_wstrb[MAperture*8 +: 8]),
    .bvalid_i (dm_bvalid[MAperture]), .bready_o (dm_bready[MAperture]),
    .bresp_i (dm_bresp[MAperture*2 +: 2]),
    .arvalid_o (dm_arvalid[MAperture]), .arready_i (dm_arready[MAperture]),
    .araddr_o (dm_araddr[MAperture*32 +: 32]),
    .rvalid_i (dm_rvalid[MAperture]), .rready_o (dm_rready[MAperture]),
    .rdata_i (dm_rdata[MAperture*64 +: 64]), .rresp_i (dm_rresp[MAperture*2 +: 2])
  );
  // Single 64-bit beats with one ID.
  assign dm_awid[MAperture*DdrIdW +: DdrIdW] = '0;
  assign dm_awlen[MAperture*8 +: 8]          = '0;
  assign dm_awsize[MAperture*3 +: 3]         = 3'd3;
  assign dm_awburst[MAperture*2 +: 2]        = 2'b01;
  assign dm_wlast[MAperture]                 = 1'b1;
  assign dm_arid[MAperture*DdrIdW +: DdrIdW] = '0;
  assign dm_arlen[MAperture*8 +: 8]          = '0;
  assign dm_arsize[MAperture*3 +: 3]         = 3'd3;
  assign dm_arburst[MAperture*2 +: 2]        = 2'b01;

  // ------------------------------------------------------------------ MMU
  // GPU engine i drives MMU translation port i.
  localparam int unsigned NPorts = gmmu_mmu_pkg::PORTS;
  localparam int unsigned AsidW  = $clog2(gmmu_mmu_pkg::ASIDS);
  localparam int unsigned TagW   = gmmu_mmu_pkg::TAG_BITS;
  localparam int unsigned PaW    = gmmu_mmu_pkg::PA_BITS;

  logic [NPorts-1:0]       tr_req_valid, tr_req_ready, tr_rsp_valid, tr_rsp_ready;
  logic [NPorts-1:0]       tr_rsp_zero, tr_rsp_cc, tr_rsp_ro, tr_rsp_nx;
  logic [NPorts*AsidW-1:0] tr_req_asid;
  logic [NPorts*64-1:0]    tr_req_va;
  logic [NPorts*2-1:0]     tr_req_access;
  logic [NPorts*TagW-1:0]  tr_req_tag, tr_rsp_tag;
  logic [NPorts*3-1:0]     tr_rsp_fault, tr_rsp_psize;
  logic [NPorts*PaW-1:0]   tr_rsp_pa;
  logic [NPorts*5-1:0]     tr_rsp_seg;

  // The paging engine's FLUSH_TLB requests (below).
  logic                    pg_inv_valid, pg_inv_ready, pg_inv_busy;
  logic [1:0]              pg_inv_type;
  logic [AsidW-1:0]        pg_inv_asid;
  logic [51:0]             pg_inv_start, pg_inv_end;

  mmu_top #(.NWalkers(MmuWalkers), .Mshrs(MmuMshrs), .MissSlots(MmuSlots), .PfDepth(MmuPfDepth),
            .WalkFollow(MmuFollow), .L1Entries(MmuL1Entries)) u_mmu (
    .clk_i, .rst_ni,
    .wb_cyc_i (bus.cyc), .wb_stb_i (slv_req[SMmu].stb), .wb_we_i (bus.we), .wb_adr_i (bus.adr),
    .wb_dat_i (bus.dat), .wb_sel_i (bus.sel), .wb_ack_o (slv_rsp[SMmu].ack),
    .wb_dat_o (slv_rsp[SMmu].dat),
    .req_valid_i (tr_req_valid), .req_ready_o (tr_req_ready), .req_asid_i (tr_req_asid),
    .req_va_i (tr_req_va), .req_access_i (tr_req_access), .req_tag_i (tr_req_tag),
    .rsp_valid_o (tr_rsp_valid), .rsp_ready_i (tr_rsp_ready), .rsp_tag_o (tr_rsp_tag),
    .rsp_fault_o (tr_rsp_fault), .rsp_zero_o (tr_rsp_zero), .rsp_pa_o (tr_rsp_pa),
    .rsp_seg_o (tr_rsp_seg), .rsp_cc_o (tr_rsp_cc), .rsp_ro_o (tr_rsp_ro), .rsp_nx_o (tr_rsp_nx),
    .rsp_psize_o (tr_rsp_psize),
    .axi_arvalid_o (dm_arvalid[MMmu]), .axi_arready_i (dm_arready[MMmu]),
    .axi_arid_o (dm_arid[MMmu*DdrIdW +: DdrIdW]), .axi_araddr_o (dm_araddr[MMmu*32 +: 32]),
    .axi_arlen_o (dm_arlen[MMmu*8 +: 8]), .axi_arsize_o (dm_arsize[MMmu*3 +: 3]),
    .axi_arburst_o (dm_arburst[MMmu*2 +: 2]), .axi_rvalid_i (dm_rvalid[MMmu]),
    .axi_rready_o (dm_rready[MMmu]), .axi_rid_i (dm_rid[MMmu*DdrIdW +: DdrIdW]),
    .axi_rdata_i (dm_rdata[MMmu*64 +: 64]), .axi_rresp_i (dm_rresp[MMmu*2 +: 2]),
    .axi_rlast_i (dm_rlast[MMmu]),
    .inv_req_valid_i (pg_inv_valid), .inv_req_ready_o (pg_inv_ready),
    .inv_req_type_i (pg_inv_type), .inv_req_asid_i (pg_inv_asid),
    .inv_req_start_i (pg_inv_start), .inv_req_end_i (pg_inv_end),
    .inv_req_busy_o (pg_inv_busy),
    .irq_o (mmu_irq)
  );
  assign slv_rsp[SMmu].err = 1'b0;

  // The walker only reads.
  assign dm_awvalid[MMmu]                  = 1'b0;
  assign dm_awid[MMmu*DdrIdW +: DdrIdW]    = '0;
  assign dm_awaddr[MMmu*32 +: 32]          = '0;
  assign dm_awlen[MMmu*8 +: 8]             = '0;
  assign dm_awsize[MMmu*3 +: 3]            = '0;
  assign dm_awburst[MMmu*2 +: 2]           = '0;
  assign dm_wvalid[MMmu]                   = 1'b0;
  assign dm_wdata[MMmu*64 +: 64]           = '0;
  assign dm_wstrb[MMmu*8 +: 8]             = '0;
  assign dm_wlast[MMmu]                    = 1'b0;
  assign dm_bready[MMmu]                   = 1'b1;

  // --------------------------------------------------------- GPU engines
  // Register blocks ENGINE_STRIDE apart in the ENGINE region; word-address
  // bits [11:10] pick the engine.
  localparam int unsigned HiW = PaW - 32;
  // axi4_demux slaves of each engine, by the segment of the burst's page.
  localparam int unsigned NRoutes = 3, RVram = 0, RSys = 1, RErr = 2;
  localparam int unsigned RouteW = $clog2(NRoutes);

  logic [NEngines-1:0]    eng_stb, eng_ack, eng_done;
  logic [NEngines*32-1:0] eng_dat;
  logic [$clog2(NEngines)-1:0] eng_sel;

  // System-memory arbiter masters: one per engine, then the paging engine.
  localparam int unsigned NSysMasters = NEngines + 1, SPagingSys = NEngines;
  logic [NSysMasters-1:0]        sm_awvalid, sm_awready, sm_wvalid, sm_wready, sm_wlast;
  logic [NSysMasters-1:0]        sm_bvalid, sm_bready, sm_arvalid, sm_arready;
  logic [NSysMasters-1:0]        sm_rvalid, sm_rready, sm_rlast, sm_awcc, sm_arcc;
  logic [NSysMasters*DdrIdW-1:0] sm_awid, sm_bid, sm_arid, sm_rid;
  logic [NSysMasters*64-1:0]     sm_awaddr, sm_araddr, sm_wdata, sm_rdata;
  logic [NSysMasters*8-1:0]      sm_awlen, sm_arlen, sm_wstrb;
  logic [NSysMasters*3-1:0]      sm_awsize, sm_arsize;
  logic [NSysMasters*2-1:0]      sm_awburst, sm_arburst, sm_bresp, sm_rresp;

  assign eng_sel = bus.adr[10 +: $clog2(NEngines)];

  function automatic logic [RouteW-1:0] route_of(input logic [4:0] seg);
    if (32'(seg) == gmmu_pte_pkg::SEGMENT_VRAM)   return RouteW'(RVram);
    if (32'(seg) == gmmu_pte_pkg::SEGMENT_SYSTEM) return RouteW'(RSys);
    return RouteW'(RErr);
  endfunction

  for (genvar e = 0; e < NEngines; e++) begin : g_engine
    localparam int unsigned M = MEngine0 + e;

    // The engine's own AXI4 master, before routing.
    logic              awvalid, awready, wvalid, wready, wlast, bvalid, bready;
    logic              arvalid, arready, rvalid, rready, rlast, awcc, arcc;
    logic [DdrIdW-1:0] awid, bid, arid, rid;
    logic [31:0]       awaddr, araddr;
    logic [HiW-1:0]    awaddr_hi, araddr_hi;
    logic [4:0]        awseg, arseg;
    logic [7:0]        awlen, arlen, wstrb;
    logic [2:0]        awsize, arsize;
    logic [1:0]        awburst, arburst, bresp, rresp;
    logic [63:0]       wdata, rdata;

    assign eng_stb[e] = slv_req[SEngine].stb && (eng_sel == e);

    gpu_engine #(.AsidW(AsidW), .TagW(TagW), .PaBits(PaW)) u_engine (
      .clk_i, .rst_ni,
      .wb_cyc_i (bus.cyc), .wb_stb_i (eng_stb[e]), .wb_we_i (bus.we), .wb_adr_i (bus.adr),
      .wb_dat_i (bus.dat), .wb_ack_o (eng_ack[e]), .wb_dat_o (eng_dat[e*32 +: 32]),
      .tr_req_valid_o (tr_req_valid[e]), .tr_req_ready_i (tr_req_ready[e]),
      .tr_req_asid_o (tr_req_asid[e*AsidW +: AsidW]), .tr_req_va_o (tr_req_va[e*64 +: 64]),
      .tr_req_access_o (tr_req_access[e*2 +: 2]), .tr_req_tag_o (tr_req_tag[e*TagW +: TagW]),
      .tr_rsp_valid_i (tr_rsp_valid[e]), .tr_rsp_ready_o (tr_rsp_ready[e]),
      .tr_rsp_tag_i (tr_rsp_tag[e*TagW +: TagW]), .tr_rsp_fault_i (tr_rsp_fault[e*3 +: 3]),
      .tr_rsp_zero_i (tr_rsp_zero[e]), .tr_rsp_pa_i (tr_rsp_pa[e*PaW +: PaW]),
      .tr_rsp_seg_i (tr_rsp_seg[e*5 +: 5]), .tr_rsp_cc_i (tr_rsp_cc[e]),
      .tr_rsp_ro_i (tr_rsp_ro[e]), .tr_rsp_nx_i (tr_rsp_nx[e]),
      .tr_rsp_psize_i (tr_rsp_psize[e*3 +: 3]),
      .axi_awvalid_o (awvalid), .axi_awready_i (awready), .axi_awid_o (awid),
      .axi_awaddr_o (awaddr), .axi_awlen_o (awlen), .axi_awsize_o (awsize),
      .axi_awburst_o (awburst), .axi_awseg_o (awseg), .axi_awcc_o (awcc),
      .axi_awaddr_hi_o (awaddr_hi),
      .axi_wvalid_o (wvalid), .axi_wready_i (wready), .axi_wdata_o (wdata),
      .axi_wstrb_o (wstrb), .axi_wlast_o (wlast),
      .axi_bvalid_i (bvalid), .axi_bready_o (bready), .axi_bid_i (bid), .axi_bresp_i (bresp),
      .axi_arvalid_o (arvalid), .axi_arready_i (arready), .axi_arid_o (arid),
      .axi_araddr_o (araddr), .axi_arlen_o (arlen), .axi_arsize_o (arsize),
      .axi_arburst_o (arburst), .axi_arseg_o (arseg), .axi_arcc_o (arcc),
      .axi_araddr_hi_o (araddr_hi),
      .axi_rvalid_i (rvalid), .axi_rready_o (rready), .axi_rid_i (rid), .axi_rdata_i (rdata),
      .axi_rresp_i (rresp), .axi_rlast_i (rlast),
      .done_o (eng_done[e])
    );

    // Routed bursts. Payloads are shared by the three routes; the VRAM route
    // keeps the low 32 address bits (the engine faults VRAM PAs >= 4 GiB).
    logic [NRoutes-1:0]        r_awvalid, r_awready, r_wvalid, r_wready, r_bvalid, r_bready;
    logic [NRoutes-1:0]        r_arvalid, r_arready, r_rvalid, r_rready, r_rlast;
    logic [NRoutes*DdrIdW-1:0] r_bid, r_rid;
    logic [NRoutes*2-1:0]      r_bresp, r_rresp;
    logic [NRoutes*64-1:0]     r_rdata;
    logic [DdrIdW-1:0]         o_awid, o_arid;
    logic [63:0]               o_awaddr, o_araddr, o_wdata;
    logic [7:0]                o_awlen, o_arlen, o_wstrb;
    logic [2:0]                o_awsize, o_arsize;
    logic [1:0]                o_awburst, o_arburst;
    logic                      o_awcc, o_arcc, o_wlast;

    axi4_demux #(.NSlaves(NRoutes), .IdW(DdrIdW), .AddrW(64), .UserW(1)) u_route (
      .clk_i, .rst_ni,
      .m_awvalid_i (awvalid), .m_awready_o (awready), .m_awsel_i (route_of(awseg)),
      .m_awid_i (awid), .m_awaddr_i ({32'(awaddr_hi), awaddr}), .m_awlen_i (awlen),
      .m_awsize_i (awsize), .m_awburst_i (awburst), .m_awuser_i (awcc),
      .m_wvalid_i (wvalid), .m_wready_o (wready), .m_wdata_i (wdata), .m_wstrb_i (wstrb),
      .m_wlast_i (wlast), .m_bvalid_o (bvalid), .m_bready_i (bready), .m_bid_o (bid),
      .m_bresp_o (bresp),
      .m_arvalid_i (arvalid), .m_arready_o (arready), .m_arsel_i (route_of(arseg)),
      .m_arid_i (arid), .m_araddr_i ({32'(araddr_hi), araddr}), .m_arlen_i (arlen),
      .m_arsize_i (arsize), .m_arburst_i (arburst), .m_aruser_i (arcc),
      .m_rvalid_o (rvalid), .m_rready_i (rready), .m_rid_o (rid), .m_rdata_o (rdata),
      .m_rresp_o (rresp), .m_rlast_o (rlast),
      .s_awvalid_o (r_awvalid), .s_awready_i (r_awready), .s_awid_o (o_awid),
      .s_awaddr_o (o_awaddr), .s_awlen_o (o_awlen), .s_awsize_o (o_awsize),
      .s_awburst_o (o_awburst), .s_awuser_o (o_awcc),
      .s_wvalid_o (r_wvalid), .s_wready_i (r_wready), .s_wdata_o (o_wdata),
      .s_wstrb_o (o_wstrb), .s_wlast_o (o_wlast),
      .s_bvalid_i (r_bvalid), .s_bready_o (r_bready), .s_bid_i (r_bid), .s_bresp_i (r_bresp),
      .s_arvalid_o (r_arvalid), .s_arready_i (r_arready), .s_arid_o (o_arid),
      .s_araddr_o (o_araddr), .s_arlen_o (o_arlen), .s_arsize_o (o_arsize),
      .s_arburst_o (o_arburst), .s_aruser_o (o_arcc),
      .s_rvalid_i (r_rvalid), .s_rready_o (r_rready), .s_rid_i (r_rid), .s_rdata_i (r_rdata),
      .s_rresp_i (r_rresp), .s_rlast_i (r_rlast)
    );

    // Route VRAM: a DDR arbiter master.
    assign dm_awvalid[M]               = r_awvalid[RVram];
    assign r_awready[RVram]            = dm_awready[M];
    assign dm_awid[M*DdrIdW +: DdrIdW] = o_awid;
    assign dm_awaddr[M*32 +: 32]       = o_awaddr[31:0];
    assign dm_awlen[M*8 +: 8]          = o_awlen;
    assign dm_awsize[M*3 +: 3]         = o_awsize;
    assign dm_awburst[M*2 +: 2]        = o_awburst;
    assign dm_wvalid[M]                = r_wvalid[RVram];
    assign r_wready[RVram]             = dm_wready[M];
    assign dm_wdata[M*64 +: 64]        = o_wdata;
    assign dm_wstrb[M*8 +: 8]          = o_wstrb;
    assign dm_wlast[M]                 = o_wlast;
    assign r_bvalid[RVram]             = dm_bvalid[M];
    assign dm_bready[M]                = r_bready[RVram];
    assign r_bid[RVram*DdrIdW +: DdrIdW] = dm_bid[M*DdrIdW +: DdrIdW];
    assign r_bresp[RVram*2 +: 2]       = dm_bresp[M*2 +: 2];
    assign dm_arvalid[M]               = r_arvalid[RVram];
    assign r_arready[RVram]            = dm_arready[M];
    assign dm_arid[M*DdrIdW +: DdrIdW] = o_arid;
    assign dm_araddr[M*32 +: 32]       = o_araddr[31:0];
    assign dm_arlen[M*8 +: 8]          = o_arlen;
    assign dm_arsize[M*3 +: 3]         = o_arsize;
    assign dm_arburst[M*2 +: 2]        = o_arburst;
    assign r_rvalid[RVram]             = dm_rvalid[M];
    assign dm_rready[M]                = r_rready[RVram];
    assign r_rid[RVram*DdrIdW +: DdrIdW] = dm_rid[M*DdrIdW +: DdrIdW];
    assign r_rdata[RVram*64 +: 64]     = dm_rdata[M*64 +: 64];
    assign r_rresp[RVram*2 +: 2]       = dm_rresp[M*2 +: 2];
    assign r_rlast[RVram]              = dm_rlast[M];

    // Route system memory: a system-memory arbiter master.
    assign sm_awvalid[e]               = r_awvalid[RSys];
    assign r_awready[RSys]             = sm_awready[e];
    assign sm_awid[e*DdrIdW +: DdrIdW] = o_awid;
    assign sm_awaddr[e*64 +: 64]       = o_awaddr;
    assign sm_awlen[e*8 +: 8]          = o_awlen;
    assign sm_awsize[e*3 +: 3]         = o_awsize;
    assign sm_awburst[e*2 +: 2]        = o_awburst;
    assign sm_awcc[e]                  = o_awcc;
    assign sm_wvalid[e]                = r_wvalid[RSys];
    assign r_wready[RSys]              = sm_wready[e];
    assign sm_wdata[e*64 +: 64]        = o_wdata;
    assign sm_wstrb[e*8 +: 8]          = o_wstrb;
    assign sm_wlast[e]                 = o_wlast;
    assign r_bvalid[RSys]              = sm_bvalid[e];
    assign sm_bready[e]                = r_bready[RSys];
    assign r_bid[RSys*DdrIdW +: DdrIdW] = sm_bid[e*DdrIdW +: DdrIdW];
    assign r_bresp[RSys*2 +: 2]        = sm_bresp[e*2 +: 2];
    assign sm_arvalid[e]               = r_arvalid[RSys];
    assign r_arready[RSys]             = sm_arready[e];
    assign sm_arid[e*DdrIdW +: DdrIdW] = o_arid;
    assign sm_araddr[e*64 +: 64]       = o_araddr;
    assign sm_arlen[e*8 +: 8]          = o_arlen;
    assign sm_arsize[e*3 +: 3]         = o_arsize;
    assign sm_arburst[e*2 +: 2]        = o_arburst;
    assign sm_arcc[e]                  = o_arcc;
    assign r_rvalid[RSys]              = sm_rvalid[e];
    assign sm_rready[e]                = r_rready[RSys];
    assign r_rid[RSys*DdrIdW +: DdrIdW] = sm_rid[e*DdrIdW +: DdrIdW];
    assign r_rdata[RSys*64 +: 64]      = sm_rdata[e*64 +: 64];
    assign r_rresp[RSys*2 +: 2]        = sm_rresp[e*2 +: 2];
    assign r_rlast[RSys]               = sm_rlast[e];

    // Route error: a segment with no memory behind it answers DECERR.
    axi4_err_slave #(.IdW(DdrIdW)) u_no_segment (
      .clk_i, .rst_ni,
      .awvalid_i (r_awvalid[RErr]), .awready_o (r_awready[RErr]), .awid_i (o_awid),
      .wvalid_i (r_wvalid[RErr]), .wready_o (r_wready[RErr]), .wlast_i (o_wlast),
      .bvalid_o (r_bvalid[RErr]), .bready_i (r_bready[RErr]),
      .bid_o (r_bid[RErr*DdrIdW +: DdrIdW]), .bresp_o (r_bresp[RErr*2 +: 2]),
      .arvalid_i (r_arvalid[RErr]), .arready_o (r_arready[RErr]), .arid_i (o_arid),
      .arlen_i (o_arlen), .rvalid_o (r_rvalid[RErr]), .rready_i (r_rready[RErr]),
      .rid_o (r_rid[RErr*DdrIdW +: DdrIdW]), .rdata_o (r_rdata[RErr*64 +: 64]),
      .rresp_o (r_rresp[RErr*2 +: 2]), .rlast_o (r_rlast[RErr])
    );
  end

  assign engine_irq = |eng_done;
  assign slv_rsp[SEngine].ack = |eng_ack;
  assign slv_rsp[SEngine].err = 1'b0;
  assign slv_rsp[SEngine].dat = eng_dat[eng_sel*32 +: 32];

  // -------------------------------------------------------- paging engine
  // Registers and queue on the CPU bus (PAGING region: the engine decodes
  // the low 13 address bits, so its 8 KiB window repeats across the region);
  // m_ddr is the DDR arbiter's master MPaging, m_sys the system-memory
  // arbiter's master SPagingSys.
  //
  // AxCACHE of m_sys: the engine has no per-burst CacheCoherent bit (its
  // packets carry bus addresses, not PTEs), so every burst goes out as
  // SYSMEM_AXCACHE_COHERENT: the host bridge snoops the CPU caches, which is
  // correct for any host page (a snooped access to memory the host maps
  // uncached is only slower), where a non-coherent burst to a cached page
  // could read stale data or be overwritten by a later write-back.
  paging_engine #(
    .QueueWords    (PagingQueueWords),
    .MaxBurst      (PagingMaxBurst),
    .CopyFifoBeats (PagingCopyFifoBeats),
    .Outstanding   (PagingOutstanding),
    .PktSlots      (PagingPktSlots),
    .AsidW         (AsidW),
    .DdrIdW        (DdrIdW),
    .SysIdW        (DdrIdW)
  ) u_paging (
    .clk_i, .rst_ni,
    .wb_cyc_i (bus.cyc), .wb_stb_i (slv_req[SPaging].stb), .wb_we_i (bus.we), .wb_adr_i (bus.adr),
    .wb_dat_i (bus.dat), .wb_ack_o (slv_rsp[SPaging].ack), .wb_dat_o (slv_rsp[SPaging].dat),
    .ddr_size_i ({28'd0, ddr_size_mb_i, 20'd0}),
    .m_ddr_awvalid_o (dm_awvalid[MPaging]), .m_ddr_awready_i (dm_awready[MPaging]),
    .m_ddr_awid_o (dm_awid[MPaging*DdrIdW +: DdrIdW]), .m_ddr_awaddr_o (dm_awaddr[MPaging*32 +: 32]),
    .m_ddr_awlen_o (dm_awlen[MPaging*8 +: 8]), .m_ddr_awsize_o (dm_awsize[MPaging*3 +: 3]),
    .m_ddr_awburst_o (dm_awburst[MPaging*2 +: 2]),
    .m_ddr_wvalid_o (dm_wvalid[MPaging]), .m_ddr_wready_i (dm_wready[MPaging]),
    .m_ddr_wdata_o (dm_wdata[MPaging*64 +: 64]), .m_ddr_wstrb_o (dm_wstrb[MPaging*8 +: 8]),
    .m_ddr_wlast_o (dm_wlast[MPaging]),
    .m_ddr_bvalid_i (dm_bvalid[MPaging]), .m_ddr_bready_o (dm_bready[MPaging]),
    .m_ddr_bid_i (dm_bid[MPaging*DdrIdW +: DdrIdW]), .m_ddr_bresp_i (dm_bresp[MPaging*2 +: 2]),
    .m_ddr_arvalid_o (dm_arvalid[MPaging]), .m_ddr_arready_i (dm_arready[MPaging]),
    .m_ddr_arid_o (dm_arid[MPaging*DdrIdW +: DdrIdW]), .m_ddr_araddr_o (dm_araddr[MPaging*32 +: 32]),
    .m_ddr_arlen_o (dm_arlen[MPaging*8 +: 8]), .m_ddr_arsize_o (dm_arsize[MPaging*3 +: 3]),
    .m_ddr_arburst_o (dm_arburst[MPaging*2 +: 2]),
    .m_ddr_rvalid_i (dm_rvalid[MPaging]), .m_ddr_rready_o (dm_rready[MPaging]),
    .m_ddr_rid_i (dm_rid[MPaging*DdrIdW +: DdrIdW]), .m_ddr_rdata_i (dm_rdata[MPaging*64 +: 64]),
    .m_ddr_rresp_i (dm_rresp[MPaging*2 +: 2]), .m_ddr_rlast_i (dm_rlast[MPaging]),
    .m_sys_awvalid_o (sm_awvalid[SPagingSys]), .m_sys_awready_i (sm_awready[SPagingSys]),
    .m_sys_awid_o (sm_awid[SPagingSys*DdrIdW +: DdrIdW]), .m_sys_awaddr_o (sm_awaddr[SPagingSys*64 +: 64]),
    .m_sys_awlen_o (sm_awlen[SPagingSys*8 +: 8]), .m_sys_awsize_o (sm_awsize[SPagingSys*3 +: 3]),
    .m_sys_awburst_o (sm_awburst[SPagingSys*2 +: 2]),
    .m_sys_wvalid_o (sm_wvalid[SPagingSys]), .m_sys_wready_i (sm_wready[SPagingSys]),
    .m_sys_wdata_o (sm_wdata[SPagingSys*64 +: 64]), .m_sys_wstrb_o (sm_wstrb[SPagingSys*8 +: 8]),
    .m_sys_wlast_o (sm_wlast[SPagingSys]),
    .m_sys_bvalid_i (sm_bvalid[SPagingSys]), .m_sys_bready_o (sm_bready[SPagingSys]),
    .m_sys_bid_i (sm_bid[SPagingSys*DdrIdW +: DdrIdW]), .m_sys_bresp_i (sm_bresp[SPagingSys*2 +: 2]),
    .m_sys_arvalid_o (sm_arvalid[SPagingSys]), .m_sys_arready_i (sm_arready[SPagingSys]),
    .m_sys_arid_o (sm_arid[SPagingSys*DdrIdW +: DdrIdW]), .m_sys_araddr_o (sm_araddr[SPagingSys*64 +: 64]),
    .m_sys_arlen_o (sm_arlen[SPagingSys*8 +: 8]), .m_sys_arsize_o (sm_arsize[SPagingSys*3 +: 3]),
    .m_sys_arburst_o (sm_arburst[SPagingSys*2 +: 2]),
    .m_sys_rvalid_i (sm_rvalid[SPagingSys]), .m_sys_rready_o (sm_rready[SPagingSys]),
    .m_sys_rid_i (sm_rid[SPagingSys*DdrIdW +: DdrIdW]), .m_sys_rdata_i (sm_rdata[SPagingSys*64 +: 64]),
    .m_sys_rresp_i (sm_rresp[SPagingSys*2 +: 2]), .m_sys_rlast_i (sm_rlast[SPagingSys]),
    .inv_valid_o (pg_inv_valid), .inv_ready_i (pg_inv_ready), .inv_type_o (pg_inv_type),
    .inv_asid_o (pg_inv_asid), .inv_start_o (pg_inv_start), .inv_end_o (pg_inv_end),
    .inv_busy_i (pg_inv_busy),
    .irq_o (paging_irq)
  );
  assign slv_rsp[SPaging].err = 1'b0;
  assign sm_awcc[SPagingSys] = 1'b1;
  assign sm_arcc[SPagingSys] = 1'b1;

  // ------------------------------------------------- system-memory arbiter
  localparam int unsigned SysIdW = DdrIdW + $clog2(NSysMasters);
  logic [SysIdW-1:0] sys_awid, sys_bid, sys_arid, sys_rid;
  logic              sys_awcc, sys_arcc;

  axi4_arbiter #(.NMasters(NSysMasters), .IdW(DdrIdW), .AddrW(64), .UserW(1)) u_sysmem_arbiter (
    .clk_i, .rst_ni,
    .m_awvalid_i (sm_awvalid), .m_awready_o (sm_awready), .m_awid_i (sm_awid),
    .m_awaddr_i (sm_awaddr), .m_awuser_i (sm_awcc), .m_awlen_i (sm_awlen),
    .m_awsize_i (sm_awsize), .m_awburst_i (sm_awburst), .m_wvalid_i (sm_wvalid),
    .m_wready_o (sm_wready), .m_wdata_i (sm_wdata), .m_wstrb_i (sm_wstrb), .m_wlast_i (sm_wlast),
    .m_bvalid_o (sm_bvalid), .m_bready_i (sm_bready), .m_bid_o (sm_bid), .m_bresp_o (sm_bresp),
    .m_arvalid_i (sm_arvalid), .m_arready_o (sm_arready), .m_arid_i (sm_arid),
    .m_araddr_i (sm_araddr), .m_aruser_i (sm_arcc), .m_arlen_i (sm_arlen),
    .m_arsize_i (sm_arsize), .m_arburst_i (sm_arburst), .m_rvalid_o (sm_rvalid),
    .m_rready_i (sm_rready), .m_rid_o (sm_rid), .m_rdata_o (sm_rdata), .m_rresp_o (sm_rresp),
    .m_rlast_o (sm_rlast),
    .s_awvalid_o (sysmem_awvalid_o), .s_awready_i (sysmem_awready_i), .s_awid_o (sys_awid),
    .s_awaddr_o (sysmem_awaddr_o), .s_awuser_o (sys_awcc), .s_awlen_o (sysmem_awlen_o),
    .s_awsize_o (sysmem_awsize_o), .s_awburst_o (sysmem_awburst_o),
    .s_wvalid_o (sysmem_wvalid_o), .s_wready_i (sysmem_wready_i), .s_wdata_o (sysmem_wdata_o),
    .s_wstrb_o (sysmem_wstrb_o), .s_wlast_o (sysmem_wlast_o),
    .s_bvalid_i (sysmem_bvalid_i), .s_bready_o (sysmem_bready_o), .s_bid_i (sys_bid),
    .s_bresp_i (sysmem_bresp_i),
    .s_arvalid_o (sysmem_arvalid_o), .s_arready_i (sysmem_arready_i), .s_arid_o (sys_arid),
    .s_araddr_o (sysmem_araddr_o), .s_aruser_o (sys_arcc), .s_arlen_o (sysmem_arlen_o),
    .s_arsize_o (sysmem_arsize_o), .s_arburst_o (sysmem_arburst_o),
    .s_rvalid_i (sysmem_rvalid_i), .s_rready_o (sysmem_rready_o), .s_rid_i (sys_rid),
    .s_rdata_i (sysmem_rdata_i), .s_rresp_i (sysmem_rresp_i), .s_rlast_i (sysmem_rlast_i)
  );

  assign sysmem_awid_o    = SYSMEM_AXI_ID_BITS'(sys_awid);
  assign sysmem_arid_o    = SYSMEM_AXI_ID_BITS'(sys_arid);
  assign sys_bid          = sysmem_bid_i[SysIdW-1:0];
  assign sys_rid          = sysmem_rid_i[SysIdW-1:0];
  assign sysmem_awcache_o = sys_awcc ? 4'(SYSMEM_AXCACHE_COHERENT) : 4'(SYSMEM_AXCACHE_NONCOHERENT);
  assign sysmem_arcache_o = sys_arcc ? 4'(SYSMEM_AXCACHE_COHERENT) : 4'(SYSMEM_AXCACHE_NONCOHERENT);

  // ---------------------------------------------------------- DDR arbiter
  logic [ArbIdW-1:0] arb_awid, arb_bid, arb_arid, arb_rid;
  logic              ddr_awuser, ddr_aruser;  // no sideband on the DDR port

  axi4_arbiter #(.NMasters(NDdrMasters), .IdW(DdrIdW)) u_ddr_arbiter (
    .clk_i, .rst_ni,
    .m_awvalid_i (dm_awvalid), .m_awready_o (dm_awready), .m_awid_i (dm_awid),
    .m_awaddr_i (dm_awaddr), .m_awuser_i ('0), .m_awlen_i (dm_awlen), .m_awsize_i (dm_awsize),
    .m_awburst_i (dm_awburst), .m_wvalid_i (dm_wvalid), .m_wready_o (dm_wready),
    .m_wdata_i (dm_wdata), .m_wstrb_i (dm_wstrb), .m_wlast_i (dm_wlast),
    .m_bvalid_o (dm_bvalid), .m_bready_i (dm_bready), .m_bid_o (dm_bid), .m_bresp_o (dm_bresp),
    .m_arvalid_i (dm_arvalid), .m_arready_o (dm_arready), .m_arid_i (dm_arid),
    .m_araddr_i (dm_araddr), .m_aruser_i ('0), .m_arlen_i (dm_arlen), .m_arsize_i (dm_arsize),
    .m_arburst_i (dm_arburst), .m_rvalid_o (dm_rvalid), .m_rready_i (dm_rready),
    .m_rid_o (dm_rid), .m_rdata_o (dm_rdata), .m_rresp_o (dm_rresp), .m_rlast_o (dm_rlast),
    .s_awvalid_o (ddr_awvalid_o), .s_awready_i (ddr_awready_i), .s_awid_o (arb_awid),
    .s_awaddr_o (ddr_awaddr_o), .s_awuser_o (ddr_awuser), .s_awlen_o (ddr_awlen_o), .s_awsize_o (ddr_awsize_o),
    .s_awburst_o (ddr_awburst_o), .s_wvalid_o (ddr_wvalid_o), .s_wready_i (ddr_wready_i),
    .s_wdata_o (ddr_wdata_o), .s_wstrb_o (ddr_wstrb_o), .s_wlast_o (ddr_wlast_o),
    .s_bvalid_i (ddr_bvalid_i), .s_bready_o (ddr_bready_o), .s_bid_i (arb_bid),
    .s_bresp_i (ddr_bresp_i), .s_arvalid_o (ddr_arvalid_o), .s_arready_i (ddr_arready_i),
    .s_arid_o (arb_arid), .s_araddr_o (ddr_araddr_o), .s_aruser_o (ddr_aruser), .s_arlen_o (ddr_arlen_o),
    .s_arsize_o (ddr_arsize_o), .s_arburst_o (ddr_arburst_o), .s_rvalid_i (ddr_rvalid_i),
    .s_rready_o (ddr_rready_o), .s_rid_i (arb_rid), .s_rdata_i (ddr_rdata_i),
    .s_rresp_i (ddr_rresp_i), .s_rlast_i (ddr_rlast_i)
  );

  // The DDR port's IDs are wide enough for every master the SoC will have.
  assign ddr_awid_o = DDR_AXI_ID_BITS'(arb_awid);
  assign ddr_arid_o = DDR_AXI_ID_BITS'(arb_arid);
  assign arb_bid    = ddr_bid_i[ArbIdW-1:0];
  assign arb_rid    = ddr_rid_i[ArbIdW-1:0];

  // The mailbox takes whole words (strobes unused); the top DDR ID bits are
  // for masters still to come; the aperture uses a single ID.
  logic unused_top;
  assign unused_top = ^{bar0_wstrb, cycle[63:32], ddr_awuser, ddr_aruser,
                        sysmem_bid_i[SYSMEM_AXI_ID_BITS-1:SysIdW],
                        sysmem_rid_i[SYSMEM_AXI_ID_BITS-1:SysIdW], ddr_bid_i[DDR_AXI_ID_BITS-1:ArbIdW],
                        ddr_rid_i[DDR_AXI_ID_BITS-1:ArbIdW],
                        dm_bid[MAperture*DdrIdW +: DdrIdW], dm_rid[MAperture*DdrIdW +: DdrIdW],
                        dm_awready[MMmu], dm_wready[MMmu], dm_bvalid[MMmu],
                        dm_bid[MMmu*DdrIdW +: DdrIdW], dm_bresp[MMmu*2 +: 2]};

endmodule : soc_top
