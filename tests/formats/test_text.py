"""The catalogues (azul_rules.text): one .po file per language, read strictly and lazily;
every key of every catalogue in every language, with the same placeholders."""

from __future__ import annotations

import os
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from azul_rules.text import SOURCE, keys, languages, load, plural_index, template
from azul_rules.text.catalogue import FOLDER
from azul_rules.text.po import CatalogueError, placeholders, read_catalogue, read_po

HEADER = (
    'msgid ""\nmsgstr ""\n"Language: xx\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
)


def test_the_languages_are_the_catalogues_present() -> None:
    import azul_rules as az
    from azul_rules.core.messages import LANGUAGES
    from azul_rules.core.rulebook import LANGUAGES as BOOK_LANGUAGES

    files = sorted(name[:-3] for name in os.listdir(FOLDER) if name.endswith(".po"))
    assert languages() == ("en", "fr") and sorted(languages()) == files
    assert LANGUAGES == BOOK_LANGUAGES == languages()
    assert az.rule("P3").titles.keys() == set(languages())


def test_every_key_of_every_catalogue_in_every_language_with_the_same_placeholders() -> None:
    """None missing, none extra, none empty, the same figures, and every counted word
    with as many forms as its language has plural forms."""
    english = load(SOURCE)
    assert len(english.texts) > 400
    for lang in languages():
        catalogue = load(lang)
        assert catalogue.texts.keys() == english.texts.keys(), lang
        for key, text in catalogue.texts.items():
            assert text, (lang, key)  # a thousands separator may be a (narrow) space
            assert placeholders(text) == placeholders(english.texts[key]), (lang, key)
            for _, name, spec, _ in string.Formatter().parse(text):
                if name and spec and "|" in spec:
                    assert spec.count("|") + 1 == catalogue.nplurals, (lang, key)


def test_french_and_english_differ_where_they_should() -> None:
    same = [k for k in keys() if template("en", k) == template("fr", k)]
    # what reads the same: figures alone, a score, "centre", the framing of a path
    assert len(same) < 15, same
    assert template("fr", "code.GAME_OVER") == (
        "la partie est terminée\u202f: aucun coup n'est possible"
    )


def test_plural_forms_come_from_the_headers() -> None:
    """English: 1 tile, 0 tiles; French: 0 carreau, 1 carreau, 2 carreaux; a fraction of
    seconds: 1.5 seconds, 1,5 seconde; what is not a number takes the last form."""
    assert [plural_index("en", n) for n in (0, 1, 2, -1, 1.0, 1.5)] == [1, 0, 1, 0, 0, 1]
    assert [plural_index("fr", n) for n in (0, 1, 2, -1, 1.0, 1.5)] == [0, 0, 1, 0, 0, 0]
    assert plural_index("fr", "x") == plural_index("en", None) == 1


def test_a_po_file_is_read_with_its_escapes_lines_comments_and_context() -> None:
    text = HEADER + "\n".join([
        "", "# a translator's comment", "#. an extracted comment", "#: somewhere.py:1",
        "#, python-brace-format", 'msgid "a"', 'msgstr ""', '"tab\\there, quote \\" and "',
        '"backslash \\\\ and\\nnewline"', "", 'msgctxt "menu"', 'msgid "b"', 'msgstr "B"',
        "", '#~ msgid "old"', '#~ msgstr "obsolete"', "", 'msgid "one"', 'msgid_plural "many"',
        'msgstr[0] "un"', 'msgstr[1] "des"',
    ])  # fmt: skip
    po = read_po(text, "x.po")
    assert po.header["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    assert po.entries["a"].msgstr == ('tab\there, quote " and backslash \\ and\nnewline',)
    assert "python-brace-format" in po.entries["a"].flags and po.entries["a"].line == 11
    assert po.entries["menu\x04b"].msgstr == ("B",)
    assert po.entries["one"].plural and po.entries["one"].msgstr == ("un", "des")
    assert "old" not in po.entries


@pytest.mark.parametrize(
    ("body", "line", "problem"),
    [
        ('msgid "a"\nmsgstr "unclosed', 7, "not a quoted string"),
        ('msgid "a"\nmsgstr "\\q"', 7, "unknown escape \\\\q"),
        ('msgid "a"\nmsgid "b"\nmsgstr ""', 7, "msgid twice in one entry"),
        ('"orphan"', 6, "a string with no keyword"),
        ('msgid "a"', 6, r"msgstr \(or, after msgid_plural, msgstr\[N\]\) missing"),
        ('msgid "a"\nmsgstr "A"\n\nmsgid "a"\nmsgstr "A"', 9,
         r"msgid 'a' twice \(first at line 6\)"),
        ('msgstr_typo "a"', 6, "not a .po line"),
    ],
)
def test_a_broken_po_file_names_its_file_and_line(body: str, line: int, problem: str) -> None:
    with pytest.raises(CatalogueError, match=problem) as caught:
        read_po(HEADER + body, "de.po")
    assert (caught.value.path, caught.value.line) == ("de.po", line)
    assert str(caught.value).startswith(f"de.po:{line}: ")


def _catalogue_with(tmp_path: Path, replace: tuple[str, str] = ("", ""), name: str = "de.po",
                    header: str = "nplurals=2; plural=(n != 1);") -> Path:  # fmt: skip
    """A copy of en.po as ``name``, with one text replaced."""
    text = Path(FOLDER, "en.po").read_text(encoding="utf-8")
    text = text.replace("nplurals=2; plural=(n != 1);", header).replace(*replace)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("replace", "problem"),
    [
        (('msgstr "the game is over: no move can be made"', 'msgstr ""'),
         "code.GAME_OVER: not translated"),
        (("{current}'s turn", "{curent}'s turn"), r"code.NOT_YOUR_TURN: placeholders \['curent'"),
        (('msgid "code.GAME_OVER"', 'msgid "code.GAME_OVERR"'), "code.GAME_OVER: missing"),
        (("{room:tile|tiles}", "{room:tile|tiles|tiless}"), "has 3 forms, the language 2"),
        (('msgid "code.GAME_OVER"', '#, fuzzy\nmsgid "code.GAME_OVER"'), "fuzzy"),
        (("{count} of the {available}", "{count of the {available}"), "a literal brace"),
    ],
)
def test_a_catalogue_that_does_not_match_english_is_refused(
    tmp_path: Path, replace: tuple[str, str], problem: str
) -> None:
    path = _catalogue_with(tmp_path, replace)
    with pytest.raises(CatalogueError, match=problem) as caught:
        read_catalogue(str(path), load(SOURCE))
    assert caught.value.path == str(path) and caught.value.line >= 1


@pytest.mark.parametrize("name", ["de.po", "en.po"])
@pytest.mark.parametrize(
    ("placeholder", "problem"),
    [
        ("{count:>99999999}", r"\{count:>99999999\} gives a format the messages never use"),
        ("{count:d}", r"\{count:d\} gives a format"),
        ("{count:.5000f}", r"\{count:.5000f\} gives a format"),
        ("{count!r}", r"\{count!r\}: a placeholder takes no conversion"),
        ("{count:{count}}", r"\{count:\{count\}\} gives a format"),
    ],
)
def test_a_placeholder_giving_a_format_english_does_not_use_is_refused(
    tmp_path: Path, name: str, placeholder: str, problem: str
) -> None:
    """Only the placeholders English uses: a width (one message of 100 MB), a type code
    (``ValueError: Unknown format code`` when it is worded), a conversion or a nested
    field is refused at the file and line, by the checker command too, whether the
    catalogue is a translation or a replacement for English itself."""
    path = _catalogue_with(tmp_path, ('"{count} {count:player|players}: Azul has 2 to 4"',
                                      f'"{{count}} {placeholder} {{count:player|players}}: Azul '
                                      'has 2 to 4"'), name=name)  # fmt: skip
    with pytest.raises(CatalogueError, match=problem) as caught:
        read_catalogue(str(path), load(SOURCE))
    assert caught.value.line > 1
    from azul_rules.text.__main__ import main

    assert main([str(path)]) == 1


def test_a_translation_uses_a_plain_format_only_where_english_does(tmp_path: Path) -> None:
    """``{seconds:g}`` is English's; the same ``:g`` on another placeholder is not."""
    path = _catalogue_with(tmp_path, ('"{count} {count:player|players}: Azul has 2 to 4"',
                                      '"{count:g} {count:player|players}: Azul has 2 to 4"'))
    with pytest.raises(CatalogueError, match=r"\{count:g\}, but English never writes count so"):
        read_catalogue(str(path), load(SOURCE))


def test_a_catalogue_without_plural_forms_or_not_utf8_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="Plural-Forms"):
        read_catalogue(str(_catalogue_with(tmp_path, header="nplurals=2")), load(SOURCE))
    path = tmp_path / "xx.po"
    path.write_bytes(b'msgid ""\nmsgstr "caf\xe9"\n')
    with pytest.raises(CatalogueError, match=r"xx.po:2: not UTF-8"):
        read_catalogue(str(path), load(SOURCE))


def test_the_checker_command(tmp_path: Path) -> None:
    from azul_rules.text.__main__ import main

    assert main([]) == 0
    assert main([str(_catalogue_with(tmp_path))]) == 0
    assert main([str(_catalogue_with(tmp_path, ('msgid "cli.header"', 'msgid "cli.headr"')))]) == 1


def test_nothing_is_read_at_import_nor_by_the_hot_paths() -> None:
    """import azul_rules, legal_moves, apply and validate of a legal move read no
    catalogue; a violation's message reads English once it is asked for."""
    code = (
        "import azul_rules as az; from azul_rules.text import catalogue as c\n"
        "s = az.new_game(2, seed=3)\n"
        "for _ in range(30):\n"
        "    m = s.legal_moves()[0]; assert s.validate(m).ok; s = s.apply(m)\n"
        "bad = s.validate(az.Take(0, az.Color.RED, 9))\n"
        "print(sorted(c._LOADED)); bad.violations[0].message; print(sorted(c._LOADED))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "['en']"]


def test_one_file_adds_a_language(tmp_path: Path) -> None:
    """A copy of the package with a de.po (en.po's text marked as German) speaks German
    on the command line and in Python, with nothing else changed."""
    root = Path(FOLDER).parent
    copy = tmp_path / "azul_rules"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    german = (copy / "text" / "en.po").read_text(encoding="utf-8")
    german = german.replace('msgstr "', 'msgstr "[de] ').replace("Language: en", "Language: de")
    (copy / "text" / "de.po").write_text(german, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    code = (
        "import azul_rules as az\n"
        f"assert az.__file__.startswith({str(copy)!r}), az.__file__\n"
        "v = az.Violation.of(az.ErrorCode.GAME_OVER, 'E1')\n"
        "print(v.message_in('de')); print(az.rule('P3').title_in('de'))\n"
        "from azul_rules.svg import board\n"
        "print('[de] Azul' in board(az.new_game(2, seed=1), lang='de'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)  # fmt: skip
    assert out.stdout.splitlines() == [
        "[de] the game is over: no move can be made", "[de] No colour twice beside a wall row",
        "True",
    ]  # fmt: skip
    command = [sys.executable, "-m", "azul_rules", "rules", "P3", "--lang", "de"]
    cli = subprocess.run(command, capture_output=True, text=True, env=env, check=True,
                         cwd=tmp_path)  # fmt: skip
    assert cli.stdout.startswith("P3 [de] No colour twice beside a wall row\n"), cli.stdout
    assert "[de] No colour may go into a pattern line" in cli.stdout
