"""Small board pictures for the searched tree (Pillow): one PNG per position drawn at the root and the first plies.

Imported only by :mod:`engine.tree.draw`, which the command line loads when a picture is asked for, so the engine's
core needs no package beyond the standard library.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

__all__ = ["board_png"]

_INK = (40, 40, 48)
_X = (33, 102, 172)
_O = (200, 60, 40)
_LAST = (255, 226, 120)
_GRID = (150, 150, 160)


def board_png(
    path: Path, x: frozenset[int], o: frozenset[int], last: int | None, *, width: int = 3, px: int = 84
) -> Path:
    """Draw a ``width`` x ``width`` board of ``px`` pixels with X's and O's cells (0-based), ``last`` shaded, to
    ``path`` (PNG) and return ``path``."""
    scale = 3  # drawn large and reduced, for smooth lines
    side = px * scale
    cell = side / width
    image = Image.new("RGB", (side, side), "white")
    draw = ImageDraw.Draw(image)
    if last is not None:
        r, c = divmod(last, width)
        draw.rectangle((c * cell, r * cell, (c + 1) * cell, (r + 1) * cell), fill=_LAST)
    line = max(2, side // 60)
    for i in range(1, width):
        block = width == 9 and i % 3 == 0  # ultimate: the small boards' borders
        colour, thick = (_INK, line * 2) if block else (_GRID, line if width < 9 else max(1, line // 2))
        draw.line((i * cell, 0, i * cell, side), fill=colour, width=thick)
        draw.line((0, i * cell, side, i * cell), fill=colour, width=thick)
    pad = cell * 0.22
    stroke = max(3, int(cell / (9 if width < 9 else 6)))
    for index in range(width * width):
        r, c = divmod(index, width)
        left, top, right, bottom = c * cell + pad, r * cell + pad, (c + 1) * cell - pad, (r + 1) * cell - pad
        if index in x:
            draw.line((left, top, right, bottom), fill=_X, width=stroke)
            draw.line((left, bottom, right, top), fill=_X, width=stroke)
        elif index in o:
            draw.ellipse((left, top, right, bottom), outline=_O, width=stroke)
    draw.rectangle((0, 0, side - 1, side - 1), outline=_INK, width=line)
    image.resize((px, px), Image.Resampling.LANCZOS).save(path, "PNG")
    return path
