"""Rules as data: a loaded rule set cannot change, and card fields that cannot
combine are refused when the file loads, naming both fields; every other
combination loads and plays legally."""

from __future__ import annotations

import dataclasses
import pickle
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from eights import Card, CardRule, Game, Rank, Rules, RulesError, Suit, load_rules, preset_names
from eights.engine.rules import CARD_CONFLICTS, CARD_NEEDS, FrozenMap, GoingOut, WildIf
from eights.engine.tables import tables_for
from test_properties import cards_in_play, check_step, full_deck

# --------------------------------------------------------------------------- immutable


def test_a_loaded_preset_cannot_be_changed() -> None:
    rules = load_rules("huit-americain")
    with pytest.raises(TypeError):
        rules.points[Rank.ACE] = 999  # type: ignore[index]
    with pytest.raises(TypeError):
        del rules.points[Rank.ACE]  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        rules.cards[Rank.FIVE] = CardRule(wild=True)  # type: ignore[index]
    with pytest.raises(AttributeError):
        rules.points.clear()  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rules.starter_redraw.add(Rank.FIVE)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rules.card(Rank.EIGHT).not_on.add(Rank.FIVE)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        rules.points._data = {}  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.cards[Rank.TEN].again = False  # type: ignore[misc]
    # The cached preset is the one the file says.
    cached = load_rules("huit-americain")
    assert cached is rules
    assert cached.points[Rank.ACE] == 25 and Rank.FIVE not in cached.cards
    assert cached.card(Rank.TEN).again and cached.card(Rank.EIGHT).not_on == {Rank.TWO}
    assert cached == load_rules("huit-americain", ["jokers=0"])  # a fresh load, not the cache


def test_rules_built_by_hand_do_not_share_the_caller_s_tables() -> None:
    points = {rank: 1 for rank in Rank}
    cards = {Rank.EIGHT: CardRule(wild=True, not_on={Rank.TWO})}  # type: ignore[arg-type]
    rules = Rules(points=points, cards=cards, teams={4}, players=[2, 4])  # type: ignore[arg-type]
    points[Rank.ACE] = 99
    cards[Rank.FIVE] = CardRule(skip=True)
    assert rules.points[Rank.ACE] == 1 and Rank.FIVE not in rules.cards
    assert isinstance(rules.points, FrozenMap) and isinstance(rules.cards, FrozenMap)
    assert rules.card(Rank.EIGHT).not_on == frozenset({Rank.TWO})
    assert isinstance(rules.card(Rank.EIGHT).not_on, frozenset)
    assert rules.teams == frozenset({4}) and rules.players == (2, 4)
    hash(rules)  # every field is hashable now


@pytest.mark.parametrize("name", preset_names())
def test_rules_keep_equality_hash_and_pickling(name: str) -> None:
    rules = load_rules(name)
    again = load_rules(name, {"title": rules.title})  # built anew, equal
    assert again is not rules and again == rules and hash(again) == hash(rules)
    assert rules.points == dict(rules.points)  # equal to a plain dict of the same items
    tables = tables_for(rules)
    assert tables_for(rules) is tables  # built once, kept on the rules
    assert tables.spec == name  # a preset's games record its name
    copy = pickle.loads(pickle.dumps(rules))
    assert copy == rules and hash(copy) == hash(rules)
    assert isinstance(copy.points, FrozenMap) and isinstance(copy.cards, FrozenMap)
    assert tables_for(copy).spec == name
    assert len({load_rules(n) for n in preset_names()}) == len(preset_names())


# --------------------------------------------------------------------------- combinations

ON: dict[str, Any] = {
    "wild": True, "name_suit": True, "not_on": ["2"], "takes_covered_rank": True,
    "transparent": True, "draw": 2, "stack": True, "cancelled_by": ["8"], "skip": True,
    "reverse": True, "again": True, "again_penalty": 1, "out_multiplier": 2,
    "any_follows": True, "wild_if": "no-suit", "going_out": "suit",
    "must_cover": True, "stack_with": ["5"], "pass_on": True,
}
"""A value that turns each card field on (classic's 8 has no draw, so it may cancel)."""

NEEDS = CARD_NEEDS
"""A field that means something only with another one (refused alone, tested in
test_rules_files.py)."""

CONFLICTS = {frozenset(pair[:2]) for pair in CARD_CONFLICTS}


def with_needs(names: set[str]) -> set[str]:
    return names | {NEEDS[n] for n in names if n in NEEDS}


def test_every_card_field_is_named_in_the_pair_tests() -> None:
    assert set(ON) == {f.name for f in dataclasses.fields(CardRule)}
    assert all(a in ON and b in ON for a, b in CONFLICTS)


@pytest.mark.parametrize(
    ("preset", "override", "first", "second"),
    [
        ("huit-americain", "cards.T.draw=2", "again", "draw"),  # the 10's player drew
        ("huit-americain", "cards.T.skip=true", "again", "skip"),  # the skip was lost
        ("huit-americain", "cards.7.draw=2", "draw", "skip"),
        ("huit-fou", "cards.4.skip=true", "draw", "skip"),
        ("huit-fou", "cards.8.transparent=true", "transparent", "name_suit"),
        ("les-huit", "cards.8.transparent=true", "transparent", "name_suit"),
        ("huit-americain", "cards.X.takes_covered_rank=true", "transparent", "takes_covered_rank"),
        ("huit-americain", "cards.8.any_follows=true", "any_follows", "name_suit"),
        ("huit-americain", "cards.X.any_follows=true", "any_follows", "transparent"),
        ("huit-americain", "cards.T.must_cover=true", "again", "must_cover"),
    ],
)
def test_a_pair_that_cannot_combine_is_refused_naming_both(
        preset: str, override: str, first: str, second: str) -> None:
    with pytest.raises(RulesError) as info:
        load_rules(preset, [override, "jokers=2"] if "cards.X" in override else [override])
    message = str(info.value)
    rank = override.split(".")[1]
    assert f"cards.{rank}: {second!r} cannot be combined with {first!r} (" in message, message
    assert preset in message
    reason = next(r for a, b, r in CARD_CONFLICTS if (a, b) == (first, second))
    assert reason in message


def test_every_conflict_of_the_table_is_tested_by_name() -> None:
    tested = {("again", "draw"), ("again", "skip"), ("draw", "skip"),
              ("transparent", "name_suit"), ("transparent", "takes_covered_rank"),
              ("any_follows", "name_suit"), ("any_follows", "transparent"),
              ("again", "must_cover")}
    assert {(a, b) for a, b, _ in CARD_CONFLICTS} == tested


def test_a_wild_limit_needs_a_wild_card() -> None:
    with pytest.raises(RulesError) as info:
        load_rules("huit-americain", ['cards.5.not_on=["2"]'])
    assert "'cards.5.not_on'" in str(info.value) and "wild = true" in str(info.value)


def test_a_cancel_card_cannot_carry_its_own_draw() -> None:
    with pytest.raises(RulesError) as info:
        load_rules("huit-americain", ['cards.A.cancelled_by=["8", "2"]'])
    message = str(info.value)
    assert "cards.A.cancelled_by" in message and "cards.2.draw" in message
    # its own rank too: a card that both stacks on a draw and cancels it
    with pytest.raises(RulesError) as info:
        load_rules("huit-americain", ['cards.A.cancelled_by=["A"]'])
    assert "cards.A.cancelled_by lists A" in str(info.value)


def play_rounds(rules: Rules, players: int, seed: int, rounds: int = 2) -> None:
    """Random legal play: cards conserved, each round ends, the Step tells the truth,
    and whoever lays a forced draw never takes it. The players draw or pass where a card
    plays only one time in ten: with voluntary draws (UC4) uniformly random play is a
    random walk whose rounds may last past any bound (seen: two seats left by play_on
    drawing at will for 20,000 decisions)."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    for _ in range(rounds):
        deck = full_deck(game)
        decisions = 0
        while not game.over:
            legal = game.legal_actions()
            plays = [a for a in legal if a.cards]
            check_step(game, rng.choice(plays if plays and rng.random() < 0.9 else legal))
            assert cards_in_play(game) == deck
            if game.pending and not game.over and not game.replace:  # LH5: still their turn
                assert game.to_move != game.attacker, "the attacker would take their own draw"
            decisions += 1
            assert decisions < 20_000, "the round did not end"
        if game.match_over:
            break
        game.next_round()


PAIRS = [set(pair) for pair in combinations(sorted(ON), 2)]


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(sorted(p)) for p in PAIRS])
def test_each_pair_of_card_fields_is_refused_or_plays(pair: set[str]) -> None:
    names = with_needs(pair)
    body = {name: ON[name] for name in names}
    clash = [c for c in CONFLICTS if c <= names]
    if clash:
        with pytest.raises(RulesError) as info:
            load_rules("classic", {"cards": {"5": body}})
        assert any(f"{a!r} cannot be combined with {b!r}" in str(info.value)
                   for a, b in (tuple(c) for c in clash) for a, b in ((a, b), (b, a)))
        return
    rules = load_rules("classic", {"cards": {"5": body}})
    assert rules.card(Rank.FIVE) == CardRule(**{  # type: ignore[arg-type]
        k: frozenset(Rank.parse(r) for r in v) if k == "not_on"
        else frozenset(Card.of(Rank.parse(r), s) for r in v for s in Suit)
        if isinstance(v, list)
        else WildIf(v) if k == "wild_if" else GoingOut(v) if k == "going_out" else v
        for k, v in body.items()})
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        play_rounds(rules, players, seed)


# --------------------------------------------------------------------------- random tables

rarely = st.sampled_from([False, False, False, True])
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "wild": rarely, "name_suit": rarely, "takes_covered_rank": rarely,
    "transparent": rarely, "stack": rarely, "skip": rarely, "reverse": rarely, "again": rarely,
    "draw": st.sampled_from([0, 0, 1, 2, 4]), "again_penalty": st.sampled_from([0, 0, 0, 1]),
    "not_on": st.sampled_from([[], [], [], ["8"], ["J", "A"]]),
    "cancelled_by": st.sampled_from([[], [], [], ["8"], ["J", "Q"]]),
    "out_multiplier": st.sampled_from([1, 1, 2, 3]), "any_follows": rarely,
    "wild_if": st.sampled_from(["always", "always", "no-suit"]),
    "going_out": st.sampled_from(["yes", "yes", "yes", "suit", "no", "penalty"]),
    "must_cover": rarely, "pass_on": rarely,
    "stack_with": st.sampled_from([[], [], [], ["self"], ["2"], ["self", "A"]]),
}
"""Values of each card field, most of them off, so that about half the tables combine."""

TABLE_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "reverse_two": st.sampled_from(["none", "skip"]),
    "forced_draw_ends_turn": st.booleans(),
    "draw": st.sampled_from([None, "one-end", "one-may-play", "one-must-play",
                             "until-playable", "repeat"]),
    "starter_wild": st.sampled_from([None, "plain", "any", "dealer-names", "first-names"]),
    "multi_play": st.sampled_from([None, "none", "same-rank"]),
    "play_on": st.sampled_from([None, False, True]),
    "serve_last_draw": st.booleans(),
    "out_penalty": st.sampled_from([None, 1, 5]),
    "scoring": st.sampled_from([None, None, "rounds-won", "placings"]),
    "call_out": st.sampled_from([None, False, True]),
    "call_out_penalty": st.sampled_from([None, 1, 4]),
}
"""Values of the rules fields that change how the cards play (None: the preset's)."""

PLAYABLE = [name for name in preset_names() if load_rules(name).special_cards]


def refusal(rules: Rules, rank: Rank, body: dict[str, Any], table: dict[str, Any]) -> bool:
    """Whether ``body`` on ``rank`` of ``rules`` (and ``table`` at the top) has to be
    refused, worked out here."""
    off = {"out_multiplier": 1, "wild_if": "always", "going_out": "yes"}  # not false
    on = {k for k, v in body.items() if v and off.get(k) != v}
    if any(c <= on for c in CONFLICTS):
        return True
    if body["going_out"] in ("no", "penalty") and body["out_multiplier"] > 1:
        return True  # no round ends on this card
    if table["serve_last_draw"] and rules.overflow:  # cards back to the player out
        return True
    if table["scoring"] == "rounds-won" and rules.overflow:  # penalty points, no points
        return True
    if any(name in on and need not in on for name, need in NEEDS.items()):
        return True
    if (table["play_on"] or table["scoring"] == "placings") and rules.teams:
        return True  # placings rank players one by one
    draws = {r: rule.draw for r, rule in rules.cards.items()} | {rank: body["draw"]}
    for listed in body["stack_with"]:  # each listed rank must have a draw to add
        if not draws.get(Rank.parse(listed), 0):
            return True
    if not body["draw"]:  # another card's stack_with lists this rank: its cards must draw
        own = {card for card, rule in rules.card_tables.items() if rule.draw}
        others = [rule for r, rule in rules.cards.items() if r != rank]
        others += [rule for card, rule in rules.card_tables.items() if card.rank != rank]
        if any(card.rank == rank and card not in own
               for rule in others for card in rule.stack_with):
            return True
    if table["reverse_two"] == "skip":  # with two players a reverse is a skip
        cards = {r: (rule.reverse, rule.draw, rule.again) for r, rule in rules.cards.items()}
        cards[rank] = (body["reverse"], body["draw"], body["again"])
        if any(reverse and (draw or again) for reverse, draw, again in cards.values()):
            return True
    cancels = {r: {c.rank for c in rule.cancelled_by} for r, rule in rules.cards.items()}
    cancels[rank] = {Rank.parse(r) for r in body["cancelled_by"]}
    # a cancel card lies as a plain card: one with a draw of its own is refused
    return any(draws.get(other, 0) for ranks in cancels.values() for other in ranks)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PLAYABLE), st.sampled_from(list(Rank)[:13]),
       st.fixed_dictionaries(FIELD_VALUES), st.fixed_dictionaries(TABLE_VALUES),
       st.integers(0, 2**32))
def test_random_card_rules_load_only_when_they_combine_and_then_play(
        preset: str, rank: Rank, body: dict[str, Any], table: dict[str, Any],
        seed: int) -> None:
    base = load_rules(preset)
    in_deck = {card.rank for card in tables_for(base).deck(base.players[0])}
    if rank not in in_deck:
        rank = min(in_deck)
    body = {**body, "stack_with": [rank.letter if r == "self" else r for r in body["stack_with"]]}
    expected_refusal = refusal(base, rank, body, table)
    top = {k: v for k, v in table.items() if v is not None}
    try:
        rules = load_rules(preset, {"cards": {rank.letter: body}, **top})
    except RulesError as exc:
        assert expected_refusal, f"refused a combination that plays: {exc}"
        event("refused")
        return
    event("loaded")
    assert not expected_refusal, f"accepted {body} on {rank.letter}"
    low, high = rules.players
    play_rounds(rules, random.Random(seed).randint(low, min(high, 5)), seed, rounds=1)
