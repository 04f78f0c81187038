"""engine.tree.draw: the searched tree as a PNG or SVG (Graphviz's dot and Pillow; .ci/run installs dot)."""

from __future__ import annotations

import html
import io
import re
import subprocess

import pytest
from PIL import Image

from engine.tree.draw import render
from engine.tree.record import record


def test_a_png_shows_minimax_and_alpha_beta_side_by_side_with_their_counts() -> None:
    png = render([record([4], "minimax", keep=2), record([4])], "png")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > 400 and image.height > 400
    assert len(image.getcolors(1 << 24) or ()) > 50  # boards, text and colours, not a blank page


def test_an_svg_carries_its_boards_and_the_cut_that_alpha_beta_made() -> None:
    svg = html.unescape(render([record([4])], "svg").decode())
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "alpha-beta: 71 states" in svg
    assert "not searched: 3, 7, 9, 4, 6, 8" in svg  # O on 2 is cut: X wins, while O already has a draw with 1
    assert "β = 0 (draw): O already has it elsewhere (O 1 at ply 1)" in svg  # was "β = 2": the window, not a draw
    boards = re.findall(r'xlink:href="([^"]+)"', svg)
    assert boards and all(link.startswith("data:image/png;base64,") for link in boards)  # nothing left on disk


def test_only_png_and_svg_are_drawn() -> None:
    with pytest.raises(ValueError, match="png or svg"):
        render([record([4])], "gif")


def test_the_machine_has_the_fonts_the_pictures_need() -> None:
    """Japanese words fall back to a CJK font; without one they are drawn as empty boxes (.ci/run and the Dockerfile
    install DejaVu Sans and IPA Gothic)."""
    listed = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, check=True).stdout
    assert listed.strip(), "no Japanese font: install fonts-ipafont-gothic"
    assert "DejaVu Sans" in subprocess.run(["fc-list"], capture_output=True, text=True, check=True).stdout
