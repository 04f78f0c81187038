"""Connect Four (7x6, four in a row, gravity): the rules (:mod:`engine.connect_four.rules`) and the exact solver with
its kernels (:mod:`engine.connect_four.solver`, C in ``_connect_four_c.c``). Not yet a variant the bot plays."""
