"""Speed of the bots: ISMCTS iterations per second per preset, time per decision of every bot.

    python benchmarks/bots.py [--decisions 40] [--iterations 300]

For each preset (default player count) it collects decision points from
seeded games between greedy bots (only decisions with more than one legal
action), then times every bot on the same decisions: random, greedy, expert,
and ISMCTS with a fixed budget of rollouts, with and without pruning (the
rollouts per second of the unpruned search are printed, and the cost of
sampling one world).
"""

from __future__ import annotations

import argparse
import random
import time

from eights import Game, Observation, load_rules, preset_names
from eights.bots import make_bot
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.actions import Action


def decision_points(name: str, count: int, seed: int = 1) -> list[tuple[Observation, list[Action]]]:
    rules = load_rules(name)
    greedy = make_bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[Observation, list[Action]]] = []
    game_seed = seed
    while len(out) < count:
        game = Game(rules, rules.default_players, seed=game_seed)
        game_seed += 1
        while not game.over and len(out) < count:
            seat = game.to_move
            legal = game.legal_actions()
            seen = game.observe(seat)
            if len(legal) > 1:
                out.append((seen, legal))
            game.apply(greedy.choose(seen, legal, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    specs = ["random", "greedy", "expert", f"ismcts:iterations={args.iterations}",
             f"ismcts:iterations={args.iterations}:prune=0"]
    heads = ["random ms", "greedy ms", "expert ms", "ismcts ms", "unpruned ms"]
    print(f"{'preset':<16}" + "".join(f"{h:>12}" for h in heads)
          + f"{'ismcts it/s':>14}{'sample µs':>11}")
    for name in preset_names():
        points = decision_points(name, args.decisions)
        row = f"{name:<16}"
        for spec in specs:
            bot = make_bot(spec)
            rng = random.Random(0)
            rollouts = 0
            start = time.process_time()
            for seen, legal in points:
                bot.choose(seen, legal, rng)
                rollouts += getattr(bot, "last_iterations", 0)
            spent = time.process_time() - start
            row += f"{spent / len(points) * 1000:>12.3f}"
            if spec.startswith("ismcts"):
                its = rollouts / spent  # pruning stops some decisions before the budget
        sampler = random.Random(0)
        start = time.process_time()
        for seen, _ in points:
            bands = hand_bands(seen)
            for _ in range(20):
                sample_world(seen, sampler, bands)
        sample_us = (time.process_time() - start) / (20 * len(points)) * 1e6
        print(row + f"{its:>14.0f}{sample_us:>11.1f}")


if __name__ == "__main__":
    main()
