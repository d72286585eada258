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
  output logic [3:0]  ddr_awid_o,
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
  input  logic [3:0]  ddr_bid_i,
  input  logic [1:0]  ddr_bresp_i,
  output logic        ddr_arvalid_o,
  input  logic        ddr_arready_i,
  output logic [3:0]  ddr_arid_o,
  output logic [31:0] ddr_araddr_o,
  output logic [7:0]  ddr_arlen_o,
  output logic [2:0]  ddr_arsize_o,
  output logic [1:0]  ddr_arburst_o,
  input  logic        ddr_rvalid_i,
  output logic        ddr_rready_o,
  input  logic [3:0]  ddr_rid_i,
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

  logic buserr_irq, mbox_irq;
  always_comb begin
    ext_irq = '0;  // the MMU line joins here (IRQ_* in gmmu_soc_pkg)
    ext_irq[IRQ_BUS_ERROR]     = buserr_irq;
    ext_irq[IRQ_MBOX_DOORBELL] = mbox_irq;
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
  localparam int unsigned NSlaves = 7;
  localparam int unsigned SRam = 0, SSysctl = 1, SConsole = 2, STimer = 3,
                          SDdrCached = 4, SDdr = 5, SMbox = 6;
  localparam logic [32*NSlaves-1:0] SlaveBase = {
    MBOX_BASE, DDR_BASE, DDR_CACHED_BASE, TIMER_BASE, CONSOLE_BASE, SYSCTL_BASE, RAM_BASE};
  localparam logic [32*NSlaves-1:0] SlaveMask = {
    ~(MBOX_SIZE - 1), ~(DDR_SIZE - 1), ~(DDR_CACHED_SIZE - 1), ~(TIMER_SIZE - 1),
    ~(CONSOLE_SIZE - 1), ~(SYSCTL_SIZE - 1), ~(RAM_SIZE - 1)};

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

  wb_to_axi4 u_ddr_bridge (
    .clk_i, .rst_ni,
    .cyc_i (bus_cyc), .stb_i (ddr_stb), .we_i (bus_we), .adr_i (bus_adr),
    .dat_i (bus_dat_w), .sel_i (bus_sel), .cti_i (bus_cti),
    .ack_o (ddr_ack), .err_o (ddr_err), .dat_o (ddr_dat),
    .awvalid_o (ddr_awvalid_o), .awready_i (ddr_awready_i), .awid_o (ddr_awid_o),
    .awaddr_o (ddr_awaddr_o), .awlen_o (ddr_awlen_o), .awsize_o (ddr_awsize_o),
    .awburst_o (ddr_awburst_o), .wvalid_o (ddr_wvalid_o), .wready_i (ddr_wready_i),
    .wdata_o (ddr_wdata_o), .wstrb_o (ddr_wstrb_o), .wlast_o (ddr_wlast_o),
    .bvalid_i (ddr_bvalid_i), .bready_o (ddr_bready_o), .bid_i (ddr_bid_i),
    .bresp_i (ddr_bresp_i), .arvalid_o (ddr_arvalid_o), .arready_i (ddr_arready_i),
    .arid_o (ddr_arid_o), .araddr_o (ddr_araddr_o), .arlen_o (ddr_arlen_o),
    .arsize_o (ddr_arsize_o), .arburst_o (ddr_arburst_o), .rvalid_i (ddr_rvalid_i),
    .rready_o (ddr_rready_o), .rid_i (ddr_rid_i), .rdata_i (ddr_rdata_i),
    .rresp_i (ddr_rresp_i), .rlast_i (ddr_rlast_i)
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
    .cycle_i (cycle[31:0]), .dev_irq_o (mbox_irq), .host_irq_o, .msi_o (host_msi_o)
  );
  assign slv_err[SMbox] = 1'b0;

  // BAR1 is reserved for the VRAM aperture: until it lands, every access
  // completes with SLVERR so a host never hangs on it.
  logic        bar1_req, bar1_we;
  logic [23:0] bar1_addr;
  logic [31:0] bar1_wdata;
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
    .reg_wdata_o (bar1_wdata), .reg_wstrb_o (bar1_wstrb), .reg_ack_i (bar1_req),
    .reg_err_i (1'b1), .reg_rdata_i ('1)
  );

  // The mailbox takes whole words (strobes unused); BAR1 has no target yet.
  logic unused_bar;
  assign unused_bar = ^{bar0_wstrb, bar1_we, bar1_addr, bar1_wdata, bar1_wstrb, cycle[63:32]};

endmodule : soc_top
