"""The mechanisms of the family (docs/rules.md, "New mechanisms"), each a rules field
with its default declared once, on stacked decks: the rules that need each one are
named in the test's docstring. The defaults leave every shipped preset as it was."""

from __future__ import annotations

import random
import re

import pytest
from jsonschema import Draft202012Validator

from eights import Game, Rank, RulesError, load_rules
from eights.bots import make_bot
from eights.engine.rules import DrawPolicy, ReverseTwo, StarterWild, WildIf
from eights.engine.schema import rules_schema
from eights.i18n import translator
from eights.i18n.explain import describe
from stacked import assert_illegal, cards, legal, play, stacked

HA = "huit-americain"
"""J reverses, 7 skips, 2 and A make the next player draw 2, 10 plays again."""

SEEDS = ["classic", "crazy-eights", "huit-americain", "huit-fou", "les-huit", "openspiel"]
"""The presets that predate the family (docs/rules.md: "every default keeps the four seeds
and `openspiel` unchanged"); the family's presets set these keys on purpose."""


@pytest.mark.parametrize("name", SEEDS)
def test_the_defaults_leave_every_preset_unchanged(name: str) -> None:
    rules = load_rules(name)
    assert rules.reverse_two is ReverseTwo.NONE
    assert rules.forced_draw_ends_turn
    assert rules.draw is not DrawPolicy.ONE_MUST_PLAY
    assert all(rules.card(rank).out_multiplier == 1 for rank in Rank)
    assert not any(rules.card(rank).any_follows for rank in Rank)
    assert all(rules.card(rank).wild_if is WildIf.ALWAYS for rank in Rank)
    # CL4 is classic's: its file still says starter_wild_any = true, the old name
    assert rules.starter_wild is (StarterWild.ANY if name == "classic" else StarterWild.PLAIN)


# reverse_two --------------------------------------------------------------------


@pytest.mark.parametrize(("reverse_two", "players", "to_move", "direction", "skipped"), [
    ("none", 2, 0, 1, None),  # HA9: no effect with two players
    ("skip", 2, 1, 1, 0),  # SW7, BJ8, PE10, TS8, UC6: a skip with two players
    ("none", 3, 0, -1, None),  # a reverse with three players, whatever reverse_two says
    ("skip", 3, 0, -1, None),
])
def test_reverse_two(reverse_two: str, players: int, to_move: int, direction: int,
                     skipped: int | None) -> None:
    """SW7, BJ8, PE10, TS8, UC6: ``reverse_two = "skip"``: with two players a reverse acts
    as a skip and the direction stays; with more it reverses as before."""
    hands = ["3c 4c 5c", "Jh 4d 9s", "3d 6d 9d"][:players]
    g = stacked(HA, hands, "5h", overrides=["hand_size=3", f"reverse_two={reverse_two}"])
    assert g.to_play == 1
    step = g.apply("Jh")
    assert (g.to_play, g.direction, step.skipped, step.reversed) == (
        to_move, direction, skipped, direction == -1)


@pytest.mark.parametrize(("reverse_two", "first"), [("none", 1), ("skip", 0)])
def test_reverse_two_on_a_starter(reverse_two: str, first: int) -> None:
    """UC3: a starter reverse under ``starter_effects`` with two players skips the first
    player, so the dealer starts."""
    g = stacked(HA, ["3c 4c 5c", "4d 9s 6s"], "Jh",
                overrides=["hand_size=3", "starter_redraw=[]", "starter_effects=true",
                           f"reverse_two={reverse_two}"])
    assert (g.to_play, g.direction) == (first, 1)


def test_reverse_two_refuses_a_reverse_that_would_skip_and_draw_or_play_again() -> None:
    """With two players the reverse is a skip: a reverse card with ``draw`` or ``again``
    would be a pair of CARD_CONFLICTS, so the file is refused naming both fields."""
    for extra, other in (("cards.J.draw=2", "draw"), ("cards.J.again=true", "again")):
        with pytest.raises(RulesError) as info:
            load_rules(HA, ["reverse_two=skip", extra])
        message = str(info.value)
        assert f"cards.J: 'reverse' with {other!r} cannot be combined with 'reverse_two' = " \
               "'skip'" in message, message
        load_rules(HA, [extra])  # with the default, a reverse may draw or play again
    with pytest.raises(RulesError, match="'reverse_two' has bad value 'twice'; allowed: "
                                         "'none', 'skip'"):
        load_rules(HA, ["reverse_two=twice"])


def test_reverse_two_in_words() -> None:
    en = describe(load_rules(HA, ["reverse_two=skip"]))
    assert any("with two players, the next player loses their turn" in line for line in en)
    fr = describe(load_rules(HA, ["reverse_two=skip"]), translator("fr"))
    assert any("à deux joueurs, le joueur suivant passe son tour" in line for line in fr)
    assert any("(no effect with two players)" in line for line in describe(load_rules(HA)))


@pytest.mark.parametrize(("override", "english", "french"), [
    ("forced_draw_ends_turn=false", "takes a forced draw in full does not lose their turn",
     "ne passe pas son tour"),
    ("draw=one-must-play", "if it can be played you must play it at once",
     "vous devez la poser tout de suite"),
    ("cards.9.any_follows=true", "9s: any card may be played on it when no forced draw is "
     "waiting.", "n’importe quelle carte peut se poser dessus"),
    ("cards.8.wild_if=no-suit", "only a player who holds no card of the suit to follow (wild "
     "cards aside) may play it", "seul un joueur qui n’a aucune carte de la couleur à suivre"),
    ("cards.J.out_multiplier=2", "play reverses (no effect with two players); a player who "
     "goes out on it multiplies every score of the round by 2.",
     "multiplie par 2 tous les points de la manche"),
])
def test_mechanisms_in_words(override: str, english: str, french: str) -> None:
    rules = load_rules(HA, [override])
    assert any(english in line for line in describe(rules))
    assert any(french in line for line in describe(rules, translator("fr")))
    assert not any(english in line for line in describe(load_rules(HA)))


# forced_draw_ends_turn ----------------------------------------------------------


def rebuilt(g: Game) -> Game:
    """The game as a search rebuilds it from the observation of the player to move."""
    seen = g.observe(g.to_move)
    return Game.from_observation(seen, g.hands, g.stock, random.Random(0))


@pytest.mark.parametrize(("then", "up", "next_legal"), [
    ("Kh", "Kh", ["draw"]), ("9h", "9h", ["9s", "9s!"]), ("pass", "2h", ["draw"]),
])
def test_forced_draw_ends_turn_false(then: str, up: str, next_legal: list[str]) -> None:
    """PE5: ``forced_draw_ends_turn = false``: the victim takes the draw in full and stays
    in turn, to play a card legal on the up-card or pass; never to draw again."""
    g = stacked(HA, ["3c 4c Kh", "2h 4d 9s"], "5h", "9h 3s",
                overrides=["hand_size=3", "forced_draw_ends_turn=false"])
    g.apply("2h")
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received[0] == tuple(cards("9h 3s"))
    assert g.to_play == 0 and g.pending == 0
    assert legal(g) == ["9h", "Kh", "pass"]
    assert_illegal(g, "draw")
    seen = g.observe(1)
    assert seen.served and g.observe(0).served and seen.to_json()["served"]
    assert rebuilt(g).legal_actions() == g.legal_actions()
    assert g.clone().legal_actions() == g.legal_actions()
    g.apply(then)
    assert (g.to_play, str(g.up_card), g.served) == (1, up, False)
    assert legal(g) == next_legal


def test_forced_draw_ends_turn_by_default() -> None:
    """HF7, HA8: the victim of a forced draw loses their turn."""
    g = stacked(HA, ["3c 4c Kh", "2h 4d 9s"], "5h", "9h 3s", overrides=["hand_size=3"])
    g.apply("2h")
    g.apply("draw")
    assert g.to_play == 1 and not g.observe(0).served


def test_forced_draw_not_taken_in_full_ends_the_turn() -> None:
    """PE5 says "in full": when the stock runs dry during the draw, the turn ends as before."""
    g = stacked(HA, ["3c 4c Kh", "2h 4d 9s"], "5h", "9h",
                overrides=["hand_size=3", "forced_draw_ends_turn=false", "reshuffle=false"])
    g.stock[:] = cards("9h")  # one card left: the draw of 2 cannot be served in full
    g.apply("2h")
    g.apply("draw")
    assert g.to_play == 1 and not g.served


# draw = "one-must-play" ---------------------------------------------------------


@pytest.mark.parametrize(("policy", "drawn", "after_draw", "to_move"), [
    ("one-must-play", "6h", ["6h"], 1),  # TS4: a playable drawn card must be played
    ("one-must-play", "6c", [], 0),  # TS4: otherwise the turn ends
    ("one-may-play", "6h", ["6h", "pass"], 1),  # HA4: it may be kept
])
def test_draw_one_must_play(policy: str, drawn: str, after_draw: list[str], to_move: int) -> None:
    """TS4: ``draw = "one-must-play"``: take one card; if it is playable its plays are the
    only legal actions, otherwise the turn ends."""
    g = stacked(HA, ["3c 4c Kc", "3d 4d 9s"], "5h", drawn,
                overrides=["hand_size=3", f"draw={policy}"])
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert g.to_play == to_move
    if after_draw:
        assert legal(g) == after_draw
        assert g.observe(1).drawn == cards(drawn)[0]
        assert rebuilt(g).legal_actions() == g.legal_actions()
        if "pass" not in after_draw:
            assert_illegal(g, "pass")
        assert_illegal(g, "draw")
        g.apply(drawn)
        assert g.to_play == 0 and str(g.up_card) == drawn


def test_draw_one_must_play_with_voluntary_draw() -> None:
    """TS4's toggle ``voluntary_draw = true``: a player who could play may draw, and must
    then play the drawn card if it fits (not a card of the hand)."""
    g = stacked(HA, ["3c 4c Kc", "3h 4d 9s"], "5h", "6h",
                overrides=["hand_size=3", "draw=one-must-play", "voluntary_draw=true"])
    assert legal(g) == ["3h", "draw"]
    g.apply("draw")
    assert legal(g) == ["6h"]


# out_multiplier -----------------------------------------------------------------


def round_points(preset: str, starter: str, hands: list[str], moves: str,
                 times: int) -> list[int]:
    g = stacked(preset, hands, starter, overrides=[
        f"hand_size={len(hands[0].split())}", "announce_last_card=false",
        f"cards.J.out_multiplier={times}"])
    play(g, moves)
    assert g.over and g.out == 1
    assert g.round_points is not None
    return g.round_points


@pytest.mark.parametrize(("preset", "left"), [
    ("huit-americain", [1, 0]),  # own hand: seat 0 scores what it holds
    ("classic", [0, 1]),  # winner collects: seat 1 scores it
])
@pytest.mark.parametrize("times", [1, 2, 3])
def test_out_multiplier(preset: str, left: list[int], times: int) -> None:
    """MM10: ``cards.J.out_multiplier = 2``: when the play that empties the winner's hand
    ends with a jack, every player's points for that round are multiplied."""
    hands = ["Kc 3c", "Jc 5c"]
    # out on the jack: seat 0 keeps the 3c (3 points), times the multiplier
    assert round_points(preset, "5h", hands, "5c Kc Jc", times) == [3 * times * k for k in left]
    # out on any other card: seat 0 keeps the Kc (10 points), as usual
    assert round_points(preset, "9c", hands, "Jc 3c 5c", times) == [10 * k for k in left]


def test_out_multiplier_is_a_whole_number_of_one_or_more() -> None:
    for bad in ("0", "1.5", "true", "101"):
        with pytest.raises(RulesError) as info:
            load_rules(HA, [f"cards.J.out_multiplier={bad}"])
        assert "'cards.J.out_multiplier' has bad value" in str(info.value)
        assert "a whole number from 1 to 100" in str(info.value)


# any_follows --------------------------------------------------------------------


def test_any_follows() -> None:
    """PE6: ``any_follows = true``: while the card is the up-card and no draw is pending,
    any card may be played on it, also after a turn that did not cover it; the card played
    on it sets the suit and the rank."""
    g = stacked(HA, ["3c 4c Qs", "9h 4d Ks"], "6h", "7d",
                overrides=["hand_size=3", "cards.9.any_follows=true", "voluntary_draw=true",
                           "draw=one-end"])
    g.apply("9h")
    assert legal(g) == ["3c", "4c", "Qs", "draw"]
    assert g.observe(1).free and rebuilt(g).legal_actions() == g.legal_actions()
    g.apply("draw")  # the 9 stays the up-card: any card still follows it
    assert legal(g) == ["4d", "4d!", "Ks", "Ks!", "draw"]
    g.apply("4d!")
    assert (str(g.up_card), g.free, legal(g)) == ("4d", False, ["4c", "7d", "draw"])


def test_any_follows_waits_for_a_pending_draw() -> None:
    """PE4, PE6: a card with a draw and ``any_follows``: the victim answers or draws; after
    that any card may follow it."""
    g = stacked(HA, ["3c 4c Qs", "9h 4d Ks"], "6h", "7d 8c",
                overrides=["hand_size=3", "cards.9.any_follows=true", "cards.9.draw=2"])
    g.apply("9h")
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert g.to_play == 1 and legal(g) == ["4d", "4d!", "Ks", "Ks!"]


def test_any_follows_on_the_starter() -> None:
    """PE6 on a starter that is not redrawn: the first player may play any card."""
    g = stacked(HA, ["3c 4c Qs", "5d 4d Ks"], "9h",
                overrides=["hand_size=3", "cards.9.any_follows=true"])
    assert legal(g) == ["4d", "5d", "Ks"]


# wild_if ------------------------------------------------------------------------

UNO_ACE = ["cards.K.wild=true", "cards.K.name_suit=true", "cards.K.wild_if=no-suit"]
"""A king as Uno's Wild Draw Four is played (UC8), on huit-americain."""


def kings(card: str) -> list[str]:
    return [f"{card}={s}" for s in "cdhs"]


@pytest.mark.parametrize(("hand", "starter", "expected"), [
    ("Kd 5s 9s", "5h", [*kings("Kd"), "5s"]),  # no heart: the king goes on anything
    ("Kd 4h 9s", "5h", ["4h"]),  # a heart in hand: the king is not playable
    ("Kh 4h 9s", "5h", ["4h"]),  # not even by suit
    ("Kd 4h 9s", "Kh", ["4h"]),  # nor by rank
    ("Kd 4h 9s", "Kc", kings("Kd")),  # no club: a heart does not stop it
    ("Kd 8h 9s", "5h", [*kings("Kd"), "8h=c", "8h=d", "8h=h", "8h=s"]),  # wild cards aside
])
def test_wild_if_no_suit(hand: str, starter: str, expected: list[str]) -> None:
    """UC8: ``wild_if = "no-suit"``: a wild card playable only by a player who holds no
    card of the suit to follow (not counting wild cards, and a card that matches by rank
    does not stop it); then on any card, otherwise never."""
    g = stacked(HA, ["3c 4c Qs", hand], starter, overrides=["hand_size=3", *UNO_ACE])
    assert legal(g) == sorted(expected)
    assert rebuilt(g).legal_actions() == g.legal_actions()


def test_wild_if_no_suit_follows_the_named_suit() -> None:
    """UC8: the suit to follow is the one a wild card named."""
    g = stacked(HA, ["3c 4c Qs 4d", "Kd 8h 9s 7h"], "5h", overrides=["hand_size=4", *UNO_ACE])
    g.apply("8h=c")
    assert legal(g) == ["3c", "4c"]  # seat 0 holds clubs: no king for them anyway
    g = stacked(HA, ["3c 4c Qs Kh", "Kd 8h 9s 7h"], "5h", overrides=["hand_size=4", *UNO_ACE])
    g.apply("8h=d")
    assert legal(g) == sorted(kings("Kh"))  # no diamond: the king goes on the 8


def test_wild_if_no_suit_on_a_drawn_card() -> None:
    """HA4 with UC8: a drawn king may be played at once only by a hand without the suit."""
    g = stacked(HA, ["3c 4c Qs", "2d 9s 4h"], "5h", "Kd",
                overrides=["hand_size=3", "voluntary_draw=true", *UNO_ACE])
    assert legal(g) == ["4h", "draw"]
    g.apply("draw")
    assert g.to_play == 0  # it holds the 4h: the king cannot go down, the turn ends
    g = stacked(HA, ["3c 4c Qs", "2d 9s 4h"], "5c", "Kd",
                overrides=["hand_size=3", *UNO_ACE])
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert legal(g) == [*kings("Kd"), "pass"]  # no club: it may go down at once


def test_wild_if_needs_a_wild_card() -> None:
    with pytest.raises(RulesError) as info:
        load_rules(HA, ["cards.5.wild_if=no-suit"])
    assert "'cards.5.wild_if'" in str(info.value) and "wild = true" in str(info.value)
    with pytest.raises(RulesError, match=re.escape(
            "'cards.8.wild_if' has bad value 'never'; allowed: 'always', 'no-suit'")):
        load_rules(HA, ["cards.8.wild_if=never"])


# starter_wild -------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "first"), [
    ("starter_wild=plain", ["3h", "8c=c", "8c=d", "8c=h", "8c=s"]),
    ("starter_wild=any", ["3h", "4d", "8c=c", "8c=d", "8c=h", "8c=s", "9s"]),  # CL4
    ("starter_wild_any=true", ["3h", "4d", "8c=c", "8c=d", "8c=h", "8c=s", "9s"]),
    ("starter_wild_any=false", ["3h", "8c=c", "8c=d", "8c=h", "8c=s"]),
])
def test_starter_wild(setting: str, first: list[str]) -> None:
    """CL4: ``starter_wild = "any"`` lets the first player play any card on a wild starter;
    ``"plain"`` matches it by its suit and rank. ``starter_wild_any`` is its old name."""
    g = stacked(HA, ["3c 4c Qs 5c", "3h 4d 9s 8c"], "8h",
                overrides=["hand_size=4", "starter_redraw=[]", setting])
    assert legal(g) == sorted(first)
    g.apply("3h")  # only the first player: then the 3h is matched as usual
    assert legal(g) == ["3c"]


def test_starter_wild_any_is_an_old_name() -> None:
    """The old key loads as the new one, in a file and in overrides; both at once are
    refused naming both; the schema lists it and refuses both too."""
    assert load_rules("huit-fou", ["starter_wild_any=true"]) == load_rules(
        "huit-fou", ["starter_wild=any"])
    assert load_rules({"starter_wild_any": True}) == load_rules({"starter_wild": "any"})
    classic = load_rules("classic")
    assert classic.starter_wild_any and classic.to_table()["starter_wild"] == "any"
    assert "starter_wild_any" not in classic.to_table()
    assert load_rules(classic.to_table()) == classic  # `eights rules show --toml` reads back
    with pytest.raises(RulesError, match="'starter_wild_any' cannot be combined with "
                                         "'starter_wild'"):
        load_rules({"starter_wild_any": True, "starter_wild": "plain"})
    with pytest.raises(RulesError, match="'starter_wild_any' cannot be combined with "
                                         "'starter_wild'"):
        load_rules("classic", ["starter_wild_any=true", "starter_wild=plain"])
    with pytest.raises(RulesError, match="'starter_wild_any' has bad value 2; allowed: true "
                                         "or false"):
        load_rules({"starter_wild_any": 2})
    with pytest.raises(RulesError, match="'starter_wild' has bad value 'dealer'"):
        load_rules({"starter_wild": "dealer"})
    schema = rules_schema()
    assert schema["properties"]["starter_wild"]["enum"] == ["plain", "any", "dealer-names",
                                                            "first-names"]
    assert "old name of 'starter_wild'" in schema["properties"]["starter_wild_any"]["description"]
    validator = Draft202012Validator(schema)
    assert validator.is_valid({"starter_wild_any": True})
    assert validator.is_valid({"starter_wild": "any"})
    assert not validator.is_valid({"starter_wild_any": True, "starter_wild": "any"})


# all of them at one table -------------------------------------------------------

EVERY_MECHANISM = {
    "extends": HA, "reverse_two": "skip", "forced_draw_ends_turn": False,
    "draw": "one-must-play", "starter_wild": "any", "starter_redraw": [],
    "cards": {"J": {"out_multiplier": 2}, "9": {"any_follows": True, "draw": 2, "stack": True},
              "K": {"wild": True, "name_suit": True, "wild_if": "no-suit", "draw": 4}},
}
"""A house table with every mechanism of this file at once."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_mechanism_at_one_table_with_every_bot(players: int) -> None:
    """The mechanisms combine: every bot plays legally on a table that has them all, and
    a world rebuilt from the observation (as ismcts does) has the same legal actions."""
    rules = load_rules(EVERY_MECHANISM)
    bots = [make_bot(spec) for spec in ("random", "greedy", "expert", "ismcts:iterations=20")]
    for seed in range(3):
        g = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.over:
            seat = g.to_move
            assert rebuilt(g).legal_actions() == g.legal_actions()
            bot = bots[(seat + seed) % len(bots)]
            g.apply(bot.choose(g.observe(seat), g.legal_actions(), rng))  # raises if illegal
            steps += 1
            assert steps < 5000, "the round did not end"
