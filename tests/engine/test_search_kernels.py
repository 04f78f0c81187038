"""engine.search_kernels: a search leaves nothing for the cycle collector (the bot's loop pays for every full
collection, so each 3x3 search must be freed by reference counting alone)."""

from __future__ import annotations

import gc

import pytest

from engine.game import parse_board
from engine.search import ALGORITHM_CONFIGS, search


@pytest.mark.parametrize("algorithm", sorted(ALGORITHM_CONFIGS))
@pytest.mark.usefixtures("collector_off")
def test_a_search_leaves_no_cycle(algorithm: str) -> None:
    for board in ("X........", "XO..X....", "XO.OX...."):
        search(parse_board(board), config=ALGORITHM_CONFIGS[algorithm])  # type: ignore[index]
    assert gc.collect() == 0
