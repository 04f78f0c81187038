"""Pictures of boards too large for buttons, drawn with Pillow (no ``discord`` here): any grid
(:mod:`bot.images.grid`) and ultimate's board of small boards (:mod:`bot.images.ultimate`)."""

from bot.images.grid import GridPicture, draw_grid
from bot.images.ultimate import UltimatePicture, draw_ultimate

__all__ = ["GridPicture", "UltimatePicture", "draw_grid", "draw_picture", "draw_ultimate"]


def draw_picture(shows: GridPicture | UltimatePicture) -> bytes:
    """``shows`` as PNG bytes: each kind of picture draws itself (:meth:`GridPicture.draw`,
    :meth:`UltimatePicture.draw`).

    Raises:
        ValueError: as :func:`draw_grid` or :func:`draw_ultimate`.
    """
    return shows.draw()
