"""Importing a adapter whose optional extra is missing (issue 24, item 12): one
``ImportError`` naming the extra and how to install it, not numpy's ``No module named``.

Each case is a real interpreter in which one dependency cannot be imported
(``sys.modules[name] = None``, what Python does for a module it must not find)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.extras import needs

INSTALL = {
    "pettingzoo": "pip install -e '.[pettingzoo]' in the project's checkout",
    "openspiel": "pip install -e '.[openspiel]' in the project's checkout",
    "pgx": "pip install -e '.[pgx]' in the project's checkout",
    "testing": "pip install -e '.[testing]' in the project's checkout",
    "web": "pip install -e '.[web]' in the project's checkout",
}


def _import_without(module: str, missing: str) -> subprocess.CompletedProcess[str]:
    source = f"import sys\nsys.modules[{missing!r}] = None\nimport {module}\n"
    return subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("module", "extra", "missing"),
    [
        ("azul_rules.ai.pettingzoo", "pettingzoo", "numpy"),
        ("azul_rules.ai.pettingzoo", "pettingzoo", "gymnasium"),
        ("azul_rules.ai.pettingzoo", "pettingzoo", "pettingzoo"),
        ("azul_rules.ai.spiel", "openspiel", "numpy"),
        ("azul_rules.ai.spiel", "openspiel", "pyspiel"),
        ("azul_rules.ai.spiel", "openspiel", "open_spiel"),
        ("azul_rules.ai.pgx", "pgx", "jax"),
        ("azul_rules.ai.pgx", "pgx", "pgx"),
    ],
)
def test_pettingzoo_and_spiel_without_their_extra_name_it(
    module: str, extra: str, missing: str
) -> None:
    """``import azul_rules.ai.pettingzoo`` without numpy used to end on ``No module named
    'numpy'``, which says nothing of the extra to install."""
    modules = {"openspiel": "pyspiel", "pettingzoo": "pettingzoo", "pgx": "pgx"}
    needs(modules[extra])  # all but `missing`
    done = _import_without(module, missing)
    assert done.returncode == 1
    last = done.stderr.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"ModuleNotFoundError: {module} needs the {extra} extra, and ")
    assert last.endswith(f"): {INSTALL[extra]}")
    if missing == "numpy":  # a module found missing as it is imported, named as it is
        assert last == (
            f"ModuleNotFoundError: {module} needs the {extra} extra, and numpy cannot be "
            f"imported (import of numpy halted; None in sys.modules): {INSTALL[extra]}"
        )
    else:  # or a module of that package (open_spiel.python)
        assert f" and {missing}" in last


def test_a_missing_module_of_azul_rules_itself_is_not_blamed_on_an_extra() -> None:
    """A module of azul_rules that cannot be imported is a bug of ours, not a missing
    extra: its own error goes through unchanged (and so does an error naming no module)."""
    from azul_rules.core._extras import extra

    ours = ModuleNotFoundError("No module named 'azul_rules.nothing'", name="azul_rules.nothing")
    anonymous = ImportError("something else")
    for error in (ours, anonymous):
        with pytest.raises(ImportError) as raised, extra("pettingzoo", "azul_rules.ai.pettingzoo"):
            raise error
        assert raised.value is error


@pytest.mark.parametrize("missing", ["resvg_py", "PIL"])
def test_pettingzoo_rgb_array_without_its_rasteriser_names_the_extra(missing: str) -> None:
    """The rasteriser is imported only for ``render_mode="rgb_array"``: without it the
    other modes work, and asking for ``rgb_array`` names the extra at once."""
    needs("pettingzoo")
    source = f"""
import sys
sys.modules[{missing!r}] = None
from azul_rules.ai.pettingzoo import env
game = env(render_mode="human")
game.reset(seed=1)
print(env(render_mode="svg").unwrapped.render_mode, flush=True)
env(render_mode="rgb_array")
"""
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1
    assert done.stdout.startswith("round 1, factory offer") and done.stdout.endswith("\nsvg\n")
    last = done.stderr.rstrip("\n").splitlines()[-1]
    assert last == (
        f"ModuleNotFoundError: azul_rules.ai.pettingzoo needs the pettingzoo extra, and "
        f"{missing} cannot be imported (import of {missing} halted; None in sys.modules): "
        f"{INSTALL['pettingzoo']}"
    )


def test_pettingzoo_imports_no_rasteriser_unless_asked() -> None:
    needs("pettingzoo")
    needs("resvg_py")
    needs("PIL")
    source = """
import sys
from azul_rules.ai.pettingzoo import env
env(render_mode="svg").reset(seed=1)
print(sorted(m for m in ("resvg_py", "PIL") if m in sys.modules))
env(render_mode="rgb_array")
print(sorted(m for m in ("resvg_py", "PIL") if m in sys.modules))
"""
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=120
    )
    assert done.stdout == "[]\n['PIL', 'resvg_py']\n", done.stderr


@pytest.mark.parametrize(
    ("module", "extra", "missing"),
    [
        ("azul_rules.testing", "testing", "hypothesis"),
        ("azul_rules.testing.protocol", "testing", "hypothesis"),  # the package comes first
        ("azul_rules.testing.differential", "testing", "hypothesis"),
        ("azul_rules.web", "web", "starlette"),
        ("azul_rules.web", "web", "uvicorn"),
        ("azul_rules.web", "web", "anyio"),  # Starlette's own dependency
    ],
)
def test_testing_and_web_without_their_extra_name_it(
    module: str, extra: str, missing: str
) -> None:
    """The engine-testing kit without Hypothesis, the web judge without Starlette or
    uvicorn: one ``ImportError`` naming the package's extra and how to install it."""
    needs({"testing": "hypothesis", "web": "starlette"}[extra])
    needs({"testing": "hypothesis", "web": "uvicorn"}[extra])
    done = _import_without(module, missing)
    assert done.returncode == 1, done.stderr
    last = done.stderr.rstrip("\n").splitlines()[-1]
    package = ".".join(module.split(".")[:2])
    assert last.startswith(
        f"ModuleNotFoundError: {package} needs the {extra} extra, and {missing}"
    ), last
    assert last.endswith(f"): {INSTALL[extra]}"), last


def test_the_reference_engine_runs_without_hypothesis() -> None:
    """``python -m azul_rules.engine`` speaks the engine protocol on the core alone: the
    protocol lives in ``azul_rules.formats.engine_protocol``, outside the testing kit
    (which needs Hypothesis)."""
    source = (
        "import runpy, sys\nsys.modules['hypothesis'] = None\nsys.argv = ['azul_rules.engine']\n"
        "runpy.run_module('azul_rules.engine', run_name='__main__')\n"
    )
    factories = [["blue", "blue", "yellow", "red"], ["yellow", "yellow", "yellow", "black"],
                 ["red", "red", "black", "white"], ["blue", "black", "black", "white"],
                 ["white", "white", "white", "red"]]  # fmt: skip
    requests = [{"type": "hello", "id": 1},
                {"type": "new_game", "id": 2, "players": 2, "variant": "colored",
                 "first_player": 0, "factories": factories},
                {"type": "legal_moves", "id": 3}]  # fmt: skip
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          input="".join(json.dumps(r) + "\n" for r in requests),
                          timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stderr == "", done.stderr
    hello, game, legal = (json.loads(line) for line in done.stdout.splitlines())
    assert hello["ok"] and hello["protocol"] == 1
    assert game == {"id": 2, "ok": True}, game
    # the colours of each factory (3, 2, 3, 3, 2), each to 5 empty lines or the floor (P2, F1)
    assert legal["ok"] and len(legal["moves"]) == (3 + 2 + 3 + 3 + 2) * 6, legal
