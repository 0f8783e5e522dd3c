"""Preset ``pesten``: rules PE1–PE13 of docs/rules.md, each on a stacked deck, and the
house rules its Decisions name (``draw = "one-end"``, ``stack_with = ["2", "X"]``,
``forced_draw_ends_turn = true``, ``cards.8.pass_on = true``, ``announce_penalty = 5``,
``going_out = "penalty"`` with ``out_penalty = 5``)."""

from __future__ import annotations

import pytest

from eights import JOKER, Game, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, legal, make_rules, play, show, stacked

PE = "pesten"
QUIET = ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td 2d", "3h 4h 5h 6h 9h Th 2h",
         "3s 4s 5s 6s 9s Ts 2s"]
"""Four hands of seven, one suit each, with a 2; the queens are left to start on."""
STARTS = ["3c 4c 5c 6c 9c Tc Qc", "3d 4d 5d 6d 9d Td Qd", "3h 4h 5h 6h 9h Th Qh",
          "3s 4s 5s 6s 9s Ts 2s"]
"""Four hands of seven that leave one plain card, the Qs, to start on."""


def jacks(card: str, call: str = "") -> list[str]:
    """The four ways to play a jack, naming each suit."""
    return [f"{card}={s}{call}" for s in "cdhs"]


# PE1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 54), (4, 54), (6, 54), (7, 108), (10, 108)])
def test_pe1_52_cards_and_2_jokers_a_deck_two_decks_from_seven(players: int, total: int) -> None:
    g = Game(PE, players, seed=players)
    assert [len(h) for h in g.hands] == [7] * players
    every = [c for h in g.hands for c in h] + g.stock + g.discard
    assert len(every) == total and every.count(JOKER) == total // 27


def test_pe1_four_players_by_default() -> None:
    assert Game(PE, seed=1).n == 4


@pytest.mark.parametrize("players", [1, 11])
def test_pe1_two_to_ten_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10"):
        Game(PE, players, seed=0)


# PE2 ----------------------------------------------------------------------------


@pytest.mark.parametrize("special", ["2h", "7h", "8h", "Jh", "Ah", "Kh", "X"])
def test_pe2_a_special_starter_goes_back_and_the_next_card_is_turned(special: str) -> None:
    g = stacked(PE, STARTS, f"{special} Qs")
    assert show(g.discard) == "Qs" and cards(special)[0] in g.stock
    assert len(g.stock) == 54 - 28 - 1
    assert (g.to_play, g.pending, g.direction, g.again) == (1, 0, 1, False)


def test_pe2_turns_until_a_plain_card_shows() -> None:
    g = stacked(PE, STARTS, "X 2h 7h 8h Jh Ah Kh X Qs")
    assert show(g.discard) == "Qs"
    assert all(c in g.stock for c in cards("X 2h 7h 8h Jh Ah Kh X"))


@pytest.mark.parametrize("plain", ["Qs", "Th", "3h", "6h", "9h"])
def test_pe2_a_plain_starter_stays(plain: str) -> None:
    hands = [h.replace(plain, "Qs") for h in STARTS]
    g = stacked(PE, hands, plain)
    assert show(g.discard) == plain and g.to_play == 1


# PE3 ----------------------------------------------------------------------------


@pytest.mark.parametrize("drawn", ["Qc", "Jc"])
def test_pe3_a_playable_drawn_card_may_be_played_at_once(drawn: str) -> None:
    g = stacked(PE, QUIET, "Qh", drawn)
    assert legal(g) == ["draw"]  # seat 1: no heart, no queen
    g.apply("draw")
    plays = jacks(drawn) if drawn[0] == "J" else [drawn]
    assert (g.to_play, legal(g)) == (1, sorted([*plays, "pass"]))
    g.apply(plays[0])
    assert (g.to_play, str(g.up_card)) == (2, drawn)


def test_pe3_the_drawn_card_may_be_kept() -> None:
    g = stacked(PE, QUIET, "Qh", "Qc")
    play(g, "draw pass")
    assert g.to_play == 2 and "Qc" in show(g.hand(1))


def test_pe3_an_unplayable_drawn_card_ends_the_turn() -> None:
    g = stacked(PE, QUIET, "Qh", "Kc")
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Kc")) and g.to_play == 2


def test_pe3_nobody_draws_by_choice() -> None:
    g = stacked(PE, QUIET, "Qh", "Kc")
    g.apply("draw")
    assert g.to_play == 2 and "draw" not in legal(g)  # seat 2 holds hearts
    assert_illegal(g, "draw")


def test_pe3_decision_one_end_the_drawn_card_is_not_played() -> None:
    """PE3 Decision: ``draw = "one-end"`` (spelinfo): drawing ends the turn."""
    g = stacked(PE, QUIET, "Qh", "Qc", overrides=["draw=one-end"])
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Qc")) and g.to_play == 2


# PE4 ----------------------------------------------------------------------------

DRAWS = "Ac Ad Ah As Kc Kd Kh Ks Jc Jd Jh Js 7c 7d 7h 7s"
"""Cards to take (none of them in QUIET)."""


def test_pe4_twos_stack_two_more_each() -> None:
    """PE4: 2, 4, 6 and 8; seat 1 takes the eight cards."""
    g = stacked(PE, QUIET, "Qd", DRAWS)
    for seat, card, pending in [(1, "2d", 2), (2, "2h", 4), (3, "2s", 6), (0, "2c", 8)]:
        assert g.to_play == seat and card in legal(g)
        if g.pending:
            assert legal(g) == [card, "draw"]  # only a 2 answers
        g.apply(card)
        assert g.pending == pending
    assert (g.to_play, legal(g)) == (1, ["draw"])
    step = g.apply("draw")
    assert step.received[1] == tuple(cards(DRAWS)[:8])


JOKERS = ["3c 4c 5c 6c 9c Tc X", "3d 4d 5d 6d 9d Td X", "3h 4h 5h 6h 9h Th 2h",
          "3s 4s 5s 6s 9s Ts 2s"]
"""Seats 0 and 1 hold a joker, seats 2 and 3 a 2."""


def test_pe4_a_joker_goes_on_any_card_and_the_next_draws_five() -> None:
    g = stacked(PE, JOKERS, "Qh", DRAWS)
    assert "X" in legal(g)  # on a heart queen: no suit, no rank needed
    g.apply("X")
    assert (g.to_play, g.pending, legal(g)) == (2, 5, ["draw"])  # the 2h does not answer
    assert_illegal(g, "2h")
    step = g.apply("draw")
    assert step.received[2] == tuple(cards(DRAWS)[:5])


def test_pe4_jokers_stack_five_more_each() -> None:
    g = stacked(PE, ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td X", "3h 4h 5h 6h 9h Th X",
                     "3s 4s 5s 6s 9s Ts 2s"], "Qd", DRAWS)
    g.apply("X")
    assert (g.to_play, legal(g)) == (2, ["X", "draw"])
    g.apply("X")
    assert (g.to_play, g.pending, legal(g)) == (3, 10, ["draw"])
    step = g.apply("draw")
    assert step.received[3] == tuple(cards(DRAWS)[:10])


def test_pe4_a_joker_does_not_answer_a_two() -> None:
    g = stacked(PE, ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td 2d", "3h 4h 5h 6h 9h Th X",
                     "3s 4s 5s 6s 9s Ts 2s"], "Qd", DRAWS)
    g.apply("2d")
    assert (g.to_play, legal(g)) == (2, ["draw"])
    assert_illegal(g, "X")


@pytest.mark.parametrize(("first", "answer", "total"), [("2d", "X", 7), ("X", "2h", 7)])
def test_pe4_decision_twos_and_jokers_answer_each_other(first: str, answer: str,
                                                        total: int) -> None:
    """PE4 Decision: ``stack_with = ["2", "X"]`` on both (gamefunnel, "pokerjoker")."""
    rules = make_rules(PE, ['cards.2.stack_with=["2", "X"]', 'cards.X.stack_with=["2", "X"]'])
    hands = ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td X", "3h 4h 5h 6h 9h Th X",
             "3s 4s 5s 6s 9s Ts 2s"]
    hands[1] = hands[1].replace("X", first)
    hands[2] = hands[2].replace("X", answer)
    g = stacked(rules, hands, "Qd", DRAWS)
    g.apply(first)
    assert (g.to_play, legal(g)) == (2, [answer, "draw"])
    g.apply(answer)
    assert (g.to_play, g.pending) == (3, total)
    step = g.apply("draw")
    assert len(step.received[3]) == total


# PE5 ----------------------------------------------------------------------------

VICTIM = ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td 2s", "3h 4h 5h 6h 9h Th Qc",
          "3s 4s 5s 6s 9s Ts 2d"]
"""Seat 1 lays the 2s on the starter Qs; seat 2 holds no 2 and no spade."""


def test_pe5_after_a_forced_draw_the_victim_may_play_on_the_up_card() -> None:
    """PE5: seat 2 takes the two cards in full and stays in turn: it plays the jack it
    drew on the 2s (no second draw)."""
    g = stacked(PE, VICTIM, "Qs", "Jd Kh")
    g.apply("2s")
    assert (g.to_play, legal(g)) == (2, ["draw"])
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Jd Kh")) and g.to_play == 2
    assert legal(g) == [*jacks("Jd"), "pass"]
    assert_illegal(g, "draw")
    g.apply("Jd=h")
    assert (g.to_play, g.suit) == (3, Suit.HEARTS)


def test_pe5_or_pass() -> None:
    g = stacked(PE, VICTIM, "Qs", "Qd Kh")
    play(g, "2s draw")
    assert (g.to_play, legal(g)) == (2, ["pass"])  # nothing fits the 2s
    g.apply("pass")
    assert g.to_play == 3 and str(g.up_card) == "2s"


def test_pe5_a_card_played_after_the_draw_has_its_effect() -> None:
    """PE5, PE7: the victim plays a 7 on the 2s and must play again; with nothing to play
    it draws 1 and the turn ends."""
    hands = [*VICTIM]
    hands[2] = hands[2].replace("Qc", "7s")
    g = stacked(PE, hands, "Qs", "Kc Kd Ac")
    play(g, "2s draw")
    assert (g.to_play, legal(g)) == (2, ["7s", "pass"])
    g.apply("7s")
    assert (g.to_play, g.again, legal(g)) == (2, True, ["draw"])
    step = g.apply("draw")
    assert step.received[2] == tuple(cards("Ac")) and g.to_play == 3


def test_pe5_decision_the_forced_draw_ends_the_turn() -> None:
    """PE5 Decision: ``forced_draw_ends_turn = true``."""
    g = stacked(PE, VICTIM, "Qs", "Jd Kh", overrides=["forced_draw_ends_turn=true"])
    play(g, "2s draw")
    assert g.to_play == 3


# PE6 ----------------------------------------------------------------------------


def test_pe6_any_card_on_a_joker_and_it_sets_suit_and_rank() -> None:
    """PE6: once seat 2 has taken the joker's five cards (PE4, PE5), any card goes on the
    joker; the 3h it plays sets hearts and threes for seat 3."""
    hands = [*VICTIM]
    hands[1] = hands[1].replace("2s", "X")
    g = stacked(PE, hands, "Qs", "Ad Kd Ah Kh 7c")
    g.apply("X")
    assert g.observe(2).suit is None
    g.apply("draw")
    assert g.to_play == 2
    assert legal(g) == sorted([*show(g.hand(2)).split(), "pass"])  # any card, jacks none here
    g.apply("3h")
    assert (g.to_play, g.suit, legal(g)) == (3, Suit.HEARTS, ["3s"])


def test_pe6_no_plain_card_on_a_joker_while_its_draw_is_pending() -> None:
    hands = [*VICTIM]
    hands[1] = hands[1].replace("2s", "X")
    g = stacked(PE, hands, "Qs")
    g.apply("X")
    assert legal(g) == ["draw"]
    assert_illegal(g, "3h")


# PE7 ----------------------------------------------------------------------------


def pe7_hands(card: str, other: str) -> list[str]:
    """Seat 1 holds ``card`` and ``other`` besides its diamonds; seat 2 holds hearts."""
    return ["3c 4c 5c 6c 9c Tc 2c", f"3d 4d 5d 6d 9d {card} {other}", "3h 4h 5h 6h Qc Th 2h",
            "3s 4s 5s 6s 9s Ts 2s"]


@pytest.mark.parametrize("card", ["7h", "Kh"])
def test_pe7_seven_and_king_play_again(card: str) -> None:
    """PE7 "zeven blijft kleven", "heer nog een keer": seat 1 plays again on its card."""
    g = stacked(PE, pe7_hands(card, "9h"), "Qh")
    g.apply(card)
    assert (g.to_play, g.again, legal(g)) == (1, True, ["9h"])
    g.apply("9h")
    assert (g.to_play, g.again) == (2, False)


@pytest.mark.parametrize("card", ["7h", "Kh"])
def test_pe7_the_card_played_again_has_its_effect(card: str) -> None:
    """PE7: a 2 played again on the 7 makes seat 2 draw."""
    hands = pe7_hands(card, "2h")
    hands[2] = hands[2].replace("2h", "Qs")
    g = stacked(PE, hands, "Qh", "Ac Ad")
    play(g, f"{card} 2h")
    assert (g.to_play, g.pending) == (2, 2)


@pytest.mark.parametrize("card", ["7h", "Kh"])
def test_pe7_who_cannot_play_again_draws_one_and_the_turn_ends(card: str) -> None:
    g = stacked(PE, pe7_hands(card, "Qs"), "Qh", "Ac")
    g.apply(card)
    assert legal(g) == ["draw"]
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ac")) and (g.to_play, g.again) == (2, False)


# PE8 ----------------------------------------------------------------------------

EIGHTS = ["3c 4c 5c 6c 9c Tc 8c", "3d 4d 5d 6d 9d Td 8d", "3h 4h 5h 6h 9h Th 8h",
          "3s 4s 5s 6s 9s Ts 8s"]
"""Every seat holds an 8."""


def test_pe8_an_eight_skips_the_next_player() -> None:
    """PE8 "acht wacht": seat 2 loses its turn, its 8h notwithstanding."""
    g = stacked(PE, EIGHTS, "Qd")
    step = g.apply("8d")
    assert step.skipped == 2 and (g.to_play, g.skip_due) == (3, 0)
    assert legal(g) == ["8s"]


def test_pe8_decision_pass_the_skip_on_with_an_eight() -> None:
    """PE8 Decision: ``cards.8.pass_on = true`` (wikibooks)."""
    g = stacked(PE, EIGHTS, "Qd", overrides=["cards.8.pass_on=true"])
    g.apply("8d")
    assert (g.to_play, g.skip_due, legal(g)) == (2, 1, ["8h", "pass"])
    g.apply("8h")
    assert (g.to_play, legal(g)) == (3, ["8s", "pass"])
    g.apply("pass")
    assert (g.to_play, g.skip_due, str(g.up_card)) == (0, 0, "8h")


# PE9 ----------------------------------------------------------------------------


def test_pe9_a_jack_is_wild_names_a_suit_and_may_cover_a_jack() -> None:
    g = stacked(PE, ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td Jc", "3h 4h 5h 6h 9h Th Jh",
                     "3s 4s 5s 6s 9s Ts 2s"], "Qs")
    assert legal(g) == jacks("Jc")
    g.apply("Jc=h")
    assert (g.to_play, g.suit) == (2, Suit.HEARTS)
    assert legal(g) == sorted(["3h", "4h", "5h", "6h", "9h", "Th", *jacks("Jh")])
    g.apply("Jh=d")
    assert (g.to_play, g.suit, legal(g)) == (3, Suit.DIAMONDS, ["draw"])


# PE10 ---------------------------------------------------------------------------


def test_pe10_an_ace_reverses_the_direction() -> None:
    g = stacked(PE, ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td Ad", "3h 4h 5h 6h 9h Th 2h",
                     "3s 4s 5s 6s 9s Ts 2s"], "Qd")
    step = g.apply("Ad")
    assert step.reversed and (g.to_play, g.direction) == (0, -1)


def test_pe10_with_two_players_the_ace_acts_as_an_eight() -> None:
    """PE10: seat 0 loses its turn and seat 1 plays again; the direction stays."""
    g = stacked(PE, ["3c 4c 5c 6c 9c Tc 2c", "3d 4d 5d 6d 9d Td Ad"], "Qd")
    step = g.apply("Ad")
    assert step.skipped == 0 and not step.reversed
    assert (g.to_play, g.direction, g.again) == (1, 1, False)
    assert legal(g) == sorted(["3d", "4d", "5d", "6d", "9d", "Td"])


# PE11 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("house", "penalty"), [([], 2), (["announce_penalty=5"], 5)])
def test_pe11_the_last_card_is_announced_or_costs_two(house: list[str], penalty: int) -> None:
    """PE11 "laatste kaart", and its Decision ``announce_penalty = 5``."""
    g = stacked(PE, ["3c 4c", "3d 9c", "3h 4h"], "Qd", DRAWS, overrides=["hand_size=2", *house])
    assert legal(g) == ["3d", "3d!"]
    step = g.apply("3d")
    assert step.received[1] == tuple(cards(DRAWS)[:penalty]) and g.to_play == 2
    g = stacked(PE, ["3c 4c", "3d 9c", "3h 4h"], "Qd", DRAWS, overrides=["hand_size=2", *house])
    step = g.apply("3d!")
    assert step.received == ((), (), ()) and len(g.hands[1]) == 1


# PE12 ---------------------------------------------------------------------------


@pytest.mark.parametrize("last", ["2d", "7d", "8d", "Jd", "Ad", "Kd", "X"])
def test_pe12_nobody_goes_out_on_a_special_card(last: str) -> None:
    """PE12: seat 1's last card fits the Qd but may not end the hand: seat 1 must draw,
    and may then play the card drawn (PE3), keeping the special card."""
    g = stacked(PE, ["3c", last, "3h"], "Qd", "4d", overrides=["hand_size=1"])
    assert legal(g) == ["draw"]
    assert_illegal(g, last if last[0] != "J" else "Jd=d")
    g.apply("draw")
    assert (g.to_play, legal(g)) == (1, ["4d", "4d!", "pass"])
    g.apply("4d!")
    assert not g.over and show(g.hand(1)) == last


def test_pe12_a_plain_last_card_goes_out() -> None:
    g = stacked(PE, ["3c", "4d", "3h"], "Qd", overrides=["hand_size=1"])
    assert legal(g) == ["4d"]
    step = g.apply("4d")
    assert g.over and step.out == 1


def test_pe12_a_special_card_may_go_down_while_another_card_is_left() -> None:
    """PE12 looks at the play that empties the hand: the king goes down as the last but
    one card, and the 4d played again on it (PE7) ends the round."""
    g = stacked(PE, ["3c 5c", "Kd 4d", "3h 5h"], "Qd", overrides=["hand_size=2"])
    assert legal(g) == ["4d", "4d!", "Kd", "Kd!"]
    play(g, "Kd! 4d")
    assert g.over and g.out == 1


def test_pe12_a_king_cannot_be_followed_by_a_special_last_card() -> None:
    """PE7, PE12: after the king, seat 1's last card is an 8, which may not end the hand,
    so seat 1 cannot play again: it draws 1 and the turn ends."""
    g = stacked(PE, ["3c 5c", "Kd 8d", "3h 5h"], "Qd", "Ac", overrides=["hand_size=2"])
    assert legal(g) == ["8d", "8d!", "Kd", "Kd!"]
    g.apply("Kd!")
    assert (g.to_play, g.again, legal(g)) == (1, True, ["draw"])
    step = g.apply("draw")
    assert step.received[1] == tuple(cards("Ac")) and g.to_play == 2


FIVE = "4c 5c 6c 9c Tc"
PENALTY = [*(f"cards.{rank}.going_out=penalty" for rank in ("2", "7", "8", "J", "A", "K", "X")),
           "out_penalty=5"]
"""PE12 Decision: nl.wikipedia's reading, on every special card."""


@pytest.mark.parametrize("last", ["2d", "7d", "8d", "Jd=s", "Ad", "Kd", "X"])
def test_pe12_decision_going_out_on_a_special_card_costs_five(last: str) -> None:
    """PE12 Decision: ``going_out = "penalty"``, ``out_penalty = 5`` (nl.wikipedia): the
    last card goes down, its effect applies, and its player draws 5 and stays in the round."""
    card = last.split("=")[0]
    g = stacked(PE, ["3c", card, "3h"], "Qd", FIVE, overrides=["hand_size=1", *PENALTY])
    assert last in legal(g)
    step = g.apply(last)
    assert not g.over and step.out is None
    assert step.received[1] == tuple(cards(FIVE)) and len(g.hands[1]) == 5
    assert str(g.up_card) == card


def test_pe12_decision_gamefunnel_costs_two() -> None:
    g = stacked(PE, ["3c", "8d", "3h"], "Qd", FIVE,
                overrides=["hand_size=1", *PENALTY, "out_penalty=2"])
    step = g.apply("8d")
    assert step.skipped == 2 and step.received[1] == tuple(cards(FIVE)[:2])
    assert g.to_play == 0


# PE13 ---------------------------------------------------------------------------


def test_pe13_the_first_player_out_wins_the_round_and_the_match() -> None:
    """PE13: no card points: seat 1 scores 1, whatever the others hold."""
    g = stacked(PE, ["Kc 9c", "4d 5d", "3h Jh"], "Qd", "Ks", overrides=["hand_size=2"])
    play(g, "4d! Jh=d! draw 5d")
    assert g.over and g.out == 1
    assert (g.round_points, g.scores, g.round_winners) == ([0, 1, 0], [0, 1, 0], [1])
    assert g.match_over and g.winners == [1]


@pytest.mark.parametrize(("hands", "winners"), [(["Kc", "7d", "Ks"], [1]),
                                                (["7c", "7d", "Ks"], [0, 1])])
def test_pe13_a_blocked_round_is_won_by_the_lowest_hand(hands: list[str],
                                                        winners: list[int]) -> None:
    """PE13: every last card is special (PE12) and nothing is left to draw, so the three
    players pass in turn; the lowest hand value wins, tied players both.

    The stock is emptied by hand: the discard pile turns over whenever the stock runs
    out, so a deal leaves no other way to an empty stock with cards to match."""
    g = stacked(PE, hands, "Qd", overrides=["hand_size=1"])
    g.stock.clear()
    for seat in (1, 2, 0):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert g.round_winners == winners and g.winners == winners
    assert g.round_points == [int(s in winners) for s in range(3)]


def test_pe_preset_fields_are_the_contract() -> None:
    """The preset says what PE1–PE13 say, field by field (the tests above play them)."""
    rules = load_rules(PE)
    assert (rules.title, rules.source) == (
        "Pesten", "the Dutch game (nl.wikipedia, libelle.nl, spelenboek.nl)")
    assert (rules.players, rules.default_players, rules.decks, rules.jokers, rules.hand_size) == (
        (2, 10), 4, ((2, 1), (7, 2)), 2, ((2, 7),))  # PE1
    assert sorted(r.letter for r in rules.starter_redraw) == sorted("278JAKX")  # PE2
    assert (rules.draw.value, rules.voluntary_draw) == ("one-may-play", False)  # PE3
    assert rules.forced_draw_ends_turn is False  # PE5
    assert rules.reverse_two.value == "skip"  # PE10
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # PE11
    assert {r.letter: rule.going_out.value for r, rule in rules.cards.items()} == dict.fromkeys(
        "278JAKX", "no")  # PE12
    assert (rules.scoring.value, rules.target) == ("rounds-won", 1)  # PE13
