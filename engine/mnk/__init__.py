"""m,n,k games (4x4 and 5x5, four in a row): the rules (:mod:`engine.mnk.rules`), the exact solver and its kernels
(:mod:`engine.mnk.solver`), the opening books (:mod:`engine.mnk.book`, built by :mod:`engine.mnk.book_build`), the
depth-limited search of the lower levels (:mod:`engine.mnk.horizon`) the moves the bot plays
(:mod:`engine.mnk.play`) and its puzzles (:mod:`engine.mnk.proof`, :mod:`engine.mnk.puzzles`)."""
