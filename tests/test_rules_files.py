"""Rules files: presets load, house rules extend them key by key, overrides reach
into tables, and every mistake is a RulesError naming the file, the key, the bad
value and what is allowed."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path

import pytest

from eights import (
    Card,
    CardRule,
    DrawPolicy,
    Rank,
    Rules,
    RulesError,
    Scoring,
    load_rules,
    preset_names,
)
from eights.engine.rules import CARD_NEEDS, NEEDS, BlockedScoring
from eights.i18n.explain import describe

PRESETS = ["black-jack", "classic", "crazy-eights", "huit-americain", "huit-fou", "last-card",
           "les-huit", "mau-mau", "openspiel", "pesten", "switch", "tschau-sepp", "uno-cards"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), "utf-8")
    return path


def rules_error(spec: str | Path, overrides: list[str] | None = None) -> str:
    with pytest.raises(RulesError) as info:
        load_rules(spec, overrides or [])
    return str(info.value)


# --------------------------------------------------------------------------- presets


def test_preset_names_are_the_thirteen_shipped_presets() -> None:
    assert preset_names() == PRESETS


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads(name: str) -> None:
    rules = load_rules(name)
    assert isinstance(rules, Rules)
    assert rules.name == name
    assert rules.title and rules.title != "Custom rules"
    low, high = rules.players
    assert 2 <= low <= rules.default_players <= high
    rules.check_players(rules.default_players)


def test_presets_hold_their_distinctive_rules() -> None:
    ha = load_rules("huit-americain")
    assert ha.draw is DrawPolicy.ONE_MAY_PLAY
    assert ha.card(Rank.TEN) == CardRule(again=True, again_penalty=2)
    assert ha.card(Rank.SEVEN).skip
    assert ha.card(Rank.EIGHT).not_on == frozenset({Rank.TWO})
    assert ha.points[Rank.EIGHT] == 50 and ha.points[Rank.ACE] == 25 and ha.points[Rank.FIVE] == 5
    assert ha.target == 500
    hf = load_rules("huit-fou")
    assert hf.hand_limit == 12 and hf.overflow
    assert all(pts == 1 for pts in hf.points.values())
    classic = load_rules("classic")
    assert classic.scoring is Scoring.WINNER_COLLECTS
    assert classic.blocked_scoring is BlockedScoring.COLLECT
    assert classic.decks_for(6) == 1 and classic.decks_for(7) == 2
    assert classic.hand_size_for(4) == 7 and classic.hand_size_for(5) == 5
    lh = load_rules("les-huit")
    assert lh.has_teams(4) and not lh.has_teams(3)
    assert lh.card(Rank.EIGHT).takes_covered_rank
    os_ = load_rules("openspiel")
    assert not os_.special_cards
    assert os_.card(Rank.TWO).draw == 0  # effects off, wild stays
    assert os_.card(Rank.EIGHT).wild


def test_rules_are_frozen() -> None:
    rules = load_rules("classic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jokers = 2  # type: ignore[misc]


# --------------------------------------------------------------------------- extends


def test_house_file_extends_a_preset(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", """
        extends = "huit-americain"
        title = "Our house"
        jokers = 2
        hand_limit = 10
    """)
    rules = load_rules(house)
    base = load_rules("huit-americain")
    assert rules.name == "house"
    assert rules.title == "Our house"
    assert rules.jokers == 2
    assert rules.hand_limit == 10
    # Everything not mentioned is the preset's.
    assert rules.cards == base.cards
    assert rules.points == base.points
    assert rules.draw is base.draw
    assert rules.target == base.target
    assert dataclasses.replace(rules, name=base.name, title=base.title, jokers=0, hand_limit=0) == base
    # str paths work as well as Path objects.
    assert load_rules(str(house)) == rules


def test_card_tables_merge_key_by_key(tmp_path: Path) -> None:
    house = write(tmp_path / "no-skip.toml", """
        extends = "huit-americain"
        [cards.7]
        skip = false
        [cards.A]
        stack = false
    """)
    rules = load_rules(house)
    base = load_rules("huit-americain")
    assert not rules.card(Rank.SEVEN).skip
    # The ace keeps its draw and its cancelling 8; only stack changed.
    assert rules.card(Rank.ACE) == dataclasses.replace(base.card(Rank.ACE), stack=False)
    for rank in (Rank.EIGHT, Rank.TWO, Rank.JACK, Rank.TEN, Rank.JOKER):
        assert rules.card(rank) == base.card(rank), rank


def test_points_table_merges_key_by_key(tmp_path: Path) -> None:
    house = write(tmp_path / "pts.toml", """
        extends = "classic"
        [points]
        8 = 20
    """)
    rules = load_rules(house)
    assert rules.points[Rank.EIGHT] == 20
    assert rules.points[Rank.KING] == 10
    assert rules.points[Rank.SEVEN] == 7


def test_extends_a_file_relative_to_the_extending_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "rules" / "base.toml", """
        extends = "huit-fou"
        hand_limit = 9
    """)
    write(tmp_path / "rules" / "sub" / "deeper.toml", """
        extends = "../base.toml"
        target = 80
    """)
    house = write(tmp_path / "rules" / "house.toml", """
        extends = "sub/deeper.toml"
        jokers = 0
        [cards.Q]
        skip = false
        reverse = true
    """)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the relative path is from the file, not from the cwd
    rules = load_rules(house)
    assert rules.name == "house"
    assert rules.hand_limit == 9
    assert rules.target == 80
    assert rules.overflow  # from huit-fou, three levels up
    assert rules.card(Rank.QUEEN) == CardRule(reverse=True)
    assert rules.card(Rank.TWO) == load_rules("huit-fou").card(Rank.TWO)


def test_extends_an_absolute_path(tmp_path: Path) -> None:
    base = write(tmp_path / "a" / "base.toml", 'extends = "classic"\ntarget = 100\n')
    house = write(tmp_path / "b" / "house.toml", f"extends = {str(base)!r}\nrounds = 3\n")
    rules = load_rules(house)
    assert (rules.target, rules.rounds, rules.scoring) == (100, 3, Scoring.WINNER_COLLECTS)


def test_inline_table_extends_a_preset() -> None:
    rules = load_rules({"extends": "huit-americain", "jokers": 2})
    assert rules.jokers == 2
    assert rules.cards == load_rules("huit-americain").cards


def test_a_file_without_extends_starts_from_the_defaults(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path / "bare.toml", "hand_size = 5\n"))
    defaults = Rules()
    assert rules.hand_size == ((2, 5),)
    assert rules.cards == {} and rules.draw is defaults.draw and rules.points == defaults.points


# --------------------------------------------------------------------------- overrides


def test_overrides_reach_into_tables() -> None:
    rules = load_rules("huit-americain", ["jokers=2", "cards.7.skip=false"])
    base = load_rules("huit-americain")
    assert rules.jokers == 2
    assert not rules.card(Rank.SEVEN).skip
    assert rules.card(Rank.TEN) == base.card(Rank.TEN)
    assert rules.card(Rank.JOKER) == base.card(Rank.JOKER)
    # The cached preset is untouched.
    assert load_rules("huit-americain") == base and base.jokers == 0


@pytest.mark.parametrize(
    ("override", "field", "value"),
    [
        ("draw=until-playable", "draw", DrawPolicy.UNTIL_PLAYABLE),  # bare word: a string
        ('draw="repeat"', "draw", DrawPolicy.REPEAT),
        ("title=Our house rules", "title", "Our house rules"),
        ("hand_size=[[2, 8], [5, 6]]", "hand_size", ((2, 8), (5, 6))),
        ('starter_redraw=["8", "X"]', "starter_redraw", frozenset({Rank.EIGHT, Rank.JOKER})),
        ("points.K=13", "points", None),
        (" hand_limit = 15 ", "hand_limit", 15),
    ],
)
def test_override_values_are_toml(override: str, field: str, value: object) -> None:
    rules = load_rules("classic", [override])
    if field == "points":
        assert rules.points[Rank.KING] == 13 and rules.points[Rank.EIGHT] == 50
    else:
        assert getattr(rules, field) == value


def test_overrides_as_mapping_and_on_a_rules_object() -> None:
    base = load_rules("huit-fou")
    assert load_rules(base) is base
    changed = load_rules(base, {"target": 100, "cards": {"Q": {"skip": False}}})
    assert changed.target == 100
    assert not changed.card(Rank.QUEEN).skip
    assert changed.card(Rank.TWO) == base.card(Rank.TWO)


def test_override_that_is_not_key_value() -> None:
    message = rules_error("classic", ["nonsense"])
    assert "'nonsense'" in message and "key=value" in message


def test_override_with_a_bad_value_names_key_value_and_allowed() -> None:
    message = rules_error("classic", ["jokers=lots"])
    assert "'jokers'" in message and "'lots'" in message and "whole number" in message
    message = rules_error("classic", ["colour=red"])
    assert "'colour'" in message and "hand_limit" in message


# --------------------------------------------------------------------------- errors


def test_unknown_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path / "typo.toml", 'extends = "classic"\nhand_limt = 10\n')
    message = rules_error(path)
    assert str(path) in message
    assert "'hand_limt'" in message
    assert "hand_limit" in message and "jokers" in message  # the known keys


def test_unknown_card_key(tmp_path: Path) -> None:
    path = write(tmp_path / "typo.toml", 'extends = "classic"\n[cards.7]\nskp = true\n')
    message = rules_error(path)
    assert str(path) in message
    assert "cards.7.skp" in message
    assert "skip" in message and "wild" in message and "again_penalty" in message


def test_bad_enum_lists_the_allowed_policies(tmp_path: Path) -> None:
    path = write(tmp_path / "draw.toml", 'extends = "huit-americain"\ndraw = "sometimes"\n')
    message = rules_error(path)
    assert str(path) in message
    assert "'draw'" in message and "'sometimes'" in message
    for policy in DrawPolicy:
        assert policy.value in message


@pytest.mark.parametrize(
    ("key", "value", "allowed"),
    [
        ("scoring", '"most"', "winner-collects"),
        ("blocked_scoring", '"nobody"', "difference"),
    ],
)
def test_other_enums_list_their_values(tmp_path: Path, key: str, value: str, allowed: str) -> None:
    path = write(tmp_path / "enum.toml", f'extends = "classic"\n{key} = {value}\n')
    message = rules_error(path)
    assert str(path) in message and repr(key) in message and value.strip('"') in message
    assert allowed in message


@pytest.mark.parametrize(
    ("line", "key", "shown", "allowed"),
    [
        ('hand_limit = "many"', "'hand_limit'", "'many'", "whole number"),
        ("hand_limit = -1", "'hand_limit'", "-1", "whole number"),
        ("jokers = true", "'jokers'", "True", "whole number"),
        ('reshuffle = "yes"', "'reshuffle'", "'yes'", "true or false"),
        ("players = [5, 2]", "'players'", "[5, 2]", "smallest"),
        ('hand_size = "seven"', "'hand_size'", "'seven'", "whole number"),
        ("teams = [3]", "'teams'", "[3]", "even"),
        ("default_players = 1", "'default_players'", "1", "2"),
        ('title = 5', "'title'", "5", "string"),
    ],
)
def test_bad_type_or_range(tmp_path: Path, line: str, key: str, shown: str, allowed: str) -> None:
    path = write(tmp_path / "bad.toml", f'extends = "classic"\n{line}\n')
    message = rules_error(path)
    assert str(path) in message
    assert key in message and shown in message and allowed in message


def test_bad_rank_in_starter_redraw(tmp_path: Path) -> None:
    path = write(tmp_path / "redraw.toml", 'extends = "huit-americain"\nstarter_redraw = ["8", "Z"]\n')
    message = rules_error(path)
    assert str(path) in message
    assert "'starter_redraw'" in message and "'Z'" in message
    assert "A 2 3 4 5 6 7 8 9 T" in message


def test_bad_rank_as_card_table_name(tmp_path: Path) -> None:
    path = write(tmp_path / "card.toml", 'extends = "classic"\n[cards.11]\nskip = true\n')
    message = rules_error(path)
    assert str(path) in message and "cards.11" in message and "J Q K" in message


def test_bad_toml_syntax(tmp_path: Path) -> None:
    path = write(tmp_path / "broken.toml", 'extends = "classic"\nhand_limit = \n')
    message = rules_error(path)
    assert str(path) in message
    assert "TOML" in message
    assert "line 2" in message


def test_bad_toml_in_an_extended_file_names_both_files(tmp_path: Path) -> None:
    base = write(tmp_path / "base.toml", "target = [\n")
    house = write(tmp_path / "house.toml", 'extends = "base.toml"\n')
    message = rules_error(house)
    assert str(house) in message and str(base) in message and "TOML" in message


def test_bad_value_in_an_extended_file_names_that_file(tmp_path: Path) -> None:
    # The mistake is in base.toml; a player reading the message must be sent there.
    base = write(tmp_path / "base.toml", 'extends = "classic"\ndraw = "sometimes"\n')
    house = write(tmp_path / "house.toml", 'extends = "base.toml"\njokers = 0\n')
    message = rules_error(house)
    assert str(base) in message, message
    assert "'draw'" in message and "'sometimes'" in message


def test_missing_file(tmp_path: Path) -> None:
    """Issue 35: ``-r missing.toml`` says there is no such file (and a folder that it is one)."""
    presets = ", ".join(PRESETS)
    assert rules_error("missing.toml") == (
        f"rules file 'missing.toml': no such file (the presets are {presets})")
    assert rules_error(str(tmp_path)) == (
        f"rules {str(tmp_path)!r}: a directory, not a rules file; give a preset ({presets}) "
        f"or a TOML file")
    assert rules_error("huit") == f"unknown rules 'huit': not a preset ({presets}) and no such file"


def test_unknown_preset_lists_the_presets() -> None:
    message = rules_error("huit-americian")
    assert "'huit-americian'" in message
    for name in PRESETS:
        assert name in message


def test_extends_a_missing_file_names_both(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", 'extends = "gone.toml"\n')
    message = rules_error(house)
    assert str(house) in message and "gone.toml" in message


def test_extends_must_be_a_string(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", "extends = 3\n")
    message = rules_error(house)
    assert str(house) in message and "'extends'" in message and "preset" in message


def test_extends_loop_between_two_files(tmp_path: Path) -> None:
    a = write(tmp_path / "a.toml", 'extends = "b.toml"\n')
    b = write(tmp_path / "b.toml", 'extends = "a.toml"\n')
    message = rules_error(a)
    assert "loop" in message
    assert str(a) in message and str(b) in message


def test_a_file_extending_itself_is_a_loop(tmp_path: Path) -> None:
    me = write(tmp_path / "me.toml", 'extends = "me.toml"\n')
    assert "loop" in rules_error(me)


def test_overflow_needs_a_hand_limit(tmp_path: Path) -> None:
    path = write(tmp_path / "overflow.toml", 'extends = "classic"\noverflow = true\n')
    message = rules_error(path)
    assert str(path) in message and "'overflow'" in message and "hand_limit" in message
    # With a limit it is fine.
    assert load_rules("classic", ["overflow=true", "hand_limit=12"]).overflow


def test_jokers_need_a_joker_rule(tmp_path: Path) -> None:
    path = write(tmp_path / "jokers.toml", 'extends = "classic"\njokers = 2\n')
    message = rules_error(path)
    assert str(path) in message and "'jokers'" in message and "[cards.X]" in message
    # With a rule for the joker it is fine.
    rules = load_rules("classic", ["jokers=2", "cards.X.wild=true"])
    assert rules.jokers == 2 and rules.card(Rank.JOKER).wild


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        (["cards.5.stack=true"], "cards.5.stack"),
        (['cards.5.cancelled_by=["8"]'], "cards.5.cancelled_by"),
        (["cards.5.again_penalty=2"], "cards.5.again_penalty"),
        (["default_players=11"], "default_players"),
    ],
)
def test_inconsistent_fields(overrides: list[str], key: str) -> None:
    message = rules_error("classic", overrides)
    assert repr(key) in message, message
    assert "allowed" in message


# --------------------------------------------------------------------------- players


@pytest.mark.parametrize("name", PRESETS)
def test_check_players_rejects_too_many_and_too_few(name: str) -> None:
    rules = load_rules(name)
    low, high = rules.players
    for n in (low, high):
        rules.check_players(n)
    for n in (low - 1, high + 1, 0, 99):
        with pytest.raises(RulesError) as info:
            rules.check_players(n)
        message = str(info.value)
        assert message == f"{name} is played by {low} to {high} players, not {n}"


def test_check_players_rejects_a_deal_larger_than_the_deck() -> None:
    rules = load_rules("classic", ["hand_size=30", "decks=1"])
    with pytest.raises(RulesError, match="hand_size"):
        rules.check_players(2)


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", PRESETS)
def test_to_table_round_trips(name: str) -> None:
    rules = load_rules(name)
    table = rules.to_table()
    assert "extends" not in table
    again = load_rules(table)
    assert again == rules
    assert again.to_table() == table


def test_to_table_round_trips_a_house_file(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", """
        extends = "huit-americain"
        jokers = 2
        hand_limit = 10
        teams = [4, 6]
        [cards.7]
        skip = false
        [cards.9]
        reverse = true
    """)
    rules = load_rules(house)
    assert load_rules(rules.to_table()) == rules


# --------------------------------------------------------------------------- explanation


def test_explanation_of_a_preset() -> None:
    text = "\n".join(describe(load_rules("huit-americain")))
    assert "Le 8 américain" in text
    assert "10s: the player must play again; if they cannot, they draw 2" in text
    assert "8s: may be played on any card except 2s" in text
    assert "lowest total wins" in text
    assert "500" in text


def test_explanation_reflects_a_house_file(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", """
        extends = "huit-americain"
        title = "Chez nous"
        jokers = 2
        hand_limit = 10
        target = 321
        [cards.7]
        skip = false
    """)
    rules = load_rules(house)
    lines = describe(rules)
    text = "\n".join(lines)
    base = "\n".join(describe(load_rules("huit-americain")))
    assert "Chez nous" in text
    assert "No hand ever holds more than 10 cards" in text
    assert "10 cards" not in base
    assert "Jokers per deck: 2." in text and "Jokers per deck" not in base
    assert "joker 50" in text  # the joker's points are listed once jokers are on
    assert "321" in text and "321" not in base
    assert "7s: the next player loses their turn" in base
    assert not [line for line in lines if line.strip().startswith("7s")]  # a plain card is
    # no special card (issue 35: "Special cards: 8s: no effect")


def test_explanation_of_a_file_without_specials(tmp_path: Path) -> None:
    house = write(tmp_path / "plain.toml", """
        extends = "huit-fou"
        special_cards = false
        draw = "one-end"
        voluntary_draw = true
    """)
    text = "\n".join(describe(load_rules(house)))
    assert "special_cards = false" in text
    assert "If you cannot play, or would rather not, draw one card; your turn ends." in text
    assert "draws 2" not in text


def test_an_unknown_key_suggests_the_likely_one(tmp_path: Path) -> None:
    """A misspelt key names the close known key first (difflib), then lists them all."""
    message = rules_error("classic", ["joker=2"])
    assert "unknown key 'joker'; did you mean 'jokers'? known keys are" in message
    path = write(tmp_path / "typo.toml", 'extends = "classic"\n[cards.8]\nwld = true\n')
    assert "unknown key 'cards.8.wld'; did you mean 'wild'? card keys are" in rules_error(path)
    assert "did you mean" not in rules_error("classic", ["zzzzzz=1"])  # nothing close


# --------------------------------------------------------------------------- fields that follow

ON = {"wild_if": "no-suit", "not_on": ["2"], "stack": True, "stack_with": ["5c"],
      "cancelled_by": ["8"], "pass_on": True, "again_penalty": 2}
"""A value that turns each card field of CARD_NEEDS on (classic's 8 has no draw: it may cancel)."""
NEEDED_ON = {"wild": True, "draw": 2, "skip": True, "again": True}


def test_every_field_that_needs_another_is_declared() -> None:
    assert CARD_NEEDS == {"wild_if": "wild", "not_on": "wild", "stack": "draw",
                          "stack_with": "draw", "cancelled_by": "draw", "pass_on": "skip",
                          "again_penalty": "again"}
    assert NEEDS == {"overflow": "hand_limit"}
    assert set(ON) == set(CARD_NEEDS) and set(NEEDED_ON) == set(CARD_NEEDS.values())


@pytest.mark.parametrize(("field", "needed"), sorted(CARD_NEEDS.items()))
def test_a_card_field_follows_the_field_it_needs(field: str, needed: str) -> None:
    """Turning the needed field off takes the field along; setting the field where it has
    nothing to apply to is refused, naming both."""
    base = load_rules("classic", {"cards": {"5": {needed: NEEDED_ON[needed], field: ON[field]}}})
    assert getattr(base.card(Rank.FIVE), field) != getattr(CardRule(), field)
    off = {"wild": False, "draw": 0, "skip": False, "again": False}[needed]
    assert load_rules(base, {f"cards.5.{needed}": off}).card(Rank.FIVE) == CardRule()
    with pytest.raises(RulesError, match=rf"key 'cards\.5\.{field}' has bad value .*; allowed: "
                                         rf".* unless {needed} (= true|is set) \(without "
                                         rf"'{needed}', '{field}' has nothing to apply to\)"):
        load_rules(base, {f"cards.5.{needed}": off, f"cards.5.{field}": ON[field]})


def test_turning_off_the_10_of_huit_americain_drops_its_penalty(tmp_path: Path) -> None:
    """Issue 35: ``again = false`` alone is accepted, and the words say nothing of a penalty."""
    house = write(tmp_path / "house.toml", """
        extends = "huit-americain"
        [cards.T]
        again = false
        """)
    rules = load_rules(house)
    assert rules.card(Rank.TEN) == CardRule()
    assert not [line for line in describe(rules)
                if line.strip().startswith("10s") or "play again" in line]
    assert load_rules("huit-fou", ["hand_limit=0"]).overflow is False  # HF9 follows HF6
    assert rules_error("classic", ["cards.5.again_penalty=2"]) == (
        "preset 'classic' with overrides: key 'cards.5.again_penalty' has bad value 2; "
        "allowed: 0 unless again = true (without 'again', 'again_penalty' has nothing to "
        "apply to)")


def test_a_cards_own_table_over_its_ranks_and_any_way_to_name_a_rank(tmp_path: Path) -> None:
    house = write(tmp_path / "house.toml", """
        extends = "huit-americain"
        [cards.Th]
        again = false
        [cards.10]
        again_penalty = 3
        """)
    rules = load_rules(house)
    assert rules.rule_of(Card.parse("Th")) == CardRule()  # its rank's penalty follows it
    assert rules.card(Rank.TEN) == CardRule(again=True, again_penalty=3)  # [cards.10] is T
