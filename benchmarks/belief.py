"""The belief model against the current sampler: held-out log-loss, and the search's strength.

    python benchmarks/belief.py [--only loss,strength] [--presets classic,huit-fou]
                                [--players 2,4] [--eval-games 150] [--eval-seed 31]
                                [--worlds 400] [--deals 100] [--time 0.1] [--jobs 2]
                                [--seed 31] [--quiet]

- ``loss``: for each preset and player count with a shipped model, the log-loss (nats
  per unseen card) on held-out rounds between experts (the ``eval`` seed stream of
  :func:`eights.learn.belief.deal_seed`, never used in training) of the uniform deal,
  the current sampler (``infer=rules`` and ``infer=model``, its marginals counted over
  ``--worlds`` worlds) and the belief model; a Markdown row each;
- ``strength``: 2 players, ``ismcts:time=T:worlds=belief`` against ``ismcts:time=T``
  (the same CPU time a move), on duplicate deals of ``--seed``.

Needs the ``[train]`` extra (the evaluation code lives with the training code).
"""

from __future__ import annotations

import argparse

import strength
from eights import load_rules
from eights.bots.belief import BeliefModel, model_path
from eights.learn.belief import evaluate
from strength import _line, tournament

PRESETS = ("classic", "huit-americain", "les-huit", "huit-fou")


def loss_rows(presets: list[str], players: list[int], games: int, seed: int,
              worlds: int) -> None:
    print("| preset | players | decisions | uniform | sampler, infer=rules | "
          "sampler, infer=model | belief model | ms a decision |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in players:
        for preset in presets:
            path = model_path(preset, n)
            if path is None:
                print(f"| {preset} | {n} | no model ships | | | | | |", flush=True)
                continue
            r = evaluate(BeliefModel.load(path), load_rules(preset), n, games, seed, worlds)
            print(f"| {preset} | {n} | {r['decisions']} | {r['uniform']:.4f} | "
                  f"{r['sampler-rules']:.4f} | {r['sampler-model']:.4f} | "
                  f"**{r['belief']:.4f}** | {r['ms_per_decision']:.2f} |", flush=True)


def strength_lines(presets: list[str], deals: int, seconds: float, jobs: int, seed: int) -> None:
    today = f"ismcts:time={seconds}"
    belief = f"{today}:worlds=belief"
    for preset in presets:
        result = tournament(preset, 2, [belief, today], deals, jobs=jobs, seed=seed)
        print(_line(result, belief, today, None), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", default="loss,strength")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--eval-games", type=int, default=150)
    parser.add_argument("--eval-seed", type=int, default=31)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args()
    strength.QUIET = args.quiet
    only = set(args.only.split(","))
    if not only or only - {"loss", "strength"}:
        parser.error(f"--only takes loss,strength (comma-separated), not {args.only!r}")
    presets = args.presets.split(",")
    if "loss" in only:
        loss_rows(presets, [int(n) for n in args.players.split(",")], args.eval_games,
                  args.eval_seed, args.worlds)
    if "strength" in only:
        strength_lines(presets, args.deals, args.time, args.jobs, args.seed)


if __name__ == "__main__":
    main()
