"""Debian's chromium driven by Selenium, for the page's tests: the one place that checks
it is there and starts it.

Importing this module skips the importing test module when chromium, its driver,
Selenium or uvicorn is missing -- or fails it under ``AZUL_REQUIRE_EXTRAS=1`` (CI), as
``tests.extras`` does for the extras."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.extras import needs, required

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"

for _program, _package in ((CHROMIUM, "chromium"), (DRIVER, "chromium-driver")):
    if not os.path.exists(_program):
        if required():
            pytest.fail(f"{_program} is missing but AZUL_REQUIRE_EXTRAS=1", pytrace=False)
        pytest.skip(f"{_program} is missing (apt-get install {_package})", allow_module_level=True)

webdriver = needs("selenium.webdriver")
needs("uvicorn")

from selenium.common.exceptions import (  # noqa: E402
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--lang=en-GB",
)
"""Headless, and quiet on this machine's closed network (no background connections)."""


@contextmanager
def chromium(profile: Path, width: int = 1280, height: int = 1600) -> Iterator[WebDriver]:
    """A headless chromium with a new profile in ``profile``, its window ``width`` by
    ``height``; closed at the end."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(DRIVER))
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(
    driver: WebDriver,
    condition: Callable[[WebDriver], Any],
    seconds: float = 15,
    shown: Callable[[WebDriver], str] | None = None,
) -> Any:
    """``condition``'s first true value within ``seconds`` (an element replaced meanwhile
    is looked for again); past them an ``AssertionError`` saying what ``shown`` reads
    off the page, when given."""
    try:
        return WebDriverWait(
            driver, seconds, ignored_exceptions=[StaleElementReferenceException]
        ).until(condition)
    except TimeoutException:
        if shown is None:
            raise
        raise AssertionError(f"the page did not get there; it shows: {shown(driver)!r}") from None
