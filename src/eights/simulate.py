"""Fast simulation of any rule set between bots, with summary statistics."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from eights.bots import Bot, RandomBot
from eights.game import Game
from eights.rules import Rules, load_rules

__all__ = ["SimulationResult", "percentiles", "simulate"]


def percentiles(values: Sequence[int], points: Sequence[int] = (10, 50, 90)) -> dict[str, float]:
    """Nearest-rank percentiles, plus min and max.

    >>> percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    {'min': 1.0, 'p10': 1.0, 'p50': 5.0, 'p90': 9.0, 'max': 10.0}
    """
    ordered = sorted(values)
    out = {"min": float(ordered[0])}
    for p in points:
        rank = max(1, -(-p * len(ordered) // 100))
        out[f"p{p}"] = float(ordered[rank - 1])
    out["max"] = float(ordered[-1])
    return out


@dataclass
class SimulationResult:
    """Everything :func:`simulate` measured."""

    rules: str
    players: int
    seed: int
    matches: int = 0
    rounds: int = 0
    decisions: int = 0
    blocked: int = 0
    rounds_per_match: list[int] = field(default_factory=list)
    decisions_per_round: list[int] = field(default_factory=list)
    round_wins: list[float] = field(default_factory=list)
    match_wins: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The summary as plain JSON values."""
        dpr = self.decisions_per_round
        rpm = self.rounds_per_match
        return {
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "matches": self.matches,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "blocked_rounds": self.blocked,
            "rounds_per_match": {"mean": statistics.fmean(rpm), **percentiles(rpm)} if rpm else None,
            "decisions_per_round": {"mean": statistics.fmean(dpr), **percentiles(dpr)}
            if dpr else None,
            "round_wins_by_seat": self.round_wins,
            "match_wins_by_seat": self.match_wins,
            "mean_points_by_seat": [p / self.rounds for p in self.points] if self.rounds else [],
            "seconds": self.seconds,
            "rounds_per_second": self.rounds / self.seconds if self.seconds else 0.0,
            "decisions_per_second": self.decisions / self.seconds if self.seconds else 0.0,
        }


def simulate(
    rules: str | Rules,
    players: int | None = None,
    *,
    games: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    bots: Sequence[Bot] | None = None,
) -> SimulationResult:
    """Play ``games`` whole matches (or ``rounds`` rounds) and gather statistics.

    Every random choice (deals, draws, bots) flows from ``seed``. A round
    counts as won by every seat in ``round_winners`` (shared wins split);
    likewise for matches.
    """
    rules_obj = load_rules(rules)
    n = rules_obj.default_players if players is None else players
    rules_obj.check_players(n)
    if (games is None) == (rounds is None):
        raise ValueError("give either games or rounds")
    seats: list[Bot] = list(bots) if bots else [RandomBot() for _ in range(n)]
    if len(seats) != n:
        raise ValueError(f"{len(seats)} bots for {n} players")
    fast = [isinstance(b, RandomBot) for b in seats]
    master = random.Random(seed)
    result = SimulationResult(rules_obj.name, n, seed, round_wins=[0.0] * n,
                              match_wins=[0.0] * n, points=[0] * n)
    start = time.perf_counter()
    while (games is not None and result.matches < games) or (
            rounds is not None and result.rounds < rounds):
        game = Game(rules_obj, n, seed=master.getrandbits(63), dealer=master.randrange(n))
        rng = random.Random(master.getrandbits(63))
        rand = rng.random
        while True:
            steps = 0
            while not game.over:
                p = game.to_move
                legal = game._legal if game._legal is not None else game.legal_actions()
                if fast[p]:
                    action = legal[int(rand() * len(legal))]
                else:
                    action = seats[p].choose(game.observe(p), legal, rng)
                game._apply(action)
                steps += 1
            result.rounds += 1
            result.decisions += steps
            result.decisions_per_round.append(steps)
            if game.out is None:
                result.blocked += 1
            winners = game.round_winners or []
            for s in winners:
                result.round_wins[s] += 1 / len(winners)
            assert game.round_points is not None
            for s in range(n):
                result.points[s] += game.round_points[s]
            if game.match_over or (rounds is not None and result.rounds >= rounds):
                break
            game.next_round()
        if game.match_over:
            result.matches += 1
            result.rounds_per_match.append(game.round)
            champions = game.winners or []
            for s in champions:
                result.match_wins[s] += 1 / len(champions)
    result.seconds = time.perf_counter() - start
    return result
