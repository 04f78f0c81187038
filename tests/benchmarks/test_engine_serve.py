"""benchmarks/harness/engine_serve.py: ``engine serve`` as a subprocess answers moves and reports its round trip."""

from __future__ import annotations

import pytest

from benchmarks.harness.engine_serve import EngineServe


def test_the_engine_answers_a_move_and_refusals_raise() -> None:
    with EngineServe() as engine:
        answer, round_trip_ms = engine.ask({"variant": "ultimate", "moves": [41, 33], "budget_ms": 50, "level": 8})
        assert answer["move"] in (7, 8, 9, 16, 17, 18, 25, 26, 27) and answer["value"] is None
        assert round_trip_ms >= answer["elapsed_ms"] >= 45.0  # level 8 spends its budget, less the margin
        with pytest.raises(RuntimeError, match="refused"):
            engine.ask({"variant": "3x3", "moves": [5, 5]})
        assert engine.ask({"variant": "3x3", "moves": [1, 4, 2, 5]})[0]["move"] == 3  # it keeps serving
