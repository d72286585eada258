// SPDX-License-Identifier: Apache-2.0
/*
 * The paging engine's queue (docs/paging-engine.md): packet encoders and
 * the one producer that writes packets into the engine's on-chip ring,
 * publishes them (HEAD), waits for room (TAIL) and for completion
 * (PACKETS_DONE), and restarts the engine after an error.
 *
 * It reaches the engine only through paging_io_impl.h, chosen at compile
 * time like the mailbox service's mbox_io_impl.h: firmware/hal's on the
 * SoC, tests/unit/fake_paging's (an engine model) on the host. State is
 * this struct; nothing is allocated.
 */
#ifndef PAGING_QUEUE_H
#define PAGING_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "gmmu/paging.h"

/* Words of the longest packet the encoders below make without entries. */
#define PQ_PACKET_WORDS_MAX 4u

/* Polls of TAIL or PACKETS_DONE before a wait gives up (the engine hung). */
#ifndef PQ_POLL_LIMIT
#define PQ_POLL_LIMIT 2000000u
#endif

enum pq_status {
    PQ_OK = 0,
    PQ_ERR_ABSENT,  /* no engine (ID did not read PAGING_ID_VALUE) */
    PQ_ERR_ENGINE,  /* the engine stopped with STATUS.ERROR (err_code) */
    PQ_ERR_TIMEOUT, /* no progress within PQ_POLL_LIMIT polls */
    PQ_ERR_TOO_BIG, /* a packet longer than the ring */
};

/* Counters since pq_init, for GET_PT_STATS. */
struct pq_stats {
    uint32_t packets;    /* packets queued */
    uint32_t words;      /* 64-bit queue words written */
    uint32_t waits;      /* waits for completion */
    uint32_t full_waits; /* times the ring was full */
    uint32_t errors;     /* engine errors seen */
    uint32_t restarts;   /* RESTARTs done */
    uint32_t timeouts;
};

struct pq {
    bool present;
    uint32_t ring_words; /* QUEUE_WORDS */
    uint32_t head;       /* words written (published or not) */
    uint32_t published;  /* HEAD last written */
    uint32_t tail;       /* TAIL last read */
    uint32_t queued;     /* packets written, free-running */
    uint32_t done;       /* PACKETS_DONE last read */
    uint64_t fence;      /* value of the last FENCE queued */
    /* The last error: STATUS.CODE (PAGING_ERR), ERR_PACKET, ERR_ADDR. */
    uint32_t err_code, err_packet;
    uint64_t err_addr;
    struct pq_stats stats;
};

/* ------------------------------------------------------------ encoders */
/* Each writes one packet into w[] and returns its length in words. */

/* count entries first + i * step to dst + 8i (run form). */
unsigned pq_enc_write_run(uint64_t *w, uint64_t dst, uint64_t first, uint64_t step, uint32_t count);
/* Header and destination of a literal WRITE_PTES; the count entries follow
 * in w[2..]. Returns 2. */
unsigned pq_enc_write_literal(uint64_t *w, uint64_t dst, uint32_t count);
unsigned pq_enc_fill(uint64_t *w, uint64_t dst, uint64_t pattern, uint32_t count);
/* flags: GMMU_PAGING_HDR_DST_SYS, GMMU_PAGING_HDR_SRC_SYS. */
unsigned pq_enc_copy(uint64_t *w, uint64_t dst, uint64_t src, uint32_t count, uint32_t flags);
/* type PAGING_FLUSH_*; [first_va, last_va] inclusive (RANGE only). */
unsigned pq_enc_flush(uint64_t *w, unsigned type, uint32_t asid, uint64_t first_va,
                      uint64_t last_va);
/* flags: GMMU_PAGING_HDR_FENCE_WRITE (with DST_SYS), GMMU_PAGING_HDR_FENCE_IRQ. */
unsigned pq_enc_fence(uint64_t *w, uint64_t addr, uint64_t value, uint32_t flags);

/* ------------------------------------------------------------ producer */

/* Reads ID; when it is the engine, takes the ring as it is (HEAD, TAIL,
 * PACKETS_DONE), restarting it if it stopped on an error, and enables it.
 * PQ_ERR_ABSENT otherwise: the caller keeps its CPU path. */
enum pq_status pq_init(struct pq *q);

/* Writes one packet into the ring, its n words then the body's nbody
 * words (a literal WRITE_PTES's entries; body may be NULL when nbody is
 * 0), waiting for room (publishing what is written so far first). Not
 * published until pq_publish or a wait. */
enum pq_status pq_push(struct pq *q, const uint64_t *w, uint32_t n, const uint64_t *body,
                       uint32_t nbody);

/* One HEAD write for every packet pushed since the last. */
void pq_publish(struct pq *q);

/* Packets pushed so far (free-running): the index after the last one. */
static inline uint32_t pq_queued(const struct pq *q)
{
    return q->queued;
}

/* Publishes, then waits until PACKETS_DONE reaches `packets`.
 * PQ_ERR_ENGINE when the engine stopped first (pq_restart next). */
enum pq_status pq_wait(struct pq *q, uint32_t packets);

/* Waits for everything pushed. */
enum pq_status pq_sync(struct pq *q);

/* Pushes a FENCE with the next value and waits for it to pass: the
 * completion of everything pushed before it. */
enum pq_status pq_fence_wait(struct pq *q);

/* Whether the engine can write the 8 bytes at addr (flags: 0 for a VRAM
 * offset, GMMU_PAGING_HDR_DST_SYS for host memory): a FENCE that writes
 * the current fence value there, waited for. On an error the engine is
 * restarted and PQ_ERR_ENGINE returned; call with nothing else queued. */
enum pq_status pq_probe_write(struct pq *q, uint64_t addr, uint32_t flags);

/* After PQ_ERR_ENGINE (or a timeout): CTRL.RESTART, wait for the drain,
 * take HEAD/TAIL/PACKETS_DONE as the engine has them. Packets not
 * completed are dropped. */
enum pq_status pq_restart(struct pq *q);

/* Whether pushed packets may still be running. */
static inline bool pq_busy(const struct pq *q)
{
    return q->done != q->queued || q->published != q->head;
}

#endif
