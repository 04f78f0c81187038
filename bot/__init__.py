"""The tic-tac-toe Discord bot: slash commands, buttons and an offline console over :mod:`engine`."""
