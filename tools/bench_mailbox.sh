#!/usr/bin/env bash
# PING benchmark against GMMU_DEVICE: prints the firmware's doorbell-to-
# completion cycles (CPL_LATENCY, measured in hardware) with its ratio to the
# target, and the host-visible round trip in device cycles.
set -euo pipefail
gmmuctl=$1; target=$2
"$gmmuctl" -d "$GMMU_DEVICE" ping 10 >/dev/null          # warm the caches
out=$("$gmmuctl" -d "$GMMU_DEVICE" --json ping 100)
fw=$(echo "$out" | sed -E 's/.*"fw_doorbell_to_completion_cycles": ([0-9]+).*/\1/')
rt=$(echo "$out" | sed -E 's/.*"round_trip_cycles": ([0-9]+).*/\1/')
printf 'PING firmware doorbell->completion: %s cycles (target %s, ratio %.2f)\n' "$fw" "$target" \
  "$(awk -v a="$fw" -v b="$target" 'BEGIN { print a / b }')"
printf 'PING host round trip:               %s device cycles (link read latency 400 cycles)\n' "$rt"
