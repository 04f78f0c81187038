"""Gomoku (15 x 15, five or more in a row): the rules (:mod:`engine.gomoku.rules`), the search board with its
pattern evaluation and threat search (:mod:`engine.gomoku.board`, C in ``_gomoku_c.c`` where built), the alpha-beta
search (:mod:`engine.gomoku.search`) and how each level plays (:mod:`engine.gomoku.play`). Not yet a game of the bot."""
