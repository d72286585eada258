// SPDX-License-Identifier: Apache-2.0
// The AXI4 interconnect's channels (64-bit data), and the AXI4-Lite BARs',
// each as one request and one response struct (like wb_pkg, OpenTitan's tlul_pkg and PULP's axi
// req_t/resp_t), so an AXI4 port is two lines and the interconnect routes
// whole structs: the arbiters, the segment router (axi4_demux), the error
// slave, the CPU's DDR bridge (wb_to_axi4) and the BAR1 aperture.
//
// Widths are the widest the SoC uses; a port that needs fewer drives the
// upper bits 0 (an ID of IdW bits, a 32-bit DDR address) and its receiver
// reads only its own, so synthesis keeps no constant bit. ID_W is that of
// the SoC's DDR and system-memory ports (gmmu_soc_pkg::DDR_AXI_ID_BITS,
// SYSMEM_AXI_ID_BITS; soc_top checks they fit). USER is a sideband that
// travels with AW and AR: CacheCoherent (bit 0) inside soc_top, AxCACHE
// on the LiteFury's system-memory route.
//
// The guard lets the simulation-only checkers' list (rtl/dv) name this
// file ahead of their adapters in builds whose RTL list names it too.
`ifndef AXI4_PKG_SV
`define AXI4_PKG_SV
package axi4_pkg;

  localparam int unsigned ID_W   = 8;
  localparam int unsigned ADDR_W = 64;
  localparam int unsigned DATA_W = 64;
  localparam int unsigned USER_W = 4;

  // AW and AR
  typedef struct packed {
    logic [ID_W-1:0]   id;
    logic [ADDR_W-1:0] addr;
    logic [7:0]        len;
    logic [2:0]        size;
    logic [1:0]        burst;
    logic [USER_W-1:0] user;
  } axi4_ax_t;

  typedef struct packed {
    logic [DATA_W-1:0]   data;
    logic [DATA_W/8-1:0] strb;
    logic                last;
  } axi4_w_t;

  typedef struct packed {
    logic [ID_W-1:0] id;
    logic [1:0]      resp;
  } axi4_b_t;

  typedef struct packed {
    logic [ID_W-1:0]   id;
    logic [DATA_W-1:0] data;
    logic [1:0]        resp;
    logic              last;
  } axi4_r_t;

  // What the master drives.
  typedef struct packed {
    logic     aw_valid;
    axi4_ax_t aw;
    logic     w_valid;
    axi4_w_t  w;
    logic     b_ready;
    logic     ar_valid;
    axi4_ax_t ar;
    logic     r_ready;
  } axi4_req_t;

  // What the slave drives.
  typedef struct packed {
    logic    aw_ready;
    logic    w_ready;
    logic    b_valid;
    axi4_b_t b;
    logic    ar_ready;
    logic    r_valid;
    axi4_r_t r;
  } axi4_rsp_t;

  // AXI4-Lite, 32-bit data and addresses: the PCIe BARs (axi4lite_to_reg's
  // slave port, uart_bar_bridge's masters). A BAR uses the low bits of the
  // address; the rest are 0.
  typedef struct packed {
    logic        aw_valid;
    logic [31:0] aw_addr;
    logic        w_valid;
    logic [31:0] w_data;
    logic [3:0]  w_strb;
    logic        b_ready;
    logic        ar_valid;
    logic [31:0] ar_addr;
    logic        r_ready;
  } axil_req_t;

  typedef struct packed {
    logic        aw_ready;
    logic        w_ready;
    logic        b_valid;
    logic [1:0]  b_resp;
    logic        ar_ready;
    logic        r_valid;
    logic [31:0] r_data;
    logic [1:0]  r_resp;
  } axil_rsp_t;

  // The register port axi4lite_to_reg makes of a BAR (the mailbox's host
  // side, bar1_aperture): one access at a time, the request held until the
  // one-cycle ack. addr is the byte offset in the BAR (its low bits; the
  // rest 0); err becomes SLVERR.
  typedef struct packed {
    logic        req;
    logic        we;
    logic [31:0] addr;
    logic [31:0] wdata;
    logic [3:0]  wstrb;
  } reg_req_t;

  typedef struct packed {
    logic        ack;
    logic        err;
    logic [31:0] rdata;
  } reg_rsp_t;

endpackage : axi4_pkg
`endif  // AXI4_PKG_SV
