"""Bots: anything with ``choose(observation, legal, rng) -> action``.

A bot sees the game only through :meth:`eights.game.Game.observe`; it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded run is reproducible).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from eights.actions import Action
from eights.observation import Observation

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """The bot interface."""

    name: str

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        return legal[int(rng.random() * len(legal))]


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}
"""Bot factories by name."""


def make_bot(name: str) -> Bot:
    """A bot by name (``random``)."""
    factory = BOTS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    return factory()
