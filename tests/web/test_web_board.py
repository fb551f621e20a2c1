"""The page where the picture is the board, in a real browser (headless Debian chromium
driven by Selenium, as tests/web/test_web_browser.py): links that carry the table and a
move, the picture and the answer on one screen (1280 x 800) and the answer right under
the picture on a phone, a take asked about by two clicks on the picture, the editor's
tools on the picture, French, and every tile on the page colour-blind safe.

Skipped as tests/web/test_web_browser.py is, when chromium or its driver is missing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import pytest

import azul_rules as az
import tests.browser  # noqa: F401 (skips the module without chromium)
from azul_rules.web.page import page_words
from tests.extras import needs
from tests.web.conftest import window
from tests.web.test_web_browser import (
    key,
    page_json,
    type_number,
    verdict_text,
    wait,
)

pytestmark = pytest.mark.xdist_group("browser")

webdriver = needs("selenium.webdriver")

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

EXAMPLES = Path("examples")
ROUND_TWO = az.from_json((EXAMPLES / "round-2-position.json").read_text(), az.GameState)
NOTATION = az.to_notation(ROUND_TWO)
COLORS = ("blue", "yellow", "red", "black", "white")


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window 1280 x 1600."""
    return window(shared_chromium, 1280, 1600)


def screen(driver: WebDriver, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` x ``height`` CSS px, whatever the window."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def open_page(driver: WebDriver, site: str, query: str = "", lang: str = "en") -> WebDriver:
    """The page at ``site`` + ``query``, in ``lang``, once its script has done its work
    (a link's position opened and its move asked)."""
    driver.get(site)
    driver.execute_script("localStorage.setItem('azul-judge-lang', arguments[0])", lang)
    driver.get(site + query)
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    return driver


@pytest.fixture
def page(browser: WebDriver) -> Iterator[WebDriver]:
    screen(browser, 1280, 800)
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def link(position: str = NOTATION, move: str | None = None) -> str:
    query = f"?position={quote(position, safe='')}"
    return query + (f"&move={quote(move, safe='')}" if move is not None else "")


def shared(driver: WebDriver) -> dict[str, list[str]]:
    """The query of ``a#share``'s address, once it is written."""

    def href(d: WebDriver) -> str:
        return str(d.find_element(By.ID, "share").get_attribute("href") or "")

    wait(driver, lambda d: "position=" in href(d))
    return parse_qs(urlsplit(href(driver)).query)


def rect(driver: WebDriver, element_id: str) -> dict[str, float]:
    found: dict[str, float] = driver.execute_script(
        "return document.getElementById(arguments[0]).getBoundingClientRect().toJSON()", element_id
    )
    return found


def svg_click(driver: WebDriver, selector: str) -> None:
    """A click on the picture's element ``selector``, where a player's click lands."""

    def clicked(d: WebDriver) -> bool:
        try:
            d.find_element(By.CSS_SELECTOR, f"#picture svg {selector}").click()
        except StaleElementReferenceException:  # a newer picture came in between
            return False
        return True

    wait(driver, clicked)


def in_picture(selector: str) -> Callable[[WebDriver], Any]:
    """A condition: the picture holds an element ``selector``."""
    return lambda d: d.find_elements(By.CSS_SELECTOR, f"#picture svg {selector}")


def picture_ready(driver: WebDriver) -> Any:
    return wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg"))


def test_a_link_opens_its_position_and_asks_its_move(page: WebDriver, site: str) -> None:
    """?position=<notation>&move=2B3: the round-2 table of examples/ in the editor, the
    take asked about (legal), marked on the picture, and a#share carrying both."""
    open_page(page, site, link(move="2B3"))
    wait(page, lambda d: "Legal move" in verdict_text(d))
    assert page_json(page) == az.to_dict(ROUND_TWO)
    assert "Factory 2, blue, → line 3" in verdict_text(page)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg .highlight"))
    assert shared(page) == {"position": [NOTATION], "move": ["2B3"]}
    # What it does, before it is played: line 3 holds a blue already (P4, P6, F1).
    effect = page.find_element(By.ID, "effect").text
    assert "2 tiles to line 3" in effect
    assert "1 tile to the floor line: −1 point now (F1)" in effect


def test_a_link_may_carry_a_move_in_json(page: WebDriver, site: str) -> None:
    """&move=<JSON>: the partial take of examples/ (T2), judged on arrival."""
    move = json.dumps(json.loads((EXAMPLES / "partial-take.json").read_text()))
    open_page(page, site, link(move=move))
    wait(page, lambda d: "PARTIAL_TAKE" in verdict_text(d))
    assert "Illegal move" in verdict_text(page)
    assert json.loads(shared(page)["move"][0]) == json.loads(move)


def test_a_bad_position_in_a_link_is_said_plainly(page: WebDriver, site: str) -> None:
    """A link whose notation cannot be read: the API's words, where it goes wrong."""
    open_page(page, site, link("c5f1.110_"))
    shown = verdict_text(page)
    assert "The link's position cannot be read" in shown
    assert "$.state (character 2): expected the number of players: 2, 3 or 4, found '5'" in shown


def test_the_share_link_follows_the_table_as_it_is_edited(page: WebDriver, site: str) -> None:
    """a#share's position is always the notation of the table shown: after an edit, the
    new table's (and no move: the table has changed); a table that cannot exist (a
    yellow on the wall beside a line of yellow) has no link, and says so."""
    open_page(page, site, link(move="2B3"))
    wait(page, lambda d: "Legal move" in verdict_text(d))
    type_number(page, "score:1", 1)
    edited = az.from_dict(page_json(page), az.GameState)
    assert edited.players[1].score == 1
    wait(page, lambda d: shared(d) == {"position": [az.to_notation(edited)]})
    key(page, "wall:0:1:2").click()  # a yellow on the wall row whose line holds yellow: P2
    wait(page, lambda d: d.find_element(By.ID, "share").get_attribute("href") is None)
    assert page.find_element(By.ID, "share").text.startswith("No link")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_picture_and_the_answer_fit_one_wide_screen(
    page: WebDriver, site: str, lang: str
) -> None:
    """1280 x 800: once a move is asked, #table (with the picture) and #answer are both
    wholly inside the viewport, without scrolling; the editor comes after them."""
    open_page(page, site, link(move="2B3"), lang=lang)
    wait(page, lambda d: d.find_elements(By.ID, "effect"))
    picture_ready(page)
    assert page.execute_script("return [window.innerWidth, window.innerHeight]") == [1280, 800]
    for element_id in ("table", "answer"):
        box = rect(page, element_id)
        assert box["top"] >= 0 and box["left"] >= 0, element_id
        assert box["bottom"] <= 800 and box["right"] <= 1280, (element_id, box)
    svg = page.find_element(By.CSS_SELECTOR, "#picture svg").rect
    assert svg["height"] >= 400  # a picture one can read and click, not a thumbnail
    assert rect(page, "position")["top"] >= rect(page, "table")["bottom"]


def test_on_a_phone_the_answer_comes_right_under_the_picture(
    browser: WebDriver, site: str
) -> None:
    """375 px wide: the picture, then the answer at once (no editor between them), and
    nothing wider than the screen."""
    screen(browser, 375, 800)
    try:
        open_page(browser, site, link(move="2B3"))
        wait(browser, lambda d: "Legal move" in verdict_text(d))
        picture_ready(browser)
        table, answer = rect(browser, "table"), rect(browser, "answer")
        assert 0 <= answer["top"] - table["bottom"] <= 24
        assert table["right"] <= 375 and answer["right"] <= 375
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 375
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_take_asked_and_played_by_clicks_on_the_picture(page: WebDriver, site: str) -> None:
    """T1: a blue tile of factory 2, then pattern line 3 of player 1's board: that take
    asked about; Play it: the referee's next position, the move marked on the picture."""
    open_page(page, site, link())
    picture_ready(page)
    svg_click(page, '.factory[data-index="1"] .tile.blue')
    wait(page, lambda d: "now click a pattern line" in d.find_element(By.ID, "picture-help").text)
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#picture svg .tile.picked")) == 3)
    svg_click(page, '.board[data-player="0"] .pattern-line[data-line="2"]')
    wait(page, lambda d: "Legal move" in verdict_text(d))
    assert "Factory 2, blue, → line 3" in verdict_text(page)
    assert shared(page) == {"position": [NOTATION], "move": ["2B3"]}
    page.find_element(By.ID, "verdict-play").click()
    wait(page, lambda d: "Last move: 2B3" in verdict_text(d))
    after = ROUND_TWO.apply(az.parse_move("2B3"))
    assert page_json(page) == az.to_dict(after)
    wait(page, in_picture('.factory[data-index="1"].last-move'))
    assert in_picture('.board[data-player="0"] .pattern-line[data-line="2"].last-move')(page)
    assert shared(page) == {"position": [az.to_notation(after)]}


def test_a_take_to_the_floor_of_another_board_names_that_player(
    page: WebDriver, site: str
) -> None:
    """A click on player 2's floor line: the take is asked as player 2's, out of turn
    (NOT_YOUR_TURN, T1)."""
    open_page(page, site, link())
    picture_ready(page)
    svg_click(page, ".center .tile.red")
    svg_click(page, '.board[data-player="1"] .floor-line')
    wait(page, lambda d: "NOT_YOUR_TURN" in verdict_text(d))


def test_the_editors_tools_work_on_the_picture(page: WebDriver, site: str) -> None:
    """With "adds or removes a tile": a tile clicked is taken away, a place clicked
    gets the chosen tile."""
    open_page(page, site, link())
    picture_ready(page)
    key(page, "tool:edit").click()
    assert page.find_element(By.ID, "tools").text.split("\n")[-1] == "1"  # the marker, last
    key(page, "pbrush:white").click()
    svg_click(page, '.factory[data-index="0"] .factory-disc')
    wait(page, lambda d: page_json(d)["factories"][0] == ["white"])
    wait(page, in_picture('.factory[data-index="0"] .tile.white'))
    svg_click(page, '.factory[data-index="1"] .tile.red')
    wait(page, lambda d: page_json(d)["factories"][1] == ["blue", "blue", "blue"])


def test_french_from_the_link_to_the_answer(page: WebDriver, site: str) -> None:
    """The same link in French: the verdict, the words of the picture's tools and of
    the share link."""
    open_page(page, site, link(move="2B1"), lang="fr")
    wait(page, lambda d: "Coup illégal" in verdict_text(d))
    assert "WALL_COLOR_CONFLICT" in verdict_text(page)
    assert "Règle" in verdict_text(page)
    assert page.find_element(By.ID, "share").text == "Lien vers cette table et cette question"
    assert key(page, "tool:ask").text == "interroge sur un coup"
    open_page(page, site, link(move="2B3"), lang="fr")
    wait(page, lambda d: "Coup légal" in verdict_text(d))
    effect = page.find_element(By.ID, "effect").text
    assert "S'il est joué" in effect and "2 carreaux sur la ligne 3" in effect
    assert "1 carreau au plancher\u202f: −1 point maintenant (F1)" in effect


GLYPHS = """
const named = (e) => e.getAttribute('aria-label') || e.getAttribute('title')
  || (e.closest('label, button') || e).textContent;
return [...document.querySelectorAll('.tile, svg .marker')].map(e => {
  const drawn = e.querySelector('svg.glyph');
  return {
    classes: (e.getAttribute('class') || '').split(/\\s+/),
    glyph: e.querySelector('.glyph') ? e.querySelector('.glyph').tagName : null,
    drawn: drawn ? drawn.getAttribute('data-glyph') : null,
    path: drawn ? drawn.querySelector('path').getAttribute('d') : null,
    text: e.textContent.trim(),
    name: e instanceof SVGElement ? '' : named(e).trim(),
    where: e.closest('[id]') ? e.closest('[id]').id : '',
    svg: e instanceof SVGElement,
  };
});
"""


def _page_tiles(page: WebDriver) -> list[dict[str, Any]]:
    tiles: list[dict[str, Any]] = page.execute_script(GLYPHS)
    return tiles


def _check_tiles(tiles: list[dict[str, Any]], lang: str) -> set[tuple[str, bool]]:
    """Each tile of ``tiles`` names one colour in its class; a tile of the page (not of a
    picture) draws that colour's glyph, the pictures' own path, and its label (or its
    label element's words) names the colour in ``lang``; a marker shows its 1.  The
    (colour, in a picture) pairs seen."""
    from azul_rules.svg._parts import _GLYPHS

    paths = {color.name.lower(): d for color, d in _GLYPHS.items()}
    words = page_words()[lang]
    kinds = set()
    for tile in tiles:
        named = [c for c in (*COLORS, "marker") if c in tile["classes"]]
        assert len(named) == 1, tile
        color = named[0]
        kinds.add((color, tile["svg"]))
        if color == "marker":
            assert tile["text"] == "1", tile
        elif tile["svg"]:
            assert tile["glyph"] in ("path", "text", "g"), tile
        else:
            assert tile["drawn"] == color and tile["path"] == paths[color], tile
            assert tile["text"] == "", tile  # no letter: B is no colour's initial in French
            assert words[color] in tile["name"].lower(), (lang, tile)
        if color == "marker" and not tile["svg"]:
            assert words["markerTile"].lower() in tile["name"].lower(), (lang, tile)
    return kinds


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_tile_on_the_page_names_its_colour_and_shows_its_glyph(
    page: WebDriver, site: str, lang: str
) -> None:
    """Colour is never the only sign, in any language: every element of class ``tile``
    (the picture's, the editor's, the brushes, the counts, the lot of *one board, one
    lot*, the scorekeeper's) names its colour in its class and shows its glyph, the
    pictures' shape (static/glyphs.js), not an English letter; outside the picture its
    label names the colour in the page's language; the starting player marker shows its
    1."""
    open_page(page, site, link(), lang=lang)
    picture_ready(page)
    key(page, "tool:edit").click()  # the brushes above the picture too
    on_table = 28  # 12 on factories, 3 in the centre, 8 on pattern lines, 5 on walls
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#picture svg .tile")) == on_table)
    tiles = _page_tiles(page)
    # The picture's 28 and its marker; the editor's 28 and its marker, 12 brushes, 10 counts
    # (and any other part of the page's own).
    assert sum(t["svg"] for t in tiles) == on_table + 1
    assert sum(not t["svg"] for t in tiles) >= on_table + 1 + 12 + 10
    kinds = _check_tiles(tiles, lang)
    assert {(c, s) for c in (*COLORS, "marker") for s in (True, False)} <= kinds
    assert {t["where"] for t in tiles if not t["svg"]} >= {"tools", "editor"}
    # One board, one lot (static/table.js): its five colours too.
    page.find_element(By.ID, "quick").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#quick-panel .tile"))
    lot = [t for t in _page_tiles(page) if t["where"] == "quick-panel"]
    assert {c for c, _ in _check_tiles(lot, lang)} == set(COLORS)


def test_a_half_laid_table_is_named_impossible(page: WebDriver, site: str) -> None:
    """G2, R2: round 1, nothing taken, three factories empty though the bag holds their
    tiles: no game rests there; the page names each problem (whose turn three empty
    factories give, the bag's count after the first filling)."""
    start = az.new_game(2, seed=7)
    half = start.replace(factories=(*start.factories[:2], (), (), ()),
                         bag=start.bag + tuple(t for f in start.factories[2:] for t in f))
    codes = [p.code.value for p in half.problems()]
    assert codes == ["TURN_OUT_OF_ORDER", "TILES_FROM_NOWHERE"]
    open_page(page, site, link(az.to_notation(half)))
    listed = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, ".problems li .code"))
    assert [code.text for code in listed] == codes


def test_an_audit_is_pictured_as_an_audit(page: WebDriver, site: str) -> None:
    """W3: the scores of examples/audits/cross-counted-once checked: the picture is
    headed "Audit" with what was claimed, not "Illegal" and the player to move."""
    folder = EXAMPLES / "audits" / "cross-counted-once"
    claim = json.loads((folder / "claim.json").read_text())
    open_page(page, site)
    page.find_element(By.ID, "open-file").send_keys(str((folder / "position.json").resolve()))
    wait(page, lambda d: "factory offer is over" in verdict_text(d))
    for player, score in enumerate(claim["scores"]):
        type_number(page, f"claim:{player}", score)
    page.find_element(By.ID, "audit-button").click()
    wait(page, lambda d: "CROSS_COUNTED_ONCE" in verdict_text(d))

    def header(d: WebDriver) -> str:
        found = d.find_elements(By.CSS_SELECTOR, "#picture svg .header")
        return str(found[0].text) if found else ""

    wait(page, lambda d: "Audit" in header(d))
    assert "Illegal" not in header(page) and "to move" not in header(page)
    assert page.find_elements(By.CSS_SELECTOR, "#picture svg .verdict.audit")


def test_a_grey_wall_placement_asked_by_a_click_on_a_wall_space(
    page: WebDriver, site: str
) -> None:
    """V1: in a grey-wall tiling, a click on a wall space asks about placing the tile of
    that row's pattern line there; legal, its points said before it is played (W3)."""
    state = az.new_game(2, seed=3, variant="grey")
    while state.phase.value == "factory_offer":
        state = state.apply(state.legal_moves()[0])
    open_page(page, site, link(az.to_notation(state)))
    picture_ready(page)
    svg_click(page, '.board[data-player="0"] .wall-space[data-row="0"][data-column="2"]')
    wait(page, lambda d: "Legal move" in verdict_text(d))
    assert "line 1 → column 3" in verdict_text(page)
    assert "the tile scores 1 point (W3)" in page.find_element(By.ID, "effect").text
