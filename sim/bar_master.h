// SPDX-License-Identifier: Apache-2.0
/*
 * Drives the SoC's BAR0/BAR1 AXI4-Lite slave ports with the host's requests
 * from the simulated PCIe link, one at a time on the bus, in the order they
 * came, as a PCIe-to-AXI bridge would.
 *
 * Call order per clock cycle, like the DDR model: bar_master_drive() before
 * evaluating the RTL, bar_master_clock() at the rising edge. A read's
 * completion is handed back to the link read_latency cycles after the
 * request started (the PCIe round trip); writes are posted. Reads are
 * split transactions, as on PCIe: once a read is done on the bus the port
 * takes the next request while the completion waits out its latency (up to
 * 64 of them), so a host that sends several reads without waiting (libgmmu's
 * BAR1 reads) pays the latency once, not per word. A host that waits for
 * each answer sees exactly one read latency per read.
 */
#ifndef GMMU_SIM_BAR_MASTER_H
#define GMMU_SIM_BAR_MASTER_H

#include <stdbool.h>
#include <stdint.h>

#include "pcie_link.h"

#ifdef __cplusplus
extern "C" {
#endif

struct axil_pins {
    uint8_t awvalid, awready, wvalid, wready, wstrb, bvalid, bready, bresp;
    uint8_t arvalid, arready, rvalid, rready, rresp;
    uint32_t awaddr, wdata, araddr, rdata;
};

struct bar_master_stats {
    uint64_t reads, writes, errors;
};

struct bar_master;

struct bar_master *bar_master_create(struct pcie_link *link, unsigned read_latency);
void bar_master_destroy(struct bar_master *m);

/* Takes the link's next request when idle, and sets the pins of both BARs. */
void bar_master_drive(struct bar_master *m, struct axil_pins *bar0, struct axil_pins *bar1);
/* The rising edge: completes handshakes; returns a finished read to the link. */
void bar_master_clock(struct bar_master *m, const struct axil_pins *bar0,
                      const struct axil_pins *bar1);
void bar_master_get_stats(const struct bar_master *m, struct bar_master_stats *out);

#ifdef __cplusplus
}
#endif

#endif
