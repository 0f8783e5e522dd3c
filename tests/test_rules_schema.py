"""`eights rules schema`: the JSON Schema of rules files, generated from the fields
the loader reads. Every shipped preset passes it; a bad key, value or card pair fails
it at that key, and the loader refuses the same files.

Files are checked with jsonschema's draft 2020-12 validator; the schema uses only the
keywords listed here, which draft 4 (what taplo reads) reads the same way."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft4Validator, Draft202012Validator
from typer.testing import CliRunner

from eights import CardRule, Rules, RulesError, load_rules, preset_names
from eights.cli import app
from eights.engine.rules import ALIASES, CARD_CONFLICTS
from eights.engine.schema import SCHEMA_DIALECT, rules_schema

ANNOTATIONS = {"$schema", "title", "description", "default", "examples", "$defs"}
CHECKS = {"type", "enum", "const", "pattern", "minimum", "maximum", "multipleOf", "minItems", "maxItems",
          "uniqueItems", "items", "prefixItems", "properties", "additionalProperties",
          "propertyNames", "required", "anyOf", "allOf", "not", "$ref"}
TYPES = {"object", "array", "string", "boolean", "integer"}

Error = tuple[tuple[str | int, ...], str]


def check(value: Any) -> list[Error]:
    """Where ``value`` fails the schema (jsonschema's draft 2020-12 validator), each error
    placed at the key it is about: an unknown or malformed key at that key."""
    schema = rules_schema()
    found: list[Error] = []
    for error in Draft202012Validator(schema).iter_errors(value):
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties":
            known = error.schema.get("properties", {})
            found.extend(((*path, key), error.message) for key in error.instance if key not in known)
        elif "propertyNames" in error.schema_path:  # the key itself is the instance
            found.append(((*path, error.instance), error.message))
        elif error.validator == "not":
            found.append((path, str(error.schema.get("description", error.message))))
        else:
            found.append((path, error.message))
    return found


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
    Draft202012Validator.check_schema(schema)
    Draft4Validator.check_schema({k: v for k, v in schema.items() if k != "$schema"})
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
    assert set(props) == {"extends"} | {f.name for f in dataclasses.fields(Rules) if f.init
                                        and "file_key" not in f.metadata} | {
        "starter_wild_any"}  # an old name that still loads (ALIASES); card_tables is [cards]
    card = schema["$defs"]["card"]["properties"]
    assert set(card) == {f.name for f in dataclasses.fields(CardRule)}
    for name, prop in [*props.items(), *card.items()]:
        assert prop["description"], f"{name} has no description"
    assert "Jokers per deck" in props["jokers"]["description"]
    assert "'until-playable': Take cards until one is playable" in props["draw"]["description"]
    assert "The player must play again" in card["again"]["description"]
    # The defaults are the loader's: a file that writes every default is the empty file.
    every_default = {k: p["default"] for k, p in props.items() if k not in ("extends", *ALIASES)}
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
          "draw": 2, "skip": True, "again": True, "any_follows": True, "must_cover": True}
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


def test_card_tables_and_card_lists_pass_the_schema() -> None:
    """BJ2-BJ4: ``[cards.Js]`` beside ``[cards.J]``, and ranks or cards in ``stack_with`` and
    ``cancelled_by``; a key that is neither a rank nor a card fails both."""
    text = ('[cards.2]\ndraw = 2\nstack_with = ["2", "Jc", "Js"]\ncancelled_by = ["Jd", "Jh"]\n'
            '[cards.Js]\ndraw = 5\nstack_with = ["2", "J"]\ncancelled_by = ["Jd", "Jh"]\n'
            '[cards.Jc]\ndraw = 5\nstack_with = ["2", "J"]\ncancelled_by = ["Jd", "Jh"]\n')
    assert check(tomllib.loads(text)) == []
    load_rules(tomllib.loads(text))
    bad = tomllib.loads('[cards.Jz]\ndraw = 5\n')
    assert check(bad)
    with pytest.raises(RulesError, match=r"cards\.Jz"):
        load_rules(bad)
