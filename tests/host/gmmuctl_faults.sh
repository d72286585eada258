#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gmmuctl faults and counters, after test_faults_soc left two faults unread
# (engine 1 writing VA 0x40, engine 2 reading 0x80, both INVALID).
set -uo pipefail
gmmuctl=$1
status=0
check() { # what, command output, extended regex it must match
  if ! echo "$2" | grep -Eq "$3"; then echo "gmmuctl_faults: $1: got: $2"; status=1; fi
}
out=$("$gmmuctl" -d "$GMMU_DEVICE" --json faults); rc=$?
echo "$out"
check "exit status" "$rc" '^0$'
check "two events" "$(echo "$out" | grep -o '"type": "FAULT"' | wc -l)" '^2$'
check "first" "$out" '"va": 64, [^}]*"port": 1, "access": "WRITE", "reason": "INVALID"'
check "second" "$out" '"va": 128, [^}]*"port": 2, "access": "READ", "reason": "INVALID"'
out=$("$gmmuctl" -d "$GMMU_DEVICE" faults); rc=$?
check "read once" "$out $rc" '^no faults pending 0$'
"$gmmuctl" -d "$GMMU_DEVICE" faults --wait 20 >/dev/null 2>&1; rc=$?
check "--wait with nothing is a timeout (65)" "$rc" '^65$'
out=$("$gmmuctl" -d "$GMMU_DEVICE" --json counters); rc=$?
echo "$out"
check "counters exit status" "$rc" '^0$'
check "counters" "$out" '^\{"ports": 4, "fault_overflow": [0-9]+, "l2_lookups": [0-9]+, .*"cycles": [0-9]+, "port": \[\{"requests": '
check "four ports" "$(echo "$out" | grep -o '"prefetches"' | wc -l)" '^4$'
out=$("$gmmuctl" -d "$GMMU_DEVICE" counters); rc=$?
check "text counters" "$out $rc" 'port 3'
[ $status -eq 0 ] && echo "gmmuctl_faults: faults and counters as expected"
exit $status
