"""Fast simulation of any rule set between bots, with summary statistics.

Besides throughput and wins by seat, the summary answers the questions of a
variant designer: does the first player (the seat after the dealer) win more
than its share, how long and how often blocked are rounds, how many forced
draws and hand-limit overflows (HF9) happen, and how often each special card
is played. Counting costs a few attribute reads per action; random bots keep
the fast path (no observation is built for them).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eights.bots import Bot, RandomBot
from eights.engine.actions import DRAW, Action
from eights.engine.cards import Rank
from eights.engine.errors import IllegalActionError
from eights.engine.game import Game
from eights.engine.rules import Rules, load_rules
from eights.lab.analysis import rank_label, special_ranks, wilson

__all__ = ["REFERENCE_ONLY", "SimulationResult", "percentiles", "rounds_result", "simulate"]

REFERENCE_ONLY = ("forced_draws_per_round", "forced_cards_per_round", "rounds_with_forced_draw",
                  "overflows_per_round", "overflow_cards_per_round", "rounds_with_overflow",
                  "special_cards_per_round")
"""The statistics only the reference engine gathers (the compiled kernel's whole rounds
report decisions, winners and points, not what happened move by move): ``None`` in the
JSON of a simulation with ``engine = "fast"``."""


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
    bots: list[str] = field(default_factory=list)
    """The bot of each seat (its name)."""
    round_wins_by_position: list[float] = field(default_factory=list)
    """Round wins by position after the dealer: 0 is the seat after the dealer
    (dealt first, usually first to play), ``players - 1`` the dealer."""
    forced_draws_per_round: list[int] = field(default_factory=list)
    """``draw`` actions taken while a forced draw was pending, each round."""
    forced_cards: int = 0
    """Cards those forced draws put into the victims' hands."""
    overflows_per_round: list[int] = field(default_factory=list)
    """HF9 overflows each round: forced draws whose excess over the hand limit
    went back to the attacker or became penalty points."""
    overflow_cards: int = 0
    """Cards of those overflows (back to the attacker, or penalty points)."""
    plays_by_rank: list[int] = field(default_factory=lambda: [0] * len(Rank))
    """Cards played, by rank (index ``Rank``)."""
    special: dict[str, str] = field(default_factory=dict)
    """The special ranks of the rules (letter) and what they do."""
    engine: str = "reference"
    """``reference`` (the engine, move by move) or ``fast`` (the compiled kernel's whole
    rounds: the statistics of :data:`REFERENCE_ONLY` are not gathered)."""

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
            "engine": self.engine,
            **self._variant_json(),
        }

    def _variant_json(self) -> dict[str, Any]:
        """The variant-analysis numbers (see the module docstring)."""
        rounds = self.rounds
        per = 1 / rounds if rounds else 0.0
        lengths = Counter(self.decisions_per_round)
        by_position = self.round_wins_by_position
        out = {
            "bots": self.bots,
            "win_share_by_position": [w * per for w in by_position],
            "win_share_by_position_ci95": [list(wilson(w, rounds)) for w in by_position],
            "first_seat_advantage": by_position[0] * per - 1 / self.players if rounds else 0.0,
            "blocked_share": self.blocked * per,
            "blocked_share_ci95": list(wilson(self.blocked, rounds)),
            "round_length_histogram": sorted([length, count] for length, count in lengths.items()),
            "forced_draws_per_round": sum(self.forced_draws_per_round) * per,
            "forced_cards_per_round": self.forced_cards * per,
            "rounds_with_forced_draw": sum(1 for f in self.forced_draws_per_round if f),
            "overflows_per_round": sum(self.overflows_per_round) * per,
            "overflow_cards_per_round": self.overflow_cards * per,
            "rounds_with_overflow": sum(1 for f in self.overflows_per_round if f),
            "special_cards_per_round": {
                letter: {"effect": effect, "per_round": self.plays_by_rank[Rank.parse(letter)] * per}
                for letter, effect in self.special.items()
            },
        }
        if self.engine != "reference":
            out.update(dict.fromkeys(REFERENCE_ONLY))
        return out


def simulate(
    rules: str | Rules,
    players: int | None = None,
    *,
    games: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    bots: Sequence[Bot] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` whole matches (or ``rounds`` rounds) and gather statistics.

    Every random choice (deals, draws, bots) flows from ``seed``. A round
    counts as won by every seat in ``round_winners`` (shared wins split);
    likewise for matches. ``on_progress(done, total)`` is called as each match
    (with ``games``) or round (with ``rounds``) ends.
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
                              match_wins=[0.0] * n, points=[0] * n,
                              bots=[b.name for b in seats], round_wins_by_position=[0.0] * n,
                              special={r.letter: rank_label(rules_obj, r)
                                       for r in special_ranks(rules_obj)})
    by_rank = result.plays_by_rank
    start = time.process_time()
    while (games is not None and result.matches < games) or (
            rounds is not None and result.rounds < rounds):
        game = Game(rules_obj, n, seed=master.getrandbits(63), dealer=master.randrange(n))
        rng = random.Random(master.getrandbits(63))
        rand = rng.random
        while True:
            steps = forced = overflows = 0
            while not game.over:
                p = game.to_move
                legal = game.legal
                if fast[p]:
                    action = legal[int(rand() * len(legal))]
                else:
                    action = seats[p].choose(game.observe(p), legal, rng)
                    if action not in legal:
                        raise IllegalActionError(
                            f"bot {seats[p].name!r} in seat {p} chose {action}, which is not legal; "
                            f"legal: {', '.join(str(a) for a in legal)}")
                card = action.card
                if card is not None:
                    by_rank[card >> 2] += 1
                    game.push(action)
                elif action is DRAW and game.pending:
                    forced += 1
                    extra = _forced_draw(game, action, result)
                    if extra:
                        overflows += 1
                        result.overflow_cards += extra
                else:
                    game.push(action)
                steps += 1
            result.forced_draws_per_round.append(forced)
            result.overflows_per_round.append(overflows)
            result.rounds += 1
            result.decisions += steps
            result.decisions_per_round.append(steps)
            if on_progress is not None and rounds is not None:
                on_progress(result.rounds, rounds)
            if game.out is None:
                result.blocked += 1
            winners = game.round_winners or []
            for s in winners:
                result.round_wins[s] += 1 / len(winners)
                result.round_wins_by_position[(s - game.dealer - 1) % n] += 1 / len(winners)
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
        if on_progress is not None and games is not None:
            on_progress(result.matches, games)
    result.seconds = time.process_time() - start
    return result


def rounds_result(
    rules: Rules,
    players: int,
    seed: int,
    bots: Sequence[str],
    decisions: Sequence[int],
    out: Sequence[int],
    dealer: Sequence[int],
    winners: Sequence[Sequence[int]],
    points: Sequence[Sequence[int]],
    seconds: float,
    engine: str = "fast",
) -> SimulationResult:
    """The summary of rounds played elsewhere (the compiled kernel), one entry a round:
    its decisions, the seat out (-1 blocked), the dealer, each seat's win (0 or 1, shared
    wins split as in :func:`simulate`) and points. The statistics of
    :data:`REFERENCE_ONLY` are left out (``None`` in the JSON)."""
    n = players
    result = SimulationResult(rules.name, n, seed, round_wins=[0.0] * n, match_wins=[0.0] * n,
                              points=[0] * n, bots=list(bots), round_wins_by_position=[0.0] * n,
                              engine=engine, seconds=seconds)
    result.rounds = len(decisions)
    result.decisions_per_round = [int(d) for d in decisions]
    result.decisions = sum(result.decisions_per_round)
    result.blocked = sum(1 for o in out if o < 0)
    for d, row, pts in zip(dealer, winners, points, strict=True):
        seats = [s for s in range(n) if row[s]]
        for s in seats:
            result.round_wins[s] += 1 / len(seats)
            result.round_wins_by_position[(s - int(d) - 1) % n] += 1 / len(seats)
        for s in range(n):
            result.points[s] += int(pts[s])
    return result


def _forced_draw(game: Game, action: Action, result: SimulationResult) -> int:
    """Apply a forced draw, count its cards; return the overflow (HF9): cards that went
    back to the attacker or became penalty points."""
    step = game.apply(action)
    counts = step.counts()
    result.forced_cards += counts[step.seat]
    return sum(counts) - counts[step.seat] + sum(step.penalties)
