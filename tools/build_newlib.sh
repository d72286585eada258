#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds newlib for the firmware (rv32im/ilp32, nano configuration) from
# Debian's newlib-source tarball with the installed riscv64-unknown-elf-gcc.
# Debian ships no RISC-V newlib, and a build takes a minute or more, so it is
# kept in a cache outside the work tree, keyed by a hash of every input (the
# tarball, the compiler and assembler versions, this script with its flags):
# a changed input gets a new directory, an unchanged one is reused.
#
#   build_newlib.sh            build unless cached; prints the cache directory
#   build_newlib.sh --prefix   only print the cache directory (no build)
#
# The cache directory holds include/ and lib/ (libc.a, libm.a, libg.a).
# Nothing is downloaded.
set -euo pipefail

TARGET=riscv64-unknown-elf
CC_TARGET="$TARGET-gcc -march=rv32im -mabi=ilp32 -misa-spec=2.2"
# Function and data sections let the firmware's --gc-sections drop what it
# does not call.
CFLAGS_TARGET="-Os -g -ffunction-sections -fdata-sections"
# Nano configuration: small printf/scanf without floating point, small
# malloc and reent, no syscalls of newlib's own (firmware/sys supplies them).
NEWLIB_OPTIONS=(
  --disable-multilib
  --disable-libgloss
  --disable-nls
  --enable-target-optspace
  --enable-newlib-nano-formatted-io
  --enable-newlib-nano-malloc
  --enable-newlib-reent-small
  --enable-lite-exit
  --disable-newlib-supplied-syscalls
  --disable-newlib-fvwrite-in-streamio
  --disable-newlib-fseek-optimization
  --disable-newlib-wide-orient
  --disable-newlib-unbuf-stream-opt
  --disable-newlib-io-float
)
BUILD_JOBS=2
PROGRESS_SECONDS=30

die() { echo "newlib: $*" >&2; exit 1; }

source_tarball() {
  local found=(/usr/src/newlib/newlib-*.tar.*)
  [ -f "${found[0]}" ] || die "no source tarball in /usr/src/newlib; install newlib-source (make deps)"
  [ "${#found[@]}" -eq 1 ] || die "more than one tarball in /usr/src/newlib: ${found[*]}"
  echo "${found[0]}"
}

cache_root() {
  echo "${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/gmmu"
}

inputs_hash() {
  command -v "$TARGET-gcc" >/dev/null || die "$TARGET-gcc is missing (make deps)"
  {
    sha256sum "$1" | cut -d' ' -f1
    "$TARGET-gcc" --version | head -1
    "$TARGET-as" --version | head -1
    sha256sum "$0" | cut -d' ' -f1
  } | sha256sum | cut -c1-16
}

# Prints a line now and then while the build's output streams by, so a
# long build shows it is alive without flooding the log.
show_progress() {
  local compiled=0 last=$SECONDS line
  while IFS= read -r line; do
    case "$line" in *"$TARGET-gcc"*" -c "*) compiled=$((compiled + 1)) ;; esac
    if [ $((SECONDS - last)) -ge "$PROGRESS_SECONDS" ]; then
      last=$SECONDS
      echo "newlib: $1: $compiled files compiled, ${SECONDS}s"
    fi
  done
}

# tar needs the xz program for a .tar.xz, which a minimal Debian may lack;
# Python's tarfile (python3 is a project dependency) reads it by itself.
unpack() {
  if command -v xz >/dev/null; then
    tar -xf "$1" -C "$2"
  else
    python3 -m tarfile -e "$1" "$2"
  fi
}

run_logged() {
  local step=$1 log=$2; shift 2
  echo "newlib: $step"
  if ! "$@" 2>&1 | tee -a "$log" | show_progress "$step"; then
    tail -n 30 "$log" >&2
    die "$step failed; full log: $log"
  fi
}

build_into() {
  local tarball=$1 dest=$2 work=$3
  local log="$dest.log" top
  : >"$log"
  echo "newlib: building $(basename "$tarball") for rv32im/ilp32 into $dest (about a minute on 2 cores)"
  # Run from a firmware make, the parent's flags and variables would
  # reach newlib's own makes.
  unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
  mkdir -p "$work/src"
  run_logged "unpacking" "$log" unpack "$tarball" "$work/src"
  top=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d)
  mkdir -p "$work/build"
  (
    cd "$work/build"
    run_logged "configuring" "$log" "$top/configure" --target="$TARGET" \
      --prefix="$work/install" CC_FOR_TARGET="$CC_TARGET" CFLAGS_FOR_TARGET="$CFLAGS_TARGET" \
      "${NEWLIB_OPTIONS[@]}"
    run_logged "compiling" "$log" make -j"$BUILD_JOBS" all-target-newlib
    run_logged "installing" "$log" make install-target-newlib
  )
  mkdir -p "$dest.partial"
  mv "$work/install/$TARGET/include" "$work/install/$TARGET/lib" "$dest.partial/"
  # Renamed only when complete, so an interrupted build is never reused.
  mv "$dest.partial" "$dest"
  rm -f "$log"
  echo "newlib: built in ${SECONDS}s, cached at $dest"
}

main() {
  local tarball dest root
  tarball=$(source_tarball)
  root=$(cache_root)
  dest="$root/newlib-$(inputs_hash "$tarball")"
  if [ "${1:-}" = "--prefix" ]; then
    echo "$dest"
    return
  fi
  mkdir -p "$root"
  # One build at a time per cache, even with parallel makes.
  exec 9>"$root/newlib.lock"
  flock 9
  if [ -f "$dest/lib/libc.a" ]; then
    echo "newlib: using cached build at $dest"
    return
  fi
  rm -rf "$dest" "$dest.partial"
  scratch=$(mktemp -d "$root/newlib-build.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  build_into "$tarball" "$dest" "$scratch"
}

main "$@"
