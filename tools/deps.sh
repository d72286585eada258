#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs everything the project needs from its own files: Debian packages
# (apt-get) and a repo-local Python venv with pinned packages. Idempotent: a
# second run with everything present does nothing and takes well under a second.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.venv"
STAMP="$VENV/.deps-stamp"

APT_PACKAGES=(verilator gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
              libcmocka-dev yosys clang libclang-rt-14-dev python3-venv newlib-source pkgconf clang-format)

# The commands and files that prove each package is present, so the common
# case costs no dpkg or apt calls.
have_tools() {
  command -v verilator >/dev/null && command -v riscv64-unknown-elf-gcc >/dev/null &&
  [ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] &&
  ls /usr/src/newlib/newlib-*.tar.* >/dev/null 2>&1 &&
  [ -f /usr/include/cmocka.h ] && command -v yosys >/dev/null && command -v pkg-config >/dev/null && command -v clang-format >/dev/null &&
  command -v clang >/dev/null && ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1
}

install_apt() {
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "deps: missing tools and not root; install: ${APT_PACKAGES[*]}" >&2
    exit 1
  fi
  local SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "deps: installing Debian packages: ${APT_PACKAGES[*]}"
  $SUDO apt-get update -qq || { echo "deps: apt-get update failed; install by hand: ${APT_PACKAGES[*]}" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${APT_PACKAGES[@]}" >/dev/null ||
    { echo "deps: apt-get install failed; install by hand: ${APT_PACKAGES[*]}" >&2; exit 1; }
}

if ! have_tools; then
  command -v apt-get >/dev/null || { echo "deps: no apt-get here; install: ${APT_PACKAGES[*]}" >&2; exit 1; }
  install_apt
  have_tools || { echo "deps: tools still missing after apt-get; install: ${APT_PACKAGES[*]}" >&2; exit 1; }
fi

REQ="$ROOT/tools/requirements.txt"
if [ ! -f "$STAMP" ] || [ "$REQ" -nt "$STAMP" ]; then
  PY=$(command -v python3) || { echo "deps: python3 is missing; install python3" >&2; exit 1; }
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV" ||
    { echo "deps: could not create a venv; install python3-venv" >&2; exit 1; }
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ" ||
    { echo "deps: pip install failed; check access to PyPI" >&2; exit 1; }
  touch "$STAMP"
fi
