"""The README a newcomer reads in minutes (issue 26): at most 200 lines, the two commands
first (CI runs them: ``.ci/run``), and every page of ``docs/`` reachable from it through
Markdown links, each link landing on a file and a heading that exist."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]+`")
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")
SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _links(page: Path) -> list[tuple[Path, str]]:
    """(target file, anchor) of every Markdown link of ``page`` outside code; a link to a
    heading of the same page targets the page itself."""
    text = CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    return [((page.parent / target).resolve() if target else page, anchor)
            for target, anchor in LINK.findall(text)]  # fmt: skip


def reached_from(start: Path) -> set[Path]:
    """The Markdown files reached from ``start`` by following links, ``start`` included."""
    seen, todo = {start.resolve()}, [start.resolve()]
    while todo:
        for target, _ in _links(todo.pop()):
            if target.suffix == ".md" and target.is_file() and target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


INCLUDE = re.compile(r"^```\{include\} (\S+)$", re.MULTILINE)


def included(page: Path) -> set[Path]:
    """The files a page of the site shows whole through MyST's ``{include}``
    (``docs/examples.md`` shows ``examples/README.md``)."""
    text = page.read_text(encoding="utf-8")
    return {(page.parent / target).resolve() for target in INCLUDE.findall(text)}


def test_every_page_of_docs_is_reachable_from_the_readme() -> None:
    """Through links; a page of the site that only includes a file of the repository
    (``docs/examples.md``) is reached where that file is: the docs link the file itself,
    which the site's links lead to the page (docs/conf.py)."""
    reached = reached_from(README)
    reached |= {p.resolve() for p in (ROOT / "docs").glob("*.md") if included(p) & reached}
    missing = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.resolve() not in reached)
    assert not missing, f"docs/ pages no link leads to from README.md: {missing}"


def test_the_walk_follows_links_through_pages(tmp_path: Path) -> None:
    """A page linked from a linked page is reached; a page nothing links to is not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("See [a](docs/a.md).\n")
    (tmp_path / "docs" / "a.md").write_text("# A\n\nThen [b](b.md#top), `[c](c.md)`.\n")
    (tmp_path / "docs" / "b.md").write_text("# B\n\n```md\n[c](c.md)\n```\n")
    (tmp_path / "docs" / "c.md").write_text("# C\n")
    reached = {p.name for p in reached_from(tmp_path / "README.md")}
    assert reached == {"README.md", "a.md", "b.md"}


def slug(heading: str) -> str:
    """A heading's anchor as code forges write it: lower case, punctuation dropped
    (hyphens and underscores kept), each space a hyphen."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.MULTILINE)}


def test_every_link_of_the_readme_and_docs_lands_on_a_heading() -> None:
    """Links such as ``docs/cli.md#failures`` name a heading of their page."""
    pages = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks" / "README.md"]
    broken = []
    for page in pages:
        for target, anchor in _links(page):
            assert target.exists(), (page.name, target)
            if anchor and target.suffix == ".md" and anchor not in _anchors(target):
                broken.append(f"{page.relative_to(ROOT)} -> {target.name}#{anchor}")
    assert not broken


def test_slugs_are_the_forge_s() -> None:
    assert slug("The compiled core (issue 25)") == "the-compiled-core-issue-25"
    assert slug('`board(state, *, player=None, highlight=None, lang="en", size=None)`') == (
        "boardstate--playernone-highlightnone-langen-sizenone"
    )
    assert slug("How long games last, and what to cap") == "how-long-games-last-and-what-to-cap"


def test_the_pages_that_include_a_file_include_one_that_exists() -> None:
    """docs/examples.md and docs/benchmarks.md show the READMEs of examples/ and
    benchmarks/ in the site."""
    pages = {p.name: included(p) for p in (ROOT / "docs").glob("*.md") if included(p)}
    assert pages == {
        "examples.md": {ROOT / "examples" / "README.md"},
        "benchmarks.md": {ROOT / "benchmarks" / "README.md"},
    }


def test_the_readme_is_at_most_200_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def _commands() -> list[str]:
    return [block.strip() for block in SH_BLOCK.findall(README.read_text(encoding="utf-8"))]


def test_the_two_commands_come_first() -> None:
    """The first screen says how to start: the README's first code blocks are the command
    that installs and runs a whole refereed game, then the one that installs and tests."""
    text = README.read_text(encoding="utf-8")
    assert text.index("```") == text.index("```sh\n") < len("\n".join(text.splitlines()[:12]))
    play, test = _commands()[:2]
    assert play.startswith("python3 -m venv .venv && .venv/bin/pip install -q -e . && ")
    assert play.endswith(" && .venv/bin/azul-rules play --players 2 --seed 1")
    assert test.startswith("python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && ")


def test_the_install_page_gives_the_readme_s_two_commands() -> None:
    """docs/install.md, the site's first page, starts with the README's two commands,
    word for word."""
    install = ROOT / "docs" / "install.md"
    blocks = [b.strip() for b in SH_BLOCK.findall(install.read_text(encoding="utf-8"))]
    assert blocks[:2] == _commands()[:2]


def test_ci_runs_the_readme_s_commands_word_for_word() -> None:
    """``.ci/run`` runs the README's test command as written, and the game of its first
    command, so that neither can stop being true unnoticed."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    play, test = _commands()[:2]
    assert test in ci
    game = play.rsplit(" && ", 1)[1]
    assert any(line.startswith(game + " ") or line == game for line in ci)


def test_the_tournament_command_runs_twice_in_a_row(tmp_path: Path) -> None:
    """The README's tournament command, run again, reads its file back instead of
    refusing a file that already holds games; the file it writes in the project's root
    is in .gitignore.  (Two games on this process stand for its thousand on a pool.)"""
    line = next(c for c in _commands() if "azul-rules tournament" in c)
    words = shlex.split(line)
    out = words[words.index("--out") + 1]
    assert f"/{out}" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    words[words.index("--games") + 1] = "2"
    words[words.index("--backend") + 1] = "local"
    command = [sys.executable, "-m", "azul_rules", *words[1:], "--no-progress"]
    for played in ("2 games played", "0 games played"):
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert played in done.stdout
    assert len((tmp_path / out).read_text(encoding="utf-8").splitlines()) == 2
