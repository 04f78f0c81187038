"""Fixtures of the text tests: a game registered from outside the engine, as ``TTT_GAMES`` registers one."""

from __future__ import annotations

import pytest

from engine import Variant, registry
from tests.e2e.outside_game import THREE_BY_FOUR


@pytest.fixture
def outside_game(monkeypatch: pytest.MonkeyPatch) -> Variant:
    """:data:`tests.e2e.outside_game.THREE_BY_FOUR` registered for the test (and taken out of the registry after it):
    nothing under bot/ knows it."""
    monkeypatch.setitem(registry._REGISTRY, THREE_BY_FOUR.name, THREE_BY_FOUR)
    assert registry.variant(THREE_BY_FOUR.name) is THREE_BY_FOUR
    return THREE_BY_FOUR
