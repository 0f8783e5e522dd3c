"""Many rounds played inside compiled code, with what a simulation tallies of each:
decisions, the seat out, the dealer, the round's winners and points.

:func:`~eights.fast.game.policy_rounds` keeps only the seat that went out; a
blocked round's winners (the lowest hands) and the winners under teams or
placings are the kernel's own, read here from the state as each round ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numba
import numpy as np
import numpy.typing as npt

from eights.engine.rules import Rules
from eights.fast import kernel as k
from eights.fast.game import POLICIES, new_state
from eights.fast.tables import compile_rules

__all__ = ["RoundTallies", "RoundTally"]

Int64Array = npt.NDArray[np.int64]

_SEED_MASK = 2**63 - 1


def _tally(tab: Any, st: Any, first: int, rounds: int, policies: Any, results: Any) -> None:
    """Play rounds ``first .. first + rounds - 1`` (round ``i`` dealt by seat ``i % n``);
    row ``i - first`` of ``results`` gets ``[decisions, seat out or -1, dealer,
    winners (0/1) of each seat..., points of each seat...]``."""
    n = st[k.S_N]
    script = np.empty(0, dtype=np.int64)
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    for j in range(rounds):
        dealer = (first + j) % n
        results[j, 0] = k.policy_round(tab, st, dealer, script, buf, policies)
        results[j, 1] = st[k.S_OUT]
        results[j, 2] = dealer
        for s in range(n):
            results[j, 3 + s] = st[st[k.S_WINNERS] + s]
            results[j, 3 + n + s] = st[st[k.S_POINTS] + s]


_tally_compiled = cast(Any, numba.njit(cache=True)(_tally))


@dataclass(frozen=True, slots=True)
class RoundTally:
    """Rounds played by :meth:`RoundTallies.play`, one row each."""

    decisions: Int64Array
    out: Int64Array
    """The seat that went out, -1 for a blocked round."""
    dealer: Int64Array
    winners: Int64Array
    """``winners[i, s]``: 1 if seat ``s`` won round ``i`` (ties and teams: several)."""
    points: Int64Array
    """``points[i, s]``: seat ``s``'s points in round ``i``."""


class RoundTallies:
    """A stream of rounds of ``rules``, seat ``s`` playing ``policies[s]`` (``random``
    or ``greedy``), every choice flowing from ``seed``. Round ``i`` of the stream is
    dealt by seat ``(first + i) % players``: ``first`` is the number of the stream's
    first round in a longer run cut into streams (a simulation's chunks).

    Call :meth:`play` as often as wanted: the rounds continue one stream, so the
    same seed gives the same rounds however they are split into calls.
    """

    def __init__(self, rules: Rules, policies: Sequence[str], seed: int = 0, *,
                 first: int = 0) -> None:
        unknown = sorted(set(policies) - set(POLICIES))
        if unknown:
            raise ValueError(f"unknown policy {unknown[0]!r}; policies: {', '.join(POLICIES)}")
        self.kt = compile_rules(rules)
        self.n = len(policies)
        self.state = new_state(self.kt, self.n, seed & _SEED_MASK)
        self.policies = np.array([POLICIES[p] for p in policies], dtype=np.int64)
        self.first = first
        self.played = 0

    def play(self, rounds: int) -> RoundTally:
        """Play the next ``rounds`` rounds."""
        n = self.n
        results = np.zeros((rounds, 3 + 2 * n), dtype=np.int64)
        _tally_compiled(self.kt.tab, self.state, self.first + self.played, rounds, self.policies,
                        results)
        self.played += rounds
        return RoundTally(results[:, 0], results[:, 1], results[:, 2],
                          results[:, 3:3 + n], results[:, 3 + n:])
