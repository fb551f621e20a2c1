"""The documentation names only what exists: every dotted ``azul_rules.…`` name and
every ``az.…`` name in the README and ``docs/`` resolves (a function, a class, a module
or an attribute), so that the docs and the API cannot drift apart."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

import azul_rules as az

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOTTED = re.compile(r"\b(azul_rules(?:\.[A-Za-z_]\w*)+)")
SHORT = re.compile(r"`az\.([A-Za-z_]\w*)")
OPTIONAL = {"azul_rules.spiel": "pyspiel", "azul_rules.pettingzoo": "pettingzoo"}


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(f"no module in {dotted}")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_dotted_name_in_the_docs_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for dotted in sorted(set(DOTTED.findall(text))):
        dotted = dotted.rstrip(".")
        needed = next((m for p, m in OPTIONAL.items() if dotted.startswith(p)), None)
        if needed is not None and importlib.util.find_spec(needed) is None:
            continue
        if dotted.endswith(("_py", "_rules")) and dotted.count(".") == 0:
            continue
        resolve(dotted)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_az_name_in_the_docs_exists(page: Path) -> None:
    for name in sorted(set(SHORT.findall(page.read_text(encoding="utf-8")))):
        assert hasattr(az, name), f"{page.name}: az.{name}"
