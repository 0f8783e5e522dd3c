"""The bot interface and the two simple bots, ``random`` and ``greedy``.

A bot sees the game only through :meth:`eights.engine.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from eights.engine.actions import DRAW, PASS, TAKE, Action, Kind
from eights.engine.cards import Card, Suit
from eights.engine.observation import Observation

if TYPE_CHECKING:
    from eights.engine.rules import Rules

__all__ = ["Bot", "GreedyBot", "RandomBot"]


class Bot(Protocol):
    """The bot interface."""

    name: str

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal`` (never empty)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        return legal[int(rng.random() * len(legal))]


class GreedyBot:
    """Sheds the costliest card it can, keeping wild cards for when nothing else plays.

    - answers a forced draw when it can (stacking or cancelling), else draws;
    - among ordinary plays, the one shedding most points (several cards of a rank
      at once where the rules allow, SW3; ties: more cards, the higher rank);
    - a wild card only when nothing else can be played, naming the suit it holds
      most of (ties: the suit worth most points in hand); names a wild starter's
      suit (``=s``: TS3, UC3) the same way;
    - passes a skip on when it can (MM5, PE8) and plays after a forced draw taken
      (PE5) when it can;
    - always announces its last card (HA13) and calls going out (MM9), plays a
      drawn card it may play, and declines the LH5 extra card.
    """

    name = "greedy"

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        rules = observation.rules
        plays = [a for a in legal if a.card is not None]
        if not plays:
            if legal[0].kind is Kind.NAME:  # TS3, UC3: name the wild starter's suit
                suit = favourite_suit(observation.hand, None, rules)
                return Action.name(suit)
            if TAKE in legal and PASS in legal:
                return PASS  # LH5: a card in hand is a card to shed
            return DRAW if DRAW in legal else legal[0]

        def points(a: Action) -> int:
            return sum(rules.points[c.rank] for c in a.cards)

        plain = [a for a in plays if a.card is not None and not rules.rule_of(a.card).wild]
        pool = plain or plays
        best = max(pool, key=lambda a: (points(a), len(a.cards), a.cards[-1]))
        options = [a for a in pool if a.cards == best.cards]
        # HA13's announcement, and MM9's going-out call (which names no suit): always made
        options = [a for a in options if a.announce] or options
        if any(a.suit is not None for a in options):
            suit = favourite_suit(observation.hand, best.cards, rules)
            options = [a for a in options if a.suit == suit] or options
        return options[0]


def favourite_suit(hand: Sequence[Card], playing: Sequence[Card] | None, rules: Rules) -> Suit:
    """The suit the hand (less the cards being played) holds most of, wild cards aside;
    ties: the suit worth most points, then the first (greedy's and expert's choice)."""
    rest = list(hand)
    for c in playing or ():
        rest.remove(c)
    count: Counter[Suit] = Counter()
    value: Counter[Suit] = Counter()
    for c in rest:
        if c.suit is not None and not rules.rule_of(c).wild:
            count[c.suit] += 1
            value[c.suit] += rules.points[c.rank]
    return max(Suit, key=lambda s: (count[s], value[s], -int(s)))
