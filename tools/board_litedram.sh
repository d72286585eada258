#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates a LiteDRAM standalone core (Verilog + its init CPU's BIOS ROM)
# from a YAML configuration with the pinned litedram/litex/migen, and puts
# it in a shape our Yosys flow reads.
#   board_litedram.sh CONFIG.yml OUT_DIR
# Output: OUT_DIR/litedram_core.v, OUT_DIR/dram_cpu.v,
# OUT_DIR/litedram_core_{rom,sram}.init, OUT_DIR/gen.log. Takes about a minute (most of it building the BIOS).
#
# Edits to the generated Verilog, all mechanical:
#  - the core's init CPU is VexRiscv's "minimal" variant, whose module is
#    called VexRiscv like our SoC's CPU (another variant). Its file from the
#    pinned pythondata-cpu-vexriscv is written to OUT_DIR/dram_cpu.v with
#    every module renamed gmmu_dram_cpu_*, and the core instantiates that;
#  - the generator declares the bidirectional DDR pads (dq, dqs_p) as
#    inputs because it wrote the core without a board; they become inout
#    so the board top can pass its pins through;
#  - $readmemh paths become relative to the repository root, where Yosys
#    runs (the WebAssembly Yosys sees only the working directory).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cfg=$(realpath "$1"); out=$(realpath -m "$2")
mkdir -p "$out"
work="$out/gen"
rm -rf "$work"
echo "litedram: generating the core from ${cfg#$ROOT/} (log: ${out#$ROOT/}/gen.log)"
start=$(date +%s)
# The BIOS build wants meson and ninja from the venv and the Debian
# riscv64-unknown-elf toolchain on PATH.
if ! PATH="$ROOT/.venv/bin:$PATH" "$ROOT/.venv/bin/python" -m litedram.gen \
      --output-dir "$work" "$cfg" >"$out/gen.log" 2>&1; then
  tail -30 "$out/gen.log"
  echo "litedram: generation failed (log: $out/gen.log)" >&2
  exit 1
fi
rel=$(realpath --relative-to="$ROOT" "$out")
variant=$(sed -n 's/^cpu_variant: *\([a-z+]*\).*/\1/p' "$cfg")
case "${variant:-standard}" in
  minimal) cpu_file=VexRiscv_Min.v ;;
  lite) cpu_file=VexRiscv_Lite.v ;;
  standard) cpu_file=VexRiscv.v ;;
  *) echo "litedram: add the file of cpu_variant $variant to tools/board_litedram.sh" >&2; exit 1 ;;
esac
cpu_src="$(dirname "$("$ROOT/.venv/bin/python" "$ROOT/tools/vexriscv_path.py" VexRiscv)")/$cpu_file"
modules=$(sed -n 's/^module \([A-Za-z_0-9]*\).*/\1/p' "$cpu_src")
rename=()
for m in $modules; do rename+=(-e "s/\b$m\b/gmmu_dram_cpu_$m/g"); done
sed "${rename[@]}" "$cpu_src" > "$out/dram_cpu.v"
sed -e 's/^VexRiscv VexRiscv(/gmmu_dram_cpu_VexRiscv VexRiscv(/' \
    -e 's/^\(\s*\)input  wire   \[15:0\] ddram_dq,/\1inout  wire   [15:0] ddram_dq,/' \
    -e 's/^\(\s*\)input  wire    \[1:0\] ddram_dqs_p,/\1inout  wire    [1:0] ddram_dqs_p,/' \
    -e "s#\$readmemh(\"litedram_core_#\$readmemh(\"$rel/litedram_core_#" \
    "$work/gateware/litedram_core.v" > "$out/litedram_core.v"
cp "$work/gateware/litedram_core_rom.init" "$work/gateware/litedram_core_sram.init" "$out/"
grep -q '^gmmu_dram_cpu_VexRiscv VexRiscv(' "$out/litedram_core.v" ||
  { echo "litedram: could not rename the init CPU (generator output changed?)" >&2; exit 1; }
grep -q 'inout  wire   \[15:0\] ddram_dq' "$out/litedram_core.v" ||
  { echo "litedram: could not turn ddram_dq into an inout (generator output changed?)" >&2; exit 1; }
grep -q 'inout  wire    \[1:0\] ddram_dqs_p' "$out/litedram_core.v" ||
  { echo "litedram: could not turn ddram_dqs_p into an inout (generator output changed?)" >&2; exit 1; }
rom=$(grep -o 'ROM usage: [0-9.]*KiB' "$out/gen.log" | head -1 || true)
echo "litedram: done in $(( $(date +%s) - start )) s (${rom:-ROM usage unknown}): ${out#$ROOT/}/litedram_core.v"
