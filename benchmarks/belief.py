"""The belief model against the current sampler: held-out log-loss, and the search's strength.

    python benchmarks/belief.py [--only loss,strength] [--presets classic,huit-fou]
                                [--players 2,4] [--eval-games 150] [--eval-seed 31]
                                [--worlds 400] [--deals 100] [--time 0.1] [--jobs 2]
                                [--seed 31] [--minutes 600] [--log FILE] [--quiet]

- ``loss``: for each preset and player count with a shipped model, the log-loss (nats
  per unseen card) on held-out rounds between experts (the ``eval`` seed stream of
  :func:`eights.learn.belief.deal_seed`, never used in training) of the uniform deal,
  the current sampler (``infer=rules`` and ``infer=model``, its marginals counted over
  ``--worlds`` worlds) and the belief model; a Markdown row each;
- ``strength``: 2 players, ``ismcts:time=T:worlds=belief`` against ``ismcts:time=T``
  (the same CPU time a move), on duplicate deals of ``--seed``: deals ``0, 1, …`` are
  handed to ``--jobs`` workers one at a time until ``--deals`` are played or
  ``--minutes`` have passed, and the deals finished are summarised as a tournament
  (:func:`eights.lab.tournament.summarise`: the win share with its 95% interval over
  deals); each deal's rounds are also appended to ``--log`` as they finish.

Needs the ``[train]`` extra (the evaluation code lives with the training code).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import time
from pathlib import Path

import strength
from eights import load_rules
from eights.bots.belief import BeliefModel, model_path
from eights.lab.tournament import RoundOutcome, play_deal, summarise
from eights.learn.belief import evaluate
from strength import _line

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


def _deal(args: tuple[str, tuple[str, ...], int, int]) -> list[RoundOutcome]:
    preset, specs, seed, index = args
    return play_deal(load_rules(preset), 2, specs, seed, index)


def strength_lines(presets: list[str], deals: int, seconds: float, jobs: int, seed: int,
                   minutes: float, log: Path | None) -> None:
    today = f"ismcts:time={seconds}"
    belief = f"{today}:worlds=belief"
    specs = (belief, today)
    for preset in presets:
        start = time.time()
        done: list[list[RoundOutcome]] = []
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            tasks = ((preset, specs, seed, i) for i in range(deals))
            for rounds in pool.imap_unordered(_deal, tasks):
                done.append(rounds)
                if log is not None:
                    with log.open("a") as out:
                        out.write(json.dumps([dataclasses.asdict(o) for o in rounds]) + "\n")
                if time.time() - start > 60 * minutes / len(presets):
                    pool.terminate()
                    break
        # the deals finished, numbered 0.. in the order of their indices
        done.sort(key=lambda rounds: rounds[0].deal)
        outcomes = [dataclasses.replace(o, deal=d) for d, rounds in enumerate(done) for o in rounds]
        result = summarise(load_rules(preset), 2, specs, len(done), seed, outcomes,
                           time.time() - start)
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
    parser.add_argument("--minutes", type=float, default=600.0,
                        help="wall-clock budget of the strength check, shared by the presets")
    parser.add_argument("--log", type=Path, help="append each deal's rounds here (JSON lines)")
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
        strength_lines(presets, args.deals, args.time, args.jobs, args.seed, args.minutes,
                       args.log)


if __name__ == "__main__":
    main()
