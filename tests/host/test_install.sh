#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make install into a temporary prefix (and into a DESTDIR staging tree),
# then host/examples/gmmu_hello.c built against the installed library with
# pkg-config alone, linked to the shared library by its soname and run
# (opening a device that does not exist gives the expected error); also
# linked statically, and the installed gmmuctl and its man page.
#   test_install.sh MAKE
set -uo pipefail
make_cmd=${1:-make}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
status=0
fail() { echo "test_install: $*"; status=1; }
command -v pkg-config >/dev/null || { echo "test_install: pkg-config is missing (apt-get install pkgconf)"; exit 1; }
tmp=$(mktemp -d /tmp/gmmu-install.XXXXXX); trap 'rm -rf "$tmp"' EXIT
version=$(tr -d ' \n' <VERSION)
major=${version%%.*}
prefix=$tmp/prefix

# A staged install puts everything under DESTDIR and names PREFIX inside.
$make_cmd --no-print-directory -s install PREFIX=/opt/gmmu DESTDIR="$tmp/stage" >"$tmp/stage.log" 2>&1 ||
  { cat "$tmp/stage.log"; fail "staged install failed"; }
for f in bin/gmmuctl lib/libgmmu.a "lib/libgmmu.so.$version" "lib/libgmmu.so.$major" lib/libgmmu.so \
         lib/pkgconfig/gmmu.pc include/gmmu/libgmmu.h include/gmmu/libgmmu_vidmm.h \
         include/gmmu/gmmu_transport.h include/gmmu/gmmu_version.h include/gmmu/mailbox.h \
         share/man/man1/gmmuctl.1; do
  [ -e "$tmp/stage/opt/gmmu/$f" ] || fail "staged install lacks /opt/gmmu/$f"
done
grep -qx 'prefix=/opt/gmmu' "$tmp/stage/opt/gmmu/lib/pkgconfig/gmmu.pc" || fail "staged gmmu.pc: $(head -3 "$tmp/stage/opt/gmmu/lib/pkgconfig/gmmu.pc")"

$make_cmd --no-print-directory -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "install failed"; exit 1; }
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
got=$(pkg-config --modversion gmmu) || fail "pkg-config does not find gmmu"
[ "$got" = "$version" ] || fail "pkg-config --modversion: '$got', VERSION: '$version'"
soname=$(readelf -d "$prefix/lib/libgmmu.so.$version" | sed -nE 's/.*SONAME.*\[(.*)\]/\1/p')
[ "$soname" = "libgmmu.so.$major" ] || fail "soname '$soname', want libgmmu.so.$major"

# Only the installed headers: the example must not see the source tree.
cp host/examples/gmmu_hello.c "$tmp/"
(cd "$tmp" && ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic gmmu_hello.c \
   $(pkg-config --cflags --libs gmmu) -o hello) || fail "cannot build the example against the installed library"
# Outputs are taken whole before grep -q: with pipefail, grep -q leaving
# early can kill the writer with SIGPIPE and fail a pipeline that matched.
dyn=$(readelf -d "$tmp/hello")
grep -q "NEEDED.*\[libgmmu.so.$major\]" <<<"$dyn" || fail "the example does not need libgmmu.so.$major"
out=$(LD_LIBRARY_PATH=$prefix/lib "$tmp/hello" sim:/nonexistent/gmmu.sock); rc=$?
expect="libgmmu $version (built against $version)
open sim:/nonexistent/gmmu.sock: E_NO_DEVICE: no such device"
[ $rc -eq 1 ] && [ "$out" = "$expect" ] || fail "the example: exit $rc, printed: $out"
libs=$(LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/hello")
grep -q "libgmmu.so.$major => $prefix/lib/" <<<"$libs" ||
  fail "the example does not load the installed library: $libs"

# Static: the archive and pkg-config's private libraries.
(cd "$tmp" && ${CC:-cc} -std=c11 gmmu_hello.c $(pkg-config --cflags gmmu) "$prefix/lib/libgmmu.a" \
   $(pkg-config --static --libs-only-other gmmu) -o hello-static) || fail "static link failed"
readelf -d "$tmp/hello-static" | grep -q "libgmmu" && fail "the static example needs libgmmu.so"
out=$("$tmp/hello-static" sim:/nonexistent/gmmu.sock); [ "$out" = "$expect" ] || fail "static example: $out"

# The headers compile as C++ too.
printf '#include <gmmu/libgmmu.h>\nint main() { return gmmu_version() ? 0 : 1; }\n' >"$tmp/cxx.cpp"
${CXX:-c++} -std=c++11 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags gmmu) "$tmp/cxx.cpp" ||
  fail "the headers do not compile as C++"

v=$("$prefix/bin/gmmuctl" --version)
[ "${v%%$'\n'*}" = "gmmuctl $version" ] || fail "installed gmmuctl --version"
if command -v man >/dev/null; then
  page=$(MANWIDTH=80 man -l "$prefix/share/man/man1/gmmuctl.1" 2>/dev/null)
  grep -q 'gmmuctl - control a GPU MMU' <<<"$page" || fail "the man page does not render"
else
  grep -q '^\.TH GMMUCTL 1' "$prefix/share/man/man1/gmmuctl.1" || fail "the man page is not installed"
fi

$make_cmd --no-print-directory -s uninstall PREFIX="$prefix" >/dev/null 2>&1 || fail "uninstall failed"
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left"
[ $status -eq 0 ] && echo "test_install: libgmmu $version installed, found by pkg-config, linked (soname libgmmu.so.$major) and run"
exit $status
