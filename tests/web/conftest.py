"""The web judge's shared fixtures: the application in Starlette's test client (one a
module), one real server and one headless chromium for the whole run (each module's
``browser`` sets the window it needs), screenshots under the run's temporary folder.

Every module that drives chromium is in the ``browser`` xdist group, so that under
``pytest -n`` they run on one worker, one chromium between them.  ``AZUL_SCREENSHOTS``
names a folder to keep the screenshots in for a person to look at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The judge in Starlette's test client, one a module; an exception escaping a
    handler fails the test at once (``raise_server_exceptions``)."""
    from starlette.testclient import TestClient

    from azul_rules.web import create_app

    with TestClient(create_app(), raise_server_exceptions=True) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """The judge served by uvicorn on a free local port: the page's address."""
    from tests.webserver import running_server

    with running_server() as address:
        yield address


@pytest.fixture(scope="session")
def shared_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """The run's one headless chromium (a new profile under the run's temporary folder)."""
    from tests.browser import chromium

    with chromium(tmp_path_factory.mktemp("chromium")) as driver:
        yield driver


def window(driver: WebDriver, width: int, height: int) -> WebDriver:
    """``driver`` with a fresh window state: ``width`` x ``height``, no emulated screen, an
    empty page, so that no module sees what the one before it left."""
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.get("about:blank")
    driver.set_window_size(width, height)
    return driver


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``AZUL_SCREENSHOTS`` when set, else the run's temporary folder."""
    chosen = os.environ.get("AZUL_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
