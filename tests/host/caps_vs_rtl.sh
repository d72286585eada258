#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gmmuctl caps --json against the values the RTL is built with
# (rtl/pkg/gmmu_pte_pkg.sv, the package the MMU and the mailbox are built from).
set -euo pipefail
gmmuctl=$1
pkg=$(dirname "$0")/../../rtl/pkg/gmmu_pte_pkg.sv
json=$("$gmmuctl" -d "$GMMU_DEVICE" --json caps)
echo "$json"
status=0
for name in ReadOnlyMemorySupported NoExecuteMemorySupported ZeroInPteSupported \
            ExplicitPageTableInvalidation CacheCoherentMemorySupported \
            PageTableUpdateRequireAddressSpaceIdle LargePageSupported DualPteSupported \
            AllowNonAlignedLargePageAddress PageTableUpdateMode VirtualAddressBitCount \
            LeafPageTableSizeFor64KPagesInBytes PageTableLevelCount SourcePageTableVaInTransfer; do
  param="CAP_$(echo "$name" | sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' | tr a-z A-Z)"
  rtl=$(sed -nE "s/.*localparam int unsigned $param = ([0-9]+);.*/\1/p" "$pkg")
  got=$(echo "$json" | sed -nE "s/.*\"$name\": ([0-9]+).*/\1/p")
  if [ -z "$rtl" ] || [ "$rtl" != "$got" ]; then
    echo "caps_vs_rtl: $name: gmmuctl says '${got}', RTL $param is '${rtl}'"; status=1
  fi
done
[ $status -eq 0 ] && echo "caps_vs_rtl: all 14 fields match the RTL"
exit $status
