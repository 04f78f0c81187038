"""The search behind a move as a tree: :func:`engine.tree.record.record` replays the 3x3 search and keeps every state
it evaluates (:class:`engine.tree.node.Node`, JSON in ``docs/engine.md``); :mod:`engine.tree.draw` draws it with
Graphviz and Pillow, and is imported only when a picture is asked for, so the rest stays standard library only."""
