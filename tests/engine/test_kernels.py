"""engine.kernels reports each game's search kernel as the game says it (:meth:`engine.Variant.kernel`): Connect
Four's follows its solver's (C when built)."""

from __future__ import annotations

import pytest

from engine import VARIANTS, Variant, variant
from engine.connect_four import solver as connect_four_solver
from engine.kernels import search_kernels
from engine.mnk import solver as mnk_solver
from engine.ultimate import tree as ultimate_tree


def test_every_game_reports_its_kernel_connect_four_s_its_solver_s() -> None:
    kernels = search_kernels()
    assert kernels["connect-four"] == ("C" if connect_four_solver.NATIVE else "Python")
    assert kernels["5x5"] == ("C" if mnk_solver.NATIVE else "Python") and kernels["3x3"] == "Python"


def test_a_game_reports_its_kernel_itself_python_unless_it_says_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Variant.kernel(variant("3x3")) == "Python"
    monkeypatch.setattr(ultimate_tree, "NATIVE", False)
    monkeypatch.setattr(mnk_solver, "NATIVE", True)
    kernels = search_kernels()
    assert list(kernels) == list(VARIANTS)
    assert kernels["ultimate"] == "Python" and kernels["4x4"] == kernels["5x5"] == "C"
    assert kernels == {name: game.kernel() for name, game in VARIANTS.items()}
