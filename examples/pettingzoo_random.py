"""Masked random agents play Crazy Eights in PettingZoo's AEC loop.

Run it as is (``python examples/pettingzoo_random.py --rules huit-americain --players 3``):
each agent picks a uniformly random legal code from its ``action_mask``, and the total
reward of each seat over the rounds is printed (with the default zero-sum ``points``
reward the totals add up to 0).
"""

from __future__ import annotations

import argparse

import numpy as np

from eights.rl import env


def main(rules: str = "huit-fou", players: int = 4, rounds: int = 3, seed: int = 0) -> dict[str, float]:
    """Play ``rounds`` rounds (one episode each) and return each agent's total reward."""
    table = env(rules, players)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for episode in range(rounds):
        table.reset(seed=seed + episode)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _info = table.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None  # a finished agent steps with None, as PettingZoo asks
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            table.step(action)
    table.close()
    for agent, total in totals.items():
        print(f"{agent}: {total:+.2f}")
    return totals


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="huit-fou", help="a preset name or a rules file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    main(args.rules, args.players, args.rounds, args.seed)
