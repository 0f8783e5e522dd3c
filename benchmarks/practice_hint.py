"""What a practice hint costs the server: processor time per hint, by rule set.

A hint (server/practice.py) values every legal action of the person's decision at the
terminal's quality (``fast``: 1,000 worlds) from the seat's observation. This times
``hint_values`` on the first decision of ``--deals`` seeded deals per rule set, in this
process (the bots' pool runs the same function), after one warm-up hint (imports, the
kernel loaded from numba's cache: what a new pool worker pays once, timed apart).
It checks each hint against the decision's legal actions (every one valued once, the
chances between 0 and 1), so a hint that skipped an action would not look cheap.

    python benchmarks/practice_hint.py --deals 5
"""

from __future__ import annotations

import statistics
import time

from common import Bench, cpu_time
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.server.practice import hint_values

TABLES = (("classic", 3), ("huit-americain", 4), ("switch", 4), ("black-jack", 4))


def decision(name: str, players: int, seed: int) -> Observation:
    """The first decision of a deal, as its seat sees it."""
    game = Game(name, players, seed=seed)
    assert game.to_play is not None
    return game.observe(game.to_play)


def main() -> None:
    bench = Bench(__doc__)
    bench.parser.add_argument("--deals", type=int, default=5, help="deals per rule set")
    args = bench.parse()
    start = time.perf_counter()
    hint_values(decision("classic", 3, args.seed), 0, 16)
    bench.say(f"warm-up (imports, kernel): {time.perf_counter() - start:.1f} s wall")
    for name, players in TABLES:
        spent = []
        for seed in range(args.seed + 1, args.seed + 1 + args.deals):
            view = decision(name, players, seed)
            with cpu_time() as cpu:
                values = hint_values(view, 0, None)
            assert values is not None and sorted(a for line in values for a in line.actions) \
                == sorted(str(a) for a in view.legal), "a hint values every legal action once"
            assert all(0.0 <= line.win <= 1.0 for line in values)
            spent.append(cpu.seconds)
        row = {"rules": name, "players": players, "deals": args.deals,
               "cpu_ms_median": round(1000 * statistics.median(spent), 1),
               "cpu_ms_min": round(1000 * min(spent), 1),
               "cpu_ms_max": round(1000 * max(spent), 1)}
        bench.say(f"{name} ({players} players): median {row['cpu_ms_median']} ms, "
                  f"{row['cpu_ms_min']} to {row['cpu_ms_max']} ms of CPU a hint")
        bench.result(row)


if __name__ == "__main__":
    main()
