// GPU MMU SoC top: VexRiscv, a Wishbone interconnect, on-chip RAM, platform
// peripherals and the DDR port.
//
// The CPU's instruction and data buses share one Wishbone bus through an
// arbiter; a decoder routes it by the memory map in gmmu_soc_pkg (generated
// from include/defs/soc.toml). DDR is reached through both a cached and an
// uncached alias, bridged to an AXI4 master: the interface a LiteDRAM or
// Xilinx MIG controller offers on a board, and the DDR model in simulation.
module soc_top
  import gmmu_soc_pkg::*;
#(
  parameter int unsigned RamWords  = RAM_SIZE / 4,
  parameter string       RamInit   = ""
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

  // PCIe BAR1 (VRAM aperture, reserved: every access answers SLVERR)
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
  input  logic        ddr_rlast_i
);

  // ------------------------------------------------------------------ CPU
  logic        ibus_cyc, ibus_stb, ibus_ack, ibus_we, ibus_err;
  logic [29:0] ibus_adr;
  logic [31:0] ibus_dat_r, ibus_dat_w;
  logic [3:0]  ibus_sel;
  logic [2:0]  ibus_cti;
  logic [1:0]  ibus_bte;
  logic        dbus_cyc, dbus_stb, dbus_ack, dbus_we, dbus_err;
  logic [29:0] dbus_adr;
  logic [31:0] dbus_dat_r, dbus_dat_w;
  logic [3:0]  dbus_sel;
  logic [2:0]  dbus_cti;
  logic [1:0]  dbus_bte;
  logic        timer_irq;
  logic [63:0] cycle;
  logic [31:0] ext_irq;

  logic buserr_irq, mbox_irq, mmu_irq, engine_irq;
  always_comb begin
    ext_irq = '0;
    ext_irq[IRQ_BUS_ERROR]     = buserr_irq;
    ext_irq[IRQ_MBOX_DOORBELL] = mbox_irq;
    ext_irq[IRQ_MMU_FAULT]     = mmu_irq;
    ext_irq[IRQ_ENGINE_DONE]   = engine_irq;
  end

  VexRiscv u_cpu (
    .externalResetVector    (RAM_BASE),
    .timerInterrupt         (timer_irq),
    .softwareInterrupt      (1'b0),
    .externalInterruptArray (ext_irq),
    .iBusWishbone_CYC       (ibus_cyc),
    .iBusWishbone_STB       (ibus_stb),
    .iBusWishbone_ACK       (ibus_ack),
    .iBusWishbone_WE        (ibus_we),
    .iBusWishbone_ADR       (ibus_adr),
    .iBusWishbone_DAT_MISO  (ibus_dat_r),
    .iBusWishbone_DAT_MOSI  (ibus_dat_w),
    .iBusWishbone_SEL       (ibus_sel),
    .iBusWishbone_ERR       (ibus_err),
    .iBusWishbone_CTI       (ibus_cti),
    .iBusWishbone_BTE       (ibus_bte),
    .dBusWishbone_CYC       (dbus_cyc),
    .dBusWishbone_STB       (dbus_stb),
    .dBusWishbone_ACK       (dbus_ack),
    .dBusWishbone_WE        (dbus_we),
    .dBusWishbone_ADR       (dbus_adr),
    .dBusWishbone_DAT_MISO  (dbus_dat_r),
    .dBusWishbone_DAT_MOSI  (dbus_dat_w),
    .dBusWishbone_SEL       (dbus_sel),
    .dBusWishbone_ERR       (dbus_err),
    .dBusWishbone_CTI       (dbus_cti),
    .dBusWishbone_BTE       (dbus_bte),
    .clk                    (clk_i),
    .reset                  (!rst_ni)
  );

  // Both caches use linear bursts only; BTE carries no information.
  logic unused_bte;
  assign unused_bte = ^{ibus_bte, dbus_bte};

  // ------------------------------------------------------- interconnect
  logic        bus_cyc, bus_stb, bus_we, bus_ack, bus_err;
  logic [29:0] bus_adr;
  logic [31:0] bus_dat_w, bus_dat_r, slave_dat_r;
  logic [3:0]  bus_sel;
  logic [2:0]  bus_cti;
  logic        slave_ack, slave_err;

  // VexRiscv's Wishbone adapters ignore ERR (the generated Verilog ties the
  // response error to 0), so an ERR alone would leave the CPU waiting forever.
  // An error therefore completes the access (reads return all ones, like a
  // PCIe master abort) and is reported through SYSCTL.BUSERR_* and IRQ_BUS_ERROR.
  assign bus_ack   = slave_ack | slave_err;
  assign bus_err   = 1'b0;
  assign bus_dat_r = slave_err ? '1 : slave_dat_r;

  wb_arbiter u_arbiter (
    .clk_i, .rst_ni,
    .m0_cyc_i (dbus_cyc), .m0_stb_i (dbus_stb), .m0_we_i (dbus_we), .m0_adr_i (dbus_adr),
    .m0_dat_i (dbus_dat_w), .m0_sel_i (dbus_sel), .m0_cti_i (dbus_cti),
    .m0_ack_o (dbus_ack), .m0_err_o (dbus_err), .m0_dat_o (dbus_dat_r),
    .m1_cyc_i (ibus_cyc), .m1_stb_i (ibus_stb), .m1_we_i (ibus_we), .m1_adr_i (ibus_adr),
    .m1_dat_i (ibus_dat_w), .m1_sel_i (ibus_sel), .m1_cti_i (ibus_cti),
    .m1_ack_o (ibus_ack), .m1_err_o (ibus_err), .m1_dat_o (ibus_dat_r),
    .s_cyc_o (bus_cyc), .s_stb_o (bus_stb), .s_we_o (bus_we), .s_adr_o (bus_adr),
    .s_dat_o (bus_dat_w), .s_sel_o (bus_sel), .s_cti_o (bus_cti),
    .s_ack_i (bus_ack), .s_err_i (bus_err), .s_dat_i (bus_dat_r)
  );

  // Slave order: the DDR bridge takes both DDR aliases.
  localparam int unsigned NSlaves = 9;
  localparam int unsigned SRam = 0, SSysctl = 1, SConsole = 2, STimer = 3,
                          SDdrCached = 4, SDdr = 5, SMbox = 6, SMmu = 7, SEngine = 8;
  localparam logic [32*NSlaves-1:0] SlaveBase = {
    ENGINE_BASE, MMU_BASE, MBOX_BASE, DDR_BASE, DDR_CACHED_BASE, TIMER_BASE, CONSOLE_BASE,
    SYSCTL_BASE, RAM_BASE};
  localparam logic [32*NSlaves-1:0] SlaveMask = {
    ~(ENGINE_SIZE - 1), ~(MMU_SIZE - 1), ~(MBOX_SIZE - 1), ~(DDR_SIZE - 1),
    ~(DDR_CACHED_SIZE - 1), ~(TIMER_SIZE - 1), ~(CONSOLE_SIZE - 1), ~(SYSCTL_SIZE - 1),
    ~(RAM_SIZE - 1)};

  logic [NSlaves-1:0]    slv_stb, slv_ack, slv_err;
  logic [32*NSlaves-1:0] slv_dat;

  wb_decoder #(.NSlaves(NSlaves), .SlaveBase(SlaveBase), .SlaveMask(SlaveMask)) u_decoder (
    .clk_i, .rst_ni,
    .m_cyc_i (bus_cyc), .m_stb_i (bus_stb), .m_adr_i (bus_adr),
    .m_ack_o (slave_ack), .m_err_o (slave_err), .m_dat_o (slave_dat_r),
    .s_stb_o (slv_stb), .s_ack_i (slv_ack), .s_err_i (slv_err), .s_dat_i (slv_dat)
  );

  wb_ram #(.Words(RamWords), .InitFile(RamInit)) u_ram (
    .clk_i, .rst_ni,
    .cyc_i (bus_cyc), .stb_i (slv_stb[SRam]), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .sel_i (bus_sel), .cti_i (bus_cti),
    .ack_o (slv_ack[SRam]), .err_o (slv_err[SRam]), .dat_o (slv_dat[32*SRam +: 32])
  );

  wb_sysctl u_sysctl (
    .clk_i, .rst_ni,
    .cyc_i (bus_cyc), .stb_i (slv_stb[SSysctl]), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .ack_o (slv_ack[SSysctl]), .dat_o (slv_dat[32*SSysctl +: 32]),
    .boot_arg_i, .ddr_size_mb_i, .exit_valid_o, .exit_code_o,
    .bus_err_i (slave_err), .bus_err_we_i (bus_we), .bus_err_addr_i ({bus_adr, 2'b00}),
    .buserr_irq_o (buserr_irq), .ibus_busy_i (ibus_cyc), .dbus_busy_i (dbus_cyc)
  );
  assign slv_err[SSysctl] = 1'b0;

  wb_console u_console (
    .clk_i, .rst_ni,
    .cyc_i (bus_cyc), .stb_i (slv_stb[SConsole]), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .ack_o (slv_ack[SConsole]), .dat_o (slv_dat[32*SConsole +: 32]),
    .tx_valid_o (console_valid_o), .tx_data_o (console_data_o), .tx_ready_i (console_ready_i)
  );
  assign slv_err[SConsole] = 1'b0;

  wb_timer u_timer (
    .clk_i, .rst_ni,
    .cyc_i (bus_cyc), .stb_i (slv_stb[STimer]), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .ack_o (slv_ack[STimer]), .dat_o (slv_dat[32*STimer +: 32]),
    .irq_o (timer_irq), .cycle_o (cycle)
  );
  assign slv_err[STimer] = 1'b0;

  // Both DDR aliases share one bridge; the decoder tells them apart only for
  // routing, the bridge sees the 1 GiB offset.
  logic ddr_stb;
  assign ddr_stb = slv_stb[SDdrCached] | slv_stb[SDdr];

  logic        ddr_ack, ddr_err;
  logic [31:0] ddr_dat;

  // DDR masters, in arbiter order: 0 CPU bridge, 1 BAR1 aperture, 2 MMU
  // walker (reads only), 3.. the GPU engines.
  localparam int unsigned NEngines = ENGINES;
  localparam int unsigned NDdrMasters = 3 + NEngines, MCpu = 0, MAperture = 1, MMmu = 2,
                          MEngine0 = 3;
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
    .cyc_i (bus_cyc), .stb_i (ddr_stb), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .sel_i (bus_sel), .cti_i (bus_cti),
    .ack_o (ddr_ack), .err_o (ddr_err), .dat_o (ddr_dat),
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

  assign slv_ack[SDdrCached] = ddr_ack;
  assign slv_err[SDdrCached] = ddr_err;
  assign slv_dat[32*SDdrCached +: 32] = ddr_dat;
  assign slv_ack[SDdr] = ddr_ack;
  assign slv_err[SDdr] = ddr_err;
  assign slv_dat[32*SDdr +: 32] = ddr_dat;

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

  mbox u_mbox (
    .clk_i, .rst_ni,
    .host_req_i (bar0_req), .host_we_i (bar0_we), .host_addr_i (bar0_addr),
    .host_wdata_i (bar0_wdata), .host_ack_o (bar0_ack), .host_err_o (bar0_err),
    .host_rdata_o (bar0_rdata),
    .cyc_i (bus_cyc), .stb_i (slv_stb[SMbox]), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .ack_o (slv_ack[SMbox]), .dat_o (slv_dat[32*SMbox +: 32]),
    .cycle_i (cycle[31:0]), .aperture_base_o (aperture_base),
    .dev_irq_o (mbox_irq), .host_irq_o, .msi_o (host_msi_o)
  );
  assign slv_err[SMbox] = 1'b0;

  // BAR1: the VRAM aperture, a window into DDR at MBOX.APERTURE_BASE.
  logic        bar1_req, bar1_we, bar1_ack, bar1_err;
  logic [23:0] bar1_addr;
  logic [31:0] bar1_wdata, bar1_rdata, aperture_base;
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
    .base_i (aperture_base),
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

  mmu_top u_mmu (
    .clk_i, .rst_ni,
    .wb_cyc_i (bus_cyc), .wb_stb_i (slv_stb[SMmu]), .wb_we_i (bus_we), .wb_adr_i (bus_adr),
    .wb_dat_i (bus_dat_w), .wb_sel_i (bus_sel), .wb_ack_o (slv_ack[SMmu]),
    .wb_dat_o (slv_dat[32*SMmu +: 32]),
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
    .irq_o (mmu_irq)
  );
  assign slv_err[SMmu] = 1'b0;

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
  logic [NEngines-1:0]    eng_stb, eng_ack, eng_done;
  logic [NEngines*32-1:0] eng_dat;
  logic [NEngines*5-1:0]  eng_awseg, eng_arseg;
  logic [NEngines-1:0]    eng_awcc, eng_arcc;
  logic [NEngines*(PaW-32)-1:0] eng_awaddr_hi, eng_araddr_hi;
  logic [$clog2(NEngines)-1:0]  eng_sel;

  assign eng_sel = bus_adr[10 +: $clog2(NEngines)];

  for (genvar e = 0; e < NEngines; e++) begin : g_engine
    assign eng_stb[e] = slv_stb[SEngine] && (eng_sel == e);

    gpu_engine #(.AsidW(AsidW), .TagW(TagW), .PaBits(PaW)) u_engine (
      .clk_i, .rst_ni,
      .wb_cyc_i (bus_cyc), .wb_stb_i (eng_stb[e]), .wb_we_i (bus_we), .wb_adr_i (bus_adr),
      .wb_dat_i (bus_dat_w), .wb_ack_o (eng_ack[e]), .wb_dat_o (eng_dat[e*32 +: 32]),
      .tr_req_valid_o (tr_req_valid[e]), .tr_req_ready_i (tr_req_ready[e]),
      .tr_req_asid_o (tr_req_asid[e*AsidW +: AsidW]), .tr_req_va_o (tr_req_va[e*64 +: 64]),
      .tr_req_access_o (tr_req_access[e*2 +: 2]), .tr_req_tag_o (tr_req_tag[e*TagW +: TagW]),
      .tr_rsp_valid_i (tr_rsp_valid[e]), .tr_rsp_ready_o (tr_rsp_ready[e]),
      .tr_rsp_tag_i (tr_rsp_tag[e*TagW +: TagW]), .tr_rsp_fault_i (tr_rsp_fault[e*3 +: 3]),
      .tr_rsp_zero_i (tr_rsp_zero[e]), .tr_rsp_pa_i (tr_rsp_pa[e*PaW +: PaW]),
      .tr_rsp_seg_i (tr_rsp_seg[e*5 +: 5]), .tr_rsp_cc_i (tr_rsp_cc[e]),
      .tr_rsp_ro_i (tr_rsp_ro[e]), .tr_rsp_nx_i (tr_rsp_nx[e]),
      .tr_rsp_psize_i (tr_rsp_psize[e*3 +: 3]),
      .axi_awvalid_o (dm_awvalid[MEngine0+e]), .axi_awready_i (dm_awready[MEngine0+e]),
      .axi_awid_o (dm_awid[(MEngine0+e)*DdrIdW +: DdrIdW]),
      .axi_awaddr_o (dm_awaddr[(MEngine0+e)*32 +: 32]),
      .axi_awlen_o (dm_awlen[(MEngine0+e)*8 +: 8]), .axi_awsize_o (dm_awsize[(MEngine0+e)*3 +: 3]),
      .axi_awburst_o (dm_awburst[(MEngine0+e)*2 +: 2]),
      .axi_awseg_o (eng_awseg[e*5 +: 5]), .axi_awcc_o (eng_awcc[e]),
      .axi_awaddr_hi_o (eng_awaddr_hi[e*(PaW-32) +: PaW-32]),
      .axi_wvalid_o (dm_wvalid[MEngine0+e]), .axi_wready_i (dm_wready[MEngine0+e]),
      .axi_wdata_o (dm_wdata[(MEngine0+e)*64 +: 64]), .axi_wstrb_o (dm_wstrb[(MEngine0+e)*8 +: 8]),
      .axi_wlast_o (dm_wlast[MEngine0+e]),
      .axi_bvalid_i (dm_bvalid[MEngine0+e]), .axi_bready_o (dm_bready[MEngine0+e]),
      .axi_bid_i (dm_bid[(MEngine0+e)*DdrIdW +: DdrIdW]), .axi_bresp_i (dm_bresp[(MEngine0+e)*2 +: 2]),
      .axi_arvalid_o (dm_arvalid[MEngine0+e]), .axi_arready_i (dm_arready[MEngine0+e]),
      .axi_arid_o (dm_arid[(MEngine0+e)*DdrIdW +: DdrIdW]),
      .axi_araddr_o (dm_araddr[(MEngine0+e)*32 +: 32]),
      .axi_arlen_o (dm_arlen[(MEngine0+e)*8 +: 8]), .axi_arsize_o (dm_arsize[(MEngine0+e)*3 +: 3]),
      .axi_arburst_o (dm_arburst[(MEngine0+e)*2 +: 2]),
      .axi_arseg_o (eng_arseg[e*5 +: 5]), .axi_arcc_o (eng_arcc[e]),
      .axi_araddr_hi_o (eng_araddr_hi[e*(PaW-32) +: PaW-32]),
      .axi_rvalid_i (dm_rvalid[MEngine0+e]), .axi_rready_o (dm_rready[MEngine0+e]),
      .axi_rid_i (dm_rid[(MEngine0+e)*DdrIdW +: DdrIdW]),
      .axi_rdata_i (dm_rdata[(MEngine0+e)*64 +: 64]), .axi_rresp_i (dm_rresp[(MEngine0+e)*2 +: 2]),
      .axi_rlast_i (dm_rlast[MEngine0+e]),
      .done_o (eng_done[e])
    );
  end

  assign engine_irq = |eng_done;
  assign slv_ack[SEngine] = |eng_ack;
  assign slv_err[SEngine] = 1'b0;
  assign slv_dat[32*SEngine +: 32] = eng_dat[eng_sel*32 +: 32];

  // System-memory (segment 0) traffic has no port yet: the engines' segment,
  // coherence and high-address sidebands wait for it. Until it lands only
  // VRAM mappings may be used by engines (see docs/engine.md).
  logic unused_eng;
  assign unused_eng = ^{eng_awseg, eng_arseg, eng_awcc, eng_arcc, eng_awaddr_hi, eng_araddr_hi};

  // ---------------------------------------------------------- DDR arbiter
  logic [ArbIdW-1:0] arb_awid, arb_bid, arb_arid, arb_rid;

  axi4_arbiter #(.NMasters(NDdrMasters), .IdW(DdrIdW)) u_ddr_arbiter (
    .clk_i, .rst_ni,
    .m_awvalid_i (dm_awvalid), .m_awready_o (dm_awready), .m_awid_i (dm_awid),
    .m_awaddr_i (dm_awaddr), .m_awlen_i (dm_awlen), .m_awsize_i (dm_awsize),
    .m_awburst_i (dm_awburst), .m_wvalid_i (dm_wvalid), .m_wready_o (dm_wready),
    .m_wdata_i (dm_wdata), .m_wstrb_i (dm_wstrb), .m_wlast_i (dm_wlast),
    .m_bvalid_o (dm_bvalid), .m_bready_i (dm_bready), .m_bid_o (dm_bid), .m_bresp_o (dm_bresp),
    .m_arvalid_i (dm_arvalid), .m_arready_o (dm_arready), .m_arid_i (dm_arid),
    .m_araddr_i (dm_araddr), .m_arlen_i (dm_arlen), .m_arsize_i (dm_arsize),
    .m_arburst_i (dm_arburst), .m_rvalid_o (dm_rvalid), .m_rready_i (dm_rready),
    .m_rid_o (dm_rid), .m_rdata_o (dm_rdata), .m_rresp_o (dm_rresp), .m_rlast_o (dm_rlast),
    .s_awvalid_o (ddr_awvalid_o), .s_awready_i (ddr_awready_i), .s_awid_o (arb_awid),
    .s_awaddr_o (ddr_awaddr_o), .s_awlen_o (ddr_awlen_o), .s_awsize_o (ddr_awsize_o),
    .s_awburst_o (ddr_awburst_o), .s_wvalid_o (ddr_wvalid_o), .s_wready_i (ddr_wready_i),
    .s_wdata_o (ddr_wdata_o), .s_wstrb_o (ddr_wstrb_o), .s_wlast_o (ddr_wlast_o),
    .s_bvalid_i (ddr_bvalid_i), .s_bready_o (ddr_bready_o), .s_bid_i (arb_bid),
    .s_bresp_i (ddr_bresp_i), .s_arvalid_o (ddr_arvalid_o), .s_arready_i (ddr_arready_i),
    .s_arid_o (arb_arid), .s_araddr_o (ddr_araddr_o), .s_arlen_o (ddr_arlen_o),
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
  assign unused_top = ^{bar0_wstrb, cycle[63:32], ddr_bid_i[DDR_AXI_ID_BITS-1:ArbIdW],
                        ddr_rid_i[DDR_AXI_ID_BITS-1:ArbIdW],
                        dm_bid[MAperture*DdrIdW +: DdrIdW], dm_rid[MAperture*DdrIdW +: DdrIdW],
                        dm_awready[MMmu], dm_wready[MMmu], dm_bvalid[MMmu],
                        dm_bid[MMmu*DdrIdW +: DdrIdW], dm_bresp[MMmu*2 +: 2]};

endmodule : soc_top
