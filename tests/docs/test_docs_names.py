"""The documentation names only what exists, and everything public: every dotted
``azul_rules.…`` name and every ``az.…`` name in the README and ``docs/`` resolves (a
function, a class, a module or an attribute); every name of ``azul_rules.__all__`` is
documented, and every public class and function says in its docstring what it raises
(the API reference, docs/api-*.md, is generated from them), so that the docs and the
API cannot drift apart."""

from __future__ import annotations

import enum
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import azul_rules as az

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOTTED = re.compile(r"\b(azul_rules(?:\.[A-Za-z_]\w*)+)")
SHORT = re.compile(r"`az\.([A-Za-z_]\w*)")
OPTIONAL = {
    "azul_rules.ai.spiel": "pyspiel",
    "azul_rules.ai.pettingzoo": "pettingzoo",
    "azul_rules.ai.pgx": "pgx",
}


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


CODE_SPAN = re.compile(r"`([^`\n]+)`")
WORD = re.compile(r"[A-Za-z_]\w*")


def _code_words(text: str) -> set[str]:
    """The words written as code (inside backticks) in ``text``."""
    return {word for span in CODE_SPAN.findall(text) for word in WORD.findall(span)}


def test_every_public_name_is_documented() -> None:
    """Each name of ``azul_rules.__all__`` is written as code in the README or a page of
    ``docs/`` (``Bonuses``, ``az.end_bonuses``, ``PlacementScore(...)``...)."""
    documented: set[str] = set()
    for page in PAGES:
        documented |= _code_words(page.read_text(encoding="utf-8"))
    missing = sorted(set(az.__all__) - documented)
    assert not missing, f"public names documented nowhere in README.md or docs/: {missing}"


RAISES = re.compile(r"\braise", re.IGNORECASE)


def _says_what_it_raises(value: object) -> bool:
    """Whether a docstring says what its function or class raises: a ``Raises:`` section,
    ``:raises X:`` fields, or words such as "raises nothing"."""
    return RAISES.search(inspect.getdoc(value) or "") is not None


def _entry_points() -> set[str]:
    """The public names a program calls: functions, and classes other than exceptions
    (enums included); not the constants, nor the ``Move`` union."""
    names = set()
    for name in az.__all__:
        value = getattr(az, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            continue
        if callable(value) and (isinstance(value, type) or not isinstance(value, enum.Enum)):
            names.add(name)
    return names - {"Move"}


# The README's table of what each entry point raises moved into the docstrings, which the
# API reference (docs/api-*.md) is generated from (issue 26).
def test_every_public_class_and_function_says_what_it_raises() -> None:
    """Each public function and class (the seven found undocumented by a new user's
    trial among them: ``Bonuses``, ``Marker``, ``PlacementScore``, ``Placements``,
    ``PlayerTiling``, ``WallPlacement``, ``end_bonuses``) says in its docstring what it
    raises, "nothing" included (the README's table until issue 26)."""
    assert {"Bonuses", "Marker", "PlacementScore", "end_bonuses"} <= _entry_points()
    missing = sorted(n for n in _entry_points() if not _says_what_it_raises(getattr(az, n)))
    assert not missing, f"docstrings that do not say what they raise: {missing}"


def test_the_raises_check_reads_both_docstring_styles() -> None:
    """A ``Raises:`` section, reST ``:raises X:`` fields and "raises nothing" count; a
    docstring silent on it does not."""

    def section() -> None:
        """Do it.

        Raises:
            ValueError: when not.
        """

    def field() -> None:
        """Do it.

        :raises FormatError: when not.
        """

    def nothing() -> None:
        """Do it; raises nothing."""

    def silent() -> None:
        """Do it."""

    assert [_says_what_it_raises(f) for f in (section, field, nothing, silent)] == [
        True, True, True, False,
    ]  # fmt: skip
