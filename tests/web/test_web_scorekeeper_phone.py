"""The scorekeeper on a phone and for everyone at the table, in a real browser (chromium
against the real server, tests/web/conftest.py): a four-player sheet as one card per
player within 390 px, in English and French; every button at least 24 px square
(WCAG 2.5.8); an empty wall space's glyph at least 3:1 on its tint and a hovered primary
button at least 4.5:1, both from the computed colours by the WCAG formula; each round's
verdicts read out in a polite live region.  ``AZUL_SCREENSHOTS`` keeps the phone's
screenshots (docs/images/scorekeeper-phone-*.png are made from them)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import wait_for  # skips the module without chromium
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

FOUR_PLAYERS = "4_11w1.12w1.11w1.14w1_12w3.13w3.22w3.15w3_13w6.14w6.12w6.13w6"
"""Player 3 writes 3 in round 2 where the rules give 2, then 6, the rules' total."""

ISSUE = "2_112534mw2.112131w6_12213143f4w5.12234452mw10_1533w10.13253441f1mw21"


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    return window(shared_chromium, 1280, 1600)


@pytest.fixture
def phone(browser: WebDriver) -> Iterator[WebDriver]:
    """The page's viewport exactly 390 x 844 CSS px."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1,
                             "mobile": False})  # fmt: skip
    try:
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def opened(driver: WebDriver, site: str, query: str = "", lang: str = "en") -> WebDriver:
    driver.get(site)
    driver.execute_script("localStorage.clear(); localStorage.setItem('azul-judge-lang', "
                          "arguments[0])", lang)  # fmt: skip
    driver.get(site + query)
    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="score"]'))
    return driver


def js(driver: WebDriver, script: str, *args: Any) -> Any:
    return driver.execute_script(script, *args)


CONTRAST = """
const rgb = (text) => text.match(/[0-9.]+/g).slice(0, 3).map(Number);
const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05); };
"""
"""The WCAG 2 contrast ratio of two computed colours (``rgb(...)``), in the page."""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_four_player_sheet_is_one_card_a_player_within_390_px(
    phone: WebDriver, site: str, shots: Path, lang: str
) -> None:
    driver = opened(phone, site, f"?sheet={FOUR_PLAYERS}", lang)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="card-3-round-3"]'))
    assert js(driver, "return window.innerWidth") == 390
    assert js(driver, "return document.documentElement.scrollWidth") <= 390
    cards = driver.find_elements(By.CSS_SELECTOR, '[data-sk^="card-"][data-sk$="-round-3"]')
    assert len(cards) == 4 and not driver.find_elements(By.CSS_SELECTOR, "#scorekeeper table")
    wider = js(driver, "const w = document.documentElement.clientWidth; return [...document"
                       ".querySelectorAll('#scorekeeper *')].filter(e => e.getBoundingClientRect()"
                       ".right > w + 0.5).map(e => e.className)")  # fmt: skip
    assert wider == []
    wrong = driver.find_element(By.CSS_SELECTOR, '[data-sk="card-2-round-2"]').text
    right = driver.find_element(By.CSS_SELECTOR, '[data-sk="card-2-round-3"]').text
    assert "3 ✗" in wrong
    assert ("perhaps: " if lang == "en" else "peut-être\u202f: ") in wrong
    assert "6 ✓" in right and "✗" not in right
    folder = shots / "scorekeeper-phone"
    folder.mkdir(parents=True, exist_ok=True)
    js(driver, "document.querySelector('[data-sk=\"cards\"]').scrollIntoView()")
    driver.find_element(By.CSS_SELECTOR, '[data-sk="cards"]').screenshot(
        str(folder / f"cards-{lang}.png"))


def test_the_issues_sheet_on_a_phone_judges_the_later_total_right(phone: WebDriver,
                                                                 site: str) -> None:  # fmt: skip
    driver = opened(phone, site, f"?sheet={ISSUE}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="card-0-round-3"]'))
    third = driver.find_element(By.CSS_SELECTOR, '[data-sk="card-0-round-3"]').text
    assert "10 ✓ right: the miscount of round 2 is put right" in third
    assert "CROSS_COUNTED_ONCE" not in third


def buttons_too_small(driver: WebDriver) -> list[str]:
    return list(js(driver, "return [...document.querySelectorAll('#scorekeeper button, "
                           "#scorekeeper input, #scorekeeper select')].filter(e => { "
                           "const r = e.getBoundingClientRect(); return r.width && "
                           "(r.width < 24 || r.height < 24); }).map(e => e.dataset.sk + ' ' + "
                           "e.getBoundingClientRect().width + 'x' + "
                           "e.getBoundingClientRect().height)"))  # fmt: skip


@pytest.mark.parametrize("wall", ["colored", "grey"])
def test_every_target_is_at_least_24_px_on_a_phone(phone: WebDriver, site: str,
                                                   wall: str) -> None:  # fmt: skip
    driver = opened(phone, site, f"?sheet={ISSUE}")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="card-0-round-3"]'))
    assert buttons_too_small(driver) == []
    if wall == "grey":
        select = driver.find_element(By.CSS_SELECTOR, '[data-sk="wall"]')
        js(driver, "arguments[0].value = 'grey'; arguments[0].dispatchEvent(new Event('change'))",
           select)  # fmt: skip
        driver.find_element(By.CSS_SELECTOR, '[data-sk="wall-0-0-0"]').click()
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-sk="pick-0-blue"]'))
    assert driver.find_elements(By.CSS_SELECTOR, "#scorekeeper .sk-space")
    assert buttons_too_small(driver) == []


def test_an_empty_wall_spaces_glyph_is_at_least_3_to_1(browser: WebDriver, site: str) -> None:
    driver = opened(browser, site)
    ratios = js(driver, CONTRAST + "return [...document.querySelectorAll('#scorekeeper "
                        ".sk-empty')].map((e) => [e.className, ratio(getComputedStyle("
                        "e.querySelector('path')).stroke, getComputedStyle(e).backgroundColor)])")
    assert len(ratios) == 50  # two players' empty walls
    assert all(r >= 3 for _, r in ratios), [x for x in ratios if x[1] < 3]


def test_a_hovered_primary_button_is_at_least_4_5_to_1(browser: WebDriver, site: str) -> None:
    driver = opened(browser, site)
    button = driver.find_element(By.CSS_SELECTOR, '#scorekeeper button.primary')
    js(driver, "arguments[0].scrollIntoView({block: 'center'})", button)
    ActionChains(driver).move_to_element(button).perform()
    assert js(driver, "return arguments[0].matches(':hover')", button)
    ratio = js(driver, CONTRAST + "const s = getComputedStyle(arguments[0]); "
                       "return ratio(s.color, s.backgroundColor)", button)  # fmt: skip
    assert ratio >= 4.5
    plain = driver.find_element(By.CSS_SELECTOR, '#scorekeeper [data-sk="new"]')
    ActionChains(driver).move_to_element(plain).perform()
    assert js(driver, CONTRAST + "const s = getComputedStyle(arguments[0]); "
                      "return ratio(s.color, s.backgroundColor)", plain) >= 4.5  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_rounds_verdicts_are_read_out_in_a_live_region(browser: WebDriver, site: str,
                                                         lang: str) -> None:  # fmt: skip
    driver = opened(browser, site, lang=lang)
    for key in ("wall-0-0-0", "wall-0-1-1"):
        driver.find_element(By.CSS_SELECTOR, f'[data-sk="{key}"]').click()
    driver.find_element(By.CSS_SELECTOR, '[data-sk="written-0"]').send_keys("3")
    driver.find_element(By.CSS_SELECTOR, '[data-sk="score"]').click()
    live = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '[aria-live="polite"]'
                                                                      '[data-sk="live"]'))[0]
    text = wait_for(driver, lambda d: live.get_attribute("textContent"))
    if lang == "en":
        assert text.startswith("Round 1 scored: player 1, total 2 (3 ✗ 3 written; 0 before "
                               "and +2 this round make 2")  # fmt: skip
        assert text.endswith("; player 2, total 0")
    else:
        assert text.startswith("Tour 1 compté\u202f: joueur 1, total 2 (3 ✗ 3 noté\u202f;")
    assert not re.search(r"\{\w+\}", text)
