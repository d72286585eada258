#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts the simulated board (uart_soc: the SoC with its UART host link) on a
# pty, runs a command with GMMU_DEVICE=uart:<pty>, and always stops the
# simulation afterwards. The simulator's log ends with the line statistics
# (bytes, injected faults, NAKs the bridge sent).
#   with_uart_sim.sh SIM_BIN FIRMWARE.elf LOG [SIM_ARGS...] -- COMMAND...
# The device spec names the simulation's clock file (simclock=), so the
# host's link timers count simulated time: a loaded machine slows the
# simulation and the timers alike. UART_SPEC_OPTS (default ",retry=2", in
# milliseconds of the simulated 1 Mbaud line) is appended to the spec.
# As in tests/host/with_sim_server.sh, simulated time bounds the run
# (SIM_MAX_CYCLES, default 100 M; 0: no limit) and GMMU_HOST_TIMEOUT
# (seconds, default 5400) is only the last resort.
set -u
sim=$1; elf=$2; log=$3; shift 3
sim_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sim_args+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "with_uart_sim: missing -- COMMAND" >&2; exit 2; }
shift
dir=$(mktemp -d /tmp/gmmu-uart.XXXXXX)
tty="$dir/tty"
clock="$dir/clock"
"$sim" --uart-link "$tty" --uart-clock "$clock" --max-cycles "${SIM_MAX_CYCLES:-100000000}" \
  "${sim_args[@]}" "$elf" >"$log" 2>&1 &
pid=$!
cleanup() {
  kill -INT "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  sim_rc=$?
  rm -rf "$dir"
  return $sim_rc
}
trap 'cleanup' EXIT
until [ -L "$tty" ]; do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
[ -L "$tty" ] || { echo "with_uart_sim: the simulator did not start"; cat "$log"; exit 1; }
# Let the firmware boot first (its DDR self-test takes seconds of wall time
# on a loaded machine). GMMU_TIMEOUT_MS is libgmmu's command timeout (from
# the firmware's last sign of progress) and, on the link, how long the
# simulation may stand still before an access fails.
until grep -q '^mailbox: ready' "$log"; do
  kill -0 "$pid" 2>/dev/null || { echo "with_uart_sim: the simulation ended before the firmware came up"; tail -20 "$log"; exit 1; }
  sleep 0.1
done
start=$(date +%s.%N)
GMMU_TIMEOUT_MS=${GMMU_TIMEOUT_MS:-30000} GMMU_DEVICE="uart:$tty,simclock=$clock${UART_SPEC_OPTS-,retry=2}" timeout "${GMMU_HOST_TIMEOUT:-5400}" "$@"
rc=$?
end=$(date +%s.%N)
trap - EXIT
cleanup; sim_rc=$?
grep '^sim: \(uart\|[0-9]* cycles\)' "$log"
awk -v a="$start" -v b="$end" 'BEGIN { printf "with_uart_sim: command took %.1f s\n", b - a }' 
if [ $rc -ne 0 ]; then echo "with_uart_sim: simulator log:"; tail -20 "$log"; exit $rc; fi
# The line decoder saw a byte with a bad stop bit from the RTL: a bridge bug.
[ $sim_rc -eq 0 ] || { echo "with_uart_sim: the simulator failed ($sim_rc)"; tail -20 "$log"; exit 1; }
exit 0
