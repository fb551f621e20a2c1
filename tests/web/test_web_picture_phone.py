"""The picture on a phone (390 x 844 CSS px), in a real browser: every place a player taps
-- a tile of a factory or the centre, a pattern line's space, a wall space, a floor
space, a tile on a board -- is at least 24 px each way (WCAG 2.5.8), and every word of
the picture is drawn at 12 px or more, in each mode of the page (asking about a move,
with a move marked, editing the table, laying a lot tile by tile, one board and one
lot, playing a game), in English and in French.

Sizes are measured as drawn: a target by its ``getBoundingClientRect()``, a text by its
font size times the scale its ancestors and the ``viewBox`` give it (``getScreenCTM``).

Skipped as tests/web/test_web_browser.py is, when chromium or its driver is missing.
"""

from __future__ import annotations

from typing import Any

import pytest

import azul_rules as az
import tests.browser  # noqa: F401 (skips the module without chromium)
from tests.extras import needs
from tests.web.conftest import window
from tests.web.test_web_board import link, open_page, screen
from tests.web.test_web_browser import key, wait

pytestmark = pytest.mark.xdist_group("browser")

webdriver = needs("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

PHONE = (390, 844)
MIN_TARGET = 24  # CSS px, WCAG 2.5.8 (Target Size, Minimum)
MIN_TEXT = 12  # CSS px
# What a tap on the picture hits, in every mode of the page (static/app.js's hit(),
# static/play.js's pictureClick): the tiles of the table, the spaces of the boards.
TARGETS = (
    ".table .tile, .table .marker, .line-space, .pattern-line .tile, .wall-space, "
    ".wall .tile, .floor-space .space, .floor-line .tile, .floor-line .marker"
)
# The smallest target and the smallest text of the picture in ``figure``, with what
# they are (their classes), measured as drawn.
MEASURE = """
const svg = document.querySelector(arguments[0] + " svg");
if (!svg) return null;
let target = [Infinity, ""], text = [Infinity, ""];
for (const el of svg.querySelectorAll(arguments[1])) {
  const box = el.getBoundingClientRect();
  const size = Math.min(box.width, box.height);
  const what = el.getAttribute("class") + " in " + el.parentNode.getAttribute("class");
  if (size < target[0]) target = [size, what];
}
for (const el of svg.querySelectorAll("text")) {
  const size = parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
  if (size < text[0]) text = [size, (el.getAttribute("class") || "") + " " + el.textContent];
}
const count = svg.querySelectorAll(arguments[1]).length;
return {target, text, count, width: svg.getBoundingClientRect().width,
        page: document.documentElement.scrollWidth};
"""

FOUR = az.to_notation(az.new_game(4, seed=5))


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its page a phone's 390 x 844."""
    driver = window(shared_chromium, 1280, 1600)
    screen(driver, *PHONE)
    return driver


def measure(driver: WebDriver, figure: str = "#picture") -> dict[str, Any]:
    """The smallest target and text of the picture in ``figure`` once it is drawn."""
    found: dict[str, Any] = wait(
        driver,
        lambda d: (d.find_element(By.CSS_SELECTOR, figure).get_attribute("data-pending") is None
                   and d.execute_script(MEASURE, figure, TARGETS)),
    )  # fmt: skip
    return found


def picture_changed(driver: WebDriver, figure: str = "#picture") -> None:
    """Waits for the picture in ``figure`` to be drawn again (after a change of mode)."""
    driver.execute_script(f"document.querySelector('{figure} svg').dataset.old = '1'")
    wait(
        driver,
        lambda d: d.find_elements(By.CSS_SELECTOR, f"{figure} svg")
        and not d.find_elements(By.CSS_SELECTOR, f"{figure} svg[data-old]"),
    )


def modes(driver: WebDriver, site: str, lang: str) -> dict[str, dict[str, Any]]:
    """The picture measured in each mode of the page, in ``lang``."""
    found = {}
    open_page(driver, site, link(), lang)
    found["ask"] = measure(driver)
    key(driver, "tool:edit").click()
    picture_changed(driver)
    found["edit"] = measure(driver)
    key(driver, "tool:laid").click()
    picture_changed(driver)
    found["laid"] = measure(driver)
    open_page(driver, site, link(move="2B3"), lang)
    found["move marked"] = measure(driver)
    open_page(driver, site, link(FOUR), lang)
    found["four players"] = measure(driver)
    key(driver, "quick").click()
    picture_changed(driver)
    found["one board, one lot"] = measure(driver)
    driver.find_element(By.CSS_SELECTOR, '#play [data-key="play-new"]').click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-table svg"))
    found["playing"] = measure(driver, "#play-table")
    return found


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_picture_on_a_phone_has_targets_and_words_players_can_use(
    browser: WebDriver, site: str, lang: str
) -> None:
    found = modes(browser, site, lang)
    for mode, sizes in found.items():
        print(f"{lang} {mode}: target {sizes['target']}, text {sizes['text']}, "
              f"{sizes['count']} targets, picture {sizes['width']:.0f} px")  # fmt: skip
    small = {mode: s["target"] for mode, s in found.items() if s["target"][0] < MIN_TARGET}
    tiny = {mode: s["text"] for mode, s in found.items() if s["text"][0] < MIN_TEXT}
    wide = {mode: s["page"] for mode, s in found.items() if s["page"] > PHONE[0]}
    assert not small, f"targets under {MIN_TARGET} px: {small}"
    assert not tiny, f"text under {MIN_TEXT} px: {tiny}"
    assert not wide, f"the page scrolls sideways: {wide}"


def test_a_wide_screen_keeps_the_wide_picture(browser: WebDriver, site: str) -> None:
    """At 1280 x 800 the picture beside the answer is the wide one (600 units)."""
    screen(browser, 1280, 800)
    try:
        open_page(browser, site, link())
        measure(browser)
        script = "return document.querySelector('#picture svg').viewBox.baseVal.width"
        assert browser.execute_script(script) == 600
        assert browser.find_element(By.ID, "picture").get_attribute("data-layout") == "wide"
    finally:
        screen(browser, *PHONE)


# The page's own controls (buttons, fields, checkboxes, choices) smaller than 24 px either
# way; links inside a sentence are left out, as WCAG 2.5.8 leaves them out.
SMALL_CONTROLS = """
const small = [];
for (const el of document.querySelectorAll("button, input, select, textarea, [role=button]")) {
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;  // not shown in this mode
  if (Math.min(box.width, box.height) < arguments[0]) {
    small.push([el.tagName, el.getAttribute("data-key") || el.id || el.getAttribute("type"),
                Math.round(box.width), Math.round(box.height)]);
  }
}
return small;
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_s_own_controls_on_a_phone_are_24_px_or_more(
    browser: WebDriver, site: str, lang: str
) -> None:
    """WCAG 2.5.8 off the picture too: every button, field, checkbox and choice of the
    page at 390 x 844 -- asking, editing the table, one board and one lot, playing -- is at least
    24 px each way (the bag's "every other tile" checkbox was 13 px)."""
    found = {}
    open_page(browser, site, link(), lang)
    measure(browser)  # the picture drawn
    found["ask"] = browser.execute_script(SMALL_CONTROLS, MIN_TARGET)
    key(browser, "tool:edit").click()
    picture_changed(browser)
    found["edit"] = browser.execute_script(SMALL_CONTROLS, MIN_TARGET)
    open_page(browser, site, link(FOUR), lang)
    measure(browser)
    key(browser, "quick").click()
    picture_changed(browser)
    found["one board, one lot"] = browser.execute_script(SMALL_CONTROLS, MIN_TARGET)
    browser.find_element(By.CSS_SELECTOR, '#play [data-key="play-new"]').click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-table svg"))
    found["playing"] = browser.execute_script(SMALL_CONTROLS, MIN_TARGET)
    assert not {mode: small for mode, small in found.items() if small}
