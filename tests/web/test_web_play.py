"""Playing a game at the page, in a real browser: headless Debian chromium driven by
Selenium against a real uvicorn server.  A two-player game against the greedy bot is
started, moves are played by clicking the picture and by the keyboard alone, an illegal
one is refused with its verdict, the record is downloaded and the library replays it,
and the panel speaks French.  The screenshots go to the run's temporary folder (set
``AZUL_SCREENSHOTS`` to another folder) for a person to look at.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

import azul_rules as az
from azul_rules.core.bots import GreedyBot
from tests.browser import wait_for  # skips the module without chromium
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

SHOTS = Path()  # set by shots_here, under the run's temporary folder


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window 1280 x 900."""
    return window(shared_chromium, 1280, 900)


@pytest.fixture
def page(browser: WebDriver, site: str) -> WebDriver:
    """The page, freshly loaded in English, its Play panel ready."""
    browser.set_window_size(1280, 900)
    browser.get(site)
    browser.execute_script("localStorage.clear()")
    browser.get(site)
    wait(browser, lambda d: d.find_element(By.ID, "play").get_attribute("data-ready"))
    return browser


def wait(driver: WebDriver, condition: Any, seconds: float = 20) -> Any:
    """``condition`` within ``seconds``; past them, what the Play panel shows."""
    return wait_for(driver, condition, seconds, lambda d: d.find_element(By.ID, "play").text)


@pytest.fixture(scope="module", autouse=True)
def shots_here(shots: Path) -> None:
    """This module's screenshots in a folder of the run's (tests/web/conftest.py)."""
    global SHOTS
    SHOTS = shots / "play"


def shot(driver: WebDriver, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.execute_script("document.getElementById('play').scrollIntoView()")
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def key(driver: WebDriver, data_key: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f'#play [data-key="{data_key}"]')


def press(driver: WebDriver, data_key: str) -> None:
    """Click the control ``data_key``, found again if the panel redraws it meanwhile (the
    line buttons are redrawn when the judge's answer about the take arrives)."""

    def clicked(d: WebDriver) -> bool:
        key(d, data_key).click()
        return True

    wait(driver, clicked)


def moves_shown(driver: WebDriver) -> list[str]:
    """The moves the panel lists (the start left out)."""
    items = driver.find_elements(By.CSS_SELECTOR, "#play-moves li")
    return [item.text for item in items[1:]]


def my_turn_after(driver: WebDriver, count: int) -> None:
    """Waits until ``count`` moves are played and the person is to move again."""
    wait(driver, lambda d: len(moves_shown(d)) == count
         and d.find_elements(By.CSS_SELECTOR, "#play-chooser .play-take")
         and d.find_elements(By.CSS_SELECTOR, "#play-table svg"))  # fmt: skip


def start(driver: WebDriver, seed: str, seats: tuple[str, str] = ("person", "greedy")) -> None:
    """A two-player game with ``seed``, its seats as chosen (by default player 1 a
    person, player 2 the greedy bot), once the person is to move."""
    key(driver, "play-seed").send_keys(seed)
    for seat, who in enumerate(seats):
        assert key(driver, f"play-seat-{seat}").get_attribute("value") == who
    key(driver, "play-new").click()
    my_turn_after(driver, 0)


def effect_of(driver: WebDriver, line: str) -> str:
    """What the target button of ``line`` (from 0, or ``floor``) says the take does."""
    return key(driver, f"play-target:{line}").find_element(By.CSS_SELECTOR, ".play-effect").text


def click_take(driver: WebDriver, source: int, color: str) -> None:
    """Clicks a tile of ``color`` on factory ``source`` (from 0) in the picture."""
    selector = f'#play-table .table .factory[data-index="{source}"] .tile.{color}'
    driver.find_element(By.CSS_SELECTOR, selector).click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#play-table .tile.picked"))


def test_a_game_against_the_greedy_bot_by_clicks_and_keys_gives_a_record_to_replay(
    page: WebDriver, tmp_path: Path
) -> None:
    start(page, "7")
    dealt = az.new_game(2, seed=7)
    assert dealt.current_player == 0
    shot(page, "1-started")
    assert page.find_element(By.ID, "play-status").text == "Round 1: player 1 (a person) to move"

    # By clicks on the picture: the blue tiles of factory 1, then pattern line 3.
    click_take(page, 0, "blue")
    # Before it is played, what the take does on each line (its two blues: one too many
    # for line 1) and on the floor, as the judge's check says.
    effects = {"0": "1 on the line, 1 on the floor: \u22121", "2": "2 on the line",
               "floor": "2 on the floor: \u22122"}  # fmt: skip
    wait(page, lambda d: {line: effect_of(d, line) for line in effects} == effects)
    shot(page, "2-picked")
    page.find_element(
        By.CSS_SELECTOR, '#play-table .board[data-player="0"] .pattern-line[data-line="2"]'
    ).click()
    my_turn_after(page, 2)
    first, reply = moves_shown(page)
    assert first == "1B3"
    after = dealt.apply(az.parse_move("1B3"))
    assert reply == str(GreedyBot().choose(after))
    shot(page, "3-bot-answered")

    # An illegal take (another colour to the line that holds blue) is refused, with why.
    take = next(b for b in page.find_elements(By.CSS_SELECTOR, ".play-take")
                if "blue" not in str(b.get_attribute("class")))  # fmt: skip
    take.click()
    press(page, "play-target:2")
    verdict = wait(page, lambda d: d.find_element(By.ID, "play-verdict"))
    assert "LINE_COLOR_MISMATCH" in verdict.text or "COLOR" in verdict.text
    assert len(moves_shown(page)) == 2
    shot(page, "4-illegal")

    # By the keyboard alone: a take chosen with Enter, then Tab to the floor and Space.
    page.execute_script("document.querySelector('#play .play-take').focus()")
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda d: d.switch_to.active_element.get_attribute("data-key") == "play-target:0")
    for _ in range(5):
        page.switch_to.active_element.send_keys(Keys.TAB)
    assert page.switch_to.active_element.get_attribute("data-key") == "play-target:floor"
    page.switch_to.active_element.send_keys(Keys.SPACE)
    my_turn_after(page, 4)
    assert moves_shown(page)[2].endswith("F")
    # Once the bot has answered, the keyboard goes on from the first take offered.
    wait(page, lambda d: "play-take" in str(d.switch_to.active_element.get_attribute("class")))
    shot(page, "5-keyboard")

    # The record, downloaded, is the library's: it replays, and each position is linked.
    page.execute_cdp_cmd("Page.setDownloadBehavior",
                         {"behavior": "allow", "downloadPath": str(tmp_path)})  # fmt: skip
    page.find_element(By.ID, "play-download").click()
    saved = tmp_path / "azul-game-7.json"
    deadline = time.monotonic() + 20
    while not saved.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    record = az.GameRecord.from_json(saved.read_text(encoding="utf-8"))
    assert (record.players, record.seed) == (2, 7)
    assert [str(m) for m in record.moves] == moves_shown(page)
    played = record.replay()
    assert played.ok and len(played.states) == 5
    link = page.find_element(By.ID, "play-link").get_attribute("href") or ""
    assert link.endswith("?position=" + az.to_notation(played.final))
    links = [a.get_attribute("href") or "" for a in page.find_elements(By.CSS_SELECTOR,
                                                                     "#play-moves a")]  # fmt: skip
    assert [ref.split("?position=")[1] for ref in links] == [
        az.to_notation(s) for s in played.states]
    replayed = subprocess.run([sys.executable, "-m", "azul_rules", "replay", str(saved)],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_a_hot_seat_game_on_the_grey_wall_in_french(page: WebDriver) -> None:
    page.find_element(By.ID, "lang-fr").click()
    wait(page, lambda d: d.find_element(By.ID, "play-title").text == "Jouer une partie")
    key(page, "play-seat-1").send_keys("une personne")
    grey = '#play [data-key="play-variant"] option[value="grey"]'
    page.find_element(By.CSS_SELECTOR, grey).click()
    start(page, "11", ("person", "person"))
    status = page.find_element(By.ID, "play-status").text
    dealt = az.new_game(2, seed=11, variant="grey")
    assert status == f"Manche 1\u202f: joueur {dealt.current_player + 1} (une personne) doit jouer"
    tiles = page.find_elements(By.CSS_SELECTOR, "#play-chooser .play-take")
    assert tiles and all("tile" in str(t.get_attribute("class")).split() for t in tiles)
    colors = {"blue": "bleu", "yellow": "jaune", "red": "rouge", "black": "noir", "white": "blanc"}
    for tile in tiles:  # colour-blind safe: each tile shows its colour's glyph, not a letter
        (color,) = set(str(tile.get_attribute("class")).split()) & set(colors)
        assert tile.find_element(By.CSS_SELECTOR, "svg.glyph").get_attribute("data-glyph") == color
        assert colors[color] in (tile.get_attribute("aria-label") or "")
    tiles[0].click()
    press(page, "play-target:floor")
    my_turn_after(page, 1)
    link = page.find_element(By.ID, "play-link").get_attribute("href") or ""
    seat = az.from_notation(link.split("?position=")[1]).current_player
    status = page.find_element(By.ID, "play-status").text
    assert status.startswith(f"Manche 1\u202f: joueur {seat + 1}")
    assert seat != dealt.current_player
    shot(page, "6-hot-seat-french")
    page.find_element(By.ID, "lang-en").click()


def test_the_panel_fits_a_phone(page: WebDriver) -> None:
    page.set_window_size(375, 800)
    start(page, "3")
    width = page.execute_script("return document.getElementById('play').scrollWidth")
    room = page.execute_script("return document.documentElement.clientWidth")
    assert width <= room
    shot(page, "7-phone")
