"""Environment steps per second: the PettingZoo env, the Gymnasium env (and the batched one).

    python benchmarks/environments.py [--rules classic] [--players 4] [--seconds 3]

In one run, on one rule set, each environment is driven by a masked uniform-random
policy (NumPy) for ``--seconds`` of CPU time, episodes one after another (best of
``--repeats``, alternating so that a busy machine hurts all alike):

- ``pettingzoo``: ``eights.rl.env`` (PettingZoo's wrappers included), a step is one
  seat's decision (``last()`` then ``step()``; the finished agents' ``None`` steps are
  not counted);
- ``gymnasium``: ``eights.rl.EightsEnv`` with ``random`` opponents, a step is one
  decision of the learning seat, the bots' decisions in between included in its cost.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from eights.rl import EightsEnv, env


def pettingzoo_steps(rules: str, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Steps, episodes and CPU seconds of the PettingZoo env."""
    table = env(rules, players)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        table.reset(seed=seed + episodes)
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        episodes += 1
    return steps, episodes, time.process_time() - start


def gymnasium_steps(rules: str, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Steps, episodes and CPU seconds of the Gymnasium env (random opponents)."""
    single = EightsEnv(rules, players, opponents="random")
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    obs, _ = single.reset(seed=seed)
    while time.process_time() < start + seconds:
        obs, _, terminated, _, _ = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated:
            episodes += 1
            obs, _ = single.reset()
    return steps, episodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, Callable[[str, int, float], tuple[int, int, float]]] = {
        "pettingzoo": pettingzoo_steps,
        "gymnasium": gymnasium_steps,
    }
    best: dict[str, tuple[float, int, int]] = {}
    for _ in range(args.repeats):
        for name, run in runs.items():
            steps, episodes, cpu = run(args.rules, args.players, args.seconds)
            rate = steps / cpu
            if name not in best or rate > best[name][0]:
                best[name] = (rate, steps, episodes)
    print(f"{args.rules}, {args.players} players, {args.seconds:g} s CPU a run, best of "
          f"{args.repeats}")
    base = best["pettingzoo"][0]
    for name, (rate, steps, episodes) in best.items():
        print(f"  {name:<24} {rate:>12,.0f} steps/s  ({steps:,} steps, {episodes:,} episodes; "
              f"{rate / base:.1f}x pettingzoo)")


if __name__ == "__main__":
    main()
