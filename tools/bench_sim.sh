#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make bench-sim: how fast the verilated SoC runs, in simulated cycles per
# CPU second (one core, whatever else the machine runs), for the SoC as
# built and for the reference SoC without the MMU, the GPU engines and the
# paging engine (their idle stand-ins, tools/gen_ref_stub.py), on the same
# firmware workloads:
#   boot  the firmware's DDR self-test, then exit (CPU and DDR busy);
#   idle  the firmware waiting for a host (the cycles after boot: a run of
#         IDLE_LONG cycles less one of IDLE_SHORT);
#   host  bench_fw --smoke over the simulated PCIe link (map, unmap and
#         QUERY_VA of 4 KB and 2 MB; the reference SoC has no paging engine,
#         so its firmware writes the page tables with the CPU).
#   bench_sim.sh FULL_SIM REF_SIM FIRMWARE.elf BENCH_FW LOG_DIR
set -euo pipefail
full=$1; ref=$2; elf=$3; bench_fw=$4; logs=$5
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$logs"
IDLE_SHORT=${IDLE_SHORT:-1000000}
IDLE_LONG=${IDLE_LONG:-5000000}
TARGET=1000000   # cycles per CPU second (issue: the full SoC at >= 1 M on one core)
exit_after_selftest=$(sed -nE 's/^#define GMMU_BOOT_ARG_EXIT_AFTER_SELFTEST GMMU_U\((0x[0-9a-fA-F]+)\).*/\1/p' \
  "$here/include/gmmu/soc.h")

# The "sim:" speed line of a log: "CYCLES CPU_SECONDS".
speed_of() {
  sed -nE 's/^sim: ([0-9]+) cycles in .* CPU ([0-9.]+) s .*/\1 \2/p' "$1" | tail -1
}

# One workload on one model: prints "CYCLES CPU_SECONDS".
run() {
  local bin=$1 what=$2 log="$logs/$(basename "$(dirname "$1")")-$2.log"
  case $what in
    boot)
      "$bin" --boot-arg "$exit_after_selftest" "$elf" >"$log" 2>&1
      speed_of "$log" ;;
    idle)
      "$bin" --max-cycles "$IDLE_SHORT" "$elf" >"$log.short" 2>&1 || true
      "$bin" --max-cycles "$IDLE_LONG" "$elf" >"$log" 2>&1 || true
      read -r c1 s1 < <(speed_of "$log.short")
      read -r c2 s2 < <(speed_of "$log")
      awk -v c1="$c1" -v s1="$s1" -v c2="$c2" -v s2="$s2" 'BEGIN { printf "%d %.3f\n", c2 - c1, s2 - s1 }' ;;
    host)
      "$here/tests/host/with_sim_server.sh" "$bin" "$elf" "$log" -- "$bench_fw" --smoke >"$log.host" 2>&1 ||
        { echo "bench-sim: the host workload failed on $bin:" >&2; tail -20 "$log.host" >&2; exit 1; }
      speed_of "$log" ;;
  esac
}

printf '%-6s %12s %14s %12s %14s %10s %12s\n' workload "full cycles" "full c/CPU-s" \
  "ref cycles" "ref c/CPU-s" "full/ref" "full/target"
for w in boot idle host; do
  read -r fc fs < <(run "$full" "$w")
  read -r rc rs < <(run "$ref" "$w")
  awk -v w="$w" -v fc="$fc" -v fs="$fs" -v rc="$rc" -v rs="$rs" -v t="$TARGET" 'BEGIN {
    f = fc / fs; r = rc / rs
    printf "%-6s %12d %14.0f %12d %14.0f %10.2f %12.2f\n", w, fc, f, rc, r, f / r, f / t }'
done
echo "full: the SoC as built ($full); ref: without MMU and engines ($ref)"
echo "targets: full >= $TARGET cycles per CPU second (full/target >= 1), full/ref >= 0.5"
