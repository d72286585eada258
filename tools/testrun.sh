#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs each named test target (make t-NAME), logs it to build/test/NAME.log,
# prints PASS/FAIL per test and one closing line "N passed, N failed".
#
# Two phases, so the suite uses every core without two tests ever building
# the same file: first one parallel make builds everything the tests need
# (tools/test_prereqs.py reads the list from make's database), then the
# tests run TEST_JOBS at a time (default: the number of cores), in the
# order given (tools/mk/tests.mk puts the longest first). The UART link
# tests run beside the others: their link timers count simulated time
# (docs/uart-link.md), and every SoC test is bounded by simulated cycles,
# not the machine's clock (docs/getting-started.md).
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LOGDIR="$ROOT/build/test"
JOBS=${TEST_JOBS:-$(nproc)}
mkdir -p "$LOGDIR"
: >"$LOGDIR/build.log"

start=$(date +%s)
build_ok=true
nfiles=0
# The build is quiet for minutes the first time: say what it does and, every
# PROGRESS_SECS (default 60), what it is verilating or last built.
echo "BUILD the firmware, host tools, simulators and testbenches for $# tests: about 4 minutes"
echo "      on 2 cores from a fresh clone, seconds when up to date (log: build/test/build.log)"
every=${PROGRESS_SECS:-60}
last=""
for libc in picolibc newlib; do
  mapfile -t files < <(python3 "$ROOT/tools/test_prereqs.py" "$ROOT" "$@" | awk -v l="$libc" '$1 == l {print $2}')
  [ ${#files[@]} -gt 0 ] || continue
  nfiles=$((nfiles + ${#files[@]}))
  make -C "$ROOT" --no-print-directory -k -j "$JOBS" LIBC="$libc" "${files[@]}" >>"$LOGDIR/build.log" 2>&1 &
  mpid=$!
  while kill -0 "$mpid" 2>/dev/null; do
    for _ in $(seq "$every"); do kill -0 "$mpid" 2>/dev/null || break; sleep 1; done
    kill -0 "$mpid" 2>/dev/null || break
    line=$(grep -E '^(verilating|built) ' "$LOGDIR/build.log" | tail -n 1 | sed "s|$ROOT/||g" | cut -c1-90)
    if [ -n "$line" ] && [ "$line" != "$last" ]; then
      s=$(( $(date +%s) - start ))
      printf '      [%2d:%02d] %s\n' $((s / 60)) $((s % 60)) "$line"
      last=$line
    fi
  done
  wait "$mpid" || build_ok=false
done
if $build_ok; then
  printf 'BUILD %-28s %4ss\n' "$nfiles files" "$(( $(date +%s) - start ))"
else
  # Not fatal: each test that needs what failed fails on its own, with the
  # error in its log.
  printf 'BUILD %-28s %4ss   (errors: build/test/build.log)\n' "(some failed)" "$(( $(date +%s) - start ))"
fi

run_one() { # test: runs it, prints its line, exit status is the verdict
  local t=$1 s
  s=$(date +%s)
  if make -C "$ROOT" --no-print-directory "t-$t" >"$LOGDIR/$t.log" 2>&1; then
    printf 'PASS  %-28s %4ss\n' "$t" "$(( $(date +%s) - s ))"
  else
    # cmocka's assertion lines first: a failed case's message is often
    # further up than the log's tail (later cases keep printing).
    printf 'FAIL  %-28s %4ss   (log: build/test/%s.log)\n%s\n' "$t" "$(( $(date +%s) - s ))" "$t" \
      "$( { grep -m 10 -E '^\[  (ERROR|FAILED)  *\] |^\[   LINE   \] ' "$LOGDIR/$t.log"; echo ...;
            tail -n 25 "$LOGDIR/$t.log"; } | sed 's/^/      | /')"
    return 1
  fi
}

# Each finished test leaves its verdict in a file; lines print as they end.
verdicts=$(mktemp -d)
trap 'rm -rf "$verdicts"' EXIT
running=0
for t in "$@"; do
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  ( run_one "$t" && touch "$verdicts/pass.$t" || touch "$verdicts/fail.$t" ) &
  running=$((running + 1))
done
wait

pass=$(find "$verdicts" -name 'pass.*' | wc -l)
failed=$(find "$verdicts" -name 'fail.*' -printf '%f\n' | sed 's/^fail\.//' | sort | xargs)
fail=$(echo "$failed" | wc -w)
[ "$fail" -eq 0 ] || echo "failed: $failed"
echo "$pass passed, $fail failed ($(( $(date +%s) - start )) s)"
[ "$fail" -eq 0 ]
