"""House rules sent over the network: a rules object checked exactly as a rules file is.

``POST /api/tables`` takes ``rules`` as a preset name or as an object with the keys of a
rules file (``extends`` and every field, card tables and lists included). The object is
checked by the rules' own loader (:func:`eights.engine.rules.load_rules`, fed the object,
never a path) after three checks of its own: its size (:data:`RULES_BYTES` of JSON,
:data:`RULES_DEPTH` levels, :data:`RULES_ENTRIES` keys and items), ``extends`` naming a
preset (a server reads no file, and a path in ``extends`` would name one), and this
server's caps on the numbers that set the cards in play (:data:`CAPS`, as for
``overrides``). Whatever is wrong is a :class:`~eights.engine.errors.RulesError` in the
rules' words; nothing is stored before it passes.

The same check serves the New table form as it is filled in (``POST /api/rules/check``),
which also reads a TOML file's text (:func:`read_toml`), and the form's fields come from
:func:`form_schema` (``GET /api/rules/schema``): every key the loader takes, grouped as a
player thinks of them (:mod:`eights.i18n.fields`), with its type, bounds, choices and
words, and every preset's values to start from.

>>> house_rules({"extends": "switch", "target": 3}).target
3
>>> try:
...     house_rules({"extends": "/etc/house.toml"})
... except RulesError as exc:
...     print(str(exc).split(" (")[0])
inline rules: key 'extends' must name a preset
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from typing import Any

import orjson

from eights.engine.cards import RANKS, Card, Rank
from eights.engine.errors import NotationError, RulesError
from eights.engine.rules import CardRule, Rules, load_rules, preset_names
from eights.engine.schema import rules_schema
from eights.i18n import Translator, translator
from eights.i18n.explain import card_effects, describe, ranks_words
from eights.i18n.fields import (
    CARD_FIELDS,
    CHOICES,
    FROM_PLAYERS,
    GROUPS,
    LINE,
    NO,
    YES,
    choice_words,
    field_words,
)
from eights.i18n.text import card_label
from eights.lab.houses import toml_text

__all__ = ["CAPS", "CARD_CAPS", "RULES_BYTES", "RULES_DEPTH", "RULES_ENTRIES", "change_words",
           "check_caps", "error_field", "form_schema", "house_rules", "house_toml", "read_toml",
           "table_rules_of"]

ORIGIN = "inline rules"
"""How the rules' loader names an object it is given (its errors begin so)."""

RULES_BYTES = 8 * 1024
"""Largest rules object, as compact JSON (a house file of every field is about 3 KiB)."""
RULES_DEPTH = 4
"""Deepest nesting of a rules object: the object, ``cards``, a rank's table, a list."""
RULES_ENTRIES = 600
"""Most keys and list items in a rules object, counted at every level."""

CAPS: dict[str, int | None] = {
    "target": None, "rounds": None, "jokers": 4, "decks": 3, "hand_size": 12,
    "hand_limit": 60, "max_draws": 60, "announce_penalty": 10,
    "announce_last_card": None, "voluntary_draw": None, "voluntary_pass": None,
    "special_cards": None, "reshuffle": None, "starter_effects": None, "starter_wild_any": None,
    "replace_after_play": None, "overflow": None, "draw": None, "scoring": None,
    "blocked_scoring": None, "starter_wild": None, "reverse_two": None,
    "forced_draw_ends_turn": None, "serve_last_draw": None, "out_penalty": 10, "call_out": None,
    "call_out_penalty": 10, "multi_play": None, "play_on": None,
}
"""Rules fields a table's ``overrides`` may change. The rules check every value (one source
of truth for what a rule allows); a number here is this server's own cap on top of them (it
bounds the cards in play, so the work of every move), ``None`` for no cap. A rules object
may set any field; the numbers here are capped there too."""

CARD_CAPS: dict[str, int | None] = {
    "wild": None, "name_suit": None, "skip": None, "reverse": None, "draw": 10, "stack": None,
    "again": None, "again_penalty": 10, "pass_on": None, "must_cover": None, "going_out": None,
    "out_multiplier": 4, "any_follows": None,
}
"""Fields of a card table ``overrides`` may change, as ``cards.<rank or card>.<field>``
(``cards.8.pass_on``, ``cards.Jc.draw``), with this server's caps as in :data:`CAPS`. Lists
(``stack_with``, ``cancelled_by``, ``not_on``) go in a rules object."""


# --------------------------------------------------------------------------- checking


def _shape(value: Any, depth: int) -> int:
    """The keys and items in ``value`` (raising past :data:`RULES_DEPTH`)."""
    if isinstance(value, Mapping):
        items: Any = value.values()
        count = len(value)
    elif isinstance(value, list):
        items, count = value, len(value)
    else:
        return 0
    if depth >= RULES_DEPTH:
        raise RulesError(f"{ORIGIN}: nested {depth + 1} levels deep; a rules object is at "
                         f"most {RULES_DEPTH} (the object, cards, a rank's table, a list)")
    return count + sum(_shape(v, depth + 1) for v in items)


def check_size(rules: Mapping[str, Any]) -> None:
    """Refuse a rules object past the bounds on its size (:data:`RULES_BYTES`,
    :data:`RULES_DEPTH`, :data:`RULES_ENTRIES`), before anything reads it."""
    entries = _shape(rules, 0)
    if entries > RULES_ENTRIES:
        raise RulesError(f"{ORIGIN}: {entries} keys and items; a rules object holds at most "
                         f"{RULES_ENTRIES}")
    try:
        size = len(orjson.dumps(rules))
    except (TypeError, orjson.JSONEncodeError):
        raise RulesError(f"{ORIGIN}: not a JSON object of a rules file's keys") from None
    if size > RULES_BYTES:
        raise RulesError(f"{ORIGIN}: {size} bytes as JSON; a rules object is at most "
                         f"{RULES_BYTES} bytes (every field of a rules file takes about 3000)")


def _capped(key: str, value: Any, top: int | None) -> None:
    if top is None:
        return
    numbers = [value] if type(value) is int else (
        [pair[1] for pair in value if isinstance(pair, list) and len(pair) == 2
         and type(pair[1]) is int] if isinstance(value, list) else [])
    for number in numbers:
        if number > top:
            raise RulesError(f"{ORIGIN}: key {key!r} has bad value {number!r}; allowed on this "
                             f"server: at most {top}")


def check_caps(rules: Mapping[str, Any]) -> None:
    """This server's caps (:data:`CAPS`, :data:`CARD_CAPS`) on the numbers a rules object
    sets (those it inherits from its preset are the preset's own)."""
    for key, value in rules.items():
        if key == "cards" and isinstance(value, Mapping):
            for where, table in value.items():
                if isinstance(table, Mapping):
                    for name, item in table.items():
                        _capped(f"cards.{where}.{name}", item, CARD_CAPS.get(name))
        else:
            _capped(key, value, CAPS.get(key))


def house_rules(rules: Mapping[str, Any]) -> Rules:
    """The rules of a rules object, checked as a rules file is (:func:`load_rules` on the
    object), within this server's bounds; :class:`RulesError` in the rules' words."""
    check_size(rules)
    parent = rules.get("extends")
    if parent is not None and parent not in preset_names():
        raise RulesError(f"{ORIGIN}: key 'extends' must name a preset "
                         f"({', '.join(preset_names())}): a server reads no rules file")
    check_caps(rules)
    return load_rules(dict(rules))


def table_rules_of(preset: str, overrides: Mapping[str, Any],
                   house: Mapping[str, Any] | None) -> Rules:
    """The rules of a stored table: its rules object, else its preset with its overrides."""
    if house is not None:
        return house_rules(house)
    return load_rules(preset, overrides)


def read_toml(text: str) -> dict[str, Any]:
    """A rules file's text as a rules object (not checked yet: :func:`house_rules`)."""
    if len(text.encode("utf-8", "surrogatepass")) > RULES_BYTES:
        raise RulesError(f"rules file: more than {RULES_BYTES} bytes; a house-rules file is "
                         "at most that")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file: not valid TOML: {exc}") from None


_KEY = re.compile(r"key '([a-z_]+(?:\.[^'\s.]+\.[a-z_]+)?)'|\b(cards\.[^\s.']+\.[a-z_]+)\b"
                  r"|'([a-z_]+)'")


def error_field(message: str) -> str | None:
    """The key a rules error is about (``cards.2.stack_with``, ``jokers``), where it names
    one the form has, so that the page shows the message beside it; else ``None``.

    >>> error_field("inline rules: cards.2.stack_with lists Jc, which has no 'draw': ...")
    'cards.2.stack_with'
    >>> error_field("inline rules: key 'target' has bad value -1; allowed: ...")
    'target'
    """
    known = {key for _id, _title, keys in GROUPS for key in keys}
    for match in _KEY.finditer(message):
        key = next(g for g in match.groups() if g)
        if key.startswith("cards.") and key.rsplit(".", 1)[1] in CARD_FIELDS:
            return key
        if key in known:
            return key
    return None


# --------------------------------------------------------------------------- words and TOML


def house_object(preset: str, overrides: Mapping[str, Any],
                 house: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A table's rules as a rules file's object: its rules object, or ``extends`` its
    preset with its overrides in tables (``cards.8.pass_on`` as ``[cards.8]``); ``None`` for
    a preset as it is."""
    if house is not None:
        return dict(house)
    if not overrides:
        return None
    table: dict[str, Any] = {"extends": preset}
    for key, value in overrides.items():
        node = table
        *path, last = key.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return table


def house_toml(house: Mapping[str, Any]) -> str:
    """A rules object as the text of a house-rules file (``extends`` first), for
    ``eights play -r house.toml``."""
    ordered = {k: house[k] for k in ("extends", "title", "name") if k in house}
    ordered.update((k, v) for k, v in house.items() if k not in ordered)
    return toml_text(ordered)


def _value_words(key: str, value: Any, tr: Translator) -> str:
    if isinstance(value, bool):
        return tr(YES) if value else tr(NO)
    if isinstance(value, str):
        return choice_words(key.rsplit(".", 1)[-1], value, tr)
    if isinstance(value, list):
        return ", ".join(_value_words(key, v, tr) if not isinstance(v, list)
                         else tr(FROM_PLAYERS, value=v[1], n=v[0])
                         for v in value)
    return str(value)


def _where_words(where: str, tr: Translator) -> str:
    """A card table's key in words: ``8`` is "8s", ``Js`` is "J♠"."""
    try:
        return card_label(Card.parse(where), tr)
    except NotationError:
        try:
            rank = Rank.parse(where)
        except NotationError:
            return where
        return ranks_words(frozenset({rank}), tr)


def change_words(house: Mapping[str, Any], lang: str) -> list[str]:
    """What a rules object changes from the preset it extends, one line a key, in words:
    "Jokers per deck: 2", "8s · Stacks with: 2, Jc"."""
    tr = translator(lang)
    lines: list[str] = []
    for key, value in house.items():
        if key == "extends":
            continue
        if key == "cards" and isinstance(value, Mapping):
            for where, table in value.items():
                if not isinstance(table, Mapping):
                    continue
                for name, item in table.items():
                    if name in CARD_FIELDS:
                        label = field_words(name, tr, card=True)[0]
                        said = tr(LINE, label=label, value=_value_words(name, item, tr))
                        where_words = _where_words(str(where), tr)
                        lines.append(f"{where_words[:1].upper()}{where_words[1:]} · {said}")
            continue
        if key == "points" and isinstance(value, Mapping):
            label = field_words("points", tr)[0]
            lines.append(tr(LINE, label=label, value=", ".join(
                f"{_where_words(str(r), tr)} {p}" for r, p in value.items())))
            continue
        known = key in {k for _id, _title, keys in GROUPS for k in keys}
        label = field_words(key, tr)[0] if known else key
        lines.append(tr(LINE, label=label, value=_value_words(key, value, tr)))
    return lines


# --------------------------------------------------------------------------- the form


_PAIR = {"players"}
_STEPS = {"decks", "hand_size"}
_RANKS = {"ranks", "starter_redraw", "not_on"}
_CARDS = {"stack_with", "cancelled_by"}


def _kind(key: str, prop: Mapping[str, Any], cap: int | None) -> dict[str, Any]:
    """What kind of input a key takes, and its bounds and choices."""
    if key in _PAIR:
        item = prop["items"]
        return {"kind": "pair", "min": item["minimum"], "max": item["maximum"]}
    if key in _STEPS:
        number = prop["anyOf"][0]
        high = number["maximum"] if cap is None else min(cap, number["maximum"])
        return {"kind": "steps", "min": number["minimum"], "max": high}
    if key in _RANKS:
        return {"kind": "ranks"}
    if key in _CARDS:
        return {"kind": "cards"}
    if key == "teams":
        return {"kind": "teams"}
    if key == "points":
        return {"kind": "points"}
    if key == "cards":
        return {"kind": "card_tables"}
    if prop.get("type") == "boolean":
        return {"kind": "bool"}
    if prop.get("type") == "integer":
        high = prop["maximum"] if cap is None else min(cap, prop["maximum"])
        return {"kind": "int", "min": prop["minimum"], "max": high}
    if "enum" in prop:
        return {"kind": "choice", "choices": list(prop["enum"])}
    return {"kind": "text", "max": 60}


@cache
def _preset_tables() -> dict[str, dict[str, Any]]:
    return {name: load_rules(name).to_table() for name in preset_names()}


@cache
def form_schema(lang: str) -> dict[str, Any]:
    """The New table form's house rules, in ``lang``: the groups and their fields (key,
    label, sentence, kind, bounds, choices in words), the fields of a card table, every
    preset's values (``to_table``: the form starts from them), and a plain card's."""
    tr = translator(lang)
    schema = rules_schema()
    props = schema["properties"]
    card_props = schema["$defs"]["card"]["properties"]

    def field(key: str, prop: Mapping[str, Any], cap: int | None, card: bool) -> dict[str, Any]:
        label, about = field_words(key, tr, card=card)
        out = {"key": key, "label": label, "about": about, **_kind(key, prop, cap)}
        if out["kind"] == "choice":
            out["words"] = {v: choice_words(key, v, tr) for v in out["choices"]}
        return out

    groups = [{"id": group, "title": tr(title),
               "fields": [field(k, props[k], CAPS.get(k), False) for k in keys]}
              for group, title, keys in GROUPS]
    plain = CardRule()
    return {
        "lang": tr.lang,
        "groups": groups,
        "card_fields": [field(k, card_props[k], CARD_CAPS.get(k), True) for k in CARD_FIELDS],
        "plain": {f.name: card_props[f.name]["default"] for f in fields(plain)},
        "ranks": [rank.letter for rank in (*RANKS, Rank.JOKER)],
        "presets": _preset_tables(),
        "bounds": {"bytes": RULES_BYTES, "depth": RULES_DEPTH, "entries": RULES_ENTRIES},
        "choices": sorted(CHOICES),
    }


def rules_words(rules: Rules, lang: str) -> list[str]:
    """The rules in words, as ``eights rules show`` prints them."""
    return describe(rules, translator(lang))


def rank_words(rules: Rules, lang: str) -> dict[str, list[str]]:
    """For each rank, the lines of the rules in words about it (those of the special cards
    that name it: "Queens: the next player loses their turn."), for the form's card tables.

    >>> rank_words(load_rules("huit-fou"), "en")["Q"]
    ['Queens: the next player loses their turn.']
    """
    tr = translator(lang)
    lines = card_effects(rules, tr)
    found: dict[str, list[str]] = {}
    for rank in (*RANKS, Rank.JOKER):
        name = re.escape(ranks_words(frozenset({rank}), tr).lower())
        said = [line for line in lines
                if re.search(rf"(?<!\w){name}(?!\w)", line.split(":")[0].lower())]
        if said:
            found[rank.letter] = said
    return found
