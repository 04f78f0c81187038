"""Resuming games after a restart: the service knows no games then, so it checks every board pressed against what
it stored (:mod:`~bot.games.resuming.evidence`) or what the board proves by itself
(:mod:`~bot.games.resuming.proof`), takes over the running games a previous process stored
(:mod:`~bot.games.resuming.recovery`), and finds the game each intent acts on (:mod:`~bot.games.resuming.boards`).
"""
