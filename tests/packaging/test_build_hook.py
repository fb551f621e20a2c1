"""The build hook (``hatch_build.py``) and the core's switch (``azul_rules.core._accelerate``).

``pip install -e .`` builds the compiled modules (the engine behind the referee's objects,
``azul_rules.core._compiled``, and the batch engine, ``azul_rules.ai._vector``) when a C
compiler works, and installs the pure-Python code otherwise, saying why in one line; a
compiled module built from other sources is not used.  (CI also builds a wheel with and
without a compiler: ``.ci/run``.)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

import hatch_build
from azul_rules.core import _accelerate

ROOT = Path(__file__).resolve().parents[2]
CORE = "azul_rules.core._compiled"


def _checkout(tmp_path: Path) -> Path:
    """A folder holding the C sources (and the file naming them) where the hook looks."""
    for module, sources in _accelerate.SOURCES.items():
        for path in (*sources, *_accelerate.HEADERS[module], str(hatch_build.ACCELERATE)):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / path, tmp_path / path)
    return tmp_path


@pytest.mark.parametrize("module", sorted(_accelerate.SOURCES))
def test_the_hook_compiles_each_module_beside_its_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str
) -> None:
    monkeypatch.delenv("AZUL_RULES_PURE_PYTHON", raising=False)
    monkeypatch.delenv("CC", raising=False)
    root = _checkout(tmp_path)
    built, why = hatch_build.build_extension(root, module)
    assert why == ""
    assert built == hatch_build.extension_path(root, module)
    assert built.is_file() and built.stat().st_size > 10_000
    assert built.name.startswith(module.rsplit(".", 1)[1] + ".cpython-")


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
    stale = hatch_build.extension_path(root, CORE)
    stale.write_bytes(b"an old build")
    built, why = hatch_build.build_extension(root, CORE)
    assert built is None
    assert why.startswith(reason) and "\n" not in why
    assert not stale.exists()


def test_the_switch_at_install_builds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_RULES_PURE_PYTHON", "1")
    built, why = hatch_build.build_extension(_checkout(tmp_path), CORE)
    assert (built, why) == (None, "AZUL_RULES_PURE_PYTHON is set")


def test_the_hook_builds_the_sources_digest_into_the_module(tmp_path: Path) -> None:
    """The digest the hook compiles in is the one the switch compares at import: of
    every source and header, so that an edit to any changes it."""
    root = _checkout(tmp_path)
    command = hatch_build.compile_command(root, CORE, tmp_path / "out.so")
    digest = _accelerate.source_digest(CORE, str(root))
    assert f'-DAZUL_SOURCE_DIGEST="{digest}"' in command
    header = root / _accelerate.HEADERS[CORE][0]
    header.write_text(header.read_text() + "\n/* edited */\n")
    assert _accelerate.source_digest(CORE, str(root)) != digest


def test_a_module_built_from_other_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable checkout whose C sources changed since its install: the Python code
    is used, with a warning saying how to rebuild."""
    pytest.importorskip(CORE)
    monkeypatch.delenv("AZUL_RULES_PURE_PYTHON", raising=False)
    edited = _checkout(tmp_path)
    engine = edited / _accelerate.SOURCES[CORE][0]
    engine.write_text(engine.read_text() + "\n/* edited since the install */\n")
    monkeypatch.setattr(_accelerate, "_ROOT", str(edited))
    with pytest.warns(RuntimeWarning, match=r"built from other sources.*pip install -e \."):
        assert _accelerate.load_compiled() is None
    monkeypatch.setattr(_accelerate, "_ROOT", str(ROOT))
    assert _accelerate.load_compiled() is sys.modules[CORE]


@pytest.mark.parametrize("value", ["1", "yes"])
def test_the_switch_at_import_forces_the_python_core(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("AZUL_RULES_PURE_PYTHON", value)
    assert _accelerate.load_compiled() is None
