"""A position in a few taps, in a real browser (headless chromium, as
tests/web/test_web_browser.py): from the front page at 390 x 844, each move mistake of
the rule book judged in at most 10 taps or keys (every click and every key sent is
counted), with "One board, one lot" or a dealt table; the paste box's plain sentences;
the audit form's two new mistakes; the table being built drawn with its problems beside
it, its centre clickable; the answer and the audit's answer brought into view at three
screen sizes, in English and in French.

Skipped as tests/web/test_web_browser.py is, when chromium or its driver is missing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import azul_rules as az
import tests.browser  # noqa: F401 (skips the module without chromium)
from tests.extras import needs
from tests.web.conftest import window
from tests.web.test_web_browser import wait

pytestmark = pytest.mark.xdist_group("browser")

webdriver = needs("selenium.webdriver")

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

EXAMPLES = Path("examples")
MOST_TAPS = 10
"""The most taps or keys a question about a move may take from the front page."""


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py)."""
    return window(shared_chromium, 1280, 1600)


def screen(driver: WebDriver, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` x ``height`` CSS px."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def front_page(driver: WebDriver, site: str, lang: str = "en", size: tuple[int, int] = (390, 844),
               query: str = "") -> WebDriver:  # fmt: skip
    """The front page at ``size``, in ``lang``, once its script is ready and its first
    picture drawn."""
    screen(driver, *size)
    driver.get(site)
    driver.execute_script("localStorage.setItem('azul-judge-lang', arguments[0])", lang)
    driver.get(site + query)
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    settled(driver)
    return driver


def settled(driver: WebDriver) -> None:
    """The picture asked for last is drawn."""
    wait(driver, lambda d: d.execute_script(
        "const f = document.getElementById('picture');"
        "return f.querySelector('svg') !== null && !f.dataset.pending;"))  # fmt: skip


class Taps:
    """Every click and every key sent to the page, counted."""

    def __init__(self, driver: WebDriver) -> None:
        self.driver = driver
        self.count = 0

    def key(self, data_key: str) -> None:
        """A click on the control whose data-key is ``data_key``."""
        self.driver.find_element(By.CSS_SELECTOR, f'[data-key="{data_key}"]').click()
        self.count += 1
        settled(self.driver)

    def picture(self, selector: str, up: float = 0) -> None:
        """A click on the part of the picture ``selector`` finds (a line, a wall space),
        ``up`` times its height above its middle."""
        for _ in range(5):
            try:
                part = self.driver.find_element(By.CSS_SELECTOR, f"#picture svg {selector}")
                self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", part)
                # where a finger lands: a tile drawn over the space belongs to the same line
                dy = -int(part.size["height"] * up)
                ActionChains(self.driver).move_to_element_with_offset(part, 0, dy).click().perform()
                break
            except StaleElementReferenceException:
                settled(self.driver)
        else:  # pragma: no cover
            pytest.fail(f"{selector}: always replaced before the click")
        self.count += 1
        settled(self.driver)

    def type(self, element_id: str, text: str) -> None:
        """``text`` typed into the field ``element_id``, one key a character."""
        self.driver.find_element(By.ID, element_id).send_keys(text)
        self.count += len(text)


def line(player: int, index: int) -> str:
    """A pattern line of the picture: its leftmost space, the last to fill (P5), where a
    player taps to add a tile (a tap on a tile takes it away)."""
    return (f'.board[data-player="{player}"] .pattern-line[data-line="{index}"] '
            f"rect.line-space:nth-of-type({index + 1})")  # fmt: skip


def verdict(driver: WebDriver) -> list[tuple[str, str]]:
    """The codes and rule lines of the verdict, once it holds one."""
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdict .violation .code"))
    cards = driver.find_elements(By.CSS_SELECTOR, "#verdict .violation")
    return [(c.find_element(By.CLASS_NAME, "code").text, c.find_element(By.CLASS_NAME, "rule").text)
            for c in cards]  # fmt: skip


def in_view(driver: WebDriver, element_id: str = "verdict") -> bool:
    """Whether the element's box lies within the viewport (its top at least, when it is
    taller than the screen), give or take a pixel's fraction."""
    return bool(driver.execute_script(
        "const b = document.getElementById(arguments[0]).getBoundingClientRect();"
        "const h = window.innerHeight;"
        "return b.height > 0 && b.top >= -1"
        "  && (b.bottom <= h + 1 || (b.height > h && b.top <= 1));",
        element_id))  # fmt: skip


# -- each move mistake in a few taps ----------------------------------------------------------


def only_two_of_three(taps: Taps) -> None:
    """T2: a lot of three blues on the factory, two laid on line 3."""
    taps.key("quick")
    taps.key("quick-count:3")
    taps.key("tool:laid")
    taps.picture(line(0, 2))
    taps.picture(line(0, 2))
    taps.key("laid-ask")


def split_over_two_lines(taps: Taps) -> None:
    """P1: three blues, one laid on line 2 and two on line 3."""
    taps.key("quick")
    taps.key("quick-count:3")
    taps.key("tool:laid")
    taps.picture(line(0, 1))
    taps.picture(line(0, 2))
    taps.picture(line(0, 2))
    taps.key("laid-ask")


def colour_already_on_the_wall_row(taps: Taps) -> None:
    """P3: blue on the first wall row, a blue lot to line 1."""
    taps.key("quick")
    taps.key("tool:edit")
    taps.picture('.board[data-player="0"] .wall [data-row="0"][data-column="0"]')
    taps.key("tool:ask")
    taps.picture(line(0, 0))


def colour_not_matching_the_line(taps: Taps) -> None:
    """P2: a red tile on line 3, a blue lot to it."""
    taps.key("quick")
    taps.key("tool:edit")
    taps.key("quick-color:red")
    taps.picture(line(0, 2))
    taps.key("quick-color:blue")
    taps.key("tool:ask")
    taps.picture(line(0, 2))


def a_full_line(taps: Taps) -> None:
    """P4: line 2 full of blue, a blue lot to it."""
    taps.key("quick")
    taps.key("tool:edit")
    taps.picture(line(0, 1))
    taps.picture(line(0, 1))
    taps.key("tool:ask")
    taps.picture(line(0, 1))


MISTAKES = {
    "PARTIAL_TAKE": (only_two_of_three, "T2"),
    "SPLIT_LOT": (split_over_two_lines, "P1"),
    "WALL_COLOR_CONFLICT": (colour_already_on_the_wall_row, "P3"),
    "LINE_COLOR_MISMATCH": (colour_not_matching_the_line, "P2"),
    "LINE_FULL": (a_full_line, "P4"),
}
TAPS: dict[str, int] = {}


@pytest.mark.parametrize("code", list(MISTAKES))
def test_each_move_mistake_is_judged_in_ten_taps_from_the_front_page(
    browser: WebDriver, site: str, code: str
) -> None:
    """From the front page at 390 x 844, no bag or other board typed: the verdict names
    the mistake's code and rule, the table as asked can exist, and the page says what
    it made up."""
    front_page(browser, site)
    taps = Taps(browser)
    steps, rule = MISTAKES[code]
    steps(taps)
    found = verdict(browser)
    assert found[0][0] == code, found
    assert found[0][1].startswith(f"Rule {rule}:"), found
    assert taps.count <= MOST_TAPS, taps.count
    TAPS[code] = taps.count
    assert not browser.find_elements(By.ID, "impossible")
    inferred = browser.find_element(By.ID, "quick-inferred").text
    assert "bag" in inferred and "lid" in inferred and "player 2" in inferred
    said = browser.find_element(By.ID, "inferred").text  # the judge's own inference
    assert said.startswith("Filled in by the judge") and "Bag" in said, said
    assert in_view(browser)
    print(f"{code}: {taps.count} taps")


def test_a_dealt_table_asks_a_take_as_laid_in_a_few_taps(browser: WebDriver, site: str) -> None:
    """A round-1 table dealt from a seed (new-game), then a lot taken from its first
    factory, one tile of it laid short of the others: T2's mistake when the factory
    holds two or more of the colour, else a legal take; the table can exist."""
    front_page(browser, site)
    taps = Taps(browser)
    taps.key("deal")
    wait(browser, lambda d: "seed" in d.find_element(By.ID, "verdict").text)
    settled(browser)
    doc = json.loads(browser.find_element(By.ID, "json-text").get_attribute("value") or "")
    assert doc["round"] == 1 and doc["phase"] == "factory_offer"
    assert all(len(f) == 4 for f in doc["factories"]) and doc["center"] == []
    factory = doc["factories"][0]
    color = max(set(factory), key=factory.count)
    taps.key("tool:laid")
    taps.picture(f'.factory[data-index="0"] .tile.{color}')
    taps.picture(line(doc["current_player"], 4))
    taps.key("laid-ask")
    assert taps.count <= MOST_TAPS
    if factory.count(color) > 1:
        assert verdict(browser)[0][0] == "PARTIAL_TAKE"
    else:
        wait(browser, lambda d: "Legal" in d.find_element(By.ID, "verdict").text)
    assert not browser.find_elements(By.ID, "impossible")


def test_the_front_page_opens_on_a_prompt_not_an_impossible_table(
    browser: WebDriver, site: str
) -> None:
    front_page(browser, site)
    prompt = browser.find_element(By.ID, "empty-state").text
    assert "Deal a table" in prompt and "One board, one lot" in prompt
    assert not browser.find_elements(By.ID, "impossible")
    front_page(browser, site, "fr")
    assert "Distribuer une table" in browser.find_element(By.ID, "empty-state").text


# -- the paste box ----------------------------------------------------------------------------


def paste(driver: WebDriver, text: str) -> None:
    box = driver.find_element(By.ID, "paste")
    box.clear()
    if text:
        driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));",
            box, text,
        )  # fmt: skip
    driver.find_element(By.ID, "paste-open").click()


UNREADABLE = {"en": ("The judge cannot open what was pasted", "Unreadable input"),
              "fr": ("Le juge ne peut pas ouvrir ce qui a été collé", "Entrée illisible")}
"""The headings of what was pasted and cannot be opened: the paste box's own, or the
judge's for a JSON object that is no position (each path then named)."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_wrong_thing_pasted_gets_a_plain_sentence(
    browser: WebDriver, site: str, lang: str
) -> None:
    """Nothing, broken JSON, a link with no position, words, a notation that cannot be
    read, a JSON document that is no position: each a sentence in the page's language,
    never a JavaScript error; then a notation, a JSON position and a link each open."""
    front_page(browser, site, lang, (1280, 800))
    example = (EXAMPLES / "round-2-position.json").read_text()
    written = az.to_notation(az.from_json(example, az.GameState))
    for wrong in ("", '{"players": [', "http://example.org/?sheet=1", "three blues on line two",
                  written[:-3] + "@@@", "[1, 2, 3]", '{"players": 3}'):  # fmt: skip
        browser.execute_script("document.getElementById('verdict').replaceChildren()")
        paste(browser, wrong)
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#verdict .bad.heading"))
        text = browser.find_element(By.ID, "verdict").text
        assert text.split("\n")[0] in UNREADABLE[lang], (wrong, text)
        for leak in ("SyntaxError", "TypeError", "Unexpected token", "JSON.parse", "undefined"):
            assert leak not in text, (wrong, text)
        assert len(text) > 40, (wrong, text)
    for right in (written, example, f"{site}?position={written}"):
        paste(browser, right)
        wait(browser, lambda d: d.execute_script(
            "return JSON.parse(document.getElementById('json-text').value).round === 2"
        ))  # fmt: skip
        assert not browser.find_elements(By.CSS_SELECTOR, "#verdict .bad.heading")
        browser.execute_script("window.azulPage.load(window.azulPage.blankPosition(2), true)")


# -- the table being built ----------------------------------------------------------------------


def test_a_table_being_built_shows_its_problems_beside_its_picture_and_its_centre_takes_clicks(
    browser: WebDriver, site: str
) -> None:
    front_page(browser, site, "en", (1280, 800))
    taps = Taps(browser)
    taps.key("tool:edit")
    taps.key("pbrush:yellow")
    taps.picture(".center circle", up=0.3)  # the marker lies in its middle
    doc = json.loads(browser.find_element(By.ID, "json-text").get_attribute("value") or "")
    assert doc["center"] == ["yellow"]
    wait(browser, lambda d: d.find_elements(By.ID, "impossible"))
    assert browser.find_elements(By.CSS_SELECTOR, "#picture svg")
    assert not browser.find_elements(By.ID, "empty-state")


# -- the answers in view ----------------------------------------------------------------------

SIZES = [(390, 844), (768, 1024), (1280, 800)]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", SIZES, ids=["phone", "tablet", "laptop"])
def test_the_answer_and_the_audits_answer_are_brought_into_view(
    browser: WebDriver, site: str, lang: str, size: tuple[int, int]
) -> None:
    """A take asked about on the picture, then an audit asked from the form far below:
    after each, the verdict's box lies within the viewport."""
    state = az.from_json((EXAMPLES / "round-2-position.json").read_text(), az.GameState)
    front_page(browser, site, lang, size, f"?position={az.to_notation(state)}")
    taps = Taps(browser)
    taps.picture('.factory[data-index="1"] .tile.blue')
    taps.picture(line(1, 2))
    verdict(browser)
    wait(browser, lambda d: in_view(d))
    # the audit, from a position whose offer is over
    audited = json.loads((EXAMPLES / "audits" / "two-mistakes" / "position.json").read_text())
    browser.execute_script("window.azulPage.load(arguments[0], false)", audited)
    settled(browser)
    claim_scores(browser, [12, 0])
    browser.find_element(By.ID, "audit-button").click()
    wait(browser, lambda d: "CROSS_COUNTED_ONCE" in d.find_element(By.ID, "verdict").text)
    settled(browser)
    try:
        wait(browser, lambda d: in_view(d), 5)
    except AssertionError:
        box = browser.execute_script(
            "const b = document.getElementById('verdict').getBoundingClientRect();"
            "return [b.top, b.bottom, window.innerHeight, window.scrollY];")
        raise AssertionError(f"the audit's verdict at {box}") from None


# -- the audit's seven mistakes ---------------------------------------------------------------


def audit_form(driver: WebDriver, site: str, folder: str) -> dict[str, Any]:
    front_page(driver, site, "en", (1280, 800))
    doc = json.loads((EXAMPLES / "audits" / folder / "position.json").read_text())
    driver.execute_script("window.azulPage.load(arguments[0], false)", doc)
    settled(driver)
    return dict(doc)


def claim_scores(driver: WebDriver, scores: list[int]) -> None:
    for player, score in enumerate(scores):
        field = driver.find_element(By.CSS_SELECTOR, f'[data-key="claim:{player}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
        field.send_keys(str(score))


def test_the_audit_form_tells_an_incomplete_line_emptied(browser: WebDriver, site: str) -> None:
    """W2: player 1's line 1 held one tile of two... emptied by the players."""
    audit_form(browser, site, "incomplete-line-cleared")
    claim_scores(browser, [5, 0])
    emptied = browser.find_elements(By.CSS_SELECTOR, '[data-key^="emptied:0:"]')
    assert emptied, "no incomplete line offered"
    emptied[0].click()
    browser.find_element(By.ID, "audit-button").click()
    wait(browser, lambda d: "INCOMPLETE_LINE_CLEARED" in d.find_element(By.ID, "verdict").text)
    assert "Rule W2:" in browser.find_element(By.ID, "verdict").text
    assert in_view(browser)


def test_the_audit_form_tells_a_game_stopped_when_a_row_was_completed(
    browser: WebDriver, site: str
) -> None:
    """E1: the players stopped the game at the completed row, player 2's tiling and
    floor never done (a score unchanged)."""
    audit_form(browser, site, "game-ended-early")
    claim_scores(browser, [15, 8])
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.CSS_SELECTOR, '[data-key="game-said"]')).select_by_value("over")
    browser.find_element(By.ID, "audit-button").click()
    wait(browser, lambda d: "GAME_ENDED_EARLY" in d.find_element(By.ID, "verdict").text)
    assert "Rule E1:" in browser.find_element(By.ID, "verdict").text


def test_screenshots_for_the_docs(browser: WebDriver, site: str, shots: Path) -> None:
    """The quick mode's answer and the audit form, at 390 x 844, for docs/images/ (kept
    under AZUL_SCREENSHOTS when it is set)."""
    front_page(browser, site)
    taps = Taps(browser)
    colour_not_matching_the_line(taps)
    verdict(browser)
    browser.execute_script("document.getElementById('table').scrollIntoView()")
    settled(browser)
    browser.save_screenshot(str(shots / "web-quick-mode.png"))
    browser.execute_script("document.getElementById('picture').scrollIntoView()")
    browser.save_screenshot(str(shots / "web-quick-verdict.png"))
    front_page(browser, site)
    for name in ("web-quick-mode.png", "web-quick-verdict.png"):
        assert (shots / name).stat().st_size > 1000
    if os.environ.get("AZUL_SCREENSHOTS"):
        print(f"screenshots in {shots}")
