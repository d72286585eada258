#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts the simulation server on a private socket, runs a command with
# GMMU_DEVICE pointing at it, and always stops the server afterwards.
#   with_sim_server.sh SIM_BIN FIRMWARE.elf LOG -- COMMAND...
# What bounds a run is simulated time, not the machine's clock: the
# simulation stops after SIM_MAX_CYCLES cycles (default 100 M, several times
# the longest test; 0: no limit), and the host then finds the device gone
# and fails. A loaded machine makes a run slower, never a failure.
# GMMU_HOST_TIMEOUT (seconds, default 5400: CI's whole budget) is only the
# last resort against a host program stuck outside the device.
# SIM_ARGS, if set, adds simulator options (split on spaces), for example
# SIM_ARGS='--ddr-size-mb 2' for a small VRAM segment.
# SIM_FORK_SERVER, if set, is the control socket of a simulator that has
# booted once and serves copies of itself (Vsoc_top --fork-server;
# tools/testrun.sh starts one for make test): a run without SIM_ARGS asks it
# for a copy, which skips the boot when the server is this binary and image
# with the same options, and otherwise boots as usual (sim/sim_fork.h).
set -u
sim=$1; elf=$2; log=$3; shift 4
mkdir -p "$(dirname "$log")"
dir=$(mktemp -d /tmp/gmmu-sim.XXXXXX)
sock="$dir/bar.sock"
# shellcheck disable=SC2086 # SIM_ARGS is a list of options
fork=${SIM_FORK_SERVER:-}
[ -z "${SIM_ARGS:-}" ] || fork=
"$sim" ${fork:+--fork-from "$fork"} --max-cycles "${SIM_MAX_CYCLES:-100000000}" \
  --socket "$sock" ${SIM_ARGS:-} "$elf" >"$log" 2>&1 &
pid=$!
cleanup() { kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
until [ -S "$sock" ]; do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
[ -S "$sock" ] || { echo "with_sim_server: the simulator did not start"; cat "$log"; exit 1; }
# Boot (DDR self-test, VidMm set-up) takes a few million cycles; on a busy
# machine that is longer than a host's open timeout, so wait for it here,
# for as long as the simulation runs.
until grep -q '^mailbox: ready' "$log"; do
  kill -0 "$pid" 2>/dev/null || { echo "with_sim_server: the simulation ended before the firmware was ready"; cat "$log"; exit 1; }
  sleep 0.1
done
# struct vidmm comes from the firmware's heap (its tables are in DDR):
# firmware that outgrew the on-chip RAM boots without VidMm. Say so here
# rather than through every command answering INTERNAL.
if grep -q '^vidmm: no room\|^vidmm: not available' "$log"; then
  echo "with_sim_server: the firmware booted without VidMm (no room in on-chip RAM):"
  grep '^vidmm' "$log"; exit 1
fi
GMMU_DEVICE="sim:$sock" timeout "${GMMU_HOST_TIMEOUT:-5400}" "$@"
rc=$?
[ $rc -eq 0 ] || { echo "with_sim_server: simulator log:"; tail -20 "$log"; }
exit $rc
