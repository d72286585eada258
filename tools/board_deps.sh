#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the pinned board-flow packages (tools/requirements-boards.txt)
# into the repo-local .venv, once: a second run with nothing changed returns
# at once. Run by the board make targets; make deps never needs them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENV="$ROOT/.venv"
REQ="$ROOT/tools/requirements-boards.txt"
STAMP="$VENV/.boards-stamp"
[ -x "$VENV/bin/python" ] || bash "$ROOT/tools/deps.sh"
if [ ! -f "$STAMP" ] || [ "$REQ" -nt "$STAMP" ]; then
  echo "board-deps: installing the pinned board-flow packages into .venv"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ" ||
    { echo "board-deps: pip install failed; check access to PyPI" >&2; exit 1; }
  touch "$STAMP"
fi
