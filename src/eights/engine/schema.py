"""The JSON Schema (draft 2020-12) of rules files, generated from the rules themselves.

``eights rules schema`` prints it, so that an editor that reads JSON Schema (VS Code
with Even Better TOML, or any tool built on taplo) checks a house-rules file as it is
typed. Nothing here repeats the rules: the keys, their types and defaults are the
fields of :class:`~eights.engine.rules.Rules` and
:class:`~eights.engine.rules.CardRule`, the descriptions are their docstrings, the
allowed words are the enums' values, the ranges are the loader's
:data:`~eights.engine.rules.LIMITS`, the pairs one card may not set together are
:data:`~eights.engine.rules.CARD_CONFLICTS`, and the fields that need another are the
``needs`` of their declaration (:data:`~eights.engine.rules.NEEDS`).

Its keywords mean the same in the older drafts that some editors still read (taplo
reads draft 4), but for ``prefixItems`` (the ranges of a ``[players, value]`` pair) and
``propertyNames`` (the ranks of ``[cards]`` and ``[points]``), which they skip. A field
that needs another (``again_penalty`` needs ``again``: :data:`~eights.engine.rules.NEEDS`)
says so, and a table that turns the one off while it sets the other fails.

The schema judges one file on its own. What depends on the file it extends (a
``stack`` needs a ``draw``, which may come from the preset) is left to the loader,
which checks the merged rules.

>>> schema = rules_schema()
>>> schema["properties"]["draw"]["enum"]
['one-end', 'one-may-play', 'one-must-play', 'until-playable', 'repeat']
>>> schema["properties"]["default_players"]["maximum"]
20
"""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import Mapping
from dataclasses import MISSING, Field, fields
from enum import Enum
from functools import cache
from itertools import pairwise
from typing import Any

from eights.engine.cards import Card, Rank
from eights.engine.rules import (
    ALIASES,
    CARD_CONFLICTS,
    CARD_NEEDS,
    LIMITS,
    NEEDS,
    NUMBER,
    CardRule,
    Rules,
    Steps,
    preset_names,
)

__all__ = ["SCHEMA_DIALECT", "rules_schema"]

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def rules_schema() -> dict[str, Any]:
    """The JSON Schema of a rules file (a new dict each call)."""
    hints = typing.get_type_hints(Rules)
    docs = _docs(Rules)
    properties: dict[str, Any] = {
        "extends": {
            "type": "string",
            "description": "The preset or rules file this file changes, key by key; a "
                           "path is relative to this file. Without it, the file starts "
                           "from the defaults below.",
            "examples": preset_names(),
        },
    }
    for f in fields(Rules):
        if f.init and "file_key" not in f.metadata:  # card_tables is written in [cards]
            hint = hints[f.name]
            prop = _property(f.name, hint, f.name)
            prop["description"] = docs.get(f.name, "")
            if isinstance(hint, type) and issubclass(hint, Enum):  # say what each word does
                words = _docs(hint)
                prop["description"] += "".join(f" '{m.value}': {words.get(m.value, '')}"
                                               for m in hint)
            prop["default"] = _json(_default(f))
            properties[f.name] = prop
    _say_needs(properties, NEEDS)
    for old, (new, values) in ALIASES.items():  # old keys that still load
        properties[old] = {
            "type": "boolean",
            "description": f"The old name of '{new}': "
                           + ", ".join(f"{str(k).lower()} is '{v}'" for k, v in values.items())
                           + f". Not with '{new}'.",
        }
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "eights rules file",
        "description": "A preset or a house-rules file of eights (TOML). Every key may be "
                       "left out; `eights rules show FILE` checks a whole file, with what "
                       "it extends.",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "allOf": [*({"description": f"'{old}' cannot be combined with '{new}' (its old name)",
                     "not": {"required": [old, new]}} for old, (new, _) in ALIASES.items()),
                  *_needs(properties, NEEDS)],
        "$defs": {"card": _card_schema()},
    }


def _card_schema() -> dict[str, Any]:
    hints = typing.get_type_hints(CardRule)
    docs = _docs(CardRule)
    properties: dict[str, Any] = {}
    for f in fields(CardRule):
        prop = _property(f.name, hints[f.name], f"cards.{f.name}")
        prop["description"] = docs.get(f.name, "")
        prop["default"] = _json(_default(f))
        properties[f.name] = prop
    _say_needs(properties, CARD_NEEDS)
    conflicts = [
        {
            "description": f"'{second}' cannot be combined with '{first}': {reason}",
            "not": {
                "required": [first, second],
                "properties": {first: _truthy(properties[first]),
                               second: _truthy(properties[second])},
            },
        }
        for first, second, reason in CARD_CONFLICTS
    ]
    return {
        "type": "object",
        "description": "What a rank ([cards.J]) or one card ([cards.Js]) does beyond matching "
                       "by suit or rank; a card's table overrides its rank's, field by field.",
        "properties": properties,
        "additionalProperties": False,
        "allOf": [*conflicts, *_needs(properties, CARD_NEEDS)],
    }


def _say_needs(properties: dict[str, Any], needs: Mapping[str, str]) -> None:
    """Say in each field that needs another (:data:`~eights.engine.rules.NEEDS`) that it
    follows that one."""
    for name, needed in needs.items():
        properties[name]["description"] += (
            f" Needs '{needed}': where '{needed}' is off it has nothing to apply to, and a "
            f"file that turns '{needed}' off puts it back to its default.")


def _needs(properties: Mapping[str, Any], needs: Mapping[str, str]) -> list[dict[str, Any]]:
    """A table may not turn a field off and set a field that needs it (the loader refuses
    it too; a field set where the one it needs comes from the file extended is left to
    the loader)."""
    return [{"description": f"'{name}' needs '{needed}': it cannot be set where "
                            f"'{needed}' is off",
             "not": {"required": [needed, name],
                     "properties": {needed: {"enum": [properties[needed]["default"]]},
                                    name: {"not": {"enum": [properties[name]["default"]]}}}}}
            for name, needed in needs.items()]


def _property(name: str, hint: Any, limit_key: str) -> dict[str, Any]:
    """The schema of one field, from its type (and its name where the loader says more)."""
    if name == "players":
        return {"type": "array", "items": _integer(LIMITS[limit_key]),
                "minItems": 2, "maxItems": 2}
    if name == "ranks":  # the deck's ranks: each once, never the joker (_deck_ranks)
        return {"type": "array", "items": _rank(joker=False), "minItems": 1,
                "uniqueItems": True}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return _integer(LIMITS.get(limit_key, NUMBER))
    if hint is str:
        return {"type": "string"}
    if isinstance(hint, type) and issubclass(hint, Enum):
        return {"type": "string", "enum": [m.value for m in hint]}
    if hint == Steps:
        pair = {"type": "array", "minItems": 2, "maxItems": 2,
                "prefixItems": [_integer(LIMITS["steps.players"]), _integer(LIMITS[limit_key])]}
        return {"anyOf": [_integer(LIMITS[limit_key]),
                          {"type": "array", "minItems": 1, "items": pair}]}
    if hint == frozenset[Rank]:
        return {"type": "array", "items": _rank(joker=True)}
    if hint == frozenset[Card]:  # stack_with, cancelled_by: ranks or cards
        return {"type": "array", "items": {"anyOf": [*_rank(joker=True)["anyOf"], _card_name()]}}
    if hint == frozenset[int]:  # teams
        return {"type": "array", "items": {"type": "integer", "minimum": 4, "multipleOf": 2}}
    if hint == Mapping[Rank, int]:
        return {"anyOf": [_integer(NUMBER),
                          {"type": "object", "propertyNames": _rank_name(),
                           "additionalProperties": _integer(NUMBER)}]}
    if hint == Mapping[Rank, CardRule]:  # keyed by a rank or by one card
        return {"type": "object", "propertyNames": {"anyOf": [_rank_name(), _card_name()]},
                "additionalProperties": {"$ref": "#/$defs/card"}}
    raise TypeError(f"no rules-file schema for field {name!r} of type {hint!r}: "
                    "teach eights.engine.schema._property this type")


def _integer(limits: tuple[int, int]) -> dict[str, Any]:
    return {"type": "integer", "minimum": limits[0], "maximum": limits[1]}


def _rank_texts(joker: bool = True) -> list[str]:
    """Every way to write a rank that :meth:`Rank.parse` reads (case does not matter)."""
    letters = [r.letter for r in Rank if joker or r is not Rank.JOKER]
    names = [*letters, "10"]
    return names + [n.lower() for n in names if n.lower() != n]


def _card_name() -> dict[str, Any]:
    """One card in the action notation (``Js``, ``10h``, ``7♥``; case does not matter)."""
    return {"type": "string",
            "pattern": "^([AaJjQqKkTt2-9]|10)([cdhsCDHS\u2663\u2666\u2665\u2660])$"}


def _rank_name() -> dict[str, Any]:
    return {"type": "string", "enum": _rank_texts()}


def _rank(joker: bool) -> dict[str, Any]:
    return {"anyOf": [{"type": "string", "enum": _rank_texts(joker)},
                      {"type": "integer", "minimum": 2, "maximum": 10}]}


def _truthy(prop: Mapping[str, Any]) -> dict[str, Any]:
    """The values that turn a card field on (true, 1 or more, a non-empty list)."""
    kind = prop.get("type")
    if kind == "boolean":
        return {"enum": [True]}  # not "const": editors on an older draft skip it
    if kind == "integer":
        return {"minimum": 1}
    if kind == "array":
        return {"minItems": 1}
    raise TypeError(f"no 'on' value for a field of schema {prop!r}")


def _default(f: Field[Any]) -> Any:
    if f.default is not MISSING:
        return f.default
    assert f.default_factory is not MISSING  # every init field has a default
    return f.default_factory()


def _json(value: Any) -> Any:
    """A default as the rules file writes it."""
    if isinstance(value, Enum) and not isinstance(value, Rank):
        return value.value
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, Mapping):
        return {_json(k): _json(v) for k, v in value.items()}
    if isinstance(value, frozenset):
        return [_json(v) for v in sorted(value)]
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


@cache
def _docs(cls: type) -> dict[str, str]:
    """The docstrings under the attributes of a class (fields, enum members)."""
    try:
        tree = ast.parse(inspect.getsource(cls))
    except (OSError, TypeError):  # no source shipped: the schema goes without descriptions
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in pairwise(body):
        target = (node.target if isinstance(node, ast.AnnAssign)
                  else node.targets[0] if isinstance(node, ast.Assign) else None)
        if (isinstance(target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            text = " ".join(after.value.value.split()).replace("``", "`")
            if issubclass(cls, Enum):
                docs[str(getattr(cls, target.id).value)] = text
            else:
                docs[target.id] = text
    return docs
