"""Preset ``classic``: rules CL1–CL7 of docs/rules.md, each on a stacked deck."""

from __future__ import annotations

import pytest

from eights import CARDS, Card, Game, IllegalActionError, RecordError, RulesError, Suit
from stacked import (
    SPREAD,
    SPREAD_STARTER,
    assert_illegal,
    cards,
    deal_order,
    legal,
    make_rules,
    play,
    show,
    stacked,
)

CL = "classic"


def eights(card: str) -> list[str]:
    """The four ways to play an 8, naming each suit."""
    return [f"{card}={s}" for s in "cdhs"]


# CL1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "total"), [
    (2, 7, 52), (3, 7, 52), (4, 7, 52), (5, 5, 52), (6, 5, 52), (7, 5, 104), (10, 5, 104),
])
def test_cl1_hand_size_and_decks_by_player_count(players: int, size: int, total: int) -> None:
    g = Game(CL, players, seed=players)
    assert [len(h) for h in g.hands] == [size] * players
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == total


def test_cl1_second_deck_above_six_players() -> None:
    a, b, c, d = "3c 4c 6c 9c Qc", "3d 4d 6d 9d Qd", "3h 4h 6h 9h Qh", "3s 4s 6s 9s Qs"
    g = stacked(CL, [a, a, b, b, c, c, d], "Kc")
    assert show(g.hand(0)) == show(g.hand(1)) == a
    with pytest.raises(RecordError):  # six players: one deck, no second 3c
        stacked(CL, [a, a, b, b, c, c], "Kc")


@pytest.mark.parametrize("players", [1, 11])
def test_cl1_needs_two_or_more_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10"):
        Game(CL, players, seed=0)


# CL2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_cl2_left_of_dealer_starts_and_the_deal_rotates(dealer: int) -> None:
    deck = list(CARDS[:28]) + cards("9c")  # Ac Ad Ah As 2c ... 7s: the first seat gets the clubs
    g = Game(CL, 4, seed=0, dealer=dealer, deck=deck)
    first = (dealer + 1) % 4
    assert (g.dealer, g.to_play) == (dealer, first)
    assert show(g.hands[first]) == "Ac 2c 3c 4c 5c 6c 7c"
    g = stacked(CL, ["5c", "6c", "7c", "9c"], "Kc", dealer=dealer, overrides=["hand_size=1"])
    assert g.to_play == first
    g.apply(show(g.hand(first)))
    assert g.over and g.round_winners == [first]
    g.next_round(list(CARDS[:4]) + cards("Kc"))
    assert (g.dealer, g.to_play) == (first, (dealer + 2) % 4)
    assert show(g.hands[(dealer + 2) % 4]) == "Ac"  # dealt first too


# CL3 ----------------------------------------------------------------------------


def test_cl3_match_or_eight_naming_a_suit() -> None:
    g = stacked(CL, ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3h 6s Jc 8h", "Ks 8c 3c 4c 6c 9h Qh",
                     "4s 5s 9s Qs 5h 6h Kh"], "9d")
    steps = [  # (seat to play, its legal actions, an illegal one, action)
        (1, sorted(["5d", "9c", "Kd", *eights("8h"), "draw"]), "3h", "8h=s"),
        (2, sorted([*eights("8c"), "Ks", "draw"]), "9h", "Ks"),  # spades or an 8, not the 9h
        (3, ["4s", "5s", "9s", "Kh", "Qs", "draw"], "5h", "Kh"),
        (0, ["Kc", "draw"], "Qd", "Kc"),
    ]
    for seat, actions, illegal, action in steps:
        assert (g.to_play, legal(g)) == (seat, actions)
        assert_illegal(g, illegal)
        g.apply(action)
    assert (g.to_play, g.suit) == (1, Suit.CLUBS)


# CL4 ----------------------------------------------------------------------------


def test_cl4_starter_eight_lets_the_first_player_play_any_card() -> None:
    g = stacked(CL, ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3s 6s Jc 8c", "Ks 4c 6c 9h Qh 3c 7d",
                     "4s 5s 9s Qs 5h 6h Kh"], "8h")
    assert legal(g) == sorted(["3s", "5d", "6s", *eights("8c"), "9c", "Jc", "Kd", "draw"])
    g.apply("3s")
    assert (g.to_play, legal(g)) == (2, ["3c", "Ks", "draw"])  # the 3s is matched as usual


def test_cl4_only_the_first_player_may_play_anything() -> None:
    """CL4 frees the first player only: if they draw, the 8 is matched as usual."""
    g = stacked(CL, ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3s 6s Jc 8c", "Ks 4c 6c 9h Qh 3c 7d",
                     "4s 5s 9s Qs 5h 6h Kh"], "8h", "2d")
    g.apply("draw")
    assert g.to_play == 2
    assert legal(g) == ["9h", "Qh", "draw"]


def test_cl4_starter_other_than_eight_is_matched() -> None:
    g = stacked(CL, ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3s 6s Jc 8c", "Ks 4c 6c 9h Qh 3c 7d",
                     "4s 5s 9s Qs 5h 6h Kh"], "Th")
    assert legal(g) == sorted([*eights("8c"), "draw"])


# CL5 ----------------------------------------------------------------------------

CL5_HANDS = ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3h 6s Jc 4h", "Ks 3c 4c 6c 9h Qh 3s",
             "4s 5s 9s Qs 5h 6h Kh"]


def test_cl5_may_draw_instead_of_playing_and_the_turn_ends() -> None:
    g = stacked(CL, CL5_HANDS, "9d", "Td")
    assert legal(g) == ["5d", "9c", "Kd", "draw"]
    g.apply("draw")  # the drawn Td matches, but drawing ended the turn
    assert (g.to_play, show(g.hand(1))) == (2, "9c Jc 5d Td Kd 3h 4h 6s")
    assert len(g.stock) == 52 - 28 - 1 - 1


def test_cl5_drawn_card_waits_for_the_next_turn() -> None:
    g = stacked(CL, ["3d 4d 6d 7d Kc 5c Ac", "3c 4c 6c Qc 3h 4h 6h", "Ks 2c 7c 9h Qh 3s 2d",
                     "4s 5s 9s Qs 5h Jh Kh"], "9d", "Td 2s")
    assert legal(g) == ["draw"]  # a player who cannot play must draw
    assert_illegal(g, "pass")
    g.apply("draw")
    assert g.to_play == 2 and "Td" in show(g.hand(1))
    play(g, "2d draw 3d")  # seat 2 plays, seat 3 draws (2s), seat 0 plays
    assert (g.to_play, legal(g)) == (1, ["3c", "3h", "Td", "draw"])


# CL6 ----------------------------------------------------------------------------


def test_cl6_empty_stock_becomes_the_discard_pile_but_its_top() -> None:
    """Five hands of ten leave only the Ks in the stock."""
    g = stacked(CL, SPREAD, SPREAD_STARTER, "Ks 5h", overrides=["hand_size=10"])
    play(g, "8d=c draw")  # seat 2 takes the Ks: the 5h under the 8d becomes the stock
    assert (show(g.discard), show(g.stock), g.to_play) == ("8d", "5h", 3)
    play(g, "draw")
    assert (show(g.discard), g.stock, g.to_play) == ("8d", [], 4)
    assert legal(g) == ["2c", "3c", "4c", "5c", "6c", "7c", "9c", "Ac", "Jc", "Tc"]  # no draw left


def test_cl6_blocked_round_lowest_hand_wins_and_collects() -> None:
    """Three hands of 17 empty the stock at the deal; ``reshuffle=false`` keeps the
    discard pile out of the stock, so once every spade and every 8 is played nobody
    can play or draw and the three players pass in turn."""
    g = stacked(CL, [
        "Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc 3s 6s 9s Qs 8h",
        "2d 3d 4d 5d 6d 7d 2h 3h 4h 5h 6h 7h As 4s 7s Ts 8c",
        "Ad 9d Td Jd Qd Kd Ah 9h Th Jh Qh Kh 2s 5s 8s Js 8d",
    ], "Ks", overrides=["hand_size=17", "reshuffle=false"])
    assert g.stock == []
    play(g, "As 2s 3s 4s 5s 6s 7s 8s=s 9s Ts Js Qs 8c=s 8d=s 8h=s")
    assert [len(h) for h in g.hands] == [12, 12, 12] and len(g.discard) == 16
    for seat in (1, 2, 0):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert [g.hand_value(s) for s in range(3)] == [86, 54, 118]
    assert g.round_winners == [1]
    assert g.round_points == [0, 86 + 118, 0] and g.scores == [0, 204, 0]
    assert not g.match_over


# CL7 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("8h", 50), ("Ah", 10), ("Kh", 10), ("Qh", 10), ("Jh", 10), ("Th", 10), ("9h", 9), ("2h", 2),
])
def test_cl7_player_going_out_scores_the_opponents_cards(card: str, points: int) -> None:
    g = stacked(CL, [card, "5c"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.over and g.round_points == [0, points] and g.scores == [0, points]


def test_cl7_all_opponents_hands_count() -> None:
    g = stacked(CL, ["8h", "5c", "Qd"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.round_points == [0, 60, 0] and g.round_winners == [1]


def test_cl7_first_to_250_wins_the_match() -> None:
    """One card each: the first player goes out and collects the other's 8 (50)."""
    def deal(dealer: int) -> list[Card]:
        hands = ["8h", "8h"]
        hands[(dealer + 1) % 2] = "5c"
        return [*deal_order(hands, dealer), *cards("Kc")]

    g = Game(make_rules(CL, ["hand_size=1"]), 2, seed=0, dealer=0, deck=deal(0))
    for r in range(1, 10):
        assert not g.match_over
        g.apply("5c")
        if r == 8:
            assert g.scores == [200, 200] and not g.match_over
        if r < 9:
            g.next_round(deal((g.dealer + 1) % 2))
    assert g.match_over and g.scores == [200, 250] and g.winners == [1]
    with pytest.raises(IllegalActionError):
        g.next_round()
