"""engine.tree.step: the search walked state by state; its events replay to the same tree, values and count."""

from __future__ import annotations

import json

import pytest

from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5
from engine.tree.mnk import record_mnk
from engine.tree.node import SearchTree
from engine.tree.record import record
from engine.tree.step import Cursor, replay, steps, walk
from tests.engine.tree.test_mnk import positions
from tests.engine.tree.test_record import random_games


def trees() -> list[SearchTree]:
    found = [record(cells) for cells in random_games(60, 50, "alpha-beta")]
    found += [record(cells, "minimax") for cells in random_games(10, 51, "minimax") if len(cells) >= 4]
    for game in (TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5):
        found += [record_mnk(game, cells) for cells, _ in positions(game, 8, 52)]
    return found


def test_the_events_are_one_per_state_and_replay_to_the_same_tree() -> None:
    for tree in trees():
        events = [json.loads(json.dumps(step.as_json())) for step in steps(tree)]
        assert len(events) == tree.states and [e["count"] for e in events] == list(range(1, tree.states + 1))
        rebuilt = replay(events, tree.root)
        assert rebuilt.as_json() == tree.root.as_json() and rebuilt.size() == tree.states
        assert rebuilt == tree.root  # values, windows, bounds, cuts and their skipped moves


def test_the_walk_enters_every_state_once_and_says_every_cut_and_the_value() -> None:
    for tree in trees()[:40]:
        walked = list(walk(tree))
        entered = [step for step, _ in walked if step is not None]
        assert [s.count for s in entered] == list(range(1, tree.states + 1))
        text = "\n".join(line for _, lines in walked for line in lines)
        cuts = [node for node in tree.root.walk() if node.kind == "cut"]
        assert text.count("✂ not searched: ") == len(cuts)
        assert text.count("\N{GREEK SMALL LETTER ALPHA} = ") + text.count("β = ") == len(cuts)  # each with its reason
        total = f"{tree.states:,} states" if tree.states != 1 else "1 state"
        assert walked[-1][0] is None and walked[-1][1][-1].endswith(total)


def test_a_broken_stream_of_events_is_refused() -> None:
    tree = record([4])
    events = [step.as_json() for step in steps(tree)]
    with pytest.raises(ValueError, match="never entered"):
        replay(events[1:], tree.root)
    with pytest.raises(ValueError, match="children"):
        replay(events[:-1], tree.root)


def test_the_cursor_moves_as_a_steppers_buttons_do() -> None:
    tree = record([3, 0, 6])  # seed 000's second position: O to move
    cursor = Cursor(tuple(steps(tree)))
    last = len(cursor.steps) - 1
    assert cursor.next(0) == 1 and cursor.next(last) == last and cursor.back(0) == 0 and cursor.back(5) == 4
    for i, step in enumerate(cursor.steps):
        into, out = cursor.into(i), cursor.out(i)
        if step.node.children:
            assert cursor.steps[into].path[:-1] == step.path and into == i + 1
        else:
            assert into == i
        assert out is None if len(step.path) == 1 else cursor.steps[out].path == step.path[:-1]
        cut = cursor.cut(i)
        later = [j for j in range(i + 1, last + 1) if cursor.steps[j].node.kind == "cut"]
        assert cut == (later[0] if later else i)
    assert [cursor.steps[i].node.kind for i in (cursor.cut(0),)] == ["cut"]
    with pytest.raises(IndexError):
        cursor.next(last + 1)
