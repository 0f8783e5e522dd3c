"""The scoring and calling mechanisms of the family (docs/rules.md, "New mechanisms"):
``scoring = "rounds-won"`` and ``call_out``, on stacked decks; the rules that need each one are named in
the test's docstring. The defaults leave every shipped preset as it was."""

from __future__ import annotations

import random

import pytest

from eights import Game, Rank, Rules, RulesError, load_rules
from eights.bots import make_bot
from eights.engine.rules import Scoring
from eights.engine.schema import rules_schema
from eights.i18n import translator
from eights.i18n.explain import describe, match_goal
from eights.i18n.text import describe_move, match_words
from stacked import cards, deal_order, hands, legal, play, stacked

CL = "classic"
"""8s are wild and name a suit; the player who goes out collects (CL7)."""

SEEDS = ["classic", "crazy-eights", "huit-americain", "huit-fou", "les-huit", "openspiel"]
"""The presets that predate the family (docs/rules.md: "every default keeps the four seeds
and `openspiel` unchanged"); the family's presets set these keys on purpose."""


@pytest.mark.parametrize("name", SEEDS)
def test_the_defaults_leave_every_preset_unchanged(name: str) -> None:
    rules = load_rules(name)
    assert rules.scoring is not Scoring.ROUNDS_WON
    assert not rules.call_out and rules.call_out_penalty == 2


# scoring = "rounds-won" ---------------------------------------------------------


@pytest.mark.parametrize(("target", "over", "winners"), [(1, True, [1]), (2, False, None)])
def test_rounds_won_the_first_player_out_scores_1(target: int, over: bool,
                                                  winners: list[int] | None) -> None:
    """SW11, LC9, PE13: ``scoring = "rounds-won"``: the first player out wins the round and
    scores 1, whatever the cards left; ``target`` is the number of rounds to win."""
    g = stacked(CL, ["3c Kd", "5h 6h"], "9h", "Kc",
                overrides=["hand_size=2", "scoring=rounds-won", f"target={target}"])
    play(g, "5h draw 6h")
    assert g.over and g.out == 1
    assert (g.round_points, g.round_winners, g.scores) == ([0, 1], [1], [0, 1])
    assert (g.match_over, g.winners) == (over, winners)


def test_rounds_won_the_highest_total_wins_the_match() -> None:
    """SW11: ``target = 2`` plays to two rounds won; the second round's winner is ahead."""
    rules = ["hand_size=2", "scoring=rounds-won", "target=2"]
    g = stacked(CL, ["3c Kd", "5h 6h"], "9h", "Kc", overrides=rules)
    play(g, "5h draw 6h")
    g.next_round(deal_order(["5h 6h", "3c Kd"], 1) + cards("9h Kc"))
    assert g.dealer == 1 and g.to_play == 0
    play(g, "5h draw 6h")
    assert (g.round_points, g.scores, g.match_over, g.winners) == ([1, 0], [1, 1], False, None)


def blocked(overrides: list[str]) -> Game:
    """CL6's blocked round (tests/test_rules_cl.py): hand values 86, 54 and 118."""
    g = stacked(CL, [
        "Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc 3s 6s 9s Qs 8h",
        "2d 3d 4d 5d 6d 7d 2h 3h 4h 5h 6h 7h As 4s 7s Ts 8c",
        "Ad 9d Td Jd Qd Kd Ah 9h Th Jh Qh Kh 2s 5s 8s Js 8d",
    ], "Ks", overrides=["hand_size=17", "reshuffle=false", "scoring=rounds-won", *overrides])
    play(g, "As 2s 3s 4s 5s 6s 7s 8s=s 9s Ts Js Qs 8c=s 8d=s 8h=s pass pass pass")
    assert g.over and g.out is None
    return g


@pytest.mark.parametrize(("overrides", "points"), [
    ([], [0, 1, 0]),  # 86, 54, 118: the lowest hand wins the round
    (["points=1"], [1, 1, 1]),  # 12 cards each: tied players all score
])
def test_rounds_won_a_blocked_round_is_won_by_the_lowest_hand(overrides: list[str],
                                                              points: list[int]) -> None:
    """SW11, LC9, PE13: a blocked round is won by the lowest hand value, and tied players
    all score 1 (``blocked_scoring`` does not apply: classic's says collect)."""
    g = blocked(overrides)
    assert g.round_points == points and g.scores == points
    assert g.round_winners == [s for s in range(3) if points[s]]


def test_rounds_won_with_overflow_is_refused() -> None:
    """Overflow cards become penalty points (HF9), which rounds won cannot count."""
    with pytest.raises(RulesError, match="'overflow' cannot be combined with 'scoring'"):
        load_rules("huit-fou", ["scoring=rounds-won"])


def test_rounds_won_in_the_schema() -> None:
    schema = rules_schema()["properties"]["scoring"]
    assert "rounds-won" in schema["enum"] and "SW11" in schema["description"]


def test_rounds_won_in_words() -> None:
    """SW11: the rules say how a round is won and how many rounds win the match, in
    English and in French."""
    rules = load_rules(CL, ["scoring=rounds-won", "target=5"])
    en, fr = translator("en"), translator("fr")
    assert match_goal(rules) == [
        "Scoring: the first player out wins the round and scores 1; the most rounds won "
        "wins the match.", "The match ends when a player has won 5 rounds."]
    assert match_goal(rules, fr)[1] == "La partie s’arrête quand un joueur a gagné 5 manches."
    words = "\n".join(describe(rules))
    assert "A blocked round: the lowest hand value wins the round, and tied players all " \
           "win it" in words
    assert "scores the cards left in the opponents' hands" not in words
    assert "les ex æquo la gagnent tous" in "\n".join(describe(rules, fr))
    assert match_words(rules, en) == "5 rounds to win · highest wins"
    assert match_words(load_rules(CL, ["scoring=rounds-won", "target=1"]), fr) == (
        "1 manche à gagner · le plus grand total gagne")


# call_out ------------------------------------------------------------------------

HA = "huit-americain"
"""J reverses, 7 skips, 2 and A make the next player draw 2, 10 plays again, 8 is wild."""
CALL = ["hand_size=1", "call_out=true"]


@pytest.mark.parametrize(("overrides", "card", "plays"), [
    (CALL, "6h", ["6h", "6h!"]),
    (CALL, "8d", ["8d!", "8d=c", "8d=d", "8d=h", "8d=s"]),
    (["hand_size=1"], "6h", ["6h"]),  # HF11: without call_out the last card just goes out
    (["hand_size=1"], "8d", ["8d"]),
])
def test_call_out_a_last_card_is_called_or_not(overrides: list[str], card: str,
                                               plays: list[str]) -> None:
    """MM9, TS10 (New notation): under ``call_out`` a last card has the called play, which
    names nothing (``8d!``), and the uncalled plays, which name a suit (``8d=c`` … ``8d=s``)
    or are the plain card (``6h``)."""
    g = stacked(HA, ["3c", card], "9h", overrides=overrides)
    assert legal(g) == plays


def test_call_out_the_called_play_goes_out() -> None:
    """MM9: the play of the last card with the call (``8d!``) ends the round."""
    g = stacked(HA, ["3c", "8d"], "9h", overrides=CALL)
    step = g.apply("8d!")
    assert step.round_over and step.out == 1 and step.counts() == (0, 0)
    assert g.round_winners == [1]


@pytest.mark.parametrize(("action", "to_play", "direction", "skipped", "pending", "suit"), [
    ("6h", 2, 1, None, 0, "h"),
    ("7h", 0, 1, 2, 0, "h"),  # HA10: the skip applies
    ("Th", 2, 1, None, 0, "h"),  # HA11: the "play again" lapses
    ("Jh", 0, -1, None, 0, "h"),  # HA9: the reverse applies
    ("2h", 2, 1, None, 2, "h"),  # HA8: the next player has 2 to draw
    ("8d=s", 2, 1, None, 0, "s"),  # HA6: the wild card names a suit
])
def test_call_out_without_the_call(action: str, to_play: int, direction: int,
                                   skipped: int | None, pending: int, suit: str) -> None:
    """MM9, TS10: without the call the card stays played and its effects apply (a card that
    names a suit names one), any "play again" lapses, and the player draws
    ``call_out_penalty`` cards at the end of the turn, before the next player acts; the
    round goes on."""
    g = stacked(HA, ["3c", action[:2], "4d"], "9h", "Kc Qc", overrides=CALL)
    step = g.apply(action)
    assert not step.round_over and step.out is None
    assert step.received == ((), tuple(cards("Kc Qc")), ())
    assert hands(g)[1] == "Qc Kc" and not g.again and g.up_card == cards(action[:2])[0]
    assert (g.to_play, g.direction, step.skipped, g.pending, g.to_json()["suit"]) == (
        to_play, direction, skipped, pending, suit)


def test_call_out_a_missed_call_is_said_as_such() -> None:
    """MM9, TS10: the log says the call was missed (not the HA13 announcement), in both
    languages, and tells the person their own cards."""
    g = stacked(HA, ["3c", "6h"], "9h", "Kc Qc", overrides=CALL)
    step = g.apply("6h")
    names = ["Ana", "Bob", "Cy"]
    assert describe_move(g, names, step, translator("en")).endswith(
        "Bob did not call going out and draws 2 cards")
    assert "Bob a oublié de dire «\u00a0fini\u00a0» et pioche 2 cartes" in describe_move(
        g, names, step, translator("fr"))
    assert describe_move(g, names, step, translator("en"), you=1).endswith(
        "you did not call going out and draw K♣ Q♣")


def test_call_out_penalty() -> None:
    """TS10: ``call_out_penalty = 4``: forgetting the call costs 4 cards."""
    g = stacked(HA, ["3c", "6h"], "9h", "Kc Qc Jc Tc", overrides=[*CALL, "call_out_penalty=4"])
    assert g.apply("6h").counts() == (0, 4)
    assert g.to_play == 0 and not g.over


def test_call_out_with_nothing_to_draw_goes_out_anyway() -> None:
    """MM9, TS10: a player who forgets the call when nothing can be drawn goes out anyway.
    An 8-card deck (9s and 10s), three cards each and no reshuffle: the stock is empty
    once seat 0 has drawn the 9d."""
    rules = Rules(ranks=frozenset({Rank.NINE, Rank.TEN}), hand_size=((2, 3),),
                  reshuffle=False, call_out=True)
    g = stacked(rules, ["Tc Td Ts", "9h 9c Th"], "9s", "9d")
    play(g, "9h draw 9c Tc")
    assert g.stock == [] and legal(g) == ["Th", "Th!"]
    step = g.apply("Th")
    assert step.round_over and step.out == 1 and g.round_winners == [1]


@pytest.mark.parametrize(("override", "message"), [
    ("call_out_penalty=0", "key 'call_out_penalty' has bad value 0; allowed: a whole number "
                           "from 1 to 52"),
    ("call_out=1", "key 'call_out' has bad value 1; allowed: true or false"),
])
def test_call_out_bad_values(override: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules(HA, [override])


def test_call_out_in_the_schema() -> None:
    props = rules_schema()["properties"]
    assert props["call_out"]["type"] == "boolean" and "MM9" in props["call_out"]["description"]
    assert (props["call_out_penalty"]["minimum"], props["call_out_penalty"]["maximum"]) == (1, 52)


def test_call_out_in_words() -> None:
    """MM9: the rules in words say the call and its cost, in English and in French."""
    rules = load_rules(HA, ["call_out=true", "call_out_penalty=4"])
    en = "\n".join(describe(rules))
    fr = "\n".join(describe(rules, translator("fr")))
    assert "must call “out!” (a trailing !, or the announce key) to go out" in en
    assert "draws 4 cards at the end of the turn and stays in the round" in en
    assert "pioche 4 cartes à la fin du tour et reste dans la manche" in fr
    assert "must call" not in "\n".join(describe(load_rules(HA)))


@pytest.mark.parametrize("bot", ["greedy", "expert"])
@pytest.mark.parametrize(("card", "called"), [("6h", "6h!"), ("8d", "8d!")])
def test_call_out_greedy_and_expert_call(bot: str, card: str, called: str) -> None:
    """MM9: the greedy and expert bots always make the going-out call."""
    g = stacked(HA, ["3c", card], "9h", overrides=CALL)
    chosen = make_bot(bot).choose(g.observe(1), g.legal_actions(), random.Random(0))
    assert str(chosen) == called


def test_call_out_every_bot_plays_legally() -> None:
    """MM9, TS10: every bot plays rounds of a table with call_out (and rounds won) to the
    end; the random bot may forget the call, which only costs it cards."""
    rules = load_rules(HA, ["call_out=true", "scoring=rounds-won", "target=1"])
    bots = [make_bot(spec) for spec in ("random", "greedy", "expert", "ismcts:iterations=20")]
    for seed in range(4):
        g = Game(rules, 3, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.over:
            seat = g.to_move
            bot = bots[(seat + seed) % len(bots)]
            g.apply(bot.choose(g.observe(seat), g.legal_actions(), rng))  # raises if illegal
            steps += 1
            assert steps < 5000, "the round did not end"
        assert g.match_over and sum(g.scores) >= 1
