"""How long the learned bot takes to decide, in NumPy (the target: under 1 ms on average).

    python benchmarks/learned.py [--games 20] [--seed 0] [--only family|specialists]

For every shipped specialist model at its own table, then for the family model at every
preset with 2, 4 and 6 players (where the preset allows them) and at the house-rules files
of ``benchmarks/houses`` (3 players), the learned bot plays seeded rounds against itself
and each of its decisions with a choice is timed (CPU time of this thread: the
observation's integers, the features, the network); the expert's decisions in the same
positions are timed alongside for scale. The last line is the family model's mean over
every decision timed.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from eights import Game, load_rules, preset_names
from eights.bots import ExpertBot, LearnedBot
from eights.bots.learned import family_model_path, shipped_model, shipped_models
from eights.engine.errors import RulesError
from eights.engine.rules import Rules

HOUSES = Path(__file__).resolve().parent / "houses"


def timed(bot: LearnedBot, rules: Rules, players: int, games: int,
          seed: int) -> tuple[list[float], list[float]]:
    """The learned bot's and the expert's decision times (seconds) over ``games`` rounds."""
    expert = ExpertBot()
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
    return mine, theirs


def line(what: str, mine: list[float], theirs: list[float]) -> None:
    print(f"{what:<28} learned {sum(mine) / len(mine) * 1000:.3f} ms a decision on average, "
          f"{max(mine) * 1000:.2f} ms at most ({len(mine)} decisions); expert "
          f"{sum(theirs) / len(theirs) * 1000:.3f} ms", flush=True)


def run(games: int, seed: int, only: str | None) -> None:
    if only in (None, "specialists"):
        for name, players in shipped_models():
            rules = load_rules(name)
            bot = LearnedBot(str(shipped_model(rules, players)))
            line(f"{name} {players}p (specialist)", *timed(bot, rules, players, games, seed))
    if only in (None, "family"):
        family = LearnedBot(str(family_model_path()))
        every: list[float] = []
        tables: list[tuple[str, Rules, int]] = []
        for name in preset_names():
            for n in (2, 4, 6):
                try:
                    load_rules(name).check_players(n)
                except RulesError:
                    continue
                tables.append((f"{name} {n}p (family)", load_rules(name), n))
        tables += [(f"{p.stem} 3p (family)", load_rules(p), 3)
                   for p in sorted(HOUSES.glob("*.toml"))]
        for what, rules, n in tables:
            mine, theirs = timed(family, rules, n, max(1, games // 4), seed)
            every += mine
            line(what, mine, theirs)
        print(f"family model, every table: {sum(every) / len(every) * 1000:.3f} ms a decision "
              f"on average over {len(every)} decisions", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("family", "specialists"))
    args = parser.parse_args()
    run(args.games, args.seed, args.only)


if __name__ == "__main__":
    main()
