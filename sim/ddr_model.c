// SPDX-License-Identifier: Apache-2.0
/*
 * Plain C11, but kept valid C++ too (casts on calloc, no compound literals):
 * Verilator's generated makefile compiles .c files given to it with g++.
 */
#include "ddr_model.h"

#include <stdlib.h>
#include <string.h>

#define BUS_BYTES   8u
#define BOUNDARY_4K UINT64_C(4096)

/* A decoded AW or AR request, already sanitised (see decode_burst). */
struct axi_burst {
    uint64_t start;
    unsigned beats;      /* 1..256 */
    unsigned size_bytes; /* 1, 2, 4 or 8 */
    uint8_t id;
    uint8_t type;
};

/* The bytes one beat transfers: a contiguous run inside one bus word. */
struct beat_span {
    uint64_t first, last;
};

struct address_range {
    uint64_t lo, hi;
};

struct read_burst {
    struct axi_burst burst;
    uint64_t first_beat_cycle;
    unsigned beats_done;
    bool out_of_range;
    bool injected; /* a counted window took it: beats in `window` fail */
    struct address_range window;
};

struct write_burst {
    struct axi_burst burst;
    unsigned beats_received;
    bool out_of_range;
    bool injected; /* answers SLVERR, writes nothing */
};

struct write_beat {
    uint64_t data;
    uint8_t strb;
    bool last;
};

/* The R beat on the bus. Sampled once and held until taken, as AXI requires stable payloads. */
struct read_output {
    bool valid, last;
    uint8_t id, resp;
    uint64_t data;
};

/* An injected error window: DDR_MODEL_FAULT_* kinds, and the bursts it
 * still fails (0: every one until cleared). */
struct error_window {
    struct address_range range;
    unsigned kinds;
    unsigned count;
};

struct ddr_model {
    struct ddr_model_config cfg;
    struct sparse_mem *mem;

    /* Accepted ARs in acceptance order; the head is the one streaming. */
    struct read_burst *reads;
    unsigned read_head, read_count;
    struct read_output r_out;

    /* Accepted AWs in order. The oldest writes_complete of them have all
     * their data in memory and wait for their B; the next one receives W. */
    struct write_burst *writes;
    unsigned write_head, write_count, writes_complete;

    /* W beats that arrived before their AW. */
    struct write_beat w_buffer[DDR_MODEL_WRITE_DATA_BUFFER_BEATS];
    unsigned w_head, w_count;

    struct error_window error_ranges[DDR_MODEL_MAX_ERROR_RANGES];
    unsigned error_range_count;

    /* Channels that showed valid without ready last cycle: valid must stay up. */
    bool ar_waiting, aw_waiting, w_waiting;

    struct ddr_model_stats stats;
    const char *last_protocol_error;
};

struct handshakes {
    bool ar, aw, w, r, b;
};

/* ------------------------------------------------------------------ helpers */

static void protocol_error(struct ddr_model *m, const char *what)
{
    m->stats.protocol_errors++;
    m->last_protocol_error = what;
}

static unsigned ring_slot(unsigned head, unsigned offset, unsigned capacity)
{
    return (head + offset) % capacity;
}

static unsigned default_if_zero(unsigned value, unsigned fallback)
{
    return value != 0 ? value : fallback;
}

static struct ddr_model_config effective_config(const struct ddr_model_config *requested)
{
    static const struct ddr_model_config all_defaults = { 0, 0, 0, 0 };
    struct ddr_model_config cfg = requested != NULL ? *requested : all_defaults;
    if (cfg.size_bytes == 0)
        cfg.size_bytes = DDR_MODEL_DEFAULT_SIZE_BYTES;
    cfg.read_latency = default_if_zero(cfg.read_latency, DDR_MODEL_DEFAULT_READ_LATENCY);
    cfg.max_outstanding_reads =
        default_if_zero(cfg.max_outstanding_reads, DDR_MODEL_DEFAULT_MAX_OUTSTANDING_READS);
    cfg.max_outstanding_writes =
        default_if_zero(cfg.max_outstanding_writes, DDR_MODEL_DEFAULT_MAX_OUTSTANDING_WRITES);
    return cfg;
}

/* ------------------------------------------------------------ burst address */

static bool is_legal_wrap_length(unsigned beats)
{
    return beats == 2 || beats == 4 || beats == 8 || beats == 16;
}

static uint64_t align_down(uint64_t addr, uint64_t alignment)
{
    return addr & ~(alignment - 1);
}

static bool incr_crosses_4k(const struct axi_burst *b)
{
    uint64_t last_byte =
        align_down(b->start, b->size_bytes) + (uint64_t)b->beats * b->size_bytes - 1;
    return b->start / BOUNDARY_4K != last_byte / BOUNDARY_4K;
}

/* Illegal requests are reported and turned into the nearest legal burst, so
 * the rest of the model only ever sees well-formed bursts. */
static struct axi_burst decode_burst(struct ddr_model *m, uint32_t addr, uint8_t id, uint8_t len,
                                     uint8_t size, uint8_t type)
{
    struct axi_burst b;
    b.start = addr;
    b.beats = len + 1u;
    b.id = id;
    b.type = type;
    if (size > 3) {
        protocol_error(m, "AxSIZE wider than the 64-bit bus");
        size = 3;
    }
    b.size_bytes = 1u << size;
    if (b.type > AXI_BURST_WRAP) {
        protocol_error(m, "reserved AxBURST value");
        b.type = AXI_BURST_INCR;
    }
    if (b.type == AXI_BURST_WRAP && !is_legal_wrap_length(b.beats)) {
        protocol_error(m, "WRAP burst length not 2, 4, 8 or 16");
        b.type = AXI_BURST_INCR;
    }
    if (b.type == AXI_BURST_WRAP && b.start % b.size_bytes != 0) {
        protocol_error(m, "WRAP burst start not aligned to the transfer size");
        b.start = align_down(b.start, b.size_bytes);
    }
    /* Continue linearly across the boundary: a real slave might not, but
     * the test is about the master, and a crash here would hide it. */
    if (b.type == AXI_BURST_INCR && incr_crosses_4k(&b))
        protocol_error(m, "INCR burst crosses a 4 KiB boundary");
    return b;
}

static uint64_t beat_address(const struct axi_burst *b, unsigned beat)
{
    uint64_t step = (uint64_t)beat * b->size_bytes;
    if (b->type == AXI_BURST_FIXED || beat == 0)
        return b->start;
    if (b->type == AXI_BURST_WRAP) {
        uint64_t window = (uint64_t)b->beats * b->size_bytes; /* a power of two */
        uint64_t window_base = align_down(b->start, window);
        return window_base + ((b->start - window_base + step) & (window - 1));
    }
    /* INCR: only the first beat may be unaligned; later beats are aligned. */
    return align_down(b->start, b->size_bytes) + step;
}

static struct beat_span beat_span(const struct axi_burst *b, unsigned beat)
{
    uint64_t addr = beat_address(b, beat);
    struct beat_span span = { addr, align_down(addr, b->size_bytes) + b->size_bytes - 1 };
    return span;
}

/* A span never exceeds the bus width; the clamp only lets the compiler see
 * that too, which keeps -O3 builds free of stringop-overflow warnings. */
static size_t span_length(struct beat_span span)
{
    size_t len = (size_t)(span.last - span.first + 1);
    return len < BUS_BYTES ? len : BUS_BYTES;
}

static unsigned lane_of(uint64_t addr)
{
    return (unsigned)(addr % BUS_BYTES);
}

static bool burst_in_range(const struct ddr_model *m, const struct axi_burst *b)
{
    for (unsigned beat = 0; beat < b->beats; beat++) {
        if (beat_span(b, beat).last >= m->cfg.size_bytes)
            return false;
    }
    return true;
}

static bool span_overlaps(struct beat_span span, const struct address_range *r)
{
    return span.first < r->hi && span.last >= r->lo;
}

/* The read windows that fail every beat sampled while they are set. */
static bool overlaps_error_range(const struct ddr_model *m, struct beat_span span)
{
    for (unsigned i = 0; i < m->error_range_count; i++) {
        const struct error_window *w = &m->error_ranges[i];
        if (w->count == 0 && (w->kinds & DDR_MODEL_FAULT_READ) && span_overlaps(span, &w->range))
            return true;
    }
    return false;
}

static bool burst_touches(const struct axi_burst *b, const struct address_range *r)
{
    for (unsigned beat = 0; beat < b->beats; beat++) {
        if (span_overlaps(beat_span(b, beat), r))
            return true;
    }
    return false;
}

static void drop_window(struct ddr_model *m, unsigned i)
{
    m->error_ranges[i] = m->error_ranges[--m->error_range_count];
}

/* A burst just accepted: the first window of that kind it touches takes it
 * (a counted one counts it, and goes when spent). Unlimited read windows
 * are matched per beat instead (overlaps_error_range), as they always were.
 * Returns the window's range through *range. */
static bool take_window(struct ddr_model *m, const struct axi_burst *b, unsigned kind,
                        struct address_range *range)
{
    for (unsigned i = 0; i < m->error_range_count; i++) {
        struct error_window *w = &m->error_ranges[i];
        if (!(w->kinds & kind) || (kind == DDR_MODEL_FAULT_READ && w->count == 0) ||
            !burst_touches(b, &w->range))
            continue;
        *range = w->range;
        if (w->count != 0 && --w->count == 0)
            drop_window(m, i);
        return true;
    }
    return false;
}

/* ------------------------------------------------------------ read channel */

static bool read_queue_has_room(const struct ddr_model *m)
{
    return m->read_count < m->cfg.max_outstanding_reads;
}

static struct read_burst *oldest_read(struct ddr_model *m)
{
    return &m->reads[m->read_head];
}

static void accept_read_address(struct ddr_model *m, const struct axi4_pins *p)
{
    struct read_burst rb;
    rb.burst = decode_burst(m, p->araddr, p->arid, p->arlen, p->arsize, p->arburst);
    rb.first_beat_cycle = m->stats.cycles + m->cfg.read_latency;
    rb.beats_done = 0;
    rb.out_of_range = !burst_in_range(m, &rb.burst);
    rb.injected =
        m->error_range_count != 0 && take_window(m, &rb.burst, DDR_MODEL_FAULT_READ, &rb.window);
    m->reads[ring_slot(m->read_head, m->read_count, m->cfg.max_outstanding_reads)] = rb;
    m->read_count++;
    m->stats.read_bursts++;
}

/* Inactive byte lanes read as zero. */
static uint64_t read_lanes(const struct sparse_mem *mem, struct beat_span span)
{
    uint8_t bytes[BUS_BYTES];
    size_t len = span_length(span);
    sparse_mem_read(mem, span.first, bytes, len);
    uint64_t data = 0;
    for (size_t i = 0; i < len; i++)
        data |= (uint64_t)bytes[i] << (8 * lane_of(span.first + i));
    return data;
}

static struct read_output sample_read_beat(const struct ddr_model *m, const struct read_burst *rb)
{
    struct read_output out = {
        .valid = true,
        .last = rb->beats_done + 1 == rb->burst.beats,
        .id = rb->burst.id,
        .resp = AXI_RESP_OKAY,
        .data = 0,
    };
    struct beat_span span = beat_span(&rb->burst, rb->beats_done);
    if (rb->out_of_range)
        out.resp = AXI_RESP_DECERR;
    else if (overlaps_error_range(m, span) || (rb->injected && span_overlaps(span, &rb->window)))
        out.resp = AXI_RESP_SLVERR;
    else
        out.data = read_lanes(m->mem, span);
    return out;
}

/* Called after the cycle counter advanced: decides the R beat of the new cycle. */
static void prepare_read_beat(struct ddr_model *m)
{
    if (m->r_out.valid || m->read_count == 0)
        return;
    const struct read_burst *rb = oldest_read(m);
    if (rb->first_beat_cycle <= m->stats.cycles) {
        m->r_out = sample_read_beat(m, rb);
        if (m->r_out.resp == AXI_RESP_SLVERR)
            m->stats.injected_read_beats++;
    }
}

static void retire_read_beat(struct ddr_model *m)
{
    struct read_burst *rb = oldest_read(m);
    m->r_out.valid = false;
    m->stats.read_beats++;
    if (++rb->beats_done < rb->burst.beats)
        return;
    m->read_head = ring_slot(m->read_head, 1, m->cfg.max_outstanding_reads);
    m->read_count--;
}

/* ------------------------------------------------------------ write channels */

static bool write_queue_has_room(const struct ddr_model *m)
{
    return m->write_count < m->cfg.max_outstanding_writes;
}

static bool write_buffer_has_room(const struct ddr_model *m)
{
    return m->w_count < DDR_MODEL_WRITE_DATA_BUFFER_BEATS;
}

static const struct write_burst *oldest_write(const struct ddr_model *m)
{
    return &m->writes[m->write_head];
}

static bool write_response_ready(const struct ddr_model *m)
{
    return m->writes_complete > 0;
}

static void accept_write_address(struct ddr_model *m, const struct axi4_pins *p)
{
    struct write_burst wb;
    wb.burst = decode_burst(m, p->awaddr, p->awid, p->awlen, p->awsize, p->awburst);
    wb.beats_received = 0;
    wb.out_of_range = !burst_in_range(m, &wb.burst);
    struct address_range window;
    wb.injected =
        m->error_range_count != 0 && take_window(m, &wb.burst, DDR_MODEL_FAULT_WRITE, &window);
    if (wb.injected)
        m->stats.injected_write_bursts++;
    m->writes[ring_slot(m->write_head, m->write_count, m->cfg.max_outstanding_writes)] = wb;
    m->write_count++;
    m->stats.write_bursts++;
}

static void buffer_write_beat(struct ddr_model *m, const struct axi4_pins *p)
{
    struct write_beat beat = { .data = p->wdata, .strb = p->wstrb, .last = p->wlast != 0 };
    m->w_buffer[ring_slot(m->w_head, m->w_count, DDR_MODEL_WRITE_DATA_BUFFER_BEATS)] = beat;
    m->w_count++;
    m->stats.write_beats++;
}

static struct write_beat pop_buffered_write_beat(struct ddr_model *m)
{
    struct write_beat beat = m->w_buffer[m->w_head];
    m->w_head = ring_slot(m->w_head, 1, DDR_MODEL_WRITE_DATA_BUFFER_BEATS);
    m->w_count--;
    return beat;
}

static uint8_t lane_mask(struct beat_span span)
{
    unsigned first = lane_of(span.first), last = lane_of(span.last);
    return (uint8_t)(((1u << (last + 1)) - 1) & ~((1u << first) - 1));
}

/* Read-modify-write of the beat's bytes so unstrobed bytes keep their value. */
static void store_write_beat(struct ddr_model *m, struct beat_span span, const struct write_beat *w)
{
    uint8_t strobed = w->strb & lane_mask(span);
    if (strobed != w->strb)
        protocol_error(m, "WSTRB set on a byte lane outside the transfer");
    if (strobed == 0)
        return;
    uint8_t bytes[BUS_BYTES];
    size_t len = span_length(span);
    sparse_mem_read(m->mem, span.first, bytes, len);
    for (size_t i = 0; i < len; i++) {
        unsigned lane = lane_of(span.first + i);
        if (strobed & (1u << lane))
            bytes[i] = (uint8_t)(w->data >> (8 * lane));
    }
    sparse_mem_write(m->mem, span.first, bytes, len);
}

/* AXI4 has no write interleaving, so W beats belong to the AWs in order. */
static void deliver_write_beat(struct ddr_model *m, struct write_burst *wb,
                               const struct write_beat *w)
{
    bool should_be_last = wb->beats_received + 1 == wb->burst.beats;
    if (w->last != should_be_last)
        protocol_error(m, "WLAST does not match AWLEN (the model follows AWLEN)");
    if (!wb->out_of_range && !wb->injected)
        store_write_beat(m, beat_span(&wb->burst, wb->beats_received), w);
    wb->beats_received++;
}

static void drain_write_buffer(struct ddr_model *m)
{
    while (m->w_count > 0 && m->writes_complete < m->write_count) {
        unsigned slot = ring_slot(m->write_head, m->writes_complete, m->cfg.max_outstanding_writes);
        struct write_burst *wb = &m->writes[slot];
        struct write_beat beat = pop_buffered_write_beat(m);
        deliver_write_beat(m, wb, &beat);
        if (wb->beats_received == wb->burst.beats)
            m->writes_complete++;
    }
}

static void retire_write_response(struct ddr_model *m)
{
    m->write_head = ring_slot(m->write_head, 1, m->cfg.max_outstanding_writes);
    m->write_count--;
    m->writes_complete--;
}

/* ------------------------------------------------------------ per cycle */

void ddr_model_drive(const struct ddr_model *m, struct axi4_pins *p)
{
    p->arready = read_queue_has_room(m);
    p->awready = write_queue_has_room(m);
    p->wready = write_buffer_has_room(m);

    p->rvalid = m->r_out.valid;
    p->rid = m->r_out.valid ? m->r_out.id : 0;
    p->rdata = m->r_out.valid ? m->r_out.data : 0;
    p->rresp = m->r_out.valid ? m->r_out.resp : 0;
    p->rlast = m->r_out.valid && m->r_out.last;

    bool bvalid = write_response_ready(m);
    const struct write_burst *wb = oldest_write(m);
    p->bvalid = bvalid;
    p->bid = bvalid ? wb->burst.id : 0;
    p->bresp = !bvalid            ? AXI_RESP_OKAY
               : wb->out_of_range ? AXI_RESP_DECERR
               : wb->injected     ? AXI_RESP_SLVERR
                                  : AXI_RESP_OKAY;
}

/* Ready is recomputed from state rather than read back from the pins, so a
 * harness that does not copy the slave outputs back cannot confuse us. */
static struct handshakes sample_handshakes(const struct ddr_model *m, const struct axi4_pins *p)
{
    struct handshakes hs = {
        .ar = p->arvalid && read_queue_has_room(m),
        .aw = p->awvalid && write_queue_has_room(m),
        .w = p->wvalid && write_buffer_has_room(m),
        .r = m->r_out.valid && p->rready,
        .b = write_response_ready(m) && p->bready,
    };
    return hs;
}

static void check_valid_held(struct ddr_model *m, bool *waiting, bool valid, bool handshake,
                             const char *what)
{
    if (*waiting && !valid)
        protocol_error(m, what);
    *waiting = valid && !handshake;
}

static void check_master_protocol(struct ddr_model *m, const struct axi4_pins *p,
                                  struct handshakes hs)
{
    check_valid_held(m, &m->ar_waiting, p->arvalid, hs.ar, "ARVALID dropped before ARREADY");
    check_valid_held(m, &m->aw_waiting, p->awvalid, hs.aw, "AWVALID dropped before AWREADY");
    check_valid_held(m, &m->w_waiting, p->wvalid, hs.w, "WVALID dropped before WREADY");
}

void ddr_model_clock(struct ddr_model *m, const struct axi4_pins *p)
{
    struct handshakes hs = sample_handshakes(m, p);
    check_master_protocol(m, p, hs);

    if (hs.r)
        retire_read_beat(m);
    if (hs.b)
        retire_write_response(m);
    if (hs.ar)
        accept_read_address(m, p);
    if (hs.aw)
        accept_write_address(m, p);
    if (hs.w)
        buffer_write_beat(m, p);
    drain_write_buffer(m);

    m->stats.cycles++;
    prepare_read_beat(m);
}

/* ------------------------------------------------------------ lifetime */

struct ddr_model *ddr_model_create(const struct ddr_model_config *requested)
{
    struct ddr_model *m = (struct ddr_model *)calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->cfg = effective_config(requested);
    m->mem = sparse_mem_create(m->cfg.size_bytes);
    m->reads = (struct read_burst *)calloc(m->cfg.max_outstanding_reads, sizeof *m->reads);
    m->writes = (struct write_burst *)calloc(m->cfg.max_outstanding_writes, sizeof *m->writes);
    if (m->mem == NULL || m->reads == NULL || m->writes == NULL) {
        ddr_model_destroy(m);
        return NULL;
    }
    return m;
}

void ddr_model_destroy(struct ddr_model *m)
{
    if (m == NULL)
        return;
    sparse_mem_destroy(m->mem);
    free(m->reads);
    free(m->writes);
    free(m);
}

void ddr_model_reset(struct ddr_model *m)
{
    m->read_head = m->read_count = 0;
    m->write_head = m->write_count = m->writes_complete = 0;
    m->w_head = m->w_count = 0;
    memset(&m->r_out, 0, sizeof m->r_out);
    m->ar_waiting = m->aw_waiting = m->w_waiting = false;
}

struct ddr_model_config ddr_model_get_config(const struct ddr_model *m)
{
    return m->cfg;
}

struct sparse_mem *ddr_model_mem(struct ddr_model *m)
{
    return m->mem;
}

bool ddr_model_inject_error(struct ddr_model *m, unsigned kinds, uint64_t lo, uint64_t hi,
                            unsigned count)
{
    if (lo >= hi || kinds == 0 || (kinds & ~(unsigned)DDR_MODEL_FAULT_ALL) ||
        m->error_range_count == DDR_MODEL_MAX_ERROR_RANGES)
        return false;
    struct error_window *w = &m->error_ranges[m->error_range_count++];
    w->range.lo = lo;
    w->range.hi = hi;
    w->kinds = kinds;
    w->count = count;
    return true;
}

bool ddr_model_inject_read_error(struct ddr_model *m, uint64_t lo, uint64_t hi)
{
    return ddr_model_inject_error(m, DDR_MODEL_FAULT_READ, lo, hi, 0);
}

bool ddr_model_inject_write_error(struct ddr_model *m, uint64_t lo, uint64_t hi, unsigned count)
{
    return ddr_model_inject_error(m, DDR_MODEL_FAULT_WRITE, lo, hi, count);
}

void ddr_model_clear_errors(struct ddr_model *m)
{
    m->error_range_count = 0;
}

struct ddr_model_stats ddr_model_get_stats(const struct ddr_model *m)
{
    return m->stats;
}

uint64_t ddr_model_cycles(const struct ddr_model *m)
{
    return m->stats.cycles;
}

uint64_t ddr_model_protocol_errors(const struct ddr_model *m)
{
    return m->stats.protocol_errors;
}

const char *ddr_model_last_protocol_error(const struct ddr_model *m)
{
    return m->last_protocol_error;
}
