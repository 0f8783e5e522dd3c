"""The mechanisms of the family that act on the end of a hand (docs/rules.md, "New
mechanisms"): a draw card played as the last card still served, cards one may not go out
on. Each is a rules field with its default declared once, on
stacked decks; the rules that need each one are named in the test's docstring."""

from __future__ import annotations

import random

import pytest

from eights import Game, RulesError, load_rules, preset_names
from eights.engine.schema import rules_schema
from eights.i18n import translator
from eights.i18n.explain import describe
from stacked import cards, play, stacked

HA = "huit-americain"
"""J reverses, 7 skips, 2 and A make the next player draw 2 (A stacks), 10 plays again."""


@pytest.mark.parametrize("name", preset_names())
def test_the_defaults_leave_every_preset_unchanged(name: str) -> None:
    rules = load_rules(name)
    assert not rules.serve_last_draw


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

