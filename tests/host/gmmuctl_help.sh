#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gmmuctl as people expect it, without a device: --help and `help COMMAND`
# on stdout with exit 0, every mailbox opcode of include/defs/mailbox.toml
# named by a subcommand in --help, --version the top-level VERSION, usage
# errors on stderr with exit 64.
#   gmmuctl_help.sh GMMUCTL
set -uo pipefail
gmmuctl=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
status=0
fail() { echo "gmmuctl_help: $*"; status=1; }
unset GMMU_DEVICE

help=$("$gmmuctl" --help 2>/dev/null); rc=$?
[ $rc -eq 0 ] || fail "--help exits $rc"
[ -n "$help" ] || fail "--help printed nothing on stdout"
[ -z "$("$gmmuctl" --help 2>&1 >/dev/null)" ] || fail "--help wrote to stderr"
[ "$("$gmmuctl" help)" = "$help" ] || fail "help and --help differ"
[ "$("$gmmuctl" -h)" = "$help" ] || fail "-h and --help differ"

# Every opcode, as the command line of --help that sends it ("  NAME: ...").
opcodes=$(python3 - "$root/include/defs/mailbox.toml" <<'EOF'
import sys, tomllib
defs = tomllib.load(open(sys.argv[1], "rb"))
op = next(e for e in defs["enum"] if e["name"] == "OP")
print("\n".join(v["name"] for v in op["value"]))
EOF
) || fail "cannot read the opcodes"
[ "$(echo "$opcodes" | wc -l)" -ge 17 ] || fail "only $(echo "$opcodes" | wc -l) opcodes read"
for op in $opcodes; do
  grep -Eq "^ +$op: " <<<"$help" || fail "no subcommand sends $op"
done

# help COMMAND for every command --help lists: stdout, exit 0, its synopsis.
commands=$(echo "$help" | sed -nE 's/^  ([a-z][a-z-]*)( .*)?$/\1/p')
[ "$(echo "$commands" | wc -l)" -ge 20 ] || fail "--help lists only: $commands"
for c in $commands; do
  out=$("$gmmuctl" help "$c" 2>/dev/null); rc=$?
  [ $rc -eq 0 ] && grep -q "^usage: gmmuctl \[OPTIONS\] $c" <<<"$out" || fail "help $c: exit $rc: $out"
  [ "$("$gmmuctl" "$c" --help 2>/dev/null)" = "$out" ] || fail "$c --help differs from help $c"
done
out=$("$gmmuctl" help update)
grep -q '^  protect VA SIZE' <<<"$out" || fail "help update does not describe the batch format"

version=$(tr -d ' \n' <"$root/VERSION")
out=$("$gmmuctl" --version); rc=$?
[ $rc -eq 0 ] && [ "$(echo "$out" | head -1)" = "gmmuctl $version" ] || fail "--version: exit $rc: $out"
grep -qE "^libgmmu $version, mailbox protocol [0-9]+\.[0-9]+$" <<<"$out" || fail "--version: $out"

# Usage errors: stderr only, exit 64.
for args in "" "nosuch" "help nosuch" "info" "map 1"; do
  out=$("$gmmuctl" $args 2>/dev/null); rc=$?
  [ $rc -eq 64 ] && [ -z "$out" ] || fail "'gmmuctl $args': exit $rc, stdout '$out' (want 64, nothing)"
done
grep -q "no device" <<<"$("$gmmuctl" info 2>&1)" || fail "no device: not said"

# An error names the host error in words (nothing listens on this socket).
err=$("$gmmuctl" -d sim:/nonexistent/gmmu.sock info 2>&1); rc=$?
[ "$err" = "gmmuctl: open: E_NO_DEVICE: no such device (host error -9)" ] && [ $rc -eq 73 ] ||
  fail "open error: exit $rc: $err"

[ $status -eq 0 ] && echo "gmmuctl_help: $(echo "$opcodes" | wc -l) opcodes, $(echo "$commands" | wc -l) commands, as expected"
exit $status
