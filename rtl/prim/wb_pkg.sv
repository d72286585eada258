// SPDX-License-Identifier: Apache-2.0
// The CPU bus: Wishbone classic, 32-bit data, word addresses, as one request
// and one response struct (like OpenTitan's tlul_pkg), so a slave's bus port
// is two lines and the interconnect routes whole structs.
//
// A slave samples the request; it ignores the fields it has no use for (cti
// outside bursts, sel where it takes whole words) and drives every response
// field (err 0 where it never fails). The decoder gives each slave its own
// stb; the other request fields are the bus's.
package wb_pkg;

  typedef struct packed {
    logic        cyc;
    logic        stb;
    logic        we;
    logic [29:0] adr;  // word address: byte address bits 31:2
    logic [31:0] dat;
    logic [3:0]  sel;
    logic [2:0]  cti;
  } wb_req_t;

  typedef struct packed {
    logic        ack;
    logic        err;
    logic [31:0] dat;
  } wb_rsp_t;

endpackage : wb_pkg
