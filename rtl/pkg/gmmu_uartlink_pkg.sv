// UART host link: frame constants for the RTL (uart_bar_bridge).
//
// Written by hand, not generated: the one definition of the protocol is
// include/gmmu/uartlink.h, and tests/boards/check_uartlink_defs.py fails
// when a constant here differs from it. Frame layout, CRC and rules: see
// that header and docs/boards.md.
package gmmu_uartlink_pkg;

  /* verilator lint_off UNUSEDPARAM */

  localparam int unsigned UARTLINK_VERSION = 1;

  localparam logic [7:0] UARTLINK_SOF = 8'hA5;
  localparam int unsigned UARTLINK_REQ_BYTES = 13;
  localparam int unsigned UARTLINK_RSP_BYTES = 10;

  localparam logic [15:0] UARTLINK_CRC_POLY = 16'h1021;
  localparam logic [15:0] UARTLINK_CRC_INIT = 16'hFFFF;

  localparam int unsigned UARTLINK_FRAME_TIMEOUT_BYTES = 32;
  localparam int unsigned UARTLINK_NAK_QUIET_BYTES = 2;

  // Request types (host -> device)
  localparam logic [7:0] UARTLINK_HELLO = 8'h01;
  localparam logic [7:0] UARTLINK_READ  = 8'h02;
  localparam logic [7:0] UARTLINK_WRITE = 8'h03;

  // Response types (device -> host)
  localparam logic [7:0] UARTLINK_HELLO_ACK = 8'h81;
  localparam logic [7:0] UARTLINK_READ_RSP  = 8'h82;
  localparam logic [7:0] UARTLINK_WRITE_ACK = 8'h83;
  localparam logic [7:0] UARTLINK_IRQ       = 8'h84;
  localparam logic [7:0] UARTLINK_NAK       = 8'h85;

  // Status of READ_RSP / WRITE_ACK / HELLO_ACK
  localparam logic [7:0] UARTLINK_ST_OK         = 8'h00;
  localparam logic [7:0] UARTLINK_ST_BAD_BAR    = 8'h01;
  localparam logic [7:0] UARTLINK_ST_BAD_OFFSET = 8'h02;
  localparam logic [7:0] UARTLINK_ST_BUS_ERROR  = 8'h03;

  // NAK reasons
  localparam logic [7:0] UARTLINK_NAK_CRC      = 8'h10;
  localparam logic [7:0] UARTLINK_NAK_TIMEOUT  = 8'h11;
  localparam logic [7:0] UARTLINK_NAK_FRAMING  = 8'h12;
  localparam logic [7:0] UARTLINK_NAK_BAD_TYPE = 8'h13;

  // HELLO_ACK data field positions
  localparam int unsigned UARTLINK_HELLO_VERSION_SHIFT   = 0;
  localparam int unsigned UARTLINK_HELLO_BAR0_LOG2_SHIFT = 8;
  localparam int unsigned UARTLINK_HELLO_BAR1_LOG2_SHIFT = 16;

  localparam int unsigned UARTLINK_OFFSET_BITS = 24;

  /* verilator lint_on UNUSEDPARAM */

endpackage : gmmu_uartlink_pkg
