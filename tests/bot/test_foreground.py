"""The foreground: background work waits while an interaction awaits its answer, goes one step per loop iteration
once none does, and never waits longer than its bound or for an interaction that will never be answered."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.foreground import Foreground


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def spin(iterations: int = 10) -> None:
    for _ in range(iterations):
        await asyncio.sleep(0)


async def test_nothing_waits_without_a_foreground() -> None:
    foreground = Foreground()
    step = asyncio.create_task(foreground.give_way())
    await asyncio.sleep(0)
    assert step.done()


async def test_a_step_waits_until_the_interaction_is_answered() -> None:
    foreground = Foreground(max_wait=30)
    foreground.enter(1)
    foreground.enter(2)
    step = asyncio.create_task(foreground.give_way())
    await spin()
    assert not step.done() and foreground.waiting == 1
    foreground.leave(1)
    await spin()
    assert not step.done()  # interaction 2 is still waiting for its answer
    foreground.leave(2)
    await spin()
    assert step.done() and foreground.pending == 0


async def waiting_steps(count: int) -> tuple[Foreground, list[int], list[asyncio.Task[None]]]:
    """A foreground with interaction 1 in it and ``count`` background steps waiting; each step appends its number
    to the list when it goes."""
    foreground = Foreground(max_wait=30)
    foreground.enter(1)
    went: list[int] = []

    async def background(number: int) -> None:
        await foreground.give_way()
        went.append(number)

    steps = [asyncio.create_task(background(number)) for number in range(count)]
    await spin()
    return foreground, went, steps


async def test_waiting_steps_go_one_per_loop_iteration_in_order() -> None:
    foreground, went, steps = await waiting_steps(4)
    foreground.leave(1)
    seen = [len(went)]
    while len(went) < 4:
        await asyncio.sleep(0)
        seen.append(len(went))
        assert len(seen) < 100
    assert went == [0, 1, 2, 3]
    assert all(later - earlier <= 1 for earlier, later in itertools.pairwise(seen))
    await asyncio.gather(*steps)


async def test_an_interaction_arriving_meanwhile_holds_the_steps_left() -> None:
    foreground, went, steps = await waiting_steps(3)
    foreground.leave(1)
    while not went:
        await asyncio.sleep(0)
    foreground.enter(2)
    await spin()
    assert went == [0]
    foreground.leave(2)
    await asyncio.gather(*steps)
    assert went == [0, 1, 2]


async def test_a_step_waits_at_most_max_wait() -> None:
    foreground = Foreground(max_wait=0.05)
    foreground.enter(1)  # never answered
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.wait_for(foreground.give_way(), 5)
    assert 0.04 <= loop.time() - started < 5
    assert foreground.waiting == 0


async def test_steps_that_timed_out_under_constant_presses_are_not_kept() -> None:
    foreground = Foreground(max_wait=0.001)
    foreground.enter(1)  # presses never stop arriving
    for _ in range(50):
        await foreground.give_way()
    assert not foreground._waiters  # nothing piles up however long the foreground stays busy


async def test_an_interaction_past_discords_deadline_no_longer_counts() -> None:
    clock = Clock()
    foreground = Foreground(max_wait=30, stale_after=3.0, clock=clock)
    foreground.enter(1)
    clock.now += 2.9
    step = asyncio.create_task(foreground.give_way())
    await spin()
    assert not step.done()
    step.cancel()
    clock.now += 0.2
    await asyncio.wait_for(foreground.give_way(), 5)
    assert foreground.pending == 0


async def test_a_cancelled_step_does_not_hold_the_next() -> None:
    foreground = Foreground(max_wait=30)
    foreground.enter(1)
    first = asyncio.create_task(foreground.give_way())
    second = asyncio.create_task(foreground.give_way())
    await spin()
    first.cancel()
    foreground.leave(1)
    await asyncio.wait_for(second, 5)
    assert first.cancelled()


def test_answers_of_unknown_interactions_are_ignored() -> None:
    foreground = Foreground()
    foreground.leave(5)
    assert foreground.pending == 0


@pytest.mark.parametrize(("max_wait", "stale_after"), [(0, 3.0), (0.1, 0), (-1, 3.0)])
def test_bounds_must_be_positive(max_wait: float, stale_after: float) -> None:
    with pytest.raises(ValueError, match="positive"):
        Foreground(max_wait=max_wait, stale_after=stale_after)
