#!/usr/bin/env bash
# Instruction counts by callgrind: repeatable, unlike wall-clock time on a shared machine.
#
#   bash benchmarks/instructions.sh [GAMES [WARM [PLAYERS [VARIANT]]]]
#       instructions per random game and per move (default 150 500 2 colored): runs
#       WARM + GAMES games and WARM games alone (benchmarks/playout_games.py) and divides
#       the difference by GAMES, and by the moves of those GAMES games.
#   bash benchmarks/instructions.sh --vector [GAMES]
#       the batch engine (azul_rules.ai.vector): instructions per random game played to
#       its end in C by playouts() (default 20000 games; benchmarks/vector_playouts.py),
#       for 2, 3, 4 players on both walls.
#   bash benchmarks/instructions.sh --all
#       every issue-18 figure at once: per game and per move for 2, 3, 4 players on both
#       walls (and the grey wall over the coloured one, per move), per call for a
#       round-ending take, an ordinary take and legal_moves() on the benchmark position
#       (benchmarks/per_call.py), the memory a successor of an ordinary take adds
#       (tracemalloc), and what the imports cost (benchmarks/import_time.py).
#
# Needs valgrind and an environment with azul_rules: benchmarks/.venv (from run.sh), or
# the Python named by $PYTHON.  Runs up to $JOBS (default 2) callgrind processes at once:
# counts do not depend on it.  --all takes about 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-benchmarks/.venv/bin/python}
jobs_max=${JOBS:-2}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export PYTHONHASHSEED=0
unset PYTHONDONTWRITEBYTECODE  # cached bytecode, as a long-running program has it

# start NAME ARGS...: run "python ARGS..." under callgrind in the background; its stdout
# goes to $out/NAME.out, valgrind's summary to $out/NAME.err.
start() {
  local name=$1
  shift
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$python" "$@" \
    > "$out/$name.out" 2> "$out/$name.err" &
}

# count NAME: the instructions callgrind collected for NAME (after `wait`).
count() {
  grep -oP 'Collected : \K[0-9]+' "$out/$1.err" || {
    echo "callgrind run $1 failed:" >&2
    tail -20 "$out/$1.err" >&2
    exit 1
  }
}

# field NAME KEY: the number the program printed after KEY.
field() { grep -oP "^$2 \K[0-9]+" "$out/$1.out"; }

# per CALLS INSTRUCTIONS: instructions per call, rounded.
per() { echo $((($2 + $1 / 2) / $1)); }

# Writes the bytecode of every module the runs import, so that no measured run compiles
# one (a run that did would count the compiler).  Do not edit the benchmarks' modules
# while this script runs.
"$python" -c 'import sys; sys.path.insert(0, "benchmarks")
import import_time, workloads, azul_rules, azul_rules.svg; azul_rules.to_json' > /dev/null

start_playouts() {  # PLAYERS VARIANT GAMES WARM
  start "base-$1-$2" benchmarks/playout_games.py "$4" 0 "$1" "$2"
  start "games-$1-$2" benchmarks/playout_games.py "$4" "$3" "$1" "$2"
}

report_playouts() {  # PLAYERS VARIANT GAMES: prints "per-game per-move moves capped"
  local total moves
  total=$(($(count "games-$1-$2") - $(count "base-$1-$2")))
  # The moves of the same games, counted outside callgrind (the measured loop counts none).
  "$python" benchmarks/playout_games.py --count 0 "$3" "$1" "$2" > "$out/moves-$1-$2.out"
  moves=$(field "moves-$1-$2" moves)
  echo "$(per "$3" "$total") $(per "$moves" "$total") $moves $(field "moves-$1-$2" capped)"
}

if [[ ${1:-} == --vector ]]; then
  games=${2:-20000}
  for variant in colored grey; do
    for players in 2 3 4; do
      start "vbase-$players-$variant" benchmarks/vector_playouts.py 0 "$players" "$variant"
      start "vgames-$players-$variant" benchmarks/vector_playouts.py "$games" "$players" "$variant"
    done
  done
  wait
  echo "batch engine playouts ($games random games each, one thread, callgrind)"
  printf '%-10s %-8s %12s %10s %10s %7s\n' wall players per-game per-move moves capped
  for variant in colored grey; do
    for players in 2 3 4; do
      total=$(($(count "vgames-$players-$variant") - $(count "vbase-$players-$variant")))
      moves=$(field "vgames-$players-$variant" moves)
      printf '%-10s %-8s %12s %10s %10s %7s\n' "$variant" "$players" "$(per "$games" "$total")" \
        "$(per "$moves" "$total")" "$moves" "$(field "vgames-$players-$variant" capped)"
    done
  done
  exit 0
fi

if [[ ${1:-} != --all ]]; then
  games=${1:-150}
  warm=${2:-500}
  players=${3:-2}
  variant=${4:-colored}
  start_playouts "$players" "$variant" "$games" "$warm"
  wait
  read -r game move moves capped <<< "$(report_playouts "$players" "$variant" "$games")"
  echo "instructions per random ${players}-player game ($variant wall): $game"
  echo "instructions per move: $move ($moves moves in $games games, $capped capped at round 100)"
  exit 0
fi

games=150
warm=500
for variant in colored grey; do
  for players in 2 3 4; do start_playouts "$players" "$variant" "$games" "$warm"; done
done
for what in round-end take; do
  start "base-$what" benchmarks/per_call.py "$what" 0
  start "calls-$what" benchmarks/per_call.py "$what" 20
done
start base-legal-moves benchmarks/per_call.py legal-moves 0
start calls-legal-moves benchmarks/per_call.py legal-moves 20
wait

echo "issue 18 instruction figures ($("$python" --version), PYTHONHASHSEED=0, callgrind)"
echo "random games: $games games (seeds 0-$((games - 1))) after $warm warm-up games"
printf '%-10s %-8s %12s %10s %8s %7s\n' wall players per-game per-move moves capped
declare -A per_move
for variant in colored grey; do
  for players in 2 3 4; do
    read -r game move moves capped <<< "$(report_playouts "$players" "$variant" "$games")"
    per_move[$variant$players]=$move
    printf '%-10s %-8s %12s %10s %8s %7s\n' "$variant" "$players" "$game" "$move" "$moves" "$capped"
  done
done
for players in 2 3 4; do
  ratio=$(awk "BEGIN { printf \"%.2f\", ${per_move[grey$players]} / ${per_move[colored$players]} }")
  echo "grey over coloured, per move, $players players: ${ratio}x (target <= 1.5x)"
done
echo "per call (instructions, the loop around each call included):"
for what in round-end take legal-moves; do
  calls=$(field "calls-$what" calls)
  echo "  $what: $(per "$calls" $(($(count "calls-$what") - $(count "base-$what")))) \
($calls calls; $(grep -oP '^checksum \K.*' "$out/calls-$what.out"))"
done
echo "memory a successor of an ordinary take adds (tracemalloc): \
$("$python" benchmarks/per_call.py successor-bytes 0 | grep -oP '^successor bytes \K.*') bytes"
"$python" benchmarks/import_time.py --no-wall --instructions | tail -n +2
