#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts the simulation server on a private socket, runs a command with
# GMMU_DEVICE pointing at it, and always stops the server afterwards.
#   with_sim_server.sh SIM_BIN FIRMWARE.elf LOG -- COMMAND...
# COMMAND gets GMMU_HOST_TIMEOUT seconds of wall clock (default 600).
set -u
sim=$1; elf=$2; log=$3; shift 4
mkdir -p "$(dirname "$log")"
dir=$(mktemp -d /tmp/gmmu-sim.XXXXXX)
sock="$dir/bar.sock"
"$sim" --max-cycles 0 --socket "$sock" "$elf" >"$log" 2>&1 &
pid=$!
cleanup() { kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
[ -S "$sock" ] || { echo "with_sim_server: the simulator did not start"; cat "$log"; exit 1; }
# Boot (DDR self-test, VidMm set-up) takes a few million cycles; on a busy
# machine that is longer than a host's open timeout, so wait for it here.
for _ in $(seq 1200); do grep -q '^mailbox: ready' "$log" && break; sleep 0.1; done
grep -q '^mailbox: ready' "$log" || { echo "with_sim_server: firmware not ready after 120 s"; cat "$log"; exit 1; }
# VidMm's tables live in the firmware's heap, a few hundred bytes larger
# than it needs: firmware that grew past it boots without VidMm. Say so
# here rather than through every command answering INTERNAL.
if grep -q '^vidmm: no room\|^vidmm: not available' "$log"; then
  echo "with_sim_server: the firmware booted without VidMm (on-chip RAM too small for its tables):"
  grep '^vidmm' "$log"; exit 1
fi
GMMU_DEVICE="sim:$sock" timeout "${GMMU_HOST_TIMEOUT:-600}" "$@"
rc=$?
[ $rc -eq 0 ] || { echo "with_sim_server: simulator log:"; tail -20 "$log"; }
exit $rc
