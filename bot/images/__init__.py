"""Pictures of boards too large for buttons, drawn with Pillow (no ``discord`` here): any grid
(:mod:`bot.images.grid`) and ultimate's board of small boards (:mod:`bot.images.ultimate`)."""

from bot.images.grid import GridPicture, draw_grid
from bot.images.ultimate import UltimatePicture, draw_ultimate

__all__ = ["GridPicture", "UltimatePicture", "draw_grid", "draw_picture", "draw_ultimate"]


def draw_picture(shows: GridPicture | UltimatePicture) -> bytes:
    """``shows`` as PNG bytes, drawn by the module that draws its kind of picture.

    Raises:
        ValueError: as :func:`draw_grid` or :func:`draw_ultimate`.
    """
    return draw_ultimate(shows) if isinstance(shows, UltimatePicture) else draw_grid(shows)
