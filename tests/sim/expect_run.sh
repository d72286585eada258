#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one firmware image in the simulator and checks the outcome.
#   expect_run.sh --rc N [--grep REGEX]... [--grep -v REGEX]... -- SIM_ARGS... FIRMWARE.elf
# Passes when the simulator exits with N, every --grep REGEX matches its
# output and no --grep -v REGEX does.
set -u
want_rc=""; patterns=(); absent=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rc) want_rc=$2; shift 2 ;;
    --grep) if [ "$2" = "-v" ]; then absent+=("$3"); shift 3; else patterns+=("$2"); shift 2; fi ;;
    --) shift; break ;;
    *) echo "expect_run: bad argument $1" >&2; exit 2 ;;
  esac
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
status=0
if [ "$rc" != "$want_rc" ]; then
  echo "expect_run: exit status $rc, expected $want_rc"; status=1
fi
for p in "${patterns[@]}"; do
  grep -Eq -- "$p" "$out" || { echo "expect_run: output lacks /$p/"; status=1; }
done
for p in "${absent[@]}"; do
  grep -Eq -- "$p" "$out" && { echo "expect_run: output has /$p/"; status=1; }
done
exit $status
