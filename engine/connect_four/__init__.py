"""Connect Four (7x6, four in a row, gravity): the rules (:mod:`engine.connect_four.rules`) and the same game as cells
for the bot (:mod:`engine.connect_four.cells`), the exact solver with its kernels (:mod:`engine.connect_four.solver`,
C in ``_connect_four_c.c``), the opening book (:mod:`engine.connect_four.book`), and how each level plays
(:mod:`engine.connect_four.play`, :mod:`engine.connect_four.horizon`), its puzzles (:mod:`engine.connect_four.proof`,
:mod:`engine.connect_four.puzzles`). The variant the bot plays is
:class:`engine.games.connect_four.ConnectFourVariant`."""
