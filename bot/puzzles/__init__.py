"""Puzzles, beside the game service and without Discord: the puzzle service (:mod:`bot.puzzles.service`) with its
messages, choosing a puzzle near a player's rating or the server's daily one and judging moves
(:mod:`bot.puzzles.play`), and the miner of new puzzles from the records (:mod:`bot.puzzles.mine`). The puzzle's
message is drawn in the Discord layer (:mod:`bot.ui.puzzles`)."""
