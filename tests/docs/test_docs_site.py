"""The documentation site, built as CI builds it (``docs/conf.py``, the ``docs`` extra):
the names the guides write as code lead to their entries in the API reference, and the
docs' links to files beside ``docs/`` (``examples/README.md``) lead to pages of the site
rather than downloading raw Markdown."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.extras import needs

needs("sphinx")
needs("myst_parser")
needs("furo")

ROOT = Path(__file__).resolve().parents[2]
# a whole build, some 15 s on 2 cores: run in the thorough run (CI's check of the site),
# on one worker, so that the module's tests share one build
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("docs-site")]

# A link around a piece of code: <a ... href="H"><code ...><span class="pre">T</span>...
CODE_LINK = re.compile(
    r'<a class="reference internal" href="([^"]*)"[^>]*><code class="docutils literal '
    r'notranslate">((?:<span class="pre">[^<]*</span>|\s)+)</code></a>'
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built offline with warnings as errors."""
    out = tmp_path_factory.mktemp("site") / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html",
         "docs", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def code_links(page: Path) -> dict[str, set[str]]:
    """Each piece of code of a built page that is a link -> where it leads."""
    found: dict[str, set[str]] = {}
    for href, spans in CODE_LINK.findall(page.read_text(encoding="utf-8")):
        text = " ".join(re.findall(r'<span class="pre">([^<]*)</span>', spans))
        found.setdefault(text, set()).add(href)
    return found


def test_the_quick_start_links_its_names_to_the_reference(site: Path) -> None:
    links = code_links(site / "quickstart.html")
    assert links["GameState.apply"] == {"api-core.html#azul_rules.GameState.apply"}
    assert links["IllegalMoveError"] == {"api-core.html#azul_rules.IllegalMoveError"}
    assert links["new_game"] == {"api-core.html#azul_rules.new_game"}


def test_the_guides_link_short_names_dotted_names_and_calls(site: Path) -> None:
    guide = code_links(site / "guide.html")
    assert guide["validate"] == {"api-core.html#azul_rules.GameState.validate"}
    assert guide["to_json"] == {"api-formats.html#azul_rules.to_json"}  # not GameRecord's
    assert guide["az.audit(position, claim)"] == {"api-adjudication.html#azul_rules.audit"}
    overview = code_links(site / "ai.html")
    assert overview["vector.make(num_games, players)"] == {
        "api-ai.html#azul_rules.ai.vector.make"
    }
    assert overview["azul_rules.ai.pgx"] == {"api-ai.html#module-azul_rules.ai.pgx"}


def test_words_of_other_vocabularies_stay_code(site: Path) -> None:
    """The engine protocol's ``apply`` request is no link to ``GameState.apply``, and an
    extra's name (``testing``) is no link to the module of that name."""
    assert "apply" not in code_links(site / "engine-protocol.html")
    assert "testing" not in code_links(site / "install.html")


def test_links_to_files_beside_the_docs_lead_to_pages_of_the_site(site: Path) -> None:
    """``[examples](../examples/README.md)`` is the page that includes that README, and
    ``../benchmarks/README.md#in-short`` that heading of the benchmarks' page; no page
    hands out a Markdown file to download."""
    cli = (site / "cli.html").read_text(encoding="utf-8")
    assert 'href="examples.html"' in cli
    assert 'href="benchmarks.html#in-short"' in (site / "guide.html").read_text(encoding="utf-8")
    assert 'id="in-short"' in (site / "benchmarks.html").read_text(encoding="utf-8")
    assert not list(site.glob("_downloads/*/*.md"))
