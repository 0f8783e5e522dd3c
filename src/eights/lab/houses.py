"""House rules drawn at random from the rules' whole space, seeded.

A house-rules file is a preset (or the defaults) with some of its fields changed: the
draw policy, the calls, the scoring, the deck, what some ranks do. :func:`random_table`
draws one such file as a table (the TOML a player would write, ``extends`` included);
:func:`random_house` loads it (:func:`~eights.engine.rules.load_rules` validates every
key and every combination, and a draw it refuses is drawn again); :func:`write_house`
writes the table as a TOML file that ``eights play -r FILE`` reads, and
:func:`house_files` writes a numbered set of them.

Every mechanism of :class:`~eights.engine.rules.Rules` and
:class:`~eights.engine.rules.CardRule` can be drawn (:data:`GLOBAL_CHOICES`,
:data:`CARD_CHOICES`); a draw is a few changes from a base, so most houses stay close to a
playable game, as a real house's changes are. The learned family model trains on these
(:mod:`eights.learn.family`), and its measurements use houses of other seeds.

Nothing here imports anything but the engine; every random choice flows from the
``random.Random`` given.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from eights.engine.errors import RulesError
from eights.engine.rules import CARD_NEEDS, Rules, load_rules, preset_names

__all__ = ["CARD_CHOICES", "GLOBAL_CHOICES", "house_files", "house_players", "plays_like",
           "random_house", "random_table", "toml_text", "write_house"]

_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
_SUITS = "cdhs"


def _one(*values: Any) -> Callable[[random.Random], Any]:
    return lambda rng: rng.choice(values)


def _ranks_subset(rng: random.Random) -> list[str]:
    kind = rng.random()
    if kind < 0.4:
        return ["7", "8", "9", "T", "J", "Q", "K", "A"]
    if kind < 0.8:
        return ["6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    keep = sorted(rng.sample(range(13), rng.randint(8, 12)))
    return [_RANKS[i] for i in keep]


def _points(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return rng.randint(1, 3)
    return {r: rng.choice((1, 2, 5, 10, 20, 25, 50)) for r in rng.sample(_RANKS, 5)}


GLOBAL_CHOICES: dict[str, Callable[[random.Random], Any]] = {
    "decks": lambda rng: rng.choice((1, [[2, 1], [5, 2]], [[2, 1], [7, 2]], 2)),
    "jokers": _one(0, 1, 2),
    "ranks": _ranks_subset,
    "hand_size": lambda rng: rng.choice((rng.randint(4, 8), [[2, 7], [5, 5]],
                                         [[2, 8], [4, 6], [7, 4]])),
    "starter_redraw": lambda rng: rng.sample(["8", "2", "A", "J", "7"], rng.randint(0, 3)),
    "starter_effects": _one(True, False),
    "starter_wild": _one("plain", "any", "dealer-names", "first-names"),
    "draw": _one("one-end", "one-may-play", "one-must-play", "until-playable", "repeat"),
    "max_draws": _one(0, 1, 2, 3, 5),
    "multi_play": _one("none", "same-rank"),
    "voluntary_draw": _one(True, False),
    "voluntary_pass": _one(True, False),
    "replace_after_play": _one(True, False),
    "hand_limit": _one(0, 10, 12, 15),
    "overflow": _one(True, False),
    "reshuffle": _one(True, False),
    "announce_last_card": _one(True, False),
    "announce_penalty": _one(1, 2, 3),
    "call_out": _one(True, False),
    "call_out_penalty": _one(1, 2, 4),
    "out_penalty": _one(1, 2, 5),
    "special_cards": lambda rng: rng.random() < 0.85,
    "forced_draw_ends_turn": _one(True, False),
    "reverse_two": _one("none", "skip"),
    "max_plays": _one(0, 0, 60, 150),
    "extra_passes_to_block": _one(0, 1, 2),
    "block_on_repetition": lambda rng: rng.random() < 0.8,
    "served_draw_counts_as_pass": _one(True, False),
    "serve_last_draw": _one(True, False),
    "play_on": _one(True, False),
    "scoring": _one("own-hand", "winner-collects", "rounds-won", "placings"),
    "blocked_scoring": _one("own-hand", "collect", "difference"),
    "points": _points,
    "target": _one(0, 1, 5, 20, 100, 250, 500),
    "rounds": _one(0, 1, 3, 10),
    "teams": _one([], [4], [4, 6]),
}
"""The fields of a house file that :func:`random_table` may change, each with how a value
is drawn (every value the loader accepts is reachable, within sensible sizes)."""


def _card_items(rng: random.Random) -> list[str]:
    items = rng.sample(_RANKS, rng.randint(1, 2))
    if rng.random() < 0.3:
        items.append(rng.choice(_RANKS) + rng.choice(_SUITS))
    return items


CARD_CHOICES: dict[str, Callable[[random.Random], Any]] = {
    "wild": _one(True),
    "name_suit": _one(True),
    "wild_if": _one("always", "no-suit"),
    "not_on": lambda rng: rng.sample(_RANKS, rng.randint(1, 2)),
    "takes_covered_rank": _one(True),
    "transparent": _one(True),
    "draw": _one(1, 2, 2, 3, 4, 5),
    "stack": _one(True),
    "stack_with": _card_items,
    "cancelled_by": _card_items,
    "skip": _one(True),
    "pass_on": _one(True),
    "reverse": _one(True),
    "again": _one(True),
    "again_penalty": _one(1, 2),
    "any_follows": _one(True),
    "out_multiplier": _one(2, 3),
    "must_cover": _one(True),
    "going_out": _one("yes", "suit", "no", "penalty"),
}
"""The fields of a ``[cards.<rank>]`` (or ``[cards.<card>]``) table, each with how a value
is drawn."""

_NEEDS: dict[str, tuple[str, ...]] = {
    **{name: (needed,) for name, needed in CARD_NEEDS.items()}, "name_suit": ("wild",),
}
"""Card fields that mean nothing without another (:data:`~eights.engine.rules.CARD_NEEDS`,
and a suit named by a wild card), drawn with it, so that fewer draws are refused."""


def _card_table(rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for key in rng.sample(sorted(CARD_CHOICES), rng.randint(1, 3)):
        for need in _NEEDS.get(key, ()):
            body.setdefault(need, CARD_CHOICES[need](rng))
        body[key] = CARD_CHOICES[key](rng)
    return body


def random_table(rng: random.Random, name: str = "house",
                 bases: Sequence[str] | None = None) -> dict[str, Any]:
    """A house-rules file as a table (not yet checked: :func:`random_house` checks it):
    ``extends`` one of ``bases`` (the presets by default) or nothing, some global fields
    changed, some ranks (and now and then one card) given new rules."""
    base_names = list(preset_names() if bases is None else bases)
    table: dict[str, Any] = {}
    if base_names and rng.random() < 0.85:
        table["extends"] = rng.choice(base_names)
    table["name"] = name
    table["title"] = f"House rules {name}"
    table["players"] = [2, 10]
    table["default_players"] = 4
    changes = rng.randint(1, 6) if "extends" in table else rng.randint(3, 9)
    for key in rng.sample(sorted(GLOBAL_CHOICES), changes):
        table[key] = GLOBAL_CHOICES[key](rng)
    if "extends" not in table:
        table.setdefault("cards", {})["8"] = {"wild": True, "name_suit": True}
    cards: dict[str, Any] = table.setdefault("cards", {})
    for rank in rng.sample(_RANKS, rng.randint(0 if "extends" in table else 1, 3)):
        cards[rank] = _card_table(rng)
    if rng.random() < 0.15:
        cards[rng.choice(_RANKS) + rng.choice(_SUITS)] = _card_table(rng)
    if table.get("jokers") or rng.random() < 0.1:
        cards["X"] = {"wild": True, **_card_table(rng)}
    if not cards:
        del table["cards"]
    return table


def random_house(rng: random.Random, name: str = "house", bases: Sequence[str] | None = None,
                 tries: int = 1000) -> tuple[Rules, dict[str, Any]]:
    """Rules drawn by :func:`random_table` that the loader accepts (a refused draw is drawn
    again, from the same generator) and that some player count from 2 to 10 can play;
    returns them with their table."""
    for _ in range(tries):
        table = random_table(rng, name, bases)
        try:
            rules = load_rules(table)
        except RulesError:
            continue
        if house_players(rules):
            return rules, table
    raise RuntimeError(f"no valid house rules in {tries} draws")  # pragma: no cover


def house_players(rules: Rules, most: int = 10) -> list[int]:
    """The player counts from 2 to ``most`` that ``rules`` allow (deck large enough)."""
    out = []
    for n in range(2, most + 1):
        try:
            rules.check_players(n)
        except RulesError:
            continue
        out.append(n)
    return out


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(table: Mapping[str, Any], comment: str = "") -> str:
    """``table`` (a rules file's keys, ``points`` and ``cards`` as tables) as TOML text."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [f"{k} = {_value(v)}" for k, v in table.items() if not isinstance(v, Mapping)]
    points = table.get("points")
    if isinstance(points, Mapping):
        lines.append("\n[points]")
        lines += [f'"{k}" = {_value(v)}' for k, v in points.items()]
    for key, body in dict(table.get("cards", {})).items():
        lines.append(f'\n[cards."{key}"]')
        lines += [f"{k} = {_value(v)}" for k, v in body.items()]
    return "\n".join(lines) + "\n"


def write_house(table: Mapping[str, Any], path: Path, comment: str = "") -> Path:
    """Write ``table`` as a rules file at ``path`` (checked: it must load to the same
    rules as the table)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = toml_text(table, comment)
    path.write_text(text, "utf-8")
    if load_rules(path) != load_rules(dict(table)):  # pragma: no cover - a writer bug
        raise RuntimeError(f"{path} does not read back as the rules it was written from")
    return path


_NOT_PLAY = ("name", "title", "source", "players", "default_players", "last_card_call",
             "out_call")
"""Fields that do not change how a table of a given player count plays."""


def plays_like(rules: Rules, other: Rules) -> bool:
    """Whether two rule sets differ only in fields that do not change play
    (:data:`_NOT_PLAY`)."""
    def played(r: Rules) -> dict[str, Any]:
        table = r.to_table()
        for key in _NOT_PLAY:
            table.pop(key, None)
        return table
    return played(rules) == played(other)


def house_files(seed: int, count: int, folder: Path, prefix: str = "house") -> list[Path]:
    """``count`` house-rules files drawn from ``seed``, written to ``folder`` as
    ``<prefix>-<seed>-<i>.toml``; a draw that plays exactly as the preset it extends is
    drawn again (a house file changes something)."""
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        name = f"{prefix}-{seed}-{i:02d}"
        while True:
            rules, table = random_house(rng, name)
            base = table.get("extends")
            if base is None or not plays_like(rules, load_rules(base)):
                break
        paths.append(write_house(table, Path(folder) / f"{name}.toml",
                                 f"drawn by eights.lab.houses.house_files(seed={seed}), "
                                 f"number {i}"))
    return paths
