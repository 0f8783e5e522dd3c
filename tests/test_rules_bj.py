"""Preset ``black-jack``: rules BJ1–BJ8 of docs/rules.md, each on a stacked deck, the
mixed pick-ups of 2s and black jacks, the red jacks that cancel them, the queens that must
be covered, and the house rule its Decision names (``cards.Jc.draw = 7``,
``cards.Js.draw = 7``). The preset extends ``switch``: SW1, SW3–SW6 and SW8–SW11 hold as
tests/test_rules_sw.py plays them; a few are checked here on the black-jack table."""

from __future__ import annotations

import pytest

from eights import Game, Suit, load_rules
from stacked import assert_illegal, cards, filled, legal, make_rules, play, show, stacked

BJ = "black-jack"
POOL = cards("3c 4c 5c 6c 7c 9c Tc 3d 4d 5d 6d 7d 9d Td")
"""Clubs and diamonds without a trick card: nothing among them follows a heart or a spade,
answers a pick-up, or has an effect."""


def table(hands: list[str], starter: str = "5h", draws: str = "", *,
          overrides: tuple[str, ...] = ()) -> Game:
    """Seat 0 plays first (the dealer is the last seat) with ``hands[0]``, seat 1 next with
    ``hands[1]`` and so on; a hand ``"-"`` is filled with clubs and diamonds that are in no
    other hand. Every hand has the size of ``hands[0]``."""
    return filled(BJ, POOL, hands, starter, draws, overrides=overrides)


# BJ1 ----------------------------------------------------------------------------

QUIET = ["3c 4c 5c 6c 7c 9c", "3d 4d 5d 6d 7d 9d", "3h 4h 5h 6h 7h 9h", "3s 4s 5s 6s 7s 9s"]
"""Four hands of six with no trick card and no 10."""
SIX = ["hand_size=6"]


def test_bj1_an_a_2_8_j_q_or_k_starter_goes_back() -> None:
    g = stacked(BJ, QUIET, "Ah 2c 8d Js Jd Qh Kc Tc", overrides=SIX)
    assert show(g.discard) == "Tc"
    assert all(c in g.stock for c in cards("Ah 2c 8d Js Jd Qh Kc"))
    assert (g.to_play, g.suit, g.pending, g.direction) == (1, Suit.CLUBS, 0, 1)


def test_bj1_replaces_sw2_other_starters_stay() -> None:
    """A 9 is no trick card; a queen or a king is one here (in ``switch`` it would stay)."""
    assert show(stacked(BJ, QUIET, "8c Td", overrides=SIX).discard) == "Td"
    assert show(stacked("switch", QUIET, "Qh", overrides=SIX).discard) == "Qh"
    assert show(stacked("switch", QUIET, "Kh", overrides=SIX).discard) == "Kh"
    assert show(stacked(BJ, QUIET, "Qh Kh Th", overrides=SIX).discard) == "Th"


# BJ2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("jack", ["Jc", "Js"])
def test_bj2_a_black_jack_makes_the_next_player_pick_up_five(jack: str) -> None:
    g = table([f"{jack} 9d 3d", "Qh Kh 3h", "-"], starter=f"5{jack[1]}")
    g.apply(jack)
    assert (g.to_play, g.pending, legal(g)) == (1, 5, ["draw"])
    g.apply("draw")
    assert (len(g.hands[1]), g.to_play, g.pending) == (3 + 5, 2, 0)


def test_bj2_decision_a_black_jack_picks_up_seven() -> None:
    """BJ2 Decision: ``cards.Jc.draw = 7``, ``cards.Js.draw = 7`` (onlineblackjack21, the
    old Wikipedia page); they still stack with the 2s (BJ3)."""
    toggle = ("cards.Jc.draw=7", "cards.Js.draw=7")
    g = table(["Js 9d 3d", "Jc 5c 6c", "2c 9s Ts", "-"], starter="5s", overrides=toggle)
    play(g, "Js Jc 2c")
    assert g.pending == 7 + 7 + 2
    g.apply("draw")
    assert len(g.hands[3]) == 3 + 16
    rules = make_rules(BJ, toggle)
    assert [rules.rule_of(c).draw for c in cards("Jc Js Jd Jh 2c")] == [7, 7, 0, 0, 2]


# BJ3 ----------------------------------------------------------------------------


def test_bj3_twos_and_black_jacks_stack_mixed_two_black_jack_two_makes_nine() -> None:
    """``2h``, then ``Js``, then ``2c`` leaves 9 for the next player."""
    g = table(["2h 9d 3d", "Js 2s 4h", "2c Jc 6h", "Qh Kh 5s"])
    g.apply("2h")
    assert (g.pending, legal(g)) == (2, ["2s", "Js", "draw"])  # a 2 or a black jack
    g.apply("Js")
    assert (g.to_play, g.pending, legal(g)) == (2, 7, ["2c", "Jc", "draw"])
    g.apply("2c")
    assert (g.to_play, g.pending, legal(g)) == (3, 9, ["draw"])
    g.apply("draw")
    assert (len(g.hands[3]), g.to_play, g.pending) == (3 + 9, 0, 0)


def test_bj3_a_two_on_a_black_jack_and_a_black_jack_on_a_black_jack() -> None:
    g = table(["Jc 9d 3d", "Js 4d 4h", "2c 6c 6h", "-"], starter="5c")
    play(g, "Jc Js 2c")
    assert (g.to_play, g.pending, str(g.up_card)) == (3, 12, "2c")


# BJ4 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("attack", "red"), [("2h", "Jh"), ("2h", "Jd"), ("Js", "Jh"),
                                             ("2s Js", "Jd")])
def test_bj4_a_red_jack_cancels_any_pending_pick_up(attack: str, red: str) -> None:
    """The red jack voids the pick-up (of 2s, black jacks or both), becomes the up-card,
    and the next player plays on it as usual."""
    attackers = attack.split()
    hands = [f"{attackers[0]} 9c 3c", *(f"{a} 4c 5c" for a in attackers[1:]),
             f"{red} 6c 7c", "9d 3h Ts", "-"]
    g = table(hands, starter=f"5{attackers[0][1]}")
    play(g, " ".join(attackers))
    victim = len(attackers)
    assert g.to_play == victim and g.pending > 0
    assert red in legal(g)
    step = g.apply(red)
    assert (g.pending, g.up_card, g.suit) == (0, cards(red)[0], Suit.parse(red[1]))
    assert (step.skipped, step.reversed, g.to_play) == (None, False, victim + 1)
    assert len(g.hands[victim]) == 2  # the red jack's player picks up nothing
    follow = "9d" if red == "Jd" else "3h"
    assert legal(g) == [follow, "draw"]  # the red jack's suit, as usual (not the Ts)


def test_bj4_with_nothing_pending_a_red_jack_is_a_plain_card() -> None:
    g = table(["Jh 9c 3c", "Jd 4c 5c", "-", "-"])
    step = g.apply("Jh")
    assert (step.skipped, step.reversed, g.pending, g.direction, g.to_play) == (
        None, False, 0, 1, 1)
    g.apply("Jd")  # by rank
    assert (g.to_play, g.suit, g.pending) == (2, Suit.DIAMONDS, 0)


def test_bj4_a_red_jack_voids_a_run_then_a_black_jack_starts_a_new_one() -> None:
    g = table(["2h 9c 3c", "Jh 4c 5c", "Jc 6c 7c", "-"])
    play(g, "2h Jh Jc")  # the Jc goes on the Jh by rank: a new pick-up of 5
    assert (g.to_play, g.pending) == (3, 5)


# BJ5 ----------------------------------------------------------------------------


def test_bj5_while_a_pick_up_is_pending_only_twos_and_jacks_answer() -> None:
    g = table(["2h 9c 3c 4c", "Ah 8h Qh Kh", "-"])
    g.apply("2h")
    assert legal(g) == ["draw"]  # aces, 8s, queens and kings do not answer
    for illegal in ("Ah=h", "8h", "Qh", "Kh"):
        assert_illegal(g, illegal)
    g2 = table(["2h 9c 3c 4c", "Ah 2d Jd Js", "-"])
    g2.apply("2h")
    assert legal(g2) == ["2d", "Jd", "Js", "draw"]


def test_bj5_the_player_who_takes_the_pick_up_loses_their_turn() -> None:
    g = table(["2h 9c 3c", "Qh Kh 3h", "-"])
    play(g, "2h draw")
    assert (g.to_play, len(g.hands[1]), g.pending) == (2, 5, 0)


# BJ6 ----------------------------------------------------------------------------


def test_bj6_black_and_red_jacks_never_go_down_together() -> None:
    g = table(["2h 9c 3c 4c 5c", "Jc Jd Jh Js 6h", "-"])
    g.apply("2h")
    assert legal(g) == ["Jc", "Jc+Js", "Jd", "Jd+Jh", "Jh", "Jh+Jd", "Js", "Js+Jc", "draw"]
    for illegal in ("Jc+Jd", "Jd+Jc", "Jh+Js", "Jc+Jh+Js", "Jc+Jd+Jh+Js"):
        assert_illegal(g, illegal)


def test_bj6_two_black_jacks_add_ten_to_a_pick_up() -> None:
    g = table(["2h 9c 3c 4c", "Jc Js 6h 7h", "-"])
    play(g, "2h Jc+Js")
    assert (g.to_play, g.pending, show(g.discard)) == (2, 12, "5h 2h Jc Js")
    g.apply("draw")
    assert (len(g.hands[2]), g.to_play) == (4 + 12, 0)


def test_bj6_two_black_jacks_with_nothing_pending_make_ten() -> None:
    g = table(["Jc Js 9c 3c", "-", "-"], starter="5c")
    g.apply("Jc+Js")
    assert (g.to_play, g.pending) == (1, 10)


def test_bj6_two_red_jacks_cancel_the_second_lies_plain() -> None:
    g = table(["2h 9c 3c 4c", "Jd Jh 5s 6s", "3h 6c 7c Ts", "-"])
    play(g, "2h Jd+Jh")
    assert (g.to_play, g.pending, g.direction, str(g.up_card), g.suit) == (
        2, 0, 1, "Jh", Suit.HEARTS)
    assert len(g.hands[1]) == 2 and legal(g) == ["3h", "draw"]


# BJ7 ----------------------------------------------------------------------------


def test_bj7_a_queen_must_be_covered_by_her_suit_a_queen_or_an_ace() -> None:
    g = table(["Qh 3h Qc Ac 9s 9c", "-", "-"])
    g.apply("Qh")
    assert g.to_play == 0 and g.again
    assert legal(g) == ["3h", *[f"Ac={s}" for s in "cdhs"], "Qc"]  # no draw while she can
    assert_illegal(g, "9s")
    assert_illegal(g, "draw")
    g.apply("3h")
    assert (g.to_play, g.again) == (1, False)


def test_bj7_a_player_who_cannot_cover_draws_one_and_the_turn_ends() -> None:
    g = table(["Qh 9s 9c", "-", "-"], draws="Kd")
    g.apply("Qh")
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert (g.to_play, show(g.hand(0))) == (1, "9c Kd 9s")


def test_bj7_several_queens_are_covered_once_on_the_top_queen() -> None:
    g = table(["Qh Qs 3s 4h 9c", "-", "-"])
    g.apply("Qh+Qs")
    assert (g.to_play, g.again, legal(g)) == (0, True, ["3s"])  # the spade: the top queen
    g.apply("3s")
    assert (g.to_play, g.again) == (1, False)


def test_bj7_covering_with_a_queen_means_covering_again() -> None:
    g = table(["Qh Qc 3c 9s", "-", "-"], starter="5h")
    play(g, "Qh Qc")
    assert (g.to_play, g.again, legal(g)) == (0, True, ["3c", "3c!"])
    g.apply("3c!")
    assert g.to_play == 1


def test_bj7_a_cover_with_an_eight_skips() -> None:
    g = table(["Qh 8h 9s 9c", "-", "-", "-"])
    play(g, "Qh 8h")
    assert g.to_play == 2


def test_bj7_going_out_on_a_queen_ends_the_round() -> None:
    g = table(["Qh", "-", "-"])
    g.apply("Qh")
    assert (g.over, g.out, g.again) == (True, 0, False)
    pair = table(["Qh Qs", "-", "-"])
    pair.apply("Qh+Qs")
    assert (pair.over, pair.out) == (True, 0)


# BJ8 ----------------------------------------------------------------------------


def test_bj8_jacks_do_not_reverse() -> None:
    g = table(["Jh Js 9c 3c", "-", "-", "-"])
    step = g.apply("Jh")
    assert (step.reversed, g.direction, g.to_play) == (False, 1, 1)


def test_bj8_a_king_reverses() -> None:
    g = table(["Kh 9c 3c", "-", "-", "-"])
    step = g.apply("Kh")
    assert (step.reversed, g.direction, g.to_play) == (True, -1, 3)


@pytest.mark.parametrize(("play_text", "direction", "after"), [
    ("Kh+Ks", 1, 1), ("Kc+Kh+Ks", -1, 2), ("Kc+Kd+Kh+Ks", 1, 1),
])
def test_bj8_k_kings_reverse_k_times(play_text: str, direction: int, after: int) -> None:
    g = table(["Kc Kd Kh Ks 9c", "-", "-"])
    g.apply(play_text)
    assert (g.direction, g.to_play) == (direction, after)


@pytest.mark.parametrize("play_text", ["Kh", "Kh+Ks"])
def test_bj8_with_two_players_a_king_acts_as_an_eight(play_text: str) -> None:
    g = table(["Kh Ks 9c 3c", "-"])
    step = g.apply(play_text)
    assert (g.to_play, g.direction, step.skipped, step.reversed) == (0, 1, 1, False)


# The rest of switch ---------------------------------------------------------------


def test_bj_sw5_sw6_sw8_hold() -> None:
    """SW5 (2s stack), SW6 (8s skip), SW8 (aces wild, several naming one suit)."""
    g = table(["8h 8s 9c 3c", "-", "-", "-"])
    g.apply("8h+8s")
    assert g.to_play == 3
    g2 = table(["Ah As 9c 3c", "-", "-"])
    g2.apply("Ah+As=d")
    assert (g2.suit, g2.to_play) == (Suit.DIAMONDS, 1)


def test_bj_preset_fields_are_the_contract() -> None:
    rules = load_rules(BJ)
    switch = load_rules("switch")
    assert (rules.title, rules.source) == (
        "Black Jack", "the London Switch (trafficne, onlineblackjack21)")
    for name in ("players", "default_players", "decks", "hand_size", "multi_play", "draw",
                 "voluntary_draw", "reverse_two", "announce_last_card", "announce_penalty",
                 "scoring", "target"):  # SW1, SW3-SW6, SW8-SW11
        assert getattr(rules, name) == getattr(switch, name), name
    assert sorted(r.letter for r in rules.starter_redraw) == ["2", "8", "A", "J", "K", "Q"]
    black = [rules.rule_of(c) for c in cards("Jc Js")]
    red = [rules.rule_of(c) for c in cards("Jd Jh")]
    assert black[0] == black[1] and red[0] == red[1] and not red[0].has_effect
    assert black[0].draw == 5 and not black[0].reverse
    assert rules.rule_of(cards("2c")[0]).stack_with == frozenset(cards("2c 2d 2h 2s Jc Js"))
    assert rules.rule_of(cards("2c")[0]).cancelled_by == frozenset(cards("Jd Jh"))
