"""The judge's page in a real browser: headless Debian chromium, driven by Selenium
through Debian's chromium-driver, against a real uvicorn server started here on a free
local port.

A position is built by clicks, a move asked about, a record replayed, the keyboard used
alone, and the page read on a phone-sized screen.  Skipped when chromium or its driver
is missing, except under ``AZUL_REQUIRE_EXTRAS=1`` (CI, whose ``.ci/run`` installs both).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

import azul_rules as az
from tests.browser import wait_for  # skips the module without chromium
from tests.catalogue_copy import GERMAN, german_package, serving
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

EXAMPLES = Path("examples")


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window 1280 x 1600."""
    return window(shared_chromium, 1280, 1600)


@pytest.fixture
def page(browser: WebDriver, site: str) -> WebDriver:
    """The page, freshly loaded, in English, on a desktop-sized window."""
    browser.set_window_size(1280, 1600)
    browser.get(site)
    browser.execute_script("localStorage.clear()")
    browser.get(site)
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    return browser


def wait(driver: WebDriver, condition: Callable[[WebDriver], Any], seconds: float = 15) -> Any:
    """``condition`` within ``seconds``; past them, what the judge's answer shows."""
    return wait_for(driver, condition, seconds, lambda d: d.find_element(By.ID, "verdict").text)


def key(driver: WebDriver, data_key: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'[data-key="{data_key}"]')


def click(driver: WebDriver, data_key: str, times: int = 1) -> None:
    for _ in range(times):
        key(driver, data_key).click()


def add_tiles(driver: WebDriver, place: str, colors: str) -> None:
    """Click the brush of each colour letter, then the place's add button."""
    names = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white", "M": "marker"}
    for letter in colors:
        click(driver, f"brush:{names[letter]}")
        click(driver, f"add:{place}")


def type_number(driver: WebDriver, data_key: str, value: int) -> None:
    box = key(driver, data_key)
    box.clear()
    box.send_keys(str(value), Keys.TAB)


def choose(driver: WebDriver, data_key: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(key(driver, data_key)).select_by_value(value)


def page_json(driver: WebDriver) -> Any:
    return json.loads(driver.find_element(By.ID, "json-text").get_attribute("value") or "")


def verdict_text(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "verdict").text)


def build_round_two_position(driver: WebDriver) -> None:
    """examples/round-2-position.json, by clicks (its generator state aside)."""
    type_number(driver, "round", 2)
    choose(driver, "start", "1")
    add_tiles(driver, "factory:1", "BBBR")
    add_tiles(driver, "factory:2", "YRKW")
    add_tiles(driver, "factory:4", "KKWW")
    add_tiles(driver, "center", "YYR")
    type_number(driver, "score:0", 3)
    add_tiles(driver, "line:0:1", "YY")
    add_tiles(driver, "line:0:2", "B")
    add_tiles(driver, "line:0:4", "KK")
    for row, column in ((0, 0), (1, 1), (3, 4)):
        click(driver, f"wall:0:{row}:{column}")
    type_number(driver, "score:1", 2)
    add_tiles(driver, "line:1:0", "R")
    add_tiles(driver, "line:1:2", "WW")
    for row, column in ((0, 1), (2, 0)):
        click(driver, f"wall:1:{row}:{column}")
    add_tiles(driver, "floor:1", "M")


@pytest.mark.slow
def test_a_position_built_by_clicks_and_a_partial_take_judged_in_french(page: WebDriver) -> None:
    """T2: the round-2 table of examples/, built tile by tile; player 1 took two of the
    three blues of factory 2 to line 3: PARTIAL_TAKE, its rule and the French message."""
    build_round_two_position(page)
    example = json.loads((EXAMPLES / "round-2-position.json").read_text())
    assert page_json(page) == {**example, "rng_state": None}
    click(page, "kind:table")
    click(page, "source:1")
    click(page, "color:blue")
    click(page, "more:2", times=2)
    assert key(page, "taken").get_attribute("value") == "2"
    page.find_element(By.ID, "lang-fr").click()
    page.find_element(By.ID, "ask-button").click()
    wait(page, lambda d: "PARTIAL_TAKE" in verdict_text(d))
    shown = verdict_text(page)
    assert "Coup illégal" in shown
    assert (
        "2 des 3 carreaux de couleur bleue de la fabrique 2 ont été pris\u202f: il faut prendre "
        "tous les carreaux de la couleur choisie"
    ) in shown
    assert "Règle T2\u202f: Prendre sur une fabrique" in shown
    assert az.rule("T2").text("fr") in shown
    # The server's picture, the blue left behind on factory 2 marked.
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg .offending.left-behind"))


def test_a_recorded_game_replayed_step_by_step(page: WebDriver) -> None:
    """A record opened as a file, then stepped through: each position is the referee's,
    and at the end the scores and the winner."""
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    states = record.replay().states
    page.find_element(By.ID, "open-file").send_keys(
        str((EXAMPLES / "recorded-game.json").resolve())
    )
    wait(page, lambda d: "Move 0 of 49" in d.find_element(By.ID, "record-step").text)
    assert "next: 2Y3" in page.find_element(By.ID, "record-step").text
    assert page_json(page) == az.to_dict(states[0])
    def at_move(number: int) -> Callable[[WebDriver], bool]:
        return lambda d: f"Move {number} of 49" in d.find_element(By.ID, "record-step").text

    for number in (1, 2, 3):
        page.find_element(By.ID, "record-next").click()
        wait(page, at_move(number))
        assert page_json(page) == az.to_dict(states[number])
    page.find_element(By.ID, "record-back").click()
    wait(page, lambda d: "Move 2 of 49" in d.find_element(By.ID, "record-step").text)
    page.find_element(By.ID, "record-last").click()
    wait(page, lambda d: "Move 49 of 49" in d.find_element(By.ID, "record-step").text)
    final = az.to_dict(states[-1])
    assert page_json(page) == final
    shown = verdict_text(page)
    assert "Every move is legal." in shown and "Winner: Player 1" in shown
    assert [key(page, f"score:{p}").get_attribute("value") for p in (0, 1)] == ["68", "0"]


def test_an_illegal_record_stops_at_its_illegal_move(page: WebDriver) -> None:
    """The disputed game of examples/: move 7 is LINE_COLOR_MISMATCH (P2)."""
    page.find_element(By.ID, "open-file").send_keys(
        str((EXAMPLES / "disputed-game.json").resolve())
    )
    wait(page, lambda d: "LINE_COLOR_MISMATCH" in verdict_text(d))
    assert "Move 7 (player 1) is illegal" in verdict_text(page)
    page.find_element(By.ID, "record-last").click()
    wait(page, lambda d: "Move 6 of" in d.find_element(By.ID, "record-step").text)
    assert not page.find_element(By.ID, "record-next").is_enabled()


def test_an_impossible_position_is_explained_with_its_paths(page: WebDriver) -> None:
    """S3 and P3 in words: examples/impossible-position.json, each problem with its path."""
    page.find_element(By.ID, "open-file").send_keys(
        str((EXAMPLES / "impossible-position.json").resolve())
    )
    wait(page, lambda d: "This position cannot exist" in verdict_text(d))
    state = json.loads((EXAMPLES / "impossible-position.json").read_text())
    try:
        az.from_dict(state, az.GameState)
    except az.InvalidStateError as error:
        problems = error.problems
    shown = verdict_text(page)
    for problem in problems:
        assert problem.code.value in shown
        assert "$.state" + problem.path.removeprefix("$") in shown
        assert problem.message in shown
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#problems .problems li"))


def test_an_impossible_position_is_explained_in_french(page: WebDriver) -> None:
    """S3 and P3 in French: each problem in the library's French words, no English left."""
    page.find_element(By.ID, "lang-fr").click()
    page.find_element(By.ID, "open-file").send_keys(
        str((EXAMPLES / "impossible-position.json").resolve())
    )
    wait(page, lambda d: "Cette position ne peut pas exister" in verdict_text(d))
    state = json.loads((EXAMPLES / "impossible-position.json").read_text())
    with pytest.raises(az.InvalidStateError) as caught:
        az.from_dict(state, az.GameState)
    shown = verdict_text(page)
    for problem in caught.value.problems:
        assert problem.message_in("fr") in shown
        assert problem.message not in shown


def test_claimed_scores_audited_from_the_page(page: WebDriver) -> None:
    """W3: a cross scored once (examples/audits/cross-counted-once): the page names it."""
    folder = EXAMPLES / "audits" / "cross-counted-once"
    claim = json.loads((folder / "claim.json").read_text())
    page.find_element(By.ID, "open-file").send_keys(str((folder / "position.json").resolve()))
    wait(page, lambda d: "factory offer is over" in verdict_text(d))
    for player, score in enumerate(claim["scores"]):
        type_number(page, f"claim:{player}", score)
    page.find_element(By.ID, "audit-button").click()
    wait(page, lambda d: "CROSS_COUNTED_ONCE" in verdict_text(d))
    assert "The scores are wrong" in verdict_text(page)


@pytest.mark.slow
def test_the_keyboard_alone_builds_and_asks(page: WebDriver) -> None:
    """Every control is reached with Tab and worked with Enter or Space; the focus stays
    where it was after each change, and it is visible (a 3 px outline)."""
    from selenium.webdriver.common.action_chains import ActionChains

    # From the top of the page (a click on the body lands wherever the page's middle is).
    page.execute_script("document.querySelector('a.skip').focus()")

    def press(*keys: str) -> None:
        ActionChains(page).send_keys(*keys).perform()

    def back() -> None:
        ActionChains(page).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()

    def tab_to(data_key: str, backwards: bool = False) -> WebElement:
        for _ in range(120):
            back() if backwards else press(Keys.TAB)
            active = page.switch_to.active_element
            if active.get_attribute("data-key") == data_key:
                return active
        raise AssertionError(f"Tab never reached {data_key}")

    tab_to("brush:yellow")
    press(Keys.SPACE)
    assert key(page, "brush:yellow").get_attribute("aria-pressed") == "true"
    tab_to("add:factory:0")
    press(Keys.ENTER)
    press(Keys.ENTER)
    assert page.switch_to.active_element.get_attribute("data-key") == "add:factory:0"
    assert page_json(page)["factories"][0] == ["yellow", "yellow"]
    outline = page.execute_script(
        "const s = getComputedStyle(document.activeElement);"
        "return [s.outlineStyle, s.outlineWidth];"
    )
    assert outline == ["solid", "3px"]
    back()  # to the second tile: Enter removes it
    assert page.switch_to.active_element.get_attribute("data-key") == "tile:factory:0:1"
    press(Keys.ENTER)
    assert page_json(page)["factories"][0] == ["yellow"]
    tab_to("kind:text", backwards=True)  # the question comes before the editor
    press(Keys.ENTER)
    tab_to("typed")
    press("1Y1")
    tab_to("ask-button")
    press(Keys.ENTER)
    # One yellow on factory 1 while the bag holds the rest: the judge answers that this
    # table cannot exist (R2), with each problem.
    wait(page, lambda d: "FACTORY_SHORT" in verdict_text(d))


def test_the_page_fits_a_phone_screen(page: WebDriver, site: str) -> None:
    """375 px wide: nothing wider than the screen, every wall space inside it, and a
    verdict readable there (a move asked about the round-2 table of examples/)."""
    page.set_window_size(375, 812)
    position = az.to_notation(az.from_json((EXAMPLES / "round-2-position.json").read_text(),
                                           az.GameState))  # fmt: skip
    page.get(f"{site}?position={position}")
    wait(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    width = page.execute_script("return document.documentElement.clientWidth")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg, #problems li"))

    def overflowing() -> list[str]:
        return list(
            page.execute_script(
                "const w = document.documentElement.clientWidth; "
                "return [...document.querySelectorAll('body *')].filter(e => "
                "e.getBoundingClientRect().right > w + 0.5 && "
                "getComputedStyle(e).position !== 'absolute').map(e => e.tagName + '.' + "
                "e.className + '#' + (e.dataset.key || ''))"
            )
        )

    assert overflowing() == []
    assert page.execute_script("return document.documentElement.scrollWidth") <= width
    click(page, "kind:text")
    key(page, "typed").send_keys("2B3")
    page.find_element(By.ID, "ask-button").click()
    wait(page, lambda d: "Legal move" in verdict_text(d))
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture svg .highlight"))
    assert page.execute_script("return document.documentElement.scrollWidth") <= width
    assert overflowing() == []


@pytest.fixture(scope="module")
def german_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``azul-rules serve`` run from a copy of the package with a de.po."""
    root = tmp_path_factory.mktemp("german")
    with serving(german_package(root), root) as address:
        yield address


def _reload(driver: WebDriver, address: str) -> None:
    driver.get(address)
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))


def _language_of(driver: WebDriver) -> tuple[str | None, str, list[str | None]]:
    """The page's ``<html lang>``, its title, and which language buttons are pressed."""
    pressed = [
        b.get_attribute("data-lang")
        for b in driver.find_elements(By.CSS_SELECTOR, ".lang button")
        if b.get_attribute("aria-pressed") == "true"
    ]
    return driver.find_element(By.TAG_NAME, "html").get_attribute("lang"), driver.title, pressed


def test_a_de_po_adds_german_to_the_page(browser: WebDriver, german_site: str) -> None:
    """With a de.po, the page has a German button between English and French; German
    is chosen by the button, kept by the saved choice, picked from the browser's
    languages; a saved language no catalogue has falls back to English."""
    _reload(browser, german_site)
    browser.execute_script("localStorage.clear()")
    _reload(browser, german_site)
    buttons = browser.find_elements(By.CSS_SELECTOR, ".lang button")
    assert [(b.get_attribute("id"), b.text) for b in buttons] == [
        ("lang-en", "English"), ("lang-de", f"{GERMAN}English"), ("lang-fr", "Français"),
    ]  # fmt: skip
    assert _language_of(browser) == ("en", "Azul judge", ["en"])
    browser.find_element(By.ID, "lang-de").click()
    assert _language_of(browser) == ("de", f"{GERMAN}Azul judge", ["de"])
    assert browser.find_element(By.TAG_NAME, "h1").text == f"{GERMAN}Azul judge"
    assert key(browser, "clear").text == f"{GERMAN}Empty table"
    click(browser, "kind:text")
    key(browser, "typed").send_keys("1B1")
    browser.find_element(By.ID, "ask-button").click()
    wait(browser, lambda d: verdict_text(d).startswith(GERMAN))  # the API speaks German too
    shown = verdict_text(browser)  # an empty table: its factory offer is over
    assert shown.startswith(f"{GERMAN}Impossible position\nPHASE_MISMATCH (P7 {GERMAN}End of")
    assert f"$.state.phase: {GERMAN}the factory offer cannot go on" in shown
    _reload(browser, german_site)  # the saved choice
    assert _language_of(browser) == ("de", f"{GERMAN}Azul judge", ["de"])
    browser.execute_script("localStorage.setItem('azul-judge-lang', 'xx')")
    _reload(browser, german_site)
    assert _language_of(browser) == ("en", "Azul judge", ["en"])
    agent = browser.execute_script("return navigator.userAgent")
    browser.execute_cdp_cmd(
        "Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "de-AT,fr"}
    )
    try:
        browser.execute_script("localStorage.clear()")
        _reload(browser, german_site)
        assert _language_of(browser) == ("de", f"{GERMAN}Azul judge", ["de"])
    finally:
        browser.execute_cdp_cmd(
            "Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "en-GB"}
        )
        browser.execute_script("localStorage.clear()")
