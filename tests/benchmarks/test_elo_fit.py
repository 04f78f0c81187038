"""benchmarks/elo_fit.py: maximum-likelihood Elo ratings recover known differences and their uncertainty."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks import elo_fit


def test_two_players_differ_by_the_elo_formula_with_the_binomial_interval() -> None:
    result = elo_fit.fit([elo_fit.Pairing("a", "b", 100, 76.0)], "b", 1500.0)
    assert result.ratings["b"] == 1500.0
    assert result.ratings["a"] == pytest.approx(1500.0 + 400.0 * math.log10(76 / 24), abs=1e-6)
    low, high = result.intervals["a"]
    half = 1.96 * 400.0 / math.log(10.0) / math.sqrt(100 * 0.76 * 0.24)
    assert (low, high) == pytest.approx((result.ratings["a"] - half, result.ratings["a"] + half), abs=1e-6)
    assert result.games == {"a": 100, "b": 100}


def test_simulated_games_recover_the_true_ratings_within_their_intervals() -> None:
    truth = {"weak": 1100.0, "anchor": 1500.0, "strong": 1750.0, "best": 1900.0}
    rng = random.Random(7)
    pairings = []
    names = list(truth)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            expected = 1.0 / (1.0 + 10.0 ** ((truth[b] - truth[a]) / 400.0))
            score = sum(rng.random() < expected for _ in range(400))
            pairings.append(elo_fit.Pairing(a, b, 400, float(score)))
    result = elo_fit.fit(pairings, "anchor", 1500.0)
    for name, rating in truth.items():
        low, high = result.intervals[name]
        assert low <= rating <= high, name
    assert result.ratings["weak"] < result.ratings["anchor"] < result.ratings["strong"] < result.ratings["best"]


def test_a_player_who_won_every_game_needs_the_prior() -> None:
    pairings = [elo_fit.Pairing("a", "b", 10, 10.0), elo_fit.Pairing("b", "c", 10, 5.0)]
    with pytest.raises(ValueError, match="unbounded"):
        elo_fit.fit(pairings, "b")
    result = elo_fit.fit(pairings, "b", prior_draws=1.0)
    assert result.ratings["a"] == pytest.approx(1500.0 + 400.0 * math.log10(10.5 / 0.5), abs=1e-6)
    assert result.ratings["c"] == pytest.approx(1500.0, abs=1e-6)
    assert result.games["a"] == 10  # virtual draws are not games


def test_an_anchor_without_games_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        elo_fit.fit([elo_fit.Pairing("a", "b", 4, 2.0)], "c")
