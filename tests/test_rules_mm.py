"""Preset ``mau-mau``: rules MM1–MM11 of docs/rules.md, each on a stacked deck, and the
house rules its Decisions name (``starter_effects = true``, ``draw = "one-may-play"``,
``cards.8.pass_on = true``, the ace as a skip or a reverse, ``announce_penalty = 1``,
``points.Q = 3`` and ``points.K = 4``)."""

from __future__ import annotations

import pytest

from eights import Card, Game, Rank, RecordError, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, deal_order, legal, make_rules, play, show, stacked

MM = "mau-mau"
QUIET = ["9c Tc Qc 9d Td", "Kc Qd Kd 9h Th", "Qh Kh 9s Ts Qs", "Ks 7c 7d 8c 8d"]
"""Four hands of five: seats 0-2 hold no 7, 8, jack or ace."""


def jacks(card: str, call: str = "") -> list[str]:
    """The four ways to play a jack, naming each suit (with a call, ``!``, if given)."""
    return [f"{card}={s}{call}" for s in "cdhs"]


# MM1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 32), (4, 32), (5, 32), (6, 64), (10, 64)])
def test_mm1_a_32_card_pack_two_packs_from_six_players(players: int, total: int) -> None:
    g = Game(MM, players, seed=players)
    assert [len(h) for h in g.hands] == [5] * players
    every = [c for h in g.hands for c in h] + g.stock + g.discard
    assert len(every) == total
    assert {str(c)[0] for c in every} == set("789TJQKA")  # 7, 8, 9, 10, J, Q, K, A only


def test_mm1_four_players_by_default() -> None:
    assert Game(MM, seed=1).n == 4


@pytest.mark.parametrize("players", [1, 11])
def test_mm1_two_to_ten_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10"):
        Game(MM, players, seed=0)


def test_mm1_no_six_or_lower_in_the_pack() -> None:
    """MM1: the deck holds no 2-6, and a second 9c only from six players."""
    with pytest.raises(RecordError):
        stacked(MM, ["2c Tc Qc 9d Td", *QUIET[1:]], "Kh")
    with pytest.raises(RecordError):  # five players: one pack
        stacked(MM, [*QUIET, QUIET[0]], "Ah")
    g = stacked(MM, [*QUIET, QUIET[0], QUIET[1]], "Ah")
    assert show(g.hand(0)) == show(g.hand(4))


# MM2 ----------------------------------------------------------------------------


def test_mm2_a_starter_jack_names_no_suit_follow_its_suit() -> None:
    """MM2: no suit is named on a starter jack, and MM6 forbids a jack on it."""
    g = stacked(MM, ["9c Tc Qc 9d Td", "Kh Jd Js 9h 9s", "Qh Kc 8s Ts Qs", "Ks 7c 7d 8c 8d"], "Jh")
    assert (g.to_play, g.naming, g.suit) == (1, False, Suit.HEARTS)
    assert legal(g) == ["9h", "Kh", "draw"]  # hearts, no jack, no spade
    assert_illegal(g, "Jd=h")
    assert_illegal(g, "=h")


@pytest.mark.parametrize("starter", ["7h", "8h", "Ah"])
def test_mm2_the_starter_has_no_effect(starter: str) -> None:
    g = stacked(MM, QUIET, starter)
    assert (g.to_play, g.pending, g.again) == (1, 0, False)
    assert legal(g) == ["9h", "Th", "draw"]


def test_mm2_decision_starter_effects_a_seven_makes_the_first_player_draw() -> None:
    """MM2 Decision: ``starter_effects = true``: a starter 7 makes seat 1 draw 2 (or play a
    7), a starter 8 skips seat 1."""
    rules = make_rules(MM, ["starter_effects=true"])
    g = stacked(rules, ["9c Tc Qc 9d Td", "Kc 7d Kd 9h Th", "Qh Kh 9s Ts Qs", "Ks 7c Qd 8c 8d"],
                "7h", "Ac As")
    assert (g.to_play, g.pending, legal(g)) == (1, 2, ["7d", "draw"])
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ac As")) and g.to_play == 2
    g = stacked(rules, QUIET, "8h")
    assert g.to_play == 2


# MM3 ----------------------------------------------------------------------------


def test_mm3_a_player_who_cannot_play_draws_one_and_the_turn_ends() -> None:
    """MM3: the drawn card, though playable, waits for the next turn (CL5)."""
    g = stacked(MM, ["9c Tc Qc 9d Td", "Kc Qd Kd Ks Qs", "Qh Kh 8s Ts As", "9s 7c 7d 8c 8d"],
                "9h", "Th")
    assert legal(g) == ["draw"]
    assert_illegal(g, "pass")
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Th"))  # a heart, playable on the 9h
    assert g.to_play == 2 and str(g.up_card) == "9h"


def test_mm3_a_player_who_can_play_may_draw_instead() -> None:
    g = stacked(MM, QUIET, "Ah", "7s")
    assert legal(g) == ["9h", "Th", "draw"]
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("7s")) and g.to_play == 2


def test_mm3_decision_one_may_play_the_drawn_card_goes_down_at_once() -> None:
    """MM3 Decision: ``draw = "one-may-play"``: a playable drawn card may be played at once."""
    hands = ["9c Tc Qc 9d Td", "Kc Qd Kd Ks Qs", "Qh Kh 8s Ts As", "9s 7c 7d 8c 8d"]
    g = stacked(MM, hands, "9h", "Th", overrides=["draw=one-may-play"])
    g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["Th", "pass"])
    g.apply("Th")
    assert (g.to_play, str(g.up_card)) == (2, "Th")


# MM4 ----------------------------------------------------------------------------

SEVENS = ["9c Tc Qc 7c Td", "Kc Qd Kd 7h Th", "Qh Kh 7s Ts Qs", "Ks 9s 7d 8c 8d"]
"""Every seat holds one 7."""


def test_mm4_a_seven_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    g = stacked(MM, ["9c Tc Qc 9d Td", "Kc Qd Kd 7h Th", "Qh Kh 9s Ts Qs", "Ks 7c 7d 8c 8d"],
                "9h", "Ac Ad")
    g.apply("7h")
    assert (g.to_play, g.pending, legal(g)) == (2, 2, ["draw"])  # only a 7 answers
    assert_illegal(g, "Qh")
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Ac Ad")) and g.to_play == 3


def test_mm4_sevens_stack_two_more_each() -> None:
    """MM4: 2, then 4, 6 and 8 as each seat answers with a 7; seat 1 takes eight cards."""
    g = stacked(MM, SEVENS, "9h", "Ac Ad Ah As Jc Jd Jh Js")
    for seat, card, pending in [(1, "7h", 2), (2, "7s", 4), (3, "7d", 6), (0, "7c", 8)]:
        assert g.to_play == seat
        g.apply(card)
        assert g.pending == pending
    assert (g.to_play, legal(g)) == (1, ["draw"])
    step = g.apply("draw")
    assert len(step.received[1]) == 8 and g.to_play == 2 and g.pending == 0


# MM5 ----------------------------------------------------------------------------

EIGHTS = ["9c Tc Qc 7c Td", "Kc Qd Kd 8h Th", "Qh Kh 8s Ts Qs", "Ks 9s 7d 8c 8d"]
"""Seat 1 lays the 8h; seat 2 holds the 8s, seat 3 two 8s."""


def test_mm5_an_eight_skips_the_next_player() -> None:
    g = stacked(MM, EIGHTS, "9h")
    step = g.apply("8h")
    assert step.skipped == 2 and g.to_play == 3 and g.skip_due == 0


def test_mm5_the_skip_cannot_be_passed_on() -> None:
    """MM5: seat 2 holds the 8s and still loses the turn; seat 3 plays as usual."""
    g = stacked(MM, EIGHTS, "9h")
    g.apply("8h")
    assert g.to_play == 3 and legal(g) == ["8c", "8d", "draw"]


def test_mm5_decision_pass_on_the_skipped_player_may_play_an_eight() -> None:
    """MM5 Decision: ``cards.8.pass_on = true`` (de.wikipedia): seat 2 passes the skip on
    with its 8, and it falls on seat 3, who may pass it on again or accept it."""
    g = stacked(MM, EIGHTS, "9h", overrides=["cards.8.pass_on=true"])
    step = g.apply("8h")
    assert step.skipped is None and (g.to_play, g.skip_due) == (2, 1)
    assert legal(g) == ["8s", "pass"]  # an 8, whatever its suit; no other card, no draw
    g.apply("8s")
    assert (g.to_play, g.skip_due, legal(g)) == (3, 1, ["8c", "8d", "pass"])
    g.apply("pass")  # seat 3 accepts the skip
    assert (g.to_play, g.skip_due, str(g.up_card)) == (0, 0, "8s")
    assert legal(g) == ["draw"]  # seat 0 follows the spade as usual: none in hand


# MM6 ----------------------------------------------------------------------------


def test_mm6_a_jack_is_wild_and_names_a_suit() -> None:
    g = stacked(MM, ["9c Tc Qc 9d Td", "Kc Qd Kd Jc Th", "Qh Kh 9s Ts Qs", "Ks 7c 7d 8c 8d"],
                "9h")
    assert legal(g) == [*jacks("Jc"), "Th", "draw"]
    g.apply("Jc=s")
    assert (g.to_play, g.suit) == (2, Suit.SPADES)
    assert legal(g) == ["9s", "Qs", "Ts", "draw"]
    assert_illegal(g, "Qh")  # the hearts of the 9h beneath no longer count


@pytest.mark.parametrize("named", ["c", "s"])
def test_mm6_no_jack_on_a_jack_whatever_the_suit(named: str) -> None:
    """MM6 "Bube auf Bube stinkt": seat 2's jacks cannot go on seat 1's jack, even of the
    named suit or the jack's own suit."""
    g = stacked(MM, ["9c Tc Qc 9d Td", "Kc Qd Kd Jc Th", "Js Jd 9s Ts Qs", "Ks 7c 7d 8c 8d"],
                "9h")
    g.apply(f"Jc={named}")
    assert all(not a.startswith("J") for a in legal(g))
    assert_illegal(g, f"Js={named}")
    assert_illegal(g, f"Jd={named}")


# MM7 ----------------------------------------------------------------------------

ACE = ["9c Tc Qc 9d Td", "Kc Ah Kd 7h Th", "Qh Kh 9s Ts Qs", "Ks 7c 7d 8c 8d"]
"""Seat 1 lays the Ah and holds hearts and a 7h to play again."""


def test_mm7_ace_play_again_on_it() -> None:
    g = stacked(MM, ACE, "9h")
    g.apply("Ah")
    assert (g.to_play, g.again, legal(g)) == (1, True, ["7h", "Th"])  # no Kc or Kd
    g.apply("Th")
    assert g.to_play == 2 and not g.again


def test_mm7_the_second_card_has_its_effect() -> None:
    """MM7: every rule applies to the card played on the ace: a 7 makes seat 2 draw 2."""
    g = stacked(MM, ACE, "9h", "Ac As")
    play(g, "Ah 7h")
    assert (g.to_play, g.pending) == (2, 2)
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Ac As")) and g.to_play == 3


def test_mm7_who_cannot_play_again_draws_one_and_the_turn_ends() -> None:
    g = stacked(MM, ["9c Tc Qc 9d 8s", "Kc Ah Kd Qd Td", "Qh Kh 9s Ts Qs", "Ks 7c 7d 8c 8d"],
                "9h", "7s")
    g.apply("Ah")
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("7s")) and g.to_play == 2 and not g.again


def test_mm7_going_out_on_an_ace_with_the_call_ends_the_round() -> None:
    g = stacked(MM, ["9c", "Ah"], "9h", overrides=["hand_size=1"])
    assert legal(g) == ["Ah", "Ah!", "draw"]
    step = g.apply("Ah!")
    assert g.over and step.out == 1 and g.round_points == [9, 0]


def test_mm7_ace_then_the_last_card_with_the_call() -> None:
    """MM7, MM8, MM9: the ace leaves one card ("Mau"), and the card played again on it is
    the last one ("Mau-Mau")."""
    g = stacked(MM, ["9c Tc", "Ah Kh"], "9h", overrides=["hand_size=2"])
    g.apply("Ah!")
    assert (g.to_play, g.again, legal(g)) == (1, True, ["Kh", "Kh!"])
    step = g.apply("Kh!")
    assert g.over and step.out == 1 and g.round_points == [19, 0]


@pytest.mark.parametrize(("house", "seat", "direction"), [
    (["cards.A.skip=true"], 3, 1),  # spieleaben: the ace skips seat 2
    (["cards.A.reverse=true"], 0, -1),  # other sources: play goes back to seat 0
])
def test_mm7_decision_the_ace_as_a_skip_or_a_reverse(house: list[str], seat: int,
                                                    direction: int) -> None:
    """MM7 Decision: ``cards.A.again = false`` with ``skip = true`` or ``reverse = true``.
    The preset's ``again_penalty = 1`` needs ``again``: turning ``again`` off drops it, and
    setting both at once is refused with the field's name."""
    with pytest.raises(RulesError, match="again_penalty"):
        make_rules(MM, ["cards.A.again=false", "cards.A.again_penalty=1", "cards.A.skip=true"])
    rules = make_rules(MM, ["cards.A.again=false", *house])
    assert rules.cards[Rank.ACE].again_penalty == 0
    g = stacked(rules, ACE, "9h")
    g.apply("Ah")
    assert (g.to_play, g.direction, g.again) == (seat, direction, False)


# MM8 ----------------------------------------------------------------------------

MAU = ["9c Tc", "Kd 9h"]
"""Seat 1 plays the 9h on the starter and keeps one card."""


def test_mm8_a_play_that_leaves_one_card_is_announced() -> None:
    g = stacked(MM, MAU, "Th", "Ac As Ad", overrides=["hand_size=2"])
    assert legal(g) == ["9h", "9h!", "draw"]
    step = g.apply("9h!")
    assert step.received == ((), ()) and len(g.hands[1]) == 1 and g.to_play == 0


@pytest.mark.parametrize(("house", "drawn"), [([], "Ac As"), (["announce_penalty=1"], "Ac")])
def test_mm8_a_missing_mau_costs_two_cards(house: list[str], drawn: str) -> None:
    """MM8, and its Decision ``announce_penalty = 1`` (labbe)."""
    g = stacked(MM, MAU, "Th", "Ac As Ad", overrides=["hand_size=2", *house])
    step = g.apply("9h")
    assert step.received[1] == tuple(cards(drawn)) and g.to_play == 0
    assert show(g.hand(1)) == show(sorted(cards(f"Kd {drawn}"), key=lambda c: (c & 3, c >> 2)))


# MM9 ----------------------------------------------------------------------------


def test_mm9_the_last_card_goes_out_with_the_call() -> None:
    g = stacked(MM, ["9c", "9h"], "Th", overrides=["hand_size=1"])
    assert legal(g) == ["9h", "9h!", "draw"]
    step = g.apply("9h!")
    assert g.over and step.out == 1 and g.round_points == [9, 0]


def test_mm9_without_the_call_the_player_draws_two_and_play_goes_on() -> None:
    g = stacked(MM, ["9c", "9h"], "Th", "Ac As", overrides=["hand_size=1"])
    step = g.apply("9h")
    assert not g.over and step.out is None
    assert step.received[1] == tuple(cards("Ac As")) and g.to_play == 0
    assert str(g.up_card) == "9h"


def test_mm9_a_jack_played_last_without_the_call_names_a_suit() -> None:
    """MM9: ``Jh=s`` from a one-card hand: the jack names spades, its player draws 2, and
    the next player follows spades."""
    g = stacked(MM, ["9c Qs", "Ts Jh"], "Th", "Ac As Ad", overrides=["hand_size=2"])
    play(g, "Ts! Qs!")
    assert legal(g) == sorted([*jacks("Jh"), "Jh!", "draw"])  # the called play names nothing
    step = g.apply("Jh=s")
    assert not g.over and step.out is None
    assert step.received[1] == tuple(cards("Ac As")) and (g.to_play, g.suit) == (0, Suit.SPADES)
    assert legal(g) == ["draw"]  # seat 0 holds no spade (the 9c)
    assert_illegal(g, "9c")


def test_mm9_a_seven_played_last_without_the_call_still_makes_the_next_draw() -> None:
    g = stacked(MM, ["9c Qs", "Tc 7c"], "Th", "Ah As Ad Ks", overrides=["hand_size=2"])
    play(g, "Tc! 9c!")
    step = g.apply("7c")
    assert not g.over and step.received[1] == tuple(cards("Ah As"))
    assert (g.to_play, g.pending, legal(g)) == (0, 2, ["draw"])
    step = g.apply("draw")
    assert step.received[0] == tuple(cards("Ad Ks")) and g.to_play == 1


def test_mm9_an_ace_played_last_without_the_call_does_not_play_again() -> None:
    """MM9: any "play again" lapses: seat 1 draws 2 and the turn passes."""
    g = stacked(MM, ["9c Qs", "Tc Ac"], "Th", "Ah As", overrides=["hand_size=2"])
    play(g, "Tc! 9c!")
    assert legal(g) == ["Ac", "Ac!", "draw"]
    step = g.apply("Ac")
    assert step.received[1] == tuple(cards("Ah As"))
    assert (g.to_play, g.again, str(g.up_card)) == (0, False, "Ac")


# MM10 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "points"), [
    ("Jc", 20), ("Ac", 11), ("Tc", 10), ("Qc", 10), ("Kc", 10), ("9c", 9), ("8c", 8), ("7c", 7),
])
def test_mm10_each_other_player_scores_their_own_hand(card: str, points: int) -> None:
    g = stacked(MM, [card, "9h"], "Th", overrides=["hand_size=1"])
    g.apply("9h!")
    assert g.over and g.round_points == [points, 0] and g.scores == [points, 0]


def test_mm10_hand_values_add_up() -> None:
    """MM10: seat 0's whole hand counts, the cards it drew included."""
    g = stacked(MM, ["Jc Ac 7d", "9h Th Qh"], "Kh", "8c 7c", overrides=["hand_size=3"])
    play(g, "9h draw Th! draw Qh!")
    assert g.over and g.out == 1
    assert show(g.hand(0)) == "Ac 7c 8c Jc 7d"
    assert g.round_points == [7 + 8 + 11 + 7 + 20, 0]


@pytest.mark.parametrize(("last", "points"), [("Jh!", [40, 0, 20]), ("9h!", [20, 0, 10])])
def test_mm10_going_out_on_a_jack_doubles_every_score(last: str, points: list[int]) -> None:
    g = stacked(MM, ["Jc", last[:2], "Tc"], "Th", overrides=["hand_size=1"])
    step = g.apply(last)
    assert step.out == 1 and g.round_points == points and g.scores == points


@pytest.mark.parametrize(("house", "points"), [([], [10, 0, 10]),
                                               (["points.Q=3", "points.K=4"], [3, 0, 4])])
def test_mm10_decision_maumau_club_counts_queen_3_and_king_4(house: list[str],
                                                            points: list[int]) -> None:
    """MM10 Decision: ``points.Q = 3``, ``points.K = 4`` (maumau-club)."""
    g = stacked(MM, ["Qc", "9h", "Kc"], "Th", overrides=["hand_size=1", *house])
    g.apply("9h!")
    assert g.round_points == points


# MM11 ---------------------------------------------------------------------------


def one_card_deal(dealer: int) -> list[Card]:
    """Two players with one card each: with dealer 0 seat 1 goes out on the Jh, and seat 0
    scores its Jc twice (40, MM10); with dealer 1 seat 0 goes out, and seat 1 scores 7."""
    hands = ["Jc", "Jh"] if dealer == 0 else ["9h", "7c"]
    return [*deal_order(hands, dealer), *cards("Th")]


def test_mm11_the_match_ends_at_300_and_the_lowest_total_wins() -> None:
    g = Game(make_rules(MM, ["hand_size=1"]), 2, seed=0, dealer=0, deck=one_card_deal(0))
    for r in range(1, 16):
        assert not g.match_over
        g.apply("Jh!" if g.dealer == 0 else "9h!")
        if r < 15:
            g.next_round(one_card_deal(g.dealer ^ 1))
    assert g.scores == [8 * 40, 7 * 7]  # 280 after 13 rounds, 320 after 15
    assert g.match_over and g.winners == [1]


BLOCK = "9s Ts 8s Qs draw Ks Jh=s pass As Js=s pass pass pass"
"""Seat 1 starts on the 7s; once every spade is down under a jack naming spades, nobody
can play, the stock is empty, and the three players pass in turn."""


@pytest.mark.parametrize(("hands", "values", "winners"), [
    (["8s Jd Qd Kd 8c 8h 9h Th Qh Kh", "9s Ks As Js 7h 9c Tc Jc Qc Kc",
      "Ts Qs Jh Ac 7d 8d 9d Td Ad Ah"], [102, 66, 67], [1]),
    (["8s Jd Qd Kd 7h 8h 9h Th Qh Kh", "9s Ks As Js 8c 9c Tc Jc Qc Kc",
      "Ts Qs Jh Ac 7d 8d 9d Td Ad Ah"], [101, 67, 67], [1, 2]),
])
def test_mm11_a_blocked_round_is_scored_as_hf13(hands: list[str], values: list[int],
                                               winners: list[int]) -> None:
    """MM11: everyone scores their own hand, as if nobody went out (HF13). The discard
    pile turns over when the stock runs out, so a blocked 32-card round needs
    ``reshuffle = false`` here: three hands of ten leave one card, the 7c, to draw."""
    g = stacked(MM, hands, "7s", "7c", overrides=["hand_size=10", "reshuffle=false"])
    play(g, BLOCK)
    assert g.over and g.out is None and g.stock == []
    assert [g.hand_value(s) for s in range(3)] == values
    assert (g.round_points, g.round_winners) == (values, winners)


def test_mm11_tied_players_share_the_win() -> None:
    """MM11: the tied blocked round above brings seat 0 to a target of 101 (one round
    is enough to show it): seats 1 and 2 share the lowest total."""
    hands = ["8s Jd Qd Kd 7h 8h 9h Th Qh Kh", "9s Ks As Js 8c 9c Tc Jc Qc Kc",
             "Ts Qs Jh Ac 7d 8d 9d Td Ad Ah"]
    g = stacked(MM, hands, "7s", "7c", overrides=["hand_size=10", "reshuffle=false", "target=101"])
    play(g, BLOCK)
    assert g.scores == [101, 67, 67] and g.match_over and g.winners == [1, 2]


def test_mm_preset_fields_are_the_contract() -> None:
    """The preset says what MM1–MM11 say, field by field (the tests above play them)."""
    rules = load_rules(MM)
    assert (rules.title, rules.source) == (
        "Mau-Mau", "the German game (de.wikipedia, kartenspiele.net, spielfibel.de)")
    assert sorted(r.letter for r in rules.ranks) == sorted("789TJQKA")  # MM1
    assert (rules.players, rules.default_players, rules.decks, rules.hand_size) == (
        (2, 10), 4, ((2, 1), (6, 2)), ((2, 5),))  # MM1
    assert (rules.starter_effects, rules.starter_wild.value) == (False, "plain")  # MM2
    assert (rules.draw.value, rules.voluntary_draw) == ("one-end", True)  # MM3
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # MM8
    assert (rules.call_out, rules.call_out_penalty) == (True, 2)  # MM9
    assert (rules.scoring.value, rules.blocked_scoring.value, rules.target) == (
        "own-hand", "own-hand", 300)  # MM10, MM11
    assert sorted(r.letter for r in rules.cards) == sorted("78JA")  # MM4-MM7
