"""Many tables of one rule set stepped together, every seat driven from outside or by the
kernel's greedy policy: the self-play of :mod:`eights.learn`.

Unlike :class:`eights.fast.vector.TableBatch` (one learning seat a table), any seat of
any table may be outside (a network chooses for it) and the tables' line-ups change
from round to round. Each :meth:`Tables.advance` plays the greedy seats in compiled
code up to the next outside decision of every table and reports, for each table,
the seat to play, its observation (:func:`eights.codes.observation`'s integers) and
its legal codes; a table whose round ended reports its winners and points instead,
and waits for :meth:`Tables.deal`. :meth:`Tables.apply` plays one code a table.

Every random choice of the tables (deals, draws) flows from ``seed``: table ``i``'s
generator is seeded by word ``i`` of :class:`numpy.random.SeedSequence` ``(seed)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import observation_size
from eights.engine.rules import Rules
from eights.fast import kernel as k
from eights.fast.game import new_state
from eights.fast.kernel import _njit
from eights.fast.observe import observe
from eights.fast.world import cached_tables

__all__ = ["GREEDY", "OUTSIDE", "Tables"]

OUTSIDE = 0
"""A seat whose actions come from :meth:`Tables.apply`."""
GREEDY = 1
"""A seat played by the kernel's greedy policy."""
_REPEAT_CAPACITY = 1 << 13
_SEED_MASK = np.uint64(2**63 - 1)


@_njit
def _advance(tab: Any, states: Any, kinds: Any, script: Any, obs: Any, legal: Any,
             counts: Any, to_move: Any, ended: Any, results: Any) -> int:
    """Play every table's greedy seats up to an outside decision or the round's end (see
    the module text); returns 0, or the most legal codes of a table when some table has
    more than ``legal`` holds (then call again with a wider ``legal``)."""
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    width = legal.shape[1]
    need = 0
    for b in range(states.shape[0]):
        st = states[b]
        n = st[k.S_N]
        while not st[k.S_OVER] and kinds[b, st[k.S_TO_MOVE]] == GREEDY:
            count = k.legal_list(tab, st, buf)
            a = buf[0] if count == 1 else k.greedy_choice(tab, st, buf, count)
            k.apply(tab, st, a, script)
        if st[k.S_OVER]:
            ended[b] = True
            counts[b] = 0
            to_move[b] = -1
            for s in range(n):
                results[b, s] = st[st[k.S_WINNERS] + s]
                results[b, n + s] = st[st[k.S_POINTS] + s]
            continue
        ended[b] = False
        p = st[k.S_TO_MOVE]
        to_move[b] = p
        observe(tab, st, p, obs[b])
        count = k.legal_list(tab, st, buf)
        counts[b] = count
        if count > width:
            need = max(need, count)
            continue
        for i in range(count):
            legal[b, i] = buf[i]
        for i in range(count, width):
            legal[b, i] = -1
    return need


@_njit
def _deal(tab: Any, states: Any, which: Any, script: Any) -> None:
    for b in which:
        st = states[b]
        k.deal(tab, st, (st[k.S_DEALER] + 1) % st[k.S_N], script)


@_njit
def _apply(tab: Any, states: Any, which: Any, actions: Any, script: Any) -> None:
    for i in range(which.shape[0]):
        k.apply(tab, states[which[i]], actions[i], script)


class Tables:
    """``batch`` tables of ``rules`` with ``players`` seats; ``kinds[b, s]`` says who plays
    seat ``s`` of table ``b`` (:data:`OUTSIDE` or :data:`GREEDY`), and may be changed
    between a round's end and :meth:`deal`. The first round of table ``b`` is dealt by
    seat ``b % players`` and the dealer moves one seat on each round."""

    def __init__(self, rules: Rules, players: int, batch: int, seed: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.kt = cached_tables(rules)
        self.players = players
        self.batch = batch
        capacity = _REPEAT_CAPACITY if rules.block_on_repetition else 0
        one = new_state(self.kt, players, 0, capacity)
        self.states = np.empty((batch, one.shape[0]), dtype=np.int64)
        self.states[:] = one
        words = np.random.SeedSequence(seed).generate_state(batch, dtype=np.uint64)
        for b in range(batch):
            k.seed_state(self.states[b], int(words[b] & _SEED_MASK))
            self.states[b, k.S_DEALER] = (b - 1) % players
        self.kinds = np.full((batch, players), OUTSIDE, dtype=np.int64)
        self.obs = np.zeros((batch, observation_size(players)), dtype=np.int64)
        self.legal = np.full((batch, 8), -1, dtype=np.int64)
        self.counts = np.zeros(batch, dtype=np.int64)
        self.to_move = np.zeros(batch, dtype=np.int64)
        self.ended = np.zeros(batch, dtype=np.bool_)
        self.results = np.zeros((batch, 2 * players), dtype=np.int64)
        """Of a table whose round ended: its winners (1 or 0 a seat), then its points."""
        self._script = np.empty(0, dtype=np.int64)
        self.deal(np.arange(batch))

    def deal(self, which: npt.NDArray[np.int64]) -> None:
        """Deal the next round at the tables ``which`` (the dealer one seat on)."""
        _deal(self.kt.tab, self.states, np.asarray(which, dtype=np.int64), self._script)
        self.ended[which] = False

    def advance(self) -> None:
        """Play the greedy seats up to every table's next outside decision or round's end;
        the attributes ``to_move``, ``obs``, ``legal`` (padded with -1), ``counts``,
        ``ended`` and ``results`` then describe each table."""
        while True:
            need = _advance(self.kt.tab, self.states, self.kinds, self._script, self.obs,
                            self.legal, self.counts, self.to_move, self.ended, self.results)
            if not need:
                return
            self.legal = np.full((self.batch, max(need, 2 * self.legal.shape[1])), -1,
                                 dtype=np.int64)

    def apply(self, which: npt.NDArray[np.int64], actions: npt.NDArray[np.int64]) -> None:
        """Play ``actions[i]`` (a legal code) at table ``which[i]``."""
        _apply(self.kt.tab, self.states, np.asarray(which, dtype=np.int64),
               np.asarray(actions, dtype=np.int64), self._script)
