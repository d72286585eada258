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
  localparam int unsigned NSlaves = 11;
  localparam int unsigned SRam = 0, SSysctl = 1, SConsole = 2, STimer = 3,
                          SDdrCached = 4, SDdr = 5, SMbox = 6, SMmu = 7, SEngine = 8,
                          SPaging = 9, SApt = 10;
  localparam logic [32*NSlaves-1:0] SlaveBase = {
    APERTURE_BASE, PAGING_BASE, ENGINE_BASE, MMU_BASE, MBOX_BASE, DDR_BASE, DDR_CACHED_BASE, TIMER_BASE,
    CONSOLE_BASE, SYSCTL_BASE, RAM_BASE};
  localparam logic [32*NSlaves-1:0] SlaveMask = {
    ~(APERTURE_SIZE - 1), ~(PAGING_SIZE - 1), ~(ENGINE_SIZE - 1), ~(MMU_SIZE - 1), ~(MBOX_SIZE - 1), ~(DDR_SIZE - 1),
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
  // walker (reads only), 3.. the GPU engines, then the paging engine, then
  // the aperture translators' table reads.
  localparam int unsigned NEngines = ENGINES;
  localparam int unsigned NDdrMasters = 5 + NEngines, MCpu = 0, MAperture = 1, MMmu = 2,
                          MEngine0 = 3, MPaging = 3 + NEngines, MAptTable = 4 + NEngines;
  localparam int unsigned DdrIdW = 4;
  localparam int unsigned ArbIdW = DdrIdW + $clog2(NDdrMasters);

  // axi4_pkg structs: each master's IDs use DdrIdW bits, its addresses 32.
  axi4_pkg::axi4_req_t [NDdrMasters-1:0] dm_req;
  axi4_pkg::axi4_rsp_t [NDdrMasters-1:0] dm_rsp;

  // What a DDR arbiter master sees of a request: 32-bit addresses, no user
  // sideband (the DDR port has none).
  function automatic axi4_pkg::axi4_req_t ddr_view(input axi4_pkg::axi4_req_t r);
    ddr_view = r;
    ddr_view.aw.addr = axi4_pkg::ADDR_W'(r.aw.addr[31:0]);
    ddr_view.ar.addr = axi4_pkg::ADDR_W'(r.ar.addr[31:0]);
    ddr_view.aw.user = '0;
    ddr_view.ar.user = '0;
  endfunction

  wb_to_axi4 u_ddr_bridge (
    .clk_i, .rst_ni,
    .wb_i (ddr_req), .wb_o (ddr_rsp),
    .axi_o (dm_req[MCpu]), .axi_i (dm_rsp[MCpu])
  );

  assign slv_rsp[SDdrCached] = ddr_rsp;
  assign slv_rsp[SDdr]       = ddr_rsp;

  // ------------------------------------------------------------ mailbox
  // The BAR as axi4_pkg's AXI4-Lite structs, and its register port.
  axi4_pkg::axil_req_t bar0_axil_req;
  axi4_pkg::axil_rsp_t bar0_axil_rsp;
  axi4_pkg::reg_req_t  bar0_reg_req;
  axi4_pkg::reg_rsp_t  bar0_reg_rsp;
  // The host link's pins, held for the simulator (prim_sim_input_sample).
  axi4_pkg::axil_req_t bar0_axil_req_pins;
  prim_sim_input_sample #(.Width($bits(axi4_pkg::axil_req_t))) u_bar0_req_sample (
    .clk_i, .d_i (bar0_axil_req_pins), .q_o (bar0_axil_req)
  );
  assign bar0_axil_req_pins = '{aw_valid: bar0_awvalid_i, aw_addr: 32'(bar0_awaddr_i),
                            w_valid: bar0_wvalid_i, w_data: bar0_wdata_i, w_strb: bar0_wstrb_i,
                            b_ready: bar0_bready_i, ar_valid: bar0_arvalid_i,
                            ar_addr: 32'(bar0_araddr_i), r_ready: bar0_rready_i};
  assign {bar0_awready_o, bar0_wready_o, bar0_bvalid_o, bar0_bresp_o, bar0_arready_o, bar0_rvalid_o,
          bar0_rdata_o, bar0_rresp_o} = bar0_axil_rsp;

  axi4lite_to_reg #(.AddrWidth(16)) u_bar0 (
    .clk_i, .rst_ni,
    .axil_i (bar0_axil_req), .axil_o (bar0_axil_rsp),
    .reg_o (bar0_reg_req), .reg_i (bar0_reg_rsp)
  );

  // The mailbox owns APERTURE_BASE; BAR1 below uses it.
  logic [31:0] aperture_base, aperture_limit;

  mbox u_mbox (
    .clk_i, .rst_ni,
    .host_i (bar0_reg_req), .host_o (bar0_reg_rsp),
    .wb_i (slv_req[SMbox]), .wb_o (slv_rsp[SMbox]),
    .cycle_i (cycle[31:0]), .aperture_base_o (aperture_base), .aperture_limit_o (aperture_limit),
    .dev_irq_o (mbox_irq), .host_irq_o, .msi_o (host_msi_o)
  );

  // BAR1: the VRAM aperture, a window into DDR at MBOX.APERTURE_BASE.
  // The BAR as axi4_pkg's AXI4-Lite structs, and its register port.
  axi4_pkg::axil_req_t bar1_axil_req;
  axi4_pkg::axil_rsp_t bar1_axil_rsp;
  axi4_pkg::reg_req_t  bar1_reg_req;
  axi4_pkg::reg_rsp_t  bar1_reg_rsp;
  // The host link's pins, held for the simulator (prim_sim_input_sample).
  axi4_pkg::axil_req_t bar1_axil_req_pins;
  prim_sim_input_sample #(.Width($bits(axi4_pkg::axil_req_t))) u_bar1_req_sample (
    .clk_i, .d_i (bar1_axil_req_pins), .q_o (bar1_axil_req)
  );
  assign bar1_axil_req_pins = '{aw_valid: bar1_awvalid_i, aw_addr: 32'(bar1_awaddr_i),
                            w_valid: bar1_wvalid_i, w_data: bar1_wdata_i, w_strb: bar1_wstrb_i,
                            b_ready: bar1_bready_i, ar_valid: bar1_arvalid_i,
                            ar_addr: 32'(bar1_araddr_i), r_ready: bar1_rready_i};
  assign {bar1_awready_o, bar1_wready_o, bar1_bvalid_o, bar1_bresp_o, bar1_arready_o, bar1_rvalid_o,
          bar1_rdata_o, bar1_rresp_o} = bar1_axil_rsp;

  axi4lite_to_reg #(.AddrWidth(24)) u_bar1 (
    .clk_i, .rst_ni,
    .axil_i (bar1_axil_req), .axil_o (bar1_axil_rsp),
    .reg_o (bar1_reg_req), .reg_i (bar1_reg_rsp)
  );

  bar1_aperture #(.WindowBits(24)) u_aperture (
    .clk_i, .rst_ni,
    .base_i (aperture_base), .limit_i (aperture_limit),
    .reg_i (bar1_reg_req), .reg_o (bar1_reg_rsp),
    .axi_o (dm_req[MAperture]), .axi_i (dm_rsp[MAperture])
  );

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

  logic [DdrIdW-1:0] mmu_arid;
  logic [31:0]       mmu_araddr;

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
    .axi_arvalid_o (dm_req[MMmu].ar_valid), .axi_arready_i (dm_rsp[MMmu].ar_ready),
    .axi_arid_o (mmu_arid), .axi_araddr_o (mmu_araddr), .axi_arlen_o (dm_req[MMmu].ar.len),
    .axi_arsize_o (dm_req[MMmu].ar.size), .axi_arburst_o (dm_req[MMmu].ar.burst),
    .axi_rvalid_i (dm_rsp[MMmu].r_valid), .axi_rready_o (dm_req[MMmu].r_ready),
    .axi_rid_i (dm_rsp[MMmu].r.id[DdrIdW-1:0]), .axi_rdata_i (dm_rsp[MMmu].r.data),
    .axi_rresp_i (dm_rsp[MMmu].r.resp), .axi_rlast_i (dm_rsp[MMmu].r.last),
    .inv_req_valid_i (pg_inv_valid), .inv_req_ready_o (pg_inv_ready),
    .inv_req_type_i (pg_inv_type), .inv_req_asid_i (pg_inv_asid),
    .inv_req_start_i (pg_inv_start), .inv_req_end_i (pg_inv_end),
    .inv_req_busy_o (pg_inv_busy),
    .irq_o (mmu_irq)
  );
  assign slv_rsp[SMmu].err = 1'b0;

  // The walker only reads.
  assign dm_req[MMmu].ar.id   = axi4_pkg::ID_W'(mmu_arid);
  assign dm_req[MMmu].ar.addr = axi4_pkg::ADDR_W'(mmu_araddr);
  assign dm_req[MMmu].ar.user = '0;
  assign dm_req[MMmu].aw_valid = 1'b0;
  assign dm_req[MMmu].aw       = '0;
  assign dm_req[MMmu].w_valid  = 1'b0;
  assign dm_req[MMmu].w        = '0;
  assign dm_req[MMmu].b_ready  = 1'b1;

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
  axi4_pkg::axi4_req_t [NSysMasters-1:0] sm_req;
  axi4_pkg::axi4_rsp_t [NSysMasters-1:0] sm_rsp;

  assign eng_sel = bus.adr[10 +: $clog2(NEngines)];

  function automatic logic [RouteW-1:0] route_of(input logic [4:0] seg);
    if (32'(seg) == gmmu_pte_pkg::SEGMENT_VRAM)     return RouteW'(RVram);
    if (32'(seg) == gmmu_pte_pkg::SEGMENT_SYSTEM)   return RouteW'(RSys);
    if (32'(seg) == gmmu_pte_pkg::SEGMENT_APERTURE) return RouteW'(RSys);
    return RouteW'(RErr);
  endfunction

  // The aperture segment (docs/aperture.md): its registers, and one
  // translator per engine on the engine's system-memory route; the
  // translators' table reads share one DDR arbiter master.
  localparam int unsigned AptBit = 1;   // AxUSER bit: an aperture burst
  logic [31:6]         apt_table;
  logic [20:0]         apt_pages;
  logic                apt_inv;
  logic [NEngines-1:0] apt_miss, apt_refuse;
  axi4_pkg::axi4_req_t [NEngines-1:0] apt_t_req;
  axi4_pkg::axi4_rsp_t [NEngines-1:0] apt_t_rsp;
  axi4_pkg::axi4_req_t apt_tbl_req;
  logic [$clog2(NEngines)-1:0] apt_sel, apt_wait_sel_q, apt_r_dst;
  logic                        apt_wait_q;

  aperture_regs #(.N(NEngines)) u_aperture_regs (
    .clk_i, .rst_ni,
    .wb_i (slv_req[SApt]), .wb_o (slv_rsp[SApt]),
    .table_o (apt_table), .pages_o (apt_pages), .inv_o (apt_inv),
    .miss_i (apt_miss), .refuse_i (apt_refuse)
  );

  // Table reads: each translator has at most one in flight and always
  // takes its R beats, so a priority choice (kept while the DDR arbiter has
  // not taken the AR) with the translator's index as ID is enough.
  always_comb begin
    apt_sel = apt_wait_sel_q;
    if (!apt_wait_q) begin
      for (int t = NEngines - 1; t >= 0; t--) begin
        if (apt_t_req[t].ar_valid) apt_sel = $clog2(NEngines)'(t);
      end
    end
    apt_tbl_req          = '0;
    apt_tbl_req.ar_valid = apt_t_req[apt_sel].ar_valid;
    apt_tbl_req.ar       = apt_t_req[apt_sel].ar;
    apt_tbl_req.ar.id    = axi4_pkg::ID_W'(apt_sel);
    apt_tbl_req.r_ready  = 1'b1;
    apt_tbl_req.b_ready  = 1'b1;
  end
  assign apt_r_dst = dm_rsp[MAptTable].r.id[$clog2(NEngines)-1:0];
  for (genvar e = 0; e < NEngines; e++) begin : g_apt_t_rsp
    always_comb begin
      apt_t_rsp[e]          = dm_rsp[MAptTable];
      apt_t_rsp[e].ar_ready = dm_rsp[MAptTable].ar_ready && (apt_sel == e);
      apt_t_rsp[e].r_valid  = dm_rsp[MAptTable].r_valid && (apt_r_dst == e);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      apt_wait_q     <= 1'b0;
      apt_wait_sel_q <= '0;
    end else begin
      apt_wait_q     <= apt_tbl_req.ar_valid && !dm_rsp[MAptTable].ar_ready;
      apt_wait_sel_q <= apt_sel;
    end
  end
  assign dm_req[MAptTable] = ddr_view(apt_tbl_req);

  for (genvar e = 0; e < NEngines; e++) begin : g_engine
    localparam int unsigned M = MEngine0 + e;

    // The engine's own AXI4 master, before routing.
    axi4_pkg::axi4_req_t eng_req;
    axi4_pkg::axi4_rsp_t eng_rsp;
    logic [DdrIdW-1:0]   awid, arid;
    logic [31:0]         awaddr, araddr;
    logic [HiW-1:0]      awaddr_hi, araddr_hi;
    logic [4:0]          awseg, arseg;
    logic                awcc, arcc;

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
      .axi_awvalid_o (eng_req.aw_valid), .axi_awready_i (eng_rsp.aw_ready), .axi_awid_o (awid),
      .axi_awaddr_o (awaddr), .axi_awlen_o (eng_req.aw.len), .axi_awsize_o (eng_req.aw.size),
      .axi_awburst_o (eng_req.aw.burst), .axi_awseg_o (awseg), .axi_awcc_o (awcc),
      .axi_awaddr_hi_o (awaddr_hi),
      .axi_wvalid_o (eng_req.w_valid), .axi_wready_i (eng_rsp.w_ready),
      .axi_wdata_o (eng_req.w.data), .axi_wstrb_o (eng_req.w.strb), .axi_wlast_o (eng_req.w.last),
      .axi_bvalid_i (eng_rsp.b_valid), .axi_bready_o (eng_req.b_ready),
      .axi_bid_i (eng_rsp.b.id[DdrIdW-1:0]), .axi_bresp_i (eng_rsp.b.resp),
      .axi_arvalid_o (eng_req.ar_valid), .axi_arready_i (eng_rsp.ar_ready), .axi_arid_o (arid),
      .axi_araddr_o (araddr), .axi_arlen_o (eng_req.ar.len), .axi_arsize_o (eng_req.ar.size),
      .axi_arburst_o (eng_req.ar.burst), .axi_arseg_o (arseg), .axi_arcc_o (arcc),
      .axi_araddr_hi_o (araddr_hi),
      .axi_rvalid_i (eng_rsp.r_valid), .axi_rready_o (eng_req.r_ready),
      .axi_rid_i (eng_rsp.r.id[DdrIdW-1:0]), .axi_rdata_i (eng_rsp.r.data),
      .axi_rresp_i (eng_rsp.r.resp), .axi_rlast_i (eng_rsp.r.last),
      .done_o (eng_done[e])
    );
    logic unused_ids;   // the engine's IDs are DdrIdW bits
    assign unused_ids = ^{eng_rsp.b.id, eng_rsp.r.id};

    // The address is the PA at full width; CacheCoherent rides on the user
    // sideband to the system-memory port's AxCACHE.
    assign eng_req.aw.id   = axi4_pkg::ID_W'(awid);
    assign eng_req.aw.addr = {32'(awaddr_hi), awaddr};
    assign eng_req.aw.user = axi4_pkg::USER_W'({32'(awseg) == gmmu_pte_pkg::SEGMENT_APERTURE, awcc});
    assign eng_req.ar.id   = axi4_pkg::ID_W'(arid);
    assign eng_req.ar.addr = {32'(araddr_hi), araddr};
    assign eng_req.ar.user = axi4_pkg::USER_W'({32'(arseg) == gmmu_pte_pkg::SEGMENT_APERTURE, arcc});

    // Routed bursts: VRAM to a DDR arbiter master (the low 32 address bits:
    // the engine faults VRAM PAs >= 4 GiB), system memory to a
    // system-memory arbiter master, and a segment with no memory behind it
    // to an error slave (DECERR).
    axi4_pkg::axi4_req_t [NRoutes-1:0] route_req;
    axi4_pkg::axi4_rsp_t [NRoutes-1:0] route_rsp;

    axi4_demux #(.NSlaves(NRoutes), .IdW(DdrIdW)) u_route (
      .clk_i, .rst_ni,
      .m_req_i (eng_req), .m_awsel_i (route_of(awseg)), .m_arsel_i (route_of(arseg)),
      .m_rsp_o (eng_rsp),
      .s_req_o (route_req), .s_rsp_i (route_rsp)
    );

    assign dm_req[M]        = ddr_view(route_req[RVram]);
    assign route_rsp[RVram] = dm_rsp[M];

    // System memory through the engine's aperture translator: aperture
    // bursts (user bit AptBit) are translated, the others pass.
    aperture_xlate #(.PaBits(PaW), .AptBit(AptBit)) u_aperture (
      .clk_i, .rst_ni,
      .table_i (apt_table), .pages_i (apt_pages), .inv_i (apt_inv),
      .miss_o (apt_miss[e]), .refuse_o (apt_refuse[e]),
      .s_req_i (route_req[RSys]), .s_rsp_o (route_rsp[RSys]),
      .m_req_o (sm_req[e]), .m_rsp_i (sm_rsp[e]),
      .t_req_o (apt_t_req[e]), .t_rsp_i (apt_t_rsp[e])
    );

    axi4_err_slave #(.IdW(DdrIdW)) u_no_segment (
      .clk_i, .rst_ni,
      .req_i (route_req[RErr]), .rsp_o (route_rsp[RErr])
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
  // The paging engine's IDs and addresses ({AW, AR}), narrower than the bus's.
  logic [1:0][DdrIdW-1:0] pg_ddr_id, pg_sys_id;
  logic [1:0][31:0]       pg_ddr_addr;
  logic [1:0][63:0]       pg_sys_addr;

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
    .wb_i (slv_req[SPaging]), .wb_o (slv_rsp[SPaging]),
    .ddr_size_i ({28'd0, ddr_size_mb_i, 20'd0}),
    .m_ddr_awvalid_o (dm_req[MPaging].aw_valid), .m_ddr_awready_i (dm_rsp[MPaging].aw_ready),
    .m_ddr_awid_o (pg_ddr_id[0]), .m_ddr_awaddr_o (pg_ddr_addr[0]), .m_ddr_awlen_o (dm_req[MPaging].aw.len),
    .m_ddr_awsize_o (dm_req[MPaging].aw.size), .m_ddr_awburst_o (dm_req[MPaging].aw.burst),
    .m_ddr_wvalid_o (dm_req[MPaging].w_valid), .m_ddr_wready_i (dm_rsp[MPaging].w_ready), .m_ddr_wdata_o (dm_req[MPaging].w.data),
    .m_ddr_wstrb_o (dm_req[MPaging].w.strb), .m_ddr_wlast_o (dm_req[MPaging].w.last),
    .m_ddr_bvalid_i (dm_rsp[MPaging].b_valid), .m_ddr_bready_o (dm_req[MPaging].b_ready),
    .m_ddr_bid_i (dm_rsp[MPaging].b.id[DdrIdW-1:0]), .m_ddr_bresp_i (dm_rsp[MPaging].b.resp),
    .m_ddr_arvalid_o (dm_req[MPaging].ar_valid), .m_ddr_arready_i (dm_rsp[MPaging].ar_ready),
    .m_ddr_arid_o (pg_ddr_id[1]), .m_ddr_araddr_o (pg_ddr_addr[1]), .m_ddr_arlen_o (dm_req[MPaging].ar.len),
    .m_ddr_arsize_o (dm_req[MPaging].ar.size), .m_ddr_arburst_o (dm_req[MPaging].ar.burst),
    .m_ddr_rvalid_i (dm_rsp[MPaging].r_valid), .m_ddr_rready_o (dm_req[MPaging].r_ready),
    .m_ddr_rid_i (dm_rsp[MPaging].r.id[DdrIdW-1:0]), .m_ddr_rdata_i (dm_rsp[MPaging].r.data),
    .m_ddr_rresp_i (dm_rsp[MPaging].r.resp), .m_ddr_rlast_i (dm_rsp[MPaging].r.last),
    .m_sys_awvalid_o (sm_req[SPagingSys].aw_valid), .m_sys_awready_i (sm_rsp[SPagingSys].aw_ready),
    .m_sys_awid_o (pg_sys_id[0]), .m_sys_awaddr_o (pg_sys_addr[0]), .m_sys_awlen_o (sm_req[SPagingSys].aw.len),
    .m_sys_awsize_o (sm_req[SPagingSys].aw.size), .m_sys_awburst_o (sm_req[SPagingSys].aw.burst),
    .m_sys_wvalid_o (sm_req[SPagingSys].w_valid), .m_sys_wready_i (sm_rsp[SPagingSys].w_ready), .m_sys_wdata_o (sm_req[SPagingSys].w.data),
    .m_sys_wstrb_o (sm_req[SPagingSys].w.strb), .m_sys_wlast_o (sm_req[SPagingSys].w.last),
    .m_sys_bvalid_i (sm_rsp[SPagingSys].b_valid), .m_sys_bready_o (sm_req[SPagingSys].b_ready),
    .m_sys_bid_i (sm_rsp[SPagingSys].b.id[DdrIdW-1:0]), .m_sys_bresp_i (sm_rsp[SPagingSys].b.resp),
    .m_sys_arvalid_o (sm_req[SPagingSys].ar_valid), .m_sys_arready_i (sm_rsp[SPagingSys].ar_ready),
    .m_sys_arid_o (pg_sys_id[1]), .m_sys_araddr_o (pg_sys_addr[1]), .m_sys_arlen_o (sm_req[SPagingSys].ar.len),
    .m_sys_arsize_o (sm_req[SPagingSys].ar.size), .m_sys_arburst_o (sm_req[SPagingSys].ar.burst),
    .m_sys_rvalid_i (sm_rsp[SPagingSys].r_valid), .m_sys_rready_o (sm_req[SPagingSys].r_ready),
    .m_sys_rid_i (sm_rsp[SPagingSys].r.id[DdrIdW-1:0]), .m_sys_rdata_i (sm_rsp[SPagingSys].r.data),
    .m_sys_rresp_i (sm_rsp[SPagingSys].r.resp), .m_sys_rlast_i (sm_rsp[SPagingSys].r.last),
    .inv_valid_o (pg_inv_valid), .inv_ready_i (pg_inv_ready), .inv_type_o (pg_inv_type),
    .inv_asid_o (pg_inv_asid), .inv_start_o (pg_inv_start), .inv_end_o (pg_inv_end),
    .inv_busy_i (pg_inv_busy),
    .irq_o (paging_irq)
  );
  assign dm_req[MPaging].aw.id   = axi4_pkg::ID_W'(pg_ddr_id[0]);
  assign dm_req[MPaging].aw.addr = axi4_pkg::ADDR_W'(pg_ddr_addr[0]);
  assign dm_req[MPaging].aw.user = '0;
  assign dm_req[MPaging].ar.id   = axi4_pkg::ID_W'(pg_ddr_id[1]);
  assign dm_req[MPaging].ar.addr = axi4_pkg::ADDR_W'(pg_ddr_addr[1]);
  assign dm_req[MPaging].ar.user = '0;
  assign sm_req[SPagingSys].aw.id   = axi4_pkg::ID_W'(pg_sys_id[0]);
  assign sm_req[SPagingSys].aw.addr = pg_sys_addr[0];
  assign sm_req[SPagingSys].aw.user = axi4_pkg::USER_W'(1'b1);
  assign sm_req[SPagingSys].ar.id   = axi4_pkg::ID_W'(pg_sys_id[1]);
  assign sm_req[SPagingSys].ar.addr = pg_sys_addr[1];
  assign sm_req[SPagingSys].ar.user = axi4_pkg::USER_W'(1'b1);

  // ------------------------------------------------- system-memory arbiter
  localparam int unsigned SysIdW = DdrIdW + $clog2(NSysMasters);
  axi4_pkg::axi4_req_t sys_req;
  axi4_pkg::axi4_rsp_t sys_rsp;

  axi4_arbiter #(.NMasters(NSysMasters), .IdW(DdrIdW)) u_sysmem_arbiter (
    .clk_i, .rst_ni,
    .m_req_i (sm_req), .m_rsp_o (sm_rsp),
    .s_req_o (sys_req), .s_rsp_i (sys_rsp)
  );

  // The port: IDs SYSMEM_AXI_ID_BITS wide, CacheCoherent (user bit 0) as
  // AxCACHE.
  assign {sysmem_awvalid_o, sysmem_awid_o, sysmem_awaddr_o, sysmem_awlen_o, sysmem_awsize_o,
          sysmem_awburst_o} = {sys_req.aw_valid, SYSMEM_AXI_ID_BITS'(sys_req.aw.id),
                               sys_req.aw.addr, sys_req.aw.len, sys_req.aw.size, sys_req.aw.burst};
  assign sysmem_awcache_o = sys_req.aw.user[0] ? 4'(SYSMEM_AXCACHE_COHERENT)
                                               : 4'(SYSMEM_AXCACHE_NONCOHERENT);
  assign {sysmem_wvalid_o, sysmem_wdata_o, sysmem_wstrb_o, sysmem_wlast_o} =
         {sys_req.w_valid, sys_req.w};
  assign sysmem_bready_o = sys_req.b_ready;
  assign {sysmem_arvalid_o, sysmem_arid_o, sysmem_araddr_o, sysmem_arlen_o, sysmem_arsize_o,
          sysmem_arburst_o} = {sys_req.ar_valid, SYSMEM_AXI_ID_BITS'(sys_req.ar.id),
                               sys_req.ar.addr, sys_req.ar.len, sys_req.ar.size, sys_req.ar.burst};
  assign sysmem_arcache_o = sys_req.ar.user[0] ? 4'(SYSMEM_AXCACHE_COHERENT)
                                               : 4'(SYSMEM_AXCACHE_NONCOHERENT);
  assign sysmem_rready_o = sys_req.r_ready;
  // The host's pins, held for the simulator (prim_sim_input_sample).
  axi4_pkg::axi4_rsp_t sys_rsp_pins;
  prim_sim_input_sample #(.Width($bits(axi4_pkg::axi4_rsp_t))) u_sys_rsp_sample (
    .clk_i, .d_i (sys_rsp_pins), .q_o (sys_rsp)
  );
  assign sys_rsp_pins = '{aw_ready: sysmem_awready_i, w_ready: sysmem_wready_i,
                     b_valid: sysmem_bvalid_i,
                     b: '{id: axi4_pkg::ID_W'(sysmem_bid_i[SysIdW-1:0]), resp: sysmem_bresp_i},
                     ar_ready: sysmem_arready_i, r_valid: sysmem_rvalid_i,
                     r: '{id: axi4_pkg::ID_W'(sysmem_rid_i[SysIdW-1:0]), data: sysmem_rdata_i,
                          resp: sysmem_rresp_i, last: sysmem_rlast_i}};

  // ---------------------------------------------------------- DDR arbiter
  axi4_pkg::axi4_req_t ddr_axi_req;
  axi4_pkg::axi4_rsp_t ddr_axi_rsp;

  axi4_arbiter #(.NMasters(NDdrMasters), .IdW(DdrIdW)) u_ddr_arbiter (
    .clk_i, .rst_ni,
    .m_req_i (dm_req), .m_rsp_o (dm_rsp),
    .s_req_o (ddr_axi_req), .s_rsp_i (ddr_axi_rsp)
  );

  // The port: IDs DDR_AXI_ID_BITS wide (enough for every master the SoC
  // will have), 32-bit addresses.
  assign {ddr_awvalid_o, ddr_awid_o, ddr_awaddr_o, ddr_awlen_o, ddr_awsize_o, ddr_awburst_o} =
         {ddr_axi_req.aw_valid, DDR_AXI_ID_BITS'(ddr_axi_req.aw.id), ddr_axi_req.aw.addr[31:0],
          ddr_axi_req.aw.len, ddr_axi_req.aw.size, ddr_axi_req.aw.burst};
  assign {ddr_wvalid_o, ddr_wdata_o, ddr_wstrb_o, ddr_wlast_o} = {ddr_axi_req.w_valid, ddr_axi_req.w};
  assign ddr_bready_o = ddr_axi_req.b_ready;
  assign {ddr_arvalid_o, ddr_arid_o, ddr_araddr_o, ddr_arlen_o, ddr_arsize_o, ddr_arburst_o} =
         {ddr_axi_req.ar_valid, DDR_AXI_ID_BITS'(ddr_axi_req.ar.id), ddr_axi_req.ar.addr[31:0],
          ddr_axi_req.ar.len, ddr_axi_req.ar.size, ddr_axi_req.ar.burst};
  assign ddr_rready_o = ddr_axi_req.r_ready;
  // The DDR model's pins, held for the simulator (prim_sim_input_sample).
  axi4_pkg::axi4_rsp_t ddr_axi_rsp_pins;
  prim_sim_input_sample #(.Width($bits(axi4_pkg::axi4_rsp_t))) u_ddr_rsp_sample (
    .clk_i, .d_i (ddr_axi_rsp_pins), .q_o (ddr_axi_rsp)
  );
  assign ddr_axi_rsp_pins = '{aw_ready: ddr_awready_i, w_ready: ddr_wready_i, b_valid: ddr_bvalid_i,
                       b: '{id: axi4_pkg::ID_W'(ddr_bid_i[ArbIdW-1:0]), resp: ddr_bresp_i},
                       ar_ready: ddr_arready_i, r_valid: ddr_rvalid_i,
                       r: '{id: axi4_pkg::ID_W'(ddr_rid_i[ArbIdW-1:0]), data: ddr_rdata_i,
                            resp: ddr_rresp_i, last: ddr_rlast_i}};

  // The bus's IDs are wide enough for both ports'.
  if (ArbIdW > axi4_pkg::ID_W || SysIdW > axi4_pkg::ID_W ||
      DDR_AXI_ID_BITS < ArbIdW || SYSMEM_AXI_ID_BITS < SysIdW) begin : g_id_too_narrow
    $error("soc_top: AXI4 IDs do not fit (axi4_pkg::ID_W, DDR_AXI_ID_BITS, SYSMEM_AXI_ID_BITS)");
  end

  // The walker only
  // reads; the DDR port has no user sideband and 32-bit addresses.
  logic unused_top;
  assign unused_top = ^{cycle[63:32], apt_tbl_req.r_ready, ddr_axi_req.aw.user, ddr_axi_req.ar.user,
                        ddr_axi_req.aw.addr[63:32], ddr_axi_req.ar.addr[63:32],
                        sys_req.aw.user[axi4_pkg::USER_W-1:1], sys_req.ar.user[axi4_pkg::USER_W-1:1],
                        sysmem_bid_i[SYSMEM_AXI_ID_BITS-1:SysIdW],
                        sysmem_rid_i[SYSMEM_AXI_ID_BITS-1:SysIdW], dm_rsp[MMmu]};

endmodule : soc_top
