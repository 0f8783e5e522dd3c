"""What a label costs at each world count: CPU seconds a position, seed presets at 2 players.

    python benchmarks/teach/cost.py [--worlds 32,64,128,256,512] [--positions 40]

The same positions (one task's rounds, the same seed) labelled at each world count, in one
process, alternating; prints the CPU model and load beside the times.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import Bench, cpu_time
from eights.engine.rules import load_rules
from eights.learn.teacher import SEARCH, SEED_PRESETS, label_task


def main() -> None:
    bench = Bench(__doc__, seed=11)
    bench.parser.add_argument("--worlds", default="32,64,128,256,512")
    bench.parser.add_argument("--positions", type=int, default=40)
    args = bench.parse()
    counts = [int(w) for w in args.worlds.split(",")]
    spent: dict[int, float] = dict.fromkeys(counts, 0.0)
    done: dict[int, int] = dict.fromkeys(counts, 0)
    label_task(load_rules("classic"), 2, 1, 2, SEARCH, 16, 0.2)  # warm the kernel
    for k, preset in enumerate(SEED_PRESETS):
        for w in counts:
            with cpu_time() as t:
                got = label_task(load_rules(preset), 2, args.seed + k, args.positions, SEARCH,
                                 w, 0.2)
            spent[w] += t.seconds
            done[w] += len(got["chosen"])
    for w in counts:
        bench.say(f"{w} worlds: {1000 * spent[w] / done[w]:.1f} ms of CPU a position "
                  f"({done[w]} positions; {done[w] / spent[w]:.1f} a CPU second; "
                  f"{1000 * spent[w] / done[w] / w:.3f} ms a world)")
        bench.result({"worlds": w, "positions": done[w], "cpu_s": round(spent[w], 2)})


if __name__ == "__main__":
    main()
