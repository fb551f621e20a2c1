"""Sphinx configuration of the documentation site: the pages of ``docs/`` (Markdown, read
by MyST) and the API reference generated from the docstrings (autodoc).

Build it offline, with warnings as errors (``pip install -e '.[docs]'``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import re

# The reference documents the Python core, the specification: the compiled functions of a
# few methods (``GameState.legal_moves``) carry only a one-line docstring.
os.environ["AZUL_RULES_PURE_PYTHON"] = "1"
import sys
from importlib.metadata import version as _version
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import PycodeError
from sphinx.pycode import ModuleAnalyzer
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

project = "azul_rules"
release = _version("azul_rules")
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
language = "en"

# MyST: the headings get the anchors a code forge gives them, so that the pages' links to a
# heading (``[Limits](#limits)``, ``json-format.md#writing``) work in the site too.
myst_heading_anchors = 4

# autodoc: every public member (a module's __all__), in the order of the source.  A constant
# a module re-exports has no docstring there: its page of the API reference
# (docs/api-*.md) names it (autodata).
autodoc_default_options = {"members": True, "undoc-members": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"

html_theme = "furo"
html_title = "azul_rules"
html_show_sourcelink = False
html_copy_source = False
html_show_copyright = False


INCLUDE = re.compile(r"^```\{include\}\s+(\S+)\s*$", re.MULTILINE)


def _included_pages(docs: Path) -> dict[Path, str]:
    """The files of the repository outside ``docs/`` that a page shows whole through
    MyST's ``{include}`` (``docs/examples.md`` shows ``examples/README.md``): file -> the
    page's name."""
    return {
        (page.parent / target).resolve(): page.stem
        for page in sorted(docs.glob("*.md"))
        for target in INCLUDE.findall(page.read_text(encoding="utf-8"))
    }


class FilesBesideTheDocs(SphinxTransform):
    """A link of a page to a file of the repository outside ``docs/``
    (``[benchmarks](../benchmarks/README.md#in-short)``), so that the Markdown keeps
    working on disk and in a code forge: in the site it leads to the page that includes
    that file (``benchmarks.md``), at the same heading, or, for a file no page includes,
    it becomes a download of the file (as a linked picture is copied).  A link to a file
    that does not exist stays a broken link, and a warning."""

    default_priority = 500

    def apply(self, **kwargs: object) -> None:
        page = Path(self.env.doc2path(self.env.docname))
        repository = Path(self.env.srcdir).parent
        included = _included_pages(Path(self.env.srcdir))
        for ref in list(self.document.findall(addnodes.pending_xref)):
            if ref.get("refdomain") != "doc" or ref["reftarget"] in self.env.found_docs:
                continue
            target = Path(ref["reftarget"] + ".md")
            if not (target.is_absolute() and target.is_file()):
                continue
            if target.resolve() in included:
                ref["reftarget"] = included[target.resolve()]
            elif target.is_relative_to(repository):
                ref.replace_self(_download(ref, os.path.relpath(target, page.parent)))


def _download(ref: nodes.Element, path: str) -> nodes.Node:
    """A download of ``path`` (relative to the page), showing what ``ref`` showed."""
    node = addnodes.download_reference(
        "", "", *ref.children, refdoc=ref["refdoc"], reftarget=path, refexplicit=True
    )
    node["classes"] = ["xref", "download", "myst"]
    return node


# A name written as code in a page: ``GameState.apply``, ``az.new_game``, ``vector.make(...)``.
CODE_NAME = re.compile(r"(?:az\.)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(.*\))?", re.DOTALL)
CAPITALISED = re.compile(r"[A-Z]\w*")
# The lower-case words that name the referee's own functions and GameState's methods
# (``validate``, ``apply``, ``new_game``) are also the engine protocol's requests, the web
# judge's answers, the commands of the command line and the modules of the layout: on
# these pages such a word links only written as a call or with its class.
PAGES_OF_OTHER_WORDS = {"engine-protocol", "web", "cli", "layout", "reliability", "scorekeeper"}
# Where code is left as it is: in a link, a heading, a signature.
NOT_HERE = (nodes.reference, addnodes.pending_xref, nodes.title, addnodes.desc_signature,
            addnodes.toctree)  # fmt: skip


def reference_names(
    objects: dict[str, tuple[str, str, str, bool]],
) -> tuple[dict[str, str], dict[str, str]]:
    """What a name written as code in a page may stand for: (names, plain words).

    ``names``: each documented Python object under its full name
    (``azul_rules.GameState.apply``), without the ``azul_rules.`` prefix
    (``GameState.apply``, ``ai.vector.make``, ``to_json`` rather than
    ``GameRecord.to_json``) and under each shorter dotted ending (``vector.make``), and,
    written as a call (``action_id(move, players)``) or capitalised
    (``IllegalMoveError``, ``MAX_SCORE``), under its last word.  ``plain
    words``: the lower-case words that name a function of ``azul_rules`` itself or a
    method of ``GameState`` (``new_game``, ``validate``), which link where no other
    vocabulary uses them.  An ending two objects share names neither; a module is never
    named by a bare word (``testing``, ``web`` are the extras too)."""
    entries = {name: entry for name, entry in objects.items() if not entry[3]}  # no alias
    found: dict[str, str] = {}
    shared: set[str] = set()
    for name, (_, _, kind, _) in entries.items():
        parts = name.split(".")
        for cut in range(1, len(parts)):
            ending = ".".join(parts[cut:])
            if cut == len(parts) - 1 and kind == "module":
                continue
            if found.get(ending, name) != name:
                shared.add(ending)
            found[ending] = name
    for ending in shared:
        del found[ending]
    found.update({name.removeprefix("azul_rules."): name for name in entries})  # to_json
    found.update({name: name for name in entries})
    plain = {
        word: name for word, name in found.items()
        if "." not in word and not CAPITALISED.fullmatch(word) and entries[name][2] != "module"
        and name.rpartition(".")[0] in ("azul_rules", "azul_rules.GameState")
    }  # fmt: skip
    return found, plain


class NamesToTheReference(SphinxPostTransform):
    """A name of the API written as code in a page (```GameState.apply```,
    ```IllegalMoveError```, ```azul_rules.ai.vector.make```, ```az.audit(...)```)
    becomes a link to its entry in the API reference, so that the guides lead to the
    reference without a link written by hand.  It runs once every page is read, before
    the references are resolved: the Python domain then knows every documented object.
    Code that names nothing documented, or names two objects, stays as it is."""

    default_priority = 5

    def run(self, **kwargs: object) -> None:
        names, plain = reference_names(self.env.get_domain("py").objects)  # type: ignore[attr-defined]
        if self.env.docname in PAGES_OF_OTHER_WORDS:
            plain = {}
        for literal in list(self.document.findall(nodes.literal)):
            if any(isinstance(a, NOT_HERE) for a in _ancestors(literal)):
                continue
            match = CODE_NAME.fullmatch(literal.astext())
            if not match:
                continue
            name, call = match.groups()
            bare = "." not in name and not call and not CAPITALISED.fullmatch(name)
            target = plain.get(name) if bare else names.get(name)
            if target is None:
                continue
            xref = addnodes.pending_xref(
                "", refdomain="py", reftype="obj", reftarget=target, refexplicit=True,
                refdoc=self.env.docname,
            )  # fmt: skip
            literal.replace_self(xref)
            xref += literal


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found


def data_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """The docstring of a constant re-exported by ``azul_rules`` (``CENTER``, ``Move``):
    the one written under it where it is defined, rather than that of its type (``int``)."""
    if what != "data" or "." not in name:
        return
    home, _, short = name.rpartition(".")
    if _attribute_doc(home, short):
        return  # documented where autodoc looks
    for module in sorted(m for m in sys.modules if m.startswith("azul_rules.")):
        docs = _attribute_doc(module, short)
        if docs and getattr(sys.modules[module], short, lines) is obj:
            lines[:] = docs
            return


def _attribute_doc(module: str, name: str) -> list[str]:
    """The docstring written under ``name = ...`` in ``module``'s source (none without
    source, as for the compiled core)."""
    try:
        return list(ModuleAnalyzer.for_module(module).find_attr_docs().get(("", name), []))
    except PycodeError:
        return []


def required_parts(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None] | None:
    """``GameState.make``'s parts without a default are shown as such: the marker of a
    missing part (``<required>``) is no Python a signature can hold."""
    if signature is None or " = <required>" not in signature:
        return None
    return signature.replace(" = <required>", ""), return_annotation


def setup(app: Sphinx) -> None:
    app.add_transform(FilesBesideTheDocs)
    app.add_post_transform(NamesToTheReference)
    app.connect("autodoc-process-docstring", data_docstring)
    app.connect("autodoc-process-signature", required_parts)
