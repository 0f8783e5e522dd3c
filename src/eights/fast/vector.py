"""A batch of independent tables stepped together in compiled code, one learning seat each.

:class:`TableBatch` is the kernel's face for reinforcement learning (the Gymnasium
vector environment of :mod:`eights.rl` wraps it): ``batch`` tables of one rule set,
each with one learning seat (``seat``) whose actions come from the caller; the other
seats play inside compiled code by the built-in policies (``random``, ``greedy``).
:meth:`TableBatch.step` does the whole batch's work in one compiled call: checking
every action, applying it, the other seats' turns up to the learning seat's next
decision, the rewards, the observations and the masks of legal actions.

Observations are :func:`eights.codes.observation`'s integers (``int32``, one row a
table), masks are ``bool`` over the :func:`eights.codes.action_count` codes, rewards
:func:`eights.codes.round_rewards`' of the learning seat (``float64``, 0 but on the step
that ends a round).

Rounds that end: Gymnasium's ``NEXT_STEP`` autoreset
---------------------------------------------------------
The step that ends a table's round returns ``terminated`` True, the round's reward, and
the learning seat's final observation of it (``round over`` flag set, every hand still
counted) with an all-False mask. On the table's next step its action is ignored (any
code will do), a new round is dealt (the dealer one seat on) and played up to the
learning seat's first decision: that step returns the new round's first observation
and mask, reward 0, ``terminated`` False. This is Gymnasium 1.x's default autoreset mode
(``AutoresetMode.NEXT_STEP``). Rounds never stop early: there is no ``truncated``.

A round that ends before the learning seat has a decision (possible only with hands so
small that an opponent goes out at once) is not reported: the table deals again, and
:attr:`TableBatch.skipped` counts such rounds.

Every random choice (the deals, the draws, the random seats) comes from ``seed``: table
``i``'s generator is seeded by word ``i`` of :class:`numpy.random.SeedSequence`
``(seed)`` (``generate_state``, ``uint64``, its low 63 bits), so table ``i`` plays the
same rounds in a batch of any size; its first dealer is seat ``i % players``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import REWARDS, action_count, code_action, observation_size
from eights.engine.rules import Rules, load_rules
from eights.fast import kernel as k
from eights.fast.game import POLICIES, new_state
from eights.fast.kernel import _njit
from eights.fast.observe import observe
from eights.fast.tables import T_SCORING
from eights.fast.world import cached_tables, choose

__all__ = ["REPEAT_CAPACITY", "TableBatch"]

_SEED_MASK = np.uint64(2**63 - 1)
REPEAT_CAPACITY = 1 << 13
"""Slots of each table's record of the positions seen under ``block_on_repetition`` (a
power of two; 7/8 of it can be filled): 64 kB a table, where the kernel's default
(:data:`~eights.fast.kernel.REP_CAP`) takes 0.5 MB. In 20,000 random rounds of each
preset and player count the most positions one round counted was 3,692 (uno-cards, six
players; most presets count none or a few)."""
_MAX_SKIPPED = 1000
"""Deals in a row that end before the learning seat's turn, after which stepping fails."""


@_njit
def _others_play(tab: Any, st: Any, seat: int, policies: Any, buf: Any, script: Any) -> None:
    """The other seats play by their policies until ``seat`` is to play or the round ends."""
    while not st[k.S_OVER] and st[k.S_TO_MOVE] != seat:
        k.apply(tab, st, choose(tab, st, policies, buf), script)


@_njit
def _new_round(tab: Any, st: Any, seat: int, policies: Any, buf: Any, script: Any) -> int:
    """Deal the table's next round (the dealer one seat on) and play it to ``seat``'s first
    decision, dealing again while rounds end before it; returns the rounds dealt again."""
    n = st[k.S_N]
    for skipped in range(_MAX_SKIPPED):
        k.deal(tab, st, (st[k.S_DEALER] + 1) % n, script)
        _others_play(tab, st, seat, policies, buf, script)
        if not st[k.S_OVER]:
            return skipped
    raise ValueError("the learning seat never gets a decision: every round dealt ends first")


@_njit
def _reward(tab: Any, st: Any, seat: int, mode: int) -> float:
    """``codes.round_rewards(...)[seat]`` of the round over in ``st``: ``mode`` 0 points
    (zero-sum), 1 raw, 2 win (see :data:`eights.codes.REWARDS`)."""
    n = st[k.S_N]
    if mode == 2:
        return 1.0 if st[st[k.S_WINNERS] + seat] else -1.0
    sign = 1 if tab[T_SCORING] == 1 or tab[T_SCORING] == 2 else -1  # more is better?
    points = st[k.S_POINTS]
    if mode == 1:
        return float(sign * st[points + seat])
    total = 0
    for s in range(n):
        total += st[points + s]
    return float(sign * (st[points + seat] - total / n))


@_njit
def _report(tab: Any, st: Any, seat: int, buf: Any, obs: Any, mask: Any) -> None:
    """The learning seat's observation and legal actions (a mask) of one table."""
    observe(tab, st, seat, obs)
    mask[:] = False
    for i in range(k.legal_list(tab, st, buf)):
        mask[buf[i]] = True


@_njit
def _reset(tab: Any, states: Any, seat: int, policies: Any, script: Any, obs: Any,
           mask: Any, done: Any) -> int:
    """Every table's next round, to the learning seat's first decision; returns the rounds
    dealt again."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    skipped = 0
    for b in range(states.shape[0]):
        skipped += _new_round(tab, states[b], seat, policies, buf, script)
        done[b] = False
        _report(tab, states[b], seat, buf, obs[b], mask[b])
    return skipped


@_njit
def _step(tab: Any, states: Any, seat: int, policies: Any, script: Any, actions: Any,
          done: Any, mode: int, obs: Any, mask: Any, rewards: Any, terminated: Any,
          skipped: Any) -> int:
    """One step of every table (see :meth:`TableBatch.step`); returns -1, or the first table
    whose action is not legal (then nothing has changed)."""
    batch = states.shape[0]
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    for b in range(batch):  # every action checked before any is played
        if done[b]:
            continue
        legal = False
        for i in range(k.legal_list(tab, states[b], buf)):
            legal |= buf[i] == actions[b]
        if not legal:
            return b
    for b in range(batch):
        st = states[b]
        rewards[b] = 0.0
        terminated[b] = False
        if done[b]:  # NEXT_STEP autoreset: the action is ignored, a new round begins
            skipped[0] += _new_round(tab, st, seat, policies, buf, script)
            done[b] = False
        else:
            k.apply(tab, st, actions[b], script)
            _others_play(tab, st, seat, policies, buf, script)
            if st[k.S_OVER]:
                rewards[b] = _reward(tab, st, seat, mode)
                terminated[b] = True
                done[b] = True
        _report(tab, st, seat, buf, obs[b], mask[b])
    return -1


def _seeds(seed: int, batch: int) -> npt.NDArray[np.int64]:
    words = np.random.SeedSequence(seed).generate_state(batch, dtype=np.uint64)
    return (words & _SEED_MASK).astype(np.int64)


class TableBatch:
    """``batch`` independent tables of ``rules`` with ``players`` seats; the caller plays
    ``seat`` at every table, the other seats play ``opponents`` (one policy for all, or
    one per other seat in seat order: ``"random"`` or ``"greedy"``) inside compiled
    code; rewards by ``reward`` (:data:`eights.codes.REWARDS`). See the module text for
    the autoreset convention and the seeding.

    ``repeat_capacity`` sizes each table's record of positions under
    ``block_on_repetition`` (default :data:`REPEAT_CAPACITY`; a power of two): a round
    that counts more positions than it holds stops the step with a :class:`ValueError`
    (then :meth:`reset` is needed), never a wrong result.

    >>> tables = TableBatch("classic", 4, batch=8, seed=1)
    >>> obs, mask = tables.reset()
    >>> obs.shape, mask.shape
    ((8, 281), (8, 537))
    >>> actions = mask.argmax(axis=1)  # the first legal code at each table
    >>> obs, mask, rewards, terminated = tables.step(actions)
    """

    def __init__(self, rules: Rules | str, players: int, batch: int, seat: int = 0,
                 opponents: str | Sequence[str] = ("random",), seed: int = 0,
                 reward: str = "points", repeat_capacity: int | None = None) -> None:
        self.rules = load_rules(rules) if isinstance(rules, str) else rules
        self.rules.check_players(players)
        self.kt = cached_tables(self.rules)
        if not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a positive number of tables, not {batch!r}")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist; seats are 0 to {players - 1}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names *= players - 1
        if len(names) != players - 1:
            raise ValueError(f"{len(names)} opponent policies for {players - 1} other seats: "
                             "give one for all, or one per other seat")
        unknown = sorted(set(names) - set(POLICIES))
        if unknown:
            raise ValueError(f"unknown policy {unknown[0]!r}; policies: {', '.join(POLICIES)}")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards: {', '.join(REWARDS)}")
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
        self.players = players
        self.batch = batch
        self.seat = seat
        self.opponents = tuple(names)
        self.reward = reward
        self.observation_size = observation_size(players)
        """Integers in one observation (:func:`eights.codes.observation_size`)."""
        self.action_count = action_count(self.rules, players)
        """Action codes of these rules (:func:`eights.codes.action_count`): a mask's width."""
        others = iter(names)
        self.policies = np.array([0.0 if s == seat else (1.0 if next(others) == "random"
                                                           else 0.0) for s in range(players)])
        if repeat_capacity is None:
            repeat_capacity = REPEAT_CAPACITY if self.rules.block_on_repetition else 0
        one = new_state(self.kt, players, 0, repeat_capacity)
        self.states = np.empty((batch, one.shape[0]), dtype=np.int64)
        """The tables' kernel states, one row each (read only: see :mod:`eights.fast.kernel`)."""
        self.states[:] = one
        self._done = np.zeros(batch, dtype=np.bool_)
        self._script = np.empty(0, dtype=np.int64)
        self._mode = REWARDS.index(reward)
        self._ready = False
        self.skipped = 0
        """Rounds dealt again because they ended before the learning seat's first decision."""
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Reseed every table as a new batch with ``seed`` would be (call :meth:`reset`)."""
        seeds = _seeds(seed, self.batch)
        for b in range(self.batch):
            k.seed_state(self.states[b], seeds[b])
            self.states[b, k.S_DEALER] = (b - 1) % self.players  # the first deal: b % n
        self._ready = False

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.int32],
                                                      npt.NDArray[np.bool_]]:
        """Deal a new round at every table (reseeded first when ``seed`` is given) and play
        it to the learning seat's first decision: ``(obs, mask)``."""
        if seed is not None:
            self.seed(seed)
        obs, mask = self._outputs()
        self.skipped += _reset(self.kt.tab, self.states, self.seat, self.policies,
                               self._script, obs, mask, self._done)
        self._ready = True
        return obs, mask

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.int32],
                                                    npt.NDArray[np.bool_],
                                                    npt.NDArray[np.float64],
                                                    npt.NDArray[np.bool_]]:
        """Play one action code a table for the learning seat: ``(obs, mask, rewards,
        terminated)``, one row a table. A table whose round ended on the previous step
        ignores its action and starts a new round (see the module text).

        Raises :class:`ValueError` naming the first table whose action is not legal (and
        what is), changing nothing; :class:`RuntimeError` before :meth:`reset`; and
        :class:`ValueError` when a round outgrows ``repeat_capacity`` (see the class).
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        codes = np.asarray(actions)
        if codes.shape != (self.batch,) or codes.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.batch} integer codes (one a table), not "
                             f"an array of shape {codes.shape} and type {codes.dtype}")
        codes = codes.astype(np.int64, copy=False)
        obs, mask = self._outputs()
        rewards = np.empty(self.batch, dtype=np.float64)
        terminated = np.empty(self.batch, dtype=np.bool_)
        skipped = np.zeros(1, dtype=np.int64)
        try:
            bad = _step(self.kt.tab, self.states, self.seat, self.policies, self._script,
                        codes, self._done, self._mode, obs, mask, rewards, terminated, skipped)
        except ValueError as exc:  # a round counted more positions than its table holds
            self._ready = False
            advice = (", with a larger TableBatch(repeat_capacity=...)"
                      if "repeat capacity" in str(exc) else "")
            raise ValueError(f"{exc}; the batch stopped part-way through the step: call "
                             f"reset(){advice}") from exc
        if bad >= 0:
            raise ValueError(self._illegal(bad, int(codes[bad])))
        self.skipped += int(skipped[0])
        return obs, mask, rewards, terminated

    def _outputs(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        return (np.empty((self.batch, self.observation_size), dtype=np.int32),
                np.empty((self.batch, self.action_count), dtype=np.bool_))

    def _illegal(self, table: int, code: int) -> str:
        buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        count = k.legal_list(self.kt.tab, self.states[table], buf)
        legal = ", ".join(f"{c} ({code_action(int(c))})" for c in buf[:count])
        if 0 <= code < self.action_count:
            what = f"action {code} ({code_action(code)}) is not legal now"
        else:
            what = f"action {code} is not a code: codes are 0 to {self.action_count - 1}"
        return f"table {table}: {what}; legal: {legal}"
