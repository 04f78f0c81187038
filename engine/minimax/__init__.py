"""Minimax and alpha-beta search on the 3x3 game, with a count of the states each evaluates
(:mod:`engine.minimax.search`, its options in :mod:`engine.minimax.config`, its value functions in
:mod:`engine.minimax.kernels`), and the textbook searches over any game of :mod:`engine.protocol` that the tests
check them against (:mod:`engine.minimax.reference`)."""
