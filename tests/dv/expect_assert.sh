#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs a Verilated simulation that must stop on one named assertion:
#
#   expect_assert.sh NAME -- COMMAND [ARGS...]
#
# passes when COMMAND exits non-zero and its output reports the assertion
# NAME failing ("Assertion failed in ....NAME"); with NAME "none" it passes
# when COMMAND exits 0 and reports no assertion. Used by make t-axi-checker
# to show that the protocol checkers catch an injected violation and fail
# the run.
set -u
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
    echo "usage: $0 NAME -- COMMAND [ARGS...]" >&2
    exit 2
fi
name=$1
shift 2
ulimit -c 0   # a failed assertion aborts the model: no core file
out=$("$@" 2>&1)
rc=$?
if [ "$name" = none ]; then
    if [ $rc -eq 0 ] && ! grep -q 'Assertion failed' <<<"$out"; then
        echo "expect_assert: $* passed, no assertion fired"
        exit 0
    fi
    echo "expect_assert: FAIL: $* should pass (exit $rc):"
    tail -5 <<<"$out"
    exit 1
fi
if [ $rc -ne 0 ] && grep -Eq "Assertion failed in [^ ]*\\.$name:" <<<"$out"; then
    echo "expect_assert: $* stopped on $name (exit $rc)"
    exit 0
fi
echo "expect_assert: FAIL: $* should stop on assertion $name (exit $rc):"
tail -5 <<<"$out"
exit 1
