// SPDX-License-Identifier: Apache-2.0
// Paging engine internals shared by its modules (the programming interface
// is in the generated gmmu_paging_pkg): where a write job's data comes from.
package paging_pkg;

  localparam logic [1:0] SRC_RUN  = 2'd0;  // entry i = first + i * increment (FILL: increment 0)
  localparam logic [1:0] SRC_LIT  = 2'd1;  // the literal entries streamed from the queue
  localparam logic [1:0] SRC_FIFO = 2'd2;  // the COPY read data FIFO

endpackage : paging_pkg
