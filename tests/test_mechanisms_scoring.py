"""The scoring and calling mechanisms of the family (docs/rules.md, "New mechanisms"):
``scoring = "rounds-won"``, on stacked decks; the rules that need each one are named in
the test's docstring. The defaults leave every shipped preset as it was."""

from __future__ import annotations

import pytest

from eights import Game, RulesError, load_rules, preset_names
from eights.engine.rules import Scoring
from eights.engine.schema import rules_schema
from eights.i18n import translator
from eights.i18n.explain import describe, match_goal
from eights.i18n.text import match_words
from stacked import cards, deal_order, play, stacked

CL = "classic"
"""8s are wild and name a suit; the player who goes out collects (CL7)."""


@pytest.mark.parametrize("name", preset_names())
def test_the_defaults_leave_every_preset_unchanged(name: str) -> None:
    assert load_rules(name).scoring is not Scoring.ROUNDS_WON


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
