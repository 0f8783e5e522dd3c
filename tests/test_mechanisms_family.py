"""The family's mechanisms as data, each on inline rules over a plain base, so that each is
shown to work alone and with the others, whatever preset uses it: multi-card plays (SW3,
SW5, SW6, SW7, SW8, LC6), card tables and stacking across ranks (BJ2-BJ6), pass-on skips
(MM5 and PE8's toggle), play on and placings (TS11, TS12), the naming starters (TS3,
UC3)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from eights import Card, Game, RulesError, Suit, load_rules
from eights.engine.rules import Rules
from stacked import assert_illegal, hands, legal, play, stacked

BASE: dict[str, Any] = {
    "players": [2, 6], "default_players": 4, "hand_size": 4, "reshuffle": True,
    "draw": "one-end",
}
"""A plain game: four cards each, draw one and the turn ends."""


def rules(cards_table: dict[str, Any] | None = None, /, **top: Any) -> Rules:
    return load_rules({**BASE, **top, "cards": cards_table or {}})


MULTI: dict[str, Any] = {"multi_play": "same-rank"}


# --------------------------------------------------------------------------- multi_play


def test_sw3_one_card_under_the_top_must_be_playable() -> None:
    """SW3: ``7c+7h`` on a 5h is legal (the 7h goes down first); ``7h+7c`` is not (the 7c
    cannot go down first); the top card becomes the up-card."""
    g = stacked(rules(**MULTI), ["2c 3c 4c 6c", "7c 7h 9s Kd"], "5h")
    assert g.to_play == 1
    assert "7h+7c" in legal(g) and "7c+7h" not in legal(g)
    assert_illegal(g, "7c+7h")
    assert_illegal(g, "7h+9s")  # two ranks
    step = g.apply("7h+7c")
    assert str(g.up_card) == "7c" and step.counts() == (0, 0)
    assert [str(c) for c in g.discard] == ["5h", "7h", "7c"]
    assert hands(g)[1] == "Kd 9s"


def test_sw3_three_cards_and_every_top() -> None:
    g = stacked(rules(**MULTI), ["2c 3c 4c 6c", "7c 7d 7h Ks"], "5h")
    plays = [a for a in legal(g) if "+" in a]
    # 7h goes down first in every play: any of the others may be on top
    assert {"7h+7c", "7h+7d", "7c+7h+7d", "7d+7h+7c"} <= set(plays)
    assert "7c+7d" not in plays and "7c+7d+7h" not in plays  # neither under the top matches


def test_sw3_no_multi_play_without_the_field() -> None:
    g = stacked(rules(), ["2c 3c 4c 6c", "7c 7d 7h Ks"], "5h")
    assert all("+" not in a for a in legal(g))
    assert_illegal(g, "7h+7c")


def test_sw5_draws_add_up_and_stack() -> None:
    """SW5: two 2s make 4; on a pending 2, ``2h+2s`` adds 4."""
    two = {"2": {"draw": 2, "stack": True}}
    g = stacked(rules(two, **MULTI), ["2c 2d 9c Tc", "2h 2s 5d 6d", "3c 4c 6c 8c"], "Kc",
                dealer=2)
    assert g.to_play == 0
    assert_illegal(g, "2d+2c")  # the 2d cannot go down first on the Kc
    g.apply("2c+2d")
    assert g.pending == 4 and g.to_play == 1
    assert "2h+2s" in legal(g) and "2s+2h" in legal(g)
    g.apply("2s+2h")
    assert g.pending == 8 and g.to_play == 2
    g.apply("draw")
    assert len(g.hands[2]) == 12 and g.to_play == 0


@pytest.mark.parametrize(("players", "seat_after"), [(2, 0), (3, 0), (4, 3), (5, 3)])
def test_sw6_k_skips_skip_k_players_never_the_one_who_laid_them(
        players: int, seat_after: int) -> None:
    """SW6: ``8h+8s`` from seat 0 skips the next two players holding cards, never seat 0."""
    skip = {"8": {"skip": True}}
    other = ["3c 4c 5c 6c", "3d 4d 5d 6d", "3s 4s 5s 6s", "2c 2d 2s 4h"]
    g = stacked(rules(skip, **MULTI), ["8h 8s 9c Tc", *other[:players - 1]], "Kh",
                dealer=players - 1)
    assert g.to_play == 0
    step = g.apply("8h+8s")
    assert g.to_play == seat_after and step.skipped == 1


def test_sw7_reverses_flip_once_each() -> None:
    """SW7: ``Jh+Js`` leaves the direction; three jacks reverse it."""
    jack = {"J": {"reverse": True}}
    hands_ = ["Jc Jh Js 9c", "3d 4d 5d 6d", "3s 4s 5s 6s", "2c 2d 2s 4h"]
    g = stacked(rules(jack, **MULTI), hands_, "Kh", dealer=3)
    g.apply("Jh+Jc")
    assert g.direction == 1 and g.to_play == 1
    g = stacked(rules(jack, **MULTI), hands_, "Kh", dealer=3)
    g.apply("Jh+Js+Jc")
    assert g.direction == -1 and g.to_play == 3


def test_sw8_several_wild_cards_name_one_suit_after_the_top() -> None:
    """SW8: ``Ah+As=d``: one suit, written after the top card."""
    ace = {"A": {"wild": True, "name_suit": True}}
    g = stacked(rules(ace, **MULTI), ["2c 3c 4c 6c", "Ah As 9s Kd"], "5c")
    assert {"Ah+As=d", "As+Ah=c"} <= set(legal(g))
    g.apply("Ah+As=d")
    assert g.suit == Suit.DIAMONDS and str(g.up_card) == "As"


def test_again_applies_once_to_the_top_card() -> None:
    ten = {"T": {"again": True, "again_penalty": 1}}
    g = stacked(rules(ten, **MULTI), ["2c 3c 4c 6c", "Th Ts 9s Kd"], "5h")
    g.apply("Th+Ts")
    assert g.to_play == 1 and g.again
    g.apply("9s")
    assert g.to_play == 0


def test_lc6_going_out_looks_at_the_top_card() -> None:
    """LC6: a top ace of ``going_out = "suit"`` goes out only if of the suit to follow."""
    ace = {"A": {"wild": True, "name_suit": True, "going_out": "suit"}}
    g = stacked(rules(ace, **MULTI, hand_size=2), ["2c 3c", "Ah As"], "5h")
    assert "As+Ah" in legal(g) and "Ah+As" not in legal(g)
    assert "Ah" not in legal(g)  # one ace alone leaves one card: it names a suit
    step = g.apply("As+Ah")
    assert step.out == 1 and g.over


def test_a_rank_that_may_not_cover_itself_never_goes_down_several() -> None:
    """MM6 with multi_play: a jack may not be played on a jack, so never two at once."""
    jack = {"J": {"wild": True, "name_suit": True, "not_on": ["J"]}}
    g = stacked(rules(jack, **MULTI), ["2c 3c 4c 6c", "Jh Js 9s Kd"], "5h")
    assert all("+" not in a for a in legal(g))


# --------------------------------------------------------------------------- card tables


BLACK_JACK: dict[str, Any] = {
    "2": {"draw": 2, "stack_with": ["2", "Jc", "Js"], "cancelled_by": ["Jd", "Jh"]},
    "Jc": {"draw": 5, "stack_with": ["2", "J"], "cancelled_by": ["Jd", "Jh"]},
    "Js": {"draw": 5, "stack_with": ["2", "J"], "cancelled_by": ["Jd", "Jh"]},
}


def test_bj2_a_card_table_overrides_its_rank() -> None:
    r = rules(BLACK_JACK)
    assert r.rule_of(Card.parse("Js")).draw == 5 and r.rule_of(Card.parse("Jh")).draw == 0
    assert r.card(Card.parse("Js").rank).draw == 0
    assert r.to_table()["cards"]["Js"]["stack_with"] == ["2", "Jc", "Js"]
    assert load_rules(r.to_table()) == r


def test_bj3_pick_ups_stack_across_ranks() -> None:
    """BJ3: ``2h``, then ``Js``, then ``2c`` leaves 9 for the next player."""
    g = stacked(rules(BLACK_JACK), ["2h 5d 6d 7d", "Js 5c 6c 7c", "2c 5s 6s 7s",
                                    "3h 4h 8h 9h"], "Kh", dealer=3)
    play(g, "2h Js 2c")
    assert g.pending == 9 and g.to_play == 3
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert len(g.hands[3]) == 13


def test_bj4_a_red_jack_cancels_and_bj6_rules_do_not_mix() -> None:
    g = stacked(rules(BLACK_JACK, **MULTI), ["2h 5d 6d 7d", "Jc Jd Jh Js", "2c 5s 6s 7s",
                                             "3h 4h 8h 9h"], "Kh", dealer=3)
    g.apply("2h")
    options = legal(g)
    assert {"Jc", "Js", "Jd", "Jh", "Jc+Js", "Js+Jc", "Jd+Jh", "Jh+Jd"} <= set(options)
    assert not any(a.count("+") and {"Jc", "Jd"} <= set(a.split("+")) for a in options)
    assert_illegal(g, "Jc+Jd")
    g.apply("Jd+Jh")
    assert g.pending == 0 and g.to_play == 2 and str(g.up_card) == "Jh"


def test_stack_with_must_name_cards_with_a_draw() -> None:
    with pytest.raises(RulesError, match=r"cards.2.stack_with lists 9c, which has no 'draw'"):
        rules({"2": {"draw": 2, "stack_with": ["9c"]}})
    with pytest.raises(RulesError, match=r"stack_with lists 9, but no card of that rank"):
        rules({"2": {"draw": 2, "stack_with": ["9"]}})
    with pytest.raises(RulesError, match=r"cards.Jq"):
        rules({"Jq": {"draw": 2}})


# --------------------------------------------------------------------------- pass_on


PASS_ON = {"8": {"skip": True, "pass_on": True}}


def test_mm5_toggle_the_skipped_player_passes_the_skip_on() -> None:
    """MM5's toggle: the skipped player may play an 8; the skip falls on the next player."""
    g = stacked(rules(PASS_ON), ["8h 5d 6d 7d", "8c 5c 6c 7c", "2s 5s 6s 7s"], "Kh", dealer=2)
    g.apply("8h")
    assert g.to_play == 1 and g.skip_due == 1
    assert legal(g) == ["8c", "pass"]
    assert g.observe(1).skip_due == 1
    g.apply("8c")
    assert g.to_play == 2 and legal(g) == ["pass"]
    g.apply("pass")
    assert g.to_play == 0 and g.skip_due == 0


def test_pass_on_with_several_skip_cards() -> None:
    """With multi_play, the skip passed on counts the skip cards of the last play."""
    g = stacked(rules(PASS_ON, **MULTI), ["8h 8s 6d 7d", "5c 6c 7c 9c", "2s 5s 6s 7s",
                                          "3h 4h 9h Th"], "Kh", dealer=3)
    g.apply("8h+8s")
    assert g.to_play == 1 and g.skip_due == 2
    g.apply("pass")
    assert g.to_play == 3


def test_pass_on_needs_a_skip() -> None:
    with pytest.raises(RulesError, match="pass_on"):
        rules({"8": {"pass_on": True}})


# --------------------------------------------------------------------------- play_on


PLAY_ON: dict[str, Any] = {"play_on": True, "scoring": "placings"}


def test_ts11_play_goes_on_and_ts12_placings() -> None:
    """TS11: seat 0 goes out and leaves; the others play on; TS12 placing minus one."""
    g = stacked(rules(**PLAY_ON, hand_size=2), ["5h 9d", "9h 2c", "9s 3s"], "4h", dealer=2)
    play(g, "5h 9h 9s 9d")
    assert g.finished == [0] and not g.over and g.to_play == 1
    assert g.observe(1).finished == (0,)
    assert legal(g) == ["draw"]  # 2c on a 9d
    play(g, "draw")
    assert g.to_play == 2  # seat 0 is passed over
    seen = g.observe(2)
    assert seen.finished == (0,)


def test_ts12_the_round_ends_with_one_player_holding_cards() -> None:
    g = stacked(rules(**PLAY_ON, hand_size=1), ["5h", "6h", "9s"], "4h", dealer=2)
    play(g, "5h 6h")
    assert g.over and g.finished == [0, 1]
    assert g.round_points == [0, 1, 2] and g.round_winners == [0]


def test_ts12_holders_are_placed_by_hand_value_ties_sharing() -> None:
    g = stacked(rules(**PLAY_ON, hand_size=2), ["5h 6h", "9c Tc", "9d Td", "2s 3s"], "4h",
                "4c 4d 4s", dealer=3)
    play(g, "5h draw draw draw 6h")
    assert g.finished == [0] and not g.over
    g2 = stacked(rules(scoring="placings", hand_size=2), ["5h 6h", "9c Tc", "9d Td", "2s 3s"],
                 "4h", "4c 4d 4s", dealer=3)
    play(g2, "5h draw draw draw 6h")
    assert g2.over
    # seat 0 first; seat 3 holds the least; seats 1 and 2 tie and share 3rd place
    assert g2.round_points is not None
    assert g2.round_points[0] == 0 and g2.round_points[3] == 1
    assert g2.round_points[1] == g2.round_points[2] == 2


def test_play_on_and_placings_cannot_be_combined_with_teams() -> None:
    with pytest.raises(RulesError, match="'play_on' cannot be combined with 'teams'"):
        rules(play_on=True, teams=[4])
    with pytest.raises(RulesError, match="'placings' cannot be combined with 'teams'"):
        load_rules("les-huit", ["scoring=placings"])


# --------------------------------------------------------------------------- naming


WILD_J = {"J": {"wild": True, "name_suit": True}}


def test_ts3_the_dealer_names_the_suit_of_a_starter_jack() -> None:
    g = stacked(rules(WILD_J, starter_wild="dealer-names"), ["5h 6h 7h 8h", "5s 6s 7s 8s",
                                                              "5c 6c 7c 8c"], "Jd", dealer=2)
    assert g.to_play == 2 and g.naming and legal(g) == ["=c", "=d", "=h", "=s"]
    assert g.observe(2).naming and g.observe(0).legal == ()
    g.apply("=s")
    assert g.to_play == 0 and g.suit == Suit.SPADES and not g.naming
    assert legal(g) == ["draw"]


def test_uc3_the_first_player_names_then_plays() -> None:
    g = stacked(rules(WILD_J, starter_wild="first-names"), ["5h 6h 7h 8h", "5s 6s 7s 8s",
                                                             "5c 6c 7c 8c"], "Jd", dealer=2)
    assert g.to_play == 0 and legal(g) == ["=c", "=d", "=h", "=s"]
    g.apply("=h")
    assert g.to_play == 0 and "5h" in legal(g)


def test_a_plain_starter_needs_no_name() -> None:
    g = stacked(rules(WILD_J, starter_wild="dealer-names"), ["5h 6h 7h 8h", "5s 6s 7s 8s",
                                                              "5c 6c 7c 8c"], "Kd", dealer=2)
    assert not g.naming and g.to_play == 0


# --------------------------------------------------------------------------- together


EVERYTHING: dict[str, Any] = {
    **MULTI, "play_on": True, "scoring": "placings", "starter_wild": "first-names",
    "reverse_two": "skip", "announce_last_card": True, "call_out": True, "jokers": 1,
    "cards": {
        **BLACK_JACK, "8": {"skip": True, "pass_on": True}, "K": {"reverse": True},
        "A": {"wild": True, "name_suit": True}, "Q": {"again": True, "again_penalty": 1},
        "X": {"wild": True, "any_follows": True},
    },
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_new_mechanism_together_plays_and_worlds_agree(players: int) -> None:
    r = load_rules({**BASE, **EVERYTHING, "hand_size": 5})
    rng = random.Random(players)
    for seed in range(6):
        g = Game(r, players, seed=seed)
        while not g.over:
            legal_now = g.legal_actions()
            seen = g.observe(g.to_move)
            assert list(seen.legal) == legal_now
            hidden = [list(g.hands[s]) for s in range(players)]
            world = Game.from_observation(seen, hidden, list(g.stock), random.Random(0))
            assert world.legal_actions() == legal_now
            g.apply(rng.choice(legal_now))
        assert g.round_points is not None and sorted(g.round_points)[0] == 0
        assert g.round_winners


def test_nothing_is_to_follow_while_the_suit_is_being_named() -> None:
    """TS3: until the dealer names it, the observation has no suit to follow."""
    g = stacked(rules(WILD_J, starter_wild="dealer-names"), ["5h 6h 7h 8h", "5s 6s 7s 8s",
                                                              "5c 6c 7c 8c"], "Jd", dealer=2)
    assert g.observe(0).suit is None and g.observe(0).naming
    g.apply("=c")
    assert g.observe(0).suit is Suit.CLUBS and not g.observe(0).naming


def test_mm10_with_ts11_the_multiplier_reads_the_first_player_out_s_card() -> None:
    """MM10 under play_on: the round's scores are multiplied by the card that emptied the
    winner's (the first player out's) hand, not by the card that ended the round."""
    r = rules({"J": {"wild": True, "name_suit": True, "out_multiplier": 2}},
              play_on=True, hand_size=1)
    g = stacked(r, ["Jh", "5h", "9c"], "4h", dealer=2)
    play(g, "Jh=h 5h")
    assert g.over and g.finished == [0, 1]
    assert g.round_points == [0, 0, 2 * 9]
    g = stacked(r, ["5h", "Jh", "9c"], "4h", dealer=2)
    play(g, "5h Jh=h")
    assert g.over and g.round_points == [0, 0, 9]
