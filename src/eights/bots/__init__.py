"""Bots: anything with ``choose(observation, legal, rng) -> action``.

A bot sees the game only through :meth:`eights.engine.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible). Bots are made by name, with
options after colons: ``greedy``, ``random``, ``ismcts:time=0.5:rollout=greedy``.

- :mod:`eights.bots.basic`: the interface, ``random`` and ``greedy``;
- :mod:`eights.bots.expert`: a heuristic that reads the public moves;
- :mod:`eights.bots.worlds`: deals of the unseen cards consistent with an observation;
- :mod:`eights.bots.ismcts`: information-set search over those worlds.

>>> make_bot("greedy").name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from eights.bots.basic import Bot, GreedyBot, RandomBot
from eights.bots.expert import ExpertBot
from eights.bots.ismcts import ISMCTSBot

__all__ = ["BOTS", "Bot", "ExpertBot", "GreedyBot", "ISMCTSBot", "RandomBot", "make_bot", "parse_bot_spec"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "ismcts": ISMCTSBot,
}
"""Bot factories by name; options are passed as keyword arguments."""


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
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    try:
        return factory(**options)
    except TypeError:
        raise ValueError(f"bot {name!r} does not take the options "
                         f"{', '.join(sorted(options))}") from None
