"""The belief model against the current sampler: held-out log-loss, and the search's strength.

    python benchmarks/belief.py [--only loss,strength] [--presets classic,huit-fou]
                                [--players 2,4] [--eval-games 150] [--eval-seed 31]
                                [--worlds 400] [--deals 100] [--time 0.1] [--jobs 2]
                                [--search SPEC] [--seed 31] [--minutes 600] [--log FILE] [--quiet]

- ``loss``: for each preset and player count with a shipped model, the log-loss (nats
  per unseen card) on held-out rounds between experts (the ``eval`` seed stream of
  :func:`eights.learn.belief.deal_seed`, never used in training) of the uniform deal,
  the current sampler (``infer=rules`` and ``infer=model``, its marginals counted over
  ``--worlds`` worlds) and the belief model; a Markdown row each;
- ``suits``: a reading of whole hands rather than single cards: the log-loss of the
  true count of each suit in each other hand, counted over ``--worlds`` worlds of the
  band sampler (``infer=model``) and of the belief model's deal
  (:func:`eights.bots.worlds.sample_weighted_world`), smoothed by half a world for each
  of the 14 counts, on the same held-out decisions;
- ``strength``: 2 players, ``ismcts:time=T:worlds=belief`` against ``ismcts:time=T``
  (the same CPU time a move; ``--search SPEC`` for another budget), on duplicate deals
  of ``--seed``: deals ``0, 1, …`` are handed to ``--jobs`` workers one at a time
  until ``--deals`` are played or ``--minutes`` have passed, and the deals finished are
  summarised as a tournament (:func:`eights.lab.tournament.summarise`: the win share
  with its 95% interval over deals); each deal's rounds are also appended to ``--log``
  as they finish.

Needs the ``[train]`` extra (the evaluation code lives with the training code).
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing
import random
import time
from collections import Counter
from pathlib import Path

import strength
from common import Bench
from eights import load_rules
from eights.bots.belief import BeliefModel, model_path
from eights.bots.worlds import hand_bands, sample_weighted_world, sample_world
from eights.lab.tournament import RoundOutcome, play_deal, summarise
from eights.learn.belief import collect, evaluate
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


def suit_rows(presets: list[str], players: list[int], games: int, seed: int,
              worlds: int) -> None:
    print("| preset | players | decisions | band sampler (`infer=model`) | belief worlds |")
    print("| --- | --- | --- | --- | --- |")
    for n in players:
        for preset in presets:
            data = collect(load_rules(preset), n, games, seed, "eval", observations=True)
            model = BeliefModel.load(model_path(preset, n) or "")
            rng = random.Random(seed)
            loss = {"bands": 0.0, "belief": 0.0}
            count = 0
            for seen, labels in zip(data.seen, data.labels, strict=True):
                probs, seats = model.deal_probs(seen)
                bands = hand_bands(seen, "model")
                true = [[int(sum(labels[c, j] for c in range(suit, 52, 4))) for suit in range(4)]
                        for j in range(n - 1)]
                for name in loss:
                    seen_counts: Counter[tuple[int, int, int]] = Counter()
                    for _ in range(worlds):
                        world = (sample_world(seen, rng, bands) if name == "bands"
                                 else sample_weighted_world(seen, rng, probs, seats))
                        for j, s in enumerate(seats):
                            for suit in range(4):
                                held = sum(1 for c in world.hands[s] if c != 52 and c & 3 == suit)
                                seen_counts[j, suit, held] += 1
                    loss[name] -= sum(math.log((seen_counts[j, suit, true[j][suit]] + 0.5)
                                               / (worlds + 7.0))
                                      for j in range(n - 1) for suit in range(4))
                count += 4 * (n - 1)
            print(f"| {preset} | {n} | {len(data)} | {loss['bands'] / count:.4f} | "
                  f"**{loss['belief'] / count:.4f}** |", flush=True)


def _deal(args: tuple[str, tuple[str, ...], int, int]) -> list[RoundOutcome]:
    preset, specs, seed, index = args
    return play_deal(load_rules(preset), 2, specs, seed, index)


def strength_lines(presets: list[str], deals: int, today: str, jobs: int, seed: int,
                   minutes: float, log: Path | None) -> None:
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
    bench = Bench(__doc__, seed=31)
    parser = bench.parser
    parser.add_argument("--only", default="loss,strength")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--eval-games", type=int, default=150)
    parser.add_argument("--eval-seed", type=int, default=31)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--search", help="today's search (default ismcts:time=TIME); the "
                        "first bot is it with :worlds=belief")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=600.0,
                        help="wall-clock budget of the strength check, shared by the presets")
    parser.add_argument("--log", type=Path, help="append each deal's rounds here (JSON lines)")
    args = bench.parse()  # --seed: the deals of the strength check; --quiet: no progress bars
    strength.QUIET = args.quiet
    only = set(args.only.split(","))
    if not only or only - {"loss", "suits", "strength"}:
        parser.error(f"--only takes loss,suits,strength (comma-separated), not {args.only!r}")
    presets = args.presets.split(",")
    if "loss" in only:
        loss_rows(presets, [int(n) for n in args.players.split(",")], args.eval_games,
                  args.eval_seed, args.worlds)
    if "suits" in only:
        suit_rows(presets, [int(n) for n in args.players.split(",")], args.eval_games,
                  args.eval_seed, args.worlds)
    if "strength" in only:
        strength_lines(presets, args.deals, args.search or f"ismcts:time={args.time}",
                       args.jobs, args.seed, args.minutes, args.log)


if __name__ == "__main__":
    main()
