"""The compiled search against the search it replaced, in paired duplicate tournaments.

    python benchmarks/search_match.py [--presets classic,huit-americain] [--players 2]
                                      [--deals 300] [--iterations 2000] [--jobs 2]
                                      [--seed 27] [--experts]

``ismcts:iterations=N`` (``kernel=auto``: the search in compiled code, :mod:`eights.fast.search`)
against ``ismcts:iterations=N:kernel=rollout`` (the search as it was: worlds and tree on the
engine, rollouts on the kernel), the same number of rollouts a decision, on the same deals:

- 2 players (default): head to head, each deal played in both seatings. Equal strength is
  0.5 for each; the line gives the compiled search's share of the rounds with its 95%
  interval over deals.
- ``--experts`` (any player count from 3): both searches and experts at one table, one seat
  each for the searches and the rest experts, every order of the seats on every deal, so
  that each search meets the same experts on the same deals: the two searches' shares
  and their paired difference, deal by deal, with its 95% interval.

Nothing here is timed against a target: the speed is ``benchmarks/search_speed.py``'s.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from eights import load_rules
from eights.lab.tournament import TournamentResult, standings_table, tournament


def _per_deal(result: TournamentResult, bot: int) -> list[float]:
    """Bot ``bot``'s share of each deal's wins, per seat it held."""
    wins = [0.0] * result.deals
    seats = [0] * result.deals
    for o in result.outcomes:
        share = 1 / len(o.winners) if o.winners else 0.0
        for s, b in enumerate(o.seats):
            if b == bot:
                seats[o.deal] += 1
                if s in o.winners:
                    wins[o.deal] += share
    return [w / n for w, n in zip(wins, seats, strict=True) if n]


def _interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - 1.96 * se, mean + 1.96 * se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="classic,huit-americain")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--experts", action="store_true",
                        help="both searches against experts at one table (3 players or more)")
    args = parser.parse_args()
    compiled = f"ismcts:iterations={args.iterations}"
    before = f"ismcts:iterations={args.iterations}:kernel=rollout"
    for preset in args.presets.split(","):
        rules = load_rules(preset)
        began = time.perf_counter()
        if args.experts:
            if args.players < 3:
                parser.error("--experts needs 3 players or more")
            result = tournament(rules, args.players, [compiled, before, "expert"], args.deals,
                                jobs=args.jobs, seed=args.seed,
                                seats=(1, 1, args.players - 2))
        else:
            result = tournament(rules, args.players, [compiled, before], args.deals,
                                jobs=args.jobs, seed=args.seed)
        wall = time.perf_counter() - began
        print(f"## {preset}, {args.players} players, {args.deals} deals, seed {args.seed} "
              f"({wall / 60:.1f} min wall)")
        print(standings_table(result))
        mine, theirs = _per_deal(result, 0), _per_deal(result, 1)
        m, lo, hi = _interval(mine)
        print(f"compiled search: {m:.3f} [{lo:.3f}, {hi:.3f}] of the rounds "
              f"(95% interval over {len(mine)} deals)")
        if args.experts:
            t, tlo, thi = _interval(theirs)
            d, dlo, dhi = _interval([a - b for a, b in zip(mine, theirs, strict=True)])
            print(f"search before: {t:.3f} [{tlo:.3f}, {thi:.3f}]; compiled minus before, "
                  f"deal by deal: {d:+.3f} [{dlo:+.3f}, {dhi:+.3f}]")
        print(flush=True)


if __name__ == "__main__":
    main()
