"""The batched tables' policy opponents, truncation and global state
(:class:`eights.fast.vector.TableBatch`; its stepping and seeding are in
``test_fast_world.py``).

A policy opponent that plays as the kernel's greedy policy does must reproduce a batch
with compiled greedy seats exactly: that proves the kernel stops at the callable's seat,
hands it that seat's observation and mask, and goes on where it stopped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eights.codes import O_FLAGS
from eights.fast import kernel as k
from eights.fast.observe import observation
from eights.fast.vector import TableBatch

Arrays = list[npt.NDArray[Any]]


class KernelGreedy:
    """A policy opponent that plays the kernel's greedy choice, reading the batch's states
    (a test's cheat: a real policy sees only ``obs`` and ``mask``), and checks what it is
    given: the observation and legal codes of the seat to play at each waiting table."""

    def __init__(self, seats: tuple[int, ...]) -> None:
        self.seats = seats
        self.tables: TableBatch | None = None
        self.calls: list[tuple[int, ...]] = []  # the seats asked, one tuple a call

    def __call__(self, obs: npt.NDArray[np.int32],
                 mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        assert self.tables is not None
        tab, states = self.tables.kt.tab, self.tables.states
        rows = [b for b in range(states.shape[0])
                if not states[b, k.S_OVER] and states[b, k.S_TO_MOVE] in self.seats]
        assert obs.dtype == np.int32 and mask.dtype == np.bool_
        assert obs.shape == (len(rows), self.tables.observation_size)
        assert mask.shape == (len(rows), self.tables.action_count)
        buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        codes = []
        for i, b in enumerate(rows):
            seat = int(states[b, k.S_TO_MOVE])
            assert obs[i].tolist() == observation(tab, states[b], seat).tolist()
            assert obs[i, O_FLAGS + 7] == 1  # the observer is to play
            count = k.legal_list(tab, states[b], buf)
            assert sorted(np.flatnonzero(mask[i]).tolist()) == sorted(buf[:count].tolist())
            codes.append(buf[0] if count == 1 else k.greedy_choice(tab, states[b], buf, count))
        self.calls.append(tuple(int(states[b, k.S_TO_MOVE]) for b in rows))
        return np.array(codes, dtype=np.int64)


def run(tables: TableBatch, steps: int, seed: int = 0) -> Arrays:
    """Every output of ``steps`` steps, the learning seat playing random legal codes (table
    ``b``'s from a generator of its own)."""
    choosers = [np.random.default_rng([seed, b]) for b in range(tables.batch)]
    obs, mask = tables.reset()
    seen: Arrays = [obs.copy(), mask.copy()]
    for _ in range(steps):
        actions = np.array([chooser.choice(np.flatnonzero(row)) if row.any() else 0
                            for chooser, row in zip(choosers, mask, strict=True)])
        obs, mask, rewards, terminated = tables.step(actions)
        seen += [obs.copy(), mask.copy(), rewards.copy(), terminated.copy(),
                 tables.truncated.copy()]
    return seen


def same(a: Arrays, b: Arrays) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("rules", "players", "seat", "compiled", "python"), [
    ("classic", 4, 0, ["greedy", "random", "greedy"], (1, 3)),
    ("crazy-eights", 2, 1, ["greedy"], (0,)),
    ("huit-americain", 3, 2, ["greedy", "greedy"], (1,)),  # reverses, skips, forced draws
    ("tschau-sepp", 3, 0, ["random", "greedy"], (2,)),  # play_on: seats go out
])
def test_a_policy_opponent_playing_greedy_plays_as_the_compiled_greedy_seat(
        rules: str, players: int, seat: int, compiled: list[str],
        python: tuple[int, ...]) -> None:
    """The kernel stops at the callable's seats, asks it with those seats' observations
    and masks, and goes on: the batch steps exactly as with compiled greedy seats (the
    random seats draw the same numbers), across many rounds."""
    others = [s for s in range(players) if s != seat]
    policy = KernelGreedy(python)
    mixed: list[Any] = [policy if s in python else name
                        for s, name in zip(others, compiled, strict=True)]
    tables = TableBatch(rules, players, 6, seat=seat, opponents=mixed, seed=3)
    policy.tables = tables
    expected = run(TableBatch(rules, players, 6, seat=seat, opponents=compiled, seed=3), 150)
    assert same(run(tables, 150), expected)
    assert sum(e.sum() for e in expected[5::5]) >= 6  # rounds ended (terminated)
    assert policy.calls and all(set(c) <= set(python) for c in policy.calls)
    if len(python) == 2:  # one callable for two seats: asked once for both
        assert any(len(set(c)) == 2 for c in policy.calls)


def first_legal(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    return np.asarray(np.argmax(mask, axis=1))


def test_policy_opponents_are_deterministic_for_a_seed_and_table_by_table() -> None:
    """Table ``i`` plays the same rounds in batches of any size with a row-wise policy
    opponent, and the same seed gives the same steps; another seed, others."""
    def tables(batch: int, seed: int) -> TableBatch:
        return TableBatch("crazy-eights", 3, batch, opponents=[first_legal, "random"],
                          seed=seed)

    small, large = run(tables(2, 7), 80), run(tables(5, 7), 80)
    assert same(small, [x[:2] for x in large])
    assert same(small, run(tables(2, 7), 80))
    assert not same(small, run(tables(2, 8), 80))


def test_a_bad_answer_from_a_policy_opponent_is_named_and_stops_the_batch() -> None:
    def illegal(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
        return np.asarray(np.argmax(~mask, axis=1))  # the first code that is not legal

    tables = TableBatch("classic", 2, 3, opponents=illegal, seed=1)
    with pytest.raises(ValueError, match=r"the policy opponent <function .*illegal.*> of seat "
                                         r"1, table \d: action 0 \(Ac=c\) is not legal now; "
                                         r"legal: .*; the batch stopped part-way through the "
                                         r"step: call reset\(\)"):
        run(tables, 20)
    with pytest.raises(RuntimeError, match=r"reset\(\) before step"):
        tables.step(np.zeros(3, dtype=np.int64))

    def short(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> list[int]:
        return [0]

    with pytest.raises(ValueError, match=r"must return \d integer codes .* not an array of "
                                         r"shape \(1,\)"):
        TableBatch("classic", 2, 3, opponents=short, seed=1).reset()

    def broken(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> list[int]:
        raise ZeroDivisionError("the network failed")

    tables = TableBatch("classic", 2, 3, opponents=broken, seed=1)
    with pytest.raises(ZeroDivisionError) as caught:
        tables.reset()
    assert "call reset()" in "".join(caught.value.__notes__)
    with pytest.raises(ValueError, match="unknown policy 'clever'; policies: random, greedy, "
                                         "or a callable"):
        TableBatch("classic", 3, 2, opponents=[first_legal, "clever"])


def test_max_steps_truncates_a_round_and_the_next_step_deals_again() -> None:
    """With ``max_steps=3`` a round not over at the learning seat's third decision is cut:
    ``truncated``, reward 0, not terminated; the next step deals a new round. Up to the
    first cut the steps are those of a batch without a limit."""
    limited = TableBatch("uno-cards", 4, 4, seed=2, max_steps=3)
    free = run(TableBatch("uno-cards", 4, 4, seed=2), 3)
    seen = run(limited, 3)
    assert same(seen[:-1], free[:-1])
    cut = seen[-1]
    assert cut.any() and not (cut & seen[-2]).any()  # truncated, not terminated
    assert (seen[-3][cut] == 0).all() and seen[-4][cut].any(axis=1).all()
    obs, mask, rewards, terminated = limited.step(seen[-4].argmax(axis=1))  # ignored where cut
    assert not limited.truncated[cut].any() and mask[cut].any(axis=1).all()
    assert (obs[cut, O_FLAGS + 8] == 0).all() and (rewards[cut] == 0).all()
    steps, cuts = 0, 0
    _, mask = limited.reset()
    while steps < 300:
        _, mask, _, terminated = limited.step(mask.argmax(axis=1))
        cuts += int(limited.truncated.sum())
        assert not (limited.truncated & terminated).any()
        steps += 1
    assert cuts > 50
    with pytest.raises(ValueError, match="max_steps must be a positive number"):
        TableBatch("classic", 2, 2, max_steps=0)


def test_the_global_state_is_every_seats_observation() -> None:
    tables = TableBatch("les-huit", 4, 3, seat=2, opponents=["greedy", first_legal, "random"],
                        seed=5)
    obs, mask = tables.reset()
    for _ in range(30):
        state = tables.state()
        size = tables.observation_size
        assert state.shape == (3, 4 * size) and state.dtype == np.int32
        for b in range(3):
            for s in range(4):
                part = state[b, s * size:(s + 1) * size]
                assert part.tolist() == observation(tables.kt.tab, tables.states[b], s).tolist()
            assert state[b, 2 * size:3 * size].tolist() == obs[b].tolist()
        obs, mask, _, _ = tables.step(mask.argmax(axis=1))


def test_restart_deals_the_ended_tables_at_once_as_the_next_step_would() -> None:
    """``restart()`` after a step that ended or cut rounds gives those tables what the next
    step would (their new rounds' first decisions), the other tables unchanged."""
    for seed in range(4):
        now, later = (TableBatch("crazy-eights", 3, 5, opponents=[first_legal, "random"],
                                 seed=seed, max_steps=4) for _ in range(2))
        _, mask = now.reset()
        later.reset()
        ended = np.zeros(5, dtype=np.bool_)
        while not ended.any():
            actions = mask.argmax(axis=1)
            obs, mask, _, terminated = now.step(actions)
            later.step(actions)
            ended = terminated | now.truncated
        before = now.states[~ended].copy()
        new_obs, new_mask = now.restart()
        assert np.array_equal(new_obs[~ended], obs[~ended])
        assert np.array_equal(new_mask[~ended], mask[~ended])
        assert np.array_equal(now.states[~ended], before)
        their_obs, their_mask, _, _ = later.step(mask.argmax(axis=1))
        assert np.array_equal(new_obs[ended], their_obs[ended])
        assert np.array_equal(new_mask[ended], their_mask[ended])
        assert np.array_equal(now.states[ended], later.states[ended])
        _, _, _, terminated = now.step(new_mask.argmax(axis=1))  # all play on
        assert not now.truncated[ended].any() and not terminated[ended].any()
