"""Reading ``azul_rules.svg`` pictures in tests: elements by class, where a tile or a
mark is drawn, and a small PNG decoder for the browser's screenshots."""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator

__all__ = [
    "COLOR_NAMES",
    "Box",
    "box_of",
    "center_of",
    "classes",
    "color_of",
    "decode_png",
    "elements",
    "parse",
    "tiles",
]

SVG = "{http://www.w3.org/2000/svg}"
COLOR_NAMES = ("blue", "yellow", "red", "black", "white")
Box = tuple[float, float, float, float]  # x, y, width, height


def parse(document: str) -> ET.Element:
    """The root of a picture; fails on anything that is not well-formed XML."""
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    return root


def classes(node: ET.Element) -> set[str]:
    return set(node.get("class", "").split())


def elements(root: ET.Element, *wanted: str) -> list[ET.Element]:
    """Every element (``root`` included) whose classes include all of ``wanted``."""
    return [node for node in root.iter() if set(wanted) <= classes(node)]


def tiles(root: ET.Element) -> list[ET.Element]:
    return elements(root, "tile")


def color_of(tile: ET.Element) -> str:
    """The one colour name among a tile's classes."""
    (name,) = classes(tile) & set(COLOR_NAMES)
    return name


_TRANSFORM = re.compile(r"translate\(([-\d.]+),([-\d.]+)\) scale\(([\d.]+)\)")


def box_of(node: ET.Element) -> Box:
    """Where a piece (a group drawn in 20 units, moved and scaled) or a rect lies."""
    transform = node.get("transform")
    if transform is not None:
        match = _TRANSFORM.fullmatch(transform)
        assert match is not None, transform
        x, y, scale = (float(v) for v in match.groups())
        return x, y, 20 * scale, 20 * scale
    if node.tag == f"{SVG}circle":
        cx, cy, r = (float(node.get(a, "0")) for a in ("cx", "cy", "r"))
        return cx - r, cy - r, 2 * r, 2 * r
    x, y, w, h = (float(node.get(a, "0")) for a in ("x", "y", "width", "height"))
    return x, y, w, h


def center_of(node: ET.Element) -> tuple[float, float]:
    x, y, w, h = box_of(node)
    return x + w / 2, y + h / 2


def decode_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """A non-interlaced 8-bit RGB or RGBA PNG: width, height, unfiltered rows and
    bytes per pixel (the PNG specification's five filters)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    chunks = dict[bytes, bytes]()
    idat = b""
    for kind, body in _chunks(data[8:]):
        if kind == b"IDAT":
            idat += body
        else:
            chunks[kind] = body
    width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and color_type in (2, 6) and interlace == 0, "unsupported PNG"
    bpp = 3 if color_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    previous = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        row = _unfilter(raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, bpp)
        rows.append(bytes(row))
        previous = row
    return width, height, rows, bpp


def _chunks(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    position = 0
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        yield kind, data[position + 8 : position + 8 + length]
        position += 12 + length


def _unfilter(kind: int, row: bytearray, above: bytes, bpp: int) -> bytes:
    for i in range(len(row)):
        left = row[i - bpp] if i >= bpp else 0
        up = above[i]
        corner = above[i - bpp] if i >= bpp else 0
        if kind == 1:
            row[i] = (row[i] + left) & 255
        elif kind == 2:
            row[i] = (row[i] + up) & 255
        elif kind == 3:
            row[i] = (row[i] + (left + up) // 2) & 255
        elif kind == 4:
            row[i] = (row[i] + _paeth(left, up, corner)) & 255
    return bytes(row)


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c
