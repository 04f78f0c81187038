"""engine.levels: the committed ladder, and how each level plays (level 8 never loses where the game is solved)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import EngineMove, Variant, levels, registry
from engine.errors import GameOverError, UnknownVariantError
from engine.levels import LEVELS, SPECS, TOP, calibrated, choose_move, ladder, table
from engine.minimax.search import search
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_4X4
from engine.protocol import Mark
from engine.registry import VARIANTS, variant
from engine.tictactoe.rules import State, actions, initial_state, player, result, terminal, winner


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_ladder_has_eight_levels_whose_ratings_increase(name: str) -> None:
    levels = ladder(name)
    assert [level.level for level in levels] == list(LEVELS)
    ratings = [level.rating for level in levels]
    assert ratings == sorted(ratings) and len(set(ratings)) == 8
    for level in levels:
        assert level.low <= level.rating <= level.high
        assert level.games > 0
        assert level.search == SPECS[name][level.level - 1].search


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_table_was_made_with_the_levels_as_defined_and_says_how(name: str) -> None:
    stored = table()["variants"][name]
    assert [row["search"] for row in stored["levels"]] == [spec.search for spec in SPECS[name]]
    assert stored["anchor"] == {"player": "mcts-1000", "rating": 1500.0}
    assert any(ref["player"] == "mcts-1000" and ref["rating"] == 1500 for ref in stored["references"])
    assert table()["commands"]


def test_an_unknown_variant_or_level_is_refused() -> None:
    with pytest.raises(UnknownVariantError):
        ladder("9x9")
    for level in (0, 9, True, "3"):
        with pytest.raises(ValueError, match="level"):
            choose_move("3x3", initial_state(), level)  # type: ignore[arg-type]
    with pytest.raises(GameOverError):
        choose_move("3x3", State(0b111, 0b11000), 3)


def _walk(state: State, ai: Mark, seen: set[State], endings: dict[str, int]) -> None:
    """Every game level 8 plays as ``ai`` (four seeds at each of its positions) against every reply."""
    if terminal(state):
        won = winner(state)
        endings["draw" if won is None else "win" if won is ai else "loss"] += 1
        return
    if state in seen:
        return
    seen.add(state)
    if player(state) is ai:
        moves = {choose_move("3x3", state, TOP, rng=random.Random(seed)).cell for seed in range(4)}
    else:
        moves = set(actions(state))
    for cell in moves:
        _walk(result(state, cell), ai, seen, endings)


def test_level_8_plays_a_perfect_move_in_every_3x3_position(non_terminal: list[State]) -> None:
    for state in non_terminal:
        assert choose_move("3x3", state, TOP, rng=random.Random(0)).cell in search(state).best_moves, state


def test_level_8_presses_among_equally_good_moves() -> None:
    # every first move on 4x4 draws; level 8 takes a corner or a central cell (on three lines), never an edge (two)
    empty = TIC_TAC_TOE_4X4.initial_state()
    assert set(mnk_play.choose_move(TIC_TAC_TOE_4X4, empty).best_moves) == set(range(16))
    played = {choose_move("4x4", empty, TOP, rng=random.Random(seed)).cell for seed in range(6)}
    assert played <= {0, 3, 5, 6, 9, 10, 12, 15}


@pytest.mark.parametrize("ai", [Mark.X, Mark.O])
def test_level_8_never_loses_on_3x3_against_any_reply(ai: Mark) -> None:
    endings = {"win": 0, "draw": 0, "loss": 0}
    _walk(initial_state(), ai, set(), endings)
    assert endings["loss"] == 0
    assert endings["win"] > 0 and endings["draw"] > 0


def play(name: str, x: int, o: int, seed: int) -> Any:
    """One game between levels ``x`` and ``o``; returns the winner (``Mark``), ``"draw"``."""
    game = variant(name)
    state = game.game.initial_state()
    rng = random.Random(seed)
    while not game.game.terminal(state):
        level = x if game.game.player(state) is Mark.X else o
        state = game.game.result(state, choose_move(name, state, level, rng=rng).cell)
    return game.winner(state)


@pytest.mark.parametrize("name", ["3x3", "4x4", "5x5"])
def test_level_8_never_loses_and_level_1_loses_real_games(name: str) -> None:
    results = []
    for level in (1, 3, 5, 7):
        for seed in range(3):
            results.append((play(name, TOP, level, seed), Mark.X))
            results.append((play(name, level, TOP, seed), Mark.O))
    assert all(won in (top, "draw") for won, top in results)
    level_1 = [play(name, 1, TOP, seed) for seed in range(10, 16)] + [play(name, TOP, 1, seed) for seed in range(16)]
    assert any(isinstance(won, Mark) for won in level_1)  # level 8 wins some: level 1 makes mistakes


@pytest.mark.parametrize("name", list(VARIANTS))
def test_moves_are_deterministic_given_a_seed(name: str) -> None:
    game = variant(name)
    state = game.game.initial_state()
    for cell in game.game.actions(state)[:1]:
        state = game.game.result(state, cell)
    for level in (1, 4, 7):
        first = [choose_move(name, state, level, rng=random.Random(seed)).cell for seed in range(3)]
        second = [choose_move(name, state, level, rng=random.Random(seed)).cell for seed in range(3)]
        assert first == second


def test_ultimate_levels_search_their_budget_of_iterations() -> None:
    state = variant("ultimate").game.initial_state()
    moves = [choose_move("ultimate", state, level, rng=random.Random(0)) for level in (1, 3, 5)]
    counts = [move.states for move in moves]
    assert counts[0] < counts[1] < counts[2]
    assert all(move.expected is not None for move in moves)


def test_ultimate_level_8_searches_for_its_whole_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    state = variant("ultimate").game.play([40, 30])
    assert SPECS["ultimate"][TOP - 1].iterations is None and SPECS["ultimate"][TOP - 2].iterations is not None
    for budget_ms in (150.0, 3_000.0):  # 3 s is more than the 60,000 iterations of level 7 take here
        move = choose_move("ultimate", state, TOP, rng=random.Random(0), budget_ms=budget_ms)
        assert move.value is None and move.expected is not None  # not proved: the whole budget, less the margin
        assert move.elapsed_ms >= budget_ms - min(10.0, budget_ms / 20.0)
    monkeypatch.setattr(levels, "TOP_BUDGET_MS", 200.0)  # the budget when the caller gives none
    assert choose_move("ultimate", state, TOP, rng=random.Random(0)).elapsed_ms >= 190.0


def test_a_weak_level_plays_an_imperfect_move_a_perfect_one_would_not() -> None:
    # X: a1 b2, O: b1 c3; X forks on a2 or a3 (a win). Level 1 (one ply ahead, noisy) often does something else.
    state = State(0b000010001, 0b100000010)
    assert {choose_move("3x3", state, TOP, rng=random.Random(s)).cell for s in range(8)} <= {3, 6}
    assert {choose_move("3x3", state, 1, rng=random.Random(s)).cell for s in range(20)} - {3, 6}


def _solver_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The states of every exact search level 8 runs on 4x4 and 5x5, read off the solver's kernel around each call
    (the instrument: the solver's root search, wrapped)."""
    searched: list[int] = []
    original = mnk_play.root_scores

    def counted(kernel: Any, *args: Any, **kwargs: Any) -> Any:
        before = kernel.count
        scores = original(kernel, *args, **kwargs)
        searched.append(kernel.count - before)
        return scores

    monkeypatch.setattr(mnk_play, "root_scores", counted)
    return searched


def test_level_8_counts_what_it_searched_on_4x4_and_5x5(monkeypatch: pytest.MonkeyPatch) -> None:
    searched = _solver_calls(monkeypatch)
    rng = random.Random(1)
    book = choose_move("5x5", variant("5x5").replay([12]), TOP, rng=rng)  # in the opening book: nothing searched
    assert (book.source, book.states, searched) == ("book", 0, [])
    assert book.book_states is not None and book.book_states > 0  # the offline proof's count, named apart
    win = choose_move("4x4", TIC_TAC_TOE_4X4.play([0, 4, 1, 5, 2, 6]), TOP, rng=rng)  # X wins at once on 4
    assert (win.cell, win.states, searched) == (3, 0, [])  # a win in one, played before any search
    position = TIC_TAC_TOE_4X4.play([5, 0, 10, 15, 6])
    fresh = choose_move("4x4", position, TOP, rng=rng)
    assert fresh.source == "search" and len(searched) == 1 and fresh.states >= searched[0] > 0


class _FirstCell(Variant):
    """A game written elsewhere that declares no levels: 3x3's rules, every level the first empty cell."""

    name, title, description, code, width, height = "first-cell", "first cell", "first cell", "fc", 3, 3
    game: Any = variant("3x3").game

    def __init__(self) -> None:
        self.asked: list[tuple[int, float | None]] = []

    def mark(self, state: State, cell: int) -> Mark | None:
        return state[cell]

    def play(self, state: State, level: int = TOP, **kwargs: Any) -> EngineMove:
        self.asked.append((level, kwargs.get("budget_ms")))
        return EngineMove(actions(state)[0], 0, None, 0.0, mark=player(state))


def test_a_game_without_levels_of_its_own_plays_each_level_with_play_and_is_not_rated_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    outside = _FirstCell()
    monkeypatch.setitem(registry._REGISTRY, outside.name, outside)
    assert choose_move(outside.name, initial_state(), 3, budget_ms=50.0).cell == 0
    assert outside.asked == [(3, 50.0)]
    assert outside.name not in SPECS and outside.name not in calibrated() and len(SPECS) == len(calibrated())
    assert list(SPECS) == [name for name in VARIANTS if name != outside.name] == list(calibrated())
    with pytest.raises(KeyError):
        SPECS[outside.name]
    with pytest.raises(ValueError, match="level"):
        choose_move(outside.name, initial_state(), 9)
    assert outside.asked == [(3, 50.0)]  # refused before the game is asked


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_game_declares_its_levels_and_its_play_is_its_level_s_move(name: str) -> None:
    game = variant(name)
    assert SPECS[name] == game.level_specs() and len(game.level_specs()) == len(LEVELS)
    state = game.replay(game.game.actions(game.game.initial_state())[:1])
    played = game.play(state, 2, rng=random.Random(5))
    assert played.cell == choose_move(name, state, 2, rng=random.Random(5)).cell
