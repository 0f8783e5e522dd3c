"""The value benchmark: the review's values against reference values, on stored positions.

    python benchmarks/values.py positions   [--per 26] [--seed 0]
    python benchmarks/values.py references  [--worlds 8000]
    python benchmarks/values.py engine      [--positions 30] [--worlds 300]
    python benchmarks/values.py review      [--spec ismcts] [--worlds 4000] [--seeds 16]
                                            [--spread-worlds 500] [--limit N]
    python benchmarks/values.py issue       [--worlds 20000]
    python benchmarks/values.py choose      --specs ismcts,ismcts:z=1 [--repeats 2]

A **value** (docs/bots.md, *What a value means*) is the chance that the seat (its team)
wins the round, and its expected points, when after the action every seat, the seat
included, plays the expert, over worlds dealt from the seat's observation (the
opponents' hands read from their moves: ``ismcts``'s ``infer=model`` bands).

- ``positions`` plays seeded rounds of classic, huit-americain, huit-fou, les-huit,
  crazy-eights and uno-cards at 2 and 4 players, every seat played by one kind of player
  in turn (``random``, ``greedy``, ``expert``, ``ismcts:iterations=300``), and keeps one
  decision with a choice from each round (a uniform pick), ``--per`` a table: written to
  ``benchmarks/values/positions.jsonl`` as the round's seed, the moves before the
  decision and the seat (replayed, they give the seat's observation).
- ``references`` values every action of every position by ``--worlds`` fresh worlds and
  replays (``ismcts`` evaluate, compiled, each position its own seed, independent of any
  review's): ``benchmarks/values/references.jsonl``, each action's win and points with
  their standard errors.
- ``engine`` checks the references against an implementation that shares no compiled
  code: on ``--positions`` positions, the same values played on the engine
  (``kernel=off``: worlds dealt by ``sample_world``, every seat played by the Python
  ``ExpertBot`` through its observation); the differences over their standard errors
  should look like a standard normal sample: ``benchmarks/values/engine.jsonl``.
- ``review`` is the benchmark: the review's values (``--spec``'s evaluation, at
  ``--worlds``, the review's seed 0) against the references: bias and mean absolute
  error, best-move agreement where the references' gap exceeds 0.05, and each action's
  spread over ``--seeds`` seeds (at ``--spread-worlds`` worlds each, as ``Z`` scores are
  scale-free) against its stated standard error, with the share of actions between 0.7
  and 1.4 that honest errors would give with that many seeds (by simulation).
- ``issue`` values the six positions of issue 33 (classic, 2 and 4 players) by the old
  review (``rollout=greedy:tree=own``), the new one, and ``--worlds`` fresh worlds.
- ``choose`` judges the search's choices by the references: each of ``--specs`` chooses a
  move at every position (``--repeats`` times, with other seeds), and the line gives the
  mean reference value of the moves chosen and the mean regret (the best reference value
  less the chosen move's), and each spec's difference from the first, position by
  position: a cheap, low-noise measure of how well a search finds the best move by the
  value's own definition (the tuning of the search's options; a tournament confirms).

Seeds: positions from ``--seed`` (default 0); references with seed ``1_000_003 + id``; the
review with seed 0, its spread with seeds 1 to ``--seeds``.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from common import Bench, cpu_time
from eights import Game
from eights.bots import make_bot
from eights.bots.ismcts import Evaluation, ISMCTSBot
from eights.engine.observation import Observation
from eights.lab.review import Position, evaluate_position

HERE = Path(__file__).resolve().parent / "values"
POSITIONS = HERE / "positions.jsonl"
REFERENCES = HERE / "references.jsonl"
ENGINE = HERE / "engine.jsonl"

TABLES = [(p, n) for p in ("classic", "huit-americain", "huit-fou", "les-huit", "crazy-eights",
                           "uno-cards") for n in (2, 4)]
PLAYERS = ("random", "greedy", "expert", "ismcts:iterations=300")
REFERENCE_SEED = 1_000_003
GAP = 0.05


# ---------------------------------------------------------------- positions
def _round(preset: str, players: int, seed: int, player: str) -> tuple[Game, list[int]]:
    """A seeded round played by ``player`` in every seat: the game over, and the index in
    its history of every decision with a choice."""
    game = Game(preset, players, seed=seed)
    bots = [make_bot(player) for _ in range(players)]
    rng = random.Random(seed)
    choices = []
    while not game.over:
        legal = game.legal_actions()
        if len(legal) > 1:
            choices.append(len(game.history))
        game.apply(bots[game.to_move].choose(game.observe(game.to_move), legal, rng))
    return game, choices


def make_positions(per: int, seed: int) -> Iterator[dict[str, Any]]:
    at = 0
    for preset, players in TABLES:
        for k in range(per):
            player = PLAYERS[k % len(PLAYERS)]
            deal = seed * 100_000 + at
            game, choices = _round(preset, players, deal, player)
            while not choices:
                deal += 7919
                game, choices = _round(preset, players, deal, player)
            pick = random.Random(deal).choice(choices)
            seat, _ = game.history[pick]
            yield {"id": at, "preset": preset, "players": players, "deal": deal,
                   "player": player, "seat": seat,
                   "moves": [str(a) for _, a in game.history[:pick]]}
            at += 1


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def observation(record: dict[str, Any]) -> Observation:
    """The seat's observation at a stored position (its round replayed)."""
    game = Game(record["preset"], record["players"], seed=record["deal"])
    for move in record["moves"]:
        game.apply(move)
    assert game.to_move == record["seat"]
    return game.observe(record["seat"])


# ---------------------------------------------------------------- references
def evaluate(bot: ISMCTSBot, seen: Observation, seed: int, worlds: int) -> Evaluation:
    return bot.evaluate(seen, list(seen.legal), random.Random(seed), worlds)


def reference_row(record: dict[str, Any], worlds: int, kernel: str = "auto") -> dict[str, Any]:
    seen = observation(record)
    bot = ISMCTSBot(kernel=kernel)
    with cpu_time() as spent:
        ev = evaluate(bot, seen, REFERENCE_SEED + record["id"], worlds)
    return {"id": record["id"], "worlds": worlds, "kernel": kernel, "cpu_s": round(spent.seconds, 2),
            "actions": [{"action": str(v.action), "win": round(v.win, 5),
                         "se": round(v.win_se, 5), "points": round(v.points, 3),
                         "points_se": round(v.points_se, 3)} for v in ev.values()]}


# ---------------------------------------------------------------- the benchmark
def _honest_share(seeds: int, low: float = 0.7, high: float = 1.4, trials: int = 20000) -> float:
    """The share of actions whose spread over ``seeds`` seeds lies within [low, high] times
    the true standard error, for errors that are honest (normal estimates)."""
    rng = random.Random(1)
    hits = 0
    for _ in range(trials):
        s = statistics.stdev(rng.gauss(0, 1) for _ in range(seeds))
        hits += low <= s <= high
    return hits / trials


def review_values(records: Sequence[dict[str, Any]], spec: str, worlds: int,
                  seed: int) -> dict[int, dict[str, tuple[float, float]]]:
    """Each position's actions valued as the review values them (``spec``'s evaluation,
    what :func:`eights.lab.review.evaluate_position` marks): win and its standard error."""
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot)
    out = {}
    for record in records:
        ev = evaluate(bot, observation(record), seed * 7919 + record["id"], worlds)
        out[record["id"]] = {str(v.action): (v.win, v.win_se) for v in ev.values()}
    return out


def run_review(bench: Bench, records: list[dict[str, Any]], refs: dict[int, dict[str, Any]],
               spec: str, worlds: int, seeds: int, spread_worlds: int) -> None:
    with cpu_time() as spent:
        values = review_values(records, spec, worlds, 0)
    errors = []
    agree = total = 0
    per_table: dict[tuple[str, int], list[float]] = {}
    for record in records:
        ref = {a["action"]: a["win"] for a in refs[record["id"]]["actions"]}
        mine = values[record["id"]]
        for action, win in ref.items():
            errors.append(mine[action][0] - win)
            per_table.setdefault((record["preset"], record["players"]), []).append(
                mine[action][0] - win)
        ranked = sorted(ref.values(), reverse=True)
        if len(ranked) > 1 and ranked[0] - ranked[1] > GAP:
            total += 1
            best_ref = max(ref, key=lambda a: ref[a])
            best_mine = max(mine, key=lambda a: mine[a][0])
            agree += best_ref == best_mine
    bias = statistics.fmean(errors)
    mae = statistics.fmean(abs(e) for e in errors)
    bench.say(f"{spec} at {worlds} worlds, review seed 0, {len(records)} positions, "
              f"{len(errors)} actions: bias {bias:+.4f} (se "
              f"{statistics.stdev(errors) / math.sqrt(len(errors)):.4f}), mean absolute error "
              f"{mae:.4f}, best move agreed in {agree} of {total} positions with a reference "
              f"gap above {GAP} ({agree / max(1, total):.3f}); {spent.seconds:.0f} s CPU "
              f"({spent.seconds / len(records):.2f} s a position)")
    for (preset, players), errs in sorted(per_table.items()):
        bench.say(f"    {preset:<15} {players}p  {len(errs):4d} actions  bias "
                  f"{statistics.fmean(errs):+.4f}  mean absolute error "
                  f"{statistics.fmean(abs(e) for e in errs):.4f}")
    result: dict[str, Any] = {"spec": spec, "worlds": worlds, "positions": len(records),
                              "actions": len(errors), "bias": bias, "mae": mae,
                              "agreement": agree / max(1, total), "agreement_positions": total,
                              "cpu_s": spent.seconds}
    if seeds > 1:
        runs = [review_values(records, spec, spread_worlds, s) for s in range(1, seeds + 1)]
        ratios = []
        for record in records:
            for action in runs[0][record["id"]]:
                wins = [run[record["id"]][action][0] for run in runs]
                ses = [run[record["id"]][action][1] for run in runs]
                stated = statistics.fmean(ses)
                if stated > 0:
                    ratios.append(statistics.stdev(wins) / stated)
        inside = sum(0.7 <= r <= 1.4 for r in ratios) / len(ratios)
        honest = _honest_share(seeds)
        bench.say(f"    spread over {seeds} seeds at {spread_worlds} worlds / stated error, "
                  f"{len(ratios)} actions: median {statistics.median(ratios):.3f}, mean "
                  f"{statistics.fmean(ratios):.3f}, 10th-90th percentile "
                  f"{_quantile(ratios, 0.1):.2f}-{_quantile(ratios, 0.9):.2f}, between 0.7 and "
                  f"1.4: {inside:.3f} (honest errors would give {honest:.3f} with {seeds} "
                  f"seeds)")
        result |= {"seeds": seeds, "spread_worlds": spread_worlds,
                   "ratio_median": statistics.median(ratios),
                   "ratio_mean": statistics.fmean(ratios), "ratio_inside": inside,
                   "ratio_inside_honest": honest}
    bench.result(result)


def _quantile(xs: Sequence[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_choose(bench: Bench, records: list[dict[str, Any]], refs: dict[int, dict[str, Any]],
               specs: Sequence[str], repeats: int) -> None:
    regrets: dict[str, list[float]] = {}
    for spec in specs:
        bot = make_bot(spec)
        got = []
        with cpu_time() as spent:
            for record in records:
                ref = {a["action"]: a["win"] for a in refs[record["id"]]["actions"]}
                seen = observation(record)
                for r in range(repeats):
                    chosen = bot.choose(seen, list(seen.legal), random.Random(r * 7919 + record["id"]))
                    got.append(max(ref.values()) - ref[str(chosen)])
        regrets[spec] = got
        bench.say(f"{spec:<44} mean regret {statistics.fmean(got):.4f} (se "
                  f"{statistics.stdev(got) / math.sqrt(len(got)):.4f}), best chosen "
                  f"{sum(g == 0 for g in got) / len(got):.3f}, {len(got)} choices, "
                  f"{spent.seconds / len(got) * 1000:.0f} ms CPU a choice")
        bench.result({"spec": spec, "regret": statistics.fmean(got), "choices": len(got),
                      "ms": spent.seconds / len(got) * 1000})
    base = regrets[specs[0]]
    for spec in specs[1:]:
        d = [a - b for a, b in zip(regrets[spec], base, strict=True)]
        bench.say(f"{spec} minus {specs[0]}: {statistics.fmean(d):+.4f} "
                  f"(se {statistics.stdev(d) / math.sqrt(len(d)):.4f})")


# ---------------------------------------------------------------- issue 33's positions
def issue_positions() -> list[tuple[str, Game, list[str]]]:
    """The six positions of issue 33's table: a name, the game at the decision, the
    actions the issue quotes."""
    from eights.engine.cards import Card

    def stacked(other: str, mine: str) -> Game:
        hands = [other.split(), mine.split()]
        deck = [Card.parse(hands[(1 + k) % 2][i]) for i in range(7) for k in range(2)]
        return Game("classic", 2, seed=0, dealer=0, deck=[*deck, Card.parse("5c")])

    out = []
    for seed, action in ((40, "6s"), (45, "4h")):
        out.append((f"classic 4p, first move, deal seed {seed}", Game("classic", 4, seed=seed),
                    [action]))
    first = stacked("Ac 3d 9s Jd 4h 7c Kd", "2c Qc 8d 2h 8h Th 6s")
    out.append(("classic 2p, on 5c, 7 cards against", first, ["draw", "Qc"]))
    second = stacked("Ac 3d 9s Jd 4h 7c Kd", "2c Qc 8d 2h 8h Th 6s")
    second.apply("Qc")
    second.apply("Ac")
    out.append(("next turn, up-card Ac, 6 cards against", second, ["2c", "8d=s"]))
    return out


def run_issue(bench: Bench, worlds: int) -> None:
    specs = [("review before (rollout=greedy:tree=own)", "ismcts:rollout=greedy:tree=own", 4000),
             ("greedy after the root (rollout=greedy)", "ismcts:rollout=greedy", 4000),
             ("review now (the default)", "ismcts", 4000),
             (f"reference ({worlds} worlds)", "ismcts", worlds)]
    for name, game, actions in issue_positions():
        seen = game.observe(game.to_move)
        bench.say(f"{name}: " + ", ".join(actions))
        for label, spec, count in specs:
            bot = make_bot(spec)
            assert isinstance(bot, ISMCTSBot)
            position = Position(1, len(game.history), seen, seen.legal[0])
            decision = evaluate_position(position, count, 7 if count == worlds else 0, bot)
            by = {str(v.action): v for v in decision.actions}
            cells = ", ".join(f"{a} {by[a].win:.3f}" + (" best" if by[a] is decision.best
                                                          else "") for a in actions)
            bench.say(f"    {label:<44} {cells}  (best: {decision.best.action})")
            bench.result({"position": name, "spec": label, "worlds": count,
                          "values": {a: by[a].win for a in actions},
                          "best": str(decision.best.action)})


# ---------------------------------------------------------------- main
def main() -> None:
    bench = Bench(__doc__)
    parser = bench.parser
    parser.add_argument("mode", choices=("positions", "references", "engine", "review", "issue",
                                         "choose"))
    parser.add_argument("--per", type=int, default=26)
    parser.add_argument("--worlds", type=int, default=0)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--spec", default="ismcts")
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--spread-worlds", type=int, default=500)
    parser.add_argument("--limit", type=int, default=0, help="only the first N positions")
    parser.add_argument("--specs", default="ismcts", help="choose: the searches, by commas")
    parser.add_argument("--repeats", type=int, default=1)
    args = bench.parse()
    HERE.mkdir(exist_ok=True)
    if args.mode == "positions":
        with POSITIONS.open("w", encoding="utf-8") as out:
            for record in make_positions(args.per, args.seed):
                out.write(json.dumps(record) + "\n")
                out.flush()
        bench.say(f"{len(load(POSITIONS))} positions in {POSITIONS}")
        return
    records = load(POSITIONS)
    if args.limit:
        records = records[:args.limit]
    if args.mode == "references":
        worlds = args.worlds or 8000
        done = {r["id"] for r in load(REFERENCES)} if REFERENCES.exists() else set()
        with REFERENCES.open("a", encoding="utf-8") as out:
            for record in records:
                if record["id"] not in done:
                    out.write(json.dumps(reference_row(record, worlds)) + "\n")
                    out.flush()
        bench.say(f"{len(load(REFERENCES))} references in {REFERENCES}")
        return
    refs = {r["id"]: r for r in load(REFERENCES)}
    if args.mode == "engine":
        worlds = args.worlds or 300
        picked = random.Random(args.seed).sample(records, args.positions)
        zs = []
        began = time.process_time()
        with ENGINE.open("w", encoding="utf-8") as out:
            for record in picked:
                row = reference_row(record, worlds, kernel="off")
                out.write(json.dumps(row) + "\n")
                out.flush()
                ref = {a["action"]: a for a in refs[record["id"]]["actions"]}
                for a in row["actions"]:
                    r = ref[a["action"]]
                    zs.append((a["win"] - r["win"]) / math.hypot(a["se"], r["se"]))
        bench.say(f"engine (Python ExpertBot in every seat, sample_world) minus compiled "
                  f"references, {len(picked)} positions, {len(zs)} actions, {worlds} worlds: "
                  f"z mean {statistics.fmean(zs):+.3f} (se {1 / math.sqrt(len(zs)):.3f}), "
                  f"z sd {statistics.stdev(zs):.3f}, |z| > 2.58: {sum(abs(z) > 2.58 for z in zs)} "
                  f"({time.process_time() - began:.0f} s CPU)")
        bench.result({"positions": len(picked), "actions": len(zs), "worlds": worlds,
                      "z_mean": statistics.fmean(zs), "z_sd": statistics.stdev(zs)})
        return
    if args.mode == "review":
        run_review(bench, [r for r in records if r["id"] in refs], refs, args.spec,
                   args.worlds or 4000, args.seeds, args.spread_worlds)
        return
    if args.mode == "choose":
        run_choose(bench, [r for r in records if r["id"] in refs], refs,
                   args.specs.split(","), args.repeats)
        return
    run_issue(bench, args.worlds or 20000)


if __name__ == "__main__":
    main()
