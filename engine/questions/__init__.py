"""The questions a game answers, by subject: :class:`engine.Variant` is their sum (board, then the bot's moves, then the
analysis), each part in a module of its own with its defaults."""

__all__ = ["N_"]


def N_(message: str) -> str:
    """Mark ``message`` as a translatable message id (the bot's catalogs translate it)."""
    return message
