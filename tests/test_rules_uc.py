"""Preset ``uno-cards``: rules UC1–UC12 of docs/rules.md, each on a stacked deck: the card
mapping, the starters (a joker named by the first player with ``=s``), the Wild Draw Four's
legality, the draws served after the last card, and the other mappings of its Decision
(UC2) written as ``[cards]`` tables."""

from __future__ import annotations

import pytest

from eights import Card, Game, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, deal_order, filled, legal, make_rules, play, show, stacked

UC = "uno-cards"
POOL = cards("2c 3c 4c 6c 7c 8c 9c Tc 2d 3d 4d 6d 7d 8d 9d Td")
"""Number cards of clubs and diamonds (no 5: the usual starter is the 5h)."""


def wilds(card: str) -> list[str]:
    """The four ways to play a wild card, naming each suit."""
    return [f"{card}={s}" for s in "cdhs"]


def table(hands: list[str], starter: str = "5h", draws: str = "", *,
          overrides: tuple[str, ...] = ()) -> Game:
    """Seat 0 plays first (the dealer is the last seat) with ``hands[0]``, seat 1 next with
    ``hands[1]`` and so on; a hand ``"-"`` is filled with number cards of clubs and diamonds
    that are in no other hand. Every hand has the size of ``hands[0]``."""
    return filled(UC, POOL, hands, starter, draws, overrides=overrides)


# UC1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 54), (4, 54), (6, 54), (7, 108), (10, 108)])
def test_uc1_seven_cards_each_decks_of_fifty_four(players: int, total: int) -> None:
    g = Game(UC, players, seed=players)
    assert [len(h) for h in g.hands] == [7] * players
    everything = [*(c for h in g.hands for c in h), *g.stock, *g.discard]
    assert len(everything) == total
    assert sum(1 for c in everything if str(c) == "X") == 2 * total // 54


def test_uc1_four_players_by_default() -> None:
    assert Game(UC, seed=1).n == 4


@pytest.mark.parametrize("players", [1, 11])
def test_uc1_two_to_ten_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10"):
        Game(UC, players, seed=0)


# UC2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["2h", "7h", "9h", "Th"])
def test_uc2_two_to_ten_are_number_cards(card: str) -> None:
    g = table([f"{card} 9c 3c", "-", "-"])
    step = g.apply(card)
    assert (step.skipped, step.reversed, g.pending, g.again, g.to_play) == (
        None, False, 0, False, 1)


def test_uc2_k_draw_two_q_skip_j_reverse_a_wild_draw_four_joker_wild() -> None:
    rules = load_rules(UC)
    k, q, j, a, x = (rules.rule_of(c) for c in cards("Kh Qh Jh Ah X"))
    assert (k.draw, k.stack, k.wild) == (2, False, False)
    assert (q.skip, q.reverse, q.draw) == (True, False, 0)
    assert (j.reverse, j.skip, j.draw) == (True, False, 0)
    assert (a.wild, a.name_suit, a.draw, a.wild_if.value, a.stack) == (
        True, True, 4, "no-suit", False)
    assert (x.wild, x.name_suit, x.draw) == (True, True, 0)
    assert all(not rules.rule_of(c).has_effect and not rules.rule_of(c).wild
               for c in cards("2h 3h 4h 5h 6h 7h 8h 9h Th"))


SECOND = ("cards.A.draw=0", "cards.A.wild_if=always", "cards.Q.skip=false",
          "cards.Q.reverse=true", "cards.J.reverse=false", "cards.J.skip=true")
"""ultimatecampresource's second mapping: A Wild, K Draw Two, Q Reverse, J Skip."""
INSTRUCTABLES = ("cards.J.reverse=false", "cards.J.skip=true", "cards.Q.skip=false",
                 "cards.Q.draw=2", "cards.K.draw=0", "cards.K.wild=true",
                 "cards.K.name_suit=true")
"""instructables' mapping: J Skip, Q Draw Two, K Wild, A Wild Draw Four."""


def test_uc2_decision_the_second_mapping_as_card_tables() -> None:
    """UC2 Decision: A Wild, K Draw Two, Q Reverse, J Skip."""
    g = table(["Ah 3h Qh Jh 9c", "-", "-", "-"], overrides=SECOND)
    assert set(wilds("Ah")) <= set(legal(g))  # a plain wild: legal with a heart in hand
    step = g.apply("Qh")
    assert (step.reversed, g.direction, g.to_play) == (True, -1, 3)
    g2 = table(["Jh 3h 9c", "-", "-", "-"], overrides=SECOND)
    step = g2.apply("Jh")
    assert (step.skipped, g2.to_play) == (1, 2)
    g3 = table(["Ah 3h 9c", "-", "-"], overrides=SECOND)
    g3.apply("Ah=s")
    assert (g3.pending, g3.to_play, g3.suit) == (0, 1, Suit.SPADES)
    g4 = table(["Kh 3h 9c", "-", "-"], overrides=SECOND)
    g4.apply("Kh")
    assert (g4.pending, g4.to_play) == (2, 1)


def test_uc2_decision_the_instructables_mapping_as_card_tables() -> None:
    """UC2 Decision: J Skip, Q Draw Two, K Wild, A Wild Draw Four."""
    g = table(["Qh 3h 9c", "-", "-"], overrides=INSTRUCTABLES)
    g.apply("Qh")
    assert (g.pending, g.to_play, legal(g)) == (2, 1, ["draw"])
    g2 = table(["Kc 3h 9c", "-", "-"], overrides=INSTRUCTABLES)
    assert legal(g2) == sorted([*wilds("Kc"), "3h", "draw"])  # wild, even with a heart
    g2.apply("Kc=d")
    assert (g2.suit, g2.pending, g2.to_play) == (Suit.DIAMONDS, 0, 1)
    g3 = table(["Jh 3h 9c", "-", "-", "-"], overrides=INSTRUCTABLES)
    g3.apply("Jh")
    assert (g3.to_play, g3.direction) == (2, 1)
    g4 = table(["Ac 9c 3c", "-", "-"], overrides=INSTRUCTABLES)
    g4.apply("Ac=h")
    assert (g4.pending, g4.to_play) == (4, 1)


# UC3 ----------------------------------------------------------------------------

QUIET = ["2c 3c 4c 6c 7c 8c 9c", "2d 3d 4d 6d 7d 8d 9d", "2h 3h 4h 6h 7h 8h 9h",
         "2s 3s 4s 6s 7s 8s 9s"]
"""Four hands of seven number cards, no 5 and no 10."""


def test_uc3_an_ace_starter_goes_back_and_the_next_card_is_turned() -> None:
    g = stacked(UC, QUIET, "Ah Ac 5c")
    assert show(g.discard) == "5c" and all(c in g.stock for c in cards("Ah Ac"))
    assert (g.to_play, g.pending, g.naming) == (1, 0, False)


def test_uc3_a_starter_joker_is_named_by_the_first_player_who_then_plays() -> None:
    g = stacked(UC, QUIET, "X")
    assert (g.to_play, g.naming, legal(g)) == (1, True, ["=c", "=d", "=h", "=s"])
    assert g.observe(1).naming and g.observe(1).legal
    for illegal in ("3d", "draw", "pass", "X=s"):
        assert_illegal(g, illegal)
    step = g.apply("=s")
    assert (step.seat, str(step.action)) == (1, "=s")
    assert (g.to_play, g.naming, g.suit) == (1, False, Suit.SPADES)
    assert legal(g) == ["draw"]  # seat 1 holds diamonds: it must draw
    g.apply("draw")
    assert g.to_play == 2


def test_uc3_the_first_player_plays_on_the_suit_they_named() -> None:
    g = stacked(UC, QUIET, "X")
    g.apply("=d")
    assert (g.to_play, legal(g)) == (1, ["2d", "3d", "4d", "6d", "7d", "8d", "9d", "draw"])
    g.apply("7d")
    assert g.to_play == 2


def test_uc3_a_starter_king_makes_the_first_player_draw_two_and_lose_the_turn() -> None:
    g = stacked(UC, QUIET, "Kc", "Td Th")
    assert (g.to_play, g.pending, legal(g)) == (1, 2, ["draw"])
    assert_illegal(g, "2c")
    g.apply("draw")
    assert (g.to_play, show(g.hand(1))) == (2, "2d 3d 4d 6d 7d 8d 9d Td Th")


def test_uc3_a_starter_queen_makes_the_first_player_lose_the_turn() -> None:
    g = stacked(UC, QUIET, "Qc")
    assert (g.to_play, g.pending, g.direction) == (2, 0, 1)


def test_uc3_a_starter_jack_reverses_the_dealers_right_starts() -> None:
    g = stacked(UC, QUIET, "Jc", "Kh")
    assert (g.to_play, g.direction) == (3, -1)
    g.apply("draw")
    assert g.to_play == 2


def test_uc3_a_starter_jack_with_two_players_skips_the_first_the_dealer_starts() -> None:
    g = stacked(UC, QUIET[:2], "Jc")
    assert (g.to_play, g.direction, g.dealer) == (0, 1, 0)
    g.apply("2c")
    assert g.to_play == 1


@pytest.mark.parametrize("starter", ["5c", "Tc"])
def test_uc3_a_number_starter_has_no_effect(starter: str) -> None:
    g = stacked(UC, QUIET, starter)
    assert (g.to_play, g.pending, g.direction, g.naming) == (1, 0, 1, False)


# UC4 ----------------------------------------------------------------------------


def test_uc4_a_player_who_cannot_play_must_draw_an_unplayable_card_ends_the_turn() -> None:
    g = table(["9c 3c 4c", "-", "-"], draws="Kd")
    assert legal(g) == ["draw"]
    assert_illegal(g, "pass")
    g.apply("draw")
    assert (g.to_play, show(g.hand(0))) == (1, "3c 4c 9c Kd")


def test_uc4_a_playable_drawn_card_may_be_played_at_once_or_kept() -> None:
    g = table(["9c 3h 4c", "-", "-"], draws="7h")
    assert legal(g) == ["3h", "draw"]  # a player who can play may draw instead
    g.apply("draw")
    assert (g.to_play, legal(g)) == (0, ["7h", "pass"])  # the drawn card only
    assert_illegal(g, "3h")
    g.apply("7h")
    assert g.to_play == 1
    kept = table(["9c 3h 4c", "-", "-"], draws="7h")
    play(kept, "draw pass")
    assert (kept.to_play, show(kept.hand(0))) == (1, "4c 9c 3h 7h")


# UC5 ----------------------------------------------------------------------------


def test_uc5_a_king_draws_two_no_stacking() -> None:
    g = table(["Kh 3c 4c", "Kd 5d 7h", "-"])
    g.apply("Kh")
    assert (g.to_play, g.pending, legal(g)) == (1, 2, ["draw"])  # no K on a K
    for illegal in ("Kd", "7h", "X=h"):
        assert_illegal(g, illegal)
    g.apply("draw")
    assert (g.to_play, len(g.hands[1]), g.pending) == (2, 5, 0)


# UC6 ----------------------------------------------------------------------------


def test_uc6_a_queen_skips() -> None:
    g = table(["Qh 3c 4c", "-", "-", "-"])
    step = g.apply("Qh")
    assert (step.skipped, g.to_play) == (1, 2)


def test_uc6_a_jack_reverses() -> None:
    g = table(["Jh 3c 4c", "-", "-", "-"])
    step = g.apply("Jh")
    assert (step.reversed, g.direction, g.to_play) == (True, -1, 3)


def test_uc6_with_two_players_a_jack_acts_as_a_queen() -> None:
    g = table(["Jh 3c 4c", "-"])
    step = g.apply("Jh")
    assert (step.skipped, step.reversed, g.direction, g.to_play) == (1, False, 1, 0)


# UC7 ----------------------------------------------------------------------------


def test_uc7_a_joker_is_wild_and_names_a_suit() -> None:
    g = table(["X 3h 4c", "-", "-"])
    assert legal(g) == sorted(["3h", *wilds("X"), "draw"])  # even with a heart in hand
    g.apply("X=d")
    assert (g.suit, g.to_play, str(g.up_card)) == (Suit.DIAMONDS, 1, "X")


def test_uc7_a_joker_does_not_answer_a_draw() -> None:
    g = table(["Kh 3c 4c", "X 5d 7d", "-"])
    g.apply("Kh")
    assert legal(g) == ["draw"]
    assert_illegal(g, "X=h")


# UC8 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "ace_legal"), [
    ("Ac 9c 4c", True),  # no heart: the ace goes on the 5h
    ("Ac 3h 4c", False),  # a heart in hand
    ("Ac 5s 4c", True),  # the 5s matches by rank only: it does not stop the ace
    ("Ah 9c X", True),  # the joker does not count
    ("Ah 3h 4c", False),  # an ace of hearts does not match hearts by suit alone
    ("Ah Ad 4c", True),  # the other ace does not count either
])
def test_uc8_an_ace_only_for_a_hand_without_the_suit_to_follow(hand: str,
                                                              ace_legal: bool) -> None:
    g = table([hand, "-", "-"])
    ace = hand.split()[0]
    assert (f"{ace}=s" in legal(g)) is ace_legal
    if not ace_legal:
        assert_illegal(g, f"{ace}=s")


@pytest.mark.parametrize(("hand", "ace_legal"), [("Ad 3h 6d", False), ("Ad 6d 7d", True)])
def test_uc8_an_ace_never_matches_by_rank_alone(hand: str, ace_legal: bool) -> None:
    """On an ace that named hearts, another ace is legal only for a hand without hearts."""
    g = table(["Ac 9d 4d", "-", hand], starter="5s")
    play(g, "Ac=h draw")  # seat 1 takes the four cards
    assert (g.to_play, str(g.up_card), g.suit) == (2, "Ac", Suit.HEARTS)
    assert ("Ad=c" in legal(g)) is ace_legal
    if not ace_legal:
        assert legal(g) == ["3h", "draw"]
        assert_illegal(g, "Ad=c")


def test_uc8_the_next_player_draws_four_and_loses_the_turn_no_stacking() -> None:
    g = table(["Ac 9d 4d", "Ad 3h 6h", "-"], starter="5s")
    g.apply("Ac=h")
    assert (g.to_play, g.pending, g.suit, legal(g)) == (1, 4, Suit.HEARTS, ["draw"])
    assert_illegal(g, "Ad=h")
    g.apply("draw")
    assert (g.to_play, len(g.hands[1]), g.pending) == (2, 3 + 4, 0)


def test_uc8_a_drawn_ace_is_playable_only_without_the_suit() -> None:
    g = table(["9c 3h 4c", "-", "-"], draws="Ad")
    g.apply("draw")  # the 3h is in hand: the ace cannot go down, the turn ends
    assert (g.to_play, show(g.hand(0))) == (1, "4c 9c Ad 3h")


# UC9 ----------------------------------------------------------------------------


def test_uc9_uno_a_play_leaving_one_card_must_announce_it() -> None:
    g = table(["7h 9c", "-", "-"], draws="Td Tc")
    assert legal(g) == ["7h", "7h!", "draw"]
    g.apply("7h")
    assert (g.to_play, len(g.hands[0])) == (1, 3)
    g2 = table(["7h 9c", "-", "-"])
    g2.apply("7h!")
    assert (g2.to_play, show(g2.hand(0))) == (1, "9c")


# UC10 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("last", "taker", "points"), [
    ("Kh", "2c Jd Qd", 2 + 20 + 20 + 3),  # seat 1 holds the 2c, seat 2 the 3c
    ("Ac", "2c Tc Jd Qd Kd", 2 + 20 + 20 + 20 + 10 + 3),
])
def test_uc10_a_king_or_an_ace_played_last_is_still_served(last: str, taker: str,
                                                          points: int) -> None:
    """The next player takes the 2 or 4 cards at once, before scoring; they count."""
    g = table([last, "-", "-"], draws="Jd Qd Kd Tc")
    assert legal(g) == [last, "draw"]  # going out names no suit
    g.apply(last)
    assert (g.over, g.out, g.pending) == (True, 0, 0)
    assert hands_of(g) == ["", taker, "3c"]
    assert (g.round_points, g.scores) == ([points, 0, 0], [points, 0, 0])


def test_uc10_the_draw_is_served_to_the_next_player_in_the_direction_of_play() -> None:
    """After a jack, play goes right: seat 2's last king is served to seat 1."""
    g = table(["Jh 3c", "4d 6d", "7h Kh"], draws="Tc Td 9d 8d")
    play(g, "Jh! 7h! draw draw")
    assert (g.to_play, g.direction) == (2, -1)
    g.apply("Kh")
    assert g.over and hands_of(g) == ["3c Td", "4d 6d 8d 9d Tc", ""]


def hands_of(g: Game) -> list[str]:
    """Every seat's hand as text, sorted by card code."""
    return [show(sorted(h)) for h in g.hands]


# UC11 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("2c", 2), ("9c", 9), ("Tc", 10), ("Jc", 20), ("Qc", 20), ("Kc", 20), ("Ac", 50),
    ("X", 50),
])
def test_uc11_the_player_out_scores_the_opponents_cards(card: str, points: int) -> None:
    g = table(["7h", card, "3d"])
    g.apply("7h")
    assert (g.over, g.round_points, g.scores) == (True, [points + 3, 0, 0], [points + 3, 0, 0])


BLOCKED_HANDS = [
    "As 2s 3s 4s Ac X 2h 3h 4h 5h 6h 7h 8h 9h Th Jh 2d",
    "5s 6s 7s 8s Ad X 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc",
    "Ts Js Qs Ks Ah Kc 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd",
]
"""Three hands of 17 under the starter 9s leave two cards in the stock, Qh and Kh."""


def test_uc11_a_blocked_round_the_lowest_hand_collects() -> None:
    """Every spade, ace and joker goes down, the last joker names spades, and nobody can
    follow. With ``reshuffle = true`` the stock is empty only when every card but the
    up-card is in the hands, so a blocked round needs ``reshuffle = false`` to be reached."""
    g = stacked(UC, BLOCKED_HANDS, "9s", "Qh Kh", overrides=["hand_size=17", "reshuffle=false"])
    play(g, "5s Ts 2s 6s Js 7s 3s Qs 4s Ks draw As=s Ah=s 8s Ac=s pass Ad=s X=s pass X=s")
    assert g.stock == []
    for _ in range(3):
        assert legal(g) == ["pass"]
        g.apply("pass")
    assert g.over and g.out is None
    values = [g.hand_value(s) for s in range(3)]
    assert values == [76, 134, 132]
    assert (g.round_winners, g.round_points) == ([0], [134 + 132, 0, 0])


# UC12 ---------------------------------------------------------------------------


def one_card_deal(dealer: int) -> list[Card]:
    """Two players with one card each: the first to play goes out and collects a joker."""
    hands = ["X", "X"]
    hands[(dealer + 1) % 2] = "5c"
    return [*deal_order(hands, dealer), *cards("9c")]


def test_uc12_first_to_five_hundred_wins_the_match() -> None:
    rules = make_rules(UC, ["hand_size=1"])
    g = Game(rules, 2, seed=0, dealer=0, deck=one_card_deal(0))
    for r in range(1, 20):
        assert not g.match_over
        g.apply("5c")
        if r < 19:
            g.next_round(one_card_deal(g.dealer + 1))
    assert g.match_over and g.scores == [450, 500] and g.winners == [1]


def test_uc_preset_fields_are_the_contract() -> None:
    rules = load_rules(UC)
    assert (rules.title, rules.source) == (
        "Uno on a standard deck", "Mattel's Uno rules, ultimatecampresource.com's card mapping")
    assert (rules.players, rules.default_players, rules.decks, rules.jokers, rules.hand_size) == (
        (2, 10), 4, ((2, 1), (7, 2)), 2, ((2, 7),))  # UC1
    assert ([r.letter for r in rules.starter_redraw], rules.starter_wild.value,
            rules.starter_effects) == (["A"], "first-names", True)  # UC3
    assert (rules.draw.value, rules.voluntary_draw) == ("one-may-play", True)  # UC4
    assert rules.reverse_two.value == "skip"  # UC6
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # UC9
    assert rules.serve_last_draw is True  # UC10
    assert (rules.scoring.value, rules.blocked_scoring.value) == ("winner-collects", "collect")
    assert [rules.points[r] for r in rules.points] == [
        50, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 20, 20, 50]  # UC11
    assert rules.target == 500  # UC12
