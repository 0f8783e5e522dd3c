"""Preset ``huit-fou``: rules HF1–HF13 of docs/rules.md, each on a stacked deck."""

from __future__ import annotations

import random

import pytest

from eights import Game, IllegalActionError, RulesError, Suit, make_deck
from stacked import (
    SPREAD,
    SPREAD_STARTER,
    assert_illegal,
    cards,
    deal_order,
    legal,
    play,
    show,
    stacked,
)

HF = "huit-fou"
EIGHT_CLUBS = ["8c=c", "8c=d", "8c=h", "8c=s"]


# HF1 ----------------------------------------------------------------------------


def test_hf1_four_players_six_cards_one_deck_by_default() -> None:
    g = Game(HF, seed=11)
    assert g.n == 4
    assert [len(h) for h in g.hands] == [6, 6, 6, 6]
    assert len(g.stock) == 52 - 24 - 1
    assert sorted([*g.stock, *g.discard, *(c for h in g.hands for c in h)]) == sorted(make_deck())


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hf1_two_to_six_players_get_six_cards(players: int) -> None:
    hands = [show(cards("Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ad 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd "
                        "As 2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks")[6 * s:6 * s + 6]) for s in range(players)]
    g = stacked(HF, hands, "5h")
    assert [sorted(g.hands[s]) for s in range(players)] == [sorted(cards(h)) for h in hands]
    assert len(g.stock) == 52 - 6 * players - 1


@pytest.mark.parametrize("players", [1, 7])
def test_hf1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 6"):
        Game(HF, players, seed=0)


# HF2 ----------------------------------------------------------------------------

QUIET4 = ["3c 5c 6c 7c 9d Td", "5h 9c Tc Jc Kc Js", "3d 5d 6d 7d Jd Kd", "3s 5s 6s 7s 9s Ts"]


@pytest.mark.parametrize("starter", ["2h", "4h", "Qh", "Ah", "8h"])
def test_hf2_starter_effect_does_not_apply(starter: str) -> None:
    g = stacked(HF, QUIET4, starter)
    assert (g.pending, g.direction, g.to_play) == (0, 1, 1)
    assert str(g.up_card) == starter and g.suit == Suit.HEARTS
    assert legal(g) == ["5h"]  # only the card to match: hearts (no 8 starter freedom)
    g.apply("5h")
    assert g.to_play == 2


# HF3 ----------------------------------------------------------------------------


def test_hf3_clockwise_and_match_by_suit_or_rank() -> None:
    g = stacked(HF, ["3c 5c 6c 7c Ts Js", "9c 5d Kd 3h 6s Jc", "Ks 7d 3s 5h 6h Tc",
                     "5s 7s 3d 9h Th Jh"], "9d")
    steps = [  # (seat to play, its legal actions, action)
        (1, ["5d", "9c", "Kd"], "Kd"),
        (2, ["7d", "Ks"], "Ks"),
        (3, ["5s", "7s"], "7s"),
        (0, ["7c", "Js", "Ts"], "7c"),
        (1, ["9c", "Jc"], "9c"),
    ]
    for seat, actions, action in steps:
        assert (g.to_play, legal(g)) == (seat, actions)
        g.apply(action)
    assert g.to_play == 2 and str(g.up_card) == "9c"


def test_hf3_unmatched_card_is_illegal_and_changes_nothing() -> None:
    g = stacked(HF, ["3c 5c 6c 7c Ts Js", "9c 5d Kd 3h 6s Jc", "Ks 7d 3s 5h 6h Tc",
                     "5s 7s 3d 9h Th Jh"], "9d")
    assert_illegal(g, "3h")
    assert_illegal(g, "Ks")  # not in the hand
    assert_illegal(g, "draw")


# HF4 ----------------------------------------------------------------------------


def test_hf4_eight_is_wild_and_names_the_suit_to_follow() -> None:
    g = stacked(HF, ["3d 6d 7d Jd Kd Ts", "8c 3h 5h 6s 7s Jc", "5d 8s 9c Th Kc 3c",
                     "3s 5s 9s Js Ks 6c"], "9d")
    assert legal(g) == EIGHT_CLUBS
    g.apply("8c=h")
    assert (g.to_play, g.suit) == (2, Suit.HEARTS)
    assert legal(g) == ["8s=c", "8s=d", "8s=h", "8s=s", "Th"]  # not 5d, not 9c
    g.apply("8s=c")
    assert (g.to_play, legal(g)) == (3, ["6c"])


# HF5 ----------------------------------------------------------------------------

HF5_HANDS = ["3d 6d 7d Jd Kd Ts", "3c 5c 6c 7c Tc Jc", "5h 6h 9c Th Ks 3h", "5s 6s 7s 9s Js 9h"]


@pytest.mark.parametrize(("draws", "then"), [
    ("Kh 3s 5d", ["5d"]),
    ("Kh 8s", ["8s=c", "8s=d", "8s=h", "8s=s"]),
    ("Kh Qh Td", ["Td"]),
])
def test_hf5_draw_until_playable_then_play_it(draws: str, then: list[str]) -> None:
    g = stacked(HF, HF5_HANDS, "9d", draws)
    assert legal(g) == ["draw"]
    stock = len(g.stock)
    g.apply("draw")
    assert g.to_play == 1 and len(g.stock) == stock - len(draws.split())
    assert sorted(g.hands[1]) == sorted(cards("3c 5c 6c 7c Tc Jc " + draws))
    assert legal(g) == then
    assert_illegal(g, "pass")
    assert_illegal(g, "Tc")
    g.apply(then[0])
    assert g.to_play == 2 and len(g.hands[1]) == 5 + len(draws.split())


def test_hf5_no_draw_while_a_card_is_playable() -> None:
    g = stacked(HF, HF5_HANDS, "Kc")
    assert legal(g) == ["3c", "5c", "6c", "7c", "Jc", "Tc"]
    assert_illegal(g, "draw")


# HF6 ----------------------------------------------------------------------------


def test_hf6_drawing_stops_at_twelve_and_the_turn_passes() -> None:
    g = stacked(HF, ["9s Ks 3d 5d 6d 7d", "3c 5c 6c 7c Tc Jc"], "9d", "Kc Qc 3h 5h 6h 7h")
    stock = len(g.stock)
    play(g, "draw")
    assert len(g.hands[1]) == 12 and len(g.stock) == stock - 6
    assert show(g.hand(1)) == "3c 5c 6c 7c Tc Jc Qc Kc 3h 5h 6h 7h"
    assert g.to_play == 0
    g.apply("9s")
    assert legal(g) == ["pass"]  # cannot play, cannot draw past 12
    assert_illegal(g, "draw")
    g.apply("pass")
    assert (g.to_play, len(g.hands[1]), len(g.stock)) == (0, 12, stock - 6)


# HF7 ----------------------------------------------------------------------------

HF7_HANDS = ["3h 5c 6h 7h Th Jh", "2h 3c 6c 7c Tc Jc", "2c 9h Kh 3d 6d 7d", "3s 9c Kc 6s 7s 8d"]


def test_hf7_twos_stack_and_the_victim_draws_all_and_loses_the_turn() -> None:
    g = stacked(HF, HF7_HANDS, "5h", "Jd Qd Kd 9d")
    g.apply("2h")
    assert (g.to_play, g.pending, g.observe(2).pending_draw) == (2, 2, 2)
    assert legal(g) == ["2c", "draw"]  # 9h and Kh match the 2h but a draw is pending
    assert_illegal(g, "9h")
    g.apply("2c")
    assert (g.to_play, g.pending) == (3, 4)
    assert legal(g) == ["draw"]  # 9c, Kc follow the 2c, the 8d is wild, but only a 2 answers
    g.apply("draw")
    assert show(g.hand(3)) == "9c Kc 8d 9d Jd Qd Kd 3s 6s 7s"
    assert (g.to_play, g.pending) == (0, 0)  # seat 3 lost its turn
    assert legal(g) == ["5c"]  # the 2c is now a plain card to match


def test_hf7_first_victim_draws_two() -> None:
    g = stacked(HF, HF7_HANDS, "5h", "Jd Qd")
    play(g, "2h draw")
    assert show(g.hand(2)) == "2c 3d 6d 7d Jd Qd 9h Kh"
    assert (g.to_play, g.pending) == (3, 0)


# HF8 ----------------------------------------------------------------------------


def test_hf8_four_draws_four_not_cumulative() -> None:
    g = stacked(HF, ["3h 5c 6h 7h Th Jh", "4h 3c 6c 7c Tc Jc", "4c 8s 9h 3d 6d 7d",
                     "3s 9c Kc 6s 7s Ts"], "5h", "Jd Qd Kd 9d")
    g.apply("4h")
    assert (g.to_play, g.pending) == (2, 4)
    assert legal(g) == ["draw"]  # neither the 4c, the 8 nor the hearts answer a 4
    assert_illegal(g, "4c")
    g.apply("draw")
    assert show(g.hand(2)) == "4c 3d 6d 7d 9d Jd Qd Kd 9h 8s"
    assert (g.to_play, g.pending) == (3, 0)


# HF9 ----------------------------------------------------------------------------


def test_hf9_overflow_goes_back_to_the_attacker() -> None:
    g = stacked(HF, ["3d 5d 6d 7d 9d Td Jd Kd Ad 2d", "4h 3c 5c 6c 7c 9c Tc Jc Kc Ac"], "5h",
                "3s 5s 6s 7s", overrides=["hand_size=10"])
    stock = len(g.stock)
    play(g, "4h draw")
    assert show(g.hand(0)) == "Ad 2d 3d 5d 6d 7d 9d Td Jd Kd 3s 5s"
    assert show(g.hand(1)) == "Ac 3c 5c 6c 7c 9c Tc Jc Kc 6s 7s"
    assert (g.penalties, len(g.stock), g.to_play) == ([0, 0], stock - 4, 1)


def test_hf9_stack_of_twos_excess_to_last_two_then_penalty() -> None:
    g = stacked(HF, ["3s 4s 5s 6s 7s 9s Ts Js Qs Ks As", "2h 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc",
                     "2c 3d 4d 5d 6d 7d 9d Td Jd Qd Kd"], "5h", "Ah 3h 4h",
                overrides=["hand_size=11"])
    stock = len(g.stock)
    play(g, "2h 2c")
    assert (g.to_play, g.pending, legal(g)) == (0, 4, ["draw"])
    g.apply("draw")
    assert show(g.hand(0)) == "Ah As 3s 4s 5s 6s 7s 9s Ts Js Qs Ks"  # 12: the victim takes 1
    assert show(g.hand(2)) == "3d 4d 5d 6d 7d 9d Td Jd Qd Kd 3h 4h"  # 10 + 2 to the last 2
    assert len(g.hands[1]) == 10
    assert g.penalties == [0, 0, 1]  # 4 cards: 1 to the victim, 2 back, 1 point
    assert len(g.stock) == stock - 3  # the card nobody takes stays in the stock
    assert g.to_play == 1


def test_hf9_penalty_points_are_added_to_the_score() -> None:
    """With ``hand_limit=3`` (and 3 cards each) the overflow happens at once and the
    round ends in a few plays; the limit is the only thing changed from HF9."""
    g = stacked(HF, ["5c 7c 3d", "4h 9c 7s"], "9h", "5h", overrides=["hand_size=3", "hand_limit=3"])
    play(g, "4h draw")
    assert (g.penalties, show(g.hand(0)), show(g.hand(1))) == ([0, 3], "5c 7c 3d", "9c 5h 7s")
    play(g, "5h 5c 9c 7c 7s")
    assert g.over and g.out == 1
    assert g.round_points == [1, 3] and g.scores == [1, 3]


# HF10 ---------------------------------------------------------------------------

HF10_HANDS = ["6h Ac 3c 5c 7c 9c", "Ah Qh 3d 5d 6d 7d", "9h Th 3s 5s 6s 7s", "Jh Kh 9s Ts Js Ks"]


@pytest.mark.parametrize(("players", "actions", "seat", "direction"), [
    (4, "Ah", 0, -1),
    (4, "Ah 6h", 3, -1),
    (4, "Ah Ac", 1, 1),
    (4, "Qh", 3, 1),
    (2, "Ah", 0, 1),  # HF10 decision: no effect with two players
    (2, "Qh", 1, 1),  # the other player loses their turn
])
def test_hf10_ace_reverses_queen_skips(players: int, actions: str, seat: int, direction: int) -> None:
    g = stacked(HF, HF10_HANDS[:players], "5h")
    play(g, actions)
    assert (g.to_play, g.direction) == (seat, direction)


# HF11 ---------------------------------------------------------------------------


@pytest.mark.parametrize("last", ["2c", "4c", "Qc", "Ac", "8h"])
def test_hf11_going_out_ends_the_round_without_the_card_effect(last: str) -> None:
    g = stacked(HF, ["Jc 9d", "6c " + last, "3h 3d"], "5c", "Kh Td 7c", overrides=["hand_size=2"])
    play(g, "6c draw 7c Jc")
    assert show(g.hand(2)) == "3d Td 3h Kh"
    assert legal(g) == [last]  # an 8 as the last card names no suit
    g.apply(last)
    assert g.over and g.to_play is None and g.out == 1
    assert (g.pending, g.direction, legal(g)) == (0, 1, [])
    assert g.round_points == [1, 0, 4] and g.scores == [1, 0, 4]
    assert g.round_winners == [1]


# HF12 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds", "scores", "winners"), [
    (2, 99, [50, 49], [1]),
    (3, 74, [50, 49, 49], [1, 2]),  # ties share the win
])
def test_hf12_match_ends_at_fifty_lowest_wins(
        players: int, rounds: int, scores: list[int], winners: list[int]) -> None:
    """One card each: the first player goes out every round, the others score 1."""
    hands = ["5c", "6c", "7c"][:players]
    g = stacked(HF, hands, "Kc", overrides=["hand_size=1"])
    for r in range(1, rounds + 1):
        assert not g.match_over
        g.apply(show(g.hand(g.to_move)))
        assert g.over
        if r < rounds:
            assert max(g.scores) < 50
            g.next_round(deal_order(hands, (g.dealer + 1) % players) + cards("Kc"))
    assert g.match_over and g.scores == scores and g.winners == winners
    with pytest.raises(IllegalActionError):
        g.next_round()


# HF13 ---------------------------------------------------------------------------


def test_hf13_empty_stock_reshuffles_the_discard_then_passes() -> None:
    """Five hands of ten leave one card (Ks) in the stock."""
    g = stacked(HF, SPREAD, SPREAD_STARTER, "Ks 5h", overrides=["hand_size=10"])
    g.apply("8d=c")
    assert (show(g.discard), show(g.stock), legal(g)) == ("5h 8d", "Ks", ["draw"])
    g.apply("draw")  # Ks empties the stock: the 5h under the 8d becomes the stock, then is drawn
    assert show(g.hand(2)) == "Ad 2d 3d 4d 5d 6d 7d 9d Td Jd 5h Ks"
    assert (show(g.discard), g.stock, g.to_play) == ("8d", [], 3)
    assert legal(g) == ["pass"]  # nothing to draw, no club, no 8
    g.apply("pass")
    assert g.to_play == 4
    assert legal(g) == ["2c", "3c", "4c", "5c", "6c", "7c", "9c", "Ac", "Jc", "Tc"]


def test_hf13_blocked_round_scores_every_hand() -> None:
    """Three hands of twelve (the HF6 limit): nobody may draw and no card matches the 8h,
    so every player passes in turn and the round is blocked."""
    def suit(s: str) -> str:
        return " ".join(r + s for r in "A2345679TJQK")
    g = stacked(HF, [suit("c"), suit("d"), suit("s")], "8h", overrides=["hand_size=12"])
    assert len(g.stock) == 15
    for seat in (1, 2, 0):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert g.round_points == [12, 12, 12] and g.scores == [12, 12, 12]
    assert not g.match_over


def test_hf13_blocked_round_with_an_empty_stock() -> None:
    """Three hands of 17 empty the stock at the deal and ``reshuffle=false`` keeps the
    discard pile out of it: once every spade and every 8 is down nobody can play or
    draw. The As reverses and the Qs skips (HF10); the 2s and 4s draw nothing (no stock)."""
    g = stacked(HF, [
        "Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc 2s 5s 8s Js 8c",
        "2d 3d 4d 5d 6d 7d 2h 3h 4h 5h 6h 7h As 4s 7s Ts 8h",
        "Ad 9d Td Jd Qd Kd Ah 9h Th Jh Qh Kh 3s 6s 9s Qs 8d",
    ], "Ks", overrides=["hand_size=17", "reshuffle=false"])
    play(g, "As 2s 3s 4s 5s 6s 7s 8s=s 9s Ts Js Qs 8c=s 8d=s 8h=s")
    assert (g.stock, g.pending, g.direction) == ([], 0, -1)
    for seat in (0, 2, 1):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert g.round_points == [12, 12, 12] and g.scores == [12, 12, 12]


def test_hf13_forced_moves_going_round_in_circles_block_the_round() -> None:
    """HF13 decision: with a one-card stock, queens skipping round a table of six
    force the same moves for ever (HF5: draw, then play the drawn card). The third
    time a position comes back the round is blocked and scored as HF11."""
    game = Game("huit-fou", 6, seed=647)
    rng = random.Random(647)
    steps = 0
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < 5000
    assert game.out is None  # blocked, nobody went out
    assert max(game.repeats.values()) == 3
    assert game.round_points == [len(h) for h in game.hands]  # HF11: a point a card
    # the last moves are the cycle: draw the queen back, play it, skip on
    assert [str(a) for _, a in game.history[-6:]].count("draw") == 3
