#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a long, quiet tool and reports where it is: every PROGRESS_SECS
# seconds (default 60) prints the elapsed time and the last line of its log
# that matches PATTERN (extended regex), when that line changed.
#
#   tools/with_progress.sh LOG PATTERN -- COMMAND [ARGS...]
#
# With PROGRESS_OUT=FILE in the environment the command's own output goes
# to FILE (the progress lines still reach the terminal). With
# PROGRESS_COUNT=WORDS the line is a count instead, "N WORDS": of the lines
# of LOG that match, or, when LOG is a directory, of the files written in
# it since the start whose names match (Verilator's object files). The exit status is the command's. Used by the board flow, whose Yosys and nextpnr runs take
# tens of minutes with the MMU.
set -u
if [ $# -lt 4 ] || [ "$3" != "--" ]; then
  echo "usage: $0 LOG PATTERN -- COMMAND [ARGS...]" >&2
  exit 2
fi
log=$1 pattern=$2
shift 3
every=${PROGRESS_SECS:-60}

[ -d "$log" ] || : >"$log"   # no line of an earlier run is reported as this one's
marker=$(mktemp)            # nor a file an earlier run wrote
trap 'rm -f "$marker"' EXIT
if [ -n "${PROGRESS_OUT:-}" ]; then
  "$@" >"$PROGRESS_OUT" 2>&1 &
else
  "$@" &
fi
pid=$!
# A make interrupted with ^C must not leave the tool running.
trap 'kill "$pid" 2>/dev/null; exit 130' INT TERM

start=$(date +%s)
last=""
while kill -0 "$pid" 2>/dev/null; do
  for _ in $(seq "$every"); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  kill -0 "$pid" 2>/dev/null || break
  if [ -n "${PROGRESS_COUNT:-}" ]; then
    if [ -d "$log" ]; then
      line="$(find "$log" -maxdepth 1 -newer "$marker" -printf '%f\n' | grep -cE -- "$pattern") $PROGRESS_COUNT"
    else
      line="$(grep -cE -- "$pattern" "$log" 2>/dev/null) $PROGRESS_COUNT"
    fi
  else
    line=$(grep -E -- "$pattern" "$log" 2>/dev/null | tail -n 1 | sed 's/^Info: *//' | cut -c1-90)
  fi
  if [ -n "$line" ] && [ "$line" != "$last" ]; then
    s=$(( $(date +%s) - start ))
    printf '      [%2d:%02d] %s\n' $((s / 60)) $((s % 60)) "$line"
    last=$line
  fi
done
wait "$pid"
