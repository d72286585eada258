#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The demo's steps done by hand with gmmuctl (docs/getting-started.md):
# address space, allocation, mapping with each page size, engine fill and
# checksum, aperture read and write, query, Zero range, a read-only fault,
# and teardown back to the starting VRAM. Expected values are computed here.
#   gmmuctl_session.sh GMMUCTL      (GMMU_DEVICE names the device)
set -uo pipefail
ctl() { "$gmmuctl" -d "$GMMU_DEVICE" --timeout 120000 "$@"; }
gmmuctl=$1
status=0
fail() { echo "gmmuctl_session: $*"; status=1; }
# json FIELD: the number after "FIELD": in stdin.
json() { grep -Eo "\"$1\": [0-9]+" | head -1 | grep -Eo '[0-9]+$'; }
expect() { # what, got, want (an empty answer never matches)
  [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

free0=$(ctl --json vram | json free_bytes)
# The VRAM segment (id 1, the second listed) holds what GET_VRAM does not
# count as free; a 2 MB allocation adds exactly 2 MiB to it.
segment_bytes=$(ctl --json vram | json segment_bytes)
segments=$(ctl --json segments)
expect "segments" "$(grep -Eo '"id": [0-9]+, "kind": "[a-z]+"' <<<"$segments" | tr '\n' ';')" \
  '"id": 0, "kind": "system";"id": 1, "kind": "memory";"id": 2, "kind": "aperture";'
vram_in_use() { ctl --json segments | grep -Eo '"in_use": [0-9]+' | sed -n 2p | grep -Eo '[0-9]+$'; }
in_use0=$(vram_in_use)
expect "VRAM in use" "$in_use0" $((segment_bytes - free0))
as=$(ctl --json as-create | json as) || fail "as-create"
in_use1=$(vram_in_use)   # the address space's root table
alloc=$(ctl --json alloc 2M,contig | json handle)
expect "VRAM in use after 2 MiB" "$(vram_in_use)" $((in_use1 + 2 * 1024 * 1024))
alloc2=$(ctl --json alloc 64K,contig | json handle)
[ -n "$as" ] && [ -n "$alloc" ] && [ -n "$alloc2" ] || { fail "setup"; exit 1; }

# One 2 MB page, then 4 KB pages of the same allocation elsewhere.
va2m=$(ctl --json map "$as" "$alloc" 2M pages=2m | json va)
out=$(ctl --json query "$as" $((va2m + 0x12345))); expect "2 MB page" "$(echo "$out" | json page_shift)" 21
va4k=$(ctl --json map "$as" "$alloc" 64K offset=64K pages=4k | json va)
out=$(ctl --json query "$as" "$va4k"); expect "4 KB page" "$(echo "$out" | json page_shift)" 12
# Both VAs reach the same bytes: 64 KiB into the 2 MB page is the 4 KB mapping's start.
pa2m=$(ctl --json query "$as" $((va2m + 0x10000)) | json pa)
pa4k=$(ctl --json query "$as" "$va4k" | json pa)
expect "aliases" "$pa4k" "$pa2m"
vaRO=$(ctl --json map "$as" "$alloc2" 64K ro pages=64k | json va)
out=$(ctl --json query "$as" "$vaRO"); expect "64 KB read-only page" "$(echo "$out" | json page_shift)/$(echo "$out" | json flags)" 16/1

# Fill 4 KiB through the 4 KB mapping; read it back through the 2 MB one
# (the engine's checksum) and through the aperture.
out=$(ctl --json run 0 fill "$as" len=4096 dst="$va4k" pattern=0x0102030405060708)
expect "fill" "$(echo "$out" | json bytes_done)" 4096
# 512 words of w: s1 = 512 w, s2 = w * 512 * 513 / 2 (mod 2^64).
read -r s1 s2 < <(python3 -c 'w=0x0102030405060708; print(512*w % 2**64, w*512*513//2 % 2**64)')
out=$(ctl --json run 1 checksum "$as" len=4096 src=$((va2m + 0x10000)))
expect "checksum s1" "$(echo "$out" | json result)" "$s1"
expect "checksum s2" "$(echo "$out" | json result2)" "$s2"
words=$(ctl read "$pa4k" 16 | cut -d: -f2 | xargs)
expect "aperture read" "$words" "05060708 01020304 05060708 01020304"
ctl write "$pa4k" 0xdeadbeef 0 || fail "aperture write"
out=$(ctl --json run 2 checksum "$as" len=64 src="$va4k")
expect "checksum after the aperture write" "$(echo "$out" | json result)" \
  "$(python3 -c 'w=0x0102030405060708; print((0xdeadbeef + 7*w) % 2**64)')"

# A Zero range reads as zeros.
vaz=$(ctl --json reserve "$as" 1M | json va)
ctl zero "$as" "$vaz" 1M || fail "zero"
out=$(ctl --json run 3 checksum "$as" len=65536 src="$vaz")
expect "zero range" "$(echo "$out" | json result)/$(echo "$out" | json bytes_done)" 0/65536

# A write to the read-only range faults (exit status 1) and is reported.
out=$(ctl --json run 0 fill "$as" len=64 dst="$vaRO"); rc=$?
expect "read-only fault status" "$rc/$(echo "$out" | json reason)" 1/2
out=$(ctl --json faults --wait 2000)
grep -q "\"va\": $vaRO, .*\"reason\": \"READ_ONLY\"" <<<"$out" || fail "fault event: $out"

# Host pages as a list (nothing touches them): two runs, the first a
# 64 KB-aligned run of 16 pages mapped with one 64 KB page; a page given
# twice is refused.
out=$(ctl --json alloc-pages 0x123450000:16 0x123400000 0x123401000:2)
expect "page list runs/size" "$(echo "$out" | json extents)/$(echo "$out" | json size)" 2/77824
plist=$(echo "$out" | json handle)
vapl=$(ctl --json map "$as" "$plist" 77824 | json va)
out=$(ctl --json query "$as" "$vapl"); expect "listed 64 KB page" "$(echo "$out" | json page_shift)/$(echo "$out" | json pa)" 16/$((0x123450000))
out=$(ctl --json query "$as" $((vapl + 0x11008))); expect "listed 4 KB page" "$(echo "$out" | json page_shift)/$(echo "$out" | json pa)" 12/$((0x123401008))
ctl alloc-pages 0x123400000 0x123400000 2>/dev/null && fail "a page twice was accepted"
ctl free "$plist" || fail "free the page list"

# Teardown: FREE unmaps from every address space; VRAM as at the start.
ctl unmap "$as" "$vaz" 1M || fail "unmap zero range"
for h in "$alloc" "$alloc2"; do ctl free "$h" || fail "free $h"; done
ctl as-destroy "$as" || fail "as-destroy"
expect "VRAM back" "$(ctl --json vram | json free_bytes)" "$free0"
out=$(ctl --json query "$as" "$va2m"); rc=$?
expect "destroyed address space (BAD_HANDLE)" "$rc" 4
expect "map with a bad argument count is a usage error" "$(ctl map 1 >/dev/null 2>&1; echo $?)" 64
[ $status -eq 0 ] && echo "gmmuctl_session: every step as expected"
exit $status
