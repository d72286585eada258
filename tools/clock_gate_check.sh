#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# t-clock-gate: a verilated run with the simulators' clock gating
# (rtl/prim/prim_sim_clock_gate.sv, prim_sim_input_sample.sv) and the same
# run with every clock edge kept (GMMU_NO_CLOCK_GATE=1, sim/vl_env.h) must
# print the same, every cycle count included: only the lines that report
# wall-clock or CPU time, and the harness's note that gating is off, may
# differ. Both runs must pass.
#   clock_gate_check.sh NAME -- COMMAND [ARGS...]
set -euo pipefail
name=$1
shift
[ "${1:-}" = -- ] && shift
dir=${CLOCK_GATE_DIR:-build/test/clock-gate}
mkdir -p "$dir"

run() {
  local out=$1
  shift
  if ! "$@" >"$out" 2>&1; then
    echo "clock-gate $name: the run failed ($out):"
    tail -20 "$out"
    exit 1
  fi
}
run "$dir/$name.gated" "$@"
GMMU_NO_CLOCK_GATE=1 run "$dir/$name.ungated" "$@"

if ! grep -q '^vl_env: clock gating off' "$dir/$name.ungated"; then
  echo "clock-gate $name: the run with GMMU_NO_CLOCK_GATE=1 did not turn gating off"
  exit 1
fi

# Times: "N cycles in 1.2 s", "(123 cycles/s)", "cycles per CPU second",
# a lone "12.3 s" figure.
filter() {
  grep -vE '^vl_env: | [0-9.]+ s[ ,;)]| [0-9.]+ s$|cycles/s|per CPU second' "$1" || true
}
if diff <(filter "$dir/$name.gated") <(filter "$dir/$name.ungated") >"$dir/$name.diff"; then
  echo "clock-gate $name: $(filter "$dir/$name.gated" | wc -l) lines the same with and without gating"
else
  echo "clock-gate $name: the runs differ (< gated, > every edge kept):"
  head -40 "$dir/$name.diff"
  exit 1
fi
