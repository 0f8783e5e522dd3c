"""The bot interface and the two simple bots, ``random`` and ``greedy``.

A bot sees the game only through :meth:`eights.engine.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from eights.engine.actions import DRAW, PASS, TAKE, Action
from eights.engine.cards import Card, Rank, Suit
from eights.engine.observation import Observation

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
    - among ordinary plays, the card worth most points (ties: the higher rank);
    - a wild card only when nothing else can be played, naming the suit it holds
      most of (ties: the suit worth most points in hand);
    - always announces its last card (HA13) and calls going out (MM9), plays a
      drawn card it may play, and declines the LH5 extra card.
    """

    name = "greedy"

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        plays = [a for a in legal if a.card is not None]
        if not plays:
            if TAKE in legal and PASS in legal:
                return PASS  # LH5: a card in hand is a card to shed
            return DRAW if DRAW in legal else legal[0]
        rules = observation.rules
        wild = {rank for rank, rule in rules.cards.items() if rule.wild}

        def points(card: Card) -> int:
            return rules.points[card.rank]

        plain = [a for a in plays if a.card is not None and a.card.rank not in wild]
        pool = plain or plays
        best = max(pool, key=lambda a: (points(a.card), a.card.rank, a.card) if a.card else (0, 0, 0))
        card = best.card
        assert card is not None
        options = [a for a in pool if a.card == card]
        # HA13's announcement, and MM9's going-out call (which names no suit): always made
        options = [a for a in options if a.announce] or options
        if any(a.suit is not None for a in options):
            suit = self._favourite_suit(observation.hand, card, wild, points)
            options = [a for a in options if a.suit == suit] or options
        return options[0]

    @staticmethod
    def _favourite_suit(hand: Sequence[Card], playing: Card, wild: set[Rank],
                        points: Callable[[Card], int]) -> Suit:
        rest = list(hand)
        rest.remove(playing)
        count: Counter[Suit] = Counter()
        value: Counter[Suit] = Counter()
        for c in rest:
            if c.suit is not None and c.rank not in wild:
                count[c.suit] += 1
                value[c.suit] += points(c)
        return max(Suit, key=lambda s: (count[s], value[s], -int(s)))
