"""What the tests and the benchmarks share: the fake Discord, the floor and minimal bots, the players' helpers."""
