"""The AI adapters moved to ``azul_rules.ai``; their old import paths keep working for
one release, with a ``DeprecationWarning`` that names the new one.  Each is imported in
a fresh interpreter (an import warns once per process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.extras import needs

ALIASES = [
    ("azul_rules.actions", "azul_rules.ai.actions", None),
    ("azul_rules.core.deals", "azul_rules.ai.deals", None),
    ("azul_rules.spiel", "azul_rules.ai.spiel", "pyspiel"),
    ("azul_rules.pettingzoo", "azul_rules.ai.pettingzoo", "pettingzoo"),
]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(("old", "new", "extra"), ALIASES)
def test_an_old_path_warns_and_names_the_new_one(old: str, new: str, extra: str | None) -> None:
    if extra:
        needs(extra)
    failed = _run(f"import {old}")
    assert failed.returncode != 0 and "DeprecationWarning" in failed.stderr
    assert f"moved to {new}" in failed.stderr


@pytest.mark.parametrize(("old", "new", "extra"), ALIASES)
def test_an_old_path_is_the_same_module(old: str, new: str, extra: str | None) -> None:
    """Its names, private ones and state included, are the new module's own."""
    if extra:
        needs(extra)
    code = (
        "import warnings; warnings.simplefilter('ignore', DeprecationWarning)\n"
        f"import importlib; old = importlib.import_module('{old}')\n"
        f"new = importlib.import_module('{new}'); print(old is new)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    assert done.stdout.split() == ["True"]


def test_the_old_pgx_path_keeps_its_names_and_its_differential() -> None:
    needs("pgx")
    code = (
        "import warnings; warnings.simplefilter('ignore', DeprecationWarning)\n"
        "import azul_rules.pgx as old, azul_rules.ai.pgx as new\n"
        "from azul_rules.testing.batched import pgx_differential\n"
        "from azul_rules.ai.actions import Disagreement\n"
        "print(old.make is new.make, old.to_state is new.to_state,"
        " old.differential is pgx_differential, old.Disagreement is Disagreement)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)  # fmt: skip
    assert done.stdout.split() == ["True"] * 4
    assert "moved to azul_rules.ai.pgx" in _run("import azul_rules.pgx").stderr
