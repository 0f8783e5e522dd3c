"""Preset ``tschau-sepp``: rules TS1–TS13 of docs/rules.md, each on a stacked deck, and
the house rules its Decisions name (waspika's hand sizes, ``voluntary_draw = true``,
``cards.7.stack = false``, the 8 that plays again, the ace its player covers, and
expydoc's points game)."""

from __future__ import annotations

import pytest

from eights import Card, Game, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, deal_order, legal, make_rules, play, show, stacked

TS = "tschau-sepp"
QUIET = ["6c 9c Qc Kc 6d", "9d Qd Kd 6h 9h", "Qh Kh 6s 9s Qs", "Ks 7c 7d 8c 8d"]
"""Four hands of five: seats 0-2 hold no 7, 8, 10, jack or ace."""


def jacks(card: str, call: str = "") -> list[str]:
    """The four ways to play a jack, naming each suit (with ``!`` if ``call``)."""
    return [f"{card}={s}{call}" for s in "cdhs"]


# TS1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 36), (4, 36), (5, 72), (8, 72)])
def test_ts1_a_36_card_pack_two_packs_from_five_players(players: int, total: int) -> None:
    g = Game(TS, players, seed=players)
    assert [len(h) for h in g.hands] == [5] * players
    every = [c for h in g.hands for c in h] + g.stock + g.discard
    assert len(every) == total
    assert {str(c)[0] for c in every} == set("6789TJQKA")


def test_ts1_four_players_by_default() -> None:
    assert Game(TS, seed=1).n == 4


@pytest.mark.parametrize("players", [1, 9])
def test_ts1_two_to_eight_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        Game(TS, players, seed=0)


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 6), (4, 5), (8, 5)])
def test_ts1_decision_waspika_deals_by_player_count(players: int, size: int) -> None:
    """TS1 Decision: ``hand_size = [[2, 7], [3, 6], [4, 5]]`` (waspika)."""
    rules = make_rules(TS, ["hand_size=[[2, 7], [3, 6], [4, 5]]"])
    assert [len(h) for h in Game(rules, players, seed=0).hands] == [size] * players
    assert [len(h) for h in Game(TS, players, seed=0).hands] == [5] * players


# TS2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_ts2_the_next_seat_in_play_order_starts_and_deals_next(dealer: int) -> None:
    """TS2: counter-clockwise at the table is the engine's play order: the seat after the
    dealer is dealt first and starts, and the deal passes on to that seat."""
    g = Game(TS, 4, seed=0, dealer=dealer)
    first = (dealer + 1) % 4
    assert g.to_play == first and g.round_log().deck[0] in g.hands[first]
    hands = ["6c", "9h"] if dealer == 0 else ["9h", "6c"]
    g = Game(make_rules(TS, ["hand_size=1"]), 2, seed=0, dealer=dealer,
             deck=[*deal_order(hands, dealer), *cards("6h")])
    g.apply("9h!")  # the first player goes out, and one player is left
    assert g.over
    g.next_round()
    assert (g.dealer, g.to_play) == ((dealer + 1) % 2, dealer)


# TS3 ----------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 2])
def test_ts3_the_dealer_names_the_suit_of_a_starter_jack(dealer: int) -> None:
    g = stacked(TS, QUIET, "Jh", dealer=dealer)
    assert (g.to_play, g.naming, legal(g)) == (dealer, True, ["=c", "=d", "=h", "=s"])
    assert g.observe(dealer).naming and g.observe(dealer).legal
    assert_illegal(g, "draw")
    g.apply("=s")
    first = (dealer + 1) % 4
    assert (g.to_play, g.naming, g.suit) == (first, False, Suit.SPADES)
    assert all(a == "draw" or a[1] == "s" or a[0] == "J" for a in legal(g))


def test_ts3_after_the_named_suit_play_follows_it() -> None:
    g = stacked(TS, QUIET, "Jh")
    g.apply("=d")
    assert (g.to_play, legal(g)) == (1, ["9d", "Kd", "Qd"])  # not the 6h or 9h
    assert_illegal(g, "9h")


@pytest.mark.parametrize("starter", ["7h", "8h", "Th"])
def test_ts3_any_other_starter_is_only_the_card_to_match(starter: str) -> None:
    g = stacked(TS, QUIET, starter)
    assert (g.to_play, g.naming, g.pending, g.direction) == (1, False, 0, 1)
    assert legal(g) == ["6h", "9h"]


def test_ts3_a_starter_ace_need_not_be_covered() -> None:
    """TS3: the starter ace is only the card to match, so TS9 does not apply to it:
    seat 1 draws one card under TS4, and the unplayable Ks ends its turn."""
    g = stacked(TS, ["6c 9c Qc Kc 6d", "9d Qd Kd 6s 9s", "Qh Kh Js 7s Qs", "Ks 7c 7d 8c 8d"],
                "Ah", "Ts Jc")
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ts")) and g.to_play == 2
    g = stacked(TS, ["6c 9c Qc Kc 6d", "9d Qd Kd 6s 9s", "Qh Kh Js 7s Qs", "Ks 7c 7d 8c 8d"],
                "Ah", "Ts Jc", overrides=["starter_effects=true"])  # as if the dealer laid it
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ts Jc")) and legal(g) == jacks("Jc")


# TS4 ----------------------------------------------------------------------------

DRAWER = ["6c 9c Qc Kc 6d", "9d Qd Kd 6s 9s", "Qh Kh 6h 7s Qs", "Ks 7c 7d 8c 8d"]
"""Seat 1 holds no heart and no 7 (on a 7h starter); seat 2 holds hearts."""


def test_ts4_a_playable_drawn_card_must_be_played_at_once() -> None:
    g = stacked(TS, DRAWER, "7h", "9h")
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["9h"])  # no pass: it must be played
    assert_illegal(g, "pass")
    g.apply("9h")
    assert (g.to_play, str(g.up_card)) == (2, "9h")


def test_ts4_an_unplayable_drawn_card_ends_the_turn() -> None:
    g = stacked(TS, DRAWER, "7h", "Ts")
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ts")) and g.to_play == 2


def test_ts4_nobody_draws_by_choice() -> None:
    g = stacked(TS, DRAWER, "7h", "Ts")
    g.apply("draw")
    assert legal(g) == ["6h", "7s", "Kh", "Qh"]
    assert_illegal(g, "draw")


def test_ts4_decision_jasswelt_a_player_may_draw_by_choice() -> None:
    """TS4 Decision: ``voluntary_draw = true`` (jasswelt)."""
    g = stacked(TS, DRAWER, "7h", "Ts 9h", overrides=["voluntary_draw=true"])
    g.apply("draw")
    assert legal(g) == ["6h", "7s", "Kh", "Qh", "draw"]
    g.apply("draw")  # a playable card drawn by choice must still be played at once (TS4)
    assert (g.to_play, legal(g)) == (2, ["9h"])


# TS5 ----------------------------------------------------------------------------


def test_ts5_a_jack_is_wild_names_a_suit_and_may_cover_a_jack() -> None:
    g = stacked(TS, ["6c 9c Qc Kc 6d", "9d Qd Kd Jc 9h", "Qh Kh 6s Js Qs", "Ks 7c 7d 8c 8d"],
                "7s")
    assert legal(g) == jacks("Jc")
    g.apply("Jc=h")
    assert (g.to_play, g.suit, legal(g)) == (2, Suit.HEARTS, sorted(["Kh", "Qh", *jacks("Js")]))
    g.apply("Js=d")
    assert (g.to_play, g.suit, legal(g)) == (3, Suit.DIAMONDS, ["7d", "8d"])


# TS6 ----------------------------------------------------------------------------

SEVENS = ["6c 9c Qc 7c Kc", "9d Qd Kd 7h 9h", "Qh Kh 7s 9s Qs", "Ks 6s 7d 8c 8d"]
"""Every seat holds one 7; the starter is the 6h."""
EIGHT = "Ac Ad Ah As Jc Jd Jh Js"
"""Eight cards to take (none of them in SEVENS)."""


def test_ts6_sevens_stack_two_more_each() -> None:
    g = stacked(TS, SEVENS, "6h", EIGHT)
    for seat, card, pending in [(1, "7h", 2), (2, "7s", 4), (3, "7d", 6), (0, "7c", 8)]:
        assert g.to_play == seat
        if g.pending:
            assert legal(g) == [card, "draw"]  # only a 7 answers
        g.apply(card)
        assert g.pending == pending
    assert (g.to_play, legal(g)) == (1, ["draw"])
    step = g.apply("draw")
    assert step.received[1] == tuple(cards(EIGHT)) and (g.to_play, g.pending) == (2, 0)


def test_ts6_decision_jassen_a_seven_does_not_answer_a_seven() -> None:
    """TS6 Decision: ``cards.7.stack = false`` (jassen.ch)."""
    g = stacked(TS, SEVENS, "6h", EIGHT, overrides=["cards.7.stack=false"])
    g.apply("7h")
    assert (g.to_play, g.pending, legal(g)) == (2, 2, ["draw"])
    assert_illegal(g, "7s")
    step = g.apply("draw")
    assert step.received[2] == tuple(cards(EIGHT)[:2]) and g.to_play == 3


# TS7 ----------------------------------------------------------------------------

EIGHTS = ["6c 9c Qc 8s Kc", "9d Qd Kd 8h 9h", "Qh Kh 6s 9s Qs", "Ks 6d 7d 8c 8d"]


def test_ts7_an_eight_skips_the_next_player() -> None:
    g = stacked(TS, EIGHTS, "6h")
    step = g.apply("8h")
    assert step.skipped == 2 and g.to_play == 3
    assert legal(g) == ["8c", "8d"]


def test_ts7_with_two_players_the_player_plays_again() -> None:
    g = stacked(TS, EIGHTS[:2], "6h")
    step = g.apply("8h")
    assert step.skipped == 0 and g.to_play == 1
    assert legal(g) == ["9h"]  # a turn of its own: the 8h is to match


def test_ts7_decision_jasswelt_the_eight_plays_again() -> None:
    """TS7 Decision: ``cards.8.skip = false``, ``again = true``, ``again_penalty = 1``
    (jasswelt): seat 1 plays again on its 8; with nothing to play it draws 1."""
    house = ["cards.8.skip=false", "cards.8.again=true", "cards.8.again_penalty=1"]
    g = stacked(TS, EIGHTS, "6h", overrides=house)
    step = g.apply("8h")
    assert step.skipped is None and (g.to_play, g.again, legal(g)) == (1, True, ["9h"])
    g.apply("9h")
    assert g.to_play == 2
    g = stacked(TS, ["6c 9c Qc 8s Kc", "9d Qd Kd 8h 6d", "Qh Kh 6s 9s Qs", "Ks 9h 7d 8c 8d"],
                "6h", "Ac", overrides=house)
    g.apply("8h")
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ac")) and g.to_play == 2


# TS8 ----------------------------------------------------------------------------

TENS = ["6c 9c Qc 8s Kc", "9d Qd Kd Th 9h", "Qh Kh 6s 9s Qs", "Ks 6d 7d 8c 8d"]


def test_ts8_a_ten_reverses_the_direction() -> None:
    g = stacked(TS, TENS, "6h")
    step = g.apply("Th")
    assert step.reversed and (g.to_play, g.direction) == (0, -1)


def test_ts8_with_two_players_the_ten_acts_as_an_eight() -> None:
    g = stacked(TS, TENS[:2], "6h")
    step = g.apply("Th")
    assert step.skipped == 0 and not step.reversed
    assert (g.to_play, g.direction) == (1, 1)


def test_ts8_with_two_players_still_holding_cards() -> None:
    """TS8, TS11: seat 1 goes out on the 10 ("Sepp"); two players are left, so the 10
    skips seat 2 and seat 0 plays, the direction unchanged."""
    g = stacked(TS, ["6c", "Th", "Qs"], "6h", overrides=["hand_size=1"])
    step = g.apply("Th!")
    assert g.finished == [1] and not g.over
    assert step.skipped == 2 and (g.to_play, g.direction) == (0, 1)


# TS9 ----------------------------------------------------------------------------

ACE = ["6c 9c 6d 9d Qd", "Ah Kd 6h 9h Th", "Qc Kc 6s 9s Qs", "Ks 7c 7d 8c 8d"]
"""Seat 1 lays the Ah on the Qh; seat 2 holds no heart, ace or jack."""


def test_ts9_the_next_player_draws_until_the_ace_is_covered() -> None:
    g = stacked(TS, ACE, "Qh", "7s 8s Kh 7h")
    g.apply("Ah")
    assert (g.to_play, legal(g)) == (2, ["draw"])
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("7s 8s Kh"))
    assert (g.to_play, legal(g)) == (2, ["Kh"])  # it must be played
    assert_illegal(g, "pass")
    g.apply("Kh")
    assert (g.to_play, str(g.up_card)) == (3, "Kh")


def test_ts9_who_can_cover_the_ace_must() -> None:
    g = stacked(TS, [ACE[0], ACE[1], "Qc Kc 6s As Qs", ACE[3]], "Qh")
    g.apply("Ah")
    assert (g.to_play, legal(g)) == (2, ["As"])


def test_ts9_with_nothing_left_to_draw_the_turn_ends() -> None:
    """TS9: two hands of 17 leave one card, the Ks, to draw; it does not cover the ace, and
    with the discard pile kept (``reshuffle = false``) nothing else is left."""
    others = "6c 7c 8c 9c Tc Qc Kc 6d 7d 8d 9d Td Qd Kd 6s 7s 8s"
    hearts = "7h 8h 9h Th Jh Qh Kh Ah Ac Ad As Jc Jd Js 9s Ts Qs"
    g = stacked(TS, [others, hearts], "6h", "Ks", overrides=["hand_size=17", "reshuffle=false"])
    g.apply("Ah")
    step = g.apply("draw")
    assert step.received[0] == tuple(cards("Ks")) and g.stock == []
    assert g.to_play == 1 and str(g.up_card) == "Ah"


def test_ts9_decision_the_player_who_laid_the_ace_covers_it() -> None:
    """TS9 Decision: ``cards.A.must_cover = false`` with ``again = true``."""
    g = stacked(TS, ACE, "Qh", overrides=["cards.A.must_cover=false", "cards.A.again=true"])
    g.apply("Ah")
    assert (g.to_play, g.again, legal(g)) == (1, True, ["6h", "9h", "Th"])
    g.apply("9h")
    assert (g.to_play, legal(g)) == (2, ["9s"])  # seat 2 follows the 9h


# TS10 ---------------------------------------------------------------------------

FOUR = "Ac Ad As Js"
"""Four cards to take (a missing "Sepp")."""


@pytest.mark.parametrize(("action", "drawn"), [("9h!", ""), ("9h", "Ac Ad")])
def test_ts10_tschau_announces_the_last_card(action: str, drawn: str) -> None:
    g = stacked(TS, ["6c 9c", "9h Qd", "Qc Kc"], "6h", FOUR, overrides=["hand_size=2"])
    assert legal(g) == ["9h", "9h!"]
    step = g.apply(action)
    assert step.received[1] == tuple(cards(drawn)) and g.to_play == 2


def test_ts10_sepp_goes_out() -> None:
    g = stacked(TS, ["6c", "9h", "Qc"], "6h", FOUR, overrides=["hand_size=1"])
    assert legal(g) == ["9h", "9h!"]
    step = g.apply("9h!")
    assert step.out is None and step.received == ((), (), ())
    assert (g.finished, g.hands[1], g.to_play, g.over) == ([1], [], 2, False)


def test_ts10_a_missing_sepp_costs_four_and_the_player_stays() -> None:
    g = stacked(TS, ["6c", "9h", "Qc"], "6h", FOUR, overrides=["hand_size=1"])
    step = g.apply("9h")
    assert step.received[1] == tuple(cards(FOUR)) and g.finished == []
    assert (g.to_play, str(g.up_card)) == (2, "9h")


def test_ts10_a_missing_sepp_on_a_seven_the_next_still_draws() -> None:
    """TS10: the card stays played and its effect applies."""
    g = stacked(TS, ["6c", "7h", "Qc"], "6h", FOUR + " Kd Ks", overrides=["hand_size=1"])
    step = g.apply("7h")
    assert step.received[1] == tuple(cards(FOUR)) and (g.to_play, g.pending) == (2, 2)
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Kd Ks")) and g.to_play == 0


def test_ts10_a_missing_sepp_on_a_jack_names_a_suit() -> None:
    g = stacked(TS, ["6c", "Jh", "Qs"], "6h", FOUR, overrides=["hand_size=1"])
    assert legal(g) == sorted([*jacks("Jh"), *jacks("Jh", "!")])
    step = g.apply("Jh=s")
    assert step.received[1] == tuple(cards(FOUR)) and g.finished == []
    assert (g.to_play, g.suit, legal(g)) == (2, Suit.SPADES, ["Qs", "Qs!"])


# TS11 ---------------------------------------------------------------------------


def last_card(card: str, draws: str = "") -> Game:
    """Four players with one card each: seat 1 holds ``card``, seat 2 the Qs (no heart,
    no ace, no jack), seat 3 the 9h; the starter is the 6h."""
    return stacked(TS, ["6c", card, "Qs", "9h"], "6h", draws, overrides=["hand_size=1"])


def test_ts11_out_with_sepp_the_player_leaves_and_turns_skip_them() -> None:
    g = last_card("Kh", "Ks 6d 7d")
    play(g, "Kh! draw")  # seat 2 draws the Ks and must play it (TS4)
    assert g.finished == [1] and (g.to_play, legal(g)) == (2, ["Ks", "Ks!"])
    play(g, "Ks! draw")  # the 6d does not fit the Ks: seat 3 keeps it
    assert g.to_play == 0
    play(g, "draw")  # nor does the 7d
    assert g.to_play == 2  # seat 1 is out: seat 0 passes the turn to seat 2


def test_ts11_after_a_seven_the_next_player_draws() -> None:
    g = last_card("7h", "Kd Ks")
    g.apply("7h!")
    assert g.finished == [1] and (g.to_play, g.pending, legal(g)) == (2, 2, ["draw"])
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Kd Ks")) and g.to_play == 3


def test_ts11_after_an_eight_the_next_player_is_skipped() -> None:
    g = last_card("8h")
    step = g.apply("8h!")
    assert g.finished == [1] and step.skipped == 2
    assert (g.to_play, legal(g)) == (3, ["9h", "9h!"])


def test_ts11_after_an_ace_the_next_player_must_cover_it() -> None:
    g = last_card("Ah", "Ks 7s Kh")
    g.apply("Ah!")
    assert (g.finished, g.to_play, legal(g)) == ([1], 2, ["draw"])
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Ks 7s Kh")) and legal(g) == ["Kh"]


def test_ts11_a_jack_names_a_suit_for_the_players_left() -> None:
    """TS11: ``Jh=s!``: seat 1 goes out and the players left follow spades."""
    g = last_card("Jh")
    g.apply("Jh=s!")
    assert g.finished == [1] and not g.over
    assert (g.to_play, g.suit, legal(g)) == (2, Suit.SPADES, ["Qs", "Qs!"])
    g.apply("Qs!")
    assert g.finished == [1, 2]
    assert (g.to_play, legal(g)) == (3, ["draw"])  # the 9h does not fit the Qs


def test_ts11_play_goes_on_until_one_player_holds_cards() -> None:
    g = stacked(TS, ["6c", "9h", "Qh"], "6h", overrides=["hand_size=1"])
    g.apply("9h!")
    assert not g.over and g.to_play == 2
    step = g.apply("Qh!")
    assert g.over and g.finished == [1, 2] and step.round_over
    assert show(g.hand(0)) == "6c"


# TS12 ---------------------------------------------------------------------------


def test_ts12_each_player_scores_their_placing_minus_one() -> None:
    """TS12: seat 1 cannot play and draws; seats 2, 3 and 0 go out in turn."""
    g = stacked(TS, ["Kc", "Qs", "9h", "Kh"], "6h", "Ks", overrides=["hand_size=1"])
    play(g, "draw 9h! Kh! Kc!")
    assert g.over and g.finished == [2, 3, 0]
    assert (g.round_points, g.scores, g.round_winners) == ([2, 3, 0, 1], [2, 3, 0, 1], [2])


BLOCK = ["Kh 7h Ts Ad As 9c", "Ah 8h Jc Jd Js Jh", "6c 7c 8c Qc Kc 6d", "Qh 9h Th Tc Td Ac"]
"""Seat 1 lays the Ah; seat 2, with no heart, ace or jack, draws the whole stock (eleven
cards, none of them either) to cover it. From then on only hearts and jacks could be
played: seat 1 goes out on the last jack, and the rest pass."""
BLOCK_STOCK = "7d 8d 9d Qd Kd 6s 7s 8s 9s Qs Ks"
BLOCK_PLAY = ("Ah draw Qh Kh 8h 9h 7h Jc=h pass Th pass Jd=h pass pass pass Js=h! pass pass "
              "pass Jh=h! pass pass pass")


def test_ts12_a_blocked_round_places_the_players_left_by_hand_value() -> None:
    """TS12: seat 1 went out first (0); seats 0 and 3 hold 21 each and share 2nd place
    (1 each); seat 2 holds the most and is 4th (3). The discard pile turning over would
    refill the stock, so this round keeps it (``reshuffle = false``)."""
    g = stacked(TS, BLOCK, "6h", BLOCK_STOCK, overrides=["hand_size=6", "reshuffle=false"])
    play(g, BLOCK_PLAY)
    assert g.over and g.out is None and g.stock == [] and g.finished == [1]
    assert [g.hand_value(s) for s in range(4)] == [21, 0, 141, 21]
    assert (g.round_points, g.round_winners) == ([1, 0, 3, 1], [1])


# TS13 ---------------------------------------------------------------------------

ROUNDS = [  # (hands of seats 0-2, actions): the dealer moves one seat a round, from seat 0
    (["Kc", "9h", "Qh"], "9h! Qh!"),  # seat 0 holds on: 2, 0, 1
    (["Kc", "Qh", "9h"], "9h! draw Qh!"),  # seat 2 starts: 2, 1, 0
    (["9h", "Kc", "Qh"], "9h! draw Qh!"),  # seat 0 starts and goes out: 0, 2, 1
    (["Kc", "9h", "Qh"], "9h! Qh!"),
    (["Kc", "Qh", "9h"], "9h! draw Qh!"),
    (["Kc", "9h", "Qh"], "draw 9h! Qh!"),  # seat 0 starts and cannot play: 2, 0, 1
]
"""Six rounds of one card each on the 6h; a player who cannot play draws the Ks."""


def test_ts13_the_match_ends_at_10_and_the_lowest_totals_share_the_win() -> None:
    rules = make_rules(TS, ["hand_size=1"])
    deck: list[Card] = []
    g: Game | None = None
    for r, (hands, actions) in enumerate(ROUNDS):
        deck = [*deal_order(hands, r % 3), *cards("6h Ks")]
        if g is None:
            g = Game(rules, 3, seed=0, dealer=0, deck=deck)
        else:
            assert not g.match_over
            g.next_round(deck)
        play(g, actions)
        assert g.over
    assert g is not None and g.round == 6
    assert g.scores == [10, 4, 4] and g.match_over and g.winners == [1, 2]


def test_ts13_decision_expydoc_points_game() -> None:
    """TS13 Decision: ``play_on = false``, ``scoring = "own-hand"``, ``target = 200``: the
    first player out ends the round, and everyone scores their own hand."""
    rules = make_rules(TS, ["play_on=false", "scoring=own-hand", "target=200"])
    g = stacked(rules, ["Kc", "9h", "Qh"], "6h", overrides=["hand_size=1"])
    step = g.apply("9h!")
    assert g.over and step.out == 1 and g.finished == []
    assert g.round_points == [10, 0, 10] and rules.target == 200
    g = stacked(TS, ["Kc", "9h", "Qh"], "6h", overrides=["hand_size=1"])
    g.apply("9h!")
    assert not g.over and g.finished == [1]  # the preset plays on


def test_ts_preset_fields_are_the_contract() -> None:
    """The preset says what TS1–TS13 say, field by field (the tests above play them)."""
    rules = load_rules(TS)
    assert (rules.title, rules.source) == (
        "Tschau Sepp", "the Swiss game (jassen.ch, jasswelt.ch, waspika.ch)")
    assert sorted(r.letter for r in rules.ranks) == sorted("6789TJQKA")  # TS1
    assert (rules.players, rules.default_players, rules.decks, rules.hand_size) == (
        (2, 8), 4, ((2, 1), (5, 2)), ((2, 5),))  # TS1
    assert (rules.starter_effects, rules.starter_wild.value) == (False, "dealer-names")  # TS3
    assert (rules.draw.value, rules.voluntary_draw) == ("one-must-play", False)  # TS4
    assert rules.reverse_two.value == "skip"  # TS7, TS8
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # TS10
    assert (rules.call_out, rules.call_out_penalty) == (True, 4)  # TS10
    assert (rules.play_on, rules.scoring.value, rules.target) == (True, "placings", 10)
    assert sorted(r.letter for r in rules.cards) == sorted("78TJA")  # TS5-TS9
