"""The Python examples of ``docs/`` run as written: every page with ``>>>`` examples
is run as a doctest from the repository's root (as pytest runs the README's), so that
a snippet a user pastes works.  docs/audit.md's snippet used an undefined ``position``
and ``wall=...``."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [p for p in sorted((ROOT / "docs").glob("*.md")) if ">>> " in p.read_text("utf-8")]
FLAGS = doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_examples_of_a_page_run_as_written(
    page: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(page.read_text("utf-8"), {}, page.name, str(page), 0)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert runner.tries == len(test.examples) > 0


def test_the_audit_examples_are_among_them() -> None:
    """docs/audit.md's examples run: the audit of a claimed score (W3, F3) and of a
    claimed wall (S5)."""
    assert ROOT / "docs" / "audit.md" in PAGES
    text = (ROOT / "docs" / "audit.md").read_text("utf-8")
    assert "wall=..." not in text and text.count(">>> ") >= 10


def test_the_first_tournament_example_runs_as_a_script(tmp_path: Path) -> None:
    """docs/tournament.md's first Python example, pasted into a script, runs (the process
    backend's workers import the script again: the example has its ``__main__`` guard)."""
    text = (ROOT / "docs" / "tournament.md").read_text("utf-8")
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "tournament_example.py"
    script.write_text(example)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "1000 games: 1000 finished, 0 forfeited, 0 unfinished" in done.stdout
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1000


def test_the_batch_engines_examples_run_one_after_the_other() -> None:
    """docs/ai-vector.md's examples, pasted one after the other, run: a hundred steps
    of 4,096 games from the mask, then from the listed ids."""
    from tests.extras import needs, required

    needs("numpy")
    from azul_rules.ai import vector

    if vector._vector is None and not required():
        pytest.skip("the batch engine is compiled at install")
    text = (ROOT / "docs" / "ai-vector.md").read_text("utf-8")
    examples = [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]
    assert len(examples) == 2
    names: dict[str, object] = {}
    exec(compile("".join(examples), "ai-vector.md", "exec"), names)
    env = names["env"]
    assert isinstance(env, vector.VectorEnv) and env.legal == "ids"
    assert env.legal_action_mask[range(env.num_games), env.legal_action_ids[:, 0]].all()
