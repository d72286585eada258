#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""FuseSoC generator (rtl/soc/vexriscv.core): a core holding the pinned
VexRiscv Verilog variant from the pythondata-cpu-vexriscv package, which is
never copied into the repository. FuseSoC runs it in an empty directory
with the path of its input file (GAPI 1.0: vlnv, parameters); it copies
VEXRISCV.v there under pythondata_cpu_vexriscv/verilog/, the path the
waiver rtl/soc/vexriscv_waiver.vlt names, and writes the core beside it.

Parameters: variant (default VexRiscv).

The package is looked up with this interpreter, else with the project's
venv (.venv, make deps), as tools/vexriscv_path.py does for make.
"""
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_input(path):
    """The few flat keys of FuseSoC's input file (YAML written by FuseSoC:
    `key: value` lines and one nested `parameters:` mapping)."""
    data, params, section = {}, {}, None
    for line in open(path):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, _, value = line.strip().partition(":")
        value = value.strip().strip("'\"")
        if line[0] in " \t" and section == "parameters":
            params[key] = value
        else:
            section = key
            data[key] = value
    data["parameters"] = params
    return data


def vexriscv_path(variant):
    try:
        import pythondata_cpu_vexriscv as vex  # noqa: PLC0415
        path = pathlib.Path(vex.data_location) / f"{variant}.v"
    except ImportError:
        py = ROOT / ".venv" / "bin" / "python"
        if not py.exists():
            sys.exit("fusesoc_vexriscv: pythondata-cpu-vexriscv not found; run make deps")
        out = subprocess.run([str(py), str(ROOT / "tools" / "vexriscv_path.py"), variant],
                             capture_output=True, text=True)
        if out.returncode:
            sys.exit(out.stderr.strip())
        path = pathlib.Path(out.stdout.strip())
    if not path.is_file():
        sys.exit(f"fusesoc_vexriscv: {path} not found in pythondata-cpu-vexriscv")
    return path


def main():
    cfg = read_input(sys.argv[1])
    variant = cfg["parameters"].get("variant", "VexRiscv")
    rel = pathlib.Path("pythondata_cpu_vexriscv") / "verilog" / f"{variant}.v"
    rel.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(vexriscv_path(variant), rel)
    name = cfg["vlnv"]
    core = pathlib.Path(name.split(":")[2] + ".core")
    core.write_text(f"""CAPI=2:
name: {name}
filesets:
  rtl:
    file_type: verilogSource
    files: [{rel.as_posix()}]
targets:
  default:
    filesets: [rtl]
""")


if __name__ == "__main__":
    main()
