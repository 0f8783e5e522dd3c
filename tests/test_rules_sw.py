"""Preset ``switch``: rules SW1–SW11 of docs/rules.md, each on a stacked deck, the
multi-card plays of SW3 and SW5–SW8, and the house rules its Decisions name
(``reverse_two = "none"``, ``going_out = "no"`` on 2, 8 and J, ``target = 5``)."""

from __future__ import annotations

import pytest

from eights import Action, Card, Game, RecordError, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, deal_order, legal, make_rules, play, show, stacked

SW = "switch"
QUIET = ["3c 4c 5c 6c 7c 9c Tc", "3d 4d 5d 6d 7d 9d Td", "3h 4h 5h 6h 7h 9h Th",
         "3s 4s 5s 6s 7s 9s Ts"]
"""Four hands of seven with no trick card (A, 2, 8, J)."""
FILLER = cards("3c 4c 5c 6c 7c 9c Tc Qc Kc 3d 4d 5d 6d 7d 9d Td Qd Kd")
"""Clubs and diamonds without a trick card: nothing among them follows a heart or a spade."""


def aces(play_text: str) -> list[str]:
    """The four ways to play an ace (or several), naming each suit."""
    return [f"{play_text}={s}" for s in "cdhs"]


def table(first: str, players: int, size: int = 3) -> Game:
    """``players`` seats on the starter 5h, seat 0 to play first (the dealer is the last
    seat) with ``first``; the other seats hold clubs and diamonds that are not in it."""
    pool = [c for c in FILLER if c not in cards(first)]
    others = [show(pool[i * size:(i + 1) * size]) for i in range(players - 1)]
    return stacked(SW, [first, *others], "5h", dealer=players - 1,
                   overrides=[f"hand_size={size}"])


# SW1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "total"), [(2, 52), (4, 52), (5, 52), (6, 104), (10, 104)])
def test_sw1_seven_cards_each_and_decks_by_player_count(players: int, total: int) -> None:
    g = Game(SW, players, seed=players)
    assert [len(h) for h in g.hands] == [7] * players
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == total


def test_sw1_four_players_by_default() -> None:
    assert Game(SW, seed=1).n == 4


def test_sw1_second_deck_from_six_players() -> None:
    a, b, c = QUIET[:3]
    g = stacked(SW, [a, a, b, b, c, c], "Ks")
    assert show(g.hand(0)) == show(g.hand(1)) == a
    with pytest.raises(RecordError):  # five players: one deck, no second 3c
        stacked(SW, [a, a, b, b, c], "Ks")


@pytest.mark.parametrize("players", [1, 11])
def test_sw1_two_to_ten_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 10"):
        Game(SW, players, seed=0)


# SW2 ----------------------------------------------------------------------------


def test_sw2_a_trick_card_starter_goes_back_and_the_next_is_turned() -> None:
    g = stacked(SW, QUIET, "Ah 2c 8d Js Kc")
    assert show(g.discard) == "Kc"
    assert all(c in g.stock for c in cards("Ah 2c 8d Js")) and len(g.stock) == 52 - 28 - 1
    assert (g.to_play, g.suit, g.pending, g.direction) == (1, Suit.CLUBS, 0, 1)


@pytest.mark.parametrize("starter", ["Kh", "Qh", "Ks", "Qd"])
def test_sw2_only_the_trick_cards_go_back(starter: str) -> None:
    g = stacked(SW, QUIET, f"{starter} 5c")
    assert show(g.discard) == starter and g.to_play == 1


# SW3 ----------------------------------------------------------------------------


def test_sw3_match_by_suit_or_rank() -> None:
    g = stacked(SW, ["9c Kd 3h 6s", "Kc 7d 7s 3c", "9s Qc 4d 6c"], "9d", dealer=2,
                overrides=["hand_size=4"])
    assert (g.to_play, legal(g)) == (0, ["9c", "Kd", "draw"])
    assert_illegal(g, "3h")
    g.apply("9c")  # by rank
    assert (g.to_play, legal(g)) == (1, ["3c", "Kc", "draw"])
    g.apply("Kc")  # by suit
    assert (g.to_play, legal(g)) == (2, ["6c", "Qc", "draw"])


def test_sw3_several_cards_of_one_rank_one_under_the_top_playable() -> None:
    """On a 5h, the 7h may go down first: every play with the 7h under the top card is
    legal, the 7h alone too; a play whose cards under the top are the 7c and 7s is not."""
    g = table("7c 7h 7s 3d", 4, size=4)
    assert legal(g) == ["7c+7h+7s", "7c+7h+7s!", "7h", "7h+7c", "7h+7s", "7h+7s+7c",
                        "7h+7s+7c!", "draw"]
    for illegal in ("7c", "7s", "7c+7h", "7s+7h", "7c+7s+7h", "7c+7s"):
        assert_illegal(g, illegal)  # SW3: a single card must be playable itself
    g.apply("7h+7c+7s!")  # laid in any order: it is 7c+7h+7s
    assert str(g.history[-1][1]) == "7c+7h+7s!"
    assert show(g.discard) == "5h 7c 7h 7s"  # the top card last: the new up-card
    assert (g.up_card, g.suit, g.to_play, show(g.hand(0))) == (cards("7s")[0], Suit.SPADES, 1,
                                                                "3d")


def test_sw3_the_cards_under_the_top_are_written_in_card_order() -> None:
    """New notation: the other cards in card order (clubs, diamonds, hearts, spades), a
    second copy repeated, the top card last; the parser takes them in any order."""
    assert str(Action.parse("7s+7h+7c")) == "7h+7s+7c"
    assert str(Action.parse("7h+7c+7s")) == "7c+7h+7s"
    assert Action.parse("7H+7C+7S") is Action.parse("7c+7h+7s")
    assert str(Action.parse("7s+7h+7h")) == "7h+7s+7h"
    assert str(Action.parse("As+Ah=d!")) == "As+Ah=d!"
    assert [str(c) for c in Action.parse("7s+7c+7h").cards] == ["7c", "7s", "7h"]


def test_sw3_two_copies_of_a_card_with_two_decks() -> None:
    a, b, c, d, e = "7h 7h 7s 3d", "3c 4c 5c 6c", "9c Tc Qc Kc", "3s 4s 5s 6s", "9d Td Qd Kd"
    g = stacked(SW, [a, b, c, d, e, b], "5h", dealer=5, overrides=["hand_size=4"])
    assert legal(g) == ["7h", "7h+7h", "7h+7h+7s", "7h+7h+7s!", "7h+7s", "7h+7s+7h",
                        "7h+7s+7h!", "draw"]
    g.apply("7h+7h+7s!")
    assert show(g.discard) == "5h 7h 7h 7s" and show(g.hand(0)) == "3d"


@pytest.mark.parametrize("illegal", [
    "7h+8h",  # two ranks
    "7h+7d",  # a card not in the hand
    "7h+7h",  # one 7h only
    "7s+7c",  # nothing under the top card plays on the 5h
    "3d+3d",  # cards not in the hand
])
def test_sw3_illegal_multi_plays_change_nothing(illegal: str) -> None:
    g = table("7c 7h 7s 8h", 4, size=4)
    assert_illegal(g, illegal)


def test_sw3_the_effects_add_up() -> None:
    """A play of two 2s makes 4 (SW5; two 8s: SW6, two jacks: SW7)."""
    g = table("2h 2s 9d", 4)
    g.apply("2h+2s")
    assert (g.to_play, g.pending) == (1, 4)
    g.apply("draw")
    assert (len(g.hands[1]), g.to_play) == (3 + 4, 2)


# SW4 ----------------------------------------------------------------------------


def test_sw4_an_unplayable_drawn_card_ends_the_turn() -> None:
    g = stacked(SW, ["9c 9d 3c", "3d 4d 5d", "6c 9s Tc"], "5h", "Kd", dealer=2,
                overrides=["hand_size=3"])
    assert legal(g) == ["draw"]
    g.apply("draw")
    assert (g.to_play, show(g.hand(0))) == (1, "3c 9c 9d Kd")


def test_sw4_a_playable_drawn_card_may_go_down_at_once_alone() -> None:
    """After a draw only the drawn card may be played, and alone: not with the 7s in hand."""
    g = stacked(SW, ["7s 9c 3d", "3c 4c 5c", "6c 9s Tc"], "5h", "7h", dealer=2,
                overrides=["hand_size=3"])
    g.apply("draw")
    assert (g.to_play, legal(g)) == (0, ["7h", "pass"])
    for illegal in ("7h+7s", "7s+7h", "7s", "draw"):
        assert_illegal(g, illegal)
    g.apply("7h")
    assert (g.to_play, show(g.hand(0))) == (1, "9c 3d 7s")


def test_sw4_pass_keeps_the_drawn_card() -> None:
    g = stacked(SW, ["7s 9c 3d", "3c 4c 5c", "6c 9s Tc"], "5h", "7h", dealer=2,
                overrides=["hand_size=3"])
    play(g, "draw pass")
    assert (g.to_play, show(g.hand(0)), show(g.discard)) == (1, "9c 3d 7h 7s", "5h")


def test_sw4_a_player_who_can_play_may_draw_instead() -> None:
    g = table("5s 9c 3d", 3)
    assert legal(g) == ["5s", "draw"]
    g.apply("draw")
    assert len(g.hands[0]) == 4


# SW5 ----------------------------------------------------------------------------


def test_sw5_a_two_makes_the_next_player_pick_up_two_and_lose_the_turn() -> None:
    g = stacked(SW, ["2h 3d 4d", "Ah 8h Jh", "3c 4c 5c"], "5h", dealer=2,
                overrides=["hand_size=3"])
    g.apply("2h")
    assert (g.to_play, g.pending, legal(g)) == (1, 2, ["draw"])  # only 2s answer
    for illegal in ("Ah=h", "8h", "Jh"):
        assert_illegal(g, illegal)
    g.apply("draw")
    assert (len(g.hands[1]), g.to_play, g.pending) == (5, 2, 0)


def test_sw5_twos_answer_each_adding_two_and_two_twos_on_a_two_make_six() -> None:
    g = stacked(SW, ["2c 3d 4d", "2h 2s 9d", "3c 4c 5c"], "Kc", dealer=2,
                overrides=["hand_size=3"])
    g.apply("2c")
    assert legal(g) == ["2h", "2h+2s", "2h+2s!", "2s", "2s+2h", "2s+2h!", "draw"]
    g.apply("2h+2s")
    assert (g.to_play, g.pending, str(g.up_card)) == (2, 6, "2s")
    g.apply("draw")
    assert (len(g.hands[2]), g.to_play, g.pending) == (3 + 6, 0, 0)


def test_sw5_a_single_two_answers_and_passes_the_draw_on() -> None:
    g = stacked(SW, ["2c 3d 4d", "2h 2s 9d", "3c 4c 5c"], "Kc", dealer=2,
                overrides=["hand_size=3"])
    play(g, "2c 2s")
    assert (g.to_play, g.pending) == (2, 4)


# SW6 ----------------------------------------------------------------------------


def test_sw6_an_eight_makes_the_next_player_lose_their_turn() -> None:
    g = table("8h 9d 3d", 4)
    step = g.apply("8h")
    assert (step.skipped, g.to_play) == (1, 2)


@pytest.mark.parametrize(("players", "after"), [(2, 0), (3, 0), (4, 3)])
def test_sw6_two_eights_skip_two_players_never_the_one_who_played_them(players: int,
                                                                        after: int) -> None:
    """With 4 players ``8h+8s`` from seat 0 gives the turn to seat 3; with 2 or 3 players,
    back to seat 0."""
    g = table("8h 8s 9d", players)
    assert "8h+8s" in legal(g) and "8s+8h" not in legal(g)  # the 8s does not fit on the 5h
    g.apply("8h+8s")
    assert (g.to_play, g.direction, show(g.discard)) == (after, 1, "5h 8h 8s")


@pytest.mark.parametrize(("players", "after"), [(4, 0), (5, 4)])
def test_sw6_three_eights_skip_three_players_at_most_all_the_others(players: int,
                                                                    after: int) -> None:
    g = table("8c 8h 8s 9d", players, size=4)
    g.apply("8c+8h+8s")
    assert g.to_play == after


# SW7 ----------------------------------------------------------------------------


def test_sw7_a_jack_reverses_the_direction() -> None:
    g = table("Jh 9d 3d", 4)
    step = g.apply("Jh")
    assert (step.reversed, g.direction, g.to_play) == (True, -1, 3)


@pytest.mark.parametrize(("play_text", "direction", "after"), [
    ("Jh+Js", 1, 1), ("Jc+Jh+Js", -1, 3), ("Jc+Jd+Jh+Js", 1, 1),
])
def test_sw7_k_jacks_reverse_k_times(play_text: str, direction: int, after: int) -> None:
    g = table("Jc Jd Jh Js 9d", 4, size=5)
    g.apply(play_text)
    assert (g.direction, g.to_play) == (direction, after)


@pytest.mark.parametrize("play_text", ["Jh", "Jh+Js"])
def test_sw7_with_two_players_a_jack_acts_as_an_eight(play_text: str) -> None:
    g = table("Jh Js 9d", 2)
    step = g.apply(play_text)
    assert (g.to_play, g.direction, step.skipped, step.reversed) == (0, 1, 1, False)


def test_sw7_decision_reverse_two_none() -> None:
    """SW7 Decision: ``reverse_two = "none"``: with two players a jack does nothing."""
    g = stacked(SW, ["Jh Js 9d", "3c 4c 5c"], "5h", dealer=1,
                overrides=["hand_size=3", "reverse_two=none"])
    step = g.apply("Jh")
    assert (g.to_play, g.direction, step.skipped, step.reversed) == (1, 1, None, False)
    g3 = stacked(SW, ["Jh Js 9d", "3c 4c 5c", "3d 4d 5d"], "5h", dealer=2,
                 overrides=["hand_size=3", "reverse_two=none"])
    g3.apply("Jh")  # three players: still a reverse
    assert (g3.to_play, g3.direction) == (2, -1)


# SW8 ----------------------------------------------------------------------------


def test_sw8_an_ace_is_wild_and_names_a_suit() -> None:
    g = stacked(SW, ["Ac 9d 3d", "4d 3s 5s", "3c 4c 5c"], "Kh", dealer=2,
                overrides=["hand_size=3"])
    assert legal(g) == [*aces("Ac"), "draw"]
    g.apply("Ac=s")
    assert (g.to_play, g.suit, legal(g)) == (1, Suit.SPADES, ["3s", "5s", "draw"])


def test_sw8_several_aces_name_one_suit_after_the_top_card() -> None:
    g = stacked(SW, ["Ah As 9c 3c", "Kd 4d 3s 5s", "3h 4c 5c 6c"], "5h", dealer=2,
                overrides=["hand_size=4"])
    assert legal(g) == sorted([*aces("Ah"), *aces("As"), *aces("Ah+As"), *aces("As+Ah"), "draw"])
    g.apply("Ah+As=d")
    assert (str(g.history[-1][1]), show(g.discard), g.suit) == ("Ah+As=d", "5h Ah As",
                                                               Suit.DIAMONDS)
    assert str(g.up_card) == "As" and g.to_play == 1
    assert legal(g) == ["4d", "Kd", "draw"]  # diamonds, or an ace: not the spades
    assert str(Action.parse("As+Ac+Ah=d!")) == "Ac+As+Ah=d!"


def test_sw8_an_ace_does_not_answer_a_pick_up() -> None:
    g = stacked(SW, ["2h 3d 4d", "Ah As 9d", "3c 4c 5c"], "5h", dealer=2,
                overrides=["hand_size=3"])
    g.apply("2h")
    assert legal(g) == ["draw"]
    for illegal in ("Ah=h", "Ah+As=h"):
        assert_illegal(g, illegal)


# SW9 ----------------------------------------------------------------------------


def test_sw9_a_play_leaving_one_card_must_announce_it() -> None:
    g = stacked(SW, ["7h 9d", "3c 4c", "6c 9c"], "5h", "Kc Qc", dealer=2,
                overrides=["hand_size=2"])
    assert legal(g) == ["7h", "7h!", "draw"]
    g.apply("7h")  # not announced: 2 cards at the end of the turn
    assert (g.to_play, show(g.hand(0))) == (1, "Qc Kc 9d")
    g2 = stacked(SW, ["7h 9d", "3c 4c", "6c 9c"], "5h", dealer=2, overrides=["hand_size=2"])
    g2.apply("7h!")
    assert (g2.to_play, show(g2.hand(0))) == (1, "9d")


def test_sw9_a_multi_play_counts_the_cards_left_after_the_whole_play() -> None:
    g = table("7h 7s 9d", 4)
    assert "7h+7s!" in legal(g) and "7h!" not in legal(g)
    assert_illegal(g, "7h!")
    g.apply("7h+7s")  # leaves one card, unannounced: 2 cards
    assert len(g.hands[0]) == 1 + 2 and g.to_play == 1


# SW10 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("last", "action"), [
    ("2h", "2h"), ("8h", "8h"), ("Jh", "Jh"), ("Ah", "Ah"), ("7h", "7h"),
])
def test_sw10_any_card_may_be_the_last_one(last: str, action: str) -> None:
    g = table(last, 4, size=1)
    assert legal(g) == [action, "draw"]  # the ace going out names no suit
    step = g.apply(action)
    assert (g.over, g.out, step.out) == (True, 0, 0)
    assert g.pending == 0  # HF11: the effect of the last card does not apply


@pytest.mark.parametrize("last", ["2h 2s", "8h 8s", "Jh Js", "Ah As"])
def test_sw10_a_multi_play_may_empty_the_hand(last: str) -> None:
    g = table(last, 4, size=2)
    a, b = last.split()
    g.apply(f"{a}+{b}")
    assert (g.over, g.out) == (True, 0)


@pytest.mark.parametrize("last", ["2h", "8h", "Jh"])
def test_sw10_decision_no_finishing_on_a_two_eight_or_jack(last: str) -> None:
    """SW10 Decision: ``going_out = "no"`` on 2, 8 and J (the listed variation)."""
    toggles = ["cards.2.going_out=no", "cards.8.going_out=no", "cards.J.going_out=no"]
    g = stacked(SW, [last, "3c", "4c"], "5h", dealer=2, overrides=["hand_size=1", *toggles])
    assert legal(g) == ["draw"]
    assert_illegal(g, last)
    pair = stacked(SW, [f"{last} {last[0]}s", "3c 4c", "4d 5d"], "5h", dealer=2,
                   overrides=["hand_size=2", *toggles])
    assert legal(pair) == [last, f"{last}!", "draw"]  # one alone; not both
    assert_illegal(pair, f"{last}+{last[0]}s")
    ace = stacked(SW, ["Ah", "3c", "4c"], "5h", dealer=2, overrides=["hand_size=1", *toggles])
    ace.apply("Ah")  # other cards may still end the hand
    assert ace.over and ace.out == 0


# SW11 ---------------------------------------------------------------------------


def test_sw11_the_first_player_out_wins_the_round_and_the_match() -> None:
    g = table("7h", 4, size=1)
    g.apply("7h")
    assert (g.round_points, g.scores, g.round_winners) == ([1, 0, 0, 0], [1, 0, 0, 0], [0])
    assert g.match_over and g.winners == [0]


def one_card_deal(dealer: int) -> list[Card]:
    """Two players with one card each: the first to play (left of the dealer) goes out."""
    hands = ["Qd", "Qd"]
    hands[(dealer + 1) % 2] = "5c"
    return [*deal_order(hands, dealer), *cards("9c")]


@pytest.mark.parametrize(("target", "rounds"), [(1, 1), (5, 9)])
def test_sw11_decision_target_five_plays_to_five_rounds_won(target: int, rounds: int) -> None:
    """SW11: ``target = 5`` plays to five rounds won; the first to play goes out each round,
    so the two seats take turns winning (5 to 4 after nine rounds)."""
    rules = make_rules(SW, ["hand_size=1"] + ([] if target == 1 else [f"target={target}"]))
    g = Game(rules, 2, seed=0, dealer=0, deck=one_card_deal(0))
    for r in range(1, rounds + 1):
        assert not g.match_over
        first = g.to_play
        g.apply("5c")
        assert g.round_winners == [first] and g.round_points == [int(s == first) for s in (0, 1)]
        if r < rounds:
            g.next_round(one_card_deal(g.dealer + 1))
    assert g.match_over and sorted(g.scores) == [rounds - target, target]
    assert g.winners == [g.scores.index(target)]


BLOCKED_HANDS = [
    "5s 9s 2s Js Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    "3s 6s Ts 8s Ad 2c 3c 4c 5c 6c 7c 2d 3d 4d 5d 6d 7d",
    "4s 7s Qs Ac As 8c 9c Tc Jc Qc Kc 8d 9d Td Jd Qd Kd",
]
"""Three hands of 17 under the starter Ks leave the stock empty from the deal."""
BLOCKED_PLAYS = "3s 4s 5s 6s 7s 9s Ts Qs 2s 8s Js Ac=s Ad=s Ah=s As=s"
"""Every spade and every ace goes down (the 2s draws nothing from an empty stock, the 8s
skips seat 2, the Js reverses); the last ace names spades, and nobody can follow."""


def test_sw11_a_blocked_round_is_won_by_the_lowest_hand() -> None:
    """With ``reshuffle = true`` the stock is empty only when every card but the up-card is
    in the hands, so a blocked round needs ``reshuffle = false`` to be reached."""
    g = stacked(SW, BLOCKED_HANDS, "Ks", overrides=["hand_size=17", "reshuffle=false"])
    assert g.stock == []
    play(g, BLOCKED_PLAYS)
    for seat in (1, 0, 2):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert [g.hand_value(s) for s in range(3)] == [84, 54, 114]
    assert (g.round_winners, g.round_points, g.match_over, g.winners) == ([1], [0, 1, 0], True,
                                                                          [1])


def test_sw_preset_fields_are_the_contract() -> None:
    """The preset says what SW1–SW11 say, field by field (the tests above play them)."""
    rules = load_rules(SW)
    assert (rules.title, rules.source) == ("Switch", "the British game (en.wikipedia, hobbylark)")
    assert (rules.players, rules.default_players, rules.decks, rules.hand_size) == (
        (2, 10), 4, ((2, 1), (6, 2)), ((2, 7),))  # SW1
    assert sorted(r.letter for r in rules.starter_redraw) == ["2", "8", "A", "J"]  # SW2
    assert rules.starter_effects is False
    assert (rules.multi_play.value, rules.draw.value, rules.voluntary_draw) == (
        "same-rank", "one-may-play", True)  # SW3, SW4
    assert rules.reverse_two.value == "skip"  # SW7
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # SW9
    assert (rules.scoring.value, rules.target) == ("rounds-won", 1)  # SW11
    assert sorted(r.letter for r in rules.cards) == ["2", "8", "A", "J"]
    assert not rules.card_tables
