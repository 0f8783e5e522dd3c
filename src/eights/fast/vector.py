"""A batch of independent tables stepped together in compiled code, one learning seat each.

:class:`TableBatch` is the kernel's face for reinforcement learning (the Gymnasium
vector environment of :mod:`eights.rl` wraps it): ``batch`` tables of one rule set,
each with one learning seat (``seat``) whose actions come from the caller; each other
seat plays a built-in policy (``random``, ``greedy``) inside compiled code, or a
*policy opponent*: a Python callable such as a frozen network (see below).
:meth:`TableBatch.step` does the whole batch's work in one compiled call when every
opponent is built in: checking every action, applying it, the other seats' turns up to
the learning seat's next decision, the rewards, the observations and the masks of legal
actions.

Observations are :func:`eights.codes.observation`'s integers (``int32``, one row a
table), masks are ``bool`` over the :func:`eights.codes.action_count` codes, rewards
:func:`eights.codes.round_rewards`' of the learning seat (``float64``, 0 but on the step
that ends a round). :meth:`TableBatch.state` gives every table's global state (every
seat's observation, so every hand) for a centralised critic.

Policy opponents
----------------
An opponent may be a callable ``policy(obs, mask) -> codes`` (:data:`OpponentPolicy`):
``obs`` is an ``int32`` array of observations, one row a table, each seen by the seat
of that table that is to play; ``mask`` the ``bool`` masks of those seats' legal codes;
it returns one legal action code a row (any integer array-like: a NumPy array, a list, a
CPU tensor). The kernel stops at a table when such a seat is to play; once every table
waits (on the learning seat, on such a seat, or at the end of its round), each callable
is asked once for all the tables waiting on any of its seats (the same callable given
for several seats is called once a round of asking), the codes are applied in compiled
code, and the tables go on. A callable is deterministic for a seed when it is: the
kernel's own choices do not depend on how the callable's rows are batched. A code that
is not legal, or an exception from the callable, stops the step part-way: the error
names the seat, the table and the legal codes, and :meth:`TableBatch.reset` is needed.

Rounds that end: Gymnasium's ``NEXT_STEP`` autoreset
---------------------------------------------------------
The step that ends a table's round returns ``terminated`` True, the round's reward, and
the learning seat's final observation of it (``round over`` flag set, every hand still
counted) with an all-False mask. On the table's next step its action is ignored (any
code will do), a new round is dealt (the dealer one seat on) and played up to the
learning seat's first decision: that step returns the new round's first observation
and mask, reward 0, ``terminated`` False. This is Gymnasium 1.x's default autoreset mode
(``AutoresetMode.NEXT_STEP``). For libraries that reset in the same step (Stable-Baselines3's
``VecEnv``), :meth:`TableBatch.restart` after a step deals the ended tables' next rounds
at once and returns every table's observation and mask.

Truncation: with ``max_steps``, the step on which the learning seat has made
``max_steps`` decisions in a round that is not over sets the table's entry of
:attr:`TableBatch.truncated` (reward 0; the observation and mask are those of its next
decision, which is never taken); the table's next step deals a new round as after a
round's end. Without it rounds always play to their end (random uno-cards rounds can
pass 16,000 decisions).

A round that ends before the learning seat has a decision (possible only with hands so
small that an opponent goes out at once) is not reported: the table deals again, and
:attr:`TableBatch.skipped` counts such rounds.

Every random choice (the deals, the draws, the random seats) comes from ``seed``: table
``i``'s generator is seeded by word ``i`` of :class:`numpy.random.SeedSequence`
``(seed)`` (``generate_state``, ``uint64``, its low 63 bits), so table ``i`` plays the
same rounds in a batch of any size; its first dealer is seat ``i % players``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

__all__ = ["REPEAT_CAPACITY", "OpponentPolicy", "TableBatch"]

OpponentPolicy = Callable[[npt.NDArray[np.int32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""A policy opponent: observations (``int32``, one row a table) and masks of legal codes
(``bool``) of the seats to play, to one action code a row."""
Opponent = str | OpponentPolicy
"""A built-in policy's name (:data:`~eights.fast.game.POLICIES`) or a policy opponent."""

_SEED_MASK = np.uint64(2**63 - 1)
_PYTHON = -1.0
"""The policy value of a seat played by a Python callable (the kernel stops at its turn)."""
REPEAT_CAPACITY = 1 << 13
"""Slots of each table's record of the positions seen under ``block_on_repetition`` (a
power of two; 7/8 of it can be filled): 64 kB a table, where the kernel's default
(:data:`~eights.fast.kernel.REP_CAP`) takes 0.5 MB. In 20,000 random rounds of each
preset and player count the most positions one round counted was 3,692 (uno-cards, six
players; most presets count none or a few)."""
_STOPPED = "; the batch stopped part-way through the step: call reset()"
_MAX_SKIPPED = 1000
"""Deals in a row that end before the learning seat's turn, after which stepping fails."""


@_njit
def _others_play(tab: Any, st: Any, seat: int, policies: Any, buf: Any, script: Any) -> None:
    """The other seats play by their compiled policies until ``seat`` is to play, a seat
    played from Python is, or the round ends."""
    while (not st[k.S_OVER] and st[k.S_TO_MOVE] != seat
           and policies[st[k.S_TO_MOVE]] != _PYTHON):
        k.apply(tab, st, choose(tab, st, policies, buf), script)


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
    """``seat``'s observation and legal actions (a mask) of one table."""
    observe(tab, st, seat, obs)
    mask[:] = False
    for i in range(k.legal_list(tab, st, buf)):
        mask[buf[i]] = True


@_njit
def _deal(tab: Any, st: Any, script: Any) -> None:
    """The table's next round, the dealer one seat on."""
    k.deal(tab, st, (st[k.S_DEALER] + 1) % st[k.S_N], script)


@_njit
def _settle(tab: Any, states: Any, seat: int, policies: Any, script: Any, fresh: Any,
            steps: Any, max_steps: int, done: Any, mode: int, obs: Any, mask: Any,
            rewards: Any, terminated: Any, truncated: Any, skipped: Any) -> int:
    """Play every table's compiled seats until it waits on the learning seat, on a seat
    played from Python, or at the end of its round (a ``fresh`` round, dealt since the
    learning seat's last action, that ends first is dealt again), and write the step's
    outputs of the tables that do not wait on Python; returns the tables that do (the
    step is over when none does: every table's outputs are written)."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    waiting = 0
    for b in range(states.shape[0]):
        st = states[b]
        for again in range(_MAX_SKIPPED + 1):
            _others_play(tab, st, seat, policies, buf, script)
            if not (st[k.S_OVER] and fresh[b]):
                break
            if again == _MAX_SKIPPED:
                raise ValueError("the learning seat never gets a decision: every round "
                                 "dealt ends first")
            skipped[0] += 1
            _deal(tab, st, script)
        if not st[k.S_OVER] and st[k.S_TO_MOVE] != seat:
            waiting += 1
            continue
        rewards[b] = 0.0
        terminated[b] = False
        truncated[b] = False
        if st[k.S_OVER]:  # never fresh here: the learning seat played in this round
            rewards[b] = _reward(tab, st, seat, mode)
            terminated[b] = True
            done[b] = True
        elif max_steps > 0 and not fresh[b] and steps[b] >= max_steps:
            truncated[b] = True
            done[b] = True
        _report(tab, st, seat, buf, obs[b], mask[b])
    return waiting


@_njit
def _deal_all(tab: Any, states: Any, script: Any, fresh: Any, steps: Any, done: Any) -> None:
    """Every table's next round (:meth:`TableBatch.reset`)."""
    for b in range(states.shape[0]):
        _deal(tab, states[b], script)
        fresh[b] = True
        steps[b] = 0
        done[b] = False


@_njit
def _begin(tab: Any, states: Any, actions: Any, script: Any, fresh: Any, steps: Any,
           done: Any) -> int:
    """The learning seat's actions, or a new round where the last one is over (see
    :meth:`TableBatch.step`; a negative code at a table not over holds it: it does not
    move); returns -1, or the first table whose action is not legal (then nothing has
    changed)."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    for b in range(states.shape[0]):  # every action checked before any is played
        if done[b] or actions[b] < 0:  # a finished table deals anew; a negative code holds
            continue
        legal = False
        for i in range(k.legal_list(tab, states[b], buf)):
            legal |= buf[i] == actions[b]
        if not legal:
            return b
    for b in range(states.shape[0]):
        st = states[b]
        if done[b]:  # NEXT_STEP autoreset: the action is ignored, a new round begins
            _deal(tab, st, script)
            fresh[b] = True
            steps[b] = 0
            done[b] = False
        elif actions[b] >= 0:
            k.apply(tab, st, actions[b], script)
            fresh[b] = False
            steps[b] += 1
    return -1


@_njit
def _step(actions: Any, tab: Any, states: Any, seat: int, policies: Any, script: Any,
          fresh: Any, steps: Any, max_steps: int, done: Any, mode: int, obs: Any, mask: Any,
          rewards: Any, terminated: Any, truncated: Any, skipped: Any) -> int:
    """:func:`_begin`, then :func:`_settle`, in one call: ``-1 - table`` for the first table
    whose action is not legal (nothing changed), or the tables waiting on Python's seats."""
    bad = _begin(tab, states, actions, script, fresh, steps, done)
    if bad >= 0:
        return -1 - bad
    return _settle(tab, states, seat, policies, script, fresh, steps, max_steps, done, mode,
                   obs, mask, rewards, terminated, truncated, skipped)


@_njit
def _redeal(tab: Any, states: Any, script: Any, fresh: Any, steps: Any, done: Any) -> None:
    """The next round of every table whose round is over or cut (:meth:`TableBatch.restart`)."""
    for b in range(states.shape[0]):
        if done[b]:
            _deal(tab, states[b], script)
            fresh[b] = True
            steps[b] = 0
            done[b] = False


@_njit
def _ask(tab: Any, states: Any, rows: Any, obs: Any, mask: Any) -> None:
    """The observation and mask of the seat to play at each table of ``rows``."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    for i in range(rows.shape[0]):
        st = states[rows[i]]
        _report(tab, st, st[k.S_TO_MOVE], buf, obs[i], mask[i])


@_njit
def _answer(tab: Any, states: Any, rows: Any, actions: Any, script: Any) -> None:
    """Play ``actions[i]`` (checked legal) at table ``rows[i]``."""
    for i in range(rows.shape[0]):
        k.apply(tab, states[rows[i]], actions[i], script)


@_njit
def _legal_pairs(tab: Any, states: Any, rows: Any, out_rows: Any, out_codes: Any) -> int:
    """The legal codes of the seat to play at each table of ``rows``, as (table, code)
    pairs written to ``out_rows`` and ``out_codes`` when they hold them all; returns how
    many there are (more than they hold: call again with room for that many)."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    count = 0
    for i in range(rows.shape[0]):
        for j in range(k.legal_list(tab, states[rows[i]], buf)):
            if count < out_rows.shape[0]:
                out_rows[count] = rows[i]
                out_codes[count] = buf[j]
            count += 1
    return count


@_njit
def _global_states(tab: Any, states: Any, size: int, out: Any) -> None:
    """Every seat's observation of each table, in seat order, one row a table."""
    for b in range(states.shape[0]):
        for s in range(states[b][k.S_N]):
            observe(tab, states[b], s, out[b, s * size:(s + 1) * size])


def _seeds(seed: int, batch: int) -> npt.NDArray[np.int64]:
    words = np.random.SeedSequence(seed).generate_state(batch, dtype=np.uint64)
    return (words & _SEED_MASK).astype(np.int64)


def _opponent_name(opponent: Opponent) -> str:
    return opponent if isinstance(opponent, str) else repr(opponent)


class TableBatch:
    """``batch`` independent tables of ``rules`` with ``players`` seats; the caller plays
    ``seat`` at every table, the other seats play ``opponents``: one for all, or one per
    other seat in seat order, each ``"random"`` or ``"greedy"`` (inside compiled code) or a
    policy opponent (a callable on observations and masks: see the module text); rewards
    by ``reward`` (:data:`eights.codes.REWARDS`); ``max_steps`` (a positive integer, or
    ``None``) truncates a round after that many decisions of the learning seat. See the
    module text for the autoreset convention and the seeding.

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

    A policy opponent at seat 1, the built-in greedy policy at seats 2 and 3:

    >>> def first_legal(obs, mask):
    ...     return mask.argmax(axis=1)
    >>> tables = TableBatch("classic", 4, batch=8, opponents=[first_legal, "greedy", "greedy"])
    >>> obs, mask = tables.reset()
    >>> obs, mask, rewards, terminated = tables.step(mask.argmax(axis=1))
    >>> tables.state().shape  # every seat's observation, for a centralised critic
    (8, 1124)
    """

    def __init__(self, rules: Rules | str, players: int, batch: int, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = ("random",), seed: int = 0,
                 reward: str = "points", repeat_capacity: int | None = None,
                 max_steps: int | None = None) -> None:
        self.rules = load_rules(rules) if isinstance(rules, str) else rules
        self.rules.check_players(players)
        self.kt = cached_tables(self.rules)
        if not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a positive number of tables, not {batch!r}")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} does not exist; seats are 0 to {players - 1}")
        given: list[Opponent] = ([opponents] if isinstance(opponents, str) or callable(opponents)
                                 else list(opponents))
        if len(given) == 1:
            given *= players - 1
        if len(given) != players - 1:
            raise ValueError(f"{len(given)} opponent policies for {players - 1} other seats: "
                             "give one for all, or one per other seat")
        for one in given:
            if not callable(one) and one not in POLICIES:
                raise ValueError(f"unknown policy {one!r}; policies: {', '.join(POLICIES)}, "
                                 "or a callable policy(obs, mask) -> action codes")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards: {', '.join(REWARDS)}")
        if not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
        if max_steps is not None and (isinstance(max_steps, bool)
                                      or not isinstance(max_steps, int) or max_steps < 1):
            raise ValueError(f"max_steps must be a positive number of the learning seat's "
                             f"decisions in a round, or None for no limit, not {max_steps!r}")
        self.players = players
        self.batch = batch
        self.seat = seat
        self.opponents: tuple[Opponent, ...] = tuple(given)
        """Each other seat's policy, in seat order: a built-in name or a callable."""
        self.reward = reward
        self.max_steps = max_steps
        self.observation_size = observation_size(players)
        """Integers in one observation (:func:`eights.codes.observation_size`)."""
        self.state_size = players * self.observation_size
        """Integers in one table's global state (:meth:`state`)."""
        self.action_count = action_count(self.rules, players)
        """Action codes of these rules (:func:`eights.codes.action_count`): a mask's width."""
        others = [s for s in range(players) if s != seat]
        self.policies = np.zeros(players)
        """Each seat's kernel policy value (1.0 random, 0.0 greedy, -1.0 a callable's)."""
        callers: dict[int, tuple[OpponentPolicy, list[int]]] = {}
        for s, one in zip(others, given, strict=True):
            if isinstance(one, str):
                self.policies[s] = 1.0 if one == "random" else 0.0
            else:
                self.policies[s] = _PYTHON
                callers.setdefault(id(one), (one, []))[1].append(s)
        self._callers = [(policy, np.array(seats, dtype=np.int64))
                         for policy, seats in callers.values()]
        if repeat_capacity is None:
            repeat_capacity = REPEAT_CAPACITY if self.rules.block_on_repetition else 0
        one_state = new_state(self.kt, players, 0, repeat_capacity)
        self.states = np.empty((batch, one_state.shape[0]), dtype=np.int64)
        """The tables' kernel states, one row each (read only: see :mod:`eights.fast.kernel`)."""
        self.states[:] = one_state
        self.truncated = np.zeros(batch, dtype=np.bool_)
        """The tables whose round the last step cut at ``max_steps`` (see the module text)."""
        self._done = np.zeros(batch, dtype=np.bool_)
        self._fresh = np.zeros(batch, dtype=np.bool_)
        self._steps = np.zeros(batch, dtype=np.int64)
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
        self._ready = False
        _deal_all(self.kt.tab, self.states, self._script, self._fresh, self._steps, self._done)
        obs, mask, _, _ = self._play_out()
        self._ready = True
        return obs, mask

    def step(self, actions: npt.ArrayLike, hold: npt.ArrayLike | None = None
             ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], npt.NDArray[np.float64],
                        npt.NDArray[np.bool_]]:
        """Play one action code a table for the learning seat: ``(obs, mask, rewards,
        terminated)``, one row a table (:attr:`truncated` says which tables' rounds were cut
        at ``max_steps``). A table whose round ended or was cut on the previous step
        ignores its action and starts a new round (see the module text). ``hold`` (one
        bool a table) keeps the tables it marks as they are, their action ignored: reward
        0, the same observation and mask (the factored actions' steps that do not finish
        a play, :mod:`eights.rl.factored`); a finished table deals anew all the same.

        Raises :class:`ValueError` naming the first table whose action is not legal (and
        what is), changing nothing; :class:`RuntimeError` before :meth:`reset`; and, after
        which :meth:`reset` is needed, :class:`ValueError` when a round outgrows
        ``repeat_capacity`` (see the class) or a policy opponent's code is not legal, and
        whatever a policy opponent raises.
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        codes = np.asarray(actions)
        if codes.shape == () and self.batch == 1:  # one table: a scalar will do
            codes = codes.reshape(1)
        if codes.shape != (self.batch,) or codes.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.batch} integer codes (one a table), not "
                             f"an array of shape {codes.shape} and type {codes.dtype}")
        codes = codes.astype(np.int64, copy=False)
        if hold is not None:
            held = np.asarray(hold, dtype=np.bool_).reshape(-1)
            if held.shape != (self.batch,):
                raise ValueError(f"hold must be {self.batch} booleans (one a table), not "
                                 f"{held.shape[0]}")
            codes = np.where(held & ~self._done, -1, codes)
        else:
            held = np.zeros(self.batch, dtype=np.bool_)
        negative = np.flatnonzero((codes < 0) & ~held & ~self._done)
        if negative.size:  # the kernel reads a negative code as a hold
            raise ValueError(self._illegal(int(negative[0]), int(codes[negative[0]])))
        self._ready = False
        obs, mask, rewards, terminated = self._play_out(codes)
        self._ready = True
        return obs, mask, rewards, terminated

    def restart(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """Deal a new round now at every table whose round the last step ended or cut, and
        play it to the learning seat's first decision: ``(obs, mask)`` of every table (the
        others' unchanged). This is Gymnasium's ``SAME_STEP`` autoreset, for libraries that
        expect it (Stable-Baselines3): call it after each step, keeping the step's
        observations of the ended tables as their final ones."""
        if not self._ready:
            raise RuntimeError("call reset() before restart()")
        self._ready = False
        _redeal(self.kt.tab, self.states, self._script, self._fresh, self._steps, self._done)
        obs, mask, _, _ = self._play_out(truncated=np.zeros(self.batch, dtype=np.bool_))
        self._ready = True
        return obs, mask

    def legal_codes(self, rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64],
                                                                npt.NDArray[np.int64]]:
        """The legal codes now at the tables ``rows`` as pairs ``(tables, codes)``, in
        table order, each table's in the engine's order (none at a table whose round is
        over): the masks' content without reading their every code."""
        rows = np.asarray(rows, dtype=np.int64)
        size = 32 * max(1, rows.size)
        while True:
            tables = np.empty(size, dtype=np.int64)
            codes = np.empty(size, dtype=np.int64)
            count = int(_legal_pairs(self.kt.tab, self.states, rows, tables, codes))
            if count <= size:
                return tables[:count], codes[:count]
            size = count

    def state(self) -> npt.NDArray[np.int32]:
        """Every table's global state now, for a centralised critic: each seat's
        observation (:func:`eights.codes.observation`) in seat order, so every hand, one row
        of :attr:`state_size` integers a table. The stock's cards are those in no hand and
        not on the pile; their order (the draws to come) is not in it."""
        out = np.empty((self.batch, self.state_size), dtype=np.int32)
        _global_states(self.kt.tab, self.states, self.observation_size, out)
        return out

    def _play_out(self, actions: npt.NDArray[np.int64] | None = None,
                  truncated: npt.NDArray[np.bool_] | None = None
                  ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_],
                             npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """Play the learning seat's ``actions`` (unless None), then the other seats (asking
        the policy opponents) until every table waits on the learning seat or is over: the
        step's outputs (the tables cut at ``max_steps`` in ``truncated``, by default
        :attr:`truncated`)."""
        obs = np.empty((self.batch, self.observation_size), dtype=np.int32)
        mask = np.empty((self.batch, self.action_count), dtype=np.bool_)
        rewards = np.empty(self.batch, dtype=np.float64)
        terminated = np.empty(self.batch, dtype=np.bool_)
        skipped = np.zeros(1, dtype=np.int64)
        args = (self.kt.tab, self.states, self.seat, self.policies, self._script, self._fresh,
                self._steps, self.max_steps or 0, self._done, self._mode, obs, mask, rewards,
                terminated, self.truncated if truncated is None else truncated, skipped)
        try:
            if actions is None:
                waiting = self._kernel(_settle, *args)
            else:
                waiting = self._kernel(_step, actions, *args)
                if waiting < 0:  # nothing has changed
                    self._ready = True
                    bad = -waiting - 1
                    raise ValueError(self._illegal(bad, int(actions[bad])))
            while waiting:
                for policy, seats in self._callers:
                    self._ask(policy, seats)
                waiting = self._kernel(_settle, *args)
        finally:
            self.skipped += int(skipped[0])
        return obs, mask, rewards, terminated

    def _kernel(self, function: Callable[..., int], *args: Any) -> int:
        """``function(*args)``, a compiled step: its :class:`ValueError` (a round counted
        more positions than its table holds) says that the batch needs :meth:`reset`."""
        try:
            return int(function(*args))
        except ValueError as exc:
            advice = (", with a larger TableBatch(repeat_capacity=...)"
                      if "repeat capacity" in str(exc) else "")
            raise ValueError(f"{exc}{_STOPPED}{advice}") from exc

    def _ask(self, policy: OpponentPolicy, seats: npt.NDArray[np.int64]) -> None:
        """Ask ``policy`` for the tables waiting on one of its ``seats`` and play its codes."""
        rows = np.flatnonzero((self.states[:, k.S_OVER] == 0)
                              & np.isin(self.states[:, k.S_TO_MOVE], seats))
        if not rows.size:
            return
        obs = np.empty((rows.size, self.observation_size), dtype=np.int32)
        mask = np.empty((rows.size, self.action_count), dtype=np.bool_)
        _ask(self.kt.tab, self.states, rows, obs, mask)
        try:
            chosen = np.asarray(policy(obs, mask))
        except Exception as exc:
            exc.add_note(f"in the policy opponent {policy!r}{_STOPPED}")
            raise
        if chosen.shape != rows.shape or chosen.dtype.kind not in "iu":
            raise ValueError(f"the policy opponent {policy!r} must return {rows.size} integer "
                             f"codes (one a row of its observations), not an array of shape "
                             f"{chosen.shape} and type {chosen.dtype}{_STOPPED}")
        chosen = chosen.astype(np.int64, copy=False)
        inside = (chosen >= 0) & (chosen < self.action_count)
        legal = inside & mask[np.arange(rows.size), np.where(inside, chosen, 0)]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            seat = int(self.states[rows[i], k.S_TO_MOVE])
            raise ValueError(f"the policy opponent {policy!r} of seat {seat}, "
                             f"{self._illegal(int(rows[i]), int(chosen[i]))}{_STOPPED}")
        _answer(self.kt.tab, self.states, rows, chosen, self._script)

    def _illegal(self, table: int, code: int) -> str:
        buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        count = k.legal_list(self.kt.tab, self.states[table], buf)
        legal = ", ".join(f"{c} ({code_action(int(c))})" for c in buf[:count])
        if 0 <= code < self.action_count:
            what = f"action {code} ({code_action(code)}) is not legal now"
        else:
            what = f"action {code} is not a code: codes are 0 to {self.action_count - 1}"
        return f"table {table}: {what}; legal: {legal}"
