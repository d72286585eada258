#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Writes host/libgmmu/gmmu_version.h's text from the one version number,
# the top-level VERSION file (MAJOR.MINOR.PATCH), on stdout.
#   gen_version.sh VERSION_FILE
set -eu
v=$(tr -d ' \n' <"$1")
case "$v" in
  *[!0-9.]* | *.*.*.* | .* | *. | *..*) echo "gen_version: '$v' in $1 is not MAJOR.MINOR.PATCH" >&2; exit 1 ;;
  *.*.*) ;;
  *) echo "gen_version: '$v' in $1 is not MAJOR.MINOR.PATCH" >&2; exit 1 ;;
esac
IFS=. read -r major minor patch <<END
$v
END
cat <<END
// SPDX-License-Identifier: Apache-2.0
/* GENERATED from VERSION by host/gen_version.sh (make host rewrites it when
   VERSION changes; make t-version checks it). Do not edit. */
#ifndef GMMU_VERSION_H
#define GMMU_VERSION_H

#define GMMU_VERSION "$v"
#define GMMU_VERSION_MAJOR $major
#define GMMU_VERSION_MINOR $minor
#define GMMU_VERSION_PATCH $patch
/* Encoded as GET_INFO's fw_version: major << 16 | minor << 8 | patch. */
#define GMMU_VERSION_CODE ((GMMU_VERSION_MAJOR << 16) | (GMMU_VERSION_MINOR << 8) | GMMU_VERSION_PATCH)

#endif /* GMMU_VERSION_H */
END
