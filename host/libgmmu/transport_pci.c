// SPDX-License-Identifier: Apache-2.0
/*
 * "pci:DDDD:BB:DD.F" (or "pci:BB:DD.F" for domain 0): a real board, reached
 * through the kernel's sysfs files for the PCI function, with no driver of
 * our own: "enable" turns on memory decoding and resourceN is the BAR,
 * mmap()ed and accessed with single volatile 32-bit loads and stores.
 *
 * Without a kernel driver there is no MSI delivery, so wait_irq reports
 * GMMU_E_NOT_SUPPORTED and the library polls status registers instead.
 *
 * A PCIe read the device cannot answer (link down, surprise removal)
 * returns all ones. Reads are returned raw; only the identity register,
 * which can never legitimately read as all ones, turns that into
 * GMMU_E_DEVICE_GONE. It is checked once at open as well.
 */
#include "gmmu_transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "BAR accesses assume a little-endian host, like PCIe"
#endif

#define DEFAULT_SYSFS_ROOT "/sys/bus/pci/devices"
#define BDF_TEXT_MAX       24 /* "ffffffff:ff:1f.7" and its NUL, with room */
#define PATH_TEXT_MAX      512

static char sysfs_root[PATH_TEXT_MAX] = DEFAULT_SYSFS_ROOT;

struct pci_bar {
    volatile uint8_t *base; /* NULL: BAR not present */
    size_t size;
};

struct pci_transport {
    struct gmmu_transport base; /* first: handles are cast both ways */
    struct pci_bar bar[GMMU_TRANSPORT_BARS];
};

static struct pci_transport *to_pci(struct gmmu_transport *t)
{
    return (struct pci_transport *)t;
}

void gmmu_transport_pci_set_sysfs_root(const char *dir)
{
    const char *root = dir != NULL ? dir : DEFAULT_SYSFS_ROOT;
    snprintf(sysfs_root, sizeof(sysfs_root), "%s", root);
}

/* ------------------------------------------------------------ BDF parsing */

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads min..max hex digits at *p, advancing it. */
static bool take_hex(const char **p, unsigned min_digits, unsigned max_digits, unsigned long *out)
{
    unsigned long v = 0;
    unsigned n = 0;
    while (n < max_digits && hex_value((*p)[n]) >= 0) {
        v = v * 16 + (unsigned long)hex_value((*p)[n]);
        n++;
    }
    if (n < min_digits)
        return false;
    *p += n;
    *out = v;
    return true;
}

static bool take_char(const char **p, char c)
{
    if (**p != c)
        return false;
    (*p)++;
    return true;
}

/* Accepts DDDD:BB:DD.F (4 to 8 domain digits: Linux prints larger domains,
 * e.g. behind Intel VMD, with more) and BB:DD.F, and writes the canonical
 * sysfs name. */
static bool parse_bdf(const char *text, char out[BDF_TEXT_MAX])
{
    unsigned long domain = 0, bus, dev, fn;
    const char *p = text;
    bool has_domain = strchr(text, ':') != strrchr(text, ':');

    if (has_domain && !(take_hex(&p, 4, 8, &domain) && take_char(&p, ':')))
        return false;
    if (!take_hex(&p, 2, 2, &bus) || !take_char(&p, ':') || !take_hex(&p, 2, 2, &dev) ||
        !take_char(&p, '.') || !take_hex(&p, 1, 1, &fn) || *p != '\0')
        return false;
    if (dev > 0x1F || fn > 7)
        return false;
    snprintf(out, BDF_TEXT_MAX, "%04lx:%02lx:%02lx.%lx", domain, bus, dev, fn);
    return true;
}

/* ------------------------------------------------------------ sysfs */

static int errno_to_error(int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
    case ENODEV:
    case ENXIO:
        return GMMU_E_NO_DEVICE;
    case EACCES:
    case EPERM:
        return GMMU_E_PERMISSION;
    case ENOMEM:
        return GMMU_E_NO_MEMORY;
    default:
        return GMMU_E_IO;
    }
}

static bool device_file(char *path, const char *bdf, const char *name)
{
    int n = snprintf(path, PATH_TEXT_MAX, "%s/%s/%s", sysfs_root, bdf, name);
    return n > 0 && n < PATH_TEXT_MAX;
}

/* Turns on memory decoding. The kernel answers EBUSY when a driver is bound
 * to the function: that driver has enabled it already. The device is left
 * enabled on close, since another process may be using it. */
static int enable_device(const char *bdf)
{
    char path[PATH_TEXT_MAX];
    if (!device_file(path, bdf, "enable"))
        return GMMU_E_BAD_SPEC;
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return errno_to_error(errno);
    ssize_t n = write(fd, "1", 1);
    int saved = errno;
    close(fd);
    if (n == 1 || (n < 0 && saved == EBUSY))
        return GMMU_OK;
    return n < 0 ? errno_to_error(saved) : GMMU_E_IO;
}

static int map_bar(const char *bdf, unsigned index, bool required, struct pci_bar *bar)
{
    char name[16], path[PATH_TEXT_MAX];
    snprintf(name, sizeof(name), "resource%u", index);
    if (!device_file(path, bdf, name))
        return GMMU_E_BAD_SPEC;

    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT && !required ? GMMU_OK : errno_to_error(errno);
    struct stat st;
    int rc = GMMU_OK;
    if (fstat(fd, &st) != 0) {
        rc = errno_to_error(errno);
    } else if (st.st_size <= 0) {
        rc = required ? GMMU_E_NO_DEVICE : GMMU_OK; /* BAR not implemented */
    } else {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            rc = errno_to_error(errno);
        } else {
            bar->base = p;
            bar->size = (size_t)st.st_size;
        }
    }
    close(fd); /* the mapping stays valid without it */
    return rc;
}

/* ------------------------------------------------------------ accesses */

/* Out-of-range offsets are refused before they reach the bus, with what a
 * device would answer (compare the sim transport), not a SIGBUS. */
static volatile uint32_t *reg(struct pci_transport *p, unsigned bar, uint64_t off)
{
    const struct pci_bar *b = &p->bar[bar];
    if (b->base == NULL || off >= b->size || b->size - off < 4)
        return NULL;
    return (volatile uint32_t *)(b->base + off);
}

static int pci_read32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t *val)
{
    volatile uint32_t *r = reg(to_pci(t), bar, off);
    *val = 0xFFFFFFFFu;
    if (r == NULL)
        return GMMU_E_LINK_ERROR;
    *val = *r;
    if (bar == 0 && off == GMMU_TRANSPORT_ID_OFFSET && *val == 0xFFFFFFFFu)
        return GMMU_E_DEVICE_GONE;
    return GMMU_OK;
}

static int pci_write32(struct gmmu_transport *t, unsigned bar, uint64_t off, uint32_t val)
{
    volatile uint32_t *r = reg(to_pci(t), bar, off);
    if (r == NULL)
        return GMMU_E_LINK_ERROR;
    *r = val;
    return GMMU_OK;
}

static int pci_wait_irq(struct gmmu_transport *t, int timeout_ms, uint32_t *vectors)
{
    (void)t;
    (void)timeout_ms;
    *vectors = 0;
    return GMMU_E_NOT_SUPPORTED;
}

/* ------------------------------------------------------------ open/close */

static void pci_close(struct gmmu_transport *t)
{
    struct pci_transport *p = to_pci(t);
    for (unsigned i = 0; i < GMMU_TRANSPORT_BARS; i++)
        if (p->bar[i].base != NULL)
            munmap((void *)p->bar[i].base, p->bar[i].size);
    free(p);
}

static int open_device(struct pci_transport *p, const char *bdf)
{
    int rc = enable_device(bdf);
    if (rc == GMMU_OK)
        rc = map_bar(bdf, 0, true, &p->bar[0]);
    if (rc == GMMU_OK)
        rc = map_bar(bdf, 1, false, &p->bar[1]);
    if (rc != GMMU_OK)
        return rc;
    for (unsigned i = 0; i < GMMU_TRANSPORT_BARS; i++)
        p->base.bar_size[i] = p->bar[i].size;

    uint32_t id;
    return pci_read32(&p->base, 0, GMMU_TRANSPORT_ID_OFFSET, &id);
}

static int pci_open(const char *rest, struct gmmu_transport **out)
{
    char bdf[BDF_TEXT_MAX];
    if (!parse_bdf(rest, bdf))
        return GMMU_E_BAD_SPEC;

    char dir[PATH_TEXT_MAX];
    struct stat st;
    if (!device_file(dir, bdf, ""))
        return GMMU_E_BAD_SPEC;
    if (stat(dir, &st) != 0)
        return errno_to_error(errno);

    struct pci_transport *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return GMMU_E_NO_MEMORY;
    gmmu_transport_init(&p->base, &gmmu_transport_pci_ops);
    int rc = open_device(p, bdf);
    if (rc != GMMU_OK) {
        pci_close(&p->base);
        return rc;
    }
    *out = &p->base;
    return GMMU_OK;
}

const struct gmmu_transport_ops gmmu_transport_pci_ops = {
    .scheme = "pci",
    .open = pci_open,
    .read32 = pci_read32,
    .write32 = pci_write32,
    .wait_irq = pci_wait_irq,
    .close = pci_close,
};
