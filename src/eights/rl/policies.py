"""Batched policies: a bot's choices for many tables at once, from observations and masks.

:class:`LearnedPolicy` plays a learned model (by default the shipped one for the rules
and player count, as the ``learned`` bot does) on the batched environment's arrays:
``policy(obs, mask) -> codes``, one row a table. It is a policy opponent of
:class:`~eights.rl.EightsVectorEnv` and :class:`~eights.fast.vector.TableBatch` (the
kernel stops at its seats and asks it for all the waiting tables at once), or a learner's
yardstick on the learning seat.

>>> from eights.rl import EightsVectorEnv
>>> from eights.rl.policies import LearnedPolicy
>>> learned = LearnedPolicy("classic", 2)
>>> envs = EightsVectorEnv("classic", 2, num_envs=64, opponents=learned)
>>> obs, infos = envs.reset(seed=1)
>>> codes = learned(obs["observation"], envs.action_masks())  # the learned bot's own choices

It chooses as :class:`~eights.bots.learned.LearnedBot` does (the legal code of highest
``Q``, or with ``temperature`` one drawn with weights ``exp(Q / temperature)``, here from
its own seeded generator), from the same features: the observation integers of
:func:`eights.codes.observation` are all it needs, and all the batched tables give.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from eights.bots.learned import LearnedBot
from eights.codes import action_count, observation_size
from eights.engine.rules import Rules, load_rules

__all__ = ["LearnedPolicy"]


class LearnedPolicy:
    """The learned bot for ``rules`` with ``players`` as a batched policy: ``model`` a
    model file (``.npz`` with its card), by default the shipped model (a
    :class:`ValueError` names what ships when none fits); ``temperature`` as the bot's;
    ``seed`` seeds the draws with a temperature."""

    def __init__(self, rules: Rules | str, players: int, model: str | Path | None = None,
                 temperature: float = 0.0, seed: int = 0) -> None:
        self.rules = load_rules(rules) if isinstance(rules, str) else rules
        self.rules.check_players(players)
        self.players = players
        bot = LearnedBot(None if model is None else str(model), temperature)
        self.model = bot.model_for(self.rules, players)
        """The network (:class:`~eights.bots.learned.Model`)."""
        self.temperature = temperature
        self._encoder = self.model.encoder(self.rules, players)
        self._folded = self.model.folded(self._encoder)  # the rules' product, made once
        self._actions = self._encoder.table(action_count(self.rules, players))
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"LearnedPolicy({self.rules.name!r}, {self.players})"

    def q_values(self, obs: npt.ArrayLike, mask: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``Q`` of every code at every row (``-inf`` where the code is not legal)."""
        ints = np.asarray(obs)
        legal = np.asarray(mask, dtype=np.bool_)
        if ints.ndim != 2 or ints.shape[1] != observation_size(self.players):
            raise ValueError(f"obs must be observations of {self.players} players, one a row "
                             f"({observation_size(self.players)} integers), not an array of "
                             f"shape {ints.shape}")
        if legal.shape != (ints.shape[0], self._actions.shape[0]):
            raise ValueError(f"mask must be {ints.shape[0]} rows of {self._actions.shape[0]} "
                             f"legal-code flags, not an array of shape {legal.shape}")
        rows, codes = np.nonzero(legal)
        states = self._encoder.states(ints)
        out = np.full(legal.shape, -np.inf, dtype=np.float32)
        if rows.size:  # one state row a legal code: the network's product a pair
            if self._folded is None:
                out[rows, codes] = self.model.q_values(states[rows], self._actions[codes])
            else:
                cut, bias = self._folded
                out[rows, codes] = self.model.q_values(states[rows, :cut], self._actions[codes],
                                                       bias)
        return out

    def __call__(self, obs: npt.ArrayLike, mask: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """One legal code a row: the learned bot's choice at each table. A row with no legal
        code (a table whose round just ended, whose action the batch ignores) gets code 0."""
        q = self.q_values(obs, mask)
        empty = ~np.isfinite(q.max(axis=1, initial=-np.inf))
        if self.temperature > 0:  # exp(Q / t) weights, drawn by the Gumbel trick
            q = q / self.temperature + self._rng.gumbel(size=q.shape).astype(np.float32)
        chosen = np.asarray(q.argmax(axis=1), dtype=np.int64)
        chosen[empty] = 0
        return chosen
