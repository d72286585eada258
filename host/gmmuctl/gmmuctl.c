// SPDX-License-Identifier: Apache-2.0
/*
 * gmmuctl: command-line access to a GPU MMU device through libgmmu.
 *
 *   gmmuctl [-d DEVICE] [--json] [--timeout MS] COMMAND [ARG...]
 *   gmmuctl --help | --version | help [COMMAND]
 *
 * Every mailbox command (the OP enum of include/defs/mailbox.toml) has a
 * subcommand; the tables of struct gmmuctl_cmd in gmmuctl.c,
 * gmmuctl_vidmm.c and gmmuctl_update.c list them with the opcode each
 * sends, and --help is printed from them.
 *
 * Exit status: 0 success; 1..255 the device status of a failed command
 * (GMMU_STATUS_*); 64 a usage error; 64 + N the host error -N
 * (enum gmmu_host_error: 65 timeout, 66 device gone, 67 disconnected, ...).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmmuctl.h"

/* The command being run, for usage(). */
static const struct gmmuctl_cmd *current;

static const struct gmmuctl_cmd *find_command(const char *name)
{
    const struct gmmuctl_cmd *tables[] = { gmmuctl_core_cmds, gmmuctl_vidmm_cmds,
                                           gmmuctl_update_cmds };
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        for (const struct gmmuctl_cmd *c = tables[t]; c->name; c++)
            if (!strcmp(c->name, name))
                return c;
    return NULL;
}

static const char usage_line[] =
    "usage: gmmuctl [-d DEVICE] [--json] [--timeout MS] COMMAND [ARG...]\n"
    "       gmmuctl --help | --version | help [COMMAND]\n";

int usage(void)
{
    if (current)
        fprintf(stderr, "usage: gmmuctl [OPTIONS] %s%s%s\n(gmmuctl help %s says more)\n",
                current->name, *current->args ? " " : "", current->args, current->name);
    else
        fprintf(stderr, "%s(gmmuctl --help lists the commands)\n", usage_line);
    return EXIT_USAGE;
}

static void print_help(void)
{
    static const char *const sections[SEC_COUNT] = {
        [SEC_DEVICE] = "The device",
        [SEC_MEMORY] = "Allocations, address spaces and mappings (docs/vidmm.md)",
        [SEC_ENGINE] = "GPU engines and VRAM through the BAR1 aperture",
        [SEC_EVENTS] = "Events",
    };
    const struct gmmuctl_cmd *tables[] = { gmmuctl_core_cmds, gmmuctl_vidmm_cmds,
                                           gmmuctl_update_cmds };
    printf("%s\n"
           "Options (anywhere on the line):\n"
           "  -d DEVICE      sim:SOCKET_PATH, pci:DDDD:BB:DD.F or uart:TTY[,BAUD];\n"
           "                 default: the environment variable GMMU_DEVICE\n"
           "  --json         machine-readable output (results and errors)\n"
           "  --timeout MS   how long to wait for the device (default 5000)\n"
           "  -h, --help     this text; gmmuctl help COMMAND for one command\n"
           "  -V, --version  gmmuctl's version\n",
           usage_line);
    printf("\nCommands, with the mailbox command (opcode) each sends:\n");
    for (int sec = 0; sec < SEC_COUNT; sec++) {
        printf("\n%s:\n", sections[sec]);
        for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
            for (const struct gmmuctl_cmd *c = tables[t]; c->name; c++)
                if ((int)c->section == sec)
                    printf("  %s%s%s\n      %s%s%s\n", c->name, *c->args ? " " : "", c->args,
                           c->opcode ? c->opcode : "", c->opcode ? ": " : "", c->summary);
    }
    printf("\nNumbers take 0x and K/M/G suffixes (64K, 2M).\n"
           "Exit status: 0 success; 1..255 the device status of a failed command (4\n"
           "BAD_HANDLE, ...); 64 a usage error; 64 + N host error -N (65 timeout, 66\n"
           "device gone, 67 disconnected, ...). More in gmmuctl(1).\n");
}

static int help_command(const char *name)
{
    const struct gmmuctl_cmd *c = find_command(name);
    if (!c) {
        fprintf(stderr, "gmmuctl: no command '%s'\n(gmmuctl --help lists the commands)\n", name);
        return EXIT_USAGE;
    }
    printf("usage: gmmuctl [OPTIONS] %s%s%s\n\n", c->name, *c->args ? " " : "", c->args);
    printf("gmmuctl %s: %s", c->name, c->summary);
    if (c->opcode)
        printf(" (mailbox command %s)", c->opcode);
    printf(".\n");
    if (c->details)
        printf("\n%s", c->details);
    return 0;
}

static void print_version(void)
{
    printf("gmmuctl %s\nlibgmmu %s, mailbox protocol %u.%u\n", GMMU_VERSION, gmmu_version(),
           GMMU_PROTO_VERSION >> 16, GMMU_PROTO_VERSION & 0xFFFFu);
}

static int exit_code(int rc)
{
    return rc >= 0 ? (rc > 255 ? 255 : rc) : EXIT_USAGE + (-rc);
}

/* A failure names the status in words: the device status or host error's
   name, its description, and its number. */
int fail(const struct options *o, const char *what, int rc)
{
    const char *kind = rc >= 0 ? "device status" : "host error";
    if (o->json)
        printf("{\"error\": \"%s\", \"code\": %d, \"name\": \"%s\", \"message\": \"%s\"}\n", what,
               rc, gmmu_error_name(rc), gmmu_strerror(rc));
    else
        fprintf(stderr, "gmmuctl: %s: %s: %s (%s %d)\n", what, gmmu_error_name(rc),
                gmmu_strerror(rc), kind, rc);
    return exit_code(rc);
}

static const char *state_name(uint32_t state)
{
    const char *s = gmmu_fw_state_name(state & GMMU_MBOX_FW_STATE_STATE);
    if (!s)
        return "UNKNOWN";
    if (state & GMMU_MBOX_FW_STATE_RUNNING)
        return strcmp(s, "READY") == 0 ? "READY (running a long command)" : s;
    return s;
}

static int cmd_info(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_info info;
    int rc = gmmu_get_info(dev, &info);
    if (rc)
        return fail(o, "info", rc);
    unsigned maj = info.fw_version >> 16, min = (info.fw_version >> 8) & 0xFF,
             pat = info.fw_version & 0xFF;
    if (o->json) {
        printf(
            "{\"fw_version\": \"%u.%u.%u\", \"fw_build\": \"%08x\", \"proto_version\": \"%u.%u\", "
            "\"ddr_mb\": %u, \"cpu_hz\": %u, \"uptime_cycles\": %llu}\n",
            maj, min, pat, info.fw_build, info.proto_version >> 16, info.proto_version & 0xFFFF,
            info.ddr_mb, info.cpu_hz, (unsigned long long)info.uptime_cycles);
    } else {
        printf(
            "firmware   %u.%u.%u (build %08x)\nprotocol   %u.%u\nDDR        %u MiB\nuptime     %llu cycles\n",
            maj, min, pat, info.fw_build, info.proto_version >> 16, info.proto_version & 0xFFFF,
            info.ddr_mb, (unsigned long long)info.uptime_cycles);
    }
    return 0;
}

static int cmd_caps(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_caps c;
    int rc = gmmu_get_caps(dev, &c);
    if (rc)
        return fail(o, "caps", rc);
    static const char *const flag_names[] = {
        "ReadOnlyMemorySupported",
        "NoExecuteMemorySupported",
        "ZeroInPteSupported",
        "ExplicitPageTableInvalidation",
        "CacheCoherentMemorySupported",
        "PageTableUpdateRequireAddressSpaceIdle",
        "LargePageSupported",
        "DualPteSupported",
        "AllowNonAlignedLargePageAddress",
    };
    const char *fmt = o->json ? "\"%s\": %u, " : "%-40s %u\n";
    if (o->json)
        printf("{");
    for (unsigned i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
        printf(fmt, flag_names[i], (c.flags >> i) & 1u);
    printf(fmt, "PageTableUpdateMode", c.page_table_update_mode);
    printf(fmt, "VirtualAddressBitCount", c.virtual_address_bit_count);
    printf(fmt, "LeafPageTableSizeFor64KPagesInBytes", c.leaf_page_table_size_for_64k_pages);
    printf(fmt, "PageTableLevelCount", c.page_table_level_count);
    if (o->json)
        printf("\"SourcePageTableVaInTransfer\": %u}\n", c.legacy_behaviors & 1u);
    else
        printf("%-40s %u\n", "SourcePageTableVaInTransfer", c.legacy_behaviors & 1u);
    return 0;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Empty PINGs: the latency of the command path itself. After each, the
   mailbox's hardware-measured doorbell-to-completion time (CPL_LATENCY). */
static int cmd_ping(struct gmmu_dev *dev, const struct options *o)
{
    long count = o->arg ? strtol(o->arg, NULL, 0) : 1;
    if (count < 1 || count > 100000)
        return usage();
    uint32_t *lat = calloc((size_t)count, sizeof *lat);
    if (!lat)
        return fail(o, "ping", GMMU_E_NO_MEMORY);
    uint32_t before = 0, after = 0;
    int rc = gmmu_bar_read(dev, GMMU_MBOX_CYCLE, &before);
    for (long i = 0; i < count && rc == 0; i++) {
        rc = gmmu_ping(dev, NULL, 0);
        if (rc == 0)
            rc = gmmu_bar_read(dev, GMMU_MBOX_CPL_LATENCY, &lat[i]);
    }
    if (rc == 0)
        rc = gmmu_bar_read(dev, GMMU_MBOX_CYCLE, &after);
    if (rc) {
        free(lat);
        return fail(o, "ping", rc);
    }
    qsort(lat, (size_t)count, sizeof *lat, compare_u32);
    uint32_t min = lat[0], median = lat[count / 2], max = lat[count - 1];
    free(lat);
    double per = (double)(after - before) / (double)count;
    if (o->json)
        printf("{\"count\": %ld, \"round_trip_cycles\": %.0f, \"fw_cycles_min\": %u, "
               "\"fw_cycles_median\": %u, \"fw_cycles_max\": %u}\n",
               count, per, min, median, max);
    else
        printf("%ld ping(s) OK: %.0f device cycles per round trip (with one register read); "
               "firmware doorbell to completion min %u, median %u, max %u cycles\n",
               count, per, min, median, max);
    return 0;
}

static int cmd_stats(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_stats s;
    int rc = gmmu_get_stats(dev, &s);
    if (rc)
        return fail(o, "stats", rc);
    const char *fmt = o->json ? "\"%s\": %llu%s" : "%-18s %llu%s";
    const struct {
        const char *name;
        unsigned long long v;
    } rows[] = {
        { "commands", s.commands },
        { "errors", s.errors },
        { "malformed", s.malformed },
        { "bad_sequence", s.bad_sequence },
        { "unsupported", s.unsupported },
        { "cpl_ring_full", s.cpl_ring_full },
        { "doorbells", s.doorbells },
        { "events_dropped", s.events_dropped },
        { "last_cmd_cycles", s.last_cmd_cycles },
        { "uptime_cycles", (unsigned long long)s.uptime_cycles },
    };
    size_t n = sizeof rows / sizeof rows[0];
    if (o->json)
        printf("{");
    for (size_t i = 0; i < n; i++)
        printf(fmt, rows[i].name, rows[i].v, o->json ? (i + 1 < n ? ", " : "}\n") : "\n");
    return 0;
}

static int cmd_pt_stats(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_pt_stats s;
    int rc = gmmu_get_pt_stats(dev, &s);
    if (rc)
        return fail(o, "pt-stats", rc);
    const struct {
        const char *name;
        uint32_t v;
    } rows[] = {
        { "words_written", s.words_written },
        { "valid_written", s.valid_written },
        { "words_read", s.words_read },
        { "bus_writes", s.bus_writes },
        { "invalidations", s.invalidations },
        { "inv_cycles", s.inv_cycles },
        { "inv_max_cycles", s.inv_max_cycles },
        { "inv_timeouts", s.inv_timeouts },
        /* The paging engine (0 without it): its own counters, then the
           firmware's side of its queue. */
        { "engine", s.engine },
        { "eng_packets", s.eng_packets },
        { "eng_beats", s.eng_beats },
        { "eng_busy_cycles", s.eng_busy_cycles },
        { "queue_words", s.queue_words },
        { "fences", s.fences },
        { "syncs", s.syncs },
        { "wait_cycles", s.wait_cycles },
        { "eng_errors", s.eng_errors },
    };
    size_t n = sizeof rows / sizeof rows[0];
    if (o->json)
        printf("{");
    for (size_t i = 0; i < n; i++)
        printf(o->json ? "\"%s\": %u%s" : "%-16s %u%s", rows[i].name, rows[i].v,
               o->json ? (i + 1 < n ? ", " : "}\n") : "\n");
    return 0;
}

static int cmd_ident(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_ident id;
    int rc = gmmu_read_ident(dev, &id);
    if (rc)
        return fail(o, "ident", rc);
    if (o->json)
        printf(
            "{\"magic\": \"%08x\", \"proto\": \"%08x\", \"fw_version\": \"%06x\", \"fw_build\": \"%08x\", "
            "\"caps_flags\": %u, \"geometry\": %u, \"rings\": %u, \"fw_state\": \"%s\", "
            "\"heartbeat\": %u, \"next_seq\": %u, \"host_write_errors\": %u}\n",
            id.magic, id.proto_version, id.fw_version, id.fw_build, id.caps_flags, id.geometry,
            id.rings, state_name(id.fw_state), id.heartbeat, id.next_seq, id.host_write_errors);
    else
        printf("magic %08x proto %08x fw %06x build %08x state %s heartbeat %u next_seq %u\n",
               id.magic, id.proto_version, id.fw_version, id.fw_build, state_name(id.fw_state),
               id.heartbeat, id.next_seq);
    return 0;
}

static const char *segment_kind_name(uint16_t kind)
{
    switch (kind) {
    case GMMU_SEGMENT_KIND_MEMORY:
        return "memory";
    case GMMU_SEGMENT_KIND_APERTURE:
        return "aperture";
    case GMMU_SEGMENT_KIND_SYSTEM:
        return "system";
    default:
        return "unknown";
    }
}

static int cmd_segments(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_segment_desc seg[GMMU_SEGMENTS_MAX];
    size_t count = 0;
    int rc = gmmu_get_segments(dev, seg, GMMU_SEGMENTS_MAX, &count);
    if (rc)
        return fail(o, "segments", rc);
    if (o->json)
        printf("[");
    for (size_t i = 0; i < count; i++) {
        const struct gmmu_segment_desc *d = &seg[i];
        bool bar1 = d->flags & GMMU_SEGMENT_FLAG_BAR1;
        bool tables = d->flags & GMMU_SEGMENT_FLAG_PAGE_TABLES;
        bool host = d->flags & GMMU_SEGMENT_FLAG_HOST_MEMORY;
        if (o->json)
            printf("%s{\"id\": %u, \"kind\": \"%s\", \"flags\": %u, \"base\": %llu, "
                   "\"size\": %llu, \"in_use\": %llu, \"bar1\": %s, \"page_tables\": %s, "
                   "\"host_memory\": %s}",
                   i ? ", " : "", d->id, segment_kind_name(d->kind), d->flags,
                   (unsigned long long)d->base, (unsigned long long)d->size,
                   (unsigned long long)d->in_use, bar1 ? "true" : "false",
                   tables ? "true" : "false", host ? "true" : "false");
        else
            printf("segment %u: %s, %llu KiB, %llu KiB in use, base 0x%llx%s%s%s\n", d->id,
                   segment_kind_name(d->kind), (unsigned long long)d->size >> 10,
                   (unsigned long long)d->in_use >> 10, (unsigned long long)d->base,
                   host ? ", host memory" : "", bar1 ? ", CPU through BAR1" : ", no BAR1",
                   tables ? ", page tables" : "");
    }
    if (o->json)
        printf("]\n");
    return 0;
}

static int cmd_vram(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_vram_rsp v;
    int rc = gmmu_get_vram(dev, &v);
    if (rc)
        return fail(o, "vram", rc);
    if (o->json)
        printf(
            "{\"segment_bytes\": %llu, \"free_bytes\": %llu, \"largest_free\": %llu, "
            "\"table_bytes\": %llu, \"tables\": %u, \"allocations\": %u, \"address_spaces\": %u, "
            "\"backing_ranges\": %u, \"backing_bytes\": %llu, \"backing_free\": %llu, "
            "\"resident_bytes\": %llu, \"evictable_bytes\": %llu, \"paging_fence\": %llu}\n",
            (unsigned long long)v.segment_bytes, (unsigned long long)v.free_bytes,
            (unsigned long long)v.largest_free, (unsigned long long)v.table_bytes, v.tables,
            v.allocations, v.address_spaces, v.backing_ranges, (unsigned long long)v.backing_bytes,
            (unsigned long long)v.backing_free, (unsigned long long)v.resident_bytes,
            (unsigned long long)v.evictable_bytes, (unsigned long long)v.paging_fence);
    else
        printf("VRAM %llu KiB, free %llu KiB (largest block %llu KiB), tables %u (%llu KiB), "
               "allocations %u, address spaces %u; backing pool %llu KiB in %u ranges, "
               "%llu KiB free; resident %llu KiB, evictable %llu KiB; paging fence %llu\n",
               (unsigned long long)v.segment_bytes >> 10, (unsigned long long)v.free_bytes >> 10,
               (unsigned long long)v.largest_free >> 10, v.tables,
               (unsigned long long)v.table_bytes >> 10, v.allocations, v.address_spaces,
               (unsigned long long)v.backing_bytes >> 10, v.backing_ranges,
               (unsigned long long)v.backing_free >> 10, (unsigned long long)v.resident_bytes >> 10,
               (unsigned long long)v.evictable_bytes >> 10, (unsigned long long)v.paging_fence);
    return 0;
}

static int cmd_backing_add(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t addr, size;
    if (o->nargs != 2 || !number_arg(o->args[0], &addr) || !number_arg(o->args[1], &size))
        return usage();
    int rc = gmmu_add_backing(dev, addr, size);
    return rc ? fail(o, "backing-add", rc) : 0;
}

/* SYS_ADDR SIZE, or --unreachable alone. */
static int cmd_backing_remove(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t addr = 0, size = 0;
    uint32_t flags = 0;
    struct gmmu_backing_remove_rsp rsp;

    if (o->nargs == 1 && !strcmp(o->args[0], "--unreachable"))
        flags = GMMU_REMOVE_BACKING_FLAG_UNREACHABLE;
    else if (o->nargs != 2 || !number_arg(o->args[0], &addr) || !number_arg(o->args[1], &size))
        return usage();
    int rc = gmmu_remove_backing(dev, addr, size, flags, &rsp);
    if (rc)
        return fail(o, "backing-remove", rc);
    if (o->json)
        printf("{\"ranges\": %u, \"moved\": %u, \"freed\": %u, \"fence\": %llu}\n", rsp.ranges,
               rsp.moved, rsp.freed, (unsigned long long)rsp.fence);
    else
        printf("ranges removed %u, allocations moved %u, freed %u; paging fence %llu\n", rsp.ranges,
               rsp.moved, rsp.freed, (unsigned long long)rsp.fence);
    return 0;
}

/* SIZE accepts K/M/G suffixes; ",contig", ",64k", ",pref" and ",sysonly"
   set the flags. */
static int cmd_alloc(struct gmmu_dev *dev, const struct options *o)
{
    if (!o->arg)
        return usage();
    char *end;
    struct gmmu_alloc_req req = { .size = parse_number(o->arg, &end) };
    for (char *opt = strtok(end, ","); opt; opt = strtok(NULL, ","))
        if (!strcmp(opt, "contig"))
            req.flags |= GMMU_ALLOC_FLAG_CONTIGUOUS;
        else if (!strcmp(opt, "64k"))
            req.flags |= GMMU_ALLOC_FLAG_PREFER_64K;
        else if (!strcmp(opt, "pref"))
            req.flags |= GMMU_ALLOC_FLAG_VRAM_PREFERRED;
        else if (!strcmp(opt, "sysonly"))
            req.flags |= GMMU_ALLOC_FLAG_SYSTEM_ONLY;
        else
            return usage();
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc(dev, &req, &rsp);
    if (rc)
        return fail(o, "alloc", rc);
    if (o->json)
        printf("{\"handle\": %u, \"size\": %llu, \"base\": %llu, \"extents\": %u}\n", rsp.handle,
               (unsigned long long)rsp.size, (unsigned long long)rsp.base, rsp.extents);
    else
        printf("allocation %u: %llu bytes in %u extent(s), first at 0x%llx\n", rsp.handle,
               (unsigned long long)rsp.size, rsp.extents, (unsigned long long)rsp.base);
    return 0;
}

/* ALLOC_PAGES over PAGE[:N] arguments: N (default 1) consecutive 4 KB
   host pages from PAGE each, in argument order; a first argument "phys"
   asks for ALLOC_PAGES_FLAG_PHYSICAL (into the aperture). */
static int cmd_alloc_pages(struct gmmu_dev *dev, const struct options *o)
{
    enum { MAX_PAGES = 1 << 20 };
    uint64_t *pages, total = 0;
    bool phys = o->nargs && strcmp(o->args[0], "phys") == 0;

    if (o->nargs <= (int)phys)
        return usage();
    pages = malloc(sizeof(*pages) * MAX_PAGES);
    if (!pages)
        return fail(o, "alloc-pages", GMMU_E_NO_MEMORY);
    for (int i = phys; i < o->nargs; i++) {
        char buf[64], *colon;
        uint64_t addr, n = 1;

        if (strlen(o->args[i]) >= sizeof(buf))
            goto bad;
        strcpy(buf, o->args[i]);
        colon = strchr(buf, ':');
        if (colon)
            *colon = '\0';
        if (!number_arg(buf, &addr) || (colon && (!number_arg(colon + 1, &n) || !n)) ||
            n > MAX_PAGES - total)
            goto bad;
        for (uint64_t k = 0; k < n; k++)
            pages[total++] = addr + k * 4096;
    }
    struct gmmu_alloc_rsp rsp;
    int rc = gmmu_alloc_pages_flags(dev, pages, (size_t)total,
                                    phys ? GMMU_ALLOC_PAGES_FLAG_PHYSICAL : 0u, &rsp);
    free(pages);
    if (rc)
        return fail(o, "alloc-pages", rc);
    if (o->json)
        printf("{\"handle\": %u, \"size\": %llu, \"base\": %llu, \"extents\": %u}\n", rsp.handle,
               (unsigned long long)rsp.size, (unsigned long long)rsp.base, rsp.extents);
    else if (phys)
        printf("allocation %u: %llu bytes of host pages in %u run(s), in the aperture at "
               "physical address 0x%llx\n",
               rsp.handle, (unsigned long long)rsp.size, rsp.extents, (unsigned long long)rsp.base);
    else
        printf("allocation %u: %llu bytes of host pages in %u run(s), first at 0x%llx\n",
               rsp.handle, (unsigned long long)rsp.size, rsp.extents, (unsigned long long)rsp.base);
    return 0;
bad:
    free(pages);
    return usage();
}

static int cmd_free(struct gmmu_dev *dev, const struct options *o)
{
    if (!o->arg)
        return usage();
    int rc = gmmu_free(dev, (uint32_t)strtoul(o->arg, NULL, 0));
    if (rc)
        return fail(o, "free", rc);
    if (o->json)
        printf("{\"freed\": %s}\n", o->arg);
    return 0;
}

/* MAKE_RESIDENT or EVICT of the handles given. */
static int residency_cmd(struct gmmu_dev *dev, const struct options *o, bool make)
{
    uint32_t h[MAX_ARGS];
    uint64_t fence = 0;

    if (!o->nargs)
        return usage();
    for (int i = 0; i < o->nargs; i++) {
        uint64_t v;
        if (!number_arg(o->args[i], &v) || v > UINT32_MAX)
            return usage();
        h[i] = (uint32_t)v;
    }
    int rc = make ? gmmu_make_resident(dev, h, (size_t)o->nargs, &fence)
                  : gmmu_evict(dev, h, (size_t)o->nargs);
    if (rc)
        return fail(o, make ? "resident" : "evict", rc);
    if (make)
        printf(o->json ? "{\"fence\": %llu}\n" : "paging fence %llu\n", (unsigned long long)fence);
    return 0;
}

static int cmd_resident(struct gmmu_dev *dev, const struct options *o)
{
    return residency_cmd(dev, o, true);
}

static int cmd_evict(struct gmmu_dev *dev, const struct options *o)
{
    return residency_cmd(dev, o, false);
}

static int cmd_alloc_info(struct gmmu_dev *dev, const struct options *o)
{
    static const char *const state[] = { "?", "vram", "backing", "offline", "host" };
    struct gmmu_alloc_info a;
    uint64_t h;

    if (o->nargs != 1 || !number_arg(o->arg, &h) || h > UINT32_MAX)
        return usage();
    int rc = gmmu_query_alloc(dev, (uint32_t)h, &a);
    if (rc)
        return fail(o, "alloc-info", rc);
    const char *st = a.state < 5 ? state[a.state] : "?";
    if (o->json)
        printf("{\"state\": \"%s\", \"size\": %llu, \"segment\": %u, \"base\": %llu, "
               "\"residency\": %u, \"flags\": %u, \"extents\": %u}\n",
               st, (unsigned long long)a.size, a.segment, (unsigned long long)a.base, a.residency,
               a.flags, a.extents);
    else
        printf("allocation %llu: %s, %llu bytes in %u extent(s), first at segment %u 0x%llx, "
               "residency %u\n",
               (unsigned long long)h, st, (unsigned long long)a.size, a.extents, a.segment,
               (unsigned long long)a.base, a.residency);
    return 0;
}

/* A fence handle argument; the paging fence when absent. */
static bool fence_handle_arg(const struct options *o, int i, uint32_t *h)
{
    uint64_t v = GMMU_FENCE_PAGING;

    if (i < o->nargs && (!number_arg(o->args[i], &v) || v > UINT32_MAX))
        return false;
    *h = (uint32_t)v;
    return true;
}

static int print_fence(const struct options *o, const struct gmmu_fence_info *fi)
{
    if (o->json)
        printf("{\"handle\": %u, \"value\": %llu, \"offset\": %lld}\n", fi->handle,
               (unsigned long long)fi->value,
               fi->offset == UINT64_MAX ? -1LL : (long long)fi->offset);
    else if (fi->offset == UINT64_MAX)
        printf("fence 0x%08x: %llu\n", fi->handle, (unsigned long long)fi->value);
    else
        printf("fence 0x%08x: %llu (record at BAR1 offset 0x%llx)\n", fi->handle,
               (unsigned long long)fi->value, (unsigned long long)fi->offset);
    return 0;
}

static int cmd_fence_wait(struct gmmu_dev *dev, const struct options *o)
{
    uint64_t value;
    uint32_t h;

    if (o->nargs < 1 || o->nargs > 2 || !number_arg(o->arg, &value) || !fence_handle_arg(o, 1, &h))
        return usage();
    int rc = gmmu_fence_wait(dev, h, value, o->wait_ms > 0 ? o->wait_ms : 5000);
    return rc ? fail(o, "fence-wait", rc) : 0;
}

static int cmd_fence_create(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_fence_info fi;
    uint64_t value = 0;

    if (o->nargs > 1 || (o->nargs == 1 && !number_arg(o->arg, &value)))
        return usage();
    int rc = gmmu_fence_create(dev, value, &fi);
    return rc ? fail(o, "fence-create", rc) : print_fence(o, &fi);
}

static int cmd_fence_destroy(struct gmmu_dev *dev, const struct options *o)
{
    uint32_t h;

    if (o->nargs != 1 || !fence_handle_arg(o, 0, &h))
        return usage();
    int rc = gmmu_fence_destroy(dev, h);
    return rc ? fail(o, "fence-destroy", rc) : 0;
}

static int cmd_fence_signal(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_fence_info fi;
    uint64_t value;
    uint32_t h;

    if (o->nargs != 2 || !fence_handle_arg(o, 0, &h) || !number_arg(o->args[1], &value))
        return usage();
    int rc = gmmu_fence_signal(dev, h, value, &fi);
    return rc ? fail(o, "fence-signal", rc) : print_fence(o, &fi);
}

static int cmd_fence_read(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_fence_info fi;
    uint32_t h;

    if (o->nargs > 1 || !fence_handle_arg(o, 0, &h))
        return usage();
    int rc = gmmu_fence_read(dev, h, &fi);
    return rc ? fail(o, "fence-read", rc) : print_fence(o, &fi);
}

static const char *name_or(const char *name, const char *fallback)
{
    return name ? name : fallback;
}

static const char *access_name(uint32_t access)
{
    static const char *const names[] = { "READ", "WRITE", "EXECUTE" };
    return access < sizeof names / sizeof names[0] ? names[access] : "UNKNOWN";
}

static const char *reason_name(uint32_t reason)
{
    static const char *const names[] = { "NONE",      "INVALID",      "READ_ONLY", "NO_EXECUTE",
                                         "BUS_ERROR", "ASID_INVALID", "VA_RANGE" };
    return reason < sizeof names / sizeof names[0] ? names[reason] : "UNKNOWN";
}

static void print_event(const struct options *o, const struct gmmu_event *ev, bool first)
{
    const struct gmmu_fault_evt *f = &ev->u.fault;
    if (ev->type != GMMU_EVT_FAULT) {
        if (o->json)
            printf("%s{\"seq\": %u, \"type\": %u, \"lost\": %u, \"payload_len\": %u}",
                   first ? "" : ", ", ev->seq, ev->type, ev->lost, ev->payload_len);
        else
            printf("event %u: type %u (%s), %u bytes\n", ev->seq, ev->type,
                   name_or(gmmu_evt_name(ev->type), "unknown"), ev->payload_len);
        return;
    }
    if (o->json)
        printf(
            "%s{\"seq\": %u, \"type\": \"FAULT\", \"lost\": %u, \"va\": %llu, \"as_handle\": %u, "
            "\"asid\": %u, \"port\": %u, \"access\": \"%s\", \"reason\": \"%s\", \"tag\": %u, "
            "\"overflow\": %u, \"cycles\": %llu}",
            first ? "" : ", ", ev->seq, ev->lost, (unsigned long long)f->va, f->as_handle, f->asid,
            f->port, access_name(f->access), reason_name(f->reason), f->tag, f->overflow,
            (unsigned long long)f->cycles);
    else
        printf("fault %u: va 0x%llx as 0x%08x (asid %u) port %u %s %s tag %u overflow %u%s\n",
               ev->seq, (unsigned long long)f->va, f->as_handle, f->asid, f->port,
               access_name(f->access), reason_name(f->reason), f->tag, f->overflow,
               ev->lost ? " (events lost before it)" : "");
}

/* Every pending event; with --wait, the first may take up to MS to come,
   and none coming is a timeout (exit 65). */
static int cmd_faults(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_event *ev = malloc(sizeof *ev);
    if (!ev)
        return fail(o, "faults", GMMU_E_NO_MEMORY);
    int rc = o->wait_ms >= 0 ? gmmu_wait_event(dev, o->wait_ms, ev) : gmmu_next_event(dev, ev);
    if (o->wait_ms >= 0 && rc == 0)
        rc = 1; /* as gmmu_next_event: one was returned */
    unsigned n = 0;
    if (o->json && rc >= 0)
        printf("[");
    for (; rc == 1; rc = gmmu_next_event(dev, ev))
        print_event(o, ev, n++ == 0);
    if (o->json && (rc >= 0 || n))
        printf("]\n");
    else if (n == 0 && rc >= 0)
        printf("no faults pending\n");
    free(ev);
    return rc < 0 ? fail(o, "faults", rc) : 0;
}

static void print_counter_rows(const struct options *o, const char *const *names, const uint32_t *v,
                               size_t n, const char *indent)
{
    for (size_t i = 0; i < n; i++) {
        if (o->json)
            printf("\"%s\": %u%s", names[i], v[i], i + 1 < n ? ", " : "");
        else
            printf("%s%-14s %u\n", indent, names[i], v[i]);
    }
}

static int cmd_counters(struct gmmu_dev *dev, const struct options *o)
{
    struct gmmu_mmu_perf p;
    int rc = gmmu_get_mmu_counters(dev, o->clear ? GMMU_MMU_COUNTERS_FLAG_CLEAR : 0, &p);
    if (rc)
        return fail(o, "counters", rc);
    static const char *const shared[] = { "ports",  "fault_overflow", "l2_lookups", "l2_hits",
                                          "walks",  "walk_cycles",    "pwc_hits",   "pte_reads",
                                          "faults", "invalidations",  "cycles" };
    static const char *const port[] = { "requests", "hits",   "misses",
                                        "merges",   "faults", "prefetches" };
    uint32_t words[sizeof p.c / 4];
    memcpy(words, &p.c, sizeof words);
    if (o->json)
        printf("{");
    print_counter_rows(o, shared, words, sizeof shared / sizeof shared[0], "");
    printf(o->json ? ", \"port\": [" : "");
    for (uint32_t i = 0; i < p.c.ports; i++) {
        uint32_t pw[sizeof p.port[0] / 4];
        memcpy(pw, &p.port[i], sizeof pw);
        if (o->json)
            printf("%s{", i ? ", " : "");
        else
            printf("port %u\n", i);
        print_counter_rows(o, port, pw, sizeof port / sizeof port[0], "  ");
        if (o->json)
            printf("}");
    }
    if (o->json)
        printf("]}\n");
    return 0;
}

const struct gmmuctl_cmd gmmuctl_core_cmds[] = {
    { "info", "", "GET_INFO", "firmware version and build, protocol version, DDR size, uptime",
      NULL, SEC_DEVICE, cmd_info },
    { "caps", "", "GET_CAPS", "every DXGK_GPUMMUCAPS field the device reports", NULL, SEC_DEVICE,
      cmd_caps },
    { "stats", "", "GET_STATS", "the mailbox service's counters", NULL, SEC_DEVICE, cmd_stats },
    { "counters", "[--clear]", "GET_MMU_COUNTERS",
      "MMU counters, shared and per port (TLB hits, misses, walks)",
      "--clear clears them after reading (FAULT_OVERFLOW is not cleared).\n", SEC_DEVICE,
      cmd_counters },
    { "pt-stats", "", "GET_PT_STATS", "page-table work since boot (table words, invalidations)",
      NULL, SEC_DEVICE, cmd_pt_stats },
    { "ping", "[COUNT]", "PING", "COUNT empty PINGs (default 1): their latency in device cycles",
      NULL, SEC_DEVICE, cmd_ping },
    { "ident", "", NULL, "the identity and state registers of BAR0 (no command is sent)", NULL,
      SEC_DEVICE, cmd_ident },
    { "vram", "", "GET_VRAM",
      "VRAM segment accounting: size, free, largest free block, tables, backing pool", NULL,
      SEC_MEMORY, cmd_vram },
    { "segments", "", "GET_SEGMENTS",
      "each segment: id, kind, size, bytes in use, BAR1 reach, page tables", NULL, SEC_MEMORY,
      cmd_segments },
    { "backing-add", "SYS_ADDR SIZE", "ADD_BACKING",
      "give the device host memory (64 KB aligned) for its backing pool",
      "The device writes 8 bytes at each end of the range to check it reaches it.\n", SEC_MEMORY,
      cmd_backing_add },
    { "backing-remove", "SYS_ADDR SIZE | --unreachable", "REMOVE_BACKING",
      "take a range of the backing pool back, or every range the device no longer reaches",
      "Allocations in a range the device reaches move to VRAM or the rest of the pool first\n"
      "(NO_MEMORY and nothing changed if they cannot); those in a range it no longer reaches\n"
      "(the memory of a host that left) are freed. Prints what moved and what was freed.\n",
      SEC_MEMORY, cmd_backing_remove },
    { "alloc", "SIZE[,contig][,64k][,pref|,sysonly]", "ALLOC",
      "allocate SIZE bytes of VRAM; prints its handle",
      "contig asks for one physically contiguous block, 64k for 64 KB pages where it can;\n"
      "pref places it in VRAM when there is room, else in the backing pool (VRAM preferred),\n"
      "sysonly in the backing pool only. Without either it is VRAM only.\n",
      SEC_MEMORY, cmd_alloc },
    { "alloc-pages", "[phys] PAGE[:N]...", "ALLOC_PAGES",
      "allocate system memory over a list of host pages; prints its handle",
      "Each PAGE[:N] adds N (default 1) consecutive 4 KB pages from host address PAGE,\n"
      "in order: the list's page i backs the allocation's bytes from i x 4 KB. At most\n"
      "32 runs of consecutive pages; long lists go in several messages. phys makes it\n"
      "AccessedPhysically: its pages are mapped into the aperture segment, contiguous\n"
      "there, and the physical address printed is what run|start phys take.\n",
      SEC_MEMORY, cmd_alloc_pages },
    { "resident", "ALLOC...", "MAKE_RESIDENT",
      "raise the residency counts of the allocations and bring them into VRAM; prints the fence",
      "All or nothing over the list; others nobody holds resident may be evicted.\n", SEC_MEMORY,
      cmd_resident },
    { "evict", "ALLOC...", "EVICT",
      "lower the residency counts; at 0 an allocation may be moved out when room is needed", NULL,
      SEC_MEMORY, cmd_evict },
    { "alloc-info", "ALLOC", "QUERY_ALLOC",
      "where an allocation lives now (vram, backing, offline, host) and its residency count", NULL,
      SEC_MEMORY, cmd_alloc_info },
    { "fence-wait", "VALUE [FENCE] [--wait MS]", "FENCE_WAIT",
      "wait until a fence (default: the paging fence) reaches VALUE, told by its EVT_FENCE",
      "Values compare modulo 2^64. Not reached within MS (default 5000) is a timeout (exit 65),\n"
      "and the wait is cancelled. Other events read meanwhile are consumed.\n",
      SEC_MEMORY, cmd_fence_wait },
    { "fence-create", "[VALUE]", "FENCE_CREATE",
      "create a monitored fence at VALUE (default 0); prints its handle and record offset", NULL,
      SEC_MEMORY, cmd_fence_create },
    { "fence-destroy", "FENCE", "FENCE_DESTROY", "destroy a fence and drop its waits", NULL,
      SEC_MEMORY, cmd_fence_destroy },
    { "fence-signal", "FENCE VALUE", "FENCE_SIGNAL",
      "raise a fence to VALUE (a value behind it is INVALID_ARGUMENT)", NULL, SEC_MEMORY,
      cmd_fence_signal },
    { "fence-read", "[FENCE]", "FENCE_READ",
      "a fence's value (default: the paging fence, handle 0x46000001)", NULL, SEC_MEMORY,
      cmd_fence_read },
    { "free", "HANDLE", "FREE", "unmap an allocation from every address space and free it", NULL,
      SEC_MEMORY, cmd_free },
    { "faults", "[--wait MS]", NULL,
      "read (and so consume) the MMU fault events (EVT_FAULT), oldest first",
      "With --wait MS, wait up to MS for the first one; none coming is a timeout (exit 65).\n",
      SEC_EVENTS, cmd_faults },
    { NULL, NULL, NULL, NULL, NULL, SEC_DEVICE, NULL },
};

static int parse(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-d") && i + 1 < argc)
            o->device = argv[++i];
        else if (!strcmp(argv[i], "--json"))
            o->json = true;
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
            o->timeout_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wait") && i + 1 < argc)
            o->wait_ms = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--clear"))
            o->clear = true;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            o->help = true;
        else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
            o->version = true;
        else if (!o->command)
            o->command = argv[i];
        else if (o->nargs < MAX_ARGS)
            o->args[o->nargs++] = argv[i];
        else
            return -1;
    }
    o->arg = o->nargs ? o->args[0] : NULL;
    if (!o->device)
        o->device = getenv("GMMU_DEVICE");
    if (o->device && !*o->device)
        o->device = NULL;
    return 0;
}

int main(int argc, char **argv)
{
    struct options o = { .wait_ms = -1 };
    if (parse(argc, argv, &o) != 0)
        return usage();
    if (o.version) {
        print_version();
        return 0;
    }
    if (o.command && !strcmp(o.command, "help")) {
        if (o.nargs > 1)
            return usage();
        if (o.nargs == 1)
            return help_command(o.arg);
        print_help();
        return 0;
    }
    if (o.help && o.command)
        return help_command(o.command);
    if (o.help) {
        print_help();
        return 0;
    }
    if (!o.command)
        return usage();
    current = find_command(o.command);
    if (!current) {
        fprintf(stderr, "gmmuctl: no command '%s'\n", o.command);
        return usage();
    }
    if (!o.device) {
        fprintf(stderr, "gmmuctl: no device: give -d DEVICE or set GMMU_DEVICE\n");
        return usage();
    }
    struct gmmu_dev *dev;
    int rc = gmmu_open(o.device, &dev);
    if (rc)
        return fail(&o, "open", rc);
    if (o.timeout_ms > 0)
        gmmu_set_timeout(dev, o.timeout_ms);
    int status = current->run(dev, &o);
    gmmu_close(dev);
    return status;
}
