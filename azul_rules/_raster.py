"""SVG pictures as pixels, for PettingZoo's ``rgb_array`` render mode (extra
``[pettingzoo]``; docs/ai.md says why these libraries).

resvg (through ``resvg-py``, a Rust library in a self-contained wheel) rasterises the
SVG document of :func:`azul_rules.svg.board` to PNG; Pillow decodes the PNG.  Imported
only when ``rgb_array`` is asked for.
"""

from __future__ import annotations

import io

import numpy as np
import resvg_py
from PIL import Image

__all__ = ["rgb_array"]


def rgb_array(picture: str) -> np.ndarray:
    """The SVG document ``picture`` rasterised at its own size (its ``width`` and
    ``height`` in px) on white: an ``H×W×3`` ``uint8`` array."""
    png = resvg_py.svg_to_bytes(svg_string=picture, background="white")
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
