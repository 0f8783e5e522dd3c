"""Preset ``last-card``: rules LC1–LC9 of docs/rules.md, each on a stacked deck, the
multi-card plays (LC3–LC6), the aces that go out only on their suit, the pick-ups served
after the last card, and the house rules its Decisions name (``hand_size``,
``draw = "until-playable"``, ``cards.5.stack_with = ["5", "2"]``, ``cards.J.again = true``,
``announce_penalty = 5``)."""

from __future__ import annotations

import pytest

from eights import Game, RulesError, Suit, load_rules
from stacked import assert_illegal, cards, filled, legal, make_rules, play, show, stacked

LC = "last-card"
POOL = cards("3c 4c 6c 7c 8c 9c Jc Qc Kc 3d 4d 6d 7d 8d 9d Jd Qd Kd")
"""Clubs and diamonds with no effect (no A, 2, 5 or 10)."""


def table(hands: list[str], starter: str = "4h", draws: str = "", *,
          overrides: tuple[str, ...] = ()) -> Game:
    """Seat 0 plays first (the dealer is the last seat) with ``hands[0]``, seat 1 next with
    ``hands[1]`` and so on; a hand ``"-"`` is filled with clubs and diamonds that are in no
    other hand. Every hand has the size of ``hands[0]``."""
    return filled(LC, POOL, hands, starter, draws, overrides=overrides)


# LC1 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 7), (4, 7), (5, 7), (6, 5), (8, 5)])
def test_lc1_seven_cards_each_five_from_six_players_one_deck(players: int, size: int) -> None:
    g = Game(LC, players, seed=players)
    assert [len(h) for h in g.hands] == [size] * players
    assert sum(len(h) for h in g.hands) + len(g.stock) + len(g.discard) == 52
    assert not any(c.rank.letter == "X" for h in g.hands for c in h)


def test_lc1_four_players_by_default() -> None:
    assert Game(LC, seed=1).n == 4


@pytest.mark.parametrize("players", [1, 9])
def test_lc1_two_to_eight_players(players: int) -> None:
    with pytest.raises(RulesError, match="2 to 8"):
        Game(LC, players, seed=0)


def test_lc1_decision_large_groups_read_from_five_players() -> None:
    """LC1 Decision: ``hand_size = [[2, 7], [5, 5]]`` reads "large groups" as five players."""
    rules = make_rules(LC, ["hand_size=[[2, 7], [5, 5]]"])
    assert [rules.hand_size_for(n) for n in (4, 5, 6)] == [7, 5, 5]
    assert [len(h) for h in Game(rules, 5, seed=5).hands] == [5] * 5


# LC2 ----------------------------------------------------------------------------

QUIET = ["3c 4c 6c 7c 8c", "3d 4d 6d 7d 8d", "3h 4h 6h 7h 8h", "3s 4s 6s 7s 8s"]
"""Four hands of five without an ace, a 2, a 5 or a 10."""


@pytest.mark.parametrize("starter", ["2h", "5h", "Th", "Jh", "9h"])
def test_lc2_the_starter_is_never_redrawn_and_has_no_effect(starter: str) -> None:
    g = stacked(LC, QUIET, starter, overrides=["hand_size=5"])
    assert show(g.discard) == starter
    assert (g.to_play, g.pending, g.direction, g.suit) == (1, 0, 1, Suit.HEARTS)
    assert legal(g) == ["draw"]  # seat 1 holds diamonds: nothing to answer, nothing matches


def test_lc2_an_ace_starter_names_no_suit_its_own_suit_is_followed() -> None:
    g = stacked(LC, ["3c 4c 6c 7c 8c", "3d 4d 6d 7d 8d", "3h 4h 6h 7h 8h", "3s 4s 6s 7s 8s"],
                "Ah", dealer=1, overrides=["hand_size=5"])
    assert show(g.discard) == "Ah" and g.suit == Suit.HEARTS
    assert (g.to_play, legal(g)) == (2, ["3h", "4h", "6h", "7h", "8h"])
    assert "draw" not in legal(g)  # LC3: nobody may draw by choice


# LC3 ----------------------------------------------------------------------------


def test_lc3_match_by_suit_or_rank_several_cards_of_one_rank_together() -> None:
    g = table(["7c 7h 7s 3d", "-", "-"])
    assert legal(g) == ["7c+7h+7s", "7c+7h+7s!", "7h", "7h+7c", "7h+7s", "7h+7s+7c",
                        "7h+7s+7c!"]
    for illegal in ("7c", "7s", "7c+7s+7h", "7s+7c", "draw"):
        assert_illegal(g, illegal)
    g.apply("7s+7h+7c!")
    assert (str(g.history[-1][1]), show(g.discard), g.suit) == (
        "7h+7s+7c!", "4h 7h 7s 7c", Suit.CLUBS)


def test_lc3_a_player_who_cannot_play_draws_one_and_the_turn_ends() -> None:
    g = table(["9c 9d 3c", "-", "-"], draws="4s")
    assert legal(g) == ["draw"]
    g.apply("draw")  # the 4s would fit on the 4h: the turn ends all the same
    assert (g.to_play, show(g.hand(0))) == (1, "3c 9c 9d 4s")


def test_lc3_decision_draw_until_playable() -> None:
    """LC3 Decision: ``draw = "until-playable"`` (the source's "draw to match" option)."""
    g = table(["9c 9d 3c", "-", "-"], draws="Qs 3s 4s", overrides=("draw=until-playable",))
    g.apply("draw")
    assert (g.to_play, show(g.hand(0)), legal(g)) == (0, "3c 9c 9d 3s 4s Qs", ["4s"])
    g.apply("4s")
    assert g.to_play == 1


# LC4 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "count"), [("2", 2), ("5", 5)])
def test_lc4_a_two_or_a_five_makes_the_next_player_pick_up(rank: str, count: int) -> None:
    g = table([f"{rank}h 9c 3c", "Ah 7h Jh", "-"])
    g.apply(f"{rank}h")
    assert (g.to_play, g.pending, legal(g)) == (1, count, ["draw"])
    assert_illegal(g, "Ah=h")
    g.apply("draw")
    assert (len(g.hands[1]), g.to_play) == (3 + count, 2)


@pytest.mark.parametrize(("rank", "other"), [("2", "5"), ("5", "2")])
def test_lc4_twos_answer_twos_fives_answer_fives_adding_up(rank: str, other: str) -> None:
    first = int(rank)
    g = table([f"{rank}h 9c 3c 4c", f"{rank}c {rank}s {other}h 6h", "-"])
    g.apply(f"{rank}h")
    assert legal(g) == sorted([f"{rank}c", f"{rank}c+{rank}s", f"{rank}s", f"{rank}s+{rank}c",
                               "draw"])
    assert_illegal(g, f"{other}h")  # LC4 Decision: a 2 does not answer a 5, nor a 5 a 2
    g.apply(f"{rank}c+{rank}s")
    assert (g.to_play, g.pending) == (2, 3 * first)


def test_lc4_decision_a_two_on_a_five() -> None:
    """LC4 Decision: ``cards.5.stack_with = ["5", "2"]``: a 2 answers a 5, adding 2; then
    the answers are those of the 2 on top (2s only)."""
    toggle = ('cards.5.stack_with=["5", "2"]',)
    g = table(["5h 9c 3c", "2h 6c 7c", "5c 9d 3d", "-"], overrides=toggle)
    g.apply("5h")
    assert legal(g) == ["2h", "draw"]
    g.apply("2h")
    assert (g.to_play, g.pending, legal(g)) == (2, 7, ["draw"])  # no 5 on the 2
    plain = table(["5h 9c 3c", "2h 6c 7c", "-"])
    plain.apply("5h")
    assert legal(plain) == ["draw"]


# LC5 ----------------------------------------------------------------------------


def test_lc5_a_ten_makes_the_next_player_miss_a_turn() -> None:
    g = table(["Th 9c 3c", "-", "-", "-"])
    step = g.apply("Th")
    assert (step.skipped, g.to_play) == (1, 2)


@pytest.mark.parametrize(("players", "after"), [(2, 0), (3, 0), (4, 3)])
def test_lc5_k_tens_skip_k_players(players: int, after: int) -> None:
    g = table(["Th Ts 9c", *["-"] * (players - 1)])
    g.apply("Th+Ts")
    assert g.to_play == after


def test_lc5_jacks_are_plain_cards() -> None:
    g = table(["Jh 9c 3c", "-", "-"])
    step = g.apply("Jh")
    assert (step.skipped, step.reversed, g.again, g.to_play, g.pending) == (
        None, False, False, 1, 0)


def test_lc5_decision_a_jack_has_another_turn() -> None:
    """LC5 Decision: ``cards.J.again = true`` (the variation "jack: have another turn")."""
    g = table(["Jh Jc 3h 9s", "-", "-"], overrides=("cards.J.again=true",))
    g.apply("Jh")
    assert (g.to_play, g.again, legal(g)) == (0, True, ["3h", "Jc"])
    play(g, "Jc")  # another jack: another turn, now on clubs
    assert (g.to_play, g.again, legal(g)) == (0, True, ["draw"])
    g.apply("draw")  # again_penalty = 0: the turn ends with no card drawn
    assert (g.to_play, show(g.hand(0))) == (1, "3h 9s")


def test_lc5_decision_a_jack_has_another_turn_drawing_one_if_it_cannot_play() -> None:
    """With ``again_penalty = 1`` beside ``cards.J.again = true``, a player who cannot use
    the jack's extra turn draws one card, as LC3 has a player who cannot play do."""
    g = table(["Jh 9s 3c", "-", "-"], draws="Ks",
              overrides=("cards.J.again=true", "cards.J.again_penalty=1"))
    play(g, "Jh draw")
    assert (g.to_play, show(g.hand(0))) == (1, "3c 9s Ks")


# LC6 ----------------------------------------------------------------------------


def test_lc6_an_ace_is_wild_and_names_a_suit() -> None:
    g = table(["As 9c 3c", "6s 7h 3d", "-"])
    assert legal(g) == [f"As={s}" for s in "cdhs"]
    g.apply("As=s")
    assert (g.suit, g.to_play, legal(g)) == (Suit.SPADES, 1, ["6s"])


def test_lc6_a_lone_ace_of_the_suit_to_follow_goes_out() -> None:
    g = table(["Ah", "-", "-"])
    assert legal(g) == ["Ah"]  # going out names no suit
    g.apply("Ah")
    assert (g.over, g.out) == (True, 0)


def test_lc6_ah_plus_as_may_not_go_out_on_hearts() -> None:
    g = table(["Ah As", "-", "-"])
    assert legal(g) == sorted(["As+Ah", *[f"Ah={s}!" for s in "cdhs"],
                               *[f"Ah={s}" for s in "cdhs"], *[f"As={s}!" for s in "cdhs"],
                               *[f"As={s}" for s in "cdhs"]])
    assert_illegal(g, "Ah+As")
    g.apply("As+Ah")
    assert (g.over, g.out, show(g.discard)) == (True, 0, "4h As Ah")


def test_lc6_a_lone_ace_of_another_suit_cannot_go_out() -> None:
    g = table(["As", "-", "-"])
    assert legal(g) == ["draw"]
    for illegal in ("As", "As=h"):
        assert_illegal(g, illegal)


@pytest.mark.parametrize(("named", "last"), [("h", ["Ah"]), ("c", ["draw"])])
def test_lc6_the_suit_to_follow_is_the_suit_a_wild_named(named: str, last: list[str]) -> None:
    """Seat 0 names a suit with the Ac and keeps the Ah: it goes out on hearts named on the
    Ac, not on the Ac's own clubs."""
    g = stacked(LC, ["3d Ac Ah", "6d 7d 8d"], "4d", "9s Ks", dealer=1,
                overrides=["hand_size=3"])
    play(g, f"3d 6d Ac={named}! draw")
    assert (g.to_play, str(g.up_card), g.suit, legal(g)) == (0, "Ac", Suit.parse(named), last)


def test_lc6_aces_in_the_middle_of_a_hand_go_down_in_any_suit() -> None:
    g = table(["As 9c 3c", "-", "-"])
    assert "As=d" in legal(g)


# LC7 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("overrides", "penalty"), [((), 2), (("announce_penalty=5",), 5)])
def test_lc7_a_play_leaving_one_card_must_announce_it(overrides: tuple[str, ...],
                                                      penalty: int) -> None:
    """LC7, and its Decision ``announce_penalty = 5`` (the older text)."""
    g = table(["7h 9c", "-", "-"], draws="3s 4s 6s 7s 8s", overrides=overrides)
    assert legal(g) == ["7h", "7h!"]
    g.apply("7h")
    assert (g.to_play, len(g.hands[0])) == (1, 1 + penalty)
    g2 = table(["7h 9c", "-", "-"], overrides=overrides)
    g2.apply("7h!")
    assert (g2.to_play, show(g2.hand(0))) == (1, "9c")


# LC8 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "action", "served"), [
    ("2h", "2h", 2), ("5h", "5h", 5), ("2h 2s", "2h+2s", 4), ("5h 5s", "5h+5s", 10),
])
def test_lc8_a_pick_up_played_as_the_last_card_is_still_served(hand: str, action: str,
                                                               served: int) -> None:
    g = table([hand, "-", "-"])
    size = len(hand.split())
    g.apply(action)
    assert (g.over, g.out, g.pending) == (True, 0, 0)
    assert [len(h) for h in g.hands] == [0, size + served, size]


def test_lc8_a_last_card_answering_a_pick_up_serves_the_whole_run() -> None:
    """Seat 0 plays a 5 while seat 1 holds one card, a 5: it answers and goes out, and
    seat 2 takes the whole run of 10."""
    g = stacked(LC, ["5s 9c", "6h 5c", "6s 3d"], "4h", "Kc", dealer=2,
                overrides=["hand_size=2"])
    play(g, "draw 6h! 6s! 5s")
    assert (g.to_play, g.pending, legal(g)) == (1, 5, ["5c", "draw"])
    g.apply("5c")
    assert (g.over, g.out, g.pending) == (True, 1, 0)
    assert [len(h) for h in g.hands] == [2, 0, 1 + 10]
    assert (g.round_winners, g.scores) == ([1], [0, 1, 0])


def test_lc8_a_ten_as_the_last_card_has_no_effect() -> None:
    g = table(["Th", "-", "-"])
    g.apply("Th")
    assert (g.over, g.out) == (True, 0)


# LC9 ----------------------------------------------------------------------------


def test_lc9_the_first_player_out_wins_the_round_and_the_match() -> None:
    g = table(["7h", "-", "-"])
    g.apply("7h")
    assert (g.round_points, g.scores, g.round_winners, g.match_over, g.winners) == (
        [1, 0, 0], [1, 0, 0], [0], True, [0])


BLOCKED_HANDS = [
    "5s 9s 2s Js Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    "3s 6s Ts 8s Ad 2c 3c 4c 5c 6c 7c 2d 3d 4d 5d 6d 7d",
    "4s 7s Qs Ac As 8c 9c Tc Jc Qc Kc 8d 9d Td Jd Qd Kd",
]
"""Three hands of 17 under the starter Ks leave the stock empty from the deal."""


def test_lc9_a_blocked_round_is_won_by_the_lowest_hand() -> None:
    """Every spade and every ace goes down (the 2s and 5s draw nothing from an empty stock,
    the Ts skips seat 1), the last ace names spades, and nobody can follow. With
    ``reshuffle = true`` the stock is empty only when every card but the up-card is in the
    hands, so a blocked round needs ``reshuffle = false`` to be reached."""
    g = stacked(LC, BLOCKED_HANDS, "Ks", overrides=["hand_size=17", "reshuffle=false"])
    play(g, "3s 4s 5s 6s 7s 9s Ts 2s 8s Qs Js Ad=s Ac=s Ah=s pass As=s")
    for seat in (0, 1, 2):
        assert (g.to_play, legal(g)) == (seat, ["pass"])
        g.apply("pass")
    assert g.over and g.out is None
    assert [g.hand_value(s) for s in range(3)] == [84, 54, 114]
    assert (g.round_winners, g.round_points, g.winners) == ([1], [0, 1, 0], [1])


def test_lc_preset_fields_are_the_contract() -> None:
    rules = load_rules(LC)
    assert (rules.title, rules.source) == ("Last Card", "the New Zealand game (en.wikipedia)")
    assert (rules.players, rules.default_players, rules.decks, rules.jokers, rules.hand_size) == (
        (2, 8), 4, ((2, 1),), 0, ((2, 7), (6, 5)))  # LC1
    assert (rules.starter_redraw, rules.starter_effects) == (frozenset(), False)  # LC2
    assert (rules.multi_play.value, rules.draw.value, rules.voluntary_draw) == (
        "same-rank", "one-end", False)  # LC3
    assert (rules.announce_last_card, rules.announce_penalty) == (True, 2)  # LC7
    assert rules.serve_last_draw is True  # LC8
    assert (rules.scoring.value, rules.target) == ("rounds-won", 1)  # LC9
    assert sorted(r.letter for r in rules.cards) == ["2", "5", "A", "T"]
