"""Bots: anything with ``choose(observation, legal, rng) -> action``.

A bot sees the game only through :meth:`eights.engine.game.Game.observe`: it is
handed its observation, the legal actions and a generator it must use for any
random choice (so a seeded game is reproducible). Bots are made by name, with
options after colons: ``greedy``, ``random``, ``ismcts:time=0.5:rollout=greedy``.

- :mod:`eights.bots.basic`: the interface, ``random`` and ``greedy``;
- :mod:`eights.bots.expert`: a heuristic that reads the public moves;
- :mod:`eights.bots.worlds`: deals of the unseen cards consistent with an observation;
- :mod:`eights.bots.belief`: the belief model (NumPy): where each unseen card lies;
- :mod:`eights.bots.ismcts`: information-set search over those worlds;
- :mod:`eights.bots.learned`: a network trained on the expert's play and by self-play
  (:mod:`eights.learn`), run in NumPy.

The options a bot takes, and their types, are read from its factory's
signature (:func:`bot_options`): a spec is checked and its values converted
before the bot is made, and a mistake names the option, the value and what
is allowed.

>>> make_bot("greedy").name
'greedy'
>>> make_bot("ismcts:iterations=lots")
Traceback (most recent call last):
...
ValueError: bot 'ismcts': option iterations must be a whole number, not 'lots'
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from eights.bots.basic import Bot, GreedyBot, RandomBot
from eights.bots.expert import ExpertBot
from eights.bots.ismcts import ISMCTSBot
from eights.bots.learned import LearnedBot
from eights.engine.rules import Rules

__all__ = ["BOTS", "Bot", "BotOption", "ExpertBot", "GreedyBot", "ISMCTSBot", "LearnedBot", "RandomBot",
           "bot_options", "check_table", "make_bot", "parse_bot_spec"]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "ismcts": ISMCTSBot,
    "learned": LearnedBot,
}
"""Bot factories by name; options are passed as keyword arguments."""

_WORDS = {int: "a whole number", float: "a number", bool: "true or false", str: "a word"}
_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True, slots=True)
class BotOption:
    """One keyword of a bot factory, as its signature declares it."""

    name: str
    kind: type
    """``int``, ``float``, ``bool`` or ``str``: what the text of a value becomes."""
    default: Any
    """The default (``inspect.Parameter.empty`` when the option is required)."""
    choices: tuple[str, ...] = ()
    """The allowed words, for an option typed ``Literal["a", "b"]``."""

    @property
    def allowed(self) -> str:
        """What the option takes, in words."""
        return " or ".join(self.choices) if self.choices else _WORDS[self.kind]

    def convert(self, raw: str) -> Any:
        """The value of ``raw`` for this option; :class:`ValueError` if it is not one."""
        if self.choices:
            if raw in self.choices:
                return raw
        elif self.kind is bool:
            if raw.lower() in _TRUE + _FALSE:
                return raw.lower() in _TRUE
        elif self.kind is float:
            for kind in (int, float):  # 2 stays 2, as written
                try:
                    return kind(raw)
                except ValueError:
                    continue
        elif self.kind is int:
            try:
                return int(raw)
            except ValueError:
                pass
        else:
            return raw
        raise ValueError(f"option {self.name} must be {self.allowed}, not {raw!r}")


def _kind(hint: Any, default: Any) -> tuple[type, tuple[str, ...]]:
    """The value type (and choices) of a parameter hint: ``int | None`` is ``int``."""
    if typing.get_origin(hint) is typing.Literal:
        return str, tuple(str(c) for c in typing.get_args(hint))
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        kinds = [k for k in typing.get_args(hint) if k is not type(None)]
        if len(kinds) == 1:
            return _kind(kinds[0], default)
    if hint in _WORDS:
        return hint, ()
    if type(default) in _WORDS:
        return type(default), ()
    return str, ()


def bot_options(name: str) -> dict[str, BotOption] | None:
    """The options of bot ``name``, read from its factory's signature; ``None`` when they
    cannot be known (a factory taking ``**kwargs`` or without a readable signature).

    >>> [(o.name, o.kind.__name__) for o in bot_options("expert").values()][:2]
    [('block', 'float'), ('points', 'float')]
    >>> bot_options("greedy")
    {}
    """
    factory = BOTS[name]
    try:
        signature = inspect.signature(factory)
        target = factory.__init__ if isinstance(factory, type) else factory  # type: ignore[misc]
        hints = typing.get_type_hints(target) if target is not object.__init__ else {}
    except (TypeError, ValueError, NameError):
        return None
    options: dict[str, BotOption] = {}
    for p in signature.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            return None
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            kind, choices = _kind(hints.get(p.name, p.annotation), p.default)
            options[p.name] = BotOption(p.name, kind, p.default, choices)
    return options


def _guess(raw: str) -> Any:
    """A value of unknown type: an int, else a float, else the text."""
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value:key=value`` into a name and typed options.

    For a bot of :data:`BOTS` the options are checked against its signature and
    converted to their declared types; :class:`ValueError` names an unknown option
    (listing the allowed ones) or a value of the wrong type. Other names keep their
    options as written (numbers converted).

    >>> parse_bot_spec("ismcts:time=0.5:rollout=greedy")
    ('ismcts', {'time': 0.5, 'rollout': 'greedy'})
    >>> parse_bot_spec("expert:depth=2")
    Traceback (most recent call last):
    ...
    ValueError: bot 'expert' has no option 'depth'; its options are block, follow, points, reserve, suit
    """
    name, *parts = spec.strip().split(":")
    name = name.lower()
    known = bot_options(name) if name in BOTS else None
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, raw = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot option {part!r} in {spec!r} is not key=value "
                             "(e.g. ismcts:time=0.5)")
        if key in options:
            raise ValueError(f"bot {name!r}: option {key} is given twice in {spec!r}")
        if known is None:
            options[key] = _guess(raw)
            continue
        option = known.get(key)
        if option is None:
            allowed = (f"its options are {', '.join(sorted(known))}" if known
                       else "it takes no options")
            raise ValueError(f"bot {name!r} has no option {key!r}; {allowed}")
        try:
            options[key] = option.convert(raw)
        except ValueError as exc:
            raise ValueError(f"bot {name!r}: {exc}") from None
    return name, options


def make_bot(spec: str) -> Bot:
    """A bot from its spec (``greedy``, ``random``, with ``:key=value`` options)."""
    name, options = parse_bot_spec(spec)
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join(sorted(BOTS))}")
    try:
        return factory(**options)
    except TypeError as exc:  # a factory whose options could not be read
        raise ValueError(f"bot {name!r} does not take the options {', '.join(sorted(options))} "
                         f"({exc})") from None


def check_table(bot: Bot, rules: Rules, players: int) -> None:
    """Raise :class:`ValueError`, saying why, unless ``bot`` can play ``rules`` with
    ``players``: a bot that needs something made for its table says so in a ``check_table``
    method (the learned bot given a model of one rule set, ``learned:model=PATH``: only its
    own table; the shipped family model plays every table), and so does the search whose
    prior is such a bot (``ismcts:prior=learned``). Other bots play every table.

    >>> from eights.engine.rules import load_rules
    >>> check_table(make_bot("ismcts:prior=learned"), load_rules("classic"), 2)
    >>> check_table(make_bot("learned"), load_rules("classic", ["target=20"]), 3)
    """
    parts: list[object] = [bot]
    if isinstance(bot, ISMCTSBot) and bot.prior is not None:
        parts.append(bot.prior)
    for part in parts:
        check = getattr(part, "check_table", None)
        if callable(check):
            check(rules, players)
