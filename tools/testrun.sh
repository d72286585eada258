#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs each named test target (make t-NAME), logs it to build/test/NAME.log,
# prints PASS/FAIL per test and one closing line "N passed, N failed".
#
# The build and the tests overlap, and no two of them ever build the same
# file: tools/test_prereqs.py reads from make's database the files each test
# needs, and one background job builds them all, in batches, in the order
# of the tests (tools/mk/tests.mk puts the longest first): each batch is one
# parallel make over the files the next TEST_BATCH tests need that no
# earlier batch built. A test starts once the batches holding its files are
# done (a test that needs no file starts at once); TEST_JOBS tests (default:
# the number of cores) run at a time beside the build, the first ready one
# in the order given. A test's make finds its files up to date and builds
# nothing. The UART link tests run beside the others: their link timers
# count simulated time (docs/uart-link.md), and every SoC test is bounded by
# simulated cycles, not the machine's clock (docs/getting-started.md).
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LOGDIR="$ROOT/build/test"
JOBS=${TEST_JOBS:-$(nproc)}
BATCH=${TEST_BATCH:-4}
mkdir -p "$LOGDIR"
: >"$LOGDIR/build.log"
rm -f "$LOGDIR"/build-*.cpu
state=$(mktemp -d)
fork_pid=
build_pid=
trap '[ -z "$fork_pid" ] || kill -TERM "$fork_pid" 2>/dev/null
      [ -z "$build_pid" ] || kill -TERM "$build_pid" 2>/dev/null; rm -rf "$state"' EXIT

start=$(date +%s)
elapsed() { local s=$(( $(date +%s) - start )); printf '%2d:%02d' $((s / 60)) $((s % 60)); }

# Each test's files and the batch each file is built in (the batch of the
# first test that needs it): test_batch[T] is the last batch T waits for.
declare -A file_batch test_batch
declare -a batch_files # "LIBC PATH" lines per batch
n=-1 prev=
while read -r t libc f; do
  [ "$t" = "$prev" ] || { n=$((n + 1)); prev=$t; }
  key="$libc $f"
  if [ -z "${file_batch[$key]+x}" ]; then
    file_batch[$key]=$(( n / BATCH ))
    batch_files[n / BATCH]+="$key"$'\n'
  fi
  b=${file_batch[$key]}
  [ "${test_batch[$t]:--1}" -ge "$b" ] || test_batch[$t]=$b
done < <(python3 "$ROOT/tools/test_prereqs.py" --per-test "$ROOT" "$@")
nbatches=0
for b in "${!batch_files[@]}"; do [ "$b" -lt "$nbatches" ] || nbatches=$((b + 1)); done
nfiles=${#file_batch[@]}

echo "BUILD the firmware, host tools, simulators and testbenches for $# tests: about 4 minutes of"
echo "      2 cores from a fresh clone, with the tests starting as their files are built (log: build/test/build.log)"

# The build: batch after batch, each one make per C library; the file
# "done.B" says batch B is over (built, or failed: a test whose file failed
# fails on its own, with the error in its log).
(
  for ((b = 0; b < nbatches; b++)); do
    for libc in picolibc newlib; do
      mapfile -t files < <(printf '%s' "${batch_files[$b]:-}" | awk -v l="$libc" '$1 == l {print $2}')
      [ ${#files[@]} -gt 0 ] || continue
      /usr/bin/time -f '%U %S' -o "$LOGDIR/build-$b-$libc.cpu" \
        make -C "$ROOT" --no-print-directory -k -j "$JOBS" LIBC="$libc" "${files[@]}" >>"$LOGDIR/build.log" 2>&1 ||
        : >"$state/build-failed"
    done
    : >"$state/done.$b"
  done
) &
build_pid=$!
build_reported=false
report_build() {
  local cpu
  cpu=$(cat "$LOGDIR"/build-*.cpu 2>/dev/null | awk '{ c += $1 + $2 } END { printf "%.0f", c }')
  build_cpu=$cpu
  if [ -e "$state/build-failed" ]; then
    printf 'BUILD %-28s %4ss %7s CPU s   (errors: build/test/build.log)\n' "(some failed)" "$(( $(date +%s) - start ))" "$cpu"
  else
    printf 'BUILD %-28s %4ss %7s CPU s\n' "$nfiles files" "$(( $(date +%s) - start ))" "$cpu"
  fi
}
batch_done() { # batch (-1: none needed)
  [ "$1" -lt 0 ] || [ -e "$state/done.$1" ]
}

# One booted SoC simulator serves the host tests (tests/host/with_sim_server.sh,
# sim/sim_fork.h): each run of the default simulator and image starts as a
# copy of it at the end of the boot, instead of booting (about 0.85 M
# cycles, 7 s of CPU, each time). It starts once both are built. A test run
# alone with make t-NAME boots.
sim_bin="$ROOT/build/sim/Vsoc_top"
sim_fw="$ROOT/build/fw-picolibc/gmmu.elf"
fork_batch=$(( ${file_batch["picolibc $sim_bin"]:--1} > ${file_batch["picolibc $sim_fw"]:--1} ?
               ${file_batch["picolibc $sim_bin"]:--1} : ${file_batch["picolibc $sim_fw"]:--1} ))
fork_wanted=false
if [ -z "${SIM_FORK_SERVER:-}" ] && [ -n "${file_batch["picolibc $sim_bin"]+x}" ] &&
   [ -n "${file_batch["picolibc $sim_fw"]+x}" ]; then
  fork_wanted=true
  export SIM_FORK_SERVER="$state/fork.ctl"
fi
start_fork_server() {
  if $fork_wanted && [ -z "$fork_pid" ] && batch_done "$fork_batch" && [ -x "$sim_bin" ] && [ -f "$sim_fw" ]; then
    "$sim_bin" --fork-server "$SIM_FORK_SERVER" --max-cycles 20000000 "$sim_fw" >"$LOGDIR/fork-server.log" 2>&1 &
    fork_pid=$!
  fi
}

# A test's line gives its wall-clock time and the CPU seconds (user + system)
# of everything it ran, from /usr/bin/time: on a shared machine the CPU time
# is the steadier figure of what a test costs. A forked simulator's CPU is
# not a child's of the test: it is in the "sim:" line of the test's
# simulator log.
cpu_of() { # file written by /usr/bin/time -f '%U %S'
  awk 'END { if (NF == 2) printf "%.1f", $1 + $2; else printf "?" }' "$1" 2>/dev/null
}
# A watchdog, not a measure: every test is bounded by simulated cycles or
# by its own work, but a bug that loops (a unit test's loop that stops
# advancing) would otherwise hold CI until its 90 minutes run out. A test
# still running after TEST_TIMEOUT seconds (default 1800, several times the
# longest test on a loaded 2-core machine) is killed with its processes and
# fails as TIMEOUT.
TIMEOUT=${TEST_TIMEOUT:-1800}
run_one() { # test: runs it, prints its line, exit status is the verdict
  local t=$1 s rc
  s=$(date +%s)
  /usr/bin/time -f '%U %S' -o "$LOGDIR/$t.cpu" timeout -k 10 "$TIMEOUT" \
    make -C "$ROOT" --no-print-directory "t-$t" >"$LOGDIR/$t.log" 2>&1
  rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "testrun: killed after TEST_TIMEOUT=$TIMEOUT s" >>"$LOGDIR/$t.log"
    printf 'FAIL  %-28s %4ss   TIMEOUT after %s s (log: build/test/%s.log)\n' "$t" \
      "$(( $(date +%s) - s ))" "$TIMEOUT" "$t"
    return 1
  elif [ "$rc" -eq 0 ]; then
    printf 'PASS  %-28s %4ss %7s CPU s\n' "$t" "$(( $(date +%s) - s ))" "$(cpu_of "$LOGDIR/$t.cpu")"
  else
    # cmocka's assertion lines first: a failed case's message is often
    # further up than the log's tail (later cases keep printing).
    printf 'FAIL  %-28s %4ss   (log: build/test/%s.log)\n%s\n' "$t" "$(( $(date +%s) - s ))" "$t" \
      "$( { grep -m 10 -E '^\[  (ERROR|FAILED)  *\] |^\[   LINE   \] ' "$LOGDIR/$t.log"; echo ...;
            tail -n 25 "$LOGDIR/$t.log"; } | sed 's/^/      | /')"
    return 1
  fi
}

# The scheduler: every half second, start the first ready tests while fewer
# than JOBS run. Each finished test leaves its verdict in a file; lines
# print as they end.
every=${PROGRESS_SECS:-60}
next_progress=$every
last=""
declare -a pending=("$@")
declare -a running=()
while :; do
  if ! $build_reported && ! kill -0 "$build_pid" 2>/dev/null; then
    wait "$build_pid" 2>/dev/null
    build_pid=
    report_build
    build_reported=true
  fi
  start_fork_server
  alive=()
  for p in "${running[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
  running=("${alive[@]}")
  rest=()
  for t in "${pending[@]}"; do
    if [ ${#running[@]} -lt "$JOBS" ] && batch_done "${test_batch[$t]:--1}"; then
      ( run_one "$t" && touch "$state/pass.$t" || touch "$state/fail.$t" ) &
      running+=($!)
    else
      rest+=("$t")
    fi
  done
  pending=("${rest[@]}")
  if $build_reported && [ ${#pending[@]} -eq 0 ] && [ ${#running[@]} -eq 0 ]; then break; fi
  # The build is quiet for minutes the first time: every PROGRESS_SECS
  # (default 60), what it is verilating or last built.
  if ! $build_reported && [ $(( $(date +%s) - start )) -ge "$next_progress" ]; then
    next_progress=$((next_progress + every))
    line=$(grep -E '^(verilating|built) ' "$LOGDIR/build.log" | tail -n 1 | sed "s|$ROOT/||g" | cut -c1-90)
    if [ -n "$line" ] && [ "$line" != "$last" ]; then
      printf '      [%s] %s\n' "$(elapsed)" "$line"
      last=$line
    fi
  fi
  sleep 0.5
done
if [ -n "$fork_pid" ]; then kill -TERM "$fork_pid" 2>/dev/null; wait "$fork_pid" 2>/dev/null; fork_pid=; fi
wait

pass=$(find "$state" -name 'pass.*' | wc -l)
failed=$(find "$state" -name 'fail.*' -printf '%f\n' | sed 's/^fail\.//' | sort | xargs)
fail=$(echo "$failed" | wc -w)
[ "$fail" -eq 0 ] || echo "failed: $failed"
test_cpu=$(for t in "$@"; do cat "$LOGDIR/$t.cpu" 2>/dev/null; done | awk '{ c += $1 + $2 } END { printf "%.0f", c }')
echo "$pass passed, $fail failed ($(( $(date +%s) - start )) s; CPU s: build $build_cpu, tests $test_cpu)"
[ "$fail" -eq 0 ]
