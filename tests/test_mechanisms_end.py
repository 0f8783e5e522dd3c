"""The mechanisms of the family that act on the end of a hand (docs/rules.md, "New
mechanisms"): a draw card played as the last card still served, cards one may not go out
on, cards that must be covered. Each is a rules field with its default declared once, on
stacked decks; the rules that need each one are named in the test's docstring."""

from __future__ import annotations

import random
import re

import pytest

from eights import Game, Rank, RulesError, load_rules
from eights.engine.rules import GoingOut
from eights.engine.schema import rules_schema
from eights.i18n import translator
from eights.i18n.explain import describe
from eights.i18n.text import describe_move
from stacked import assert_illegal, cards, legal, play, stacked

HA = "huit-americain"
"""J reverses, 7 skips, 2 and A make the next player draw 2 (A stacks), 10 plays again."""

SEEDS = ["classic", "crazy-eights", "huit-americain", "huit-fou", "les-huit", "openspiel"]
"""The presets that predate the family (docs/rules.md: "every default keeps the four seeds
and `openspiel` unchanged"); the family's presets set these keys on purpose."""


@pytest.mark.parametrize("name", SEEDS)
def test_the_defaults_leave_every_preset_unchanged(name: str) -> None:
    rules = load_rules(name)
    assert not rules.serve_last_draw and rules.out_penalty == 2
    assert all(rules.card(rank).going_out is GoingOut.YES for rank in Rank)
    assert not any(rules.card(rank).must_cover for rank in Rank)


def rebuilt(g: Game) -> Game:
    """The game as a search rebuilds it from the observation of the player to move."""
    seen = g.observe(g.to_move)
    return Game.from_observation(seen, g.hands, g.stock, random.Random(0))


# serve_last_draw ----------------------------------------------------------------


@pytest.mark.parametrize(("serve", "served"), [("true", "9s Kd"), ("false", "")])
def test_serve_last_draw(serve: str, served: str) -> None:
    """LC8, UC10: ``serve_last_draw = true``: a draw card played as the last card is still
    served; the next player takes it in full at once, the round then ends, and the served
    cards count in the scoring (UC11). By default the round ends at once (HF11)."""
    g = stacked(HA, ["3c 4h", "2h 5h"], "6h", "9s Kd",
                overrides=["hand_size=2", "announce_last_card=false",
                           "scoring=winner-collects", f"serve_last_draw={serve}"])
    play(g, "5h 4h")
    step = g.apply("2h")
    assert g.over and g.out == 1 and step.out == 1
    assert sorted(g.hands[0]) == sorted(cards(f"3c {served}"))
    assert step.received == (tuple(cards(served)), ())
    assert g.round_points == [0, 3 + (9 + 10 if served else 0)]  # UC11: served cards count
    assert g.pending == 0 and g.observe(0).pending_draw == 0


def test_serve_last_draw_serves_the_whole_run() -> None:
    """LC8 with LC4's stacking: an ace played last on a pending run of two aces serves the
    whole run, 6 cards, to the next player."""
    g = stacked(HA, ["Ah 4c", "Ac Ad"], "6c", "9s Kd 3d 4d 5s 6s",
                overrides=["hand_size=2", "announce_last_card=false", "serve_last_draw=true"])
    play(g, "Ac Ah")
    assert g.pending == 4
    step = g.apply("Ad")
    assert g.over and g.out == 1
    assert step.received == (tuple(cards("9s Kd 3d 4d 5s 6s")), ())
    assert len(g.hands[0]) == 7


def test_serve_last_draw_goes_to_the_next_player_after_a_reverse() -> None:
    """LC8: the victim is the next player, in the direction the last card leaves."""
    rules = ["hand_size=2", "announce_last_card=false", "serve_last_draw=true",
             "cards.2.reverse=true"]
    g = stacked(HA, ["4h 3c", "2h 5h", "9h 7d"], "6h", "9s Kd", overrides=rules)
    play(g, "5h 9h 4h")
    g.apply("2h")  # it reverses: seat 0 is now next, not seat 2
    assert g.over and [len(h) for h in g.hands] == [3, 0, 1]


def test_serve_last_draw_cannot_give_cards_back_to_the_player_out() -> None:
    """HF9's overflow would send cards past the limit back to the player who went out."""
    with pytest.raises(RulesError, match="'overflow' cannot be combined with "
                                         "'serve_last_draw'"):
        load_rules(HA, ["hand_limit=10", "overflow=true", "serve_last_draw=true"])
    with pytest.raises(RulesError, match="'serve_last_draw' has bad value 2; allowed: true "
                                         "or false"):
        load_rules(HA, ["serve_last_draw=2"])
    prop = rules_schema()["properties"]["serve_last_draw"]
    assert prop["type"] == "boolean" and prop["default"] is False
    assert "LC8" in prop["description"]


def test_serve_last_draw_in_words() -> None:
    rules = load_rules(HA, ["serve_last_draw=true"])
    assert any("played as the last card, it is still served" in line
               for line in describe(rules))
    assert any("posée en dernière carte, elle est quand même servie" in line
               for line in describe(rules, translator("fr")))
    assert not any("still served" in line for line in describe(load_rules(HA)))


# going_out ----------------------------------------------------------------------

LAST = ["hand_size=2", "announce_last_card=false"]
"""Two-card hands: seat 1 plays 5h, seat 0 plays 4h, and seat 1 holds its last card."""


def last_card(card: str, going_out: str, *extra: str) -> Game:
    g = stacked(HA, ["4h 3c", f"{card} 5h"], "6h", "9s Kd 3d Ac 2c",
                overrides=[*LAST, f"cards.{card[0]}.going_out={going_out}", *extra])
    play(g, "5h 4h")
    assert g.to_play == 1 and len(g.hands[1]) == 1
    return g


@pytest.mark.parametrize(("card", "going_out", "expected"), [
    ("8h", "yes", ["8h"]),  # HF11: any card may go out, naming nothing
    ("8s", "yes", ["8s"]),
    ("8h", "suit", ["8h"]),  # LC6: of the suit to follow, it may go out
    ("8s", "suit", ["draw"]),  # LC6: of another suit, it is not a legal play
    ("8h", "no", ["draw"]),  # PE12: never
    ("8h", "penalty", ["8h=c", "8h=d", "8h=h", "8h=s"]),  # PE12's toggle: play goes on
    ("Kh", "no", ["draw"]),  # a plain card too
])
def test_going_out(card: str, going_out: str, expected: list[str]) -> None:
    """LC6, PE12, SW10: ``going_out`` decides whether a play of the card may empty the
    hand: "yes", "suit" (only of the suit to follow before the play), "no" (never)."""
    g = last_card(card, going_out)
    assert legal(g) == expected
    assert rebuilt(g).legal_actions() == g.legal_actions()
    if expected == ["draw"]:
        assert_illegal(g, card)


def test_going_out_only_limits_the_last_card() -> None:
    """PE12: a special card is played as usual while it is not the last card."""
    g = stacked(HA, ["4h 3c", "8h 5h"], "6h", overrides=[*LAST, "cards.8.going_out=no"])
    assert legal(g) == ["5h", "8h=c", "8h=d", "8h=h", "8h=s"]


def test_going_out_suit_follows_the_named_suit() -> None:
    """LC6: the suit to follow as it stood before the play: the one a wild card named."""
    for named, expected in (("h", ["8h"]), ("d", ["draw"])):
        g = stacked(HA, ["8c 3c", "5h 8h"], "6h", overrides=[*LAST, "cards.8.going_out=suit"])
        play(g, f"5h 8c={named}")
        assert legal(g) == expected


@pytest.mark.parametrize("penalty", [2, 5])
def test_going_out_penalty(penalty: int) -> None:
    """PE12's toggle: ``going_out = "penalty"``: the play is legal and names a suit, but the
    player draws ``out_penalty`` cards at the end of the turn and stays in the round."""
    g = last_card("8h", "penalty", f"out_penalty={penalty}")
    step = g.apply("8h=s")
    assert not g.over and step.out is None and g.to_play == 0
    assert step.received == ((), tuple(cards("9s Kd 3d Ac 2c")[:penalty]))
    assert len(g.hands[1]) == penalty and str(g.up_card) == "8h" and g.suit == 3


def test_going_out_penalty_is_said_in_words() -> None:
    """PE12's toggle: the log says why the player drew instead of going out."""
    g = last_card("8h", "penalty")
    step = g.apply("8h=s")
    names = ["Ana", "Bob"]
    assert "Bob may not go out on 8♥ and draws 2 cards" in describe_move(
        g, names, step, translator("en"))
    assert "Bob ne peut pas finir sur 8♥ et pioche 2 cartes" in describe_move(
        g, names, step, translator("fr"))


def test_going_out_penalty_after_the_card_effect() -> None:
    """PE12's toggle with a skip: the card's effect applies, then the penalty is drawn at
    the end of the turn, and with two players the same player is next (skip)."""
    g = last_card("7h", "penalty")
    step = g.apply("7h")
    assert step.skipped == 0 and g.to_play == 1
    assert step.received == ((), tuple(cards("9s Kd")))


def test_going_out_penalty_with_nothing_to_draw_goes_out() -> None:
    """PE12's toggle: with nothing left to draw the player goes out anyway."""
    g = last_card("8h", "penalty", "reshuffle=false")
    g.stock[:] = []
    step = g.apply("8h=s")
    assert g.over and step.out == 1 and g.out == 1


def test_going_out_is_checked_when_the_file_loads() -> None:
    """Errors name the key and what is allowed; pairs without meaning name both fields."""
    with pytest.raises(RulesError, match=re.escape(
            "'cards.8.going_out' has bad value 'maybe'; allowed: 'yes', 'suit', 'no', "
            "'penalty'")):
        load_rules(HA, ["cards.8.going_out=maybe"])
    with pytest.raises(RulesError, match=re.escape(
            "'cards.X.going_out' has bad value 'suit'")):
        load_rules(HA, ["jokers=1", "cards.X.going_out=suit"])
    with pytest.raises(RulesError, match=re.escape(
            "cards.J: 'out_multiplier' cannot be combined with 'going_out' = 'no'")):
        load_rules(HA, ["cards.J.going_out=no", "cards.J.out_multiplier=2"])
    for bad in ("0", "53", "true"):
        with pytest.raises(RulesError, match=r"'out_penalty' has bad value .*a whole number "
                                             r"from 1 to 52"):
            load_rules(HA, [f"out_penalty={bad}"])
    load_rules(HA, ["cards.T.going_out=no", "cards.J.going_out=suit", "out_penalty=5"])
    schema = rules_schema()
    card = schema["$defs"]["card"]["properties"]["going_out"]
    assert card["enum"] == ["yes", "suit", "no", "penalty"] and card["default"] == "yes"
    assert "LC6" in card["description"]
    assert schema["properties"]["out_penalty"] == {
        "type": "integer", "minimum": 1, "maximum": 52, "default": 2,
        "description": schema["properties"]["out_penalty"]["description"]}


@pytest.mark.parametrize(("override", "english", "french"), [
    ("cards.8.going_out=suit", "a player may go out on it only if it is of the suit to follow",
     "on ne peut finir sur l’une d’elles que si elle est de la couleur à suivre"),
    ("cards.8.going_out=no", "nobody may go out on it", "personne ne peut finir sur l’une d’elles"),
    ("cards.8.going_out=penalty", "a player who plays it as their last card draws 2 and "
     "stays in the round", "pioche 2 cartes et reste dans la manche"),
])
def test_going_out_in_words(override: str, english: str, french: str) -> None:
    rules = load_rules(HA, [override])
    assert any(english in line for line in describe(rules))
    assert any(french in line for line in describe(rules, translator("fr")))
    assert not any(english in line for line in describe(load_rules(HA)))


# must_cover ---------------------------------------------------------------------

COVER = ["hand_size=3", "cards.K.must_cover=true"]
"""Seat 1 lays Kh on the starter 5h; seat 0 holds no heart and no king."""


@pytest.mark.parametrize("policy", ["one-may-play", "one-end", "one-must-play", "repeat"])
def test_must_cover(policy: str) -> None:
    """TS9: ``must_cover = true``: while the card is the up-card, a player who cannot play
    on it draws one card at a time until one can be played, and must play it, whatever the
    draw policy."""
    g = stacked(HA, ["3c 4c Qs", "Kh 4d 3s"], "5h", "9s 3d 6h 2c",
                overrides=[*COVER, f"draw={policy}"])
    g.apply("Kh")
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received == (tuple(cards("9s 3d 6h")), ())
    assert g.to_play == 0 and legal(g) == ["6h"] and g.observe(0).drawn == cards("6h")[0]
    assert rebuilt(g).legal_actions() == g.legal_actions()
    assert_illegal(g, "pass")
    g.apply("6h")
    assert g.to_play == 1 and str(g.up_card) == "6h"


def test_must_cover_off_by_default() -> None:
    """HA4: without ``must_cover`` the draw policy applies: one card, and it did not fit."""
    g = stacked(HA, ["3c 4c Qs", "Kh 4d 3s"], "5h", "9s 3d 6h", overrides=["hand_size=3"])
    g.apply("Kh")
    step = g.apply("draw")
    assert step.received == (tuple(cards("9s")), ()) and g.to_play == 1


def test_must_cover_with_nothing_left_to_draw() -> None:
    """TS9: if nothing is left to draw before a playable card shows, the turn ends."""
    g = stacked(HA, ["3c 4c Qs", "Kh 4d 3s"], "5h", "9s 3d",
                overrides=[*COVER, "reshuffle=false"])
    g.stock[:] = cards("9s 3d")
    g.apply("Kh")
    step = g.apply("draw")
    assert step.received == (tuple(cards("9s 3d")), ()) and g.to_play == 1 and not g.stock


def test_must_cover_only_while_the_card_is_up() -> None:
    """TS9: once covered, the draw policy is back."""
    g = stacked(HA, ["3c 4c Qh", "Kh 4d 3s"], "5h", "9d 6h", overrides=COVER)
    play(g, "Kh Qh")  # seat 0 covers the king
    step = g.apply("draw")  # HA4: one card, it does not fit, the turn ends
    assert step.received == ((), tuple(cards("9d"))) and g.to_play == 0


def test_must_cover_is_checked_when_the_file_loads() -> None:
    with pytest.raises(RulesError, match=re.escape(
            "cards.T: 'must_cover' cannot be combined with 'again'")):
        load_rules(HA, ["cards.T.must_cover=true"])
    with pytest.raises(RulesError, match=re.escape(
            "'cards.K.must_cover' has bad value 1; allowed: true or false")):
        load_rules(HA, ["cards.K.must_cover=1"])
    prop = rules_schema()["$defs"]["card"]["properties"]["must_cover"]
    assert prop["type"] == "boolean" and prop["default"] is False and "TS9" in prop["description"]


def test_must_cover_in_words() -> None:
    rules = load_rules(HA, ["cards.K.must_cover=true"])
    english = "draws cards one at a time until one can be played, then plays it"
    assert any(english in line for line in describe(rules))
    assert any("pioche une carte à la fois jusqu’à en avoir une qui se pose" in line
               for line in describe(rules, translator("fr")))
    assert not any(english in line for line in describe(load_rules(HA)))

# all of them at one table -------------------------------------------------------

END_MECHANISMS = {
    "extends": HA, "serve_last_draw": True, "out_penalty": 3,
    "cards": {"8": {"going_out": "suit"}, "7": {"going_out": "no"},
              "A": {"going_out": "penalty"}, "K": {"must_cover": True}},
}
"""A house table with every mechanism of this file at once."""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_end_mechanisms_keep_the_step_and_the_searches_right(players: int) -> None:
    """LC6, LC8, PE12, TS9: random play on a table with them all: every Step says exactly which
    cards each seat received (served draws, out penalties), and a world rebuilt from the
    observation has the same legal actions."""
    from test_properties import check_step

    rules = load_rules(END_MECHANISMS)
    for seed in range(4):
        g = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if g.over:
                break
            assert rebuilt(g).legal_actions() == g.legal_actions()
            check_step(g, rng.choice(g.legal_actions()))
        assert g.over


def test_going_out_penalty_on_a_play_again_card_lapses_the_play_again() -> None:
    """PE12's toggle on a card that plays again (PE7's 7 and K): the last card goes down,
    the "play again" lapses with the hand empty, and the player draws ``out_penalty``."""
    g = stacked(HA, ["3c", "Th"], "Qh", "5s 6s 7s",
                overrides=["hand_size=1", "announce_last_card=false",
                           "cards.T.going_out=penalty", "out_penalty=3"])
    assert g.to_play == 1 and legal(g) == ["Th"]
    step = g.apply("Th")
    assert not g.over and step.out is None and not g.again
    assert step.received[1] == tuple(cards("5s 6s 7s")) and g.to_play == 0
