"""Duplicate tournaments: every deal is replayed with the bots rotated through the seats.

The format
==========

**A deal** is one round's chance, fixed in advance: a full shuffle of the
deck (every card, once; two decks and jokers included when the rules use
them) and a game seed, both derived from the tournament seed and the deal's
index (:func:`make_deal`). The shuffle is given to :class:`~eights.engine.game.Game`
as its scripted ``deck``: the deal, the starter, a re-turned starter and
every draw, forced or not, take the *next card of the script*, whoever
draws. So the i-th card to leave the stock is the same in every replay of
the deal, even though who draws it, and when, depends on the play. (A shared
game seed alone would not do: the game draws a uniform position in the
stock, whose content depends on which cards were already drawn, so the
same seed gives the same cards only as long as the play is the same.)

**Seat assignments** (:func:`seat_assignments`): the bots, repeated
cyclically when there are fewer bots than seats, are placed in every
distinct order for up to four players (at most 24 replays a deal), and in
every cyclic rotation beyond four (a balanced subset: each bot sits in each
seat in proportion to the seats it holds, though the bots keep their order
around the table). The dealer is seat 0 in every replay.

**Why luck cancels.** Within a deal every bot holds every hand, and sits in
every position relative to the dealer, equally often, against the same
stock. A strong hand or a lucky draw is therefore given to each bot in turn;
what remains between them is how they played the same cards. Two residues
stay: once the whole deck has left the stock, the discard pile becomes the
new stock (HA5, HF13, CL6), and its content depends on the play, so later
draws differ even though they come from the same seeded generator (the
result counts these rounds: ``rounds_past_script``); and each bot's own
randomness, which is seeded per (deal, seat assignment, seat) and so is
reproducible but not shared.

**Determinism.** Deals, game seeds and bot seeds depend only on the
tournament seed and indices, never on the worker that plays them; results
are sorted by (deal, assignment) before anything is summed or rated. The
same seed gives the same result whatever ``jobs`` is, in worker processes
or on a Ray cluster (:mod:`eights.lab.parallel`).

Scoring and statistics
======================

Each replay is one round (no match): its result is ``round_winners`` and
``round_points``.

- **Win share**: a round's win is split among its winners (partners share
  their team's win); a bot's share is the sum over its seats, divided by the
  rounds. Shares of all bots sum to 1; ``seat_share`` (the fraction of seats
  the bot held) is the fair share.
- **95% CI of the win share** (``ci95``): a Student *t* interval over the
  deals, each deal's mean share over its replays being one observation. The
  replays of a deal share their cards, so they are not independent: a deal
  is the independent unit (a cluster, or block). When the deals show no
  spread (a single deal, or every deal giving the same share) the *t*
  interval would have no width; the Wilson interval over deals is given
  instead, each deal counting as one trial. ``wilson95`` is the Wilson
  score interval over rounds, as if every round were independent, reported
  for comparison: it is too wide when the replays of a deal cancel each
  other's luck and too narrow when they agree (greedy against random on
  the presets: the two agree within a few per cent).
- **Mean points per round**: the raw mean of ``round_points`` over the
  bot's seats. With own-hand scoring (HF11, HA14) lower is better; with
  winner-collects (CL7, LH8) higher is better (``points_better``).
- **Finishing order** of a round: winners first, then the others by their
  points in the better direction; equal keys tie. A bot's place in a round
  is the mean place of its seats (a bot holding two seats is judged per
  seat, not by its better seat, which would favour bots holding more seats).
- **Rating**: openskill's Plackett-Luce model, one rating per bot. Each
  round is one rated game in which each bot is a one-member team ranked by
  its place (ties allowed). Rounds are rated in (deal, assignment) order;
  the online update depends on that order, which is fixed. ``ordinal`` is
  the conservative ``mu - 3 * sigma``.
- **Head to head**: for bots A and B, the share of the rounds both played in
  which A finished ahead of B, a tie counting half; so A-vs-B plus B-vs-A
  is 1.

>>> seat_assignments(2, 2)
[(0, 1), (1, 0)]
"""

from __future__ import annotations

import random
import statistics
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from openskill.models import PlackettLuce

from eights.bots import BOTS, Bot, RandomBot, make_bot, parse_bot_spec
from eights.engine.cards import Card
from eights.engine.game import Game
from eights.engine.rules import Rules, Scoring, load_rules
from eights.engine.tables import tables_for
from eights.lab.analysis import mean_ci, wilson
from eights.lab.parallel import Report, derive_seed, spans, workers

__all__ = [
    "FORMAT",
    "Deal",
    "Rating",
    "RoundOutcome",
    "Standing",
    "TournamentResult",
    "make_deal",
    "play_deal",
    "play_round",
    "seat_assignments",
    "standings_table",
    "tournament",
]

FORMAT = "eights-tournament/1"
"""The ``format`` tag of :meth:`TournamentResult.to_json`."""

ALL_ORDERS_UP_TO = 4
"""Players up to which every distinct seat order is played (4! = 24 replays)."""


# --------------------------------------------------------------------------- deals


@dataclass(frozen=True, slots=True)
class Deal:
    """The chance of one duplicate round, identical in all its replays."""

    index: int
    deck: tuple[Card, ...]
    """Every card of the deck in the order it leaves the stock (the game's script)."""
    seed: int
    """The game seed: draws once the script is used up (after a reshuffle)."""


def make_deal(rules: Rules, players: int, seed: int, index: int) -> Deal:
    """Deal number ``index`` of the tournament seeded ``seed``."""
    rng = random.Random(derive_seed(seed, "deal", index))
    deck = tables_for(rules).deck(players)
    rng.shuffle(deck)
    return Deal(index, tuple(deck), rng.getrandbits(63))


def seat_assignments(bots: int, players: int,
                     seats: Sequence[int] | None = None) -> list[tuple[int, ...]]:
    """The bot (its index) in each seat, for each replay of a deal.

    The bots fill the seats cyclically, or ``seats[b]`` seats for bot ``b``
    when given (one search bot against three experts: ``seats=(1, 3)``);
    every distinct order of that lineup is used up to
    :data:`ALL_ORDERS_UP_TO` players, its cyclic rotations beyond.

    >>> seat_assignments(2, 3)
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    >>> seat_assignments(2, 4, seats=(1, 3))
    [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    >>> seat_assignments(3, 6)
    [(0, 1, 2, 0, 1, 2), (1, 2, 0, 1, 2, 0), (2, 0, 1, 2, 0, 1)]
    """
    if not 1 <= bots <= players:
        raise ValueError(f"{bots} bots for {players} seats; give 1 to {players} bots")
    if seats is None:
        lineup = tuple(i % bots for i in range(players))
    else:
        if len(seats) != bots or any(k < 1 for k in seats) or sum(seats) != players:
            raise ValueError(f"seats {','.join(map(str, seats))} do not fit {bots} bots in "
                             f"{players} seats: give one count of 1 or more per bot, "
                             f"adding up to {players}")
        lineup = tuple(b for b, k in enumerate(seats) for _ in range(k))
    if players <= ALL_ORDERS_UP_TO:
        return sorted(set(permutations(lineup)))
    rotations = (lineup[k:] + lineup[:k] for k in range(players))
    return list(dict.fromkeys(rotations))


# --------------------------------------------------------------------------- playing


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """The result of one replay of one deal."""

    deal: int
    assignment: int
    """Index in :func:`seat_assignments`."""
    seats: tuple[int, ...]
    """The bot (index) of each seat."""
    winners: tuple[int, ...]
    points: tuple[int, ...]
    blocked: bool
    decisions: int
    past_script: bool
    """True if the round drew past the scripted deck (after a reshuffle)."""


def play_round(rules: Rules, players: int, deal: Deal, bots: Sequence[Bot],
               rngs: Sequence[random.Random]) -> Game:
    """Play one round of ``deal`` with ``bots[s]`` in seat ``s`` (using ``rngs[s]``);
    the finished game. Random bots take the fast path (no observation built)."""
    game = Game(rules, players, seed=deal.seed, dealer=0, deck=deal.deck)
    fast = [isinstance(b, RandomBot) for b in bots]
    while not game.over:
        p = game.to_move
        legal = game.legal_actions()
        if fast[p]:
            action = legal[int(rngs[p].random() * len(legal))]
        else:
            action = bots[p].choose(game.observe(p), legal, rngs[p])
        game.apply(action)  # checked: a bot's illegal action is an error, never replaced
    return game


def play_deal(rules: Rules, players: int, specs: Sequence[str], seed: int,
              index: int, seats: Sequence[int] | None = None,
              assignments: Sequence[int] | None = None) -> list[RoundOutcome]:
    """Every replay of deal ``index`` (or those of ``assignments``, indices in
    :func:`seat_assignments`): fresh bots, each with its own seeded generator
    (``seats``: see :func:`seat_assignments`)."""
    deal = make_deal(rules, players, seed, index)
    out: list[RoundOutcome] = []
    orders = seat_assignments(len(specs), players, seats)
    for a in range(len(orders)) if assignments is None else assignments:
        order = orders[a]
        bots = [make_bot(specs[b]) for b in order]
        rngs = [random.Random(derive_seed(seed, "bot", index, a, s)) for s in range(players)]
        game = play_round(rules, players, deal, bots, rngs)
        assert game.round_points is not None
        out.append(RoundOutcome(
            deal=index, assignment=a, seats=order, winners=tuple(game.round_winners or ()),
            points=tuple(game.round_points), blocked=game.out is None,
            decisions=len(game.history), past_script=game.dealt > len(deal.deck)))
    return out


@dataclass(frozen=True, slots=True)
class _Job:
    """What every unit of a tournament needs (sent once to each worker)."""

    rules: Rules
    players: int
    specs: tuple[str, ...]
    seed: int
    seats: tuple[int, ...] | None
    factories: dict[str, Callable[..., Bot]]
    """The factories of the bots named, registered at run time in the parent perhaps."""


def _play_unit(job: _Job, unit: tuple[int, int, range], report: Report | None) -> list[RoundOutcome]:
    """Deals ``first`` to ``stop - 1`` of the unit, the replays ``replays`` of each."""
    for name, factory in job.factories.items():
        BOTS.setdefault(name, factory)
    first, stop, replays = unit
    out: list[RoundOutcome] = []
    for index in range(first, stop):
        for a in replays:
            out.extend(play_deal(job.rules, job.players, job.specs, job.seed, index, job.seats, (a,)))
            if report is not None:
                report(1)
    return out


def _units(deals: int, replays: int, jobs: int) -> list[tuple[int, int, range]]:
    """The workers' units (first deal, stop, replays): many deals go in chunks of whole
    deals; few deals are cut into runs of replays, so that even one deal keeps every
    worker busy and reports its progress as it goes.

    >>> _units(1, 4, 2)
    [(0, 1, range(0, 1)), (0, 1, range(1, 2)), (0, 1, range(2, 3)), (0, 1, range(3, 4))]
    >>> units = _units(40, 2, 2)  # many deals: chunks of whole deals
    >>> len(units), units[0]
    (20, (0, 2, range(0, 2)))
    """
    want = jobs * 8
    if deals >= want:
        return [(run.start, run.stop, range(replays)) for run in spans(deals, jobs)]
    size = -(-replays // min(replays, -(-want // deals)))
    return [(d, d + 1, range(a, min(replays, a + size)))
            for d in range(deals) for a in range(0, replays, size)]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating: skill ``mu`` with uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 * sigma``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Standing:
    """One bot's line of the standings (see the module docstring for the methods)."""

    bot: str
    seat_share: float
    """Fraction of all seats the bot held: its fair win share."""
    rounds: int
    """Rounds it played in."""
    win_share: float
    ci95: tuple[float, float]
    """95% t interval over deals (Wilson over deals when they show no spread)."""
    wilson95: tuple[float, float]
    """95% Wilson interval over rounds, as if rounds were independent."""
    mean_points: float
    """Mean round points per seat held (better: see ``points_better``)."""
    rating: Rating

    def to_json(self) -> dict[str, Any]:
        """The line as plain JSON values."""
        return {
            "bot": self.bot, "seat_share": self.seat_share, "rounds": self.rounds,
            "win_share": self.win_share, "ci95": list(self.ci95),
            "wilson95": list(self.wilson95), "mean_points": self.mean_points,
            "rating": {"mu": self.rating.mu, "sigma": self.rating.sigma,
                       "ordinal": self.rating.ordinal},
        }


@dataclass(frozen=True)
class TournamentResult:
    """Everything a tournament measured; :meth:`to_json` is its machine form."""

    rules: str
    title: str
    players: int
    bots: tuple[str, ...]
    deals: int
    seed: int
    scoring: Scoring
    assignments: tuple[tuple[int, ...], ...]
    outcomes: tuple[RoundOutcome, ...]
    """Every round, in (deal, assignment) order."""
    standings: tuple[Standing, ...]
    """Best first: by win share per seat held, then by rating ordinal."""
    head_to_head: tuple[tuple[float | None, ...], ...]
    """``[a][b]``: share of the rounds both played in which bot ``a`` (index in
    :attr:`bots`) finished ahead of bot ``b``, ties half; ``None`` if none."""
    seconds: float = field(default=0.0, compare=False)

    @property
    def points_better(self) -> str:
        """``"lower"`` (own-hand scoring) or ``"higher"`` (winner-collects)."""
        return "lower" if self.scoring is Scoring.OWN_HAND else "higher"

    def to_json(self) -> dict[str, Any]:
        """Every number as plain JSON values (``format`` is :data:`FORMAT`)."""
        outcomes = self.outcomes
        return {
            "format": FORMAT,
            "rules": self.rules,
            "title": self.title,
            "players": self.players,
            "bots": list(self.bots),
            "deals": self.deals,
            "seed": self.seed,
            "rounds": len(outcomes),
            "assignments": [[self.bots[b] for b in seats] for seats in self.assignments],
            "scoring": self.scoring.value,
            "points_better": self.points_better,
            "blocked_rounds": sum(o.blocked for o in outcomes),
            "rounds_past_script": sum(o.past_script for o in outcomes),
            "mean_decisions_per_round": statistics.fmean(o.decisions for o in outcomes),
            "standings": [s.to_json() for s in self.standings],
            "head_to_head": {a: dict(zip(self.bots, row, strict=True))
                             for a, row in zip(self.bots, self.head_to_head, strict=True)},
            "methods": {
                "deal": "a full shuffle of the deck scripted as the stock, and a game seed; "
                        "replayed with the bots rotated through the seats",
                "ci95": "Student t interval over deals (each deal's replays are one block)",
                "wilson95": "Wilson score interval over rounds, as if independent",
                "rating": "openskill Plackett-Luce, one rating per bot, one rated game per "
                          "round ranked by mean finishing place; ordinal = mu - 3 sigma",
                "head_to_head": "share of rounds row finished ahead of column, ties half",
            },
            "results": {
                "columns": ["deal", "assignment", "winners", "points", "blocked", "decisions",
                            "past_script"],
                "rows": [[o.deal, o.assignment, list(o.winners), list(o.points), o.blocked,
                          o.decisions, o.past_script] for o in outcomes],
            },
            "seconds": self.seconds,
        }


def _places(outcome: RoundOutcome, sign: int) -> list[float]:
    """Finishing place of each seat: winners first, then by points (``sign`` 1: lower
    is better, -1: higher is better); equal keys share the better place."""
    winners = set(outcome.winners)
    keys = [(0 if s in winners else 1, sign * p) for s, p in enumerate(outcome.points)]
    return [1.0 + sum(1 for other in keys if other < key) for key in keys]


def summarise(rules: Rules, players: int, specs: Sequence[str], deals: int, seed: int,
              outcomes: Sequence[RoundOutcome], seconds: float = 0.0,
              seats: Sequence[int] | None = None) -> TournamentResult:
    """Standings, ratings and head-to-head from the rounds (in (deal, assignment) order)."""
    k = len(specs)
    sign = 1 if rules.scoring is Scoring.OWN_HAND else -1
    model = PlackettLuce()
    ratings = [model.rating(name=spec) for spec in specs]
    wins = [0.0] * k
    seats_held = [0] * k
    rounds_in = [0] * k
    points = [0] * k
    by_deal: list[dict[int, float]] = [{} for _ in range(k)]
    ahead = [[0.0] * k for _ in range(k)]
    met = [[0] * k for _ in range(k)]
    for o in outcomes:
        share = 1 / len(o.winners) if o.winners else 0.0
        places = _places(o, sign)
        place_sum = [0.0] * k
        count = [0] * k
        for s, b in enumerate(o.seats):
            count[b] += 1
            place_sum[b] += places[s]
            points[b] += o.points[s]
            if s in o.winners:
                wins[b] += share
                by_deal[b][o.deal] = by_deal[b].get(o.deal, 0.0) + share
        present = [b for b in range(k) if count[b]]
        place = {b: place_sum[b] / count[b] for b in present}
        for b in present:
            seats_held[b] += count[b]
            rounds_in[b] += 1
            for c in present:
                if c != b:
                    met[b][c] += 1
                    ahead[b][c] += 1.0 if place[b] < place[c] else 0.5 if place[b] == place[c] else 0.0
        if len(present) > 1:
            rated = model.rate([[ratings[b]] for b in present], ranks=[place[b] for b in present])
            for b, team in zip(present, rated, strict=True):
                ratings[b] = team[0]
    total_rounds = len(outcomes)
    per_deal = total_rounds / deals if deals else 0
    standings: list[Standing] = []
    for b, spec in enumerate(specs):
        share = wins[b] / total_rounds if total_rounds else 0.0
        blocks = [by_deal[b].get(d, 0.0) / per_deal for d in range(deals)] if per_deal else []
        wilson95 = wilson(wins[b], total_rounds)
        if deals > 1 and statistics.pstdev(blocks) > 1e-12:
            ci = mean_ci(blocks, 0.0, 1.0)
        else:  # no spread to measure: each deal counts as one trial
            ci = wilson(share * deals, deals)
        standings.append(Standing(
            bot=spec, seat_share=seats_held[b] / (total_rounds * players) if total_rounds else 0.0,
            rounds=rounds_in[b], win_share=share, ci95=ci, wilson95=wilson95,
            mean_points=points[b] / seats_held[b] if seats_held[b] else 0.0,
            rating=Rating(ratings[b].mu, ratings[b].sigma)))
    standings.sort(key=lambda s: (-(s.win_share / s.seat_share if s.seat_share else 0.0),
                                  -s.rating.ordinal, specs.index(s.bot)))
    h2h = tuple(tuple(ahead[a][b] / met[a][b] if met[a][b] else None for b in range(k))
                for a in range(k))
    return TournamentResult(
        rules=rules.name, title=rules.title, players=players, bots=tuple(specs), deals=deals,
        seed=seed, scoring=rules.scoring,
        assignments=tuple(seat_assignments(k, players, seats)), outcomes=tuple(outcomes),
        standings=tuple(standings), head_to_head=h2h, seconds=seconds)


# --------------------------------------------------------------------------- the tournament


def _check_bots(bots: Sequence[str], players: int) -> list[str]:
    specs = [b.strip() for b in bots]
    if not specs or any(not s for s in specs):
        raise ValueError("give the bots as a comma-separated list, e.g. greedy,random")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} players; give at most {players} "
                         "bots, or more players (--players)")
    seen: dict[tuple[str, tuple[tuple[str, Any], ...]], str] = {}
    for spec in specs:
        name, options = parse_bot_spec(spec)
        key = (name, tuple(sorted(options.items())))
        if key in seen:
            raise ValueError(f"bot {spec!r} is listed twice (as {seen[key]!r}); give each bot "
                             "once, options make two bots differ (ismcts:time=0.5,ismcts:time=1)")
        seen[key] = spec
        make_bot(spec)  # unknown bot, bad options: ValueError naming them
    return specs


def tournament(
    rules: str | Rules,
    players: int | None = None,
    bots: Sequence[str] = ("greedy", "random"),
    deals: int = 100,
    *,
    jobs: int | None = None,
    ray: str | None = None,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play a duplicate tournament and summarise it (see the module docstring).

    ``bots`` are bot specs (:func:`~eights.bots.make_bot`), at most one per
    seat; ``seats`` optionally gives how many seats each bot holds (see
    :func:`seat_assignments`); ``jobs`` worker processes play the deals (1 or ``None``: this
    process), or with ``ray`` (``"local"``, ``"auto"`` or a cluster's ``host:port``) Ray
    tasks, ``jobs`` at a time (``None``: one per CPU of the cluster; see
    :func:`eights.lab.parallel.workers`). ``on_progress(done, total)`` is called with the
    rounds played so far and in all as each round (in this process) or each unit of the
    workers is done. Raises :class:`ValueError` for bad arguments,
    :class:`~eights.engine.errors.RulesError` for bad rules or player counts and
    :class:`~eights.lab.parallel.WorkersError` when Ray is missing or unreachable.
    """
    rules_obj = load_rules(rules)
    n = rules_obj.default_players if players is None else players
    rules_obj.check_players(n)
    if deals < 1:
        raise ValueError(f"deals must be 1 or more, not {deals}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    specs = tuple(_check_bots(bots, n))
    lineup = None if seats is None else tuple(seats)
    replays = len(seat_assignments(len(specs), n, lineup))  # a lineup that does not fit: ValueError
    factories = {name: BOTS[name] for name in {parse_bot_spec(s)[0] for s in specs}}
    job = _Job(rules_obj, n, specs, seed, lineup, factories)
    total = deals * replays
    start = time.perf_counter()
    with workers(jobs, ray) as pool:
        units = _units(deals, replays, 1 if pool.in_process else pool.concurrency)
        batches = pool.run(_play_unit, job, units, size=len, progress=None if on_progress is None
                           else lambda done: on_progress(done, total))
    outcomes = [o for batch in batches for o in batch]
    outcomes.sort(key=lambda o: (o.deal, o.assignment))
    return summarise(rules_obj, n, specs, deals, seed, outcomes, time.perf_counter() - start,
                     lineup)


# --------------------------------------------------------------------------- the table


def _count(n: int, word: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _pct(ci: Sequence[float]) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def standings_table(result: TournamentResult) -> str:
    """The standings and head-to-head as a plain-text table."""
    rounds = len(result.outcomes)
    replays = len(result.assignments)
    width = max(6, *(len(b) for b in result.bots))
    lines = [
        f"{result.title}, {result.players} players: {_count(result.deals, 'deal')} x "
        f"{_count(replays, 'seating')} = {_count(rounds, 'round')}, seed {result.seed} "
        f"({result.seconds:.1f}s)",
        "",
        f"{'bot':<{width}}  seats  win share  (level)  per seat  95% CI (deals)  points/round  "
        f"rating mu ± sigma  ordinal",
    ]
    for s in result.standings:
        lines.append(
            f"{s.bot:<{width}}  {s.seat_share:>5.0%}  {s.win_share:>9.3f}  {s.seat_share:>7.3f}  "
            f"{s.win_share / s.seat_share if s.seat_share else 0.0:>8.2f}  {_pct(s.ci95):<14}  "
            f"{s.mean_points:>12.2f}  {s.rating.mu:>7.2f} ± {s.rating.sigma:<7.2f}  "
            f"{s.rating.ordinal:>7.2f}")
    blocked = sum(o.blocked for o in result.outcomes)
    past = sum(o.past_script for o in result.outcomes)
    lines += [
        "",
        *textwrap.wrap(
            "win share: the share of the rounds a bot won; (level): the share it would win by "
            f"chance, the seats it held ({1 / result.players:.3f} for one seat in "
            f"{result.players}: level with the others).", 100),
        *textwrap.wrap(
            "Order: by win share per seat held (win share / seats; 1.00 wins as often as the "
            "seats would by chance), then by rating ordinal where that ties. The rating weighs "
            "every finishing place, not only wins, and its ordinal (mu - 3 sigma) is cautious; "
            "the head-to-head counts only the rounds two bots played together: either may "
            "order two bots differently.", 100),
        *textwrap.wrap(
            f"points: {result.scoring.value} scoring, {result.points_better} is better. "
            f"Blocked rounds: {blocked}. Rounds whose stock ran out and was rebuilt from the "
            f"discard pile, so that later draws differed between the seatings (luck not fully "
            f"shared): {past}.", 100),
        "95% CI: t interval over deals (a deal's replays share their cards: one block); "
        "rating: openskill Plackett-Luce, ordinal = mu - 3 sigma.",
        "",
        "head to head (row finished ahead of column, ties half):",
        " " * width + "".join(f"  {b:>{width}}" for b in result.bots),
    ]
    for a, row in zip(result.bots, result.head_to_head, strict=True):
        cells = "".join(f"  {'—' if v is None else f'{v:.3f}':>{width}}" for v in row)
        lines.append(f"{a:<{width}}{cells}")
    return "\n".join(lines)
