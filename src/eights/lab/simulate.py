"""Fast simulation of any rule set between bots, with summary statistics.

Besides throughput and wins by seat, the summary answers the questions of a
variant designer: does the first player (the seat after the dealer) win more
than its share, how long and how often blocked are rounds, how many forced
draws and hand-limit overflows (HF9) happen, and how often each special card
is played. Counting costs a few attribute reads per action; random bots keep
the fast path (no observation is built for them).

Chunks
======

A simulation is cut into fixed chunks: :data:`GAMES_CHUNK` matches, or
:data:`ROUNDS_CHUNK` rounds on the reference engine, or :data:`FAST_CHUNK` rounds on
the compiled kernel (the last chunk holds what is left). Chunk ``i`` draws every
random choice from a seed derived from the simulation's seed and ``i``
(:func:`~eights.lab.parallel.derive_seed`), and the chunks' tallies are added in
chunk order (:func:`combine`): the numbers of a seed are the same whether the chunks
are played here, in ``jobs`` worker processes or on a Ray cluster. With ``rounds``,
the reference engine plays matches within a chunk and drops the match in progress
at its end (``rounds_per_match`` and the match wins count the matches that ended);
the kernel's round ``i`` of the whole run is dealt by seat ``i % players``.
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
from eights.lab.parallel import Report, derive_seed, spans, workers

__all__ = ["ENGINES", "FAST_CHUNK", "GAMES_CHUNK", "REFERENCE_ONLY", "ROUNDS_CHUNK",
           "SimulationResult", "combine", "percentiles", "rounds_result", "simulate"]

ENGINES = ("reference", "fast")
"""The engines a simulation plays on: the engine move by move, or the compiled kernel."""
GAMES_CHUNK = 10
"""Matches in a chunk (see the module docstring)."""
ROUNDS_CHUNK = 1000
"""Rounds in a chunk of the reference engine."""
FAST_CHUNK = 5000
"""Rounds in a chunk of the compiled kernel."""
FAST_BATCH = 1000
"""Rounds the kernel plays between two progress reports (in this process)."""

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
    wall_seconds: float = 0.0
    """Elapsed time of the whole run (worker start-up included); ``seconds`` is the CPU
    time of the play, added over the workers."""

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
            "wall_seconds": self.wall_seconds,
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
    engine: str = "reference",
    jobs: int | None = None,
    ray: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` whole matches (or ``rounds`` rounds) and gather statistics.

    Every random choice (deals, draws, bots) flows from ``seed``, chunk by chunk (see
    the module docstring). A round counts as won by every seat in ``round_winners``
    (shared wins split); likewise for matches. ``engine="fast"`` plays ``rounds`` on the
    compiled kernel (random and greedy bots; the ``fast`` extra). ``jobs`` worker
    processes play the chunks (1 or ``None``: this process), or with ``ray``
    (``"local"``, ``"auto"`` or a cluster's ``host:port``) Ray tasks, ``jobs`` at a
    time (see :func:`eights.lab.parallel.workers`): the numbers are the same.
    ``on_progress(done, total)`` is called with the matches (with ``games``) or rounds
    (with ``rounds``) done: as each ends in this process, as each unit of chunks comes
    back from workers.
    """
    rules_obj = load_rules(rules)
    n = rules_obj.default_players if players is None else players
    rules_obj.check_players(n)
    if (games is None) == (rounds is None):
        raise ValueError("give either games or rounds")
    total = games if games is not None else rounds
    assert total is not None
    if total < 1:
        raise ValueError(f"{'games' if games is not None else 'rounds'} must be 1 or more, not {total}")
    seats: list[Bot] = list(bots) if bots else [RandomBot() for _ in range(n)]
    if len(seats) != n:
        raise ValueError(f"{len(seats)} bots for {n} players")
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: give {' or '.join(ENGINES)}")
    if engine == "fast":
        _check_fast(rules_obj, seats, games)
        size = FAST_CHUNK
    else:
        size = GAMES_CHUNK if games is not None else ROUNDS_CHUNK
    job = _Job(rules_obj, n, seed, tuple(seats), engine, games is not None, total, size)
    chunks = -(-total // size)
    start = time.perf_counter()
    with workers(jobs, ray) as pool:
        parts = pool.run(_play_chunks, job, spans(chunks, pool.concurrency),
                         size=lambda done: sum(p.matches if job.matches else p.rounds for p in done),
                         progress=None if on_progress is None
                         else lambda done: on_progress(done, total))
    result = combine([p for part in parts for p in part])
    result.wall_seconds = time.perf_counter() - start
    return result


def combine(parts: Sequence[SimulationResult]) -> SimulationResult:
    """The tallies of ``parts`` (of one simulation, in chunk order) added together."""
    if not parts:
        raise ValueError("nothing to combine: give the results of one or more chunks")
    first = parts[0]
    n = first.players
    out = SimulationResult(first.rules, n, first.seed, round_wins=[0.0] * n,
                           match_wins=[0.0] * n, points=[0] * n, bots=list(first.bots),
                           round_wins_by_position=[0.0] * n, special=dict(first.special),
                           engine=first.engine)
    for part in parts:
        out.matches += part.matches
        out.rounds += part.rounds
        out.decisions += part.decisions
        out.blocked += part.blocked
        out.forced_cards += part.forced_cards
        out.overflow_cards += part.overflow_cards
        out.seconds += part.seconds
        out.rounds_per_match += part.rounds_per_match
        out.decisions_per_round += part.decisions_per_round
        out.forced_draws_per_round += part.forced_draws_per_round
        out.overflows_per_round += part.overflows_per_round
        for mine, theirs in ((out.round_wins, part.round_wins), (out.match_wins, part.match_wins),
                             (out.round_wins_by_position, part.round_wins_by_position)):
            for s, value in enumerate(theirs):
                mine[s] += value
        for s, points in enumerate(part.points):
            out.points[s] += points
        for r, plays in enumerate(part.plays_by_rank):
            out.plays_by_rank[r] += plays
    return out


@dataclass(frozen=True)
class _Job:
    """What every chunk of a simulation needs (sent once to each worker)."""

    rules: Rules
    players: int
    seed: int
    bots: tuple[Bot, ...]
    engine: str
    matches: bool
    """True: ``total`` counts matches; False: rounds."""
    total: int
    size: int
    """Matches or rounds in a chunk."""


def _play_chunks(job: _Job, unit: range, report: Report | None) -> list[SimulationResult]:
    """Chunks ``unit`` of the simulation (a worker's task)."""
    play = _fast_chunk if job.engine == "fast" else _reference_chunk
    return [play(job, index, min(job.size, job.total - index * job.size), report)
            for index in unit]


def _check_fast(rules: Rules, seats: Sequence[Bot], games: int | None) -> None:
    """Stop with :class:`ValueError` (or the kernel's
    :class:`~eights.fast.tables.KernelUnsupported`) when the kernel cannot play this."""
    if games is not None:
        raise ValueError("the fast engine plays rounds (rounds=N), not whole matches")
    from eights.fast import POLICIES, check_supported

    other = sorted({b.name for b in seats} - set(POLICIES))
    if other:
        raise ValueError(f"the fast engine plays the {' and '.join(POLICIES)} bots only, "
                         f"not {other[0]!r}")
    check_supported(rules, len(seats))


def _fast_chunk(job: _Job, index: int, count: int, report: Report | None) -> SimulationResult:
    """``count`` rounds on the compiled kernel; ``seconds`` is the CPU time of the play
    alone (compiling, or loading from numba's cache, comes first)."""
    import numpy as np

    from eights.fast.batch import RoundTallies

    policies = [b.name for b in job.bots]
    tallies = RoundTallies(job.rules, policies, derive_seed(job.seed, "kernel", index),
                           first=index * job.size)
    tallies.play(0)  # compiled (or loaded from the cache) before the clock starts
    parts = []
    cpu = 0.0
    while tallies.played < count:
        start = time.process_time()
        parts.append(tallies.play(min(FAST_BATCH, count - tallies.played)))
        cpu += time.process_time() - start
        if report is not None:
            report(len(parts[-1].decisions))

    def column(name: str) -> Any:
        return np.concatenate([getattr(p, name) for p in parts])

    return rounds_result(job.rules, job.players, job.seed, policies, column("decisions").tolist(),
                         column("out").tolist(), column("dealer").tolist(),
                         column("winners").tolist(), column("points").tolist(), cpu)


def _reference_chunk(job: _Job, index: int, count: int, report: Report | None) -> SimulationResult:
    """``count`` matches (or rounds) on the reference engine, seeded by the chunk."""
    rules_obj, n, seats = job.rules, job.players, job.bots
    games, rounds = (count, None) if job.matches else (None, count)
    fast = [isinstance(b, RandomBot) for b in seats]
    master = random.Random(derive_seed(job.seed, "chunk", index))
    result = SimulationResult(rules_obj.name, n, job.seed, round_wins=[0.0] * n,
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
            if report is not None and rounds is not None:
                report(1)
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
        if report is not None and games is not None:
            report(1)
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
