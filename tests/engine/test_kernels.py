"""engine.kernels reports each game's search kernel: Connect Four's follows its solver's (C when built)."""

from __future__ import annotations

from engine.connect_four import solver as connect_four_solver
from engine.kernels import search_kernels
from engine.mnk import solver as mnk_solver


def test_every_game_reports_its_kernel_connect_four_s_its_solver_s() -> None:
    kernels = search_kernels()
    assert kernels["connect-four"] == ("C" if connect_four_solver.NATIVE else "Python")
    assert kernels["5x5"] == ("C" if mnk_solver.NATIVE else "Python") and kernels["3x3"] == "Python"
