"""`eights rules schema`: the JSON Schema of rules files, generated from the fields
the loader reads. Every shipped preset passes it; a bad key, value or card pair fails
it at that key, and the loader refuses the same files.

The validator below covers the draft 2020-12 keywords the schema uses and refuses
any other keyword, so the schema cannot grow a rule these tests do not check."""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from typer.testing import CliRunner

from eights import CardRule, Rules, RulesError, load_rules, preset_names
from eights.cli import app
from eights.engine.rules import CARD_CONFLICTS
from eights.engine.schema import SCHEMA_DIALECT, rules_schema

ANNOTATIONS = {"$schema", "title", "description", "default", "examples", "$defs"}
CHECKS = {"type", "enum", "const", "minimum", "maximum", "multipleOf", "minItems", "maxItems",
          "uniqueItems", "items", "prefixItems", "properties", "additionalProperties",
          "propertyNames", "required", "anyOf", "allOf", "not", "$ref"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
}

Error = tuple[tuple[str | int, ...], str]


def errors(schema: Any, value: Any, root: dict[str, Any],
           path: tuple[str | int, ...] = ()) -> Iterator[Error]:
    """The ways ``value`` fails ``schema`` (draft 2020-12, for the keywords in CHECKS)."""
    if schema is True:
        return
    if schema is False:
        yield path, "no value is allowed here"
        return
    unknown = set(schema) - ANNOTATIONS - CHECKS
    assert not unknown, f"keywords this validator does not know: {unknown}"
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        yield from errors(root["$defs"][ref.removeprefix("#/$defs/")], value, root, path)
    if "type" in schema and not TYPES[schema["type"]](value):
        yield path, f"{value!r} is not of type {schema['type']}"
        return
    if "enum" in schema and value not in schema["enum"]:
        yield path, f"{value!r} is not one of {schema['enum']}"
    if "const" in schema and not (value == schema["const"]
                                  and type(value) is type(schema["const"])):
        yield path, f"{value!r} is not {schema['const']!r}"
    if TYPES["integer"](value):
        if "minimum" in schema and value < schema["minimum"]:
            yield path, f"{value} is less than {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            yield path, f"{value} is more than {schema['maximum']}"
        if "multipleOf" in schema and value % schema["multipleOf"]:
            yield path, f"{value} is not a multiple of {schema['multipleOf']}"
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            yield path, f"fewer than {schema['minItems']} items"
        if len(value) > schema.get("maxItems", math.inf):
            yield path, f"more than {schema['maxItems']} items"
        if schema.get("uniqueItems") and len({json.dumps(v) for v in value}) < len(value):
            yield path, "items repeat"
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items", True)
            yield from errors(sub, item, root, (*path, i))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                yield path, f"{key!r} is required"
        props = schema.get("properties", {})
        for key, item in value.items():
            if "propertyNames" in schema:
                for _, message in errors(schema["propertyNames"], key, root, path):
                    yield (*path, key), f"bad key: {message}"
            sub = props[key] if key in props else schema.get("additionalProperties", True)
            if sub is False:
                yield (*path, key), f"unknown key {key!r}"
            else:
                yield from errors(sub, item, root, (*path, key))
    if "anyOf" in schema and all(list(errors(s, value, root, path)) for s in schema["anyOf"]):
        yield path, f"{value!r} matches none of the choices"
    for sub in schema.get("allOf", []):
        yield from errors(sub, value, root, path)
    if "not" in schema and not list(errors(schema["not"], value, root, path)):
        yield path, f"{value!r} is refused: {schema.get('description', schema['not'])}"


def check(value: Any) -> list[Error]:
    schema = rules_schema()
    return list(errors(schema, value, schema))


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    """Every schema inside ``schema`` (itself included), following the keywords that hold one."""
    if not isinstance(schema, dict):
        return
    yield schema
    for key in ("items", "additionalProperties", "propertyNames", "not"):
        yield from subschemas(schema.get(key))
    for key in ("properties", "$defs"):
        for sub in schema.get(key, {}).values():
            yield from subschemas(sub)
    for key in ("prefixItems", "anyOf", "allOf"):
        for sub in schema.get(key, []):
            yield from subschemas(sub)


# --------------------------------------------------------------------------- the schema


def test_the_cli_prints_the_schema_as_json() -> None:
    result = CliRunner().invoke(app, ["rules", "schema"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == rules_schema()


def test_the_schema_is_draft_2020_12_with_known_keywords() -> None:
    schema = rules_schema()
    assert schema["$schema"] == SCHEMA_DIALECT == "https://json-schema.org/draft/2020-12/schema"
    nodes = list(subschemas(schema))
    assert len(nodes) > 50
    for node in nodes:
        assert set(node) <= ANNOTATIONS | CHECKS, set(node) - ANNOTATIONS - CHECKS
        assert node.get("type", "object") in TYPES
        assert "$ref" not in node or node["$ref"].removeprefix("#/$defs/") in schema["$defs"]
        # nothing an older draft (taplo reads draft 4) would read otherwise
        assert "const" not in node and node.get("items", {}) is not False
    assert json.loads(json.dumps(schema)) == schema  # plain JSON all through


def test_every_field_is_in_the_schema_with_its_doc_and_default() -> None:
    schema = rules_schema()
    props = schema["properties"]
    assert set(props) == {"extends"} | {f.name for f in dataclasses.fields(Rules) if f.init}
    card = schema["$defs"]["card"]["properties"]
    assert set(card) == {f.name for f in dataclasses.fields(CardRule)}
    for name, prop in [*props.items(), *card.items()]:
        assert prop["description"], f"{name} has no description"
    assert "Jokers per deck" in props["jokers"]["description"]
    assert "'until-playable': Take cards until one is playable" in props["draw"]["description"]
    assert "The player must play again" in card["again"]["description"]
    # The defaults are the loader's: a file that writes every default is the empty file.
    every_default = {k: p["default"] for k, p in props.items() if k != "extends"}
    assert check(every_default) == []
    assert load_rules(every_default) == load_rules({}) == Rules()
    for name, prop in card.items():
        assert check({"cards": {"5": {name: prop["default"]}}}) == []


@pytest.mark.parametrize("name", preset_names())
def test_every_shipped_preset_passes_the_schema(name: str) -> None:
    text = (resources.files("eights.presets") / f"{name}.toml").read_text("utf-8")
    assert check(tomllib.loads(text)) == []


# --------------------------------------------------------------------------- bad files

BAD = [
    ('draw = "twice"', ("draw",)),
    ("default_players = 30", ("default_players",)),
    ("players = [2, 8, 9]", ("players",)),
    ("jokerz = 2", ("jokerz",)),
    ('scoring = "lowest"', ("scoring",)),
    ("decks = [[2, 1], [1, 0]]", ("decks",)),
    ("hand_size = 0", ("hand_size",)),
    ("teams = [3]", ("teams", 0)),
    ('starter_redraw = ["8", "Z"]', ("starter_redraw", 1)),
    ("points = { A = -1 }", ("points",)),
    ("announce_last_card = 1", ("announce_last_card",)),
    ("[cards.Z]\nwild = true", ("cards", "Z")),
    ("[cards.8]\nwidl = true", ("cards", "8", "widl")),
    ("[cards.2]\ndraw = 99", ("cards", "2", "draw")),
    ('[cards.8]\nnot_on = "2"', ("cards", "8", "not_on")),
]


@pytest.mark.parametrize(("text", "where"), BAD, ids=[t for t, _ in BAD])
def test_a_bad_file_fails_the_schema_at_the_key_and_the_loader_too(
        text: str, where: tuple[str | int, ...]) -> None:
    table = tomllib.loads(text)
    found = check(table)
    assert found, f"the schema passed {text!r}"
    assert where in [path for path, _ in found], found
    with pytest.raises(RulesError) as info:
        load_rules(table)
    assert str(where[0]) in str(info.value)


@pytest.mark.parametrize(("first", "second", "reason"), CARD_CONFLICTS)
def test_a_card_pair_that_cannot_combine_fails_the_schema_and_the_loader(
        first: str, second: str, reason: str) -> None:
    on = {"wild": True, "name_suit": True, "takes_covered_rank": True, "transparent": True,
          "draw": 2, "skip": True, "again": True}
    table = {"cards": {"5": {first: on[first], second: on[second]}}}
    found = check(table)
    assert [path for path, _ in found] == [("cards", "5")]
    assert reason in found[0][1]
    with pytest.raises(RulesError, match=f"'{second}' cannot be combined with '{first}'"):
        load_rules(table)
    # each one alone is fine for the schema
    assert check({"cards": {"5": {first: on[first]}}}) == []


def test_ranges_are_the_loader_s() -> None:
    """Every whole-number key: the schema's bounds are the loader's (one source)."""
    props = rules_schema()["properties"]
    ints = {k: p for k, p in props.items() if p.get("type") == "integer"}
    assert {"default_players", "jokers", "max_draws", "target"} <= set(ints)
    for key, prop in ints.items():
        for value in (prop["minimum"] - 1, prop["maximum"] + 1):
            assert [path for path, _ in check({key: value})] == [(key,)]
            with pytest.raises(RulesError, match=repr(key)):
                load_rules({key: value})
        assert check({key: prop["maximum"]}) == []
    card = rules_schema()["$defs"]["card"]["properties"]
    for key in ("draw", "again_penalty"):
        high = card[key]["maximum"]
        assert check({"cards": {"5": {key: high + 1}}}) != []
        with pytest.raises(RulesError, match=f"cards.5.{key}"):
            load_rules({"cards": {"5": {key: high + 1}}})
