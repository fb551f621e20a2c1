"""The judge's page takes its words from the catalogues: every word ``app.js`` and
``index.html`` use is a ``web.page.*`` phrase of every catalogue, the server gives them
all inside the page, safely, and a ``de.po`` is enough for a German button and German
words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from importlib.resources import files
from pathlib import Path

import pytest

from azul_rules.text import keys, languages, template
from tests.catalogue_copy import GERMAN, german_package
from tests.extras import needs

needs("starlette")

from starlette.testclient import TestClient  # noqa: E402

from azul_rules.web import create_app  # noqa: E402
from azul_rules.web.page import PLURALS, PREFIX, page_words, render, words_block  # noqa: E402

STATIC = files("azul_rules.web").joinpath("static")

DYNAMIC = {
    "c": "COLORS",
    "p": "PHASES",
    "printed": "COLORS",
    "m.color": "COLORS",
    "el.dataset.t": "data-t",
}
"""The calls of ``t()`` whose key is not written in the call, and where the key comes
from: an array of app.js, or the ``data-t`` attributes of index.html."""


class _Page(HTMLParser):
    """What a page shows of its words: its language, title, data-t keys, language
    buttons (attributes and text), the buttons' label and the words block."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.lang = ""
        self.title = ""
        self.data_t: dict[str, str] = {}
        self.buttons: list[dict[str, str | None]] = []
        self.label: str | None = None
        self.words = ""
        self._open: tuple[str, dict[str, str | None]] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found["lang"] or ""
        if tag == "div" and found.get("class") == "lang":
            self.label = found["aria-label"]
        self._open = (tag, found)

    def handle_data(self, data: str) -> None:
        if self._open is None:
            return
        tag, found = self._open
        if tag == "title":
            self.title = data
        elif tag == "script" and found.get("id") == "words":
            self.words += data
        elif tag == "button" and "data-lang" in found:
            self.buttons.append({**found, "text": data})
        if found.get("data-t"):
            self.data_t[str(found["data-t"])] = data

    def handle_endtag(self, tag: str) -> None:
        self._open = None


def _array(script: str, name: str) -> str:
    """The text between the brackets of ``const NAME = [...]`` in app.js."""
    found = re.search(rf"const {name} = \[(.*?)\]", script)
    assert found is not None, name
    return found[1]


def _used_keys() -> set[str]:
    """Every key app.js and table.js give ``t()``, every word index.html names, and the words the
    server writes into the page itself (``PREFIX + "..."`` in azul_rules/web/page.py)."""
    script = STATIC.joinpath("app.js").read_text(encoding="utf-8")
    script += STATIC.joinpath("table.js").read_text(encoding="utf-8")  # the same words
    page = STATIC.joinpath("index.html").read_text(encoding="utf-8")
    server = files("azul_rules.web").joinpath("page.py").read_text(encoding="utf-8")
    arrays = {
        name: set(re.findall(r'"(\w+)"', _array(script, name))) for name in ("COLORS", "PHASES")
    }
    arrays["data-t"] = set(re.findall(r'data-t="(\w+)"', page))
    used = set(re.findall(r"\{\{t:(\w+)\}\}", page)) | arrays["data-t"]
    used |= set(re.findall(r'PREFIX \+ "(\w+)"', server))
    for call in re.finditer(r"\bt\(([^,)]*)", script):
        written = re.findall(r'"(\w+)"', call[1])
        assert written or call[1] in DYNAMIC, f"t({call[1]}): where does the key come from?"
        used |= set(written) or arrays[DYNAMIC[call[1]]]
    return used


def test_the_catalogues_hold_every_word_the_page_uses_and_no_other() -> None:
    """app.js's ``t("...")`` keys (and those of its arrays given to ``t()``), the data-t
    attributes and ``{{t:...}}`` slots of index.html: exactly the ``web.page.*`` keys."""
    used = _used_keys()
    assert {"open", "blue", "factory_offer", "noscript", "language", "rulesLink"} <= used
    assert used == {key.removeprefix(PREFIX) for key in keys(PREFIX)}
    for lang in languages():
        assert set(page_words()[lang]) == used | {PLURALS}, lang
        assert template(lang, "language.name")
    # Which form a count takes, by each catalogue's Plural-Forms: English "0 tiles, 1
    # tile, 2 tiles"; French "0 carreau, 1 carreau, 2 carreaux".
    assert page_words()["en"][PLURALS][:3] == "101"
    assert page_words()["fr"][PLURALS][:3] == "001"
    assert all(len(page_words()[lang][PLURALS]) == 200 for lang in languages())


def test_the_page_carries_every_languages_words_and_a_button_for_each() -> None:
    """The served page: English words where it shows them before its script runs, every
    language's words in its data block, one button per catalogue (English pressed),
    the buttons labelled in every language."""
    page = _Page(TestClient(create_app()).get("/").text)
    assert json.loads(page.words) == page_words()
    assert page.lang == "en" and page.title == "Azul judge"
    assert page.data_t["title"] == "Azul judge" and page.data_t["skip"] == "Skip to the question"
    assert page.data_t == {key: template("en", PREFIX + key) for key in page.data_t}
    assert page.buttons == [
        {"type": "button", "id": "lang-en", "data-lang": "en", "lang": "en",
         "aria-pressed": "true", "text": "English"},
        {"type": "button", "id": "lang-fr", "data-lang": "fr", "lang": "fr",
         "aria-pressed": "false", "text": "Français"},
    ]  # fmt: skip
    assert page.label == "Language / Langue"
    words = page_words()
    assert words["fr"]["legal"] == "Coup légal" and words["en"]["player"] == "Player {p}"


def test_the_words_block_cannot_be_closed_by_a_phrase() -> None:
    hostile = {"en": {"x": "</script><script>alert(1)</script><!-- & \u2028 'quoted' \"too\""}}
    block = words_block(hostile)
    assert not set(block) & set("<>&\u2028")
    assert json.loads(block) == hostile


def test_an_unknown_slot_of_the_page_is_an_error() -> None:
    assert render("<p>{{t:title}} {{version}}</p>", "1.2") == b"<p>Azul judge 1.2</p>"
    with pytest.raises(KeyError):
        render("<p>{{t:nothing}}</p>", "1.2")
    with pytest.raises(KeyError):
        render("<p>{{nothing}}</p>", "1.2")


def test_a_de_po_gives_the_page_a_german_button_and_german_words(tmp_path: Path) -> None:
    """A copy of the package with a de.po (one page word hostile HTML): the page offers
    German between English and French, gives its German words intact, and the API it
    calls with ``?lang=de`` answers in German."""
    hostile = "</script><script>alert(1)</script>"
    env = german_package(tmp_path, ('msgstr "Azul judge"', f'msgstr "{hostile}"'))
    code = (
        "import json\n"
        "from starlette.testclient import TestClient\n"
        "from azul_rules.web import create_app\n"
        "client = TestClient(create_app())\n"
        "rules = client.get('/api/v1/rules/P3?lang=de').json()\n"
        "print(json.dumps({'page': client.get('/').text, 'rule': rules['title']}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)  # fmt: skip
    served = json.loads(out.stdout)
    page = _Page(served["page"])
    assert [(b["id"], b["lang"], b["text"]) for b in page.buttons] == [
        ("lang-en", "en", "English"), ("lang-de", "de", f"{GERMAN}English"),
        ("lang-fr", "fr", "Français"),
    ]  # fmt: skip
    assert page.label == f"Language / {GERMAN}Language / Langue"
    words = json.loads(page.words)
    assert list(words) == ["en", "de", "fr"]
    assert words["de"]["title"] == GERMAN + hostile and words["en"]["title"] == "Azul judge"
    assert words["de"]["player"] == f"{GERMAN}Player {{p}}"
    assert words["de"].keys() == words["en"].keys() == page_words()["en"].keys()
    # the page's words and app.js, each part's words and script (the scorekeeper, Play a
    # game): no more than index.html holds
    scripts = STATIC.joinpath("index.html").read_text(encoding="utf-8").count("</script>")
    assert served["page"].count("</script>") == scripts == 11 and page.title == "Azul judge"
    assert served["rule"] == GERMAN + "No colour twice beside a wall row"


def test_the_tiles_glyphs_are_the_pictures_written_once() -> None:
    """static/glyphs.js holds the pictures' glyph of each colour (azul_rules/svg/_parts.py),
    the only copy: no other script keeps its own paths or a table of English letters
    (B, Y, R, K, W mean nothing in French); the page loads it before the scripts that use
    it, versioned as they are, and serves it as JavaScript."""
    from azul_rules.svg._parts import _GLYPHS

    source = STATIC.joinpath("glyphs.js").read_text(encoding="utf-8")
    found = dict(re.findall(r'^\s+(\w+): "(M[^"]+)",$', source, re.MULTILINE))
    assert found == {color.name.lower(): d for color, d in _GLYPHS.items()}
    for name in ("app.js", "play.js", "table.js", "scorekeeper.js"):
        script = STATIC.joinpath(name).read_text(encoding="utf-8")
        assert "window.azulGlyphs" in script or "P.glyph" in script, name
        assert "LETTERS" not in script and not any(d in script for d in _GLYPHS.values()), name
    page = TestClient(create_app()).get("/").text
    order = re.findall(r'<script src="static/(\w+)\.js\?v=[^"]+" defer>', page)
    assert order[:2] == ["dom", "glyphs"] and set(order) == {
        "dom", "glyphs", "app", "scorekeeper", "play", "table", "ask"
    }
    served = TestClient(create_app()).get("/static/glyphs.js")
    assert served.status_code == 200 and served.text == source
    assert served.headers["content-type"].startswith("text/javascript")


def test_the_element_builder_is_written_once() -> None:
    """static/dom.js holds the one element builder (``h``) and plain button of the page's
    scripts, loaded first, served as JavaScript; app.js, play.js, ask.js and the
    scorekeeper take it from there (each had its own copy, the scorekeeper's with other
    conventions), table.js through app.js."""
    source = STATIC.joinpath("dom.js").read_text(encoding="utf-8")
    assert "window.azulDom" in source
    for name in ("app.js", "play.js", "ask.js", "scorekeeper.js"):
        script = STATIC.joinpath(name).read_text(encoding="utf-8")
        assert "window.azulDom" in script, name
        assert "document.createElement(tag)" not in script, name
    served = TestClient(create_app()).get("/static/dom.js")
    assert served.status_code == 200 and served.text == source
    assert served.headers["content-type"].startswith("text/javascript")
