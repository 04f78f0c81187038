"""The command line behind ``python -m engine``: the parser and the ``analyse`` and ``levels`` commands
(:mod:`engine.cli.commands`), ``review`` (:mod:`engine.cli.review`), ``puzzles`` (:mod:`engine.cli.puzzles`), the
JSON-lines ``serve`` and ``bestmove`` (:mod:`engine.cli.serve`) and ``tree`` (:mod:`engine.cli.tree`)."""
