"""The review of a record: every decision of a seat valued by the search, and marked.

For each decision of the reviewed seat where there was a choice (two legal actions or
more: a forced move is never reviewed), the record is replayed up to that moment and
the seat's observation is taken (:meth:`~eights.engine.game.Game.observe`): its hand,
the public history, the counts. The search (:meth:`eights.bots.ismcts.ISMCTSBot.evaluate`)
then plays every legal action in the same sampled worlds, dealt from that observation
alone; the other hands, the order of the stock and the moves after the decision, though
the record holds them all, are never read. Each action gets its **value**: its chance of
winning the round (its team's, in team games) when every player goes on playing as the
search's evaluation plays (docs/bots.md, *What a value means*), with its standard error,
and its expected points where the rules score.

**Lines.** The actions are listed best first, in lines: actions that nothing tells apart
share a line (:func:`alike`: wild cards of one rank naming the same suit, whose rules,
points and lists are the same, with values within the noise of each other). A line whose
loss to the best is within the noise (at most :attr:`MarkRule.z` standard errors of the
paired difference) is **as good as the best**: it shares the best's rank, and hints and
reviews show it as a tie.

**The loss.** The played action's loss is the best action's win chance minus its own
(paired: both were played in the same worlds, with the same draws after them). Its mark
(:func:`mark_of`, by the rule :data:`RULE`):

==============  =========================================================================
``best``        the best action (or one that nothing tells apart from it)
``equal``       as good as the best: its loss is within the noise
``good``        the loss it surely has weighs at most :attr:`MarkRule.good`
``inaccuracy``  at most :attr:`MarkRule.inaccuracy`
``mistake``     at most :attr:`MarkRule.mistake`
``blunder``     more
==============  =========================================================================

The loss it surely has is the loss less ``z`` standard errors (noise is not blamed on the
player). It is **weighed by what was at stake** (:data:`MEASURES`, :data:`RULE`): counted
as itself where the best move wins 30% of the time or more, and as a share of the best
move's chance below that, so that a player far behind can still be seen to err (the
measurements behind the rule and its thresholds: docs/bots.md, *Measurements behind the
marks*).

A seat's **accuracy** is the share of its reviewed decisions marked ``best``, ``equal``
or ``good``; its **mean loss** the mean of the losses, in win chance.

Every decision's worlds come from a generator seeded by the review's seed, the
round, the turn and the seat only, so a review is the same for the same seed
whatever else the record holds (a record cut right after the decision, another deal
that gives the seat the same observation), and whichever order the decisions are
reviewed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eights.bots.ismcts import Evaluation, ISMCTSBot
from eights.engine.actions import Action, Kind
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.record import Record, replay
from eights.engine.rules import GoingOut, Rules, Scoring

__all__ = [
    "MARKS",
    "MEASURES",
    "QUALITIES",
    "RULE",
    "RULES",
    "ActionValue",
    "Decision",
    "Line",
    "MarkRule",
    "Options",
    "Position",
    "Review",
    "ReviewError",
    "SeatReview",
    "alike",
    "decision_rng",
    "evaluate_options",
    "evaluate_position",
    "mark_of",
    "people_seats",
    "positions",
    "review",
    "review_seats",
]

MARKS = ("best", "equal", "good", "inaccuracy", "mistake", "blunder")
"""The marks of a decision, from the best to the worst (``equal``: as good as the best)."""
FINE = ("best", "equal", "good")
"""The marks that count towards accuracy."""

QUALITIES: dict[str, int] = {"fast": 1000, "normal": 4000, "deep": 16000}
"""Worlds sampled per decision at each quality (every legal action is played in each)."""

INTERVAL = 1.96
"""Standard errors either side of a win chance in its interval (95%)."""

MEASURES = ("win", "share", "odds", "spread")
"""How a rule weighs the loss a move surely has (``sure``, in win chance) by what was at
stake: ``win``, not at all (the loss itself); ``share``, as a share of the best action's
chance, ``sure * cap / best`` with the best's chance kept within ``[floor, cap]`` (with
``cap`` 1, the share itself; with a smaller ``cap``, the loss itself where the best's
chance is ``cap`` or more, and that much larger as the chance is smaller); ``odds``, in
log-odds (``logit(best) - logit(best - sure)``, chances kept within ``[floor, 1 -
floor]``); ``spread``, as a share of the spread between the best and the worst action (at
least ``floor``)."""


@dataclass(frozen=True, slots=True)
class MarkRule:
    """How a played action's loss becomes its mark (see the module text)."""

    name: str
    measure: str
    """One of :data:`MEASURES`."""
    z: float
    """Standard errors of the paired difference taken off a loss before it is weighed; a
    loss within them is as good as the best."""
    good: float
    inaccuracy: float
    mistake: float
    """The largest weighed loss of each mark; above ``mistake``, a blunder."""
    floor: float = 0.0
    cap: float = 1.0
    """``share``: the best's chance from which a loss counts as itself (see
    :data:`MEASURES`)."""

    def __post_init__(self) -> None:
        if self.measure not in MEASURES:
            raise ValueError(f"mark rule {self.name!r}: measure {self.measure!r} is not one of "
                             f"{', '.join(MEASURES)}")
        if not 0 <= self.good <= self.inaccuracy <= self.mistake:
            raise ValueError(f"mark rule {self.name!r}: thresholds must rise: good "
                             f"{self.good}, inaccuracy {self.inaccuracy}, mistake "
                             f"{self.mistake}")

    def weigh(self, loss: float, se: float, best: float, worst: float) -> float:
        """The loss surely lost (``loss - z se``, at least 0), weighed by the stake: the best
        action's win chance ``best``, the worst's ``worst``.

        >>> RULES["absolute"].weigh(0.05, 0.01, 0.5, 0.3)
        0.035
        >>> round(RULES["share"].weigh(0.02, 0.0, 0.054, 0.0), 3)  # 3.4% against 5.4%
        0.37
        >>> round(RULE.weigh(0.02, 0.0, 0.054, 0.0), 3), RULE.weigh(0.02, 0.0, 0.5, 0.0)
        (0.111, 0.02)
        """
        sure = max(0.0, loss - self.z * se)
        if self.measure == "share":
            return sure * self.cap / min(self.cap, max(best, self.floor, 1e-9))
        if self.measure == "spread":
            return sure / max(best - worst, self.floor)
        if self.measure == "odds":
            low = max(self.floor, 1e-9)
            high = max(low, best)
            top = min(1 - low, high)
            kept = min(1 - low, max(low, best - sure))
            return max(0.0, _logit(top) - _logit(kept))
        return sure

    def grade(self, loss: float, se: float, best: float, worst: float) -> str:
        """The mark of an action that is not the best: ``equal`` within the noise, else by
        its weighed loss."""
        if loss <= self.z * se:
            return "equal"
        weighed = self.weigh(loss, se, best, worst)
        for mark, limit in (("good", self.good), ("inaccuracy", self.inaccuracy),
                            ("mistake", self.mistake)):
            if weighed <= limit:
                return mark
        return "blunder"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "measure": self.measure, "z": self.z, "floor": self.floor,
                "cap": self.cap, "thresholds": {"good": self.good, "inaccuracy": self.inaccuracy,
                               "mistake": self.mistake}}


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


RULES: dict[str, MarkRule] = {
    "stake": MarkRule("stake", "share", 1.5, 0.03, 0.10, 0.20, 0.02, 0.3),
    "absolute": MarkRule("absolute", "win", 1.5, 0.03, 0.10, 0.20),
    "share": MarkRule("share", "share", 1.5, 0.08, 0.25, 0.50, 0.02),
    "odds": MarkRule("odds", "odds", 1.5, 0.14, 0.40, 0.80, 0.02),
    "spread": MarkRule("spread", "spread", 1.5, 0.30, 0.60, 0.90, 0.10),
}
"""The rules measured (docs/bots.md, *Measurements behind the marks*): ``stake``, the one
reviews mark by; ``absolute``, the rule before it (the loss itself against bands of win
chance), under which a player far behind could not err; ``share``, ``odds`` and ``spread``,
the other ways of weighing the stake that were measured. ``benchmarks/review.py report
--rule NAME`` replays any of them on collected data, with any thresholds."""

RULE: MarkRule = RULES["stake"]
"""The rule reviews mark by: the loss less 1.5 standard errors, counted as itself where the
best move wins 30% of the time or more, and scaled by 0.3 over the best's chance below that
(the chance taken as 2% at least), against the bands 0.03 (good), 0.10 (inaccuracy) and
0.20 (mistake). Giving up 2 points of a 5.4% chance (3.4% left) weighs as 11 points, a
mistake (9.4 with 1.5 standard errors of 0.002 taken off: an inaccuracy); the same 2
points of a 50% chance weigh 2: a good move."""


def mark_of(played: int, wins: Sequence[float], losses: Sequence[tuple[float, float]],
            lines: Sequence[int] | None = None, rule: MarkRule = RULE) -> str:
    """The mark of action ``played`` among actions of win chances ``wins``, each with its
    paired loss to the best and that loss's standard error (``losses``, ``(0, 0)`` for the
    best), and its line (``lines``: alike actions share one; default, one line each).

    >>> mark_of(1, [0.5, 0.5], [(0, 0), (0.001, 0.01)])
    'equal'
    >>> mark_of(1, [0.054, 0.034], [(0, 0), (0.02, 0.002)])  # 3.4% against 5.4%: far behind
    'inaccuracy'
    >>> mark_of(1, [0.054, 0.034], [(0, 0), (0.02, 0.002)], rule=RULES["absolute"])
    'good'
    """
    line = list(range(len(wins))) if lines is None else list(lines)
    top = max(range(len(wins)), key=lambda i: (wins[i], -i))
    if line[played] == line[top]:
        return "best"
    if any(line[i] == line[played] and losses[i][0] <= rule.z * losses[i][1]
           for i in range(len(wins))):
        return "equal"
    loss, se = losses[played]
    return rule.grade(max(0.0, loss), se, wins[top], min(wins))


def alike(rules: Rules, a: Action, b: Action) -> bool:
    """Whether nothing in ``rules`` tells plays ``a`` and ``b`` apart: the same action, or
    one wild card each of the same rank, naming the same suit, both with or without the
    announcement, whose cards have the same rules (table, points, and place in every
    ``stack_with`` and ``cancelled_by`` list), and that cannot go out by suit (LC6). The
    suit of such a card is then never read: the named suit is followed, and the card
    kept plays the same later.

    >>> from eights.engine.rules import load_rules
    >>> alike(load_rules("classic"), Action.parse("8d=h"), Action.parse("8h=h"))
    True
    >>> alike(load_rules("classic"), Action.parse("8d=h"), Action.parse("8h=s"))
    False
    >>> alike(load_rules("black-jack"), Action.parse("Jc"), Action.parse("Js"))
    False
    """
    if a == b:
        return True
    if a.kind is not Kind.PLAY or b.kind is not Kind.PLAY or a.card is None or b.card is None:
        return False
    if a.suit is None or a.suit != b.suit or a.announce != b.announce \
            or len(a.cards) != 1 or len(b.cards) != 1:
        return False
    x, y = a.card, b.card
    if x.rank != y.rank or rules.rule_of(x) != rules.rule_of(y) \
            or rules.rule_of(x).going_out is GoingOut.SUIT:
        return False
    for rule in (*rules.cards.values(), *rules.card_tables.values()):
        for listed in (rule.stack_with, rule.cancelled_by):
            if (x in listed) != (y in listed):
                return False
    return True


class ReviewError(ValueError):
    """A review that cannot be made as asked (a seat or round that is not in the record)."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action of a decision, as the search values it."""

    action: Action
    win: float
    """Chance of winning the round (the team's in team games), 0 to 1."""
    se: float
    """The standard error of :attr:`win`."""
    low: float
    high: float
    """The interval of :attr:`win` (95%), within [0, 1]."""
    points: float | None
    """Expected round points, signed so that more is better for the seat (``None`` where the
    rules score no points: a round won is all there is)."""
    loss: float = 0.0
    """The best action's win chance minus this one's, paired (0 for the best)."""
    loss_se: float = 0.0
    """The standard error of :attr:`loss` (of the paired difference)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": str(self.action), "win": round(self.win, 4),
                                "se": round(self.se, 4), "low": round(self.low, 4),
                                "high": round(self.high, 4), "loss": round(self.loss, 4),
                                "loss_se": round(self.loss_se, 4)}
        if self.points is not None:
            data["points"] = round(self.points, 2)
        return data


@dataclass(frozen=True, slots=True)
class Line:
    """Actions that nothing tells apart (:func:`alike`), the best valued first, and their
    rank: 1 for the best and every line as good as it; lines within the noise of each
    other share a rank (1, 1, 3...)."""

    values: tuple[ActionValue, ...]
    rank: int

    @property
    def value(self) -> ActionValue:
        return self.values[0]

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(v.action for v in self.values)


@dataclass(frozen=True, slots=True)
class Options:
    """Every legal action of a decision valued in the same worlds, best first, in lines."""

    values: tuple[ActionValue, ...]
    lines: tuple[Line, ...]
    worlds: int

    def line_of(self, action: Action) -> int:
        """The index of the line that holds ``action``."""
        for k, line in enumerate(self.lines):
            if action in line.actions:
                return k
        raise KeyError(str(action))

    @property
    def best(self) -> ActionValue:
        return self.values[0]


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
    move: int = 0
    """The seat's own move in its round, from 1, forced moves counted (``your 5th move``);
    0 where it is not known (a hint: the decision being made)."""

    @property
    def seat(self) -> int:
        return self.observation.seat

    def to_json(self) -> dict[str, Any]:
        """What the seat saw, as a page draws it: its hand, the up-card, the suit to follow
        and the rank to match, every seat's card count, the stock, a draw waiting."""
        seen = self.observation
        return {"seat": seen.seat, "hand": [str(c) for c in seen.hand],
                "up_card": str(seen.up_card),
                "suit": None if seen.suit is None else seen.suit.letter,
                "rank": seen.rank.letter, "free": seen.free,
                "hand_sizes": list(seen.hand_sizes), "stock": seen.stock,
                "pending_draw": seen.pending_draw,
                "drawn": None if seen.drawn is None else str(seen.drawn)}


@dataclass(frozen=True, slots=True)
class Decision:
    """A reviewed decision: every legal action's value, the played one's loss and mark."""

    position: Position
    options: Options
    played: ActionValue
    best: ActionValue
    loss: float
    """The best action's win chance minus the played one's (0 when the best, or an action
    nothing tells apart from it, was played)."""
    loss_se: float
    """The standard error of :attr:`loss` (of the paired difference)."""
    mark: str
    worlds: int
    rule: MarkRule = RULE

    @property
    def actions(self) -> tuple[ActionValue, ...]:
        """Every legal action, best first."""
        return self.options.values

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every legal action in lines (see the module text), best first."""
        return self.options.lines

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
    def move(self) -> int:
        return self.position.move

    @property
    def observation(self) -> Observation:
        return self.position.observation

    def to_json(self) -> dict[str, Any]:
        lines = self.options.lines
        actions = []
        for k, line in enumerate(lines):
            actions += [v.to_json() | {"line": k, "rank": line.rank} for v in line.values]
        return {"round": self.round, "turn": self.turn, "move": self.move,
                "played": str(self.played.action), "best": str(self.best.action),
                "loss": round(self.loss, 4), "loss_se": round(self.loss_se, 4),
                "mark": self.mark, "position": self.position.to_json(), "actions": actions}


@dataclass(frozen=True, slots=True)
class SeatReview:
    """Every reviewed decision of one seat, and its summary."""

    seat: int
    decisions: tuple[Decision, ...]

    @property
    def accuracy(self) -> float:
        """Share of the decisions marked ``best``, ``equal`` or ``good`` (1 when there were
        none)."""
        if not self.decisions:
            return 1.0
        return sum(d.mark in FINE for d in self.decisions) / len(self.decisions)

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
        bad = [d for d in self.decisions if d.mark not in FINE]
        return sorted(bad, key=lambda d: (-d.loss, d.round, d.turn))[:k]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "accuracy": round(self.accuracy, 4),
                "mean_loss": round(self.mean_loss, 4), "counts": self.counts(),
                "decisions": [d.to_json() for d in self.decisions]}


@dataclass(frozen=True, slots=True)
class Review:
    """The review of some seats of a record."""

    seats: tuple[SeatReview, ...]
    quality: str
    worlds: int
    seed: int
    rule: MarkRule = RULE

    def seat(self, seat: int) -> SeatReview:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def to_json(self) -> dict[str, Any]:
        return {"quality": self.quality, "worlds": self.worlds, "seed": self.seed,
                "rule": self.rule.to_json(), "seats": [s.to_json() for s in self.seats]}


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
    moves: dict[tuple[int, int], int] = {}

    def before(game: Game, r: int, i: int, action: Action) -> None:
        if game.over or (keep is not None and r + 1 not in keep):
            return
        seat = game.to_move
        move = moves[(r, seat)] = moves.get((r, seat), 0) + 1
        if seat not in wanted or len(game.legal) < 2 or action not in game.legal:
            return  # no choice (or an illegal action, which replay reports next)
        found.append(Position(r + 1, i, game.observe(seat), action, move))

    replay(record, before)
    return found


def decision_rng(seed: int, position: Position) -> random.Random:
    """The generator of one decision's worlds: from the seed and where the decision is."""
    return random.Random(f"eights-review/1:{seed}:{position.round}:{position.turn}:"
                         f"{position.seat}")


def _scores(seen: Observation) -> bool:
    return seen.rules.scoring is not Scoring.ROUNDS_WON


def _within(ev: Evaluation, better: int, other: int, z: float) -> bool:
    """Whether action ``other`` is within the noise of action ``better``."""
    loss, se = ev.paired(better, other)
    return loss <= z * se


def _options(seen: Observation, ev: Evaluation, rule: MarkRule) -> Options:
    """The values of an evaluation in lines, ranked (see the module text)."""
    k = len(ev.actions)
    wins = [ev.win(i) for i in range(k)]
    order = sorted(range(k), key=lambda i: (-wins[i], i))
    top = order[0]
    scores = _scores(seen)
    values: dict[int, ActionValue] = {}
    for i in order:
        win, se = wins[i], ev.win_se(i)
        loss, loss_se = (0.0, 0.0) if i == top else ev.paired(top, i)
        values[i] = ActionValue(ev.actions[i], win, se, max(0.0, win - INTERVAL * se),
                                min(1.0, win + INTERVAL * se),
                                ev.mean_points(i) if scores else None, max(0.0, loss), loss_se)
    groups: list[list[int]] = []
    for i in order:
        home = next((g for g in groups if alike(seen.rules, ev.actions[g[0]], ev.actions[i])
                     and _within(ev, g[0], i, rule.z)), None)
        if home is None:
            groups.append([i])
        else:
            home.append(i)
    lines: list[Line] = []
    leader = top  # the first line of the rank being filled
    rank = 1
    for n, group in enumerate(groups):
        if n and not any(_within(ev, leader, i, rule.z) for i in group):
            leader, rank = group[0], n + 1
        lines.append(Line(tuple(values[i] for i in group), rank))
    return Options(tuple(values[i] for i in order), tuple(lines), ev.worlds)


def evaluate_options(observation: Observation, worlds: int, rng: random.Random,
                     bot: ISMCTSBot | None = None, rule: MarkRule = RULE) -> Options:
    """Every legal action of the seat's decision valued in ``worlds`` worlds sampled from
    ``observation`` alone (by ``bot``'s options; default the search's), in lines: what a
    hint shows."""
    if worlds < 2:
        raise ReviewError(f"a review samples 2 worlds or more per decision, not {worlds}")
    search = bot if bot is not None else review_bot()
    ev = search.evaluate(observation, list(observation.legal), rng, worlds)
    return _options(observation, ev, rule)


def evaluate_position(position: Position, worlds: int, seed: int = 0,
                      bot: ISMCTSBot | None = None, rule: MarkRule = RULE) -> Decision:
    """Review one decision: every legal action played in ``worlds`` worlds sampled from the
    seat's observation (by ``bot``'s options; default the search's), the played one
    marked by ``rule``."""
    options = evaluate_options(position.observation, worlds, decision_rng(seed, position),
                               bot, rule)
    lines = [options.line_of(v.action) for v in options.values]
    mine = next(k for k, v in enumerate(options.values) if v.action == position.played)
    mark = mark_of(mine, [v.win for v in options.values],
                   [(v.loss, v.loss_se) for v in options.values], lines, rule)
    played = options.values[mine]
    loss, se = (0.0, 0.0) if mark == "best" else (played.loss, played.loss_se)
    return Decision(position, options, played, options.best, loss, se, mark, worlds, rule)


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
                  seed, RULE)


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
