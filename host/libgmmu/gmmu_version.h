// SPDX-License-Identifier: Apache-2.0
/* GENERATED from VERSION by host/gen_version.sh (make host rewrites it when
   VERSION changes; make t-version checks it). Do not edit. */
#ifndef GMMU_VERSION_H
#define GMMU_VERSION_H

#define GMMU_VERSION "0.1.0"
#define GMMU_VERSION_MAJOR 0
#define GMMU_VERSION_MINOR 1
#define GMMU_VERSION_PATCH 0
/* Encoded as GET_INFO's fw_version: major << 16 | minor << 8 | patch. */
#define GMMU_VERSION_CODE ((GMMU_VERSION_MAJOR << 16) | (GMMU_VERSION_MINOR << 8) | GMMU_VERSION_PATCH)

#endif /* GMMU_VERSION_H */
