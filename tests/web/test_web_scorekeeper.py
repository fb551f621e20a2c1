"""The scorekeeper on the judge's page, in a real browser (headless Debian chromium driven
by Selenium, against a real uvicorn server): a two-round sheet kept by clicking the
players' walls and floors, a wrong written total named with the audit's code, the link
of a round reopening the sheet there, an impossible entry refused with its reason, and
French.  Screenshots go to the run's temporary folder (or ``AZUL_SCREENSHOTS``) for a
person to look at."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.browser import wait_for  # skips the module without chromium
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

SHOTS = Path()  # set by shots_here, under the run's temporary folder


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window 1280 x 1600."""
    return window(shared_chromium, 1280, 1600)


def opened(driver: WebDriver, address: str) -> WebDriver:
    driver.get(address)
    driver.execute_script("localStorage.clear()")
    driver.get(address)
    wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="score"]'))
    return driver


def wait(driver: WebDriver, condition: Callable[[WebDriver], Any], seconds: float = 15) -> Any:
    return wait_for(driver, condition, seconds)


def sk(driver: WebDriver, key: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'[data-sk="{key}"]')


def click(driver: WebDriver, *keys: str) -> None:
    for key in keys:
        element = sk(driver, key)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()


def write(driver: WebDriver, key: str, value: int) -> None:
    field = sk(driver, key)
    field.clear()
    field.send_keys(str(value))


def cells(driver: WebDriver, round_number: int) -> list[str]:
    row = sk(driver, f"round-{round_number}")
    return [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]


@pytest.fixture(scope="module", autouse=True)
def shots_here(shots: Path) -> None:
    """This module's screenshots in a folder of the run's (tests/web/conftest.py)."""
    global SHOTS
    SHOTS = shots / "scorekeeper"


def shot(driver: WebDriver, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sk(driver, "board-0").location_once_scrolled_into_view  # noqa: B018 (scrolls)
    driver.find_element(By.ID, "scorekeeper").screenshot(str(SHOTS / f"{name}.png"))


def score_round(driver: WebDriver, number: int) -> None:
    click(driver, "score")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-sk="round-{number}"]'))


def keep_two_rounds(driver: WebDriver) -> None:
    """Round 1: player 1 lays row 1 blue and row 2 white (1 + 2), the marker on the
    floor (-1), writes 2; player 2 lays row 1 black (1), writes 1.  Round 2: player 1
    lays row 1 yellow (2 across) and row 2 blue (2 across + 2 down = 4): 8, but writes 9;
    player 2 lays row 1 white (2 across), two floor tiles (-2): 1, writes 1."""
    click(driver, "wall-0-0-0", "wall-0-1-0", "marker-0", "wall-1-0-3")
    write(driver, "written-0", 2)
    write(driver, "written-1", 1)
    score_round(driver, 1)
    click(driver, "wall-0-0-1", "wall-0-1-1", "wall-1-0-4", "floor-1-1")
    write(driver, "written-0", 9)
    write(driver, "written-1", 1)
    score_round(driver, 2)


def test_a_two_round_sheet_kept_by_clicking_names_a_wrong_figure(browser: WebDriver,
                                                                   site: str) -> None:  # fmt: skip
    driver = opened(browser, site)
    keep_two_rounds(driver)
    shot(driver, "two-rounds")
    first, second = cells(driver, 1), cells(driver, 2)
    # per player: wall tiles, floor, total, written
    assert first[1:4] == ["−1", "2", "2 ✓ right"]
    assert first[5:8] == ["0", "1", "1 ✓ right"]
    assert second[0] == "row 1: +2, row 2: +4"
    assert second[2] == "8"
    assert second[3].startswith("9 ✗\n9 written; 2 before and +6 this round make 8; perhaps: "
                                "player 1's yellow tile")  # fmt: skip
    assert second[3].endswith("EMPTY_DIRECTION_COUNTED (W3)")
    assert second[5:8] == ["−2", "1", "1 ✓ right"]
    share = driver.find_element(By.ID, "scorekeeper-share").get_attribute("href") or ""
    assert share.endswith("?sheet=2_1121mw2.14w1_1222w9.15f2w1")


def test_a_round_link_reopens_the_sheet_at_that_round(browser: WebDriver, site: str) -> None:
    driver = opened(browser, site)
    keep_two_rounds(driver)
    link = sk(driver, "round-1").find_element(By.TAG_NAME, "a").get_attribute("href")
    assert link is not None
    driver.get(link)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="round-1"]'))
    assert not driver.find_elements(By.CSS_SELECTOR, '[data-sk="round-2"]')
    assert sk(driver, "score").text == "Score round 2"
    assert sk(driver, "wall-0-0-0").get_attribute("disabled") is not None  # laid in round 1
    assert "tile blue" in (sk(driver, "wall-0-0-0").get_attribute("class") or "")


def test_an_impossible_entry_is_refused_with_its_reason_in_french(browser: WebDriver,
                                                                  site: str) -> None:  # fmt: skip
    driver = opened(browser, site)
    driver.find_element(By.ID, "lang-fr").click()
    wait(driver, lambda d: sk(d, "score").text == "Compter le tour 1")
    click(driver, "wall-0-0-0", "wall-0-0-1")  # two tiles in the first row in one round
    click(driver, "score")
    refused = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="refused"]'))
    shot(driver, "refused-fr")
    said = "le joueur 1 a posé deux carreaux dans la rangée 1 de son mur au tour 1"
    assert said in refused[0].text
    assert "(W1)" in refused[0].text
    assert not driver.find_elements(By.CSS_SELECTOR, '[data-sk="round-1"]')


def test_every_tile_carries_the_pictures_glyph_and_its_colours_name(
    browser: WebDriver, site: str
) -> None:
    from azul_rules.svg._parts import _GLYPHS

    driver = opened(browser, site)
    click(driver, "wall-0-2-2", "marker-1")
    pieces = driver.find_elements(By.CSS_SELECTOR, "#scorekeeper .tile, #scorekeeper .sk-empty")
    for element in pieces:
        classes = (element.get_attribute("class") or "").split()
        color = next(c for c in ("blue", "yellow", "red", "black", "white", "marker")
                     if c in classes)  # fmt: skip
        if color == "marker":
            assert element.text == "1"
            continue
        path = element.find_element(By.CSS_SELECTOR, "svg.glyph path")
        assert path.get_attribute("d") == _GLYPHS[next(c for c in _GLYPHS
                                                       if c.name.lower() == color)]  # fmt: skip
        assert color in (element.get_attribute("aria-label") or "")
    driver.find_element(By.ID, "lang-fr").click()
    wait(driver, lambda d: sk(d, "score").text == "Compter le tour 1")
    assert sk(driver, "wall-0-0-0").get_attribute("aria-label") == "rangée 1, colonne 1, bleu"
    assert sk(driver, "wall-0-0-1").get_attribute("title") == "rangée 1, colonne 2, jaune"
