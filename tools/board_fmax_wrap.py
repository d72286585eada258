#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a wrapper that lets place and route time one module on its own.

    board_fmax_wrap.py MODULE.sv OUT.sv [--pkg PKG.sv ...] [--clk clk_i] [--rst rst_ni]
                       [--config-of BOARD_TOP.sv --via PARENT.sv]

A module with hundreds of port bits (mmu_top) cannot be placed as a chip top:
there are not enough pins, and pins would put I/O delays into its paths.
The wrapper `fmax_wrap` has three pins (clk_i, rst_ni, seed_i, and one output)
and surrounds the module with registers, as the SoC does:
  - every input bit comes from a flip-flop of one long shift register (fed
    by seed_i), so input paths start at a register;
  - every output bit goes into a flip-flop, and the flip-flops are folded by
    XOR, four bits per register stage, down to the one output pin, so output
    paths end at a register and the folding adds no long paths;
  - the module's reset is synchronised.
The module's own register-to-register paths are then what limits Fmax.
Widths come from the module's parameters (defaults, or the board's values
below) and the packages' localparams.

--config-of/--via time the module as a board builds it: PARENT.sv
instantiates it with parameters from its own (`.NWalkers(MmuWalkers)`),
and the board top sets those (`parameter int unsigned MmuWalkers = 2`);
the wrapper passes the board's values to the module.
"""
import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "boards"))
import check_board_ports as cbp  # noqa: E402  (port parser shared with the port check)


def module_params(path, params, overrides):
    """Evaluates `parameter int unsigned X = expr` defaults in order; a
    parameter in overrides takes that value instead (and later defaults
    derived from it follow)."""
    text = cbp.strip_comments(open(path).read())
    head = ""
    m = re.search(r"\bmodule\s+\w+\s*(?:import[^;]*;\s*)*#\s*\(", text)
    if m:
        head = text[m.end() - 1:cbp.match_paren(text, m.end() - 1)]
    out = dict(params)
    for m in re.finditer(r"parameter\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*([^\n]+)", head):
        name, expr = m.group(1), m.group(2).strip().rstrip(",").strip()
        if expr.endswith(")") and expr.count(")") > expr.count("("):
            expr = expr[:-1].strip()  # the list's closing parenthesis
        e = re.sub(r"\b\w+::(\w+)", r"\1", expr)
        e = re.sub(r"\$clog2", "clog2", e)
        e = re.sub(r"\b([A-Za-z_]\w*)\b", lambda t: str(out[t.group(1)]) if t.group(1) in out else t.group(1), e)
        try:
            out[name] = int(eval(e, {"clog2": lambda v: max(0, math.ceil(math.log2(v))) if v > 1 else 0}))
        except Exception as exc:  # noqa: BLE001
            raise ValueError(f"cannot evaluate parameter {name} = {expr}") from exc
        out[name] = overrides.get(name, out[name])
    return out


def sv_int(text):
    """4, 32'd4, 1'b0 -> int."""
    m = re.fullmatch(r"\s*(?:\d*'([bdh]))?\s*([0-9a-fA-F_]+)\s*", text)
    if not m:
        raise ValueError(f"not a number: {text!r}")
    base = {"b": 2, "h": 16, "d": 10, None: 10}[m.group(1)]
    return int(m.group(2).replace("_", ""), base)


def board_config(module, board_top, parent):
    """{module parameter: value} as board_top sets them through parent."""
    ptext = cbp.strip_comments(open(parent).read())
    m = re.search(rf"\b{module}\s*#\s*\(", ptext)
    if not m:
        raise ValueError(f"{parent} does not instantiate {module} with parameters")
    plist = ptext[m.end() - 1:cbp.match_paren(ptext, m.end() - 1)]
    via = dict((outer, inner) for inner, outer in re.findall(r"\.(\w+)\s*\(\s*(\w+)\s*\)", plist))
    btext = cbp.strip_comments(open(board_top).read())
    out = {}
    for name, value in re.findall(r"parameter\s+(?:int\s+unsigned\s+|int\s+|bit\s+)?(\w+)\s*=\s*([^,\n)]+)", btext):
        if name in via:
            out[via[name]] = sv_int(value)
    if not out:
        raise ValueError(f"{board_top} sets none of {sorted(via)}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("module")
    ap.add_argument("out")
    ap.add_argument("--pkg", action="append", default=[])
    ap.add_argument("--clk", default="clk_i")
    ap.add_argument("--rst", default="rst_ni")
    ap.add_argument("--config-of", help="board top whose parameters configure the module")
    ap.add_argument("--via", help="the module's parent, which maps the board's parameters onto it")
    a = ap.parse_args()
    if bool(a.config_of) != bool(a.via):
        ap.error("--config-of and --via go together")
    pkg = {}
    for p in a.pkg:
        text = cbp.strip_comments(open(p).read())
        for m in re.finditer(r"localparam\s+(?:int\s+unsigned\s+|int\s+|logic\s*\[[^\]]*\]\s*)?(\w+)\s*=\s*([^;]+);", text):
            e = re.sub(r"\b\w+::(\w+)", r"\1", m.group(2))
            e = re.sub(r"\b([A-Za-z_]\w*)\b", lambda t: str(pkg.get(t.group(1), t.group(1))), e)
            try:
                pkg[m.group(1)] = int(eval(e.replace("'d", "").replace("$clog2", "clog2"),
                                           {"clog2": lambda v: max(0, math.ceil(math.log2(v)))}))
            except Exception:  # noqa: BLE001  (types, strings: not widths)
                pass
    mtext = cbp.strip_comments(open(a.module).read())
    name = re.search(r"\bmodule\s+(\w+)", mtext).group(1)
    overrides = board_config(name, a.config_of, a.via) if a.config_of else {}
    params = module_params(a.module, pkg, overrides)
    name, ports = cbp.module_ports(a.module, params)
    unknown = sorted(k for k in overrides if not re.search(rf"parameter\s+[^=;]*\b{k}\s*=", mtext))
    if unknown:
        raise SystemExit(f"board_fmax_wrap: {name} has no parameter {', '.join(unknown)}")
    ins = [(p, w) for p, d, w in ports if d == "input" and p not in (a.clk, a.rst)]
    outs = [(p, w) for p, d, w in ports if d == "output"]
    n_in = sum(w for _, w in ins)
    n_out = sum(w for _, w in outs)
    L = []
    A = L.append
    A(f"// GENERATED by tools/board_fmax_wrap.py from {a.module}: registers around")
    A(f"// {name} ({n_in} input and {n_out} output bits) for a timing-only place and route.")
    A("module fmax_wrap (")
    A("  input  logic clk_i,")
    A("  input  logic rst_ni,")
    A("  input  logic seed_i,")
    A("  output logic out_o")
    A(");")
    A("  logic [1:0] rst_q;")
    A("  always_ff @(posedge clk_i or negedge rst_ni) begin")
    A("    if (!rst_ni) rst_q <= 2'b00;")
    A("    else         rst_q <= {rst_q[0], 1'b1};")
    A("  end")
    A(f"  logic [{n_in}:0] in_q;")
    A(f"  always_ff @(posedge clk_i) in_q <= {{in_q[{n_in - 1}:0], seed_i ^ in_q[{n_in}]}};")
    A(f"  logic [{n_out - 1}:0] out_w, out_q;")
    A("  always_ff @(posedge clk_i) out_q <= out_w;")
    conns = [f"    .{a.clk} (clk_i)", f"    .{a.rst} (rst_q[1])"]
    pos = 0
    for p, w in ins:
        conns.append(f"    .{p} (in_q[{pos + w - 1}:{pos}])")
        pos += w
    pos = 0
    for p, w in outs:
        conns.append(f"    .{p} (out_w[{pos + w - 1}:{pos}])")
        pos += w
    if overrides:
        plist = ", ".join(f".{k}({v})" for k, v in sorted(overrides.items()))
        A(f"  {name} #({plist}) u_dut (")
    else:
        A(f"  {name} u_dut (")
    A(",\n".join(conns))
    A("  );")
    # XOR folding, 4:1 per registered stage
    width, stage, src = n_out, 0, "out_q"
    while width > 1:
        nxt = (width + 3) // 4
        A(f"  logic [{nxt - 1}:0] fold{stage}_q;")
        A("  always_ff @(posedge clk_i) begin")
        for i in range(nxt):
            bits = [f"{src}[{j}]" for j in range(4 * i, min(4 * i + 4, width))]
            A(f"    fold{stage}_q[{i}] <= {' ^ '.join(bits)};")
        A("  end")
        width, src, stage = nxt, f"fold{stage}_q", stage + 1
    A(f"  assign out_o = {src}[0];")
    A("endmodule : fmax_wrap")
    with open(a.out, "w") as f:
        f.write("\n".join(L) + "\n")
    config = " ".join(f"{k}={v}" for k, v in sorted(overrides.items())) or "defaults"
    print(f"board_fmax_wrap: {a.out}: {name} ({config}) with {n_in} input and {n_out} output bits, "
          f"{stage} fold stages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
