"""A masked random policy plays many tables at once in the batched environment.

Run it as is (``python examples/batched_random.py --rules classic --players 4 --tables 256``):
``gymnasium.make_vec`` makes an ``EightsVectorEnv`` (the compiled kernel steps every table
in one call; the other seats play at random), the policy picks a uniformly random legal
code at every table from the ``action_mask`` rows, and the rounds finished and the
learning seat's mean reward a round are printed. A table whose round has just ended
shows an empty mask: its next action is ignored (Gymnasium's next-step autoreset).
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np
import numpy.typing as npt

import eights.rl  # noqa: F401  (registers eights/Eights-v0)


def random_legal(rng: np.random.Generator, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """A random legal code a row of ``mask`` (0 where a row has none)."""
    noise = rng.random(mask.shape) * mask  # 0 on the illegal codes
    picks: npt.NDArray[np.int64] = noise.argmax(axis=1)
    return picks


def main(rules: str = "classic", players: int = 4, tables: int = 256, steps: int = 200,
         seed: int = 0) -> tuple[int, float]:
    """Step ``tables`` tables ``steps`` times; return the rounds finished and the learning
    seat's mean reward a round."""
    envs = gymnasium.make_vec("eights/Eights-v0", num_envs=tables, rules=rules,
                              players=players, opponents="random")
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    rounds, total = 0, 0.0
    for _ in range(steps):
        obs, rewards, terminated, _, _ = envs.step(random_legal(rng, obs["action_mask"]))
        rounds += int(terminated.sum())
        total += float(rewards.sum())
    envs.close()
    mean = total / max(rounds, 1)
    print(f"{rules}, {players} players: {tables} tables x {steps} steps, {rounds} rounds over, "
          f"mean reward {mean:+.2f} a round")
    return rounds, mean


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="a preset name or a rules file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    main(args.rules, args.players, args.tables, args.steps, args.seed)
