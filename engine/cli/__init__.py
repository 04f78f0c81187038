"""The command line behind ``python -m engine``: its parser (:mod:`engine.cli.parser`), ``main`` and ``analyse``
(:mod:`engine.cli.commands`), ``review`` (:mod:`engine.cli.review`), ``levels`` (:mod:`engine.cli.levels`),
``puzzles`` (:mod:`engine.cli.puzzles`), the JSON-lines ``serve`` and ``bestmove`` (:mod:`engine.cli.serve`, naming
moves as :mod:`engine.cli.numbering` reads them) and ``tree`` (:mod:`engine.cli.tree`)."""
