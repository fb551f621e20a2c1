"""Pictures in a real browser: headless Chromium (Debian's ``chromium``) turns them into
PNGs, and the pixels that matter are checked — a tile's colour at its wall space, a
printed space's tint, the highlight's outline — rather than a golden file.

The run's one chromium paints them (tests/web/conftest.py), the screen emulated at the
picture's size, one pixel a unit.  Skipped when chromium, its driver or Selenium is
missing, except under ``AZUL_REQUIRE_EXTRAS=1`` (CI, whose ``.ci/run`` installs them),
where their absence fails the run.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

import azul_rules as az
import tests.browser  # noqa: F401 (skips the module without chromium)
from azul_rules.core.colors import wall_color
from azul_rules.svg import board
from tests.pictures import box_of, classes, color_of, decode_png, elements, parse, tiles
from tests.web.conftest import window

pytestmark = pytest.mark.xdist_group("browser")

EXAMPLES = Path("examples")


@pytest.fixture(scope="module")
def browser(shared_chromium: WebDriver) -> WebDriver:
    """The run's chromium (tests/web/conftest.py)."""
    return window(shared_chromium, 800, 600)

# The fills of azul_rules/svg/_parts.py, as the browser must paint them.
FILLS = {
    "blue": (0x2A, 0x6F, 0xDB),
    "yellow": (0xF5, 0xC5, 0x18),
    "red": (0xD9, 0x30, 0x25),
    "black": (0x2B, 0x2B, 0x2B),
    "white": (0xF4, 0xF1, 0xEA),
}
TINTS = {
    "blue": (0xC6, 0xD9, 0xF6),
    "yellow": (0xFC, 0xED, 0xB5),
    "red": (0xF4, 0xC7, 0xC3),
    "black": (0xC4, 0xC4, 0xC4),
    "white": (0xFB, 0xFA, 0xF6),
}
OFFENDING = (0xC8, 0x00, 0x7A)


class Screenshot:
    """A decoded PNG of a picture, read pixel by pixel."""

    def __init__(self, png: bytes) -> None:
        self.width, self.height, self.rows, self.bpp = decode_png(png)

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        row = self.rows[int(y)]
        start = int(x) * self.bpp
        r, g, b = row[start : start + 3]
        return r, g, b


def screenshot(picture: str, folder: Path, driver: WebDriver) -> Screenshot:
    """``picture`` as chromium paints it, at its own size, 1 px per unit."""
    root = ET.fromstring(picture)
    width = int(float(root.get("width", "0")))
    height = math.ceil(float(root.get("height", "0")))
    source = folder / "picture.svg"
    source.write_text(picture, encoding="utf-8")
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        driver.get(source.as_uri())
        png = driver.get_screenshot_as_png()
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    shot = Screenshot(png)
    assert (shot.width, shot.height) == (width, height)
    return shot


def assert_color(found: tuple[int, int, int], wanted: tuple[int, int, int], where: str) -> None:
    assert all(abs(a - b) <= 8 for a, b in zip(found, wanted, strict=True)), (found, wanted, where)


def _fill_point(node: ET.Element) -> tuple[float, float]:
    """A point of a tile or space painted with its fill: left of the central glyph,
    inside the edge."""
    x, y, size, _ = box_of(node)
    return x + 0.14 * size, y + 0.5 * size


def test_every_wall_tile_and_printed_space_is_painted_in_its_colour(
    tmp_path: Path, browser: WebDriver
) -> None:
    """S5: placed tiles in their colour, empty spaces in the tint of their printed one."""
    record = az.GameRecord.from_json((EXAMPLES / "recorded-game.json").read_text())
    picture = board(record.replay().final)
    shot = screenshot(picture, tmp_path, browser)
    root = parse(picture)
    walls = elements(root, "wall")
    wall_tiles = [t for wall in walls for t in tiles(wall)]
    assert len({color_of(t) for t in wall_tiles}) == 5
    for tile in wall_tiles:
        where = f"{color_of(tile)} tile at {tile.get('data-row')},{tile.get('data-column')}"
        assert_color(shot.pixel(*_fill_point(tile)), FILLS[color_of(tile)], where)
    taken = {(t.get("data-row"), t.get("data-column")) for t in tiles(walls[1])}
    for space in elements(walls[1], "wall-space"):
        row, column = space.get("data-row"), space.get("data-column")
        if (row, column) not in taken:
            printed = wall_color(int(row or 0), int(column or 0)).name.lower()
            assert f"space-{printed}" in classes(space)
            assert_color(shot.pixel(*_fill_point(space)), TINTS[printed], f"space {row},{column}")


def test_the_offending_wall_space_is_outlined(tmp_path: Path, browser: WebDriver) -> None:
    """P3: the wall-colour conflict of examples/ outlines the yellow already on row 4."""
    state = az.from_json((EXAMPLES / "round-2-position.json").read_text(), az.GameState)
    move = az.move_from_json((EXAMPLES / "wall-color-conflict.json").read_text())
    picture = board(state, highlight=move)
    shot = screenshot(picture, tmp_path, browser)
    root = parse(picture)
    (mark,) = elements(root, "highlight", "offending")
    x, y, w, h = box_of(mark)
    for point in ((x + w / 2, y), (x + w / 2, y + h), (x, y + h / 2), (x + w, y + h / 2)):
        assert_color(shot.pixel(*point), OFFENDING, f"outline at {point}")
    (tile,) = [t for t in tiles(root) if t.get("data-row") == "3" and color_of(t) == "yellow"]
    assert_color(shot.pixel(*_fill_point(tile)), FILLS["yellow"], "the yellow at row 4")
    inside = shot.pixel(x + w / 2, y + h / 2)
    assert inside != OFFENDING  # an outline, not a fill
