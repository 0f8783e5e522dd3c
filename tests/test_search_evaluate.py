"""The search's evaluation of every action of a decision (:meth:`ISMCTSBot.evaluate`):
paired worlds, reproducible, from the seat's observation alone."""

from __future__ import annotations

import random

import pytest

from eights import Game, load_rules
from eights.bots.ismcts import Evaluation, ISMCTSBot, round_win
from eights.engine.actions import Action
from eights.engine.rules import Scoring
from stacked import stacked


def _decision(name: str, players: int, seed: int, moves: int) -> Game:
    """A seeded round after ``moves`` random moves, at a decision with a choice."""
    game = Game(name, players, seed=seed)
    rng = random.Random(seed)
    while moves > 0 or len(game.legal_actions()) < 2:
        game.apply(rng.choice(game.legal_actions()))
        moves -= 1
        assert not game.over
    return game


@pytest.mark.parametrize("kernel", ["off", "auto"])
@pytest.mark.parametrize("tree", ["own", "none"])
def test_every_action_is_played_in_every_world(kernel: str, tree: str) -> None:
    game = _decision("classic", 3, seed=4, moves=3)
    seen = game.observe(game.to_move)
    legal = game.legal_actions()
    bot = ISMCTSBot(kernel=kernel, tree=tree, seed=1)
    evaluation = bot.evaluate(seen, legal, random.Random(0), worlds=12)
    assert evaluation.actions == tuple(legal)
    assert evaluation.worlds == len(evaluation.wins) == len(evaluation.points) == 12
    assert all(len(row) == len(legal) for row in (*evaluation.wins, *evaluation.points))
    assert bot.last_iterations == 12 * len(legal)
    # no prior and no racing: the expert's choice is not favoured, no action is dropped
    assert all(0.0 <= w <= 1.0 for row in evaluation.wins for w in row)


def test_the_evaluation_is_deterministic_for_a_seed() -> None:
    game = _decision("huit-americain", 4, seed=2, moves=5)
    seen = game.observe(game.to_move)
    legal = game.legal_actions()
    first = ISMCTSBot().evaluate(seen, legal, random.Random(7), worlds=20)
    assert ISMCTSBot().evaluate(seen, legal, random.Random(7), worlds=20) == first
    assert ISMCTSBot(seed=3).evaluate(seen, legal, random.Random(1), worlds=20) == (
        ISMCTSBot(seed=3).evaluate(seen, legal, random.Random(2), worlds=20))
    other = ISMCTSBot().evaluate(seen, legal, random.Random(8), worlds=20)
    assert other != first  # another seed deals other worlds


def test_two_states_with_the_same_observation_get_the_same_evaluation() -> None:
    # seat 0 holds the same cards and sees the same moves in both; seat 1's hand and the
    # stock differ entirely
    mine = "7h 8s Kd 2c 5s 9d Qh"
    a = stacked("classic", [mine, "6h 3c 4c Td Jc As 2d"], "5h", dealer=1)
    b = stacked("classic", [mine, "6h Ts Js Qs 3d 4d 6c"], "5h", dealer=1)
    for game in (a, b):
        game.apply("7h")
        game.apply("6h")
    assert a.hands[1] != b.hands[1] and sorted(a.stock) != sorted(b.stock)
    seen_a, seen_b = a.observe(0), b.observe(0)
    assert seen_a == seen_b
    legal = a.legal_actions()
    assert legal == b.legal_actions() and len(legal) > 1
    for kernel in ("off", "auto"):
        bot = ISMCTSBot(kernel=kernel)
        ea = bot.evaluate(seen_a, legal, random.Random(5), worlds=16)
        eb = ISMCTSBot(kernel=kernel).evaluate(seen_b, legal, random.Random(5), worlds=16)
        assert ea == eb


def test_wins_are_shares_of_the_round_and_a_team_wins_together() -> None:
    lh = load_rules("les-huit")
    assert lh.has_teams(4)
    assert [round_win(lh, 4, s, [0, 2]) for s in range(4)] == [1.0, 0.0, 1.0, 0.0]
    assert [round_win(lh, 4, s, [0, 1, 2, 3]) for s in range(4)] == [0.5] * 4  # a tie
    classic = load_rules("classic")
    assert [round_win(classic, 3, s, [0, 2]) for s in range(3)] == [0.5, 0.0, 0.5]
    assert [round_win(classic, 3, s, []) for s in range(3)] == [0.0] * 3
    # in a team game a seat's win is its team's: 1 when the partner goes out
    game = _decision("les-huit", 4, seed=3, moves=8)
    seen = game.observe(game.to_move)
    evaluation = ISMCTSBot(seed=2).evaluate(seen, game.legal_actions(), random.Random(0),
                                           worlds=24)
    values = {w for row in evaluation.wins for w in row}
    assert values <= {0.0, 0.5, 1.0} and 1.0 in values


@pytest.mark.parametrize("name", ["classic", "huit-fou"])
def test_points_are_signed_so_that_more_is_better(name: str) -> None:
    game = _decision(name, 2, seed=1, moves=4)
    seen = game.observe(game.to_move)
    evaluation = ISMCTSBot(seed=4).evaluate(seen, game.legal_actions(), random.Random(0),
                                           worlds=16)
    points = [p for row in evaluation.points for p in row]
    if game.rules.scoring is Scoring.OWN_HAND:  # huit-fou: the cards left, a penalty
        assert max(points) <= 0 < -min(points)
    else:  # classic: the winner collects the others' cards
        assert min(points) >= 0 < max(points)
    # the worlds won score better than the worlds lost
    won = [p for ws, ps in zip(evaluation.wins, evaluation.points, strict=True)
           for w, p in zip(ws, ps, strict=True) if w == 1.0]
    lost = [p for ws, ps in zip(evaluation.wins, evaluation.points, strict=True)
            for w, p in zip(ws, ps, strict=True) if w == 0.0]
    assert won and lost and sum(won) / len(won) > sum(lost) / len(lost)


def test_the_helpers_read_the_worlds() -> None:
    a, b = Action.parse("5h"), Action.parse("draw")
    e = Evaluation((a, b), ((1.0, 0.0), (1.0, 1.0), (0.0, 0.0), (1.0, 0.0)),
                   ((3.0, -1.0), (1.0, 1.0), (0.0, 0.0), (0.0, 0.0)))
    assert e.worlds == 4 and e.win(0) == 0.75 and e.win(1) == 0.25
    assert e.win_se(0) == pytest.approx((0.25 / 4) ** 0.5)  # sample variance 1/4
    diff, se = e.paired(0, 1)
    assert diff == 0.5 and se == pytest.approx(((1 / 3) / 4) ** 0.5)
    assert e.mean_points(0) == 1.0 and e.mean_points(1) == 0.0
    assert Evaluation((a,), ((1.0,),), ((0.0,),)).win_se(0) == 0.0


def test_bad_arguments_are_refused() -> None:
    game = Game("classic", 2, seed=1)
    seen = game.observe(game.to_move)
    with pytest.raises(ValueError, match="worlds must be 1 or more"):
        ISMCTSBot().evaluate(seen, game.legal_actions(), random.Random(0), worlds=0)
    with pytest.raises(ValueError, match="no legal action"):
        ISMCTSBot().evaluate(seen, [], random.Random(0), worlds=4)
