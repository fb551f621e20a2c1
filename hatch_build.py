"""Hatchling build hook: compiles the rules engine's two faces.

Run by ``pip install .``, ``pip install -e .`` and ``pip wheel .``.  It compiles, with the
compiler Python was built with (``sysconfig``'s ``CC``; ``$CC`` overrides it), each
module of ``azul_rules.core._accelerate.SOURCES``: ``azul_rules.core._compiled`` (the
engine behind the referee's objects) and ``azul_rules.ai._vector`` (the batch engine),
beside their sources, and makes the wheel a platform wheel holding them.  When no
compiler works, the install goes on with the pure-Python code and says so in one line;
``AZUL_RULES_PURE_PYTHON=1`` at install skips the compiler altogether.  Extra compiler
flags come from ``AZUL_RULES_CFLAGS`` (``benchmarks/sanitize.sh`` builds with
``-fsanitize=address,undefined`` through it).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # benchmarks/sanitize.sh uses build_extension without hatchling
    BuildHookInterface = object

ACCELERATE = Path("azul_rules") / "core" / "_accelerate.py"


def sources(root: Path) -> ModuleType:
    """``azul_rules/core/_accelerate.py``, read on its own (the package is not importable
    while it is being built): the modules' sources and how their digest is made."""
    spec = importlib.util.spec_from_file_location("_azul_accelerate", root / ACCELERATE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extension_path(root: Path, module: str) -> Path:
    """Where a compiled module goes: beside its sources, named for this interpreter."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    *package, name = module.split(".")
    return root.joinpath(*package) / f"{name}{suffix}"


def compile_command(root: Path, module: str, output: Path) -> list[str]:
    """The compiler's command line for ``module`` (its sources' digest built in)."""
    accelerate = sources(root)
    digest = accelerate.source_digest(module, str(root))
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    flags = shlex.split(os.environ.get("AZUL_RULES_CFLAGS", "-O2"))
    include = sysconfig.get_paths()["include"]
    engine = root / "azul_rules" / "core" / "_engine"
    return [
        *compiler, *flags, "-std=c11", "-Wall", "-fPIC", "-shared", f"-I{include}",
        f"-I{engine}", f'-DAZUL_SOURCE_DIGEST="{digest}"',
        *(str(root / path) for path in accelerate.SOURCES[module]), "-o", str(output),
    ]  # fmt: skip


def build_extension(
    root: Path, module: str, output: Path | None = None
) -> tuple[Path | None, str]:
    """Compile ``module`` to ``output`` (by default in place, beside its sources, which a
    failed build then leaves without a module); its path and "", or ``None`` and why
    not."""
    if os.environ.get("AZUL_RULES_PURE_PYTHON", "") not in ("", "0"):
        return None, "AZUL_RULES_PURE_PYTHON is set"
    if output is None:
        output = extension_path(root, module)
        output.unlink(missing_ok=True)  # no module of other sources is left behind
    try:
        done = subprocess.run(
            compile_command(root, module, output), capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.SubprocessError) as error:
        return None, f"no C compiler could be run ({error})"
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        return None, f"the C compiler failed ({first})"
    return output, ""


class CompiledCoreHook(BuildHookInterface):
    """Builds the compiled modules for the wheel and the editable install."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        for module in sources(root).SOURCES:
            # An editable install imports the module from the checkout: it is built
            # there.  A wheel gets one built apart, leaving the checkout as it was.
            output = None if version == "editable" else self._apart(root, module)
            built, why = build_extension(root, module, output)
            if built is None:
                print(
                    f"azul_rules: {module} was not built: {why}; installing the pure-Python "
                    "code in its place (the same games, several times slower).",
                    file=sys.stderr,
                )
                continue
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            if output is not None:
                target = extension_path(Path(""), module)
                build_data["force_include"][str(built)] = str(target)

    def _apart(self, root: Path, module: str) -> Path:
        """Where a wheel's module is built: a folder of its own, removed at the end."""
        if getattr(self, "_folder", None) is None:
            self._folder = Path(tempfile.mkdtemp(prefix="azul-rules-build-"))
        return self._folder / extension_path(root, module).name

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
