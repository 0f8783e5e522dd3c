"""MaskablePPO (sb3-contrib) learns on the kernel's batched tables through
:class:`eights.rl.sb3.EightsVecEnv`, the Stable-Baselines3 VecEnv adapter.

Run it as is (``python examples/sb3_maskable_ppo.py --rules classic --players 2 --tables 64
--timesteps 100000``; it needs ``pip install stable-baselines3 sb3-contrib``, which the
``test`` extra brings): MaskablePPO learns the learning seat's play against the
``--opponents``, and the learnt policy's win share over ``--rounds`` new rounds is printed
beside a random legal policy's. The adapter (same-step autoreset, final observations,
masks, illegal codes) is described in :mod:`eights.rl.sb3`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from sb3_contrib import MaskablePPO

from eights.rl.sb3 import EightsVecEnv


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
