// SPDX-License-Identifier: Apache-2.0
/*
 * Transport registry, spec parsing and the thin wrappers every caller uses.
 * The wrappers check what is common to all transports (handle, BAR number,
 * alignment) so each transport only deals with its own medium.
 */
#include "gmmu_transport.h"
#include "transport_batch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Built-in transports. A new one joins with one line here. */
extern const struct gmmu_transport_ops gmmu_transport_uart_ops; /* transport_uart.c */
static const struct gmmu_transport_ops *const builtin_transports[] = {
    &gmmu_transport_sim_ops,
    &gmmu_transport_pci_ops,
    &gmmu_transport_uart_ops,
};

#define MAX_REGISTERED 8
static const struct gmmu_transport_ops *registered[MAX_REGISTERED];
static size_t registered_count;

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

const char *gmmu_host_strerror(int err)
{
    switch (err) {
    case GMMU_OK:
        return "success";
    case GMMU_E_TIMEOUT:
        return "timed out waiting for the device";
    case GMMU_E_DEVICE_GONE:
        return "device gone (reads return all ones)";
    case GMMU_E_DISCONNECTED:
        return "disconnected from the simulation";
    case GMMU_E_IO:
        return "I/O error";
    case GMMU_E_BAD_SPEC:
        return "bad transport spec (want sim:PATH or pci:DDDD:BB:DD.F)";
    case GMMU_E_NOT_SUPPORTED:
        return "not supported by this transport";
    case GMMU_E_NO_MEMORY:
        return "out of memory";
    case GMMU_E_LINK_ERROR:
        return "device answered with an error";
    case GMMU_E_NO_DEVICE:
        return "no such device";
    case GMMU_E_PERMISSION:
        return "permission denied";
    case GMMU_E_INVALID_ARG:
        return "invalid argument";
    case GMMU_E_PROTOCOL:
        return "protocol version mismatch";
    default:
        return "unknown error";
    }
}

/* ------------------------------------------------------------ registry */

/* scheme is not NUL-terminated: it is the spec up to its ':'. */
static const struct gmmu_transport_ops *find_transport(const char *scheme, size_t len)
{
    for (size_t i = 0; i < ARRAY_LEN(builtin_transports) + registered_count; i++) {
        const struct gmmu_transport_ops *ops = i < ARRAY_LEN(builtin_transports)
                                                   ? builtin_transports[i]
                                                   : registered[i - ARRAY_LEN(builtin_transports)];
        if (strlen(ops->scheme) == len && memcmp(ops->scheme, scheme, len) == 0)
            return ops;
    }
    return NULL;
}

static bool ops_complete(const struct gmmu_transport_ops *ops)
{
    return ops != NULL && ops->scheme != NULL && ops->scheme[0] != '\0' &&
           strchr(ops->scheme, ':') == NULL && ops->open != NULL && ops->read32 != NULL &&
           ops->write32 != NULL && ops->close != NULL;
}

int gmmu_transport_register(const struct gmmu_transport_ops *ops)
{
    if (!ops_complete(ops) || find_transport(ops->scheme, strlen(ops->scheme)) != NULL)
        return GMMU_E_INVALID_ARG;
    if (registered_count == MAX_REGISTERED)
        return GMMU_E_NO_MEMORY;
    registered[registered_count++] = ops;
    return GMMU_OK;
}

/* ------------------------------------------------------------ open/close */

void gmmu_transport_init(struct gmmu_transport *t, const struct gmmu_transport_ops *ops)
{
    memset(t, 0, sizeof(*t));
    t->ops = ops;
    t->timeout_ms = GMMU_TRANSPORT_DEFAULT_TIMEOUT_MS;

    const char *env = getenv(GMMU_TRANSPORT_TIMEOUT_ENV);
    if (env != NULL && env[0] != '\0') {
        char *end;
        long ms = strtol(env, &end, 10);
        if (*end == '\0' && ms > 0 && ms <= 24L * 3600 * 1000)
            t->timeout_ms = (int)ms;
    }
}

int gmmu_transport_open(const char *spec, struct gmmu_transport **out)
{
    if (out == NULL)
        return GMMU_E_INVALID_ARG;
    *out = NULL;
    if (spec == NULL)
        return GMMU_E_BAD_SPEC;
    const char *colon = strchr(spec, ':');
    if (colon == NULL || colon == spec)
        return GMMU_E_BAD_SPEC;
    const struct gmmu_transport_ops *ops = find_transport(spec, (size_t)(colon - spec));
    if (ops == NULL)
        return GMMU_E_BAD_SPEC;

    struct gmmu_transport *t = NULL;
    int rc = ops->open(colon + 1, &t);
    if (rc != GMMU_OK)
        return rc;
    t->ops = ops; /* in case the transport's open left it out */
    *out = t;
    return GMMU_OK;
}

void gmmu_transport_close(struct gmmu_transport *t)
{
    if (t != NULL)
        t->ops->close(t);
}

/* ------------------------------------------------------------ accesses */

static int check_access(const struct gmmu_transport *t, unsigned bar, uint64_t off)
{
    if (t == NULL || bar >= GMMU_TRANSPORT_BARS || off % 4 != 0)
        return GMMU_E_INVALID_ARG;
    return GMMU_OK;
}

int gmmu_transport_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    if (val == NULL)
        return GMMU_E_INVALID_ARG;
    *val = 0xFFFFFFFFu; /* what a failed read returns, whatever the cause */
    int rc = check_access(t, bar, off);
    if (rc != GMMU_OK)
        return rc;
    return t->ops->read32(t, bar, off, val);
}

int gmmu_transport_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    int rc = check_access(t, bar, off);
    if (rc != GMMU_OK)
        return rc;
    return t->ops->write32(t, bar, off, val);
}

bool transport_reads_overlap(const struct gmmu_transport *t)
{
    return t != NULL && t->ops == &gmmu_transport_sim_ops;
}

int transport_read_many(struct gmmu_transport *t, unsigned bar, const uint64_t *off, uint32_t *val,
                        size_t n)
{
    if (n && (off == NULL || val == NULL))
        return GMMU_E_INVALID_ARG;
    for (size_t i = 0; i < n; i++)
        val[i] = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        int rc = check_access(t, bar, off[i]);
        if (rc != GMMU_OK)
            return rc;
    }
    if (n && t->ops == &gmmu_transport_sim_ops)
        return sim_transport_read_many(t, bar, off, val, n);
    int first = GMMU_OK;
    for (size_t i = 0; i < n && first == GMMU_OK; i++)
        first = t->ops->read32(t, bar, off[i], &val[i]);
    return first;
}

int gmmu_transport_wait_irq(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors)
{
    if (t == NULL || vectors == NULL)
        return GMMU_E_INVALID_ARG;
    *vectors = 0;
    if (t->ops->wait_irq == NULL)
        return GMMU_E_NOT_SUPPORTED;
    return t->ops->wait_irq(t, timeout_ms, vectors);
}

uint64_t gmmu_transport_bar_size(const struct gmmu_transport *t, unsigned bar)
{
    return t != NULL && bar < GMMU_TRANSPORT_BARS ? t->bar_size[bar] : 0;
}

void gmmu_transport_set_timeout(struct gmmu_transport *t, int timeout_ms)
{
    if (t != NULL)
        t->timeout_ms = timeout_ms;
}

const char *gmmu_transport_scheme(const struct gmmu_transport *t)
{
    return t != NULL ? t->ops->scheme : NULL;
}

/* ------------------------------------------------------------ system memory */

int gmmu_transport_sysmem_alloc(struct gmmu_transport *t, uint64_t size, uint64_t *bus_addr,
                                void **host_ptr)
{
    if (t == NULL || bus_addr == NULL || host_ptr == NULL || size == 0 || size % 4096 != 0)
        return GMMU_E_INVALID_ARG;
    if (t->ops->sysmem_alloc == NULL)
        return GMMU_E_NOT_SUPPORTED;
    return t->ops->sysmem_alloc(t, size, bus_addr, host_ptr);
}

int gmmu_transport_sysmem_free(struct gmmu_transport *t, uint64_t bus_addr)
{
    if (t == NULL)
        return GMMU_E_INVALID_ARG;
    if (t->ops->sysmem_free == NULL)
        return GMMU_E_NOT_SUPPORTED;
    return t->ops->sysmem_free(t, bus_addr);
}
