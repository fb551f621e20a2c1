"""Hatchling build hook: compiles the compiled core (``azul_rules/core/_speedups.c``).

Run by ``pip install .``, ``pip install -e .`` and ``pip wheel .``.  It compiles the C
twin with the compiler Python was built with (``sysconfig``'s ``CC``; ``$CC`` overrides
it) into ``azul_rules/core/`` and makes the wheel a platform wheel holding the module.  When no
compiler works, the install goes on with the pure-Python core and says so in one line;
``AZUL_RULES_PURE_PYTHON=1`` at install skips the compiler altogether.  Extra compiler
flags come from ``AZUL_RULES_CFLAGS`` (``benchmarks/sanitize.sh`` builds with
``-fsanitize=address,undefined`` through it).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zlib
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # benchmarks/sanitize.sh uses build_extension without hatchling
    BuildHookInterface = object

SOURCE = Path("azul_rules") / "core" / "_speedups.c"


def extension_path(root: Path) -> Path:
    """Where the compiled module goes: beside its source, named for this interpreter."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return root / "azul_rules" / "core" / f"_speedups{suffix}"


def compile_command(root: Path, output: Path) -> list[str]:
    """The compiler's command line for the module (the source's digest built in)."""
    source = root / SOURCE
    digest = f"{zlib.crc32(source.read_bytes()):08x}"  # as azul_rules.core._accelerate reads it
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    flags = shlex.split(os.environ.get("AZUL_RULES_CFLAGS", "-O2"))
    include = sysconfig.get_paths()["include"]
    return [
        *compiler, *flags, "-std=c11", "-Wall", "-fPIC", "-shared", f"-I{include}",
        f'-DAZUL_SOURCE_DIGEST="{digest}"', str(source), "-o", str(output),
    ]  # fmt: skip


def build_extension(root: Path, output: Path | None = None) -> tuple[Path | None, str]:
    """Compile the module to ``output`` (by default in place, beside its source, which a
    failed build then leaves without a module); its path and "", or ``None`` and why
    not."""
    if os.environ.get("AZUL_RULES_PURE_PYTHON", "") not in ("", "0"):
        return None, "AZUL_RULES_PURE_PYTHON is set"
    if output is None:
        output = extension_path(root)
        output.unlink(missing_ok=True)  # no module of another source is left behind
    try:
        done = subprocess.run(
            compile_command(root, output), capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"no C compiler could be run ({error})"
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        return None, f"the C compiler failed ({first})"
    return output, ""


class CompiledCoreHook(BuildHookInterface):
    """Builds ``azul_rules.core._speedups`` for the wheel and the editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        # An editable install imports the module from the checkout: it is built there.  A
        # wheel gets one built apart, leaving the checkout as it was.
        output = None if version == "editable" else self._apart(root)
        built, why = build_extension(root, output)
        if built is None:
            print(
                f"azul_rules: the compiled core was not built: {why}; installing the "
                "pure-Python core (the same games, about 3x slower).",
                file=sys.stderr,
            )
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        if output is not None:
            build_data["force_include"][str(built)] = f"azul_rules/core/{built.name}"

    def _apart(self, root: Path) -> Path:
        """Where a wheel's module is built: a folder of its own, removed at the end."""
        folder = Path(tempfile.mkdtemp(prefix="azul-rules-build-"))
        self._folder = folder
        return folder / extension_path(root).name

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
