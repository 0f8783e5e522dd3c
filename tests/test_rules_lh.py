"""Preset ``les-huit``: rules LH1–LH10 of docs/rules.md, each on a stacked deck."""

from __future__ import annotations

import pytest

from eights import Card, Game, Rank, RulesError, Suit, make_deck
from stacked import assert_illegal, cards, deal_order, legal, make_rules, play, show, stacked

LH = "les-huit"
HANDS = ["3d 4d 6d Qd Kc", "9c 5d Kd 3h 6s", "Ks 3c 4c 6c 9h", "4s 5s 9s Qs 5h"]


def eights(card: str) -> list[str]:
    """The four ways to play an 8, naming each suit."""
    return [f"{card}={s}" for s in "cdhs"]


# LH1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "teams"), [(2, False), (3, False), (4, True)])
def test_lh1_two_to_four_players_teams_with_four(players: int, teams: bool) -> None:
    g = Game(LH, players, seed=1)
    assert g.teams is teams
    assert [g.team_of(s) for s in range(players)] == ([0, 1, 0, 1] if teams else list(range(players)))


@pytest.mark.parametrize("players", [1, 5])
def test_lh1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 4"):
        Game(LH, players, seed=0)


def test_lh1_partners_opposite_share_the_points() -> None:
    g = stacked(LH, ["8h", "5c", "Qd", "Kh"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.over and g.round_winners == [1, 3]
    assert g.round_points == [0, 60, 0, 60]  # seats 0 and 2: 50 + 10; the partner's Kh is not counted
    assert g.scores == [0, 60, 0, 60]


# LH2 ----------------------------------------------------------------------------

POOL = cards("Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc Ad 2d 3d 4d 5d 6d 7d 9d Td Jd Qd Kd")


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5)])
def test_lh2_seven_cards_with_two_five_with_more(players: int, size: int) -> None:
    hands = [show(POOL[size * s:size * s + size]) for s in range(players)]
    g = stacked(LH, hands, "5h")
    assert [sorted(g.hands[s]) for s in range(players)] == [sorted(cards(h)) for h in hands]
    assert len(g.stock) == 52 - size * players - 1
    with pytest.raises(ValueError):
        stacked(LH, [show(POOL[6 * s:6 * s + 6]) for s in range(players)], "5h")


# LH3 ----------------------------------------------------------------------------


def test_lh3_match_by_suit_or_rank_eights_always_playable() -> None:
    g = stacked(LH, [HANDS[0], "9c 5d Kd 3h 8s", *HANDS[2:]], "9d")
    assert legal(g) == sorted(["5d", "9c", "Kd", *eights("8s")])
    assert_illegal(g, "3h")
    play(g, "Kd pass")
    assert (g.to_play, legal(g)) == (2, ["Ks"])
    play(g, "Ks pass")
    assert (g.to_play, legal(g)) == (3, ["4s", "5s", "9s", "Qs"])


# LH4 ----------------------------------------------------------------------------


def test_lh4_eight_takes_the_rank_it_covers() -> None:
    g = stacked(LH, ["Qs Js Ts 7s 2s", "8c 3h 4h 6h 9h", "Kh 5s 8h 9d 3c", "Kc 4d 3s 6c 2c"], "Kd")
    assert legal(g) == eights("8c")
    play(g, "8c=s pass")  # 8 on the K♦ naming ♠: any ♠, any K, or an 8
    assert (g.to_play, g.suit) == (2, Suit.SPADES)
    assert legal(g) == sorted(["5s", "Kh", *eights("8h")])
    assert_illegal(g, "9d")
    play(g, "8h=d pass")  # an 8 on that 8 still covers a K
    assert (g.to_play, legal(g)) == (3, ["4d", "Kc"])


# LH5 ----------------------------------------------------------------------------


def test_lh5_must_play_when_able() -> None:
    g = stacked(LH, HANDS, "9d")
    assert legal(g) == ["5d", "9c", "Kd"]
    assert_illegal(g, "draw")


@pytest.mark.parametrize(("choice", "hand"), [("take", "9c Kd 3h Jh 6s"), ("pass", "9c Kd 3h 6s")])
def test_lh5_after_playing_may_take_the_top_card(choice: str, hand: str) -> None:
    g = stacked(LH, HANDS, "9d", "Jh")
    stock = len(g.stock)
    g.apply("5d")
    assert (g.to_play, legal(g), g.observe(1).may_take) == (1, ["pass", "take"], True)
    assert_illegal(g, "9c")
    g.apply(choice)
    assert (g.to_play, show(g.hand(1))) == (2, hand)
    assert len(g.stock) == stock - (choice == "take")


def test_lh5_going_out_has_no_replacement() -> None:
    g = stacked(LH, ["3d", "5d"], "9d", overrides=["hand_size=1"])
    stock = len(g.stock)
    g.apply("5d")
    assert g.over and g.hands[1] == [] and len(g.stock) == stock and legal(g) == []


# LH6 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("draws", "then"), [("Kh 3s 5d", ["5d"]), ("Kh 8s", eights("8s"))])
def test_lh6_draw_until_playable_then_play_it(draws: str, then: list[str]) -> None:
    g = stacked(LH, ["Kc 4d 6d Qd 2s", "3c 4c 6c Qc 3h", "Ks 9c 4s 6s Qs", "5s 9s 9h Qh 7h"],
                "9d", draws)
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert sorted(g.hands[1]) == sorted(cards("3c 4c 6c Qc 3h " + draws))
    assert (g.to_play, legal(g)) == (1, then)
    assert_illegal(g, "pass")
    g.apply(then[0])
    assert (g.to_play, legal(g)) == (1, ["pass", "take"])  # LH5 after the play


# LH7 ----------------------------------------------------------------------------

CLUBS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"


def test_lh7_no_reshuffle_a_player_who_cannot_play_passes() -> None:
    """Three hands of 17 leave the stock empty from the deal."""
    g = stacked(LH, [CLUBS + " 8s 8h Ah 2h", "8d 5d 4h 6h 7h 9h Th Jh Qh Kh As 2s 3s 4s 5s 6s 7s",
                     "Ad 2d 3d 4d 3h 6d 7d 9d Td Jd Qd Kd 9s Ts Js Qs Ks"], "5h",
                overrides=["hand_size=17"])
    g.apply("8d=c")  # no stock: no LH5 replacement either; clubs, a 5 (LH4) or an 8 to play
    assert (g.to_play, legal(g)) == (2, ["pass"])
    g.apply("pass")
    assert (g.to_play, g.stock, show(g.discard)) == (0, [], "5h 8d")  # the discard stays put
    assert "pass" not in legal(g) and "Ac" in legal(g)


def test_lh7_drawing_stops_when_the_stock_is_empty_and_the_turn_passes() -> None:
    """Two hands of 25 leave one card in the stock; seat 1 has nothing for the 5h."""
    deck = [c for c in make_deck() if c != Card.parse("5h")]
    misses = [c for c in deck if c.suit is not Suit.HEARTS and c.rank not in (Rank.FIVE, Rank.EIGHT)]
    seat1, last = misses[:25], misses[25]
    seat0 = [c for c in deck if c not in seat1 and c != last]
    g = stacked(LH, [show(seat0), show(seat1)], "5h", str(last), overrides=["hand_size=25"])
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert (g.to_play, len(g.hands[1]), g.stock, show(g.discard)) == (0, 26, [], "5h")
    assert last in g.hands[1]


# LH8 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("8h", 50), ("Kh", 10), ("Qh", 10), ("Jh", 10), ("Th", 10), ("9h", 9), ("2h", 2), ("Ah", 1),
])
def test_lh8_first_out_scores_the_opponents_cards(card: str, points: int) -> None:
    g = stacked(LH, [card, "5c"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.over and g.round_points == [0, points] and g.round_winners == [1]


def test_lh8_every_opponent_counts() -> None:
    g = stacked(LH, ["8h", "5c", "Ah"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.round_points == [0, 51, 0] and g.scores == [0, 51, 0]


# LH9 ----------------------------------------------------------------------------

BLOCKED = {
    "three players": (
        ["Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc 4s 7s Js Kc 8c 8s",
         "Ad 2d 3d 4d 5d 6d Ah 2h 3h 4h 5h 2s 5s 9s Qs Kd 8d",
         "7d 9d Td Jd Qd 6h 7h 9h Th Jh Qh 3s 6s Ts Ks Kh 8h"],
        "", "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks Kc Kd Kh 8c=s 8d=s 8h=s 8s=s",
        [67, 36, 98], [0, 93, 0], [1]),
    "two teams": (
        ["Ac 2c 3c 4c 5c 6c 7c 9c 5s Ts Kc 8d", "6d 7d 9d Td Jd Ah 2h 2s 6s Js Kd 8h",
         "Tc Jc Ad 2d 3d 4d 5d 3s 7s Qs Kh 8s", "3h 4h 5h 6h 7h 9h Th Jh 4s 9s Ks 8c"],
        "Qd Qc Qh", "2s take 3s take 4s take 5s 6s 7s 9s Ts Js Qs Ks Kc Kd Kh 8c=s 8d=s 8h=s 8s=s",
        [37, 55, 45, 64], [37, 0, 37, 0], [0, 2]),  # teams 37 + 45 = 82 and 55 + 64 = 119
}


@pytest.mark.parametrize("case", list(BLOCKED))
def test_lh9_blocked_round_lowest_hand_scores_the_difference(case: str) -> None:
    """Every spade, K and 8 ends on the discard pile with the stock empty (LH7: no
    reshuffle), so nobody can play: each player passes in turn."""
    hands, draws, actions, values, points, winners = BLOCKED[case]
    n = len(hands)
    g = stacked(LH, hands, "As", draws, overrides=[f"hand_size={len(hands[0].split())}"])
    play(g, actions)
    assert g.stock == [] and len(g.discard) == 19
    assert [g.hand_value(s) for s in range(n)] == values
    first = g.to_move
    for k in range(n):
        assert (g.to_play, legal(g)) == ((first + k) % n, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert g.round_points == points and g.scores == points and g.round_winners == winners


# LH10 ---------------------------------------------------------------------------


def test_lh10_first_player_to_100_wins() -> None:
    """One card each: the first player goes out and collects the other's 8 (50)."""
    def deal(dealer: int) -> list[Card]:
        hands = ["8h", "8h"]
        hands[(dealer + 1) % 2] = "5c"
        return [*deal_order(hands, dealer), *cards("Kc")]

    g = Game(make_rules(LH, ["hand_size=1"]), 2, seed=0, dealer=0, deck=deal(0))
    for scores in ([0, 50], [50, 50]):
        g.apply("5c")
        assert g.scores == scores and not g.match_over
        g.next_round(deal((g.dealer + 1) % 2))
    g.apply("5c")
    assert g.match_over and g.scores == [50, 100] and g.winners == [1]


def test_lh10_first_team_to_100_wins() -> None:
    g = stacked(LH, ["8h", "5c", "8d", "Kh"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.match_over and g.scores == [0, 100, 0, 100] and g.winners == [1, 3]
