"""MaskablePPO (sb3-contrib) learns on the kernel's batched tables through a Stable-Baselines3
VecEnv adapter.

Run it as is (``python examples/sb3_maskable_ppo.py --rules classic --players 2 --tables 64
--timesteps 100000``; it needs ``pip install stable-baselines3 sb3-contrib``, which the
``test`` extra brings): :class:`EightsVecEnv` gives SB3 ``num_envs`` tables of an
:class:`~eights.rl.EightsVectorEnv` (every table stepped in one compiled call), MaskablePPO
learns the learning seat's play against the ``--opponents``, and the learnt policy's win
share over ``--rounds`` new rounds is printed beside a random legal policy's.

The adapter does what SB3 expects of a VecEnv and the Gymnasium environment does not:

- autoreset in the same step: a table whose round ended (or was cut at ``max_steps``)
  returns the next round's first observation at once
  (:meth:`~eights.fast.vector.TableBatch.restart`), the final one in
  ``infos[i]["terminal_observation"]`` and ``infos[i]["TimeLimit.truncated"]`` set when
  the round was cut;
- the legal codes come from ``env_method("action_masks")``, which MaskablePPO calls;
  the observation is the Box of integers alone.

Illegal codes: MaskablePPO only samples legal ones. Plain PPO (``stable_baselines3.PPO``)
samples from all ``action_count`` codes, and an illegal one makes the batched tables raise
a ``ValueError``; to use it, pass ``illegal="first"`` and such codes are replaced by the
table's first legal code (and counted in :attr:`EightsVecEnv.illegal`): a crutch that
learns slowly; the masks are the way.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from eights.rl import EightsVectorEnv


class EightsVecEnv(VecEnv):
    """``num_envs`` tables of ``rules`` as a Stable-Baselines3 VecEnv; ``options`` are
    :class:`~eights.rl.EightsVectorEnv`'s (``seat``, ``opponents``, ``reward``,
    ``max_steps``, ...); ``seed`` seeds the first reset (SB3's ``seed()`` the later ones);
    ``illegal``: ``"raise"`` or ``"first"`` (see the module text)."""

    def __init__(self, rules: str = "classic", players: int | None = None, num_envs: int = 64,
                 *, seed: int = 0, illegal: str = "raise", **options: Any) -> None:
        if illegal not in ("raise", "first"):
            raise ValueError(f"illegal must be 'raise' or 'first', not {illegal!r}")
        self.envs = EightsVectorEnv(rules, players, num_envs, **options)
        self.tables = self.envs.tables
        table_space = self.envs.single_observation_space
        assert isinstance(table_space, spaces.Dict)
        space = table_space["observation"]
        assert isinstance(space, spaces.Box)
        self.render_mode = None  # no rendering (SB3 reads it in __init__)
        super().__init__(num_envs, space, self.envs.single_action_space)
        self.illegal_policy = illegal
        self.illegal = 0
        """Illegal codes replaced (with ``illegal="first"``)."""
        self._first_seed: int | None = seed
        self._mask = np.zeros((num_envs, self.tables.action_count), dtype=np.bool_)
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.int32]:
        seed = self._seeds[0] if self._seeds[0] is not None else self._first_seed
        self._first_seed = None  # later resets go on with the same streams
        obs, self._mask = self.tables.reset(seed)
        self._reset_seeds()
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        actions = self._actions
        if self.illegal_policy == "first":
            inside = (actions >= 0) & (actions < self._mask.shape[1])
            legal = inside & self._mask[np.arange(self.num_envs), np.where(inside, actions, 0)]
            self.illegal += int((~legal).sum())
            actions = np.where(legal, actions, self._mask.argmax(axis=1))
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
        """The legal codes of every table now."""
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
        raise AttributeError(f"EightsVecEnv has no per-table method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))


def win_share(play: Any, envs: EightsVecEnv, rounds: int) -> float:
    """The learning seat's share of won rounds (``reward="win"``) over ``rounds`` rounds,
    ``play(obs, masks)`` choosing its codes."""
    obs: Any = envs.reset()
    won = over = 0
    while over < rounds:
        obs, rewards, dones, _ = envs.step(play(obs, envs.action_masks()))
        over += int(dones.sum())
        won += int((rewards[dones] > 0).sum())
    return won / over


def main(rules: str = "classic", players: int = 2, tables: int = 64, timesteps: int = 100_000,
         opponents: str | Sequence[str] = "random", rounds: int = 2000, seed: int = 0,
         n_steps: int = 64, threads: int = 1) -> tuple[float, float]:
    """Train MaskablePPO for ``timesteps`` steps, then print and return its win share and a
    random legal policy's over ``rounds`` rounds (seeds other than the training's).
    ``threads``: PyTorch's (one: on a small shared machine more threads only wait on each
    other; a predict on 16 tables took 1 ms of CPU with one thread, 7 ms with two)."""
    torch.set_num_threads(threads)
    train = EightsVecEnv(rules, players, tables, seed=seed, opponents=opponents, reward="win")
    model = MaskablePPO("MlpPolicy", train, n_steps=n_steps, batch_size=min(1024, tables * n_steps),
                        seed=seed, verbose=0)
    model.learn(total_timesteps=timesteps)

    def learnt(obs: npt.NDArray[np.int32], masks: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        return np.asarray(actions)

    rng = np.random.default_rng(seed)

    def random_legal(obs: npt.NDArray[np.int32],
                     masks: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
        return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1))

    def evaluation() -> EightsVecEnv:
        return EightsVecEnv(rules, players, tables, seed=seed + 1_000_003,
                            opponents=opponents, reward="win")

    mine, theirs = win_share(learnt, evaluation(), rounds), win_share(random_legal,
                                                                       evaluation(), rounds)
    print(f"{rules}, {players} players against {opponents}: MaskablePPO after {timesteps} "
          f"steps wins {mine:.3f} of its rounds (at least {rounds}); a random legal policy "
          f"{theirs:.3f}")
    return mine, theirs


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="a preset name or a rules file")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--opponents", default="random", help="random, greedy, or a list")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds to evaluate on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    args = parser.parse_args()
    main(args.rules, args.players, args.tables, args.timesteps, args.opponents, args.rounds,
         args.seed, threads=args.threads)
