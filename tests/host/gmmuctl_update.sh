#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gmmuctl's UPDATE_VA batches (from a file and from stdin, every operation
# kind, the one-operation shortcuts), pt-stats, and errors that name the
# device status; every result checked through QUERY_VA.
#   gmmuctl_update.sh GMMUCTL      (GMMU_DEVICE names the device)
set -uo pipefail
gmmuctl=$1
ctl() { "$gmmuctl" -d "$GMMU_DEVICE" --timeout 120000 "$@"; }
status=0
fail() { echo "gmmuctl_update: $*"; status=1; }
json() { grep -Eo "\"$1\": [0-9]+" | head -1 | grep -Eo '[0-9]+$'; }
jstr() { grep -Eo "\"$1\": \"[^\"]*\"" | head -1 | sed -E 's/.*: "(.*)"/\1/'; }
expect() { [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
# state/flags/pa of one VA
q() { local out; out=$(ctl --json query "$as" "$1"); echo "$(echo "$out" | jstr state)/$(echo "$out" | json flags)/$(echo "$out" | json pa)"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

as=$(ctl --json as-create | json as)
alloc=$(ctl --json alloc 256K,contig | json handle)
va=$(ctl --json reserve "$as" 1M | json va)
[ -n "$as" ] && [ -n "$alloc" ] && [ -n "$va" ] || { fail "setup"; exit 1; }
K=1024

# One batch from a file, every operation kind; later operations see earlier ones.
cat >"$tmp/batch" <<EOF
# tiles 0 and 1 from the allocation's second and third 64 KiB
map $va 128K $alloc offset=64K
copy $((va + 512 * K)) 64K $((va + 64 * K))   # tile 8 translates as tile 1
protect $va 64K ro nx
unmap $((va + 256 * K)) 64K zero
EOF
out=$(ctl --json update "$as" "$tmp/batch"); expect "batch from a file" "$(echo "$out" | json operations)" 4
r0=$(q "$va"); r1=$(q $((va + 64 * K))); r8=$(q $((va + 512 * K)))
expect "tile 0 mapped read-only, no-execute" "${r0%/*}" "mapped/3"
expect "tile 1 mapped" "${r1%/*}" "mapped/0"
expect "tile 1 is the allocation's third 64 KiB" "$(( ${r1##*/} - ${r0##*/} ))" $((64 * K))
expect "copied tile 8 = tile 1" "$r8" "$r1"
expect "Zero tile" "$(q $((va + 256 * K)) | cut -d/ -f1)" zero
expect "untouched tile" "$(q $((va + 768 * K)) | cut -d/ -f1)" invalid

# The one-operation shortcuts.
ctl protect "$as" $((va + 512 * K)) 64K nx || fail "protect"
expect "protect" "$(q $((va + 512 * K)) | cut -d/ -f2)" 2
ctl copy-va "$as" $((va + 576 * K)) "$va" 64K || fail "copy-va"
expect "copy-va" "$(q $((va + 576 * K)))" "$r0"
ctl zero "$as" $((va + 576 * K)) 64K || fail "zero"
expect "zero" "$(q $((va + 576 * K)) | cut -d/ -f1)" zero

# A batch from stdin (no FILE, and -).
printf 'unmap %s 128K\n' "$va" | ctl update "$as" >/dev/null || fail "batch from stdin"
expect "unmapped by the stdin batch" "$(q "$va" | cut -d/ -f1)" invalid
printf '\n# nothing but\nunmap %s 64K   # a comment\n' $((va + 512 * K)) | ctl update "$as" - >/dev/null ||
  fail "batch from stdin (-)"
expect "unmapped by the second stdin batch" "$(q $((va + 512 * K)) | cut -d/ -f1)" invalid

# A bad line is a usage error naming the line; nothing is sent.
err=$(printf 'map %s 64K %s\nfrobnicate 1 2\n' "$va" "$alloc" | ctl update "$as" 2>&1 >/dev/null); rc=$?
expect "bad line exit" "$rc" 64
grep -q 'stdin line 2: not an operation' <<<"$err" || fail "bad line message: $err"
expect "a rejected batch changes nothing" "$(q "$va" | cut -d/ -f1)" invalid
expect "an empty batch is a usage error" "$(: | ctl update "$as" >/dev/null 2>&1; echo $?)" 64

# A device error fails the whole batch, named in words with its status.
printf 'map %s 64K %s\nmap %s 64K %s\n' "$va" "$alloc" $((2 * K * K * K)) "$alloc" >"$tmp/bad"
err=$(ctl update "$as" "$tmp/bad" 2>&1); rc=$?
name=$(echo "$err" | sed -nE 's/^gmmuctl: update: ([A-Z_]+): .* \(device status ([0-9]+)\)$/\1 \2/p')
[ -n "$name" ] && [ "${name#* }" = "$rc" ] || fail "device error not named with its status: rc $rc, '$err'"
expect "a failed batch changes nothing" "$(q "$va" | cut -d/ -f1)" invalid
out=$(ctl --json free 999999); rc=$?
expect "JSON error names the status" "$(echo "$out" | jstr name)/$rc" "BAD_HANDLE/4"
err=$(ctl free 999999 2>&1)
expect "text error" "$err" "gmmuctl: free: BAD_HANDLE: Unknown allocation or address-space handle (device status 4)"

# pt-stats: the page-table work counters move with a mapping.
w0=$(ctl --json pt-stats | json words_written)
ctl update "$as" - <<<"map $va 64K $alloc" >/dev/null || fail "map for pt-stats"
w1=$(ctl --json pt-stats | json words_written)
[ -n "$w0" ] && [ -n "$w1" ] && [ "$w1" -gt "$w0" ] || fail "pt-stats words_written $w0 -> $w1"
ctl pt-stats | grep -Eq '^inv_timeouts +[0-9]+$' || fail "pt-stats text"

ctl unmap "$as" "$va" 1M || fail "unmap the reservation"
ctl free "$alloc" || fail "free"
ctl as-destroy "$as" || fail "as-destroy"
[ $status -eq 0 ] && echo "gmmuctl_update: every step as expected"
exit $status
