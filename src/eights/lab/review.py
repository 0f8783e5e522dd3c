"""The review of a record: every decision of a seat valued by the search, and marked.

For each decision of the reviewed seat where there was a choice (two legal actions or
more), the record is replayed up to that moment and the seat's observation is taken
(:meth:`~eights.engine.game.Game.observe`): its hand, the public history, the counts.
The search (:meth:`eights.bots.ismcts.ISMCTSBot.evaluate`) then plays every legal action
in the same sampled worlds, dealt from that observation alone; the other hands, the
order of the stock and the moves after the decision, though the record holds them all,
are never read. Each action gets its chance of winning the round (its team's, in team
games) with an interval, and its expected points where the rules score.

The played action's **loss** is the best action's win chance minus its own (paired: both
were played in the same worlds, with the same draws after them). Its **mark** comes from
the loss it surely has, the loss less :data:`Z` standard errors of the paired difference
(so that a loss the worlds cannot tell from noise is not blamed), against
:data:`BEST` and :data:`THRESHOLDS` (chosen from measurements, docs/bots.md):

==============  =========================================================
``best``        at most :data:`BEST` (0.02 of win chance)
``good``        at most ``good`` (0.03)
``inaccuracy``  at most ``inaccuracy`` (0.10)
``mistake``     at most ``mistake`` (0.20)
``blunder``     more
==============  =========================================================

A seat's **accuracy** is the share of its reviewed decisions marked ``best`` or
``good``; its **mean loss** the mean of the losses.

Every decision's worlds come from a generator seeded by the review's seed, the
round, the turn and the seat only, so a review is the same for the same seed
whatever else the record holds (a record cut right after the decision, another deal
that gives the seat the same observation), and whichever order the decisions are
reviewed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eights.bots.ismcts import ISMCTSBot
from eights.engine.actions import Action
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.record import Record, replay
from eights.engine.rules import Scoring

__all__ = [
    "BEST",
    "MARKS",
    "QUALITIES",
    "THRESHOLDS",
    "ActionValue",
    "Decision",
    "Position",
    "Review",
    "ReviewError",
    "SeatReview",
    "Z",
    "evaluate_position",
    "mark_of",
    "people_seats",
    "positions",
    "review",
    "review_seats",
]

MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The marks of a decision, from the best to the worst."""

QUALITIES: dict[str, int] = {"fast": 1000, "normal": 4000, "deep": 16000}
"""Worlds sampled per decision at each quality (every legal action is played in each)."""

BEST = 0.02
"""A played action that surely loses at most this much win chance is marked ``best``."""
THRESHOLDS: dict[str, float] = {"good": 0.03, "inaccuracy": 0.10, "mistake": 0.20}
"""The largest loss (in win chance, 0 to 1) of each mark; above ``mistake``, a blunder."""
Z = 1.5
"""The standard errors of the paired difference taken off a loss before it is marked."""
INTERVAL = 1.96
"""Standard errors either side of a win chance in its interval (95%)."""


class ReviewError(ValueError):
    """A review that cannot be made as asked (a seat or round that is not in the record)."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action of a decision, as the search values it."""

    action: Action
    win: float
    """Chance of winning the round (the team's in team games), 0 to 1."""
    low: float
    high: float
    """The interval of :attr:`win` (95%), within [0, 1]."""
    points: float | None
    """Expected round points, signed so that more is better for the seat (``None`` where the
    rules score no points: a round won is all there is)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": str(self.action), "win": round(self.win, 4),
                                "low": round(self.low, 4), "high": round(self.high, 4)}
        if self.points is not None:
            data["points"] = round(self.points, 2)
        return data


@dataclass(frozen=True, slots=True)
class Position:
    """A decision of a record, as the seat saw it when it made it."""

    round: int
    """The round, from 1."""
    turn: int
    """The action's index in its round's ``actions`` (from 0, as ``eights replay --trace``)."""
    observation: Observation
    """What the seat could see then (its legal actions included)."""
    played: Action

    @property
    def seat(self) -> int:
        return self.observation.seat


@dataclass(frozen=True, slots=True)
class Decision:
    """A reviewed decision: every legal action's value, the played one's loss and mark."""

    position: Position
    actions: tuple[ActionValue, ...]
    """Every legal action, best first."""
    played: ActionValue
    best: ActionValue
    loss: float
    """The best action's win chance minus the played one's (0 when the best was played)."""
    loss_se: float
    """The standard error of :attr:`loss` (of the paired difference)."""
    mark: str
    worlds: int

    @property
    def seat(self) -> int:
        return self.position.seat

    @property
    def round(self) -> int:
        return self.position.round

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def observation(self) -> Observation:
        return self.position.observation

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "turn": self.turn, "played": str(self.played.action),
                "best": str(self.best.action), "loss": round(self.loss, 4), "mark": self.mark,
                "actions": [a.to_json() for a in self.actions]}


@dataclass(frozen=True, slots=True)
class SeatReview:
    """Every reviewed decision of one seat, and its summary."""

    seat: int
    decisions: tuple[Decision, ...]

    @property
    def accuracy(self) -> float:
        """Share of the decisions marked ``best`` or ``good`` (1 when there were none)."""
        if not self.decisions:
            return 1.0
        return sum(d.mark in ("best", "good") for d in self.decisions) / len(self.decisions)

    @property
    def mean_loss(self) -> float:
        if not self.decisions:
            return 0.0
        return sum(d.loss for d in self.decisions) / len(self.decisions)

    def counts(self) -> dict[str, int]:
        """How many decisions got each mark."""
        return {m: sum(d.mark == m for d in self.decisions) for m in MARKS}

    def worst(self, k: int = 3) -> list[Decision]:
        """The ``k`` largest mistakes (inaccuracies and worse), the largest loss first."""
        bad = [d for d in self.decisions if MARKS.index(d.mark) >= MARKS.index("inaccuracy")]
        return sorted(bad, key=lambda d: (-d.loss, d.round, d.turn))[:k]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "accuracy": round(self.accuracy, 4),
                "mean_loss": round(self.mean_loss, 4),
                "decisions": [d.to_json() for d in self.decisions]}


@dataclass(frozen=True, slots=True)
class Review:
    """The review of some seats of a record."""

    seats: tuple[SeatReview, ...]
    quality: str
    worlds: int
    seed: int

    def seat(self, seat: int) -> SeatReview:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def to_json(self) -> dict[str, Any]:
        return {"seats": [s.to_json() for s in self.seats]}


def mark_of(loss: float, se: float) -> str:
    """The mark of a decision that lost ``loss`` win chance to the best, with standard
    error ``se`` (see the module text).

    >>> mark_of(0.0, 0.0), mark_of(0.04, 0.005), mark_of(0.2, 0.15), mark_of(0.25, 0.01)
    ('best', 'inaccuracy', 'best', 'blunder')
    """
    sure = loss - Z * se
    if sure <= BEST:
        return "best"
    for mark in ("good", "inaccuracy", "mistake"):
        if sure <= THRESHOLDS[mark]:
            return mark
    return "blunder"


def _seats_of(record: Record, seats: Sequence[int] | None) -> tuple[int, ...]:
    if seats is None:
        return tuple(range(record.players))
    for seat in seats:
        if not 0 <= seat < record.players:
            raise ReviewError(f"seat {seat} is not at this table; seats are 0 to "
                              f"{record.players - 1}")
    return tuple(sorted(set(seats)))


def positions(record: Record, seats: Sequence[int] | None = None,
              rounds: Sequence[int] | None = None) -> list[Position]:
    """The decisions of ``seats`` (default: all) in ``rounds`` (numbers from 1; default:
    all) where the seat had a choice, each with the seat's observation then.

    Raises :class:`ReviewError` for a seat or round not in the record, and the replay's
    errors (:class:`~eights.engine.errors.RecordError`, ``ReplayError``) for a record
    that does not replay.
    """
    wanted = set(_seats_of(record, seats))
    if rounds is not None:
        for r in rounds:
            if not 1 <= r <= len(record.rounds):
                raise ReviewError(f"round {r} is not in the record; it has rounds 1 to "
                                  f"{len(record.rounds)}")
    keep = None if rounds is None else set(rounds)
    found: list[Position] = []

    def before(game: Game, r: int, i: int, action: Action) -> None:
        if game.over or (keep is not None and r + 1 not in keep):
            return
        seat = game.to_move
        if seat not in wanted or len(game.legal) < 2 or action not in game.legal:
            return  # no choice (or an illegal action, which replay reports next)
        found.append(Position(r + 1, i, game.observe(seat), action))

    replay(record, before)
    return found


def _decision_rng(seed: int, position: Position) -> random.Random:
    """The generator of one decision's worlds: from the seed and where the decision is."""
    return random.Random(f"eights-review/1:{seed}:{position.round}:{position.turn}:"
                         f"{position.seat}")


def _scores(position: Position) -> bool:
    return position.observation.rules.scoring is not Scoring.ROUNDS_WON


def evaluate_position(position: Position, worlds: int, seed: int = 0,
                      bot: ISMCTSBot | None = None) -> Decision:
    """Review one decision: every legal action played in ``worlds`` worlds sampled from the
    seat's observation (by ``bot``'s options; default the search's)."""
    if worlds < 2:
        raise ReviewError(f"a review samples 2 worlds or more per decision, not {worlds}")
    search = bot if bot is not None else review_bot()
    seen = position.observation
    legal = list(seen.legal)
    ev = search.evaluate(seen, legal, _decision_rng(seed, position), worlds)
    scores = _scores(position)
    values: list[ActionValue] = []
    for i, action in enumerate(ev.actions):
        win, se = ev.win(i), ev.win_se(i)
        values.append(ActionValue(action, win, max(0.0, win - INTERVAL * se),
                                  min(1.0, win + INTERVAL * se),
                                  ev.mean_points(i) if scores else None))
    order = sorted(range(len(values)), key=lambda i: (-values[i].win, i))
    best = order[0]
    mine = list(ev.actions).index(position.played)
    if mine == best:
        loss, se = 0.0, 0.0
    else:
        loss, se = ev.paired(best, mine)
        loss = max(0.0, loss)
    return Decision(position, tuple(values[i] for i in order), values[mine], values[best],
                    loss, se, mark_of(loss, se), worlds)


def review_bot() -> ISMCTSBot:
    """The search a review evaluates with: its default options (bands of the opponents'
    hands read from their moves, every seat played by the expert after the action, no
    tree, in compiled code where it can: docs/bots.md, *What a value means*)."""
    return ISMCTSBot(iterations=1)


Progress = Callable[[int, int], None]


def review_seats(found: Sequence[Position], seats: Sequence[int], *, quality: str = "normal",
                 seed: int = 0, worlds: int | None = None, bot: ISMCTSBot | None = None,
                 on_progress: Progress | None = None) -> Review:
    """Review the decisions ``found`` (from :func:`positions`), grouped by seat."""
    count = _worlds(quality, worlds)
    search = bot if bot is not None else review_bot()
    done: dict[int, list[Decision]] = {s: [] for s in seats}
    total = len(found)
    if on_progress is not None:
        on_progress(0, total)
    for k, position in enumerate(found):
        done.setdefault(position.seat, []).append(
            evaluate_position(position, count, seed, search))
        if on_progress is not None:
            on_progress(k + 1, total)
    return Review(tuple(SeatReview(s, tuple(done[s])) for s in sorted(done)), quality, count,
                  seed)


def _worlds(quality: str, worlds: int | None) -> int:
    if worlds is not None:
        if worlds < 2:
            raise ReviewError(f"a review samples 2 worlds or more per decision, not {worlds}")
        return worlds
    if quality not in QUALITIES:
        raise ReviewError(f"quality {quality!r} is not one of {', '.join(QUALITIES)}")
    return QUALITIES[quality]


def review(record: Record, seats: Sequence[int] | None = None, *, quality: str = "normal",
           seed: int = 0, rounds: Sequence[int] | None = None, worlds: int | None = None,
           bot: ISMCTSBot | None = None, on_progress: Progress | None = None) -> Review:
    """Review the decisions of ``seats`` (default: every seat) in ``rounds`` (default: all)
    of ``record``: ``quality`` (:data:`QUALITIES`) or ``worlds`` sets the worlds per
    decision, ``seed`` the worlds themselves; ``on_progress(done, total)`` is told after
    each decision."""
    chosen = _seats_of(record, seats)
    _worlds(quality, worlds)  # a bad quality is refused before the replay
    found = positions(record, chosen, rounds)
    return review_seats(found, chosen, quality=quality, seed=seed, worlds=worlds, bot=bot,
                        on_progress=on_progress)


def people_seats(meta: Mapping[str, Any], players: int) -> list[int]:
    """The seats a record's ``meta`` says people held (``"player": "human"``), else ``[0]``."""
    raw = meta.get("seats")
    if isinstance(raw, list) and len(raw) == players:
        humans = [i for i, s in enumerate(raw)
                  if isinstance(s, Mapping) and s.get("player", "human") == "human"]
        if humans:
            return humans
    return [0]
