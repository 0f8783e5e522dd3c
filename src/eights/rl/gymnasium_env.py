"""A single-agent Gymnasium environment: one seat learns, eights bots hold the others.

>>> import gymnasium, eights.rl
>>> env = gymnasium.make("eights/Eights-v0", rules="classic", players=3, opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> sorted(obs), obs["observation"].shape, int(env.action_space.n)
(['action_mask', 'observation'], (276,), 537)

The observation is a Dict, ``{"observation": ..., "action_mask": ...}``, as in the
PettingZoo environment (:mod:`eights.rl.pettingzoo_env`): the mask is part of what a
policy must see to act, at training and at play alike, so it travels with the
observation rather than in ``info``; :meth:`EightsEnv.action_masks` returns it too (the
method sb3-contrib's ``MaskablePPO`` calls). ``FlattenObservation`` gives one vector.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from eights.bots import Bot, make_bot
from eights.rl.table import RENDER_MODES, RulesArg, Table, check_limit, check_render_mode

__all__ = ["ID", "EightsEnv", "make_opponents", "opponent_specs", "seat_opponents"]

T = TypeVar("T")

ID = "eights/Eights-v0"
"""The Gymnasium id (``gymnasium.make(ID, rules=..., players=..., opponents=...)``)."""
REDEALS = 1000
"""Deals in a row that may end before the learning seat's first decision before ``reset``
gives up (a rule set that never lets it play)."""


def opponent_specs(opponents: str | Sequence[str], players: int,
                   seat: int) -> dict[int, str]:
    """The bot spec of every seat but ``seat``, from ``"expert,greedy,random"`` or a list: the
    other seats in order take them, the list repeated when it is shorter.

    >>> opponent_specs("expert,random", 4, 1)
    {0: 'expert', 2: 'random', 3: 'expert'}
    """
    return seat_opponents(opponents, players, seat)


def seat_opponents(opponents: str | Sequence[T], players: int, seat: int) -> dict[int, str | T]:
    """:func:`opponent_specs` where the list may hold other opponents than specs (the batched
    environment's policy callables): the strings are stripped, the rest kept as they are."""
    given: Sequence[str | T] = opponents.split(",") if isinstance(opponents, str) else opponents
    names = [s.strip() if isinstance(s, str) else s for s in given]
    if not names or not all(names):
        raise ValueError(f"opponents {opponents!r} needs bot specs separated by commas, e.g. "
                         "'expert,greedy,random'")
    others = [s for s in range(players) if s != seat]
    if len(names) > len(others):
        raise ValueError(f"{len(names)} opponents ({', '.join(map(str, names))}) for {len(others)} other "
                         f"seat{'s' * (len(others) != 1)}: give at most {len(others)} (a shorter "
                         "list is repeated over the seats)")
    return {s: names[i % len(names)] for i, s in enumerate(others)}


def make_opponents(opponents: str | Sequence[str], players: int, seat: int) -> dict[int, Bot]:
    """A bot for every seat but ``seat``, from bot specs (:func:`opponent_specs`).

    >>> {s: b.name for s, b in make_opponents("expert,random", 4, 1).items()}
    {0: 'expert', 2: 'random', 3: 'expert'}
    """
    bots: dict[int, Bot] = {}
    for s, spec in opponent_specs(opponents, players, seat).items():
        try:
            bots[s] = make_bot(spec)
        except ValueError as exc:
            raise ValueError(f"opponents: {exc}") from None
    return bots


class EightsEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Seat ``seat`` of a table of ``rules`` learns; the ``opponents`` play the others.

    ``reset`` deals and lets the bots play up to the learning seat's first decision (a
    round that ends before it is dealt again, from the same seed stream); ``step`` plays
    the learner's code, then the bots, up to its next decision or the end of the episode
    (one round, or a match with ``episode="match"``). The reward is the learning seat's
    :func:`eights.codes.round_rewards` at the end of each round, 0 on other steps.

    An illegal code (in the action space, not legal now) ends the episode with
    ``illegal_reward`` and ``info["illegal_action"]``; with ``illegal_reward=None`` it
    raises :class:`~eights.engine.errors.IllegalActionError` instead. With ``max_steps``,
    the step on which the learning seat has made that many decisions in an episode not
    over returns ``truncated`` True (reward 0), as Gymnasium's ``TimeLimit`` would (the
    option is EightsVectorEnv's too, so ``gymnasium.make_vec`` takes it in every
    ``vectorization_mode``). :meth:`state` is the global state for a centralised critic.
    With ``actions="factored"`` a step is a step of a play (:mod:`eights.rl.factored`):
    one that does not finish the play moves nothing (reward 0), and ``max_steps`` counts
    whole decisions. Other options are those of :class:`eights.rl.raw_env`.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (Env's)

    def __init__(self, rules: RulesArg = "huit-fou", players: int | None = None, *,
                 seat: int = 0, opponents: str | Sequence[str] = "random",
                 reward: str = "points", episode: str = "round", dealer: int | None = None,
                 overrides: Sequence[str] | Mapping[str, Any] = (),
                 illegal_reward: float | None = -1.0, max_steps: int | None = None,
                 render_mode: str | None = None, actions: str = "whole") -> None:
        check_render_mode(render_mode)
        check_limit("max_steps", max_steps, "the learning seat's decisions in an episode")
        self.table = Table(rules, players, reward=reward, episode=episode, dealer=dealer,
                           overrides=overrides, actions=actions)
        """The rules, the game (``table.game``) and the encodings."""
        n = self.table.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat; seats are 0 to {n - 1}")
        self.seat = seat
        self.bots = make_opponents(opponents, n, seat)
        """The bot of each other seat."""
        self.names = [f"player_{s}" + (f" ({self.bots[s].name})" if s in self.bots else "")
                      for s in range(n)]
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = self.table.observation_space
        self.action_space = spaces.Discrete(self.table.actions)
        self.state_space = self.table.state_space
        """The global state's space (:meth:`state`)."""
        self.max_steps = max_steps
        self._steps = 0
        self._rng = random.Random(0)  # the bots' choices: reseeded from np_random each deal
        self._carried = 0.0  # rewards of rounds over before the learner's first move (match)
        self._done = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal (``seed``: the same seed, the same deal and the same bot choices) and play
        the bots up to the learning seat's first decision."""
        super().reset(seed=seed)
        for _ in range(REDEALS):
            self.table.deal(self.np_random)
            self._rng = random.Random(int(self.np_random.integers(2**63)))
            self._carried, ended = self._advance()
            if not ended:
                break
        else:
            raise RuntimeError(f"{REDEALS} deals in a row ended before seat {self.seat} had a "
                               f"decision: {self.table.rules.name} gives it none")
        self._done = False
        self._steps = 0
        if self.render_mode == "human":
            self.render()
        return self.table.observation(self.seat), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        if not self.table.is_legal(action):
            if self.illegal_reward is None:
                raise self.table.illegal(action, f"seat {self.seat}")
            self._done = True
            return (self.table.observation(self.seat), float(self.illegal_reward), True, False,
                    {"illegal_action": self.table.code(action)})
        chosen = self.table.advance(action)
        if chosen is None:  # a step of a play not finished (factored): nothing moves
            return self.table.observation(self.seat), 0.0, False, False, {}
        self.table.live.push(chosen)
        reward, ended = self._advance()
        reward += self._carried
        self._carried = 0.0
        self._steps += 1
        cut = not ended and self.max_steps is not None and self._steps >= self.max_steps
        self._done = ended or cut
        info: dict[str, Any] = {}
        if ended:
            game = self.table.live
            info = {"round_points": list(game.round_points or ()),
                    "round_winners": list(game.round_winners or ())}
        if self.render_mode == "human":
            self.render()
        return self.table.observation(self.seat), reward, ended, cut, info

    def _advance(self) -> tuple[float, bool]:
        """Play the bots up to the learning seat's decision or the end of the episode; the
        learner's rewards of the rounds that end on the way, and whether it ended."""
        game = self.table.live
        reward = 0.0
        while True:
            if game.over:
                reward += self.table.rewards()[self.seat]
                if self.table.episode == "round" or game.match_over:
                    self.table.refresh()
                    return reward, True
                game.next_round()
                continue
            seat = game.to_play
            assert seat is not None
            if seat == self.seat:
                self.table.refresh()
                return reward, False
            game.push(self.bots[seat].choose(game.observe(seat), game.legal, self._rng))

    def state(self) -> npt.NDArray[np.int32]:
        """The global state, for a centralised critic: every seat's observation in seat
        order, so every hand (:meth:`Table.state <eights.rl.table.Table.state>`)."""
        return self.table.state()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes now, as booleans (sb3-contrib's ``MaskablePPO`` reads this)."""
        if self._done:
            return np.zeros(self.table.actions, dtype=np.bool_)
        return self.table.mask(self.seat).astype(np.bool_)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table in words (``ansi``: returned; ``human``: printed; ``rgb_array``: drawn
        on an image, returned)."""
        return self.table.render(self.render_mode, self.names)
