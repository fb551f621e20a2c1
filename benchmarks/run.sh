#!/usr/bin/env bash
# The benchmark, in its own environment (with the peer engine azul-game-engine, which
# declares Python >= 3.12 but runs on 3.11).  Usage: bash benchmarks/run.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv benchmarks/.venv
benchmarks/.venv/bin/pip install -q -e .
benchmarks/.venv/bin/pip install -q --ignore-requires-python azul-game-engine==1.0.2
benchmarks/.venv/bin/python benchmarks/bench.py "$@"
