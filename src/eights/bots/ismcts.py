"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any preset.

Every iteration samples a world consistent with the bot's observation
(:func:`eights.bots.worlds.sample_world`: hand sizes, cards seen, and what the
opponents' draws and wild cards show they lack) and
plays it forward to the end of the round; the reward of each seat is its win
(shared by partners in les-huit) plus a little of the round's points.

What makes it play well (each measured in duplicate tournaments, see README):

- **Paired root.** Each sampled world is played once after *every* legal
  action, with the same generator for the draws that follow (common random
  numbers). The actions are compared on the same hidden cards and the same
  stock, so the luck of the deal cancels out of their difference; plain
  ISMCTS (UCB at the root, most visited action) compares them on different
  worlds and, in four-player games, needs many times the iterations to see
  through the noise.
- **Safe choice.** The search starts from the expert's choice
  (:class:`eights.bots.expert.ExpertBot`) and only plays another action when its
  paired advantage is significant (mean minus ``z`` standard errors above
  zero). Deviating on a noisy estimate loses more than it wins: greedy and
  expert play are close to best most of the time.
- **Racing.** Actions that clearly cannot beat the expert's choice stop
  being searched (``prune``), which halves the time of a decision and leaves
  the rollouts to the actions still in question.
- **The expert after the root** (``rollout=expert``, ``tree=none``, the defaults):
  after the action searched, every seat, the searcher's included, plays the expert
  (compiled: :mod:`eights.fast.expert`, proven equal to ``ExpertBot``) to the end of
  the round: flat Monte Carlo over the root with the strongest cheap policy. An
  action's value is then a stated quantity (docs/bots.md, *What a value means*): the
  chance of winning the round when everyone plays the expert after it.
- **Tree below the root** (``tree=own``, the default before the expert rollouts):
  the bot's own later decisions in a world are tree nodes chosen by UCB1 among the
  actions legal in that world (counting each child's availability, Cowling, Powley
  and Whitehouse 2012); opponents play the rollout policy (``tree=all`` makes them
  tree nodes chosen on their own rewards). Measured, the exploring tree makes the
  seat imagine itself playing worse than the policy (values biased low) and costs
  strength: ``rollout=greedy:tree=own:z=2:prune=1`` is the old search, kept reachable.

Options (``ismcts:time=0.5``, ``ismcts:iterations=2000:rollout=greedy``):

- ``iterations``: rollouts per decision; one world is played after every
  action still in the race, so a decision with ``k`` legal actions samples up
  to ``iterations / k`` worlds;
- ``time``: seconds per decision, counted in CPU time of the searching
  thread, so a busy machine (a tournament's other workers, a server's other
  tables) slows the search down but does not weaken it. The whole decision
  counts (the prior, the sampling), and no rollout is begun that would, at
  the mean pace so far, end past the budget (the world it belongs to is then
  left out). Given
  neither, the bot stops at 2000 rollouts or 1 second, whichever comes first;
  given ``iterations`` alone the search is reproducible for a seed;
- ``rollout``: how every seat plays after the root: ``expert`` (default: the
  expert's rules, :class:`~eights.bots.expert.ExpertBot` with its default weights, read
  off the sampled world and the public history), ``greedy`` (the greedy bot's rules) or
  ``random``;
- ``epsilon``: share of random moves in greedy rollouts (default 0; ``rollout=greedy``
  only);
- ``prior``: ``expert`` (default: the action to beat), ``learned`` (the
  learned bot's choice, :mod:`eights.bots.learned`, with the shipped model for the
  rules and player count: the family model, which plays every table, or a specialist)
  or ``none`` (play the action with the best mean);
- ``z``: how many standard errors an action must beat the prior by (default 1; 2
  before the expert's rollouts);
- ``prune``: every 4 worlds after the first 16, an action whose paired
  advantage is more than ``prune`` standard errors below zero leaves the race
  (default 2, 1 before; 0 searches every action to the end); when none is left the
  prior is played;
- ``tree``: ``none`` (default), ``own`` or ``all``, see above;
- ``c``: the exploration constant of the tree (default 0.7);
- ``points``: weight of the round's points in the reward (default 0.25);
- ``infer``: how worlds read the opponents' hands from their public moves:
  ``model`` (default: a player draws only when it cannot play and spends a
  wild card only when no plain card plays), ``rules`` (only what the rules
  make certain) or ``none`` (see :func:`eights.bots.worlds.hand_bands`);
- ``worlds``: how the unseen cards are dealt: ``bands`` (default: at random, within
  the bands ``infer`` reads, :func:`eights.bots.worlds.sample_world`) or ``belief``
  (each card by its probability under the belief model, :mod:`eights.bots.belief`,
  :func:`eights.bots.worlds.sample_weighted_world`; ``infer`` is then unused). The
  belief model is the one shipped for the rule set and player count, else the family
  belief model (every table: :func:`eights.bots.belief.shipped_for`), or ``belief``;
  it needs NumPy;
- ``belief``: the path of a belief model's ``.npz`` (one trained for a table with
  ``python -m eights.learn.belief``, or a family model);
- ``kernel``: where the search runs: ``auto`` (default: in compiled code,
  :mod:`eights.fast.search`, when numba is installed and the kernel plays the rules,
  else on the engine; on the engine too while ``eights play`` compiles the kernel in
  the background, :mod:`eights.fast.cache`, and compiled from the first decision
  after), ``on`` (compiled; an error where it cannot), ``off`` (the engine: the
  reference) or ``rollout`` (the search before it was compiled: worlds and tree on
  the engine, only the rollouts on the kernel, :mod:`eights.fast.world`). Compiled,
  a world is dealt, played after every action, its tree descended and its round
  played out on kernel states, several worlds a call, by the same algorithms as on
  the engine step for step (``tests/test_compiled_search.py``: the same deal for the
  same shuffle, the same iteration and tree for the same generator); its deals and
  draws come from its own generator, seeded from the search's, so a decision differs
  from the engine's world for world but not in distribution. Every path plays the
  same rollout policy (the kernel's ``greedy`` is
  :func:`~eights.bots.basic.greedy_choice`, choice for choice) and rewards a round
  alike (:func:`outcome_rewards`); the draws after every root action of a world come
  from a generator seeded with the same number, so the actions share their draws.
  numba is imported at the first decision that uses it;
- ``seed``: fixes the search's generator; by default it comes from the rng the
  game hands the bot, so a seeded game is reproducible with an iteration budget;
- ``see``: ``worlds`` (default: worlds dealt from the observation) or ``all``: every
  world is the true game, handed to the bot before each decision by
  :meth:`ISMCTSBot.show` (the ceiling of a search that sees every card, for
  ``benchmarks/search_match.py``; no front-end shows it a game, and a server's clients
  may not ask for it).
"""

from __future__ import annotations

import importlib.util
import math
import random
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from eights.bots.basic import greedy_choice
from eights.bots.expert import ExpertBot
from eights.bots.learned import LearnedBot
from eights.bots.worlds import (
    INFERENCES,
    Band,
    hand_bands,
    sample_weighted_world,
    sample_world,
    unseen_cards,
)
from eights.engine.actions import Action
from eights.engine.errors import RulesError
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.rules import Rules, Scoring

if TYPE_CHECKING:
    from eights.bots.belief import BeliefModel
    from eights.fast.world import PlayOuts

__all__ = [
    "BATCHES",
    "KERNELS",
    "ROLLOUTS",
    "SEES",
    "ActionEstimate",
    "Evaluation",
    "ISMCTSBot",
    "outcome_rewards",
    "reward_scale",
    "round_rewards",
    "round_win",
]


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def round_rewards(game: Game, scale: float, points: float = 0.5) -> list[float]:
    """Reward of each seat for a finished round: mostly the win, partly the points
    (:func:`outcome_rewards` of the game's points and winners)."""
    return outcome_rewards(game.rules, game.round_points or [0] * game.n,
                           game.round_winners or (), scale, points)


def outcome_rewards(rules: Rules, got: Sequence[int], winners: Sequence[int], scale: float,
                    points: float = 0.5) -> list[float]:
    """Reward of each seat for a round that ended with these points (one a seat) and
    winners, whether the engine or the kernel played it.

    A round win (shared when several seats win, as partners do) is worth 1;
    the round's points, over ``scale`` and clipped to [-1, 1], move it by up to
    ``points``, in the direction the scoring mode rewards.
    """
    share = 1.0 / len(winners) if winners else 0.0
    won = [share if s in winners else 0.0 for s in range(len(got))]
    if not points:
        return won
    # own-hand points and placings (TS12) are penalties: fewer is better
    sign = -1.0 if rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS) else 1.0
    return [won[s] + points * max(-1.0, min(1.0, sign * got[s] / scale))
            for s in range(len(got))]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal action of one decision played in the same sampled worlds (paired, common
    random numbers for the draws after the action), from one seat's observation only:
    :meth:`ISMCTSBot.evaluate`.

    The standard errors are those of means over independent worlds where the worlds are
    independent (``tree=none``: every world is dealt and played afresh). Where a tree
    grows over the worlds (``tree=own``, ``all``), a world's play depends on the worlds
    before it, and the spread of single worlds understates the error; the errors are
    then those of the means of :data:`BATCHES` consecutive batches of worlds."""

    actions: tuple[Action, ...]
    wins: tuple[tuple[float, ...], ...]
    """Per world, per action: the seat's win of the round, in [0, 1]: its team's in team
    games (partners win together), a win shared with ``k`` winners of other teams (a tie)
    counting ``1/k`` as in :func:`outcome_rewards`."""
    points: tuple[tuple[float, ...], ...]
    """Per world, per action: the seat's round points, signed so that more is better for the
    seat (``own-hand`` points and placings negated), unscaled (0 where the rules do not
    score)."""
    independent: bool = True
    """Whether the worlds are independent draws (no tree shared between them)."""

    @property
    def worlds(self) -> int:
        """The number of worlds every action was played in."""
        return len(self.wins)

    @property
    def best(self) -> int:
        """The index of the action with the highest :meth:`win` (the first of equals)."""
        return max(range(len(self.actions)), key=lambda i: (self.win(i), -i))

    def win(self, i: int) -> float:
        """Action ``i``'s mean win over the worlds."""
        return _mean([w[i] for w in self.wins])

    def win_se(self, i: int) -> float:
        """The standard error of :meth:`win` (0 with one world)."""
        return self._se([w[i] for w in self.wins])

    def paired(self, i: int, j: int) -> tuple[float, float]:
        """Action ``i``'s mean win minus action ``j``'s, world by world, and its standard
        error: the paired difference, the luck of the deal cancelled."""
        diffs = [w[i] - w[j] for w in self.wins]
        return _mean(diffs), self._se(diffs)

    def mean_points(self, i: int) -> float:
        """Action ``i``'s mean signed points over the worlds."""
        return _mean([p[i] for p in self.points])

    def points_se(self, i: int) -> float:
        """The standard error of :meth:`mean_points`."""
        return self._se([p[i] for p in self.points])

    def values(self) -> tuple[ActionEstimate, ...]:
        """Every action's value, in the order of :attr:`actions`: its win and points with
        their standard errors, and its paired difference from the :attr:`best` action."""
        best = self.best
        out = []
        for i, action in enumerate(self.actions):
            gap, gap_se = (0.0, 0.0) if i == best else self.paired(best, i)
            out.append(ActionEstimate(action, self.win(i), self.win_se(i), self.mean_points(i),
                                   self.points_se(i), gap, gap_se))
        return tuple(out)

    def _se(self, xs: Sequence[float]) -> float:
        return _se(xs) if self.independent else _batch_se(xs)


@dataclass(frozen=True, slots=True)
class ActionEstimate:
    """One action of an :class:`Evaluation`, summed up (:meth:`Evaluation.values`)."""

    action: Action
    win: float
    """The seat's chance of winning the round after it (its team's), 0 to 1."""
    win_se: float
    points: float
    """The seat's expected round points after it, signed so that more is better (0 where
    the rules score no points)."""
    points_se: float
    gap: float
    """The best action's win less this one's, world by world (0 for the best)."""
    gap_se: float
    """The standard error of :attr:`gap` (the paired difference's)."""


BATCHES = 16
"""Batches of consecutive worlds whose means give the standard errors of an evaluation whose
worlds share a tree (:meth:`Evaluation.win_se`)."""


def _batch_se(xs: Sequence[float]) -> float:
    """The standard error of the mean of ``xs`` from the means of :data:`BATCHES` batches of
    consecutive values (fewer for fewer than two values a batch)."""
    n = len(xs)
    b = min(BATCHES, n // 2)
    if b < 2:
        return _se(xs)
    means = [_mean(xs[i * n // b:(i + 1) * n // b]) for i in range(b)]
    return _se(means)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _se(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = sum(xs) / n
    return math.sqrt(max(0.0, sum((x - m) ** 2 for x in xs) / (n - 1)) / n)


def reward_scale(seen: Observation) -> float:
    """The points that count as a whole win in the search's reward (:func:`outcome_rewards`'s
    ``scale``): a typical round's points for these rules and players."""
    scoring = seen.rules.scoring
    if scoring is Scoring.PLACINGS:  # TS12: 0 to n - 1 a round
        return max(1.0, seen.players - 1.0)
    if scoring is Scoring.ROUNDS_WON:  # SW11: 1 a round won, the win itself
        return 1.0
    points = seen.rules.points
    typical = sum(points.values()) / max(1, len(points))
    return max(1.0, typical * 6 * max(1, seen.players - 1))



def round_win(rules: Rules, players: int, seat: int, winners: Sequence[int]) -> float:
    """The share of a round's win that falls to ``seat``: its team's where partners play
    (partners win together: 1), ``1/k`` of a win shared by ``k`` winning seats (or
    teams: a tie), 0 for a round lost (the ``wins`` of :class:`Evaluation`)."""
    if not winners:
        return 0.0
    if rules.has_teams(players):
        return sum(1 for s in winners if s % 2 == seat % 2) / len(winners)
    return (1.0 if seat in winners else 0.0) / len(winners)


@dataclass(frozen=True, slots=True)
class _Outcome:
    """A round played to its end from a world: points, winners, each seat's reward."""

    points: tuple[int, ...]
    winners: tuple[int, ...]
    rewards: list[float]


class _Worlds:
    """The per-world code of one decision, shared by :meth:`ISMCTSBot.choose` and
    :meth:`ISMCTSBot.evaluate`: each call of :meth:`play` samples a world from the
    observation and plays it after some of the legal actions, with the same draws after
    each (one tree below each action, grown over the worlds)."""

    def __init__(self, iterate: Callable[..., _Outcome], seen: Observation, legal: Sequence[Action],
                 playouts: PlayOuts | None, bands: dict[int, list[Band]] | None,
                 probs: list[list[float]], seats: tuple[int, ...],
                 truth: Game | None = None) -> None:
        self.iterate = iterate
        self.truth = truth
        self.seen = seen
        self.legal = legal
        self.playouts = playouts
        self.bands = bands
        self.probs = probs
        self.seats = seats
        self.scale = reward_scale(seen)
        self.roots = [_Node() for _ in legal]

    def play(self, search: random.Random, tried: Sequence[int], deadline: float | None,
             pace: float) -> list[float] | None:
        """Sample a world with ``search`` and play it after each action of ``tried`` (indices
        into the legal actions): the observer's reward after each; ``None`` when the
        thread's CPU clock, at ``pace`` seconds a rollout, would pass ``deadline`` (the world
        is then left unfinished)."""
        outcomes = self._world(search, tried, deadline, pace)
        if outcomes is None:
            return None
        return [outcome.rewards[self.seen.seat] for outcome in outcomes]

    def outcomes(self, search: random.Random, worlds: int) -> tuple[
            tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
        """``worlds`` worlds, each played after every legal action: per world, per action,
        the observer's win (:func:`round_win`) and signed points (:class:`Evaluation`)."""
        seen = self.seen
        rules, players, me = seen.rules, seen.players, seen.seat
        sign = -1.0 if rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS) else 1.0
        tried = list(range(len(self.legal)))
        wins: list[tuple[float, ...]] = []
        points: list[tuple[float, ...]] = []
        for _ in range(worlds):
            results = self._world(search, tried, None, 0.0)
            assert results is not None  # no deadline: every world is finished
            wins.append(tuple(round_win(rules, players, me, result.winners)
                              for result in results))
            points.append(tuple(sign * result.points[me] for result in results))
        return tuple(wins), tuple(points)

    def _world(self, search: random.Random, tried: Sequence[int], deadline: float | None,
               pace: float) -> list[_Outcome] | None:
        seen = self.seen
        world = (self.truth.clone(search) if self.truth is not None
                 else sample_world(seen, search, self.bands) if self.bands is not None
                 else sample_weighted_world(seen, search, self.probs, self.seats))
        draws = search.getrandbits(64)
        out: list[_Outcome] = []
        for i in tried:
            if deadline is not None and _time.thread_time() + 2 * pace >= deadline:
                return None
            play = random.Random(draws)  # the same draws after every action
            game = world.clone(play)
            game.push(self.legal[i])
            out.append(self.iterate(self.roots[i], game, play, self.scale, seen.seat,
                                    self.playouts, draws))
        return out



class _CompiledWorlds:
    """The per-world code of one decision in compiled code
    (:class:`eights.fast.search.CompiledWorlds`): the same worlds, descent and rollouts as
    :class:`_Worlds`, dealt and played on kernel states, several worlds a call."""

    def __init__(self, bot: ISMCTSBot, seen: Observation, legal: Sequence[Action],
                 playouts: PlayOuts, bands: dict[int, list[Band]] | None,
                 probs: list[list[float]], seats: tuple[int, ...], seed: int,
                 truth: Game | None = None) -> None:
        from eights.codes import action_code
        from eights.fast.search import CompiledWorlds

        self.seen = seen
        self.legal = legal
        self.playouts: PlayOuts | None = playouts
        order = [] if not bands else sorted(
            ((sum(row), seat, count, row) for seat, rows in bands.items()
             if seat != seen.seat for count, row in rows), reverse=True)  # as sample_world
        weighted = None
        if bands is None:
            import numpy as np

            weighted = np.array(probs, dtype=np.float64)
        self.sign = -1.0 if seen.rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS) else 1.0
        self.worlds = CompiledWorlds(
            playouts.kt, seen, [action_code(a) for a in legal], unseen_cards(seen),
            bands=[(seat, count, row) for _, seat, count, row in order], probs=weighted,
            seats=seats, tree=TREE_CODES[bot.tree], c=bot.c, policies=bot._policies(playouts),
            scale=reward_scale(seen), points=bot.points, sign=self.sign, seed=seed,
            expert=bot._expert_weights(), truth=truth)

    def outcomes(self, search: random.Random, worlds: int) -> tuple[
            tuple[tuple[float, ...], ...], tuple[tuple[float, ...], ...]]:
        """As :meth:`_Worlds.outcomes`, in compiled calls of up to 256 worlds."""
        import numpy as np

        seen = self.seen
        me = seen.seat
        teams = seen.rules.has_teams(seen.players)
        team = np.array([(s % 2 == me % 2) if teams else s == me
                         for s in range(seen.players)], dtype=np.float64)
        tried = list(range(len(self.legal)))
        wins: list[tuple[float, ...]] = []
        points: list[tuple[float, ...]] = []
        left = worlds
        while left:
            count = min(left, 256)
            left -= count
            _, got, won = self.worlds.play(tried, count)
            winners = won.sum(axis=2)
            share = np.where(winners > 0, (won * team).sum(axis=2) / np.maximum(winners, 1),
                             0.0)
            wins += map(tuple, share.tolist())
            points += map(tuple, (self.sign * got[:, :, me]).astype(np.float64).tolist())
        return tuple(wins), tuple(points)

class ISMCTSBot:
    """ISMCTS with a paired root and a safe choice (see the module text)."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, time: float | None = None,
                 rollout: str = "expert", c: float = 0.7, seed: int | None = None,
                 tree: str = "none", prior: str = "expert", z: float = 1.0,
                 epsilon: float = 0.0, points: float = 0.25, prune: float = 2.0,
                 infer: str = "model", kernel: str = "auto", worlds: str = "bands",
                 belief: str = "", see: str = "worlds") -> None:
        for option, value, allowed in (("tree", tree, TREES), ("prior", prior, PRIORS),
                                       ("infer", infer, INFERENCES),
                                       ("rollout", rollout, ROLLOUTS),
                                       ("kernel", kernel, KERNELS), ("worlds", worlds, WORLDS),
                                       ("see", see, SEES)):
            if value not in allowed:
                raise ValueError(f"ismcts {option} must be {' or '.join(allowed)}, not {value!r}")
        if rollout == "expert" and kernel == "rollout":
            raise ValueError("ismcts rollout=expert plays in the compiled search or on the "
                             "engine (kernel=auto, on or off), not kernel=rollout; add "
                             "rollout=greedy for the search before it was compiled")
        if kernel == "on" and importlib.util.find_spec("numba") is None:
            raise ValueError("ismcts kernel=on needs numba, which is not installed "
                             "(pip install 'eights[fast]'); kernel=auto rolls out on the "
                             "engine without it")
        if belief and worlds != "belief":
            raise ValueError("ismcts belief=PATH is the model of worlds=belief; add worlds=belief")
        if worlds == "belief" and importlib.util.find_spec("numpy") is None:
            raise ValueError("ismcts worlds=belief needs numpy, which is not installed "
                             "(pip install numpy); worlds=bands needs nothing")
        self.worlds = worlds
        self._belief: BeliefModel | None = None
        if belief:
            from eights.bots.belief import BeliefModel

            self._belief = BeliefModel.load(belief)
        if iterations is not None and iterations < 1:
            raise ValueError(f"ismcts iterations must be 1 or more, not {iterations}")
        if time is not None and time <= 0:
            raise ValueError(f"ismcts time must be positive, not {time}")
        for option, number in (("c", c), ("z", z), ("points", points), ("prune", prune)):
            if number < 0:
                raise ValueError(f"ismcts {option} must be 0 or more, not {number}")
        if not 0 <= epsilon <= 1:
            raise ValueError(f"ismcts epsilon must be between 0 and 1, not {epsilon}")
        if rollout == "expert" and epsilon:
            raise ValueError("ismcts epsilon is the share of random moves in greedy rollouts; "
                             "add rollout=greedy, or leave epsilon out")
        if iterations is None and time is None:
            iterations, time = DEFAULT_ITERATIONS, DEFAULT_TIME
        self.iterations = iterations
        self.time = time
        self.rollout = rollout
        self.c = c
        self.seed = seed
        self.tree = tree
        self.prior: ExpertBot | LearnedBot | None = (
            ExpertBot() if prior == "expert" else LearnedBot() if prior == "learned" else None)
        self.z = z
        self.epsilon = epsilon
        self.points = points
        self.prune = prune
        self.infer = infer
        self.kernel = kernel
        self.see = see
        self._truth: Game | None = None
        self._expert = ExpertBot()
        """The expert of ``rollout=expert`` (default weights: the compiled expert's too)."""
        self._playouts: dict[tuple[Rules, int], PlayOuts | None] = {}
        self.last_iterations = 0
        self.last_kernel = False
        """Whether the last decision's rollouts were played on the compiled kernel."""
        self.last_compiled = False
        """Whether the last decision was searched in compiled code (worlds, tree, rollouts)."""
        self.last_stats: list[tuple[Action, int, float, float]] = []
        """Per action of the last decision: rollouts, mean reward, paired advantage over the prior."""

    def show(self, game: Game) -> None:
        """Hand the search the true game before a decision (``see=all`` only: the ceiling of
        a search that sees every card; a game's front-ends never call it)."""
        if self.see != "all":
            raise ValueError("ismcts sees only its observation; show(game) is for see=all")
        self._truth = game

    def _true_game(self, seen: Observation) -> Game | None:
        """The game shown for this decision (``see=all``), checked against ``seen``."""
        if self.see != "all":
            return None
        game = self._truth
        if (game is None or game.over or game.to_move != seen.seat
                or sorted(game.hands[seen.seat]) != sorted(seen.hand)
                or len(game.history) != len(seen.history)):
            raise ValueError("ismcts see=all: show(game) the game of this decision first "
                             "(the ceiling measurement of benchmarks/search_match.py)")
        return game

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        self._kernel_for(observation.rules, observation.players)  # made before the clock runs
        start = _time.thread_time()
        search = random.Random(self.seed if self.seed is not None else rng.getrandbits(64))
        legal = list(legal)
        k = len(legal)
        base = 0 if self.prior is None else legal.index(self.prior.choose(observation, legal, search))
        worlds_of = self._worlds_of(observation, legal, search)
        total = [0.0] * k
        gain = [0.0] * k
        gain_sq = [0.0] * k
        count_ = [0] * k
        live = [i for i in range(k) if i != base or self.prior is None]
        # 1% held back for the rollout in flight (one runs long now and then)
        deadline = None if self.time is None else start + 0.99 * self.time
        worlds = rollouts = 0
        wall_began = _time.perf_counter()  # read first: the wall time since bounds the CPU's
        began = _time.thread_time()
        if isinstance(worlds_of, _CompiledWorlds):
            total, gain, gain_sq, count_, worlds, rollouts = self._compiled_loop(
                worlds_of, base, deadline, began, wall_began)
        while live and isinstance(worlds_of, _Worlds):  # on the engine: a world at a time
            if self.iterations is not None and rollouts >= self.iterations and worlds >= 2:
                break
            pace = 0.0 if not rollouts else (_time.thread_time() - began) / rollouts
            tried = live if self.prior is None else [base, *live]
            values = worlds_of.play(search, tried, None if worlds < 2 else deadline, pace)
            if values is None:
                break  # the budget is spent: this world is left unfinished, uncounted
            worlds += 1
            rollouts += len(tried)
            anchor = values[0] if self.prior is not None else 0.0
            for i, value in zip(tried, values, strict=True):
                total[i] += value
                count_[i] += 1
                d = value - anchor
                gain[i] += d
                gain_sq[i] += d * d
            if self.prior is not None and self.prune and worlds >= PRUNE_AFTER and (
                    worlds % PRUNE_EVERY == 0):
                # an action that cannot beat the prior is no longer searched
                live = [i for i in live
                        if _bound(gain[i], gain_sq[i], count_[i], -self.prune) >= 0]
        self.last_iterations = rollouts
        self.last_kernel = worlds_of.playouts is not None
        self.last_compiled = isinstance(worlds_of, _CompiledWorlds)
        self.last_stats = [(legal[i], count_[i], total[i] / max(1, count_[i]),
                            gain[i] / max(1, count_[i])) for i in range(k)]
        if self.prior is None:
            return legal[max(range(k), key=lambda i: total[i] / max(1, count_[i]))]
        best, best_bound = base, 0.0
        for i in range(k):
            if i != base and count_[i] >= 2:
                bound = _bound(gain[i], gain_sq[i], count_[i], self.z)
                if bound > best_bound:
                    best, best_bound = i, bound
        return legal[best]

    def evaluate(self, observation: Observation, legal: Sequence[Action], rng: random.Random,
                 worlds: int) -> Evaluation:
        """Play every action in ``legal`` in each of ``worlds`` worlds sampled from
        ``observation`` alone (the bot's options decide how: ``worlds=bands|belief``,
        ``infer``, ``rollout``, ``tree``, ``kernel``...), with the same draws after every
        action of a world: no prior, no pruning, no time budget. Deterministic for a given
        state of ``rng`` (or the bot's ``seed``).

        The search's own per-world code (:meth:`choose` plays the same worlds the same
        way); the trees below the actions (``tree=own``, ``all``) grow over the worlds.
        """
        if worlds < 1:
            raise ValueError(f"ismcts evaluate: worlds must be 1 or more, not {worlds}")
        if not legal:
            raise ValueError("ismcts evaluate: no legal action to evaluate")
        self._kernel_for(observation.rules, observation.players)
        search = random.Random(self.seed if self.seed is not None else rng.getrandbits(64))
        legal = list(legal)
        worlds_of = self._worlds_of(observation, legal, search)
        wins, points = worlds_of.outcomes(search, worlds)
        self.last_iterations = worlds * len(legal)
        self.last_kernel = worlds_of.playouts is not None
        self.last_compiled = isinstance(worlds_of, _CompiledWorlds)
        return Evaluation(tuple(legal), wins, points, independent=self.tree == "none")

    def _worlds_of(self, observation: Observation, legal: Sequence[Action],
                   search: random.Random) -> _Worlds | _CompiledWorlds:
        """The per-world code of one decision: on the engine (:class:`_Worlds`, its rollouts
        on the kernel with ``kernel=rollout``), or compiled (:class:`_CompiledWorlds`, the
        default where the kernel plays the rules; it takes its seed from ``search``)."""
        playouts = self._kernel_for(observation.rules, observation.players)
        truth = self._true_game(observation)
        bands: dict[int, list[Band]] | None = None
        probs: list[list[float]] = []
        seats: tuple[int, ...] = ()
        if truth is not None:
            bands = {}
        elif self.worlds == "belief":
            probs, seats = self._belief_for(observation).deal_probs(observation)
        else:
            bands = hand_bands(observation, self.infer)
        if playouts is not None and self.kernel != "rollout":
            return _CompiledWorlds(self, observation, legal, playouts, bands, probs, seats,
                                   search.getrandbits(64), truth)
        return _Worlds(self._iterate, observation, legal, playouts, bands, probs, seats, truth)

    def _compiled_loop(self, worlds_of: _CompiledWorlds, base: int, deadline: float | None,
                       began: float, wall_began: float) -> tuple[
                           list[float], list[float], list[float], list[int], int, int]:
        """:meth:`choose`'s loop over worlds in compiled code
        (:meth:`eights.fast.search.CompiledWorlds.decide`), a call every 64 worlds at
        most, the clock read between calls: the actions' totals, gains over the prior and
        their squares, counts, and the worlds and rollouts played."""
        import numpy as np

        worlds = worlds_of.worlds
        k = len(worlds_of.legal)
        prior = self.prior is not None
        live = np.array([int(i != base or not prior) for i in range(k)], dtype=np.int64)
        total, gain, gain_sq = np.zeros(k), np.zeros(k), np.zeros(k)
        count = np.zeros(k, dtype=np.int64)
        done = np.zeros(2, dtype=np.int64)
        iterations = -1 if self.iterations is None else self.iterations
        while True:
            played, rollouts = int(done[0]), int(done[1])
            max_worlds, max_rollouts = MAX_BATCH, -1
            if deadline is not None:
                if played < 2:
                    max_worlds = 2 - played  # the pace is known from the second world on
                else:
                    # the thread's CPU clock costs microseconds to read: the wall clock,
                    # which runs at least as fast, says first whether the call surely fits
                    spent = _time.perf_counter() - wall_began
                    max_rollouts = _fits(deadline, began + spent, spent / rollouts)
                    if max_rollouts < MAX_BATCH * k:
                        now = _time.thread_time()
                        max_rollouts = _fits(deadline, now, (now - began) / rollouts)
                    if max_rollouts <= 0:
                        break  # the budget is spent
            worlds.decide(base if prior else -1, live, total, gain, gain_sq, count, done,
                          iterations, self.prune if prior else 0.0, PRUNE_AFTER, PRUNE_EVERY,
                          max_worlds, max_rollouts)
            if done[0] == played:
                break  # the race is run, the budget spent or the iterations played
        return (total.tolist(), gain.tolist(), gain_sq.tolist(), count.tolist(), int(done[0]),
                int(done[1]))

    @staticmethod
    def _scale(seen: Observation) -> float:
        return reward_scale(seen)

    def _belief_for(self, seen: Observation) -> BeliefModel:
        """The belief model given as ``belief``, else the one shipped for ``seen``'s rules."""
        if self._belief is None:
            from eights.bots.belief import shipped_for

            return shipped_for(seen.rules, seen.players)
        model = self._belief
        if model.rules != "family" and (model.rules, model.players) != (seen.rules.name,
                                                                         seen.players):
            raise ValueError(f"ismcts belief: the model is for {model.rules} with "
                             f"{model.players} players, not {seen.rules.name} with "
                             f"{seen.players}")
        return model

    def _kernel_for(self, rules: Rules, players: int) -> PlayOuts | None:
        """The kernel's play-outs for these rules and players (its tables and policies: the
        compiled search, or the rollouts of ``kernel=rollout``), or ``None`` for the search
        on the engine (``kernel=off``; ``auto`` without numba, for rules the kernel does not
        play, or while the background compile :func:`eights.fast.cache.warm_in_background`
        runs). Made once per rule set and player count, compiled (or loaded from numba's
        cache) before any clock runs."""
        key = (rules, players)
        if key in self._playouts:
            return self._playouts[key]
        playouts = None
        if self.kernel == "on" or (self.kernel in ("auto", "rollout")
                                   and importlib.util.find_spec("numba") is not None):
            from eights.fast.cache import warming

            if self.kernel != "on" and warming():
                return None  # compiled in the background (eights play): the engine until then
            from eights.fast.tables import KernelUnsupported, check_supported

            try:
                check_supported(rules, players)
            except KernelUnsupported as exc:
                if self.kernel == "on":
                    why = str(exc).removesuffix("; use the reference engine")
                    raise RulesError(f"ismcts kernel=on: {why}; kernel=auto or kernel=off "
                                     "rolls out on the engine") from None
            else:
                from eights.fast.world import PlayOuts

                playouts = PlayOuts(rules, players, "random" if self.rollout == "random"
                                    else "greedy", self.epsilon)
                playouts.play(Game(rules, players, seed=0), 0)  # compiled (or loaded) now
                if self.kernel != "rollout":
                    from eights.fast.search import warm

                    warm(playouts.kt, players, playouts.policies)
        self._playouts[key] = playouts
        return playouts

    def _iterate(self, root: _Node, game: Game, rng: random.Random, scale: float,
                 me: int, playouts: PlayOuts | None = None, draws: int = 0) -> _Outcome:
        """One descent of ``root``'s tree in ``game`` (already past the root action),
        then a rollout (on the kernel when ``playouts`` are given, its draws seeded by
        ``draws``); the round's outcome, its rewards backed up along the path."""
        path: list[tuple[_Node, int]] = []
        node = root
        c = self.c
        mode = self.tree
        while mode != "none" and not game.over:
            legal = game.legal
            player = game.to_move
            if mode == "own" and player != me:
                game.push(self._policy(game, legal, rng))
                continue
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                child = _Node()
                children[action] = child
                for a in legal:
                    known = children.get(a)
                    if known is not None:
                        known.avail += 1
                game.push(action)
                path.append((child, player))
                break
            best_score = -1e9
            action = legal[0]
            for a in legal:
                ch = children[a]
                ch.avail += 1
                score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score = score
                    action = a
            node = children[action]
            game.push(action)
            path.append((node, player))
        if playouts is not None and not game.over:
            out = playouts.play(game, draws)
            got, winners = out.points, out.winners
        else:
            while not game.over:
                game.push(self._policy(game, game.legal, rng))
            got, winners = tuple(game.round_points or [0] * game.n), tuple(game.round_winners or ())
        rewards = outcome_rewards(game.rules, got, winners, scale, self.points)
        root.visits += 1
        for node, player in path:
            node.visits += 1
            node.reward += rewards[player]
        return _Outcome(got, winners, rewards)

    def _policies(self, playouts: PlayOuts) -> Any:
        """The compiled search's policy of each seat: the play-outs' (greedy, random), or
        the expert's for every seat (``rollout=expert``)."""
        if self.rollout != "expert":
            return playouts.policies
        import numpy as np

        from eights.fast.expert import EXPERT

        return np.full(playouts.players, EXPERT, dtype=np.float64)

    def _expert_weights(self) -> Any:
        """The compiled expert's weights: the reference expert's (:meth:`ExpertBot.weights`)."""
        from eights.fast.expert import expert_weights

        return expert_weights(*self._expert.weights())

    def _policy(self, game: Game, legal: Sequence[Action], rng: random.Random) -> Action:
        if self.rollout == "expert":
            return self._expert.choose(game.observe(game.to_move), legal, rng)
        if self.rollout == "random" or (self.epsilon and rng.random() < self.epsilon):
            return legal[int(rng.random() * len(legal))]
        return greedy_choice(legal, game.hands[game.to_move], game.tables)


def _fits(deadline: float, now: float, pace: float) -> int:
    """The rollouts that fit before ``deadline`` at ``pace`` seconds each, as on the engine:
    none begun that would end past it (two rollouts' time held back)."""
    room = deadline - now - 2 * pace
    if room <= 0:
        return 0
    return 10**9 if pace <= 0 else int(room / pace)


def _bound(total: float, squares: float, n: int, z: float) -> float:
    """Mean minus ``z`` standard errors, from a sum and a sum of squares over ``n``."""
    mean = total / n
    return mean - z * math.sqrt(max(0.0, squares / n - mean * mean) / max(1, n - 1))


DEFAULT_ITERATIONS = 2000
"""Rollouts per decision when neither ``iterations`` nor ``time`` is given..."""
DEFAULT_TIME = 1.0
"""...with this many seconds at most (the strength targets' budget)."""

PRUNE_AFTER = 16
"""Worlds sampled before any action is pruned."""
PRUNE_EVERY = 4
"""Worlds between two pruning checks."""

KERNELS = ("auto", "on", "off", "rollout")
"""Where the search runs: compiled when the kernel can (``auto``), always (``on``: an error
where it cannot), never (``off``: the engine), or on the engine but for the rollouts
(``rollout``: the search before it was compiled)."""

TREE_CODES = {"none": 0, "own": 1, "all": 2}
"""The ``tree`` option as :mod:`eights.fast.search` codes it."""

MAX_BATCH = 64
"""Worlds the compiled search plays in one call at most (its clock is read between)."""

WORLDS = ("bands", "belief")
"""How worlds are dealt: within the bands of ``infer``, or by the belief model."""
PRIORS = ("expert", "learned", "none")
"""The action a searched action must beat: the expert's, the learned bot's, none."""

TREES = ("own", "all", "none")
"""Where the tree grows below the root: the bot's own moves, everyone's, nowhere."""

ROLLOUTS = ("expert", "greedy", "random")
"""How every seat plays after the root (and the tree): the expert, the greedy bot, at
random."""

SEES = ("worlds", "all")
"""What the search sees: worlds dealt from its observation, or every card (``all``: the
ceiling measurement, handed the true game by :meth:`ISMCTSBot.show`; never offered to a
server's clients)."""


def greedy_action(game: Game, legal: Sequence[Action]) -> Action:
    """The greedy bot's choice, read straight off a game state (for rollouts: no
    observation): :func:`~eights.bots.basic.greedy_choice` of the hand to move."""
    return greedy_choice(legal, game.hands[game.to_move], game.tables)
