#!/usr/bin/env python3
"""Checks that the UART link constants agree between the C header and the SV
package (the protocol is defined in include/gmmu/uartlink.h; the RTL copy in
rtl/pkg/gmmu_uartlink_pkg.sv is written by hand).

    check_uartlink_defs.py include/gmmu/uartlink.h rtl/pkg/gmmu_uartlink_pkg.sv

Every GMMU_UARTLINK_<NAME> constant of the header (#define or enum member)
must be a UARTLINK_<NAME> localparam of the package with the same value, and
the other way round. Also checks the frame sizes against the documented
layouts and the CRC parameters against the CRC-16/CCITT-FALSE check value.
Prints one line per constant compared and exits 1 on any difference.
"""
import re
import sys

C_PREFIX = "GMMU_UARTLINK_"
SV_PREFIX = "UARTLINK_"
# Names of the header that are not protocol constants.
C_IGNORE = {"GMMU_UARTLINK_H"}


def c_int(text):
    text = text.strip().rstrip("uUlL")
    return int(text, 0)


def parse_c(path):
    src = open(path, encoding="utf-8").read()
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    consts = {}
    for m in re.finditer(r"^\s*#define\s+(GMMU_UARTLINK_\w+)\s+(\S+)\s*$", src, re.M):
        if m.group(1) not in C_IGNORE:
            consts[m.group(1)[len(C_PREFIX):]] = c_int(m.group(2))
    for body in re.findall(r"enum\s+gmmu_uartlink_\w+\s*\{(.*?)\}", src, re.S):
        for m in re.finditer(r"(GMMU_UARTLINK_\w+)\s*=\s*([0-9a-fA-FxX]+)", body):
            consts[m.group(1)[len(C_PREFIX):]] = c_int(m.group(2))
    return consts


def sv_int(text):
    text = text.strip().replace("_", "")
    m = re.fullmatch(r"(\d+)?'([hHdDbB])([0-9a-fA-F]+)", text)
    if m:
        return int(m.group(3), {"h": 16, "d": 10, "b": 2}[m.group(2).lower()])
    return int(text, 10)


def parse_sv(path):
    src = open(path, encoding="utf-8").read()
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    consts = {}
    for m in re.finditer(r"localparam\s+[^=;]*?\b(UARTLINK_\w+)\s*=\s*([^;]+);", src):
        consts[m.group(1)[len(SV_PREFIX):]] = sv_int(m.group(2))
    return consts


def crc16(data, poly, init):
    crc = init
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ poly if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: check_uartlink_defs.py HEADER.h PACKAGE.sv", file=sys.stderr)
        return 2
    c = parse_c(argv[1])
    sv = parse_sv(argv[2])
    errors = 0
    if len(c) < 20 or len(sv) < 20:
        print(f"FAIL: parsed only {len(c)} C and {len(sv)} SV constants")
        return 1
    for name in sorted(set(c) | set(sv)):
        if name not in sv:
            print(f"FAIL: {C_PREFIX}{name} = {c[name]:#x} has no {SV_PREFIX}{name} in the package")
            errors += 1
        elif name not in c:
            print(f"FAIL: {SV_PREFIX}{name} = {sv[name]:#x} has no {C_PREFIX}{name} in the header")
            errors += 1
        elif c[name] != sv[name]:
            print(f"FAIL: {name}: header {c[name]:#x}, package {sv[name]:#x}")
            errors += 1
        else:
            print(f"ok    {name} = {c[name]:#x}")
    # Layouts: SOF type seq bar offset(3) data(4) crc(2); SOF type seq status data(4) crc(2)
    if c.get("REQ_BYTES") != 1 + 1 + 1 + 1 + 3 + 4 + 2:
        print("FAIL: REQ_BYTES does not match the request layout")
        errors += 1
    if c.get("RSP_BYTES") != 1 + 1 + 1 + 1 + 4 + 2:
        print("FAIL: RSP_BYTES does not match the response layout")
        errors += 1
    check = crc16(b"123456789", c.get("CRC_POLY", 0), c.get("CRC_INIT", 0))
    if check != 0x29B1:
        print(f"FAIL: CRC parameters give check value {check:#06x}, CRC-16/CCITT-FALSE is 0x29b1")
        errors += 1
    print(f"{len(c)} constants compared, {errors} differences")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
