"""How long the learned bot takes to decide, in NumPy (the target: under 1 ms on average).

    python benchmarks/learned.py [--games 20] [--seed 0]

For every shipped model, the learned bot plays seeded rounds against itself and each of
its decisions with a choice is timed (CPU time of this thread: the observation's
integers, the features, the network); the expert's decisions in the same positions are
timed alongside for scale.
"""

from __future__ import annotations

import argparse
import random
import time

from eights import Game, load_rules
from eights.bots import ExpertBot, LearnedBot
from eights.bots.learned import shipped_models


def run(games: int, seed: int) -> None:
    for name, players in shipped_models():
        rules = load_rules(name)
        bot, expert = LearnedBot(), ExpertBot()
        mine: list[float] = []
        theirs: list[float] = []
        for g in range(games):
            game = Game(rules, players, seed=seed + g)
            rng = random.Random(seed + g)
            while not game.over:
                seen, legal = game.observe(game.to_move), game.legal_actions()
                if len(legal) > 1:
                    start = time.thread_time()
                    expert.choose(seen, legal, rng)
                    theirs.append(time.thread_time() - start)
                    start = time.thread_time()
                    choice = bot.choose(seen, legal, rng)
                    mine.append(time.thread_time() - start)
                else:
                    choice = legal[0]
                game.apply(choice)
        print(f"{name:<15} {players}p  learned {sum(mine) / len(mine) * 1000:.3f} ms a decision "
              f"on average, {max(mine) * 1000:.2f} ms at most ({len(mine)} decisions); "
              f"expert {sum(theirs) / len(theirs) * 1000:.3f} ms", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run(args.games, args.seed)


if __name__ == "__main__":
    main()
