"""How long the learned bot takes to decide, in NumPy (the target: under 1 ms on average),
with OpenBLAS at one thread (what eights does) and at one a core (NumPy's own default).

    python benchmarks/learned.py [--games 8] [--seed 0] [--only family|specialists|houses]
                                 [--modes one,cores] [--repeats 1] [--json FILE]

For every shipped specialist model at its own table, then for the family model at every
preset with 2, 4 and 6 players (where the preset allows them) and at the house-rules files
of ``benchmarks/houses`` (at 3 and at 6 players, or the nearest count a file allows), the
learned bot plays seeded rounds against itself and each of its decisions with a choice is
timed in **process CPU time** (every thread of the process: OpenBLAS's workers count; the
observation's integers, the features, the network); the expert's decisions in the same
positions are timed alongside for scale, and each table's wall time is kept.

Each mode runs in a child process of its own, alternating, ``--repeats`` times (OpenBLAS
reads its thread count when NumPy loads):

- ``one``: as eights runs it: the bot holds OpenBLAS to one thread around each decision
  (:func:`eights.bots.blas.one_thread`);
- ``cores``: ``OPENBLAS_NUM_THREADS`` set to the cores (the count OpenBLAS takes by
  itself), which eights leaves alone: the bot as it ran before it limited its threads.

The last lines give, per mode, the family model's mean over every decision timed and the
wall time of every table together.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from common import Bench

HOUSES = Path(__file__).resolve().parent / "houses"
MODES = ("one", "cores")


def nearest(allowed: list[int], want: int) -> int:
    """The player count of ``allowed`` nearest ``want`` (the smaller of two)."""
    return min(allowed, key=lambda k: (abs(k - want), k))


def tables(only: str | None) -> list[tuple[str, str, int, str]]:
    """``(label, rules spec, players, model)`` of every table measured (``model`` "" for the
    family model)."""
    from eights import load_rules, preset_names
    from eights.bots.learned import shipped_model, shipped_models
    from eights.engine.errors import RulesError
    from eights.lab.houses import house_players

    out: list[tuple[str, str, int, str]] = []
    if only in (None, "specialists"):
        for name, players in shipped_models():
            path = str(shipped_model(load_rules(name), players))
            out.append((f"{name} {players}p (specialist)", name, players, path))
    if only in (None, "family"):
        for name in preset_names():
            for n in (2, 4, 6):
                try:
                    load_rules(name).check_players(n)
                except RulesError:
                    continue
                out.append((f"{name} {n}p (family)", name, n, ""))
    if only in (None, "family", "houses"):
        for house in sorted(HOUSES.glob("*.toml")):
            allowed = house_players(load_rules(house))
            for n in sorted({nearest(allowed, want) for want in (3, 6)}):
                out.append((f"{house.stem} {n}p (family)", str(house), n, ""))
    return out


def child(only: str | None, games: int, seed: int) -> None:
    """One mode's measurement (this process's OpenBLAS as its environment set it): a JSON
    line per table on standard output."""
    from eights import Game, load_rules
    from eights.bots import ExpertBot, LearnedBot
    from eights.bots.learned import family_model_path

    expert = ExpertBot()
    for label, spec, players, model in tables(only):
        rules = load_rules(spec)
        bot = LearnedBot(model or str(family_model_path()))
        mine: list[float] = []
        theirs: list[float] = []
        rounds = games if model else max(1, games // 4)
        wall = time.perf_counter()
        for g in range(rounds):
            game = Game(rules, players, seed=seed + g)
            rng = random.Random(seed + g)
            while not game.over:
                seen, legal = game.observe(game.to_move), game.legal_actions()
                if len(legal) > 1:
                    start = time.process_time()
                    expert.choose(seen, legal, rng)
                    theirs.append(time.process_time() - start)
                    start = time.process_time()
                    choice = bot.choose(seen, legal, rng)
                    mine.append(time.process_time() - start)
                else:
                    choice = legal[0]
                game.apply(choice)
        print(json.dumps({"table": label, "family": not model, "decisions": len(mine),
                          "learned_ms": 1000 * statistics.fmean(mine) if mine else 0.0,
                          "learned_max_ms": 1000 * max(mine, default=0.0),
                          "expert_ms": 1000 * statistics.fmean(theirs) if theirs else 0.0,
                          "learned_s": sum(mine), "wall_s": time.perf_counter() - wall}),
              flush=True)


def run_mode(mode: str, only: str | None, games: int, seed: int) -> list[dict[str, Any]]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")}
    if mode == "cores":
        env["OPENBLAS_NUM_THREADS"] = str(os.cpu_count() or 1)
    argv = [sys.executable, __file__, "--child", "--quiet", "--games", str(games), "--seed", str(seed)]
    if only:
        argv += ["--only", only]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    bench = Bench(__doc__)
    bench.parser.add_argument("--games", type=int, default=8,
                              help="rounds a specialist's table (a quarter for the family's)")
    bench.parser.add_argument("--only", choices=("family", "specialists", "houses"))
    bench.parser.add_argument("--modes", default=",".join(MODES),
                              help=f"comma-separated, of {', '.join(MODES)}")
    bench.parser.add_argument("--repeats", type=int, default=1)
    bench.parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = bench.parse()
    if args.child:
        child(args.only, args.games, args.seed)
        return
    modes = args.modes.split(",")
    if unknown := set(modes) - set(MODES):
        bench.parser.error(f"unknown modes {sorted(unknown)}; modes: {', '.join(MODES)}")
    runs: dict[str, list[list[dict[str, Any]]]] = {m: [] for m in modes}
    for _ in range(args.repeats):
        for mode in modes:
            runs[mode].append(run_mode(mode, args.only, args.games, args.seed))
    bench.say("| table | decisions | " + " | ".join(
        f"learned ms ({m}) | max ms ({m}) | wall s ({m})" for m in modes) + " | expert ms |")
    bench.say("| --- | ---: | " + " | ".join("---: | ---: | ---:" for _ in modes) + " | ---: |")
    first = runs[modes[0]][0]
    for i, row in enumerate(first):
        cells = []
        for m in modes:
            got = [r[i] for r in runs[m]]
            cells.append(f"{statistics.median(g['learned_ms'] for g in got):.3f} | "
                         f"{statistics.median(g['learned_max_ms'] for g in got):.2f} | "
                         f"{statistics.median(g['wall_s'] for g in got):.2f}")
        bench.say(f"| {row['table']} | {row['decisions']} | " + " | ".join(cells)
                  + f" | {row['expert_ms']:.3f} |")
    for m in modes:
        family = [t for r in runs[m] for t in r if t["family"]]
        decisions = sum(t["decisions"] for t in family)
        mean = 1000 * sum(t["learned_s"] for t in family) / max(1, decisions)
        wall = statistics.median(sum(t["wall_s"] for t in r) for r in runs[m])
        bench.say(f"{m}: family model, every table: {mean:.3f} ms of process CPU a decision "
                  f"({decisions} decisions over {args.repeats} repeat(s)); every table's rounds "
                  f"{wall:.1f} s of wall time (median)")
        bench.result({"mode": m, "family_ms": round(mean, 4), "decisions": decisions,
                      "wall_s": round(wall, 2), "tables": runs[m]})


if __name__ == "__main__":
    main()
