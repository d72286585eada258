// SPDX-License-Identifier: Apache-2.0
/*
 * Cycle-level AXI4 slave behind the SoC's system-memory port: the host's
 * memory as a PCIe bridge would present it. Every beat is looked up through
 * a resolver (in the harness: the buffers the connected host registered on
 * the simulated link, pcie_link_sysmem), so memory can come and go while
 * bursts are in flight; a beat that resolves to nothing answers SLVERR (a
 * read beat with data 0; a write burst with any such beat gets BRESP
 * SLVERR and its other beats land), as a bridge answers an access the host
 * refused. Nothing a host does can stall or crash the port.
 *
 * Call order per clock cycle, like ddr_model: sysmem_port_drive() before
 * evaluating the RTL (outputs depend only on state), sysmem_port_clock() at
 * the rising edge.
 *
 * Timing: an AR accepted in cycle c presents its first R beat in cycle
 * c + read_latency (a PCIe read round trip), then one beat per cycle while
 * RREADY; reads are answered in order. W beats are taken as soon as their
 * AW was, written at once (posted), and B follows the cycle after the last.
 * Up to SYSMEM_PORT_MAX_BURSTS reads and as many writes in flight.
 */
#ifndef GMMU_SIM_SYSMEM_PORT_H
#define GMMU_SIM_SYSMEM_PORT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYSMEM_PORT_DEFAULT_LATENCY 200u
#define SYSMEM_PORT_MAX_BURSTS      16u

/* Bus shape: 64-bit data and address, 8-bit IDs, AxCACHE. */
struct sysmem_pins {
    /* write address */ uint8_t awvalid, awready, awid, awlen, awsize, awburst, awcache;
    uint64_t awaddr;
    /* write data    */ uint8_t wvalid, wready, wstrb, wlast;
    uint64_t wdata;
    /* write resp    */ uint8_t bvalid, bready, bid, bresp;
    /* read address  */ uint8_t arvalid, arready, arid, arlen, arsize, arburst, arcache;
    uint64_t araddr;
    /* read data     */ uint8_t rvalid, rready, rid, rresp, rlast;
    uint64_t rdata;
};

/* Where [addr, addr + len) lives in this process, or NULL (SLVERR). */
typedef void *(*sysmem_resolve_fn)(void *ctx, uint64_t addr, uint64_t len);

struct sysmem_port_stats {
    uint64_t read_bursts, write_bursts;
    uint64_t coherent_read_bursts, coherent_write_bursts; /* AxCACHE == coherent_cache */
    uint64_t read_beats, write_beats;
    uint64_t read_error_beats, write_error_beats; /* answered SLVERR */
    uint64_t protocol_errors;                     /* WRAP, WSTRB outside, ... */
};

struct sysmem_port;

/* read_latency 0 means SYSMEM_PORT_DEFAULT_LATENCY. coherent_cache: the
 * AxCACHE value counted as coherent (GMMU_SYSMEM_AXCACHE_COHERENT).
 * Returns NULL if out of memory. */
struct sysmem_port *sysmem_port_create(unsigned read_latency, unsigned coherent_cache,
                                       sysmem_resolve_fn resolve, void *ctx);
void sysmem_port_destroy(struct sysmem_port *p); /* NULL is ignored */

void sysmem_port_drive(const struct sysmem_port *p, struct sysmem_pins *pins);
void sysmem_port_clock(struct sysmem_port *p, const struct sysmem_pins *pins);

struct sysmem_port_stats sysmem_port_get_stats(const struct sysmem_port *p);

#ifdef __cplusplus
}
#endif

#endif /* GMMU_SIM_SYSMEM_PORT_H */
