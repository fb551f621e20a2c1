"""The rule book inside the project: every rule and ruling by id, in English and French,
the generated pages, and the ids the code, the docs and the tests cite."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import azul_rules as az
from azul_rules.cli import main
from azul_rules.cli.make_docs import PAGES, pages
from azul_rules.core.rulebook import (
    CODE_RULES,
    PROBLEM_RULES,
    RULES,
    code_description,
    markdown,
    problem_description,
    rules,
)
from azul_rules.text import template

ROOT = Path(__file__).resolve().parents[2]
BOOK_IDS = [
    *("G1", "G2", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "T1", "T2", "T3", "T4"),
    *("P1", "P2", "P3", "P4", "P5", "P6", "P7", "F1", "F2", "F3", "F4"),
    *("W1", "W2", "W3", "W4", "W5", "R1", "R2", "R3", "R4", "R5", "R6", "R7"),
    *("E1", "E2", "E3", "E4", "V1", "V2", "V3", "V4", "V5"),
]
RULE_ID = re.compile(r"\b[GSTPFWREV][0-9]{1,2}\b")
RULINGS = {"F4", "R5", "R6", "R7", "V5"}
# Rules whose tests live outside this suite (none: R7's enforcement by the core is tested
# with the core, and the audit's own use of it in test_audit_tiling).
TESTED_ELSEWHERE: set[str] = set()


def test_the_book_has_every_rule_and_ruling_in_order() -> None:
    assert list(RULES) == BOOK_IDS
    assert {r.id for r in rules() if r.ruling} == RULINGS
    assert [r.id for r in rules("v")] == ["V1", "V2", "V3", "V4", "V5"]


@pytest.mark.parametrize("rule_id", BOOK_IDS)
def test_each_rule_in_english_and_french(rule_id: str) -> None:
    entry = az.rule(rule_id)
    assert entry.id == rule_id and entry.title == entry.title_in("en")
    for lang in ("en", "fr"):
        assert len(entry.text(lang)) > 40 and entry.title_in(lang)
    assert entry.text("fr") != entry.text("en")
    if entry.ruling:
        assert entry.text("en").startswith("Ruling") and entry.text("fr").startswith("Décision")


def test_french_uses_the_game_s_french_terms() -> None:
    french = markdown("fr")
    for term in ("fabrique", "centre de la table", "ligne de préparation", "mur", "plancher",
                 "couvercle", "sac", "marqueur premier joueur"):  # fmt: skip
        assert term in french


def test_rule_lookup() -> None:
    assert az.rule(" p3 ") is az.rule("P3")
    assert "E1 can never happen" in az.rule("R7").text()
    with pytest.raises(ValueError, match=r"no rule 'Z9'.*G1-G2, S1-S7"):
        az.rule("Z9")
    with pytest.raises(ValueError, match="unknown language"):
        az.rule("P3").text("de")


def test_violations_and_problems_give_their_rule_s_text() -> None:
    """P3 through a Violation, S3 through a Problem."""
    violation = az.Violation.of(az.ErrorCode.WALL_COLOR_CONFLICT, "P3", row=0, line=0,
                                color=az.Color.RED)  # fmt: skip
    assert violation.rule_text() == az.rule("P3").text("en")
    assert violation.rule_text("fr").startswith("On ne peut pas mettre une couleur")
    problem = az.Problem(az.StateProblem.TILE_COUNT, "S3", "$", "19 red tiles")
    assert problem.rule_text("fr") == az.rule("S3").text("fr")


def test_the_committed_pages_are_the_generated_ones() -> None:
    """docs/rules.md and docs/regles.md: python -m azul_rules.cli.make_docs writes them."""
    for name, text in pages():
        assert (ROOT / "docs" / name).read_text(encoding="utf-8") == text, name
    assert set(PAGES.values()) == {"rules.md", "regles.md"}


def test_make_docs_check_and_write(tmp_path: Path) -> None:
    from azul_rules.cli.make_docs import main as make_docs

    assert make_docs([str(tmp_path), "--check"]) == 1
    assert make_docs([str(tmp_path)]) == 0
    assert make_docs([str(tmp_path), "--check"]) == 0
    assert (tmp_path / "rules.md").read_text(encoding="utf-8") == markdown("en")


def test_make_docs_has_a_command_line_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--help`` is help, not a folder; a wrong command line or a folder that cannot be
    written is one line on standard error and exit 2, never a traceback."""
    from azul_rules.cli.make_docs import main as make_docs

    done = subprocess.run([sys.executable, "-m", "azul_rules.cli.make_docs", "--help"],
                          capture_output=True, text=True, check=False, cwd=tmp_path)  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    usage = "usage: python -m azul_rules.cli.make_docs [-h] [--check] [DOCS_DIR]"
    assert done.stdout.startswith(usage)
    assert list(tmp_path.iterdir()) == []
    assert make_docs(["--bogus"]) == 2
    assert capsys.readouterr().err == (
        "python -m azul_rules.cli.make_docs: unrecognized arguments: --bogus "
        "(see python -m azul_rules.cli.make_docs --help)\n"
    )
    assert make_docs(["one", "two"]) == 2
    assert "unrecognized arguments: two" in capsys.readouterr().err
    missing = tmp_path / "missing"
    assert make_docs([str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"python -m azul_rules.cli.make_docs: cannot write {missing}/rules.md: "
        "No such file or directory\n"
    )


def test_every_error_code_cites_rules_of_the_book() -> None:
    assert set(CODE_RULES) == {code.value for code in az.ErrorCode}
    for code, ids in CODE_RULES.items():
        english, french = code_description(code, "en"), code_description(code, "fr")
        assert ids and set(ids) <= set(RULES) and english and french


def test_every_impossible_position_is_in_the_book_with_its_rules() -> None:
    """docs/rules.md and docs/regles.md list every StateProblem code, in the enum's
    order, each with the rules it cites and its description in that language."""
    assert list(PROBLEM_RULES) == [code.value for code in az.StateProblem]
    for lang, page in (("en", "rules.md"), ("fr", "regles.md")):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        section = text.split(template(lang, "page.impossible"), 1)[1]
        rows = re.findall(r"^\| `([A-Z_]+)` \| (.+) \| ([A-Z0-9, ]+) \|$", section, re.MULTILINE)
        assert [(code, description, ids) for code, description, ids in rows] == [
            (code, problem_description(code, lang), ", ".join(ids))
            for code, ids in PROBLEM_RULES.items()
        ], page
        assert all(set(ids) <= set(RULES) for ids in PROBLEM_RULES.values())


def _cited_in(paths: list[Path]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in paths:
        for rule_id in RULE_ID.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_rule_id_cited_in_code_messages_and_docs_exists() -> None:
    """Violation.of(..., "P3"), Problem rule ids, messages, docstrings, the docs' tables."""
    paths = [*sorted((ROOT / "azul_rules").rglob("*.py")), *sorted((ROOT / "docs").glob("*.md")),
             ROOT / "README.md", ROOT / "examples" / "README.md"]  # fmt: skip
    cited = _cited_in(paths)
    unknown = {rule_id: where for rule_id, where in cited.items() if rule_id not in RULES}
    assert not unknown
    assert len(cited) >= 40


def _literal_ids(node: ast.expr) -> list[str] | None:
    """The rule ids a call's argument can be: a string, or either branch of ``a if c else
    b``; ``None`` for anything computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _literal_ids(node.body), _literal_ids(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _code_and_rule_calls() -> list[tuple[str, str, str]]:
    """(place, code or problem name, rule id) for every call of the library whose first
    argument is an ``ErrorCode``/``StateProblem`` member and whose second is a written
    rule id: ``Violation.of(E.SPLIT_LOT, "P1", ...)``, ``Problem.of(...)``,
    ``self.add(E.X, "V4" if ... else "V1", ...)``."""
    found = []
    for path in sorted((ROOT / "azul_rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Attribute)):  # fmt: skip
                continue
            owner = node.args[0].value
            if not (isinstance(owner, ast.Name) and owner.id in {"E", "ErrorCode", "StateProblem"}):
                continue
            for rule_id in _literal_ids(node.args[1]) or []:
                place = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((place, f"{owner.id}.{node.args[0].attr}", rule_id))
    return found


def test_every_rule_id_written_beside_a_code_is_in_the_book_and_its_table_row() -> None:
    """Whatever its letter (the id pattern above only sees the book's letters): a rule id
    written in a Violation or a Problem exists, and is one of the rules its code's table
    row cites (docs/rules.md: the error codes, the impossible positions), so that
    --explain prints the rule it names."""
    calls = _code_and_rule_calls()
    assert len(calls) >= 60
    unknown = [(place, rule_id) for place, _, rule_id in calls if rule_id not in RULES]
    assert not unknown
    rows = {**CODE_RULES, **PROBLEM_RULES}
    outside_row = [(place, name, rule_id) for place, name, rule_id in calls
                   if rule_id not in rows[name.split(".")[1]]]  # fmt: skip
    assert not outside_row
    assert {name.split(".")[1] for _, name, _ in calls if name.startswith("StateProblem")} >= {
        code.value for code in az.StateProblem} - {"PLAYER_OUT_OF_RANGE"}


def _cited_by_tests() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name.lower().startswith(
                "test"
            ):
                text = node.name.upper().replace("_", " ") + " " + (ast.get_docstring(node) or "")
                found.update(RULE_ID.findall(text))
    return found


def test_every_rule_of_the_book_is_cited_by_a_test() -> None:
    """Each rule id appears in a test's name or docstring."""
    missing = set(BOOK_IDS) - _cited_by_tests()
    assert missing <= TESTED_ELSEWHERE, sorted(missing)


MARKDOWN_PAGES = [
    ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "CHANGELOG.md",
    ROOT / "examples" / "README.md", ROOT / "benchmarks" / "README.md",
]  # fmt: skip


def test_nothing_links_outside_the_repository() -> None:
    """Every link of the README, the docs, the changelog and the other READMEs resolves
    to a file of the repository; none points at a shared folder beside it, nor at the
    web."""
    for page in MARKDOWN_PAGES:
        text = page.read_text(encoding="utf-8")
        assert "shared/" not in text, page
        for target in re.findall(r"\]\(([^)#]*)(?:#[^)]*)?\)", text):
            if not target:
                continue  # a link to a heading of the same page
            assert "://" not in target, (page.name, target)
            resolved = (page.parent / target).resolve()
            assert resolved.is_relative_to(ROOT) and resolved.exists(), (page, target)
    assert "(docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


# A path to a folder beside the checkout ("../shared", Path(...).parents[2] / "shared") or
# to this machine's work tree: what only one checkout has.
OUTSIDE = re.compile(r"\.\./shared|/work/|[\"']shared[\"']\s*/|\bRULES\.md\b|\bCONTRACT\.md\b")
TEXT_FILES = (".py", ".md", ".toml", ".json", ".html", ".js", ".css", ".txt", ".cfg")
NOT_OURS = {".git", ".venv", ".hypothesis", ".mypy_cache", ".pytest_cache", ".ruff_cache",
            "__pycache__", "node_modules"}  # fmt: skip


def _repository_files() -> list[Path]:
    """The text files of the checkout, without walking into virtual environments and
    caches (pruned, so that a CI .venv costs nothing)."""
    found = [ROOT / ".ci" / "run"]
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in NOT_OURS and not d.endswith(".egg-info")]
        found += [Path(folder) / n for n in names if n.endswith(TEXT_FILES)]
    return found


def test_no_file_reaches_outside_the_repository() -> None:
    """Code, tests, docs, examples and CI stand alone: none reads or names a file beside
    the checkout (a shared rules or contract file, a machine's work tree); the rule book
    is docs/rules.md.  (tests/core/test_api.py read ../shared/RULES.md when it was there.)"""
    this = Path(__file__).resolve()
    hits = []
    for path in _repository_files():
        if path.resolve() != this:
            text = path.read_text(encoding="utf-8", errors="replace")
            hits += [(str(path.relative_to(ROOT)), m.group(0)) for m in OUTSIDE.finditer(text)]
    assert not hits
    assert OUTSIDE.search('Path(__file__).parents[2] / "shared" / "RULES.md"')


URL = re.compile(r"https?://[^\s`)>\]]*", re.IGNORECASE)
LOCAL = re.compile(r"https?://(127\.0\.0\.1|localhost|\[::1\])[:/]", re.IGNORECASE)
CODE = re.compile(r"```.*?```|`[^`]+`", re.DOTALL)  # a code span may run over a line end


def test_no_page_links_to_the_web() -> None:
    """The project stands alone: no http:// or https:// address in the README, docs/,
    the changelog or the other READMEs (docs/web.md linked Starlette's and uvicorn's
    sites, the changelog Keep a Changelog's).  Projects are named, not linked.  The one
    kind of address allowed is the web judge's on this machine (``127.0.0.1``,
    ``localhost``), quoted as code: where ``azul-rules serve`` answers, not a link."""
    for page in MARKDOWN_PAGES:
        text = page.read_text(encoding="utf-8")
        prose = CODE.sub("", text)
        assert not URL.findall(prose), (page.name, URL.findall(prose))
        outside = [url for url in URL.findall(text) if not LOCAL.match(url)]
        assert not outside, (page.name, outside)


def test_the_link_check_catches_a_link_to_the_web() -> None:
    """The patterns above find the links that were removed, and let the local
    addresses quoted as code pass."""
    removed = "[Starlette](https://www.starlette.io/) and <https://semver.org/>"
    assert URL.findall(CODE.sub("", removed)) == ["https://www.starlette.io/", "https://semver.org/"]
    local = "serves at `http://127.0.0.1:8000/`, and ```sh\nazul-rules serve  # http://localhost:8000/\n```"
    assert not URL.findall(CODE.sub("", local))
    assert all(LOCAL.match(url) for url in URL.findall(local))
    assert not URL.findall(CODE.sub("", "plain text naming Starlette and uvicorn"))
    assert URL.findall(CODE.sub("", "see http://127.0.0.1:8000/ in prose")) != []


def test_cli_rules_index_one_rule_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "Wall tiling" in out and "  R7  No row can be finished any more" in out
    assert main(["rules", "w3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("W3 Les points d'un carreau posé\n") and "diagonale" in out
    assert main(["rules", "--all"]) == 0
    assert "E1 can never happen" in capsys.readouterr().out
    assert main(["rules", "Q1"]) == 2
    err = capsys.readouterr().err
    assert "no rule 'Q1'" in err and "Traceback" not in err


def test_cli_explain_prints_the_rule_under_each_violation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """P1 / SPLIT_LOT with --explain: the rule's text follows the violation."""
    position = str(ROOT / "examples/round-2-position.json")
    assert main(["check", position, str(ROOT / "examples/split-lot.json"), "--explain"]) == 1
    out = capsys.readouterr().out
    assert "SPLIT_LOT (P1)" in out and "P1 The lot goes to one place." in out
    assert main(["check", position, str(ROOT / "examples/split-lot.json"), "--explain",
                 "--json", "--lang", "fr"]) == 1  # fmt: skip
    assert '"rule_text": "Tous les carreaux pris pendant un tour' in capsys.readouterr().out


def test_a_rules_repr_names_it_with_its_title() -> None:
    """P3 and the ruling R5 read in a traceback or a REPL by id and title."""
    assert repr(az.rule("P3")) == "<Rule P3 'No colour twice beside a wall row'>"
    assert repr(az.rule("R5")) == "<Ruling R5 'Nobody took from the centre'>"
