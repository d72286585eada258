#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks a board top without the vendor tools.

    check_board_ports.py --top TOP.sv --child CHILD.sv [--child ...]
                         [--xdc F.xdc ...] [--mig F.prj] [--lpf F.lpf]
                         [--no-iostandard REGEX] [--pkg PKG.sv ...]
                         [--bd-tcl BD.tcl --bd-wrapper MODULE]
                         [--trace CHILD_PORT_REGEX=WRAPPER_PORT_REGEX ...]

1. Every port of each CHILD module (e.g. rtl/soc/soc_top.sv) is connected in its
   instance in TOP, and every CHILD input is driven: by a constant, a TOP
   input, an assignment or always block in TOP, or another instance's port.
2. Every bit of every TOP port has a pin: PACKAGE_PIN in an XDC, a Pin of the
   MIG project (name without the _o/_io/_no suffix), or LOCATE in an LPF;
   and an I/O standard (XDC IOSTANDARD, MIG IOSTANDARD, LPF IO_TYPE) unless
   the port matches --no-iostandard (transceiver pins).
3. No pin is used twice, and no constraint names a port TOP does not have.
4. With --bd-tcl: the instance of the block-design wrapper MODULE in TOP
   connects exactly the ports that the block design's external ports
   (create_bd_port, create_bd_intf_port with their CONFIG) give the
   generated wrapper: <port> or <interface>_<signal>, e.g. S_SYSMEM_awcache.
5. With --trace C=W: every wrapper port matching W is connected to a signal
   (not a constant, not left open), and every CHILD port matching C reaches
   one of those signals through TOP's assignments and other instances (at
   instance granularity; clock and reset ports and `unused*` sinks do not
   count as paths). So a CHILD port that ends in a local stub (an error
   slave) while the wrapper's side is tied off fails.

Prints what it checked and every problem; exits 1 on any problem.
"""
import argparse
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def eval_width(expr, params):
    """Bits of a packed range like '[DDR_AXI_ID_BITS-1:0]' (None: scalar)."""
    if not expr:
        return 1
    m = re.fullmatch(r"\[(.+):(.+)\]", expr.replace(" ", ""))
    if not m:
        raise ValueError(f"cannot read range {expr}")
    def ev(e):
        e = re.sub(r"\b(\w+::)?([A-Za-z_]\w*)\b", lambda t: str(params[t.group(2)]) if t.group(2) in params else t.group(0), e)
        if not re.fullmatch(r"[0-9+\-*/() ]+", e):
            raise ValueError(f"unknown name in {expr}")
        return int(eval(e))  # digits and operators only
    return abs(ev(m.group(1)) - ev(m.group(2))) + 1


def read_params(paths):
    params = {}
    for p in paths:
        for m in re.finditer(r"localparam\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*(\d+)\s*;",
                             strip_comments(open(p).read())):
            params[m.group(1)] = int(m.group(2))
    return params


def module_ports(path, params):
    """(name, direction, bits) of the first module's ANSI port list."""
    text = strip_comments(open(path).read())
    m = re.search(r"\bmodule\s+(\w+)", text)
    if not m:
        raise ValueError(f"{path}: no module")
    name = m.group(1)
    # The port list: the parenthesised list after the (optional) parameters.
    i = m.end()
    depth, start, lists = 0, None, []
    while i < len(text):
        c = text[i]
        if c == "(":
            if depth == 0:
                start = i + 1
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                lists.append(text[start:i])
                j = i + 1
                while j < len(text) and text[j].isspace():
                    j += 1
                if text[j] == ";":
                    break
        i += 1
    body = lists[-1]
    # The module's own numeric parameter defaults size its ports too (an
    # instance that overrides one is checked by connection, not by width).
    params = dict(params)
    if len(lists) > 1:
        for pm in re.finditer(r"\bparameter\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*(\d+)\s*[,)]?",
                              lists[0]):
            params.setdefault(pm.group(1), int(pm.group(2)))
    ports = []
    for d in re.finditer(r"\b(input|output|inout)\b([^,;]*?)(\w+)\s*(?=,|$)", body + ",", re.S):
        direction, decl, pname = d.group(1), d.group(2), d.group(3)
        rng = re.search(r"\[[^\]]+\]", decl)
        ports.append((pname, direction, eval_width(rng.group(0) if rng else None, params)))
    return name, ports


def match_paren(text, i):
    """Index just past the parenthesis that closes the one at text[i]."""
    depth = 0
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return i
    raise ValueError("unbalanced parentheses")


def connections(body, implicit):
    """{port: expr} of an instance's port list: `.p (expr)`, and with
    implicit `.p` alone as `.p (p)`. A `.x` right after a name, `]` or `)` is
    a struct member inside an expression, not a port. Connections inside
    connections (.x (f(.y))) cannot occur in our tops."""
    conns = {}
    for c in re.finditer(r"(?<![\w\])])\.(\w+)\s*", body):
        j = c.end()
        if j < len(body) and body[j] == "(":
            conns[c.group(1)] = body[j + 1:match_paren(body, j) - 1].strip()
        elif implicit:
            conns[c.group(1)] = c.group(1)
    return conns


def instance_connections(text, module):
    """(instance name, {port: expr}) of the (single) instance of module."""
    for m in re.finditer(r"\b" + module + r"\b\s*", text):
        i = m.end()
        if text.startswith("#", i):
            i = text.index("(", i)
            i = match_paren(text, i)
        n = re.match(r"\s*(\w+)\s*\(", text[i:])
        if not n:
            continue
        start = i + n.end() - 1
        body = text[start + 1:match_paren(text, start) - 1]
        conns = connections(body, implicit=True)
        if re.search(r"\.\*", body):
            conns["*"] = "*"
        return n.group(1), conns
    return None, None


def driven_names(text, top_inputs, skip_instance):
    names = set(top_inputs)
    for m in re.finditer(r"\bassign\s+(\{[^}]*\}|[\w\[\]:]+)\s*=", text):
        names.update(re.findall(r"[A-Za-z_]\w*", m.group(1)))
    for m in re.finditer(r"([A-Za-z_]\w*)(\s*\[[^\]]*\])?\s*(<=|=)(?!=)", text):
        names.add(m.group(1))
    # Anything connected to another instance may be that instance's output.
    for m in re.finditer(r"\.(\w+)\s*\(([^()]*)\)", text):
        names.update(re.findall(r"[A-Za-z_]\w*", m.group(2)))
    return names - {skip_instance}


KEYWORDS = {"module", "if", "else", "for", "case", "begin", "end", "assign", "always_ff",
            "always_comb", "always", "localparam", "parameter", "logic", "wire", "input",
            "output", "inout", "import", "function", "task", "return", "endmodule"}


CLOCK_RESET = {"clk", "aclk", "rst", "rstn", "arst", "reset", "resetn", "aresetn"}


def all_instances(text):
    """[(module, instance, {port: expr})] of every instance in text."""
    out = []
    for m in re.finditer(r"\b([A-Za-z_]\w*)\b\s*(#\s*\(|[A-Za-z_]\w*\s*\()", text):
        mod = m.group(1)
        if mod in KEYWORDS:
            continue
        i = m.start(2)
        if text[i] == "#":
            i = match_paren(text, text.index("(", i))
            n = re.match(r"\s*([A-Za-z_]\w*)\s*\(", text[i:])
            if not n:
                continue
            inst, start = n.group(1), i + n.end() - 1
        else:
            n = re.match(r"([A-Za-z_]\w*)\s*\(", text[i:])
            inst, start = n.group(1), i + n.end() - 1
        if inst in KEYWORDS:
            continue
        conns = connections(text[start + 1:match_paren(text, start) - 1], implicit=False)
        if conns:
            out.append((mod, inst, conns))
    return out


def idents(expr, params):
    return [t for t in re.findall(r"(?<!')(?<![\w$])[A-Za-z_]\w*", expr)
            if t not in params and not re.fullmatch(r"[bhdo][0-9a-fA-F_]+", t)]


def bd_wrapper_ports(path):
    """Port names of the wrapper Vivado generates for the block design built
    by the TCL at path (external ports only)."""
    text = re.sub(r"\\\n", " ", open(path).read())
    text = re.sub(r"#[^\n]*", "", text)
    var_of, kind, cfg, plain = {}, {}, {}, []
    for m in re.finditer(r"(?:set\s+(\w+)\s+\[)?create_bd_intf_port\s+-mode\s+\w+\s+-vlnv\s+"
                         r"\S+:interface:(\w+):\S+\s+(\w+)", text):
        kind[m.group(3)] = m.group(2)
        cfg[m.group(3)] = {}
        if m.group(1):
            var_of[m.group(1)] = m.group(3)
    for m in re.finditer(r"create_bd_port\s+(?:-\w+\s+\S+\s+)*(\w+)\s*\]?\s*$", text, re.M):
        plain.append(m.group(1))
    for m in re.finditer(r"set_property\s+-dict\s+\[list\s+([^\]]*)\]\s+\$(\w+)", text):
        if m.group(2) in var_of:
            for k, v in re.findall(r"CONFIG\.(\w+)\s+\{?([^\s}]+)\}?", m.group(1)):
                cfg[var_of[m.group(2)]][k] = v
    ports, optional, problems = set(plain), set(), []
    for name, k in kind.items():
        c = cfg[name]
        has = lambda f: c.get("HAS_" + f, "1") not in ("0", "false")
        if k == "diff_clock_rtl":
            sigs = ["clk_p", "clk_n"]
        elif k == "pcie_7x_mgt_rtl":
            sigs = ["rxp", "rxn", "txp", "txn"]
        elif k == "ddrx_rtl":
            sigs = ["addr", "ba", "cas_n", "ck_n", "ck_p", "cke", "dm", "dq", "dqs_n", "dqs_p",
                    "odt", "ras_n", "reset_n", "we_n"]
            optional.add(f"{name}_cs_n")
        elif k == "aximm_rtl" and c.get("PROTOCOL", "AXI4") == "AXI4LITE":
            sigs = []
            for ch in ("aw", "ar"):
                sigs += [ch + "addr"] + ([ch + "prot"] if has("PROT") else []) + [ch + "valid", ch + "ready"]
            sigs += ["wdata", "wstrb", "wvalid", "wready", "bresp", "bvalid", "bready",
                     "rdata", "rresp", "rvalid", "rready"]
        elif k == "aximm_rtl":
            idw = int(c.get("ID_WIDTH", "0"))
            sigs = []
            for ch in ("aw", "ar"):
                sigs += ([ch + "id"] if idw else []) + [ch + "addr", ch + "len", ch + "size", ch + "burst"]
                sigs += [ch + f.lower() for f in ("LOCK", "CACHE", "PROT", "QOS", "REGION") if has(f)]
                sigs += [ch + "valid", ch + "ready"]
            sigs += ["wdata"] + (["wstrb"] if has("WSTRB") else []) + ["wlast", "wvalid", "wready"]
            sigs += (["bid"] if idw else []) + (["bresp"] if has("BRESP") else []) + ["bvalid", "bready"]
            sigs += (["rid"] if idw else []) + ["rdata"] + (["rresp"] if has("RRESP") else [])
            sigs += ["rlast", "rvalid", "rready"]
        else:
            problems.append(f"{path}: interface {name} of type {k}: its signals are unknown here")
            continue
        ports.update(f"{name}_{s}" for s in sigs)
    return ports, optional, problems


def bits_of(name, bits):
    return [name] if bits == 1 else [f"{name}[{i}]" for i in range(bits)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--top", required=True)
    ap.add_argument("--child", action="append", default=[])
    ap.add_argument("--xdc", action="append", default=[])
    ap.add_argument("--mig")
    ap.add_argument("--lpf")
    ap.add_argument("--pkg", action="append", default=[])
    ap.add_argument("--no-iostandard", default=r"^$")
    ap.add_argument("--bd-tcl")
    ap.add_argument("--bd-wrapper")
    ap.add_argument("--trace", action="append", default=[])
    a = ap.parse_args()
    params = read_params(a.pkg)
    problems = []
    top_text = strip_comments(open(a.top).read())
    top_name, top_ports = module_ports(a.top, params)

    # 1. children fully connected and driven
    top_inputs = [p for p, d, _ in top_ports if d in ("input", "inout")]
    for child in a.child:
        cname, cports = module_ports(child, params)
        inst, conns = instance_connections(top_text, cname)
        if conns is None:
            problems.append(f"{a.top}: no instance of {cname}")
            continue
        driven = driven_names(top_text, top_inputs, inst)
        n_in = 0
        for p, d, _ in cports:
            if "*" in conns:
                continue
            if p not in conns:
                problems.append(f"{top_name}.{inst}: port {p} ({d}) of {cname} is not connected")
                continue
            expr = conns[p]
            if expr == "":
                problems.append(f"{top_name}.{inst}: port {p} ({d}) of {cname} is left open")
                continue
            if d == "input":
                n_in += 1
                ids = [t for t in re.findall(r"(?<!')\b[A-Za-z_]\w*", expr)
                       if t not in params and not re.fullmatch(r"[bhdo][0-9a-fA-F_]+", t)]
                for ident in ids:
                    if ident not in driven:
                        problems.append(f"{top_name}.{inst}: {cname}.{p} is connected to {ident}, "
                                        "which nothing in the top drives")
        extra = set(conns) - {p for p, _, _ in cports} - {"*"}
        for p in sorted(extra):
            problems.append(f"{top_name}.{inst}: connects {p}, which {cname} does not have")
        print(f"ok    {top_name}.{inst}: all {len(cports)} ports of {cname} connected, {n_in} inputs driven")

    # 4. block-design wrapper ports against the block design
    if a.bd_tcl or a.trace:
        if not a.bd_wrapper:
            ap.error("--bd-tcl and --trace need --bd-wrapper")
        winst, wconns = instance_connections(top_text, a.bd_wrapper)
        if wconns is None:
            problems.append(f"{a.top}: no instance of {a.bd_wrapper}")
            wconns = {}
    if a.bd_tcl:
        expected, optional, bd_problems = bd_wrapper_ports(a.bd_tcl)
        problems += bd_problems
        for p in sorted(expected - set(wconns)):
            problems.append(f"{top_name}.{winst}: {a.bd_wrapper} port {p} (from {a.bd_tcl}) is not connected")
        for p in sorted(set(wconns) - expected - optional):
            problems.append(f"{top_name}.{winst}: connects {p}, which {a.bd_tcl} does not create")
        print(f"ok    {top_name}.{winst}: {len(wconns)} connections checked against "
              f"{len(expected)} wrapper ports from {a.bd_tcl}")

    # 5. child ports reach the wrapper
    if a.trace:
        insts = all_instances(top_text)
        child_mods = {module_ports(c, params)[0] for c in a.child}
        graph = {}
        def link(nodes):
            nodes = list(nodes)
            for n in nodes[1:]:
                graph.setdefault(nodes[0], set()).add(n)
                graph.setdefault(n, set()).add(nodes[0])
        for mod, inst, conns in insts:
            if mod == a.bd_wrapper or mod in child_mods:
                continue
            hub = "inst:" + inst
            for port, expr in conns.items():
                if not set(port.lower().split("_")) & CLOCK_RESET:
                    link([hub] + idents(expr, params))
        for k, m in enumerate(re.finditer(r"\bassign\s+([^;=]+?)\s*=\s*([^;]+);", top_text)):
            lhs = idents(m.group(1), params)
            if lhs and not lhs[0].startswith("unused"):
                link([f"assign:{k}"] + lhs + idents(m.group(2), params))
        for spec in a.trace:
            c_re, w_re = spec.split("=", 1)
            targets, n_w = set(), 0
            for p, expr in sorted(wconns.items()):
                if re.search(w_re, p):
                    n_w += 1
                    ids = idents(expr, params)
                    if not ids:
                        problems.append(f"{top_name}.{winst}: {p} is tied to '{expr}', not connected to logic")
                    targets.update(ids)
            if n_w == 0:
                problems.append(f"{top_name}.{winst}: no {a.bd_wrapper} port matches {w_re}")
            n_c = 0
            for child in a.child:
                cname, cports = module_ports(child, params)
                inst, conns = instance_connections(top_text, cname)
                for p, d, _ in cports:
                    if not re.search(c_re, p) or p not in (conns or {}):
                        continue
                    n_c += 1
                    todo = list(idents(conns[p], params))
                    seen = set(todo)
                    while todo and not (seen & targets):
                        for n in graph.get(todo.pop(), ()):
                            if n not in seen:
                                seen.add(n)
                                todo.append(n)
                    if not seen & targets:
                        problems.append(f"{top_name}.{inst}: {cname}.{p} does not reach any "
                                        f"{a.bd_wrapper} port matching {w_re}")
            print(f"ok    {top_name}: traced {n_c} child ports matching {c_re} to "
                  f"{n_w} wrapper ports matching {w_re}")

    # 2. constraints
    pins, iostd, pin_owner = {}, set(), {}
    constrained_names = set()
    for x in a.xdc:
        text = re.sub(r"#[^\n]*", "", open(x).read())
        for m in re.finditer(r"set_property\s+(PACKAGE_PIN|IOSTANDARD)\s+(\S+)\s+\[get_ports\s+(\{[^}]*\}|[^\s\]]+)\s*\]", text):
            prop, val, port = m.group(1), m.group(2), m.group(3).strip("{} ")
            constrained_names.add(re.sub(r"\[.*", "", port))
            if prop == "PACKAGE_PIN":
                pins[port] = val
            else:
                iostd.add(port)
    if a.mig:
        for m in re.finditer(r'<Pin\b[^>]*IOSTANDARD="([^"]*)"[^>]*PADName="([^"]*)"[^>]*name="([^"]*)"', open(a.mig).read()):
            pins["mig:" + m.group(3)] = m.group(2)
            iostd.add("mig:" + m.group(3))
    if a.lpf:
        text = re.sub(r"#[^\n]*", "", open(a.lpf).read())
        for m in re.finditer(r'LOCATE\s+COMP\s+"([^"]+)"\s+SITE\s+"([^"]+)"', text):
            pins[m.group(1)] = m.group(2)
            constrained_names.add(re.sub(r"\[.*", "", m.group(1)))
        for m in re.finditer(r'IOBUF\s+PORT\s+"([^"]+)"\s+IO_TYPE=', text):
            iostd.add(m.group(1))

    def mig_names(port_bit):
        base = re.sub(r"_n[oi](\[|$)", r"_n\1", port_bit)
        base = re.sub(r"_(o|i|io)(\[|$)", r"\2", base)
        return ["mig:" + base] + (["mig:" + base + "[0]"] if "[" not in base else [])

    n_bits = 0
    top_bit_names = set()
    if not (a.xdc or a.mig or a.lpf):
        top_ports = []  # only the connection check was asked for
    for p, d, w in top_ports:
        for b in bits_of(p, w):
            n_bits += 1
            top_bit_names.add(b)
            keys = [b] + mig_names(b)
            loc = next((k for k in keys if k in pins), None)
            if loc is None:
                problems.append(f"{top_name}: {d} {b} has no pin")
                continue
            site = pins[loc]
            if site in pin_owner:
                problems.append(f"{top_name}: {b} and {pin_owner[site]} share pin {site}")
            pin_owner[site] = b
            wildcard = f"{p}[*]"
            has_std = any(k in iostd for k in keys) or wildcard in iostd
            if not has_std and not re.search(a.no_iostandard, p):
                problems.append(f"{top_name}: {b} has a pin but no I/O standard")
    top_port_names = {p for p, _, _ in top_ports}
    for n in sorted(constrained_names - top_port_names):
        problems.append(f"constraints name {n}, which {top_name} does not have")
    if top_ports:
        print(f"ok    {top_name}: {n_bits} port bits checked against "
              f"{len(a.xdc) + bool(a.mig) + bool(a.lpf)} constraint file(s)")

    for p in problems:
        print("FAIL  " + p)
    print(f"{top_name}: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
