"""Progress of the long lab runs: ``on_progress(done, total)`` counts up to the total, in
this process, while the work goes on (also when worker processes play the deals)."""

from __future__ import annotations

import time

import pytest

from eights.bots import make_bot
from eights.lab.simulate import simulate
from eights.lab.tournament import tournament


class Calls:
    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []
        self.at: list[float] = []

    def __call__(self, done: int, total: int) -> None:
        self.seen.append((done, total))
        self.at.append(time.monotonic())


@pytest.mark.parametrize(("unit", "count"), [("games", 4), ("rounds", 5)])
def test_simulate_reports_each_match_or_round(unit: str, count: int) -> None:
    calls = Calls()
    games, rounds = (count, None) if unit == "games" else (None, count)
    result = simulate("huit-fou", 3, games=games, rounds=rounds, seed=2, on_progress=calls)
    assert calls.seen == [(k, count) for k in range(1, count + 1)]
    assert (result.matches if unit == "games" else result.rounds) == count


def test_simulate_with_a_bot_reports_too() -> None:
    calls = Calls()
    simulate("classic", 2, rounds=2, seed=1, bots=[make_bot("greedy"), make_bot("random")],
             on_progress=calls)
    assert calls.seen == [(1, 2), (2, 2)]


def test_tournament_in_one_process_reports_each_round() -> None:
    calls = Calls()
    result = tournament("classic", 3, ["greedy", "random"], 2, seed=1, on_progress=calls)
    assert len(result.outcomes) == 6  # 2 deals x 3 seatings
    assert calls.seen == [(k, 6) for k in range(1, 7)]


def test_tournament_in_workers_reports_as_the_rounds_come_back() -> None:
    """One deal of three seatings over two workers: three units of one round; the third
    starts only when a worker is free, so its report comes a round after the first."""
    calls = Calls()
    one = tournament("classic", 3, ["ismcts:iterations=40", "expert"], 1, seed=3)
    result = tournament("classic", 3, ["ismcts:iterations=40", "expert"], 1, seed=3, jobs=2,
                        on_progress=calls)
    assert calls.seen == [(1, 3), (2, 3), (3, 3)]
    assert calls.at[-1] > calls.at[0]
    assert calls.at[-1] - calls.at[0] > 0.2 * (one.seconds / 3)  # not all at the end at once
    assert result.outcomes == one.outcomes  # the split changes nothing
