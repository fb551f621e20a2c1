"""A copy of the package with one more catalogue, ``de.po`` (en.po's texts marked
``[de] ``), to show that one file adds a language; and ``azul-rules serve`` run from
that copy, on a free local port."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import azul_rules

__all__ = ["GERMAN", "german_package", "serving"]

GERMAN = "[de] "
"""What every German text starts with: the English one follows."""


def german_package(tmp_path: Path, *replace: tuple[str, str]) -> dict[str, str]:
    """``tmp_path/azul_rules``, a copy of the package with a ``de.po`` (each ``replace``
    made in its text first); the environment that imports it."""
    copy = tmp_path / "azul_rules"
    source = Path(azul_rules.__file__).parent
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    german = (copy / "text" / "en.po").read_text(encoding="utf-8")
    for old, new in replace:
        assert old in german, old
        german = german.replace(old, new)
    german = german.replace('msgstr "', f'msgstr "{GERMAN}').replace("Language: en", "Language: de")
    (copy / "text" / "de.po").write_text(german, encoding="utf-8")
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


@contextmanager
def serving(env: dict[str, str], cwd: Path) -> Iterator[str]:
    """``azul-rules serve --port 0`` with ``env`` until the block ends; yields the page's
    address."""
    server = subprocess.Popen(
        [sys.executable, "-m", "azul_rules", "serve", "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert " at http://127.0.0.1:" in line, line
        yield line.split(" at ")[1].split()[0]
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=30)
