"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any preset.

Each iteration samples a world consistent with the bot's observation
(:func:`eights.worlds.sample_world`: hand sizes, known voids, cards seen),
walks the tree with UCB1 among the actions legal *in that world* (counting
each child's availability, as in Cowling, Powley and Whitehouse 2012), adds
one node, plays the round out with a rollout policy and backs up one reward
per player: every node stores the reward of the player who chose its action,
so opponents search for their own interest (and partners share a team reward
in les-huit, since partners share round points and wins).

Options (``ismcts:time=0.5``, ``ismcts:iterations=2000:rollout=greedy``):

- ``iterations``: iterations per decision (default 1000 when no time is given);
- ``time``: seconds per decision instead (the search stops at the deadline);
- ``rollout``: ``greedy`` (default: the greedy bot's rules with 10% random
  moves, read straight off the sampled world) or ``random``;
- ``c``: the exploration constant (default 0.7);
- ``opponents``: ``tree`` (default: opponents' moves are tree nodes chosen by
  UCB on their own rewards) or ``policy`` (opponents play the rollout's greedy
  policy; only the bot's own decisions are searched);
- ``seed``: fixes the search's generator; by default it comes from the rng the
  game hands the bot, so a seeded game is reproducible with an iteration budget.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Sequence

from eights.actions import DRAW, PASS, TAKE, Action
from eights.game import Game
from eights.observation import Observation
from eights.rules import Scoring
from eights.worlds import known_voids, sample_world

__all__ = ["ISMCTSBot", "round_rewards"]


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0


def round_rewards(game: Game, scale: float) -> list[float]:
    """Reward of each seat for a finished round: mostly the win, partly the points.

    A round win (shared when several seats win, as partners do) is worth 1;
    the round's points move it by up to 0.5, in the direction the scoring
    mode rewards.
    """
    winners = game.round_winners or []
    points = game.round_points or [0] * game.n
    sign = -1.0 if game.rules.scoring is Scoring.OWN_HAND else 1.0
    share = 1.0 / len(winners) if winners else 0.0
    out = []
    for s in range(game.n):
        win = share if s in winners else 0.0
        out.append(win + 0.5 * max(-1.0, min(1.0, sign * points[s] / scale)))
    return out


class ISMCTSBot:
    """Single-observer ISMCTS with per-player rewards."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, time: float | None = None,
                 rollout: str = "greedy", c: float = 0.7, seed: int | None = None,
                 opponents: str = "tree") -> None:
        if opponents not in ("tree", "policy"):
            raise ValueError(f"ismcts opponents must be tree or policy, not {opponents!r}")
        self.opponents = opponents
        if rollout not in ("random", "greedy"):
            raise ValueError(f"ismcts rollout must be random or greedy, not {rollout!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"ismcts iterations must be 1 or more, not {iterations}")
        if time is not None and time <= 0:
            raise ValueError(f"ismcts time must be positive, not {time}")
        self.iterations = iterations if iterations is not None or time is not None else 1000
        self.time = time
        self.rollout = rollout
        self.c = c
        self.seed = seed
        self.last_iterations = 0

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        search = random.Random(self.seed if self.seed is not None else rng.getrandbits(64))
        root = _Node()
        voids = known_voids(observation)
        scale = self._scale(observation)
        deadline = None if self.time is None else _time.perf_counter() + self.time
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and _time.perf_counter() >= deadline:
                break
            world = sample_world(observation, search, voids)
            self._iterate(root, world, search, scale)
            done += 1
        self.last_iterations = done
        allowed = set(legal)
        best = max((a for a in root.children if a in allowed),
                   key=lambda a: (root.children[a].visits, root.children[a].reward))
        return best

    @staticmethod
    def _scale(seen: Observation) -> float:
        points = seen.rules.points
        typical = sum(points.values()) / max(1, len(points))
        return max(1.0, typical * 6 * max(1, seen.players - 1))

    def _iterate(self, root: _Node, game: Game, rng: random.Random, scale: float) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        c = self.c
        me = game.to_move
        by_policy = self.opponents == "policy"
        while not game.over:
            legal = game.legal_actions()
            player = game.to_move
            if by_policy and player != me:
                rand = rng.random
                game._apply(legal[int(rand() * len(legal))] if rand() < EPSILON
                            else greedy_action(game, legal))
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
                game._apply(action)
                path.append((child, player))
                node = child
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
            game._apply(action)
            path.append((node, player))
        if not game.over:
            self._play_out(game, rng)
        rewards = round_rewards(game, scale)
        root.visits += 1
        for node, player in path:
            node.visits += 1
            node.reward += rewards[player]

    def _play_out(self, game: Game, rng: random.Random) -> None:
        rand = rng.random
        if self.rollout == "random":
            while not game.over:
                legal = game._legal if game._legal is not None else game.legal_actions()
                game._apply(legal[int(rand() * len(legal))])
            return
        while not game.over:
            legal = game._legal if game._legal is not None else game.legal_actions()
            if rand() < EPSILON:
                game._apply(legal[int(rand() * len(legal))])
            else:
                game._apply(greedy_action(game, legal))


EPSILON = 0.1
"""Share of random moves in greedy rollouts (keeps them from all looking alike)."""


def greedy_action(game: Game, legal: Sequence[Action]) -> Action:
    """The greedy bot's choice, read straight off a game state (for rollouts: no observation).

    Plain cards before wild ones, the costliest first; a wild card names the
    suit the hand holds most of; the last card is announced; no LH5 card is taken.
    """
    t = game._t
    best: Action | None = None
    best_key = -1.0
    wild_in_play = False
    for a in legal:
        c = a.card
        if c is None:
            continue
        r = c >> 2
        key = (0.0 if t.wild[r] else 1000.0) + t.points[r] + (0.5 if a.announce else 0.0)
        if a.suit is not None:
            wild_in_play = True
        if key > best_key:
            best_key = key
            best = a
    if best is None:
        if TAKE in legal:
            return PASS
        return DRAW if DRAW in legal else legal[0]
    if wild_in_play and best.suit is not None:
        counts = [0, 0, 0, 0]
        for c in game.hands[game.to_move]:
            if c != best.card and not t.wild[c >> 2] and c < 52:
                counts[c & 3] += 1
        suit = max(range(4), key=counts.__getitem__)
        for a in legal:
            if a.card == best.card and a.suit is not None and int(a.suit) == suit and (
                    a.announce == best.announce):
                return a
    return best
