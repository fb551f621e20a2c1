"""The scorekeeper on the grey wall, in a real browser (headless Debian chromium driven by
Selenium, against a real uvicorn server): three rounds kept by clicking each space, then
its colour among five tiles, each with its glyph (one by the keyboard alone), the cross
tile's wrong total named with the audit's codes, the link carrying the wall and the colours, and a
colour twice in a column refused with its rule.  Screenshots go to
the run's temporary folder (or ``AZUL_SCREENSHOTS``) for a person to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.browser  # noqa: F401 (skips the module without chromium)
from tests.extras import needs
from tests.web.conftest import window
from tests.web.test_web_scorekeeper import (
    cells,
    click,
    opened,
    score_round,
    sk,
    wait,
    write,
)

pytestmark = pytest.mark.xdist_group("browser")

needs("selenium.webdriver")  # the scorekeeper's module skips first when chromium is missing

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402

SHOTS = Path()  # set by shots_here, under the run's temporary folder
COLORS = ("blue", "yellow", "red", "black", "white")


def glyph(element: WebElement) -> str:
    """The colour a tile's glyph draws (the pictures' shapes), or its text (the marker's 1)."""
    drawn = element.find_elements(By.CSS_SELECTOR, "svg.glyph")
    return (drawn[0].get_attribute("data-glyph") or "") if drawn else element.text


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window 1280 x 1600."""
    return window(shared_chromium, 1280, 1600)


@pytest.fixture(scope="module", autouse=True)
def shots_here(shots: Path) -> None:
    """This module's screenshots in a folder of the run's (tests/web/conftest.py)."""
    global SHOTS
    SHOTS = shots / "greysheet"


def shot(driver: WebDriver, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    sk(driver, "board-0").location_once_scrolled_into_view  # noqa: B018 (scrolls)
    driver.find_element(By.ID, "scorekeeper").screenshot(str(SHOTS / f"{name}.png"))


def grey(driver: WebDriver) -> WebDriver:
    """The sheet switched to the grey wall."""
    sk(driver, "wall").find_element(By.CSS_SELECTOR, 'option[value="grey"]').click()
    wait(driver, lambda d: "sk-grey-empty" in (sk(d, "wall-0-0-0").get_attribute("class") or ""))
    return driver


def lay(driver: WebDriver, player: int, row: int, column: int, color: str) -> None:
    """Click the space, then its colour."""
    click(driver, f"wall-{player}-{row}-{column}")
    click(driver, f"pick-{player}-{color}")
    laid = sk(driver, f"wall-{player}-{row}-{column}")
    assert glyph(laid) == color and color in (laid.get_attribute("class") or "")


def keep_three_rounds(driver: WebDriver) -> None:
    """tests/web/test_web_greysheet_api.py's grey sheet: player 1 lays black (row 1, column 4)
    and red (row 2, column 5), then blue (row 2, column 3), then the yellow cross tile
    (row 2, column 4: 3 across + 2 down = 5) with the marker and two floor tiles (-4),
    writing 5; player 2 lays white (row 1, column 1), then yellow under it."""
    lay(driver, 0, 0, 3, "black")
    lay(driver, 0, 1, 4, "red")
    lay(driver, 1, 0, 0, "white")
    score_round(driver, 1)
    lay(driver, 0, 1, 2, "blue")
    lay(driver, 1, 1, 0, "yellow")
    score_round(driver, 2)
    # the keyboard alone: Enter on the space opens the colours, the focus on the first
    # one its row and column lack (row 2 holds blue and red, column 4 black: yellow);
    # Escape closes them, back on the space; Enter again, and Enter on yellow lays it
    space = sk(driver, "wall-0-1-3")
    driver.execute_script("arguments[0].focus()", space)
    space.send_keys(Keys.ENTER)
    focused = wait(driver, lambda d: d.switch_to.active_element.get_attribute("data-sk"))
    assert focused == "pick-0-yellow"
    marked = sk(driver, "pick-0-black").get_attribute("aria-label")
    assert marked == "black (already in this row or column: the judge will refuse it)"
    shot(driver, "choosing")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert driver.switch_to.active_element.get_attribute("data-sk") == "wall-0-1-3"
    assert not driver.find_elements(By.CSS_SELECTOR, '[data-sk="palette-0"]')
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.switch_to.active_element.get_attribute("data-sk") == "pick-0-yellow")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    laid = sk(driver, "wall-0-1-3")
    assert glyph(laid) == "yellow" and "tile yellow" in (laid.get_attribute("class") or "")
    assert driver.switch_to.active_element.get_attribute("data-sk") == "wall-0-1-3"
    click(driver, "marker-0", "floor-0-1")
    write(driver, "written-0", 5)
    score_round(driver, 3)


def test_a_grey_round_kept_by_clicking_names_a_wrong_total(browser: WebDriver,
                                                          site: str) -> None:  # fmt: skip
    driver = grey(opened(browser, site))
    keep_three_rounds(driver)
    shot(driver, "three-rounds")
    first, third = cells(driver, 1), cells(driver, 3)
    assert first[0] == "row 1: +1, row 2: +1" and first[2] == "2"
    assert third[0] == "row 2: +5"
    assert third[1:3] == ["−4", "4"]
    assert third[3].startswith("5 ✗\n5 written; 3 before and +1 this round make 4; perhaps: ")
    assert "CROSS_COUNTED_ONCE (W3)" in third[3]
    assert "MARKER_PENALTY_FORGOTTEN (F3)" in third[3]
    share = driver.find_element(By.ID, "scorekeeper-share").get_attribute("href") or ""
    assert share.endswith("?sheet=2g_14K25R.11W_23B.21Y_24Yf2mw5.")
    for element in driver.find_elements(By.CSS_SELECTOR, "#scorekeeper .tile"):
        classes = (element.get_attribute("class") or "").split()
        color = next((c for c in COLORS if c in classes), "marker")
        assert glyph(element) == ("1" if color == "marker" else color)


def test_the_link_reopens_the_grey_sheet(browser: WebDriver, site: str) -> None:
    driver = browser
    driver.get(f"{site}?sheet=2g_14K25R.11W_23B.21Y")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="round-2"]'))
    assert sk(driver, "score").text == "Score round 3"
    assert sk(driver, "wall").get_attribute("value") == "grey"
    red = sk(driver, "wall-0-1-4")
    assert glyph(red) == "red" and "tile red" in (red.get_attribute("class") or "")
    assert red.get_attribute("disabled") is not None


def test_a_colour_twice_in_a_column_is_refused_v2(browser: WebDriver, site: str) -> None:
    driver = grey(opened(browser, site))
    lay(driver, 0, 0, 2, "white")
    lay(driver, 0, 3, 2, "white")
    click(driver, "score")
    refused = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="refused"]'))
    shot(driver, "refused")
    said = "player 1's white tile at row 4, column 3: column 3 already holds a white tile"
    assert said in refused[0].text
    assert "(V2)" in refused[0].text
    assert not driver.find_elements(By.CSS_SELECTOR, '[data-sk="round-1"]')
