#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Print the path of the pinned VexRiscv Verilog variant, found through the
package's data_location so the core is never copied into the repo."""
import pathlib
import sys

import pythondata_cpu_vexriscv as vex

variant = sys.argv[1] if len(sys.argv) > 1 else "VexRiscv"
path = pathlib.Path(vex.data_location) / f"{variant}.v"
if not path.is_file():
    sys.exit(f"vexriscv_path: {path} not found in pythondata-cpu-vexriscv")
print(path)
