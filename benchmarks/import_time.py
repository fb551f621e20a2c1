"""What ``import azul_rules`` costs, with bytecode cached, in fresh interpreters.

    python benchmarks/import_time.py [--runs 30] [--instructions] [--no-wall]

Three statements are measured: ``import azul_rules``; ``import azul_rules.svg`` (the
pictures, never loaded by ``import azul_rules``); ``import azul_rules;
azul_rules.to_json`` (the first use of the JSON layer loads cattrs, PEP 562).

Method.  Every child interpreter runs with bytecode writing on (``PYTHONDONTWRITEBYTECODE``
removed from its environment): one warm-up run of each statement writes the ``.pyc``
files, and a check then confirms that every module the three statements load has its
cached bytecode on disk.  Then, for ``--runs`` fresh interpreters per statement, in turns:

- **in-process** (the headline figure): ``time.perf_counter()`` just before and after
  the statement, inside the child — what the import adds to a program, without the
  interpreter's own start-up and shut-down;
- **-X importtime**: the child runs with ``-X importtime`` and the figure is the sum of
  the *cumulative* column over the top-level imports from the first ``azul_rules`` one on
  (for ``import azul_rules``: the ``azul_rules`` line alone); the option's own
  bookkeeping makes it somewhat higher;
- **process**: the wall clock of ``python -c STATEMENT`` minus that of ``python -c
  pass``, run alternately (start-up and shut-down included, so the noisiest).

Each is given as min / median in ms.  ``--instructions`` adds instruction counts from
callgrind (repeatable on a noisy machine): ``python -c "STATEMENT; import os;
os._exit(0)"`` minus ``python -c "import os; os._exit(0)"`` (``os._exit`` skips the
interpreter's shut-down, whose cost is not the import's), ``PYTHONHASHSEED=0``.  For
comparison it also gives the in-process time without bytecode (compiled at every run,
as the figure was measured before issue 18: ``PYTHONDONTWRITEBYTECODE=1`` and a copy of
the package without ``__pycache__``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STATEMENTS = {
    "import azul_rules": "import azul_rules",
    "import azul_rules.svg": "import azul_rules.svg",
    "import azul_rules; azul_rules.to_json": "import azul_rules; azul_rules.to_json",
}

TIMED = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"

CACHE_CHECK = """\
import os, sys
import azul_rules.svg, azul_rules
azul_rules.to_json
loaded = [m for m in list(sys.modules.values()) if getattr(m, "__cached__", None)]
missing = [m.__name__ for m in loaded if not os.path.exists(m.__cached__)]
print(os.path.dirname(azul_rules.__file__), len(loaded), " ".join(missing))
"""


def child_env(**extra: str) -> dict[str, str]:
    """This environment with bytecode writing on (and ``extra`` set)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


# The children's working directory, empty: ``python -c`` puts its working directory
# first on the path, and the package measured must be the one installed in this
# interpreter's environment, not one lying in the caller's directory.  Removed at exit.
_EMPTY = tempfile.TemporaryDirectory()


def run(
    args: list[str], env: dict[str, str] | None = None, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=env or child_env(),
        cwd=cwd or _EMPTY.name,
    )
    if done.returncode:
        raise SystemExit(f"{' '.join(args)!r} failed:\n{done.stderr}")
    return done


def cache_bytecode() -> str:
    """Write the ``.pyc`` files (one run of each statement) and check them: a line that
    says how many loaded modules have their bytecode cached."""
    for statement in STATEMENTS.values():
        run(["-c", statement])
    package, count, *missing = run(["-c", CACHE_CHECK]).stdout.split()
    if missing:
        raise SystemExit(f"no cached bytecode for: {' '.join(missing)}")
    return f"{package}: bytecode cached for all {count} modules loaded (checked first)"


def importtime_ms(stderr: str) -> float:
    """The sum of the cumulative column over the top-level imports from the first
    ``azul_rules`` one on, in ms."""
    total, counting = 0, False
    for line in stderr.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)$", line)
        if not found:
            continue  # the header, or a nested import (its name is indented)
        counting = counting or found[2].startswith("azul_rules")
        if counting:
            total += int(found[1])
    return total / 1000


def wall(runs: int) -> dict[str, dict[str, list[float]]]:
    """Per statement, the three wall-clock measures of ``runs`` fresh interpreters, ms."""
    found: dict[str, dict[str, list[float]]] = {
        name: {"in-process": [], "-X importtime": [], "process": []} for name in STATEMENTS
    }
    for _ in range(runs):
        for name, statement in STATEMENTS.items():
            seen = found[name]
            seen["in-process"].append(float(run(["-c", TIMED.format(statement)]).stdout) * 1000)
            seen["-X importtime"].append(
                importtime_ms(run(["-X", "importtime", "-c", statement]).stderr)
            )
            start = time.perf_counter()
            run(["-c", statement])
            middle = time.perf_counter()
            run(["-c", "pass"])
            seen["process"].append((2 * middle - start - time.perf_counter()) * 1000)
    return found


def without_bytecode(runs: int) -> list[float]:
    """In-process ms of ``import azul_rules`` with its sources compiled at every run, as
    measured before issue 18: a copy of the package without ``__pycache__``, in the
    child's working directory (first on the path), and bytecode writing off (the other
    modules keep their cached bytecode)."""
    import azul_rules

    times = []
    with tempfile.TemporaryDirectory() as copy:
        package = os.path.dirname(azul_rules.__file__)
        shutil.copytree(package, os.path.join(copy, "azul_rules"),
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
        env = child_env(PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=copy)
        for _ in range(runs):
            code = TIMED.format(STATEMENTS["import azul_rules"])
            times.append(float(run(["-c", code], env, cwd=copy).stdout))  # "" first on the path
    return [t * 1000 for t in times]


def instructions(statement: str) -> int:
    """Instructions of one interpreter running ``statement``, then ``os._exit(0)``."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", f"{statement}; import os; os._exit(0)"],
        capture_output=True, text=True, env=child_env(PYTHONHASHSEED="0"), cwd=_EMPTY.name,
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    if not found:
        raise SystemExit(f"callgrind failed:\n{done.stderr}")
    return int(found[1])


def import_instructions() -> dict[str, int]:
    """Instructions each statement adds to ``pass`` (callgrind, bytecode cached)."""
    base = instructions("pass")
    return {name: instructions(statement) - base for name, statement in STATEMENTS.items()}


def spread(values: list[float]) -> str:
    return f"{min(values):.1f} / {statistics.median(values):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="fresh interpreters per figure")
    parser.add_argument("--instructions", action="store_true", help="callgrind counts too")
    parser.add_argument("--no-wall", action="store_true", help="skip the wall-clock figures")
    options = parser.parse_args()
    print(f"{sys.executable}, Python {sys.version.split()[0]}")
    print(cache_bytecode())
    if not options.no_wall:
        print(f"wall clock, ms, min / median of {options.runs} fresh interpreters each:")
        for name, measures in wall(options.runs).items():
            figures = ", ".join(f"{how} {spread(v)}" for how, v in measures.items())
            print(f"  {name:<40} {figures}")
        print(
            f"  import azul_rules without cached bytecode (as before issue 18): in-process "
            f"{spread(without_bytecode(max(3, options.runs // 3)))}"
        )
    if options.instructions:
        print("instructions (callgrind, minus python -c pass, bytecode cached):")
        for name, count in import_instructions().items():
            print(f"  {name:<40} {count / 1e6:.1f} M")


if __name__ == "__main__":
    main()
