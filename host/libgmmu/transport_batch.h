// SPDX-License-Identifier: Apache-2.0
/*
 * Several BAR reads at once, private to libgmmu. On the sim: transport the
 * reads go out together, up to a window of them in flight, matched to their
 * answers by tag (the simulated PCIe bridge runs them one after another on
 * the bus, each answered its read latency after it started: docs/sim-link.md),
 * so n reads cost about one round trip plus n bus accesses instead of n
 * round trips. Other transports read one word after the other.
 *
 * Only for locations without read side effects (memory: the BAR1 aperture,
 * the rings): every read is sent before the first error is known.
 */
#ifndef GMMU_HOST_TRANSPORT_BATCH_H
#define GMMU_HOST_TRANSPORT_BATCH_H

#include "gmmu_transport.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reads n words at BAR offsets off[0..n) into val[0..n). Returns 0, or the
 * first error; a word whose read failed is 0xFFFFFFFF. */
int transport_read_many(struct gmmu_transport *t, unsigned bar, const uint64_t *off, uint32_t *val,
                        size_t n);

/* Whether transport_read_many overlaps its reads (sim:), so that reading
 * a few words more in one go costs next to nothing; elsewhere each word is
 * a read of its own (uart: several UART frames). */
bool transport_reads_overlap(const struct gmmu_transport *t);

/* transport_sim.c's implementation (arguments already checked). */
int sim_transport_read_many(struct gmmu_transport *t, unsigned bar, const uint64_t *off,
                            uint32_t *val, size_t n);

#endif /* GMMU_HOST_TRANSPORT_BATCH_H */
