#!/usr/bin/env bash
# The compiled engine under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash benchmarks/sanitize.sh [SECONDS]
#
# Builds both faces of the engine (azul_rules/core/_engine/: the referee's compiled core and
# the batch engine azul_rules.ai._vector) with -fsanitize=address,undefined (through
# hatch_build.py, AZUL_RULES_CFLAGS) into a copy of the package in a temporary folder, then
# runs, with the sanitizers' runtimes preloaded into Python, the suites that drive them
# hardest: both cores compared on generated, mutated and tampered positions
# (tests/core/test_compiled_core.py, and the AI adapters' compiled functions in tests/core/test_compiled_frameworks.py,
# test_spiel.py, test_pettingzoo.py), the batch engine held to the referee step by step
# (tests/ai/test_vector.py), the fuzzing of every reader (tests/formats/test_fuzz.py), the robustness
# and invariant suites.  Any memory error or undefined behaviour aborts the run
# with the sanitizer's report.  Bounded by SECONDS (default 1200).  Needs gcc, and an
# environment with the test extras: .venv (the README's test command) or $PYTHON.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-.venv/bin/python}
[[ $python = /* ]] || python="$PWD/$python"  # the venv's own path (not resolved: a link)
limit=${1:-1200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The checkout's files (the tests read examples/ and docs/), without any built module.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work"
export AZUL_RULES_CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
"$python" - "$work" <<'EOF'
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from hatch_build import build_extension

from azul_rules.core._accelerate import SOURCES

for module in SOURCES:
    built, why = build_extension(Path(sys.argv[1]), module)
    if built is None:
        sys.exit(f"sanitize.sh: the sanitized build of {module} failed: {why}")
    print(f"sanitized build: {built.name}")
EOF

asan=$(gcc -print-file-name=libasan.so)
ubsan=$(gcc -print-file-name=libubsan.so)
cd "$work"
# Python's own allocations at exit are not leaks of this module: leak detection is off.
export LD_PRELOAD="$asan:$ubsan"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONMALLOC=malloc  # every Python object through ASan's allocator
"$python" -c 'import azul_rules as az, sys; assert az.accelerated, "no compiled core"
from azul_rules.ai import vector; assert vector._vector is not None, "no batch engine"
print("core:", az.__file__, vector._vector.__file__)' | grep -q "$work" \
  || { echo "sanitize.sh: not the sanitized copy" >&2; exit 1; }
timeout "$limit" "$python" -m pytest -q -p no:cacheprovider \
  tests/core/test_compiled_core.py tests/formats/test_fuzz.py tests/core/test_robustness.py \
  tests/core/test_invariants.py tests/core/test_takes.py tests/core/test_rounds.py tests/core/test_grey.py \
  tests/core/test_compiled_frameworks.py tests/ai/test_deals.py tests/ai/test_spiel.py tests/ai/test_pettingzoo.py \
  tests/ai/test_vector.py
echo "sanitize.sh: no memory error or undefined behaviour found"
