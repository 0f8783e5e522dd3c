"""The teacher's model measured: against the expert, beside the shipped family model on the
same deals (issue 33, item 5).

    python benchmarks/teacher.py MODEL [--tables classic:2,huit-americain:2,...] [--deals 400]
                                 [--seed 3301] [--baseline PATH] [--jobs N] [--json FILE]

For each table (a preset or a rules file, and a player count: ``NAME:N``; the default is
the four seed presets at 2 players), ``MODEL`` (a family model, e.g. ``RUN/model.npz`` of
``python -m eights.learn.teacher fit``) and the baseline (the shipped family model) each
play a duplicate tournament against the expert on the same deals (one learned seat against
N - 1 experts, every seating of each deal). Printed per table: each model's win share with
its 95% interval, its share of parity, and the **paired difference** of the two, deal by
deal, with its 95% interval (the same deals cancel most of the luck, so the difference is
known far better than either share). Seeds: 3301 and up are never used by training or
monitoring (docs/bots.md, *The teacher*).

    python -m eights.learn.teacher label --out DATA --seed 2 --tasks 0:4000 ...
    python -m eights.learn.teacher fit DATA --out RUN
    python benchmarks/teacher.py RUN/model.npz --deals 400
    python benchmarks/family.py ship RUN      # only if it measured better (see docs/bots.md)
"""

from __future__ import annotations

from pathlib import Path

from common import Bench, cpu_time
from eights.bots.learned import Model, family_model_path
from eights.engine.rules import load_rules
from eights.learn.train import evaluate, paired

SEED_TABLES = "classic:2,huit-americain:2,huit-fou:2,les-huit:2"


def main() -> None:
    bench = Bench(__doc__, seed=3301)
    bench.parser.add_argument("model", type=Path)
    bench.parser.add_argument("--tables", default=SEED_TABLES,
                              help="NAME:PLAYERS, comma-separated (NAME a preset or a file)")
    bench.parser.add_argument("--deals", type=int, default=400)
    bench.parser.add_argument("--baseline", type=Path, default=family_model_path())
    bench.parser.add_argument("--jobs", type=int, default=None)
    args = bench.parse()
    model, baseline = Model.load(args.model), Model.load(args.baseline)
    for item in args.tables.split(","):
        name, _, count = item.rpartition(":")
        rules, players = load_rules(name), int(count)
        with cpu_time(children=True) as spent:
            mine = evaluate(model, "expert", args.deals, args.seed, args.jobs, rules, players)
            theirs = evaluate(baseline, "expert", args.deals, args.seed, args.jobs, rules,
                              players)
        diff = paired(mine.pop("per_deal"), theirs.pop("per_deal"))
        parity = 1 / players
        bench.say(f"{rules.name} {players}p, {args.deals} deals of seed {args.seed}: model "
                  f"{mine['win_share']:.3f} [{mine['low']:.3f}, {mine['high']:.3f}] "
                  f"({mine['win_share'] / parity:.3f} of parity), shipped "
                  f"{theirs['win_share']:.3f} [{theirs['low']:.3f}, {theirs['high']:.3f}]; "
                  f"difference {diff['difference']:+.4f} [{diff['low']:+.4f}, "
                  f"{diff['high']:+.4f}] ({spent.wall:.0f} s)")
        bench.result({"rules": rules.name, "players": players, "deals": args.deals,
                      "seed": args.seed, "model": str(args.model), "win_share": mine,
                      "of_parity": round(mine["win_share"] / parity, 4), "shipped": theirs,
                      "difference": diff, "cpu_s": round(spent.seconds, 1),
                      "wall_s": round(spent.wall, 1)})


if __name__ == "__main__":
    main()
