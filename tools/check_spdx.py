#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the tracked source files without an SPDX-License-Identifier line in
their first lines; exits 1 if there is any.

    check_spdx.py            check (make t-spdx)
    check_spdx.py --fix      insert the line, in the file's comment syntax,
                             after a shebang or a first line that must stay
                             first (`verilator_config, CAPI=2:)

The files are what git tracks, so build outputs never count (outside a git
work tree: every file but those under build/, .venv/ and .git/).
"""
import argparse
import pathlib
import subprocess
import sys

LICENSE = "Apache-2.0"
TAG = "SPDX-License-Identifier:"
HEAD_LINES = 5

SLASH = "// {}"
BLOCK = "/* {} */"
HASH = "# {}"

# Longest suffix first: a preprocessed linker script (.ld.S) is a .S file.
# .S files go through the C preprocessor, where a block comment is safe
# whatever the assembler's own comment character is.
BY_SUFFIX = [
    (".ld.S", BLOCK),
    (".S", BLOCK),
    (".sv", SLASH), (".svh", SLASH), (".v", SLASH), (".vh", SLASH), (".vlt", SLASH),
    (".c", SLASH), (".h", SLASH), (".cpp", SLASH), (".hpp", SLASH), (".cc", SLASH),
    (".f", SLASH),      # Verilator/Yosys file lists take // comments
    (".py", HASH), (".sh", HASH), (".mk", HASH), (".toml", HASH), (".tcl", HASH),
    (".yml", HASH), (".yaml", HASH), (".xdc", HASH), (".lpf", HASH),
    (".core", HASH),    # FuseSoC CAPI2 (YAML after its CAPI=2: line)
    (".gtkw", "[*] {}"),  # GTKWave save files: [*] lines are comments
]
BY_NAME = {"Makefile": HASH}

# First lines that must stay first; the SPDX line goes after them.
KEEP_FIRST = ("#!", "`verilator_config", "CAPI=2:")


def style_of(path, first_line):
    name = path.name
    if name in BY_NAME:
        return BY_NAME[name]
    for suffix, style in BY_SUFFIX:
        if name.endswith(suffix):
            return style
    if first_line.startswith("#!"):
        return HASH     # an extensionless script
    return None


def first_lines(path, n):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [line for _, line in zip(range(n), f)]
    except OSError:
        return []


# Outside a git work tree (a release tarball) every file counts but these.
SKIP_DIRS = {".git", ".venv", "build", "__pycache__"}


def tracked_files(root):
    r = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True)
    if r.returncode == 0:
        return [root / p for p in r.stdout.decode().split("\0") if p]
    files = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).parts
        if not any(part in SKIP_DIRS or part.startswith("build-") for part in rel):
            files.append(path)
    return files


def missing(root):
    """(path, style) of every tracked source file without the tag."""
    result = []
    for path in tracked_files(root):
        if not path.is_file() or path.is_symlink():
            continue
        head = first_lines(path, HEAD_LINES)
        style = style_of(path, head[0] if head else "")
        if style is None:
            continue
        if not any(TAG in line for line in head):
            result.append((path, style))
    return result


def fix(path, style):
    text = path.read_text(encoding="utf-8")
    line = style.format(f"{TAG} {LICENSE}") + "\n"
    lines = text.splitlines(keepends=True)
    at = 1 if lines and lines[0].startswith(KEEP_FIRST) else 0
    if at and not lines[0].endswith("\n"):
        lines[0] += "\n"
    lines.insert(at, line)
    path.write_text("".join(lines), encoding="utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fix", action="store_true", help="insert the missing lines")
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent,
                    type=pathlib.Path, help="repository root (default: this one)")
    args = ap.parse_args()
    root = args.root.resolve()
    todo = missing(root)
    for path, style in todo:
        rel = path.relative_to(root)
        if args.fix:
            fix(path, style)
            print(f"check_spdx: added to {rel}")
        else:
            print(f"check_spdx: no {TAG} line in the first {HEAD_LINES} lines: {rel}")
    if args.fix:
        todo = missing(root)
    if todo:
        print(f"check_spdx: {len(todo)} file(s) without an SPDX line"
              + ("" if args.fix else "; run tools/check_spdx.py --fix"))
        return 1
    print("check_spdx: every tracked source file has an SPDX line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
