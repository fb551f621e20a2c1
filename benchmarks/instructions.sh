#!/usr/bin/env bash
# Instructions per random game, counted by callgrind: repeatable, unlike wall-clock time
# on a shared machine.  Usage: bash benchmarks/instructions.sh [GAMES [WARM [PLAYERS]]]
# Runs WARM + GAMES games and WARM games alone, and divides the difference by GAMES.
# Needs valgrind and an environment with azul_rules (benchmarks/.venv from run.sh, or
# the one named by $PYTHON).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-150}
warm=${2:-500}
players=${3:-2}
python=${PYTHON:-benchmarks/.venv/bin/python}
count() {
  PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$python" benchmarks/playout_games.py "$warm" "$1" "$players" 2>&1 |
    grep -oP 'Collected : \K[0-9]+'
}
base=$(count 0)
total=$(count "$games")
echo "instructions per random ${players}-player game: $(((total - base) / games))"
