# SPDX-License-Identifier: Apache-2.0
"""The Python binding without a device: generated definitions up to date,
its ctypes structures laid out as libgmmu's C ones, versions, errors."""
import pathlib
import shutil
import subprocess
import sys

import pytest

import gmmu

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_defs_are_generated_from_the_toml_and_version():
    r = subprocess.run([sys.executable, str(ROOT / "python" / "gen_defs.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_version_is_the_one_version():
    version = (ROOT / "VERSION").read_text().strip()
    assert gmmu.__version__ == version
    assert gmmu.library_version == version


# Each structure of libgmmu.h the binding mirrors: (C type, ctypes class,
# fields whose offsets must agree).
MIRRORED = [
    ("struct gmmu_event", gmmu.Event, ["type", "seq", "fence", "lost", "payload_len", "u"]),
    ("struct gmmu_ident", gmmu.Ident, [n for n, _ in gmmu.Ident._fields_]),
    ("struct gmmu_mmu_perf", gmmu._MmuPerf, ["c", "port"]),
]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_structures_match_libgmmu_h(tmp_path):
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "libgmmu.h"',
             "int main(void) {"]
    for ctype, _, fields in MIRRORED:
        lines.append(f'    printf("%zu\\n", sizeof({ctype}));')
        for f in fields:
            lines.append(f'    printf("%zu\\n", offsetof({ctype}, {f}));')
    lines += ["    return 0;", "}"]
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run(["cc", "-std=c11", "-I", str(ROOT / "include"), "-I",
                    str(ROOT / "host" / "libgmmu"), "-o", str(exe), str(src)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                          check=True).stdout.split()]
    want = []
    for _, cls, fields in MIRRORED:
        want.append(gmmu.ctypes.sizeof(cls))
        want += [getattr(cls, f).offset for f in fields]
    assert got == want


def test_payload_sizes_match_the_c_header():
    header = (ROOT / "include" / "gmmu" / "mailbox.h").read_text()
    import re
    sizes = dict(re.findall(r"#define GMMU_([A-Z0-9_]+_BYTES) (\d+)u", header))
    structs = [n for n in sizes if hasattr(gmmu, n) and n not in ("SLOT_BYTES", "BAR0_BYTES",
                                                                   "BAR1_BYTES", "MSG_MAX_BYTES")]
    assert len(structs) >= 20
    for name in structs:
        assert getattr(gmmu, name) == int(sizes[name]), name


def test_errors_name_the_status():
    with pytest.raises(gmmu.HostError) as e:
        gmmu.open("sim:/nonexistent/gmmu.sock")
    assert (e.value.code, e.value.name) == (-9, "E_NO_DEVICE")
    assert "no such device" in str(e.value)
    with pytest.raises(gmmu.HostError) as e:
        gmmu.open("nonsense")
    assert e.value.name == "E_BAD_SPEC"
    err = gmmu.DeviceError(4, "FREE")
    assert err.status is gmmu.Status.BAD_HANDLE
    assert str(err) == "FREE: BAD_HANDLE: Unknown allocation or address-space handle (device status 4)"


def test_update_operations():
    op = gmmu.op_map(0x10000, 0x20000, 7, offset=0x30000, flags=gmmu.MapFlag.READ_ONLY)
    assert (op.op, op.va, op.size, op.alloc_handle, op.arg, op.flags) == (1, 0x10000, 0x20000, 7,
                                                                          0x30000, 1)
    assert gmmu.op_unmap(0, 0x10000, zero=True).flags == gmmu.MapFlag.ZERO
    assert gmmu.op_copy(0x20000, 0x10000, 0x40000).arg == 0x40000
    assert gmmu.op_protect(0, 0x10000, gmmu.MapFlag.NO_EXECUTE).op == gmmu.UpdateOpKind.PROTECT
