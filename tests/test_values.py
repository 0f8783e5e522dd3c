"""What a value means (docs/bots.md): the review's values are the chance of winning the
round when every seat, the reviewed one included, plays the expert after the action, over
worlds dealt from the seat's observation alone.

- The two-player positions of issue 33, on stacked decks: the review values Q♣ above a
  voluntary draw, and on the next turn 2♣ above 8♦ naming ♠ (the old review, its own later
  moves explored by a tree and greedy play for the rest, had both backwards).
- Two deals identical from the seat's view get identical values.
- The standard errors: with independent worlds, the spread of a value over seeds is its
  stated standard error.
"""

from __future__ import annotations

import random
import statistics

from eights import Game
from eights.bots.ismcts import ISMCTSBot
from eights.engine.actions import Action
from eights.lab.review import Position, evaluate_position
from stacked import stacked

MINE = "2c Qc 8d 2h 8h Th 6s"
"""The seat's hand in issue 33's two-player positions (classic, on 5♣)."""


def _first(other: str, draws: str = "") -> Game:
    """Classic, 2 players, seat 1 to play first holding :data:`MINE` on 5♣."""
    return stacked("classic", [other, MINE], "5c", draws)


def _review(game: Game, worlds: int, seed: int = 0) -> dict[str, float]:
    seen = game.observe(game.to_move)
    position = Position(1, len(game.history), seen, seen.legal[0])
    decision = evaluate_position(position, worlds, seed)
    return {str(v.action): v.win for v in decision.actions}


def test_the_review_values_the_queen_above_the_draw_and_the_two_above_the_eight() -> None:
    game = _first("Ac 3d 9s Jd 4h 7c Kd")
    first = _review(game, 1000)
    assert first["Qc"] > first["draw"] + 0.02, first
    game.apply("Qc")
    game.apply("Ac")  # the opponent, 6 cards left: the up-card A♣
    assert len(game.hands[0]) == 6
    second = _review(game, 1000)
    assert second["2c"] > second["8d=s"] + 0.05, second


def test_two_deals_identical_from_the_seats_view_get_identical_values() -> None:
    # the opponent's hand and the stock differ entirely; the seat sees the same
    a, b = _first("Ac 3d 9s Jd 4h 7c Kd"), _first("Kh 9c 7d 3s Ad 4s 5d")
    for game in (a, b):
        game.apply("Qc")
        game.apply("draw")  # the opponent draws: a card the seat does not see
    assert a.observe(1) == b.observe(1) and a.hands[0] != b.hands[0]
    assert _review(a, 200, seed=3) == _review(b, 200, seed=3)
    assert _review(a, 200, seed=3) != _review(a, 200, seed=4)
    legal = list(a.observe(1).legal)
    assert ISMCTSBot().evaluate(a.observe(1), legal, random.Random(4), 100) == (
        ISMCTSBot().evaluate(b.observe(1), legal, random.Random(4), 100))


def test_a_value_spreads_over_seeds_as_its_stated_standard_error() -> None:
    game = Game("classic", 4, seed=40)
    seen = game.observe(game.to_move)
    legal = list(seen.legal)
    bot = ISMCTSBot()
    ratios = []
    runs = [bot.evaluate(seen, legal, random.Random(seed), 300) for seed in range(12)]
    for i in range(len(legal)):
        spread = statistics.stdev(run.win(i) for run in runs)
        stated = statistics.fmean(run.win_se(i) for run in runs)
        ratios.append(spread / stated)
    # honest errors: the spread over 12 seeds, of all the actions together, is near 1
    assert 0.75 <= statistics.fmean(ratios) <= 1.3, ratios


def test_errors_of_linked_worlds_come_from_batches() -> None:
    # worlds that drift (a tree learning as it goes): the error of single worlds is too
    # small, the batches' is not; independent worlds keep the plain error
    from eights.bots.ismcts import BATCHES, Evaluation

    n = 64 * BATCHES
    wins = tuple((1.0 if (w * 2 // n) % 2 else 0.0, 1.0 if w % 2 else 0.0) for w in range(n))
    points = tuple((0.0, 0.0) for _ in range(n))
    legal = list(_first("Ac 3d 9s Jd 4h 7c Kd").legal_actions())[:2]
    linked = Evaluation(tuple(legal), wins, points, independent=False)
    plain = Evaluation(tuple(legal), wins, points)
    assert plain.win_se(0) == plain.win_se(1) > 0
    assert linked.win_se(0) > 5 * plain.win_se(0)  # half the batches all 0, half all 1
    assert linked.win_se(1) < plain.win_se(1)  # alternating: every batch the same mean
    values = plain.values()
    assert [v.action for v in values] == legal and values[plain.best].gap == 0.0


def test_the_ceiling_sees_the_true_game_and_only_when_shown() -> None:
    import pytest

    game = _first("Ac 3d 9s Jd 4h 7c Kd")
    seen = game.observe(1)
    legal = list(seen.legal)
    bot = ISMCTSBot(see="all", seed=1)
    with pytest.raises(ValueError, match="show"):
        bot.evaluate(seen, legal, random.Random(0), 10)
    with pytest.raises(ValueError, match="see=all"):
        ISMCTSBot().show(game)
    other = _first("Kh 9c 7d 3s Ad 4s 5d")
    bot.show(other)
    seeing = bot.evaluate(seen, legal, random.Random(0), 300)
    bot.show(game)
    assert bot.evaluate(seen, legal, random.Random(0), 300) != seeing  # other hands, other values
    # seeing the opponent's hand values the queen otherwise than the worlds dealt blind
    blind = ISMCTSBot(seed=1).evaluate(seen, legal, random.Random(0), 300)
    assert blind.win(legal.index(Action.parse("Qc"))) != seeing.win(legal.index(Action.parse("Qc")))
