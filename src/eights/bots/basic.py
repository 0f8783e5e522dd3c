"""The bot interface and the two simple bots, ``random`` and ``greedy``.

A bot sees the game only through :meth:`eights.engine.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from eights.engine.actions import DRAW, NAMES, PASS, TAKE, Action, Kind
from eights.engine.cards import Card, Suit
from eights.engine.observation import Observation
from eights.engine.tables import Tables, tables_for

if TYPE_CHECKING:
    from eights.engine.rules import Rules

__all__ = ["Bot", "GreedyBot", "RandomBot", "favourite_suit", "greedy_choice"]


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
        return greedy_choice(legal, observation.hand, tables_for(observation.rules))


def greedy_choice(legal: Sequence[Action], hand: Sequence[int], tables: Tables) -> Action:
    """The greedy bot's choice among ``legal``, read off the hand of the seat to move and
    the rule set's tables: :class:`GreedyBot` plays it from an observation, ISMCTS's
    rollouts from a game's hand (and the compiled kernel's ``greedy`` policy plays the same,
    choice for choice).

    Ties between plays shedding as many points and cards go to the higher top card.
    """
    points, wild = tables.points, tables.wild
    best: Action | None = None
    best_key = -1
    named = False
    for a in legal:
        cards = a.cards
        if not cards:
            continue
        top = cards[-1]
        shed = points[top >> 2] if len(cards) == 1 else sum(points[c >> 2] for c in cards)
        # plain cards before wild ones, then points, cards, the top card (one key, max first)
        key = (((0 if wild[top] else 1024) + shed) * 16 + len(cards)) * 64 + top
        if key > best_key:
            best, best_key, named = a, key, a.suit is not None
        elif key == best_key and best is not None and cards == best.cards:  # another variant
            if a.announce and not best.announce:
                best = a  # HA13's announcement and MM9's going-out call: always made
            named = named or a.suit is not None
    if best is None:
        if legal[0].kind is Kind.NAME:  # TS3, UC3: name the wild starter's suit
            return NAMES[_favourite(hand, (), tables)]
        if TAKE in legal and PASS in legal:
            return PASS  # LH5: a card in hand is a card to shed
        return DRAW if DRAW in legal else legal[0]
    if named:  # the variant naming the favourite suit, announced if best is
        suit = _favourite(hand, best.cards, tables)
        for a in legal:
            if a.cards == best.cards and a.announce == best.announce and a.suit == suit:
                return a
    return best


def favourite_suit(hand: Sequence[Card], playing: Sequence[Card] | None, rules: Rules) -> Suit:
    """The suit the hand (less the cards being played) holds most of, wild cards aside;
    ties: the suit worth most points, then the first (greedy's and expert's choice)."""
    return Suit(_favourite(hand, playing or (), tables_for(rules)))


def _favourite(hand: Sequence[int], playing: Sequence[int], tables: Tables) -> int:
    """:func:`favourite_suit` of card codes, as a suit index."""
    count = [0, 0, 0, 0]
    value = [0, 0, 0, 0]
    points, wild = tables.points, tables.wild
    for cards, sign in ((hand, 1), (playing, -1)):  # one copy of each card played less
        for c in cards:
            if c < 52 and not wild[c]:
                count[c & 3] += sign
                value[c & 3] += sign * points[c >> 2]
    return max(range(4), key=lambda s: (count[s], value[s], -s))
