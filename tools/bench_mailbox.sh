#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# PING benchmark against GMMU_DEVICE: the firmware's doorbell-to-completion
# cycles (CPL_LATENCY, measured by the mailbox hardware) over 100 empty
# PINGs, with their ratio to the target, and the host-visible round trip in
# device cycles.
set -euo pipefail
gmmuctl=$1; target=$2
"$gmmuctl" -d "$GMMU_DEVICE" ping 10 >/dev/null          # warm the caches
out=$("$gmmuctl" -d "$GMMU_DEVICE" --json ping 100)
field() { echo "$out" | sed -E "s/.*\"$1\": ([0-9]+).*/\1/"; }
ratio() { awk -v a="$1" -v b="$target" 'BEGIN { printf "%.2f", a / b }'; }
min=$(field fw_cycles_min); med=$(field fw_cycles_median); max=$(field fw_cycles_max)
rt=$(field round_trip_cycles)
echo "PING (empty), firmware doorbell -> completion published, 100 runs:"
echo "  min $min  median $med  max $max cycles; target $target;" \
     "median/target $(ratio "$med"), max/target $(ratio "$max")"
echo "PING host round trip: $rt device cycles at a 400-cycle BAR read latency"
echo "  (each round trip here includes one extra BAR read, of CPL_LATENCY)"
