"""The batched tables as a Stable-Baselines3 ``VecEnv``: :class:`EightsVecEnv`.

It needs Stable-Baselines3 (``pip install stable-baselines3 sb3-contrib``, which the
``test`` extra brings) and numba (the ``fast`` extra); ``import eights.rl`` does not
import it.

>>> from sb3_contrib import MaskablePPO
>>> from eights.rl.sb3 import EightsVecEnv
>>> envs = EightsVecEnv("classic", 2, num_envs=16, seed=0, opponents="random")
>>> model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=1024, seed=0)
>>> model = model.learn(total_timesteps=2048)

:class:`EightsVecEnv` gives SB3 ``num_envs`` tables of an
:class:`~eights.rl.EightsVectorEnv`, every table stepped in one compiled call, and does
what SB3 expects of a ``VecEnv`` where the Gymnasium environment does otherwise:

- autoreset in the same step: a table whose round ended (or was cut at ``max_steps``)
  returns the next round's first observation at once
  (:meth:`~eights.fast.vector.TableBatch.restart`), the final one in
  ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` set when
  the round was cut;
- the legal codes come from :meth:`EightsVecEnv.action_masks` and
  ``env_method("action_masks")``, which sb3-contrib's ``MaskablePPO`` calls; the
  observation is the ``Box`` of integers alone (policy ``"MlpPolicy"``).

Illegal codes: ``MaskablePPO`` samples only legal ones. Plain ``PPO`` and ``DQN`` sample
from all ``action_count`` codes, and an illegal one makes the tables raise a
``ValueError``; with ``illegal="first"`` such codes are replaced by the table's first
legal code, with ``illegal="random"`` by a uniform legal code from the adapter's seeded
generator (either counted in :attr:`EightsVecEnv.illegal`): a crutch that learns slowly,
as the learner is told it played the code it chose; the masks are the way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from eights.rl.vector import EightsVectorEnv

__all__ = ["ILLEGAL", "EightsVecEnv"]

ILLEGAL = ("raise", "first", "random")
"""What :class:`EightsVecEnv` does with an illegal code: raise a ``ValueError`` (the
default), or play the table's first legal code, or a uniform legal code."""


class EightsVecEnv(VecEnv):
    """``num_envs`` tables of ``rules`` as a Stable-Baselines3 ``VecEnv``; ``options`` are
    :class:`~eights.rl.EightsVectorEnv`'s (``seat``, ``opponents``, ``reward``,
    ``max_steps``, ...); ``seed`` seeds the first reset (SB3's ``seed()`` the later ones);
    ``illegal``: one of :data:`ILLEGAL` (see the module text)."""

    def __init__(self, rules: str = "classic", players: int | None = None, num_envs: int = 64,
                 *, seed: int = 0, illegal: str = "raise", **options: Any) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        self.envs = EightsVectorEnv(rules, players, num_envs, **options)
        """The batched Gymnasium environment underneath."""
        self.tables = self.envs.tables
        table_space = self.envs.single_observation_space
        assert isinstance(table_space, spaces.Dict)
        space = table_space["observation"]
        assert isinstance(space, spaces.Box)
        self.render_mode = None  # no rendering (SB3 reads it in __init__)
        super().__init__(num_envs, space, self.envs.single_action_space)
        self.illegal_policy = illegal
        self.illegal = 0
        """Illegal codes replaced (with ``illegal="first"`` or ``"random"``)."""
        self._rng = np.random.default_rng(seed)
        self._first_seed: int | None = seed
        self._mask = np.zeros((num_envs, self.tables.action_count), dtype=np.bool_)
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.int32]:
        seed = self._seeds[0] if self._seeds[0] is not None else self._first_seed
        if self._seeds[0] is not None:
            self._rng = np.random.default_rng(self._seeds[0])
        self._first_seed = None  # later resets go on with the same streams
        obs, self._mask = self.tables.reset(seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        actions = self._actions
        if self.illegal_policy != "raise":
            inside = (actions >= 0) & (actions < self._mask.shape[1])
            legal = inside & self._mask[np.arange(self.num_envs), np.where(inside, actions, 0)]
            if not legal.all():
                self.illegal += int((~legal).sum())
                if self.illegal_policy == "first":
                    other = self._mask.argmax(axis=1)
                else:
                    other = (self._rng.random(self._mask.shape) * self._mask).argmax(axis=1)
                actions = np.where(legal, actions, other)
        obs, mask, rewards, terminated = self.tables.step(actions)
        truncated = self.tables.truncated.copy()
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            for b in np.flatnonzero(dones):
                infos[b] = {"terminal_observation": obs[b],
                            "TimeLimit.truncated": bool(truncated[b])}
            obs, mask = self.tables.restart()
        self._mask = mask
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of every table now (one row a table, booleans)."""
        return self._mask

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        """``env_method("action_masks")`` (MaskablePPO's call): one mask a table."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._mask[b] for b in rows]
        raise AttributeError(f"EightsVecEnv has no per-table method {method_name!r}; it has "
                             "action_masks")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))
