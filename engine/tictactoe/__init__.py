"""The 3x3 game: its rules (:mod:`engine.tictactoe.rules`), the 9-bit mask tables they and the searches share
(:mod:`engine.tictactoe.bitboard`) and its memoised exact solver (:mod:`engine.tictactoe.solver`)."""
