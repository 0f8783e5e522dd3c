"""Bots: anything with ``choose(observation, legal, rng) -> action``.

A bot sees the game only through :meth:`eights.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible). Bots are made by name, with
options after colons: ``greedy``, ``random``, ``ismcts:time=0.5:rollout=greedy``.

>>> make_bot("greedy").name
'greedy'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from eights.actions import DRAW, PASS, TAKE, Action
from eights.cards import Card, Rank, Suit
from eights.observation import Observation

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "parse_bot_spec"]


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
    - always announces its last card (HA13), plays a drawn card it may play,
      and declines the LH5 extra card.
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
        if any(a.suit is not None for a in options):
            suit = self._favourite_suit(observation.hand, card, wild, points)
            options = [a for a in options if a.suit == suit] or options
        announced = [a for a in options if a.announce]
        return announced[0] if announced else options[0]

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


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot}
"""Bot factories by name; options are passed as keyword arguments."""


def _register_search_bots() -> None:
    """The bots that live in their own modules (they import this one)."""
    from eights.expert import ExpertBot
    from eights.ismcts import ISMCTSBot

    BOTS.setdefault("expert", ExpertBot)
    BOTS.setdefault("ismcts", ISMCTSBot)


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value:key=value`` into a name and typed options.

    >>> parse_bot_spec("ismcts:time=0.5:rollout=greedy")
    ('ismcts', {'time': 0.5, 'rollout': 'greedy'})
    """
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot option {part!r} in {spec!r} is not key=value "
                             "(e.g. ismcts:time=0.5)")
        value: Any = raw
        for kind in (int, float):
            try:
                value = kind(raw)
                break
            except ValueError:
                continue
        options[key] = value
    return name.lower(), options


def make_bot(spec: str) -> Bot:
    """A bot from its spec (``greedy``, ``random``, with ``:key=value`` options)."""
    name, options = parse_bot_spec(spec)
    _register_search_bots()
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    try:
        return factory(**options)
    except TypeError:
        raise ValueError(f"bot {name!r} does not take the options "
                         f"{', '.join(sorted(options))}") from None
