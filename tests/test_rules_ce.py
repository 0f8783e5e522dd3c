"""Preset ``crazy-eights``: rules CE1–CE8 of docs/rules.md, each on a stacked deck,
and the house rules its Decisions name (``decks = [[2, 1], [3, 2]]``,
``reshuffle = true``, ``target = 250``)."""

from __future__ import annotations

import pytest

from eights import Card, Game, RecordError, RulesError, Suit, load_rules
from eights.i18n import translator
from eights.i18n.explain import describe
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

CE = "crazy-eights"
QUIET = ["3c 4c 6c 9c Qc", "3d 4d 6d 9d Qd", "3h 4h 6h 9h Qh", "3s 4s 6s 9s Qs"]
"""Four hands of five with no 8: nothing in them answers a K starter but by suit."""


def eights(card: str) -> list[str]:
    """The four ways to play an 8, naming each suit."""
    return [f"{card}={s}" for s in "cdhs"]


# CE1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "total"), [
    (2, 7, 52), (3, 5, 52), (4, 5, 52), (5, 5, 52), (6, 5, 104), (8, 5, 104),
])
def test_ce1_hand_size_and_decks_by_player_count(players: int, size: int, total: int) -> None:
    g = Game(CE, players, seed=players)
    assert [len(h) for h in g.hands] == [size] * players
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == total


def test_ce1_four_players_by_default() -> None:
    assert Game(CE, seed=1).n == 4


def test_ce1_second_deck_from_six_players() -> None:
    a, b, c = QUIET[:3]
    g = stacked(CE, [a, a, b, b, c, c], "Kc")
    assert show(g.hand(0)) == show(g.hand(1)) == a
    with pytest.raises(RecordError):  # five players: one deck, no second 3c
        stacked(CE, [a, a, b, b, c], "Kc")


@pytest.mark.parametrize("players", [1, 9])
def test_ce1_two_to_eight_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        Game(CE, players, seed=0)


@pytest.mark.parametrize(("players", "total"), [(2, 52), (3, 104), (5, 104), (8, 104)])
def test_ce1_decision_britannica_double_deck_from_three_players(players: int, total: int) -> None:
    """CE1 Decision: ``decks = [[2, 1], [3, 2]]`` is Britannica's double deck."""
    rules = make_rules(CE, ["decks=[[2, 1], [3, 2]]"])
    g = Game(rules, players, seed=players)
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == total
    a, b = QUIET[:2]
    assert show(stacked(rules, [a, a, b], "Kc").hand(1)) == a  # a second 3c with three players


# CE2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("starters", ["8h 5c", "8h 8s 8c Kc"])
def test_ce2_an_eight_starter_is_buried_and_the_next_card_turned(starters: str) -> None:
    *buried, shown = cards(starters)
    g = stacked(CE, QUIET, starters)
    assert show(g.discard) == str(shown)
    assert all(c in g.stock for c in buried) and len(g.stock) == 52 - 20 - 1
    assert (g.to_play, g.suit, g.pending) == (1, shown.suit, 0)


def test_ce2_only_an_eight_is_buried() -> None:
    for starter in ("Ah", "2h", "Jh", "7h", "Th", "Kh"):  # the special cards of other presets
        g = stacked(CE, QUIET, f"{starter} 5c")
        assert show(g.discard) == starter and g.to_play == 1 and g.direction == 1


# CE3 ----------------------------------------------------------------------------


def test_ce3_match_by_suit_or_rank_or_an_eight_naming_a_suit() -> None:
    g = stacked(CE, ["3d 4d 6d Qd Kc", "9c 5d Kd 3h 8h", "Ks 8c 3c 4c 9h", "4s 5s 9s Qs 5h"], "9d")
    steps = [  # (seat to play, its legal actions, an illegal one, action)
        (1, sorted(["5d", "9c", "Kd", *eights("8h"), "draw"]), "3h", "8h=s"),
        (2, sorted([*eights("8c"), "Ks", "draw"]), "9h", "Ks"),  # spades or an 8, not the 9h
        (3, ["4s", "5s", "9s", "Qs", "draw"], "5h", "Qs"),
        (0, ["Qd", "draw"], "Kc", "Qd"),
    ]
    for seat, actions, illegal, action in steps:
        assert (g.to_play, legal(g)) == (seat, actions)
        assert_illegal(g, illegal)
        g.apply(action)
    assert (g.to_play, g.suit) == (1, Suit.DIAMONDS)


@pytest.mark.parametrize(("card", "answers"), [
    ("Ad", []), ("2d", []), ("4d", ["4s"]), ("7d", []), ("Td", []), ("Jd", []), ("Qd", ["Qs"]),
])
def test_ce3_no_other_card_has_an_effect(card: str, answers: list[str]) -> None:
    """The cards that draw, skip, reverse or play again elsewhere are plain here."""
    g = stacked(CE, ["3c 4c 6c 9c Qc", f"{card} 5h 6h 9h Kh", "3s 4s 6s 9s Qs"], "5d")
    step = g.apply(card)
    assert (step.skipped, step.reversed, g.pending, g.direction) == (None, False, 0, 1)
    assert (g.to_play, legal(g)) == (2, sorted([*answers, "draw"]))


# CE4 ----------------------------------------------------------------------------

CE4_HANDS = ["3d 4d 6d Qd Kc 5c Ac", "9c 5d Kd 3h 6s Jc 4h", "Ks 3c 4c 6c 9h Qh 3s"]


def test_ce4_draw_takes_one_card_and_the_turn_goes_on() -> None:
    g = stacked(CE, CE4_HANDS[:2], "9d", "Td 2h")
    assert legal(g) == ["5d", "9c", "Kd", "draw"]  # a player who can play may still draw
    g.apply("draw")
    assert (g.to_play, show(g.hand(1))) == (1, "9c Jc 5d Td Kd 3h 4h 6s")
    assert legal(g) == ["5d", "9c", "Kd", "Td", "draw"]  # the drawn card, or another
    g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["5d", "9c", "Kd", "Td", "draw"])  # the 2h does not fit
    g.apply("Kd")  # not a card just drawn
    assert (g.to_play, g.draws) == (0, 0)
    assert show(g.hand(1)) == "9c Jc 5d Td 2h 3h 4h 6s"


def test_ce4_a_player_who_cannot_play_must_draw() -> None:
    g = stacked(CE, ["3d 4d 6d 7d Kc 5c Ac", "3c 4c 6c Qc 3h 4h 6h"], "9d", "Ts 2s Td")
    for _ in range(3):  # the Ts and the 2s do not fit: draw again
        assert legal(g) == ["draw"]
        assert_illegal(g, "pass")
        g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["Td", "draw"])
    g.apply("Td")
    assert g.to_play == 0


def test_ce4_no_limit_on_draws_in_a_turn() -> None:
    """``max_draws = 0``: seat 1 may draw the whole stock, 37 cards, in one turn."""
    g = stacked(CE, CE4_HANDS[:2], "9d")
    assert len(g.stock) == 37
    for drawn in range(37):
        assert g.to_play == 1 and "draw" in legal(g), drawn
        g.apply("draw")
    assert (g.to_play, g.draws, len(g.hands[1]), g.stock) == (1, 37, 44, [])
    # Nothing left to draw and a card to play: play it (no pass).
    assert "draw" not in legal(g) and "pass" not in legal(g)
    assert_illegal(g, "pass")
    g.apply("5d")
    assert g.to_play == 0


def test_ce4_pass_only_when_the_stock_is_empty_and_no_card_plays() -> None:
    """Five hands of ten leave one card, the Ks, in the stock."""
    g = stacked(CE, SPREAD, SPREAD_STARTER, "Ks", overrides=["hand_size=10"])
    play(g, "8d=c")
    assert (g.to_play, legal(g)) == (2, ["draw"])
    g.apply("draw")
    assert (g.to_play, g.stock, legal(g)) == (2, [], ["pass"])
    g.apply("pass")
    assert g.to_play == 3 and not g.over


def test_ce4_rules_in_words_say_there_is_no_limit() -> None:
    en = "\n".join(describe(load_rules(CE), translator("en")))
    fr = "\n".join(describe(load_rules(CE), translator("fr")))
    assert "draw again, with no limit; you pass only when nothing is left to draw" in en
    assert "up to 0" not in en
    assert "piochez encore, sans limite" in fr


# CE5 ----------------------------------------------------------------------------


def test_ce5_no_reshuffle_an_empty_stock_stays_empty() -> None:
    g = stacked(CE, SPREAD, SPREAD_STARTER, "Ks", overrides=["hand_size=10"])
    play(g, "8d=c draw")  # seat 2 takes the Ks, the last card
    assert (show(g.discard), g.stock) == ("5h 8d", [])
    play(g, "pass pass")  # seats 2 and 3 hold no club and no 8
    assert (g.to_play, show(g.discard), g.stock) == (4, "5h 8d", [])
    assert "draw" not in legal(g)


def test_ce5_decision_bga_reshuffles() -> None:
    """CE5 Decision: ``reshuffle = true`` turns the discard pile but its top over."""
    g = stacked(CE, SPREAD, SPREAD_STARTER, "Ks 5h", overrides=["hand_size=10", "reshuffle=true"])
    play(g, "8d=c draw")
    assert (show(g.discard), show(g.stock), g.to_play) == ("8d", "5h", 2)
    assert legal(g) == ["draw"]  # the turn goes on, and there is a card to draw again
    g.apply("draw")
    assert (show(g.discard), g.stock, g.to_play, legal(g)) == ("8d", [], 2, ["pass"])


# CE6 ----------------------------------------------------------------------------

SPADES_AND_EIGHTS = "As 2s 3s 4s 5s 6s 7s 8s=s 9s Ts Js Qs 8c=s 8d=s 8h=s"
"""Seats 1, 2, 0 in turn play every spade and every 8, the last naming spades."""
BLOCKED = {
    "one winner": (
        ["Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc 3s 6s 9s Qs 8h",
         "2d 3d 4d 5d 6d 7d 2h 3h 4h 5h 6h 7h As 4s 7s Ts 8c",
         "Ad 9d Td Jd Qd Kd Ah 9h Th Jh Qh Kh 2s 5s 8s Js 8d"],
        [77, 54, 100], [0, 23 + 46, 0], [1]),
    "a tie shares the win": (
        ["Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc 2d 3s 6s 9s Qs 8h",
         "Ah 2h 3h 4h 5h 6h 7h Th Jh Qh Kh Ad As 4s 7s Ts 8c",
         "3d 4d 5d 6d 7d 9d Td Jd Qd Kd Kc 9h 2s 5s 8s Js 8d"],
        [69, 69, 93], [24, 24, 0], [0, 1]),
}


@pytest.mark.parametrize("case", list(BLOCKED))
def test_ce6_blocked_round_lowest_hand_scores_the_difference(case: str) -> None:
    """Three hands of 17 leave the stock empty from the deal; once every spade and
    every 8 is down, nobody can play or draw and the three players pass in turn."""
    hands, values, points, winners = BLOCKED[case]
    g = stacked(CE, hands, "Ks", overrides=["hand_size=17"])
    assert g.stock == []
    play(g, SPADES_AND_EIGHTS)
    for seat in (1, 2, 0):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert [g.hand_value(s) for s in range(3)] == values
    assert (g.round_winners, g.round_points, g.scores) == (winners, points, points)


# CE7 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("8h", 50), ("Kh", 10), ("Qh", 10), ("Jh", 10), ("Th", 10), ("Ah", 1), ("9h", 9), ("2h", 2),
    ("5h", 5),
])
def test_ce7_player_going_out_scores_the_opponents_cards(card: str, points: int) -> None:
    g = stacked(CE, [card, "5c"], "Kc", overrides=["hand_size=1"])
    g.apply("5c")
    assert g.over and g.out == 1 and g.round_points == [0, points] and g.scores == [0, points]


def test_ce7_every_opponents_hand_counts() -> None:
    g = stacked(CE, ["8h Ah", "5c 9c", "9d Kd"], "Kc", overrides=["hand_size=2"])
    play(g, "9c 9d 8h=c 5c")
    assert g.over and g.out == 1
    assert g.round_points == [0, 1 + 10, 0]  # seat 0's ace and seat 2's king


# CE8 ----------------------------------------------------------------------------


def one_card_deal(dealer: int) -> list[Card]:
    """Two players with one card each: the first to play goes out and collects an 8 (50)."""
    hands = ["8h", "8h"]
    hands[(dealer + 1) % 2] = "5c"
    return [*deal_order(hands, dealer), *cards("Kc")]


@pytest.mark.parametrize(("target", "rounds", "scores"), [
    (100, 3, [50, 100]),  # CE8
    (250, 9, [200, 250]),  # CE8 Decision: Card Games For Dummies plays to 250
])
def test_ce8_first_to_the_target_wins_the_match(target: int, rounds: int, scores: list[int]) -> None:
    rules = make_rules(CE, ["hand_size=1"] + ([] if target == 100 else [f"target={target}"]))
    assert rules.target == target
    g = Game(rules, 2, seed=0, dealer=0, deck=one_card_deal(0))
    for r in range(1, rounds + 1):
        assert not g.match_over
        g.apply("5c")
        if r < rounds:
            g.next_round(one_card_deal(g.dealer + 1))
    assert g.match_over and g.scores == scores and g.winners == [1]


def test_ce8_tied_players_share_the_win() -> None:
    """The tied blocked round of CE6 brings two players to the target together (a
    target of 24 here: one round is enough to show it)."""
    hands, _, points, winners = BLOCKED["a tie shares the win"]
    g = stacked(CE, hands, "Ks", overrides=["hand_size=17", "target=24"])
    play(g, SPADES_AND_EIGHTS + " pass pass pass")
    assert g.scores == points and g.match_over and g.winners == winners


def test_ce_preset_fields_are_the_contract() -> None:
    """The preset says what CE1–CE8 say, field by field (the tests above play them)."""
    rules = load_rules(CE)
    assert (rules.players, rules.default_players, rules.decks, rules.hand_size) == (
        (2, 8), 4, ((2, 1), (6, 2)), ((2, 7), (3, 5)))  # CE1
    assert [r.letter for r in rules.starter_redraw] == ["8"]  # CE2
    assert (rules.draw.value, rules.max_draws, rules.voluntary_draw, rules.voluntary_pass) == (
        "repeat", 0, True, False)  # CE4
    assert rules.reshuffle is False  # CE5
    assert (rules.scoring.value, rules.blocked_scoring.value, rules.target) == (
        "winner-collects", "difference", 100)  # CE6, CE7, CE8
    assert [r.letter for r in rules.cards] == ["8"]  # CE3: no other card has a rule
