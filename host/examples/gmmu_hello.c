// SPDX-License-Identifier: Apache-2.0
/*
 * The smallest libgmmu program: the library's version, then one device's
 * firmware version. Builds against an installed libgmmu with pkg-config
 * alone:
 *
 *   cc gmmu_hello.c $(pkg-config --cflags --libs gmmu) -o gmmu_hello
 *   ./gmmu_hello sim:build/sim/gmmu.sock
 *
 * Exit status: 0 when the device answered, 1 when it could not be opened or
 * a command failed, 2 for a usage error.
 */
#include <stdio.h>

#include <gmmu/libgmmu.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gmmu_hello DEVICE\n");
        return 2;
    }
    /* GMMU_VERSION is what this program was compiled against; gmmu_version()
       is the library it runs with. */
    printf("libgmmu %s (built against %s)\n", gmmu_version(), GMMU_VERSION);

    struct gmmu_dev *dev;
    int rc = gmmu_open(argv[1], &dev);
    if (rc) {
        printf("open %s: %s: %s\n", argv[1], gmmu_error_name(rc), gmmu_strerror(rc));
        return 1;
    }
    struct gmmu_info info;
    rc = gmmu_get_info(dev, &info);
    if (rc == 0)
        printf("firmware %u.%u.%u, protocol %u.%u, %u MiB DDR\n", info.fw_version >> 16,
               (info.fw_version >> 8) & 0xFFu, info.fw_version & 0xFFu, info.proto_version >> 16,
               info.proto_version & 0xFFFFu, info.ddr_mb);
    else
        printf("GET_INFO: %s: %s\n", gmmu_error_name(rc), gmmu_strerror(rc));
    gmmu_close(dev);
    return rc ? 1 : 0;
}
