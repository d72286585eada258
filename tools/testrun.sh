#!/usr/bin/env bash
# Runs each named test target (make t-NAME), logs it to build/test/NAME.log,
# prints PASS/FAIL per test and one closing line "N passed, N failed".
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LOGDIR="$ROOT/build/test"
mkdir -p "$LOGDIR"
pass=0; fail=0; failed=()
for t in "$@"; do
  start=$(date +%s)
  if make -C "$ROOT" --no-print-directory "t-$t" >"$LOGDIR/$t.log" 2>&1; then
    pass=$((pass + 1)); printf 'PASS  %-28s %4ss\n' "$t" "$(( $(date +%s) - start ))"
  else
    fail=$((fail + 1)); failed+=("$t")
    printf 'FAIL  %-28s %4ss   (log: build/test/%s.log)\n' "$t" "$(( $(date +%s) - start ))" "$t"
    tail -n 25 "$LOGDIR/$t.log" | sed 's/^/      | /'
  fi
done
[ "$fail" -eq 0 ] || echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
