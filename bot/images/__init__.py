"""Pictures of boards too large for buttons, drawn with Pillow (no ``discord`` here)."""

from bot.images.ultimate import UltimatePicture, draw_ultimate

__all__ = ["UltimatePicture", "draw_ultimate"]
