"""Puzzles on Discord: choosing one near a player's rating or the server's daily one (:mod:`bot.puzzles.play`),
judging moves and rating attempts, drawing the puzzle's message (:mod:`bot.puzzles.view`)."""
