"""The page's question box in a real browser (headless chromium, a real server): a
question asked in English and one in French on a phone's screen (390 x 844), a tablet's
(768 x 1024) and a laptop's (1280 x 800), each answered by the rule that settles it,
the answer scrolled into view; the worked example's link opening its position and
asking about its move."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.browser import wait_for  # skips the module without chromium
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

PHONE = (390, 844)
SIZES = [PHONE, (768, 1024), (1280, 800)]


@pytest.fixture(scope="module")
def phone(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py), its window a phone's."""
    return window(shared_chromium, *PHONE)


def _ready(driver: WebDriver) -> Any:
    body = driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
    box = driver.find_element(By.ID, "question").get_attribute("data-ready")
    return body and box


def _open(driver: WebDriver, address: str, size: tuple[int, int] = PHONE) -> None:
    driver.set_window_size(*size)
    driver.get(address)
    driver.execute_script("localStorage.clear()")
    driver.get(address)
    wait_for(driver, _ready, 15)


def _ask(driver: WebDriver, question: str) -> list[Any]:
    box = driver.find_element(By.ID, "question-text")
    box.clear()
    box.send_keys(question, Keys.ENTER)
    asked = f"{question}"
    wait_for(driver, lambda d: asked in d.find_element(By.ID, "question-answers").text, 15)
    return list(driver.find_elements(By.CSS_SELECTOR, "#question-answers .question-answer"))


def _in_view(driver: WebDriver, element: Any) -> bool:
    """The element's top on the screen and its heading's whole line readable there."""
    return bool(driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); "
        "return r.top >= -1 && r.top + 24 <= window.innerHeight;", element))  # fmt: skip


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_english_question_answered_in_view_and_its_example_tried(
    phone: WebDriver, site: str, size: tuple[int, int]
) -> None:
    _open(phone, site, size)
    answers = _ask(phone, "can I take just two of the three blues?")
    first = answers[0]
    assert first.get_attribute("data-rule") == "T2"
    assert "Taking from a factory" in first.text
    assert "A player may pick one factory and one colour on it" in first.text
    assert "Worked example:" in first.text
    assert _in_view(phone, first)
    width = phone.execute_script("return document.documentElement.clientWidth")
    assert phone.execute_script("return document.documentElement.scrollWidth") <= width
    first.find_element(By.CSS_SELECTOR, "a.try").click()
    wait_for(phone, lambda d: "PARTIAL_TAKE" in d.find_element(By.ID, "verdict").text, 15)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_french_question_answered_in_french_in_view(
    phone: WebDriver, site: str, size: tuple[int, int]
) -> None:
    _open(phone, site, size)
    phone.find_element(By.ID, "lang-fr").click()
    wait_for(phone, lambda d: d.find_element(By.ID, "question-title").text
             == "Demander à l'arbitre en mots", 15)  # fmt: skip
    answers = _ask(phone, "les diagonales comptent ?")
    first = answers[0]
    assert first.get_attribute("data-rule") == "W3"
    assert "Les points d'un carreau posé" in first.text
    assert "Les voisins en diagonale ne comptent jamais" in first.text
    assert "Réponses à «\u202fles diagonales comptent ?\u202f»" in phone.find_element(
        By.ID, "question-answers").text
    assert _in_view(phone, first)


def test_words_the_book_does_not_know_are_said_so(phone: WebDriver, site: str) -> None:
    _open(phone, site)
    box = phone.find_element(By.ID, "question-text")
    box.send_keys("the and of", Keys.ENTER)
    wait_for(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#question-answers .question-none"),
             15)  # fmt: skip
    assert not phone.find_elements(By.CSS_SELECTOR, ".question-answer")
