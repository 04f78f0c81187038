"""The puzzles (engine.puzzles): the shipped sets, the provers against an independent plain oracle, mining, CLI."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest

from engine import registry
from engine.cli.commands import main
from engine.errors import UnknownVariantError
from engine.games.mnk import FOUR_BY_FOUR_LEVELS, MnkVariant
from engine.mnk.proof import MnkProver
from engine.mnk.rules import TIC_TAC_TOE_4X4
from engine.protocol import PuzzleLine
from engine.puzzles import PUZZLE_SETS, PUZZLE_VARIANTS, as_json, from_json, load, puzzle_variant
from engine.puzzles.build import build
from engine.puzzles.mining import Miner, mine, self_play
from engine.registry import VARIANTS, variant
from engine.ultimate.proof import UltimateProver, position_of
from engine.ultimate.rules import BIT_OF_CELL, CELL_OF_BIT, UltimateTicTacToe

from .puzzle_oracle import PlainOracle

SYMMETRY = (2, 5, 8, 1, 4, 7, 0, 3, 6)  # a quarter turn of a 3x3 board: cell -> its image


@pytest.mark.parametrize("name", PUZZLE_SETS)
def test_shipped_set_is_large_varied_and_well_formed(name: str) -> None:
    puzzles = load(name)
    assert len(puzzles) >= 500
    assert len({p.id for p in puzzles}) == len(puzzles)
    miner = Miner(name)
    assert len({miner.key(p.moves) for p in puzzles}) == len(puzzles), "two puzzles are the same position"
    assert {p.win_in for p in puzzles} >= {1, 2, 3}
    assert all(1 <= p.win_in <= 5 and len(p.replies) == p.win_in - 1 and 400 <= p.rating <= 2600 for p in puzzles)
    assert any("double_threat" in p.themes for p in puzzles)
    assert [from_json(name, as_json(p)) for p in puzzles[:20]] == list(puzzles[:20])


@pytest.mark.parametrize("name", PUZZLE_SETS)
def test_a_sample_of_the_shipped_set_holds_under_the_plain_oracle(name: str) -> None:
    rng = random.Random(31)
    sample = rng.sample([p for p in load(name) if p.win_in <= 3], 12)
    oracle = PlainOracle(puzzle_variant(name).game)
    for puzzle in sample:
        oracle.memo.clear()
        oracle.check(puzzle.moves, puzzle.solution, puzzle.replies)


def test_the_offered_sets_are_those_of_the_registered_games() -> None:
    assert tuple(name for name in PUZZLE_SETS if name in VARIANTS) == PUZZLE_VARIANTS  # registered before the import
    assert {"4x4", "5x5", "ultimate"} <= set(PUZZLE_VARIANTS)
    assert all(puzzle_variant(name) is VARIANTS[name] for name in PUZZLE_VARIANTS)
    assert all(puzzle_variant(name).name == name for name in PUZZLE_SETS)
    with pytest.raises(UnknownVariantError):
        puzzle_variant("3x3")  # a registered game without a set


def test_the_oracle_rejects_a_wrong_solution() -> None:
    puzzle = next(p for p in load("4x4") if p.win_in == 2)
    wrong = next(c for c in variant("4x4").game.actions(variant("4x4").replay(puzzle.moves)) if c != puzzle.solution[0])
    with pytest.raises(AssertionError):
        PlainOracle(TIC_TAC_TOE_4X4).check(puzzle.moves, (wrong, puzzle.solution[1]), puzzle.replies)


def _late_positions(name: str, count: int, seed: int) -> list[list[int]]:
    """Positions a few plies before the end of random games, where short wins abound."""
    rng = random.Random(seed)
    game = variant(name).game
    out = []
    while len(out) < count:
        state, moves = game.initial_state(), []
        while not game.terminal(state):
            moves.append(rng.choice(game.actions(state)))
            state = game.result(state, moves[-1])
        out.append(moves[: max(0, len(moves) - rng.randint(1, 7))])
    return out


def test_ultimate_prover_finds_exactly_the_oracle_winning_moves() -> None:
    game = UltimateTicTacToe()
    prover, oracle = UltimateProver(), PlainOracle(game)
    wins = 0
    for moves in _late_positions("ultimate", 40, 5):
        pos = position_of(moves)
        if pos is None:
            continue
        state = game.play(moves)
        for k in (1, 2, 3):
            expected = [m for m in game.actions(state) if oracle.move_wins(state, m, k)]
            assert [CELL_OF_BIT[b] for b in prover.winning(pos, k)] == expected, (moves, k)
            wins += bool(expected)
    assert wins >= 10


def test_mnk_prover_finds_exactly_the_oracle_winning_moves() -> None:
    prover, oracle = MnkProver(TIC_TAC_TOE_4X4), PlainOracle(TIC_TAC_TOE_4X4)
    wins = 0
    for moves in _late_positions("4x4", 40, 6):
        state = TIC_TAC_TOE_4X4.play(moves)
        if TIC_TAC_TOE_4X4.terminal(state):
            continue
        me, opp = (state.x, state.o) if len(moves) % 2 == 0 else (state.o, state.x)
        for k in (1, 2, 3):
            expected = [m for m in TIC_TAC_TOE_4X4.actions(state) if oracle.move_wins(state, m, k)]
            assert prover.winning_moves(me, opp, k) == expected, (moves, k)
            wins += bool(expected)
    assert wins >= 10


def test_a_position_with_two_winning_moves_is_no_puzzle() -> None:
    # X holds a1 b1 c1 and a2 b2 c2 with d1 and d2 free: two wins at once, so no "only move".
    moves = [0, 12, 4, 13, 1, 14, 5, 10, 2, 9, 6, 11]
    assert MnkProver(TIC_TAC_TOE_4X4).prove(moves) is None


def test_ultimate_keys_are_the_same_for_a_rotated_game() -> None:
    game = next(g for g in self_play("ultimate", 3) if len(g) > 30)[:30]

    def turn(cell: int) -> int:
        board, inner = divmod(BIT_OF_CELL[cell], 9)
        return CELL_OF_BIT[9 * SYMMETRY[board] + SYMMETRY[inner]]

    miner = Miner("ultimate")
    assert miner.key(game) == miner.key([turn(c) for c in game])
    assert miner.key(game) != miner.key(game[:-1])


def test_mine_takes_records_games_skips_illegal_ones_and_keeps_one_per_class() -> None:
    games = [g for _, g in zip(range(30), self_play("4x4", 9), strict=False)]
    found = list(mine("4x4", [[0, 0, 1], *games, *games]))
    assert found and len({p.id for p in found}) == len(found)
    oracle = PlainOracle(TIC_TAC_TOE_4X4)
    for puzzle in found[:5]:
        oracle.check(puzzle.moves, puzzle.solution, puzzle.replies)


def test_cli_prints_the_set_as_json_with_one_based_cells() -> None:
    out = io.StringIO()
    assert main(["puzzles", "--variant", "ultimate", "--json"], stdout=out) == 0
    items = json.loads(out.getvalue())
    first = load("ultimate")[0]
    assert items[0]["id"] == first.id and items[0]["solution"] == [c + 1 for c in first.solution]
    assert set(items[0]) == {"id", "moves", "solution", "replies", "win_in", "rating", "themes"}
    text = io.StringIO()
    assert main(["puzzles", "--variant", "4x4"], stdout=text) == 0
    assert "to play and win in" in text.getvalue().splitlines()[0]
    assert main(["puzzles", "--variant", "3x3"], stdout=io.StringIO(), stderr=io.StringIO()) == 2


def test_a_game_registered_later_offers_puzzles_through_its_kit_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared tools know a game only by its kit (issue 46): a 4x4 under another name, registered after
    engine.puzzles was imported, is mined into the same puzzles as 4x4's, and built into a set."""
    copy = MnkVariant(
        "four-again", "four again", "4x4 again", "q", TIC_TAC_TOE_4X4, FOUR_BY_FOUR_LEVELS, 1, puzzle_plies=(5, (0, 5))
    )
    monkeypatch.setitem(registry._REGISTRY, copy.name, copy)
    assert copy.name not in PUZZLE_SETS and puzzle_variant(copy.name) is copy
    games = list(itertools.islice(self_play("4x4", 11), 12))
    assert list(itertools.islice(self_play(copy.name, 11), 12)) == games
    ours = [(p.id.removeprefix("4x4-"), p.moves, p.line, p.rating, p.themes) for p in mine("4x4", games)]
    theirs = [(p.id.removeprefix("four-again-"), p.moves, p.line, p.rating, p.themes) for p in mine(copy.name, games)]
    assert theirs == ours and len(ours) >= 3
    built = build(copy.name, 3, seed=5)
    proved = [Miner("4x4").kit.prove(p.moves) for p in built]
    assert [p.variant for p in built] == [copy.name] * 3 and proved == [
        PuzzleLine(p.solution, p.replies) for p in built
    ]
