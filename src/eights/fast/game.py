"""A Python face on the kernel: :class:`FastGame` (one round, step by step) and
:func:`random_rounds` (many rounds inside compiled code). Actions are the codes of
:mod:`eights.codes` (:func:`action_code`, :func:`code_action` are re-exported here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from eights.codes import action_code, code_action
from eights.engine.actions import Action
from eights.engine.cards import CARDS, Card
from eights.engine.errors import IllegalActionError
from eights.engine.rules import Rules, load_rules
from eights.fast import kernel as k
from eights.fast.tables import KernelTables, check_supported, compile_rules

__all__ = ["POLICIES", "FastGame", "RoundResults", "action_code", "code_action", "policy_rounds",
           "random_rounds"]

Int64Array = npt.NDArray[np.int64]


def _rules(rules: Rules | str) -> Rules:
    return load_rules(rules) if isinstance(rules, str) else rules


def new_state(kt: KernelTables, players: int, seed: int,
              repeat_capacity: int | None = None) -> Int64Array:
    """A fresh state for ``players`` (no round dealt yet), its generator seeded.

    ``repeat_capacity`` (a power of two) sizes the table of positions seen under
    ``block_on_repetition``: by default :data:`~eights.fast.kernel.REP_CAP`, none for
    rules without it. Raises :class:`~eights.fast.tables.KernelUnsupported` (naming
    ``decks`` or ``jokers``) when plays of several cards with this many players could
    hold more copies of a card than the action encoding has."""
    rules = kt.rules
    rules.check_players(players)
    check_supported(rules, players)
    deck = rules.deck(players)
    if repeat_capacity is None:
        repeat_capacity = k.REP_CAP if rules.block_on_repetition else 0
    st = np.zeros(k.state_size(players, len(deck), repeat_capacity), dtype=np.int64)
    k.layout(st, players, len(deck), repeat_capacity)
    st[k.S_HAND_SIZE] = rules.hand_size_for(players)
    st[k.S_TEAMS] = int(rules.has_teams(players))
    for c in deck:
        st[int(st[k.S_DECK]) + c] += 1
    k.seed_state(st, seed)
    return st


class FastGame:
    """One round of ``rules`` played by the kernel, step by step.

    Like :class:`~eights.engine.game.Game` (``Game(rules, n, seed=..., dealer=...,
    deck=...)``): ``deck`` scripts the cards in the order they leave the stock; past
    its end, cards are drawn uniformly with the kernel's generator seeded by ``seed``.
    """

    def __init__(self, rules: Rules | str, players: int, *, seed: int = 0, dealer: int = 0,
                 deck: Sequence[Card] = (), repeat_capacity: int | None = None) -> None:
        self.rules = _rules(rules)
        self.kt = compile_rules(self.rules)
        self.n = players
        self.state = new_state(self.kt, players, seed, repeat_capacity)
        self.script = np.array([int(c) for c in deck], dtype=np.int64)
        self._buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        k.deal(self.kt.tab, self.state, dealer, self.script)

    def _get(self, slot: int) -> int:
        return int(self.state[slot])

    @property
    def over(self) -> bool:
        return bool(self._get(k.S_OVER))

    @property
    def to_play(self) -> int | None:
        return None if self.over else self._get(k.S_TO_MOVE)

    @property
    def out(self) -> int | None:
        """The seat that went out, once the round is over (``None`` if blocked)."""
        out = self._get(k.S_OUT)
        return out if self.over and out >= 0 else None

    @property
    def plays(self) -> int:
        return self._get(k.S_PLAYS)

    def legal_codes(self) -> list[int]:
        """The legal action codes, in the engine's canonical order."""
        count = k.legal_list(self.kt.tab, self.state, self._buf)
        return [int(x) for x in self._buf[:count]]

    def legal_actions(self) -> list[Action]:
        """The legal actions as engine values, in the engine's canonical order."""
        return [code_action(c) for c in self.legal_codes()]

    def apply(self, action: Action | str | int) -> None:
        """Play a legal action (an engine :class:`Action`, its text, or its code)."""
        if isinstance(action, str):
            action = Action.parse(action)
        code = action if isinstance(action, int) else action_code(action)
        legal = self.legal_codes()
        if code not in legal:
            raise IllegalActionError(f"{code_action(code)} is not legal now; legal: "
                                     f"{', '.join(str(code_action(c)) for c in legal)}")
        k.apply(self.kt.tab, self.state, code, self.script)

    def greedy_action(self) -> Action:
        """What the compiled greedy policy plays now."""
        codes = self.legal_codes()
        buf = np.array(codes, dtype=np.int64)
        return code_action(int(k.greedy_choice(self.kt.tab, self.state, buf, len(codes))))

    def hand(self, seat: int) -> list[Card]:
        """A seat's hand, sorted by card code."""
        at = self._get(k.S_HANDS) + seat * 53
        return [CARDS[c] for c in range(53) for _ in range(int(self.state[at + c]))]

    def stock(self) -> Counter[Card]:
        """The stock as a multiset."""
        at = self._get(k.S_STOCK)
        return Counter({CARDS[c]: int(self.state[at + c]) for c in range(53)
                        if self.state[at + c]})

    def discard(self) -> list[Card]:
        """The discard pile, bottom first."""
        at = self._get(k.S_DISC)
        return [CARDS[int(c)] for c in self.state[at:at + self._get(k.S_DISC_N)]]

    @property
    def round_points(self) -> list[int] | None:
        if not self.over:
            return None
        at = self._get(k.S_POINTS)
        return [int(x) for x in self.state[at:at + self.n]]

    @property
    def round_winners(self) -> list[int] | None:
        if not self.over:
            return None
        at = self._get(k.S_WINNERS)
        return [s for s in range(self.n) if self.state[at + s]]

    @property
    def penalties(self) -> list[int]:
        at = self._get(k.S_PEN)
        return [int(x) for x in self.state[at:at + self.n]]

    def scalars(self) -> dict[str, int]:
        """The turn's scalars by name (for tests and debugging)."""
        return {name[2:].lower(): int(self.state[getattr(k, name)]) for name in dir(k)
                if name.startswith("S_") and name not in ("S_SCALARS",)
                and getattr(k, name) < k.S_HANDS}


@dataclass(frozen=True, slots=True)
class RoundResults:
    """Rounds played by :func:`random_rounds`, one row each."""

    decisions: Int64Array
    plays: Int64Array
    out: Int64Array
    """The seat that went out, -1 for a blocked round."""
    points: Int64Array
    """``points[i, s]``: seat ``s``'s points in round ``i``."""


def random_rounds(rules: Rules | str, players: int, rounds: int, seed: int = 0) -> RoundResults:
    """Play ``rounds`` rounds with uniform random choices inside compiled code (the dealer
    rotating from seat 0)."""
    kt = compile_rules(_rules(rules))
    st = new_state(kt, players, seed)
    results = np.zeros((rounds, 3 + players), dtype=np.int64)
    k.random_rounds(kt.tab, st, rounds, results)
    return RoundResults(results[:, 0], results[:, 1], results[:, 2], results[:, 3:])


POLICIES = {"random": k.POLICY_RANDOM, "greedy": k.POLICY_GREEDY}
"""The built-in policies: ``random`` (uniform, seeded) and ``greedy`` (the engine's
:class:`~eights.bots.basic.GreedyBot`, choice for choice)."""


def policy_rounds(rules: Rules | str, policies: Sequence[str], rounds: int,
                  seed: int = 0) -> RoundResults:
    """Play ``rounds`` rounds inside compiled code, seat ``s`` playing ``policies[s]``
    (``"random"`` or ``"greedy"``); as many players as policies."""
    unknown = sorted(set(policies) - set(POLICIES))
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; policies: {', '.join(POLICIES)}")
    kt = compile_rules(_rules(rules))
    players = len(policies)
    st = new_state(kt, players, seed)
    codes = np.array([POLICIES[p] for p in policies], dtype=np.int64)
    results = np.zeros((rounds, 3 + players), dtype=np.int64)
    k.policy_rounds(kt.tab, st, rounds, codes, results)
    return RoundResults(results[:, 0], results[:, 1], results[:, 2], results[:, 3:])
