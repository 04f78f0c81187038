"""Ultimate tic-tac-toe: the rules (:mod:`engine.ultimate.rules`), MCTS-Solver (:mod:`engine.ultimate.tree`, with the
pure-Python kernel :mod:`engine.ultimate.mcts`), the moves and hints the bot plays (:mod:`engine.ultimate.play`,
scored by :mod:`engine.ultimate.scale`) and the depth-limited alpha-beta reference (:mod:`engine.ultimate.search`,
:mod:`engine.ultimate.kernel`, :mod:`engine.ultimate.evaluation`); its puzzles (:mod:`engine.ultimate.proof`,
:mod:`engine.ultimate.puzzles`)."""
