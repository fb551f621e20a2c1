"""The build hook (``hatch_build.py``) and the core's switch (``azul_rules.core._accelerate``).

``pip install -e .`` builds the compiled core when a C compiler works, and installs the
pure-Python core otherwise, saying why in one line; a compiled module built from another
version of the source is not used.  (CI also builds a wheel with and without a compiler:
``.ci/run``.)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import hatch_build
from azul_rules.core import _accelerate

ROOT = Path(__file__).resolve().parent.parent


def _checkout(tmp_path: Path) -> Path:
    """A folder holding the C source where the hook looks for it."""
    (tmp_path / hatch_build.SOURCE).parent.mkdir(parents=True)
    shutil.copy(ROOT / hatch_build.SOURCE, tmp_path / hatch_build.SOURCE)
    return tmp_path


def test_the_hook_compiles_the_core_beside_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AZUL_RULES_PURE_PYTHON", raising=False)
    monkeypatch.delenv("CC", raising=False)
    root = _checkout(tmp_path)
    built, why = hatch_build.build_extension(root)
    assert why == ""
    assert built == hatch_build.extension_path(root)
    assert built.is_file() and built.stat().st_size > 10_000
    assert built.name.startswith("_speedups.cpython-")


@pytest.mark.parametrize(
    ("compiler", "reason"),
    [("/bin/false", "the C compiler failed"), ("/no/such/cc", "no C compiler could be run")],
)
def test_without_a_working_compiler_the_hook_says_why_and_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiler: str, reason: str
) -> None:
    """No compiler, or one that fails: no module (an old one is removed), and the reason
    in one line for the install's message."""
    monkeypatch.delenv("AZUL_RULES_PURE_PYTHON", raising=False)
    monkeypatch.setenv("CC", compiler)
    root = _checkout(tmp_path)
    stale = hatch_build.extension_path(root)
    stale.write_bytes(b"an old build")
    built, why = hatch_build.build_extension(root)
    assert built is None
    assert why.startswith(reason) and "\n" not in why
    assert not stale.exists()


def test_the_switch_at_install_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_RULES_PURE_PYTHON", "1")
    built, why = hatch_build.build_extension(_checkout(tmp_path))
    assert (built, why) == (None, "AZUL_RULES_PURE_PYTHON is set")


def test_the_hook_builds_the_source_s_digest_into_the_module(tmp_path: Path) -> None:
    """The digest the hook compiles in is the one the switch compares at import."""
    root = _checkout(tmp_path)
    command = hatch_build.compile_command(root, tmp_path / "out.so")
    digest = _accelerate.source_digest(root / hatch_build.SOURCE)
    assert f'-DAZUL_SOURCE_DIGEST="{digest}"' in command


def test_a_module_built_from_another_source_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable checkout whose C source changed since its install: the Python core
    is used, with a warning saying how to rebuild."""
    pytest.importorskip("azul_rules.core._speedups")
    monkeypatch.delenv("AZUL_RULES_PURE_PYTHON", raising=False)
    edited = tmp_path / "_speedups.c"
    edited.write_text("/* edited since the install */\n")
    monkeypatch.setattr(_accelerate, "_SOURCE", edited)
    with pytest.warns(RuntimeWarning, match=r"built from another version.*pip install -e \."):
        assert _accelerate.load_speedups() is None
    monkeypatch.setattr(_accelerate, "_SOURCE", ROOT / hatch_build.SOURCE)
    assert _accelerate.load_speedups() is sys.modules["azul_rules.core._speedups"]


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_switch_at_import_forces_the_python_core(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("AZUL_RULES_PURE_PYTHON", value)
    assert _accelerate.load_speedups() is None
