"""Preset ``huit-americain``: rules HA1–HA15 of docs/rules.md, each on a stacked deck."""

from __future__ import annotations

import pytest

from eights import CARDS, JOKER, Card, Game, IllegalActionError, Rank, RecordError, RulesError, Suit
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

HA = "huit-americain"
JOKERS = ["jokers=2"]
QUIET = ["3c 4c 6c 9c Qc 3d 4d", "6d 9d Qd Kd 3h 4h 6h", "9h Qh 3s 4s 6s 9s Qs", "Ks Kh 5d 5h 5s Td Jd"]


def eights(card: str, announce: bool = False) -> list[str]:
    """The four ways to play an 8 (naming each suit), optionally announced."""
    out = [f"{card}={s}" for s in "cdhs"]
    return sorted(out + [a + "!" for a in out]) if announce else out


# HA1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 52), (4, 52), (5, 52), (6, 104), (8, 104)])
def test_ha1_one_deck_up_to_five_players_two_from_six(players: int, total: int) -> None:
    g = Game(HA, players, seed=players)
    assert [len(h) for h in g.hands] == [7] * players
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == total


def test_ha1_second_deck_holds_a_second_copy_of_each_card() -> None:
    a, b, c = "3c 4c 6c 9c Qc 3d 4d", "6d 9d Qd Kd 3h 4h 6h", "9h Qh 3s 4s 6s 9s Qs"
    g = stacked(HA, [a, a, b, b, c, c], "Kc")
    assert show(g.hand(0)) == show(g.hand(1)) == a
    with pytest.raises(RecordError):  # five players: one deck, no second 3c
        stacked(HA, [a, a, b, b, c], "Kc")


@pytest.mark.parametrize("players", [1, 9])
def test_ha1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        Game(HA, players, seed=0)


# HA2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 2])
def test_ha2_seven_cards_dealt_one_at_a_time(dealer: int) -> None:
    deck = list(CARDS[:28]) + cards("9c")  # Ac Ad Ah As 2c 2d ... 7s
    g = Game(HA, 4, seed=0, dealer=dealer, deck=deck)
    first = (dealer + 1) % 4
    for k, suit in enumerate("cdhs"):  # the seat dealt first gets cards 0, 4, 8, ...: the clubs
        assert show(g.hands[(first + k) % 4]) == " ".join(r + suit for r in "A234567")
    assert str(g.up_card) == "9c"


@pytest.mark.parametrize("special", ["8h", "Ah", "2h", "Jh", "Th", "7h", "X"])
def test_ha2_special_starter_goes_back_and_the_next_card_is_turned(special: str) -> None:
    g = stacked(HA, QUIET, f"{special} 5c", overrides=JOKERS)
    assert show(g.discard) == "5c" and str(g.up_card) == "5c"
    assert cards(special)[0] in g.stock and len(g.stock) == 54 - 28 - 1
    assert (g.to_play, g.pending, g.direction) == (1, 0, 1)


def test_ha2_turns_until_a_plain_card_shows() -> None:
    g = stacked(HA, QUIET, "8h Ah X 2c Jc Kc", overrides=JOKERS)
    assert show(g.discard) == "Kc"
    assert all(c in g.stock for c in cards("8h Ah X 2c Jc"))


@pytest.mark.parametrize("plain", ["Kc", "Qs", "9c", "3h"])
def test_ha2_plain_starter_stays(plain: str) -> None:
    hands = [h.replace(plain, "5c") for h in QUIET]
    g = stacked(HA, hands, plain)
    assert show(g.discard) == plain and len(g.stock) == 52 - 28 - 1


# HA3 ----------------------------------------------------------------------------

HA3_HANDS = ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3h 6s Qc 4h", "Ks 3c 4c 6c 9h Qh 3s",
             "4s 5s 9s Qs 5h 6h Kh"]


def test_ha3_match_by_suit_or_rank() -> None:
    g = stacked(HA, HA3_HANDS, "9d")
    assert legal(g) == ["5d", "9c", "Kd"]
    assert_illegal(g, "3h")
    g.apply("Kd")
    assert (g.to_play, legal(g)) == (2, ["Ks"])
    g.apply("Ks")
    assert (g.to_play, legal(g)) == (3, ["4s", "5s", "9s", "Kh", "Qs"])


# HA4 ----------------------------------------------------------------------------

HA4_HANDS = ["5c 5h 9s Kd Jd Js Jh", "3c 4c 6c Qc 3h 4h 6h", "Kc 9c 3s 4s 6s Qs 5s",
             "3d 4d 6d Qd 9h Qh Kh"]


@pytest.mark.parametrize(("choice", "hand", "up"), [
    ("5d", "3c 4c 6c Qc 3h 4h 6h", "5d"),
    ("pass", "3c 4c 6c Qc 5d 3h 4h 6h", "9d"),
])
def test_ha4_drawn_playable_card_may_be_played_at_once(choice: str, hand: str, up: str) -> None:
    g = stacked(HA, HA4_HANDS, "9d", "5d")
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["5d", "pass"])
    assert g.observe(1).drawn == cards("5d")[0]
    assert_illegal(g, "3c")
    g.apply(choice)
    assert (g.to_play, show(g.hand(1)), str(g.up_card)) == (2, hand, up)


def test_ha4_drawn_unplayable_card_ends_the_turn() -> None:
    g = stacked(HA, HA4_HANDS, "9d", "Ks")
    g.apply("draw")
    assert g.to_play == 2 and show(g.hand(1)) == "3c 4c 6c Qc 3h 4h 6h Ks"


def test_ha4_no_draw_while_a_card_is_playable() -> None:
    g = stacked(HA, HA3_HANDS, "9d")
    assert "draw" not in legal(g)
    assert_illegal(g, "draw")


# HA5 ----------------------------------------------------------------------------


def test_ha5_empty_stock_is_rebuilt_from_the_discard_pile() -> None:
    """Five hands of ten leave only the Ks in the stock."""
    g = stacked(HA, SPREAD, SPREAD_STARTER, "Ks 5h", overrides=["hand_size=10"])
    play(g, "8d=c draw")  # seat 2 takes the last card: the 5h under the 8d is the new stock
    assert (show(g.discard), show(g.stock), g.to_play) == ("8d", "5h", 3)
    assert show(g.hand(2)).endswith("Ks")
    play(g, "draw")  # seat 3 draws the reshuffled 5h: no club, the turn ends
    assert (show(g.discard), g.stock, g.to_play) == ("8d", [], 4)
    assert "5h" in show(g.hand(3))
    assert legal(g) == ["2c", "3c", "4c", "5c", "6c", "7c", "9c", "Ac", "Jc", "Tc"]


# HA6 ----------------------------------------------------------------------------


def test_ha6_eight_on_any_card_names_a_suit() -> None:
    g = stacked(HA, ["Kc 5c 5h 9h Qh Kh 3s", "8h 3c 4c 6c Qc 3h 4h", "5s 8c 9c 3d 4d 6d Qd",
                     "4s 6s 9s Qs Ks 6h Kd"], "9d")
    assert legal(g) == eights("8h")
    g.apply("8h=s")
    assert (g.to_play, g.suit) == (2, Suit.SPADES)
    assert legal(g) == ["5s", *eights("8c")]


def test_ha6_no_eight_on_a_two() -> None:
    g = stacked(HA, ["Ac Jc Tc 7c 3c 4c 6c", "2c 3h 4h 6h 9h Qh Kh", "3d 4d 6d 9d Qd Kd 3s",
                     "8h 2d 9c 5s 9s Qs Ks"], "5c", "4s 6s")
    play(g, "2c draw")
    assert (g.to_play, g.pending) == (3, 0)
    assert legal(g) == ["2d", "9c"]
    assert_illegal(g, "8h=c")


# HA7 ----------------------------------------------------------------------------

HA7_HANDS = ["Kh 3h 4h 6h Kd 9d 5d", "Ah 3c 4c 6c 9c Qc Kc", "Ac 8d 9h 3d 4d 6d Qd",
             "As 3s 4s 6s 9s Qs Ks"]
SPADES = ["3s", "4s", "6s", "9s", "As", "Ks", "Qs"]


@pytest.mark.parametrize(("actions", "seat", "pending", "sizes", "actions_then"), [
    ("Ah", 2, 2, [7, 6, 7, 7], ["8d=c", "8d=d", "8d=h", "8d=s", "Ac", "draw"]),
    ("Ah Ac", 3, 4, [7, 6, 6, 7], ["As", "draw"]),
    ("Ah Ac As", 0, 6, [7, 6, 6, 6], ["draw"]),
    ("Ah Ac As draw", 1, 0, [13, 6, 6, 6], ["draw"]),
    ("Ah Ac draw", 0, 0, [7, 6, 6, 11], ["draw"]),
    ("Ah 8d=s", 3, 0, [7, 6, 6, 7], SPADES),  # the 8 cancels the run and names spades
    ("Ah draw", 3, 0, [7, 6, 9, 7], ["As"]),  # holding an A and an 8, seat 2 may draw
])
def test_ha7_ace_attack_stacks_or_is_cancelled_by_an_eight(
        actions: str, seat: int, pending: int, sizes: list[int], actions_then: list[str]) -> None:
    g = stacked(HA, HA7_HANDS, "5h")
    play(g, actions)
    assert (g.to_play, g.pending, [len(h) for h in g.hands]) == (seat, pending, sizes)
    assert legal(g) == actions_then


def test_ha7_only_an_ace_or_an_eight_answers() -> None:
    g = stacked(HA, HA7_HANDS, "5h")
    g.apply("Ah")
    assert_illegal(g, "9h")


# HA8 ----------------------------------------------------------------------------


def test_ha8_two_draws_two_not_cumulative() -> None:
    g = stacked(HA, ["Kh 3h 4h 6h 9d 5d 5c", "2h 3c 4c 6c 9c Qc Kc", "2c 8d 9h 3d 4d 6d Qd",
                     "3s 4s 6s 9s Qs Js 5s"], "5h", "Ks Kd")
    g.apply("2h")
    assert (g.to_play, g.pending, legal(g)) == (2, 2, ["draw"])
    assert_illegal(g, "2c")
    assert_illegal(g, "8d=s")
    g.apply("draw")
    assert show(g.hand(2)) == "2c 3d 4d 6d 8d Qd Kd 9h Ks"
    assert (g.to_play, g.pending) == (3, 0)


# HA9 and HA10 -------------------------------------------------------------------

TURN_HANDS = ["6h 3h 4h Kh 9d 5d 5c", "Jh 7h 3c 4c 6c 9c Qc", "3d 4d 6d Qd Kd 3s 4s",
              "6s 9s Qs Ks Kc 9h Qh"]


@pytest.mark.parametrize(("players", "actions", "seat", "direction"), [
    (4, "Jh", 0, -1),
    (4, "Jh 6h", 3, -1),
    (2, "Jh", 0, 1),  # no effect with two players
])
def test_ha9_jack_reverses(players: int, actions: str, seat: int, direction: int) -> None:
    g = stacked(HA, TURN_HANDS[:players], "5h")
    play(g, actions)
    assert (g.to_play, g.direction) == (seat, direction)


@pytest.mark.parametrize(("players", "seat"), [(4, 3), (3, 0), (2, 1)])
def test_ha10_seven_skips_the_next_player(players: int, seat: int) -> None:
    g = stacked(HA, TURN_HANDS[:players], "5h")
    g.apply("7h")
    assert (g.to_play, g.direction) == (seat, 1)


# HA11 ---------------------------------------------------------------------------


def ten_game(seat1: str, draws: str = "") -> Game:
    return stacked(HA, ["6h 3h 4h Kh 9d 5d 5c", seat1, "3d 4d 6d Qd Kd 3s 4s",
                        "6s 9s Qs Ks 2d 2s Js"], "5h", draws)


def test_ha11_ten_plays_again() -> None:
    g = ten_game("Th 9h Tc 7c Qc Kc 6c")
    g.apply("Th")
    assert (g.to_play, g.observe(1).must_play_again, legal(g)) == (1, True, ["9h", "Tc"])
    g.apply("9h")
    assert (g.to_play, str(g.up_card)) == (2, "9h")


def test_ha11_the_second_play_follows_every_rule() -> None:
    g = ten_game("Th 9h Tc 7c Qc Kc 6c")
    play(g, "Th Tc")  # a 10 again: play again once more
    assert (g.to_play, legal(g)) == (1, ["6c", "7c", "Kc", "Qc"])
    g.apply("7c")  # HA10: the 7 skips seat 2
    assert g.to_play == 3


def test_ha11_cannot_play_again_draws_two_and_ends_the_turn() -> None:
    g = ten_game("Th 3c 4c 6c 9c Qc Kc", "5s Jd")
    g.apply("Th")
    assert (g.to_play, legal(g)) == (1, ["draw"])
    g.apply("draw")
    assert (g.to_play, show(g.hand(1))) == (2, "3c 4c 6c 9c Qc Kc Jd 5s")


def test_ha11_going_out_on_a_ten_wins_the_round() -> None:
    g = stacked(HA, ["Kh", "Th"], "5h", overrides=["hand_size=1"])
    assert legal(g) == ["Th"]
    g.apply("Th")
    assert g.over and g.round_winners == [1] and g.round_points == [10, 0]


# HA12 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "jokers"), [(4, 0), (5, 0), (6, 0), (4, 2), (6, 4)])
def test_ha12_jokers_option_two_per_deck(players: int, jokers: int) -> None:
    rules = make_rules(HA, ["jokers=2"] if jokers else [])
    g = Game(rules, players, seed=players)
    everything = [*g.stock, *g.discard, *(c for h in g.hands for c in h)]
    assert sum(c == JOKER for c in everything) == jokers


def test_ha12_no_jokers_by_default() -> None:
    assert make_rules(HA).jokers == 0
    with pytest.raises(RecordError):
        stacked(HA, ["X 3c 4c 6c Qc 3h 4h", *QUIET[1:]], "5c")


def test_ha12_joker_draws_four_and_the_card_beneath_stays_to_match() -> None:
    g = stacked(HA, ["Kc 5c 5h 5s Qs Qh Qd", "X 3c 4c 6c Qc 3h 4h", "X Ac 8s 9s 5d 3d 6h",
                     "9c 6d Ks Kh 3s 4s 6s"], "9d", "Kd 4d 9h Jd", overrides=JOKERS)
    assert legal(g) == ["X"]
    g.apply("X")
    assert (g.to_play, g.pending, str(g.up_card), g.suit, g.rank) == (2, 4, "X", Suit.DIAMONDS, Rank.NINE)
    assert legal(g) == ["draw"]  # neither a joker, an A nor an 8 answers it
    g.apply("draw")
    assert len(g.hands[2]) == 11 and (g.to_play, g.pending) == (3, 0)
    assert legal(g) == ["6d", "9c"]  # the 9d beneath the joker


def test_ha12_joker_on_a_two_but_not_on_a_pending_draw() -> None:
    g = stacked(HA, ["Ac 3c 4c 6c 9c Qc Kc", "2c 3h 4h 6h 9h Qh Kh", "3d 4d 6d 9d Qd Kd 3s",
                     "X 8h 9s Qs Ks 5s 5d"], "5c", "4s 6s", overrides=JOKERS)
    play(g, "2c draw")
    assert legal(g) == ["X"]  # on the 2c no 8, but a joker
    g = stacked(HA, ["Ac 3c 4c 6c 9c Qc Kc", "Ah 3h 4h 6h 9h Qh Kh", "X 3d 4d 6d 9d Qd Kd",
                     "2d 8h 9s Qs Ks 5s 3s"], "5h", overrides=JOKERS)
    g.apply("Ah")
    assert legal(g) == ["draw"]
    assert_illegal(g, "X")


# HA13 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "hand"), [("5c!", "9c"), ("5c", "9c Qs Ks")])
def test_ha13_last_card_must_be_announced(action: str, hand: str) -> None:
    g = stacked(HA, ["3d 4d", "5c 9c"], "Kc", "Qs Ks", overrides=["hand_size=2"])
    assert legal(g) == ["5c", "5c!", "9c", "9c!"]
    g.apply(action)
    assert (g.to_play, show(g.hand(1))) == (0, hand)


@pytest.mark.parametrize(("action", "hand"), [("5c!", "3d"), ("5c", "3d Qs Ks")])
def test_ha13_drawn_card_played_as_the_last_but_one(action: str, hand: str) -> None:
    g = stacked(HA, ["4d", "3d"], "Kc", "5c Qs Ks", overrides=["hand_size=1"])
    g.apply("draw")
    assert legal(g) == ["5c", "5c!", "pass"]
    g.apply(action)
    assert (g.to_play, show(g.hand(1))) == (0, hand)


def test_ha13_announcement_exists_only_with_two_cards_in_hand() -> None:
    g = stacked(HA, ["3d 4d", "8h 3c"], "Kc", overrides=["hand_size=2"])
    assert legal(g) == sorted(["3c", "3c!", *eights("8h", announce=True)])
    g = stacked(HA, ["3d 4d 6d", "8h 3c 9c"], "Kc", overrides=["hand_size=3"])
    assert legal(g) == sorted(["3c", "9c", *eights("8h")])
    g = stacked(HA, ["3d", "9c"], "Kc", overrides=["hand_size=1"])
    assert legal(g) == ["9c"]


# HA14 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("8h", 50), ("X", 50), ("Ah", 25), ("Jh", 25), ("2h", 25), ("Qh", 10), ("Kh", 10),
    ("Th", 10), ("9h", 9), ("7h", 7), ("3h", 3),
])
def test_ha14_each_player_scores_their_own_hand(card: str, points: int) -> None:
    g = stacked(HA, [card, "5c"], "Kc", overrides=["hand_size=1", *JOKERS])
    g.apply("5c")
    assert g.over and g.round_points == [points, 0] and g.scores == [points, 0]


def test_ha14_hand_values_add_up() -> None:
    g = stacked(HA, ["Qd 9h", "5c 6c"], "Kc", "Jd", overrides=["hand_size=2"])
    play(g, "5c! draw 6c")
    assert g.over and show(g.hand(0)) == "Jd Qd 9h"
    assert g.round_points == [25 + 10 + 9, 0]


# HA15 ---------------------------------------------------------------------------


def test_ha15_match_ends_at_500_lowest_total_wins() -> None:
    """One card each: the first player goes out, the other keeps an 8 (50 points)."""
    def deal(dealer: int) -> list[Card]:
        hands = ["8h", "8h"]
        hands[(dealer + 1) % 2] = "5c"
        return [*deal_order(hands, dealer), *cards("Kc")]

    g = Game(make_rules(HA, ["hand_size=1"]), 2, seed=0, dealer=0, deck=deal(0))
    for r in range(1, 20):
        assert not g.match_over
        g.apply("5c")
        if r == 18:
            assert g.scores == [450, 450] and not g.match_over
        if r < 19:
            g.next_round(deal((g.dealer + 1) % 2))
    assert g.match_over and g.scores == [500, 450] and g.winners == [1]
    with pytest.raises(IllegalActionError):
        g.next_round()
