"""Ship trained models: measure each as shipped, write it into the package, list them in the docs.

    python benchmarks/ship_models.py RUN_DIR [RUN_DIR ...] [--jobs 2]
    python benchmarks/ship_models.py --table-only

Each ``RUN_DIR`` is an ``eights train --out`` folder (``model.npz`` with its card). Its
weights are rounded to float16 (half the size; the bot computes in float32), then the
model is measured *as shipped* on duplicate deals of seeds that training never uses:
against ``expert`` 500 deals (seed 2026), ``greedy`` 300 (seed 2027), ``random`` 200
(seed 2028), one learned seat against the others at more than two players. The
measurements go into the card's ``strength``, and the model to
``src/eights/models/<rules>-<players>p.npz`` with its card. Last, the table of shipped
models in docs/bots.md (between ``<!-- shipped-models -->`` and its end mark) is written
again from every shipped card.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from common import Bench
from eights.bots.learned import Model, shipped_models
from eights.learn.train import evaluate

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "src" / "eights" / "models"
DOC = ROOT / "docs" / "bots.md"
MEASURES = (("expert", 500, 2026), ("greedy", 300, 2027), ("random", 200, 2028))
"""Opponent, duplicate deals and seed of each measurement of a shipped model."""


def ship(run: Path, jobs: int | None, bench: Bench | None = None) -> Path:
    """Measure the model of ``run`` as shipped and write it into the package."""
    trained = Model.load(run / "model.npz")
    half = tuple(w.astype(np.float16).astype(np.float32) for w in trained.weights)
    card = dict(trained.card, weights="float16 (measured as shipped)")
    model = Model(half, card)
    strength = []
    for opponent, deals, seed in MEASURES:
        result = evaluate(model, opponent, deals, seed, jobs=jobs)
        del result["per_deal"]  # (the card keeps the share and its interval)
        strength.append({"opponent": opponent, "deals": deals, "seed": seed,
                         "players": model.players, **result})
        print(f"{run.name}: vs {opponent} {result['win_share']:.3f} "
              f"[{result['low']:.3f}, {result['high']:.3f}]", flush=True)
        if bench is not None:
            bench.result({"run": run.name, **strength[-1]})
    card["strength"] = strength
    target = MODELS / f"{card['rules_name']}-{model.players}p.npz"
    Model(tuple(w.astype(np.float16) for w in half), card).save(target)
    return target


def _share(card: dict[str, Any], opponent: str) -> str:
    for s in card["strength"]:
        if s["opponent"] == opponent:
            return f"{s['win_share']:.3f} [{s['low']:.3f}, {s['high']:.3f}]"
    return "—"


def table() -> str:
    """The docs' table of shipped models, from their cards."""
    lines = ["| preset | players | trained (wall / CPU minutes) | imitated | self-play samples "
             "| vs expert | vs greedy | vs random |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, players in shipped_models():
        card = json.loads((MODELS / f"{name}-{players}p.json").read_text("utf-8"))
        t = card["training"]
        cpu = f"{t['cpu_seconds'] / 60:.0f}" if "cpu_seconds" in t else "—"
        lines.append(f"| {name} | {players} | {t['seconds'] / 60:.0f} / {cpu} | "
                     f"{t.get('imitated', 0):,} | {t['samples']:,} | {_share(card, 'expert')} | "
                     f"{_share(card, 'greedy')} | {_share(card, 'random')} |")
    return "\n".join(lines)


def write_table() -> None:
    text = DOC.read_text("utf-8")
    begin, end = "<!-- shipped-models -->\n", "<!-- /shipped-models -->"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    DOC.write_text(f"{head}{begin}{table()}\n{end}{tail}", "utf-8")


def main() -> None:
    bench = Bench(__doc__, seed=None)  # the seeds are fixed: MEASURES
    bench.parser.add_argument("runs", nargs="*", type=Path, help="eights train --out folders")
    bench.parser.add_argument("--jobs", type=int, default=None,
                              help="processes of the tournaments")
    bench.parser.add_argument("--table-only", action="store_true",
                              help="only write the docs' table from the shipped cards")
    args = bench.parse()
    if not args.table_only:
        for run in args.runs:
            print(f"shipped {ship(run, args.jobs, bench)}", flush=True)
    write_table()


if __name__ == "__main__":
    main()
