"""The search's speed: the compiled search against the search before it, on the same
decisions, in one run; and what a whole-round review of one seat costs.

    python benchmarks/search_speed.py [--cases classic:2,classic:4,huit-americain:4]
                                      [--decisions 30] [--iterations 2000] [--repeats 5]
                                      [--engine] [--review classic:4,huit-fou:4]
                                      [--review-rounds 3] [--review-rollouts 1000,2000]

Decisions: for each case (preset and players), decision points of seeded games between
greedy bots (only decisions with a choice), the same for every spec. The specs, timed in
turn and again ``--repeats`` times (alternating, so a change of the machine's load falls on
all of them), each a fresh bot warmed up before its clock starts:

- ``before``: ``ismcts:iterations=N:kernel=rollout``, the search as it was (worlds sampled
  and cloned, the tree descended on the engine, the rollouts on the kernel);
- ``compiled``: ``ismcts:iterations=N``, the default now (:mod:`eights.fast.search`);
- ``engine`` (with ``--engine``): ``kernel=off``, the reference, all on the engine.

Printed per spec: decisions a second (the median over the repeats, and the lowest and
highest), rollouts a decision, rollouts a second; then the ratio of the compiled search's
decisions a second to the search before's, the median of the per-repeat ratios (each
measured on the same decisions back to back) with their range. CPU time of this process.

Review: for each ``--review`` case, ``--review-rounds`` seeded rounds played by experts;
every decision of seat 0 with a choice evaluated by :meth:`ISMCTSBot.evaluate
<eights.bots.ismcts.ISMCTSBot.evaluate>` at each of ``--review-rollouts`` rollouts (worlds
= rollouts / legal actions, at least 2), on the compiled search and on the search before:
CPU seconds for the whole round of seat 0 (the median over the rounds, and the range).
The review's targets (issue 27) are 5 s of one core a round for classic at 4 players and
20 s for huit-fou.

Server (``--server``): what the server's search bots do within their budget. In a worker
process made as the server makes its bot pool (spawned, ``nice`` 10:
:mod:`eights.server.thinking`), each ``--server-specs`` spec, made into the spec the server
runs (:func:`~eights.server.thinking.server_bot`, the budget of ``--server-seconds``), moves
by :func:`~eights.server.thinking.think` on the decisions of the first case, with
``kernel=rollout`` (the search before) and as it is (compiled): rollouts a move and CPU
seconds a move (means), and the ratio of rollouts.

The machine (CPU model, cores, load average) is printed beside the figures.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import random
import statistics

from common import Bench, cpu_time, decision_points, machine_line
from eights import Game, Observation, load_rules
from eights.bots import ExpertBot, make_bot
from eights.bots.ismcts import ISMCTSBot
from eights.engine.actions import Action

Point = tuple[Observation, list[Action]]


def timed(spec: str, points: list[Point]) -> tuple[float, int]:
    """CPU seconds and rollouts of ``spec``'s decisions on ``points``, a fresh bot warmed up
    (compiled or loaded from numba's cache) on the first point before the clock starts."""
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot)
    seen, legal = points[0]
    bot.choose(seen, legal, random.Random(0))
    rollouts = 0
    with cpu_time() as spent:
        for i, (seen, legal) in enumerate(points):
            bot.choose(seen, legal, random.Random(i))
            rollouts += bot.last_iterations
    return spent.seconds, rollouts


def _load() -> str:
    return machine_line()


def speed(cases: list[tuple[str, int]], decisions: int, iterations: int, repeats: int,
          engine: bool, seed: int = 1) -> None:
    specs = {"before": f"ismcts:iterations={iterations}:kernel=rollout",
             "compiled": f"ismcts:iterations={iterations}"}
    if engine:
        specs["engine"] = f"ismcts:iterations={iterations}:kernel=off"
    print(f"Decisions at iterations={iterations}, {decisions} decisions a case, {repeats} "
          f"repeats ({_load()})")
    print(f"{'case':<20}{'spec':<10}{'decisions/s':>12}{'range':>18}{'rollouts/dec':>14}"
          f"{'rollouts/s':>12}")
    for name, players in cases:
        points = decision_points(name, players, decisions, seed)
        rates: dict[str, list[float]] = {label: [] for label in specs}
        rollouts: dict[str, list[float]] = {label: [] for label in specs}
        per_decision: dict[str, float] = {}
        for _ in range(repeats):
            for label, spec in specs.items():
                seconds, done = timed(spec, points)
                rates[label].append(len(points) / seconds)
                rollouts[label].append(done / seconds)
                per_decision[label] = done / len(points)
        for label in specs:
            r = rates[label]
            print(f"{f'{name} {players}p':<20}{label:<10}{statistics.median(r):>12.1f}"
                  f"{f'{min(r):.1f}-{max(r):.1f}':>18}{per_decision[label]:>14.0f}"
                  f"{statistics.median(rollouts[label]):>12.0f}")
        ratios = [c / b for c, b in zip(rates["compiled"], rates["before"], strict=True)]
        print(f"{'':<20}compiled / before: {statistics.median(ratios):.1f}x decisions a second "
              f"(repeats {min(ratios):.1f}-{max(ratios):.1f}x; {_load()})", flush=True)


def review(cases: list[tuple[str, int]], rounds: int, budgets: list[int]) -> None:
    print(f"\nReview of seat 0, every decision with a choice, {rounds} rounds a case "
          f"({_load()})")
    print(f"{'case':<20}{'rollouts':>9}{'decisions':>10}{'compiled s':>12}{'range':>14}"
          f"{'before s':>10}{'x':>6}")
    expert = ExpertBot()
    for name, players in cases:
        rules = load_rules(name)
        games: list[list[Point]] = []
        for r in range(rounds):
            game = Game(rules, players, seed=100 + r)
            rng = random.Random(r)
            mine: list[Point] = []
            while not game.over:
                seen = game.observe(game.to_move)
                legal = game.legal_actions()
                if game.to_move == 0 and len(legal) > 1:
                    mine.append((seen, legal))
                game.apply(expert.choose(seen, legal, rng))
            games.append(mine)
        for budget in budgets:
            cost: dict[str, list[float]] = {"compiled": [], "before": []}
            for points in games:
                for label, kernel in (("compiled", "auto"), ("before", "rollout")):
                    bot = ISMCTSBot(kernel=kernel)
                    bot.evaluate(*points[0], random.Random(0), worlds=2)  # compiled now
                    with cpu_time() as spent:
                        for i, (seen, legal) in enumerate(points):
                            bot.evaluate(seen, legal, random.Random(i),
                                         worlds=max(2, budget // len(legal)))
                    cost[label].append(spent.seconds)
            c, b = cost["compiled"], cost["before"]
            count = statistics.median(len(p) for p in games)
            print(f"{f'{name} {players}p':<20}{budget:>9}{count:>10.0f}"
                  f"{statistics.median(c):>12.2f}{f'{min(c):.2f}-{max(c):.2f}':>14}"
                  f"{statistics.median(b):>10.2f}"
                  f"{statistics.median(b) / statistics.median(c):>6.1f}", flush=True)
    print(f"({_load()})")


def _server_moves(spec: str, points: list[Point]) -> tuple[float, float]:
    """In a worker of the server's pool: the mean rollouts and CPU seconds of a move of the
    bot of ``spec`` (as the server runs it) on ``points``, the first move unmeasured."""
    from eights.server import thinking

    thinking.think(spec, *points[0], "warm")
    bot = thinking._local.bots[spec]
    rollouts = 0
    with cpu_time() as spent:  # the worker's whole CPU: its threads included
        for i, (seen, legal) in enumerate(points):
            thinking.think(spec, seen, legal, f"move {i}")
            rollouts += bot.last_iterations
    return rollouts / len(points), spent.seconds / len(points)


def server(case: tuple[str, int], decisions: int, specs: list[str], seconds: float) -> None:
    from eights.server.thinking import _worker_started, server_bot

    name, players = case
    points = decision_points(name, players, decisions)
    print(f"\nServer bots ({name} {players}p, {len(points)} moves, budget {seconds:g} s a move, "
          f"{_load()})")
    print(f"{'spec (as the server runs it)':<46}{'rollouts/move':>14}{'CPU s/move':>12}")
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context,
                                                initializer=_worker_started,
                                                initargs=(os.getpid(),)) as pool:
        for spec in specs:
            got = {}
            for kernel in ("rollout", "auto"):
                ran = server_bot(f"{spec}:kernel={kernel}", seconds)[0]
                got[kernel] = pool.submit(_server_moves, ran, points).result()
                print(f"{ran:<46}{got[kernel][0]:>14.0f}{got[kernel][1]:>12.3f}", flush=True)
            print(f"{'':<46}compiled / before: {got['auto'][0] / got['rollout'][0]:.1f}x rollouts "
                  f"a move, {got['rollout'][1] / got['auto'][1]:.1f}x less CPU a move")
    print(f"({_load()})")


def _cases(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(","):
        name, _, players = item.partition(":")
        out.append((name, int(players) if players else load_rules(name).default_players))
    return out


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--cases", default="classic:2,classic:4,huit-americain:4")
    bench.parser.add_argument("--decisions", type=int, default=30)
    bench.parser.add_argument("--iterations", type=int, default=2000)
    bench.parser.add_argument("--repeats", type=int, default=5)
    bench.parser.add_argument("--engine", action="store_true", help="time kernel=off too")
    bench.parser.add_argument("--review", default="classic:4,huit-fou:4",
                              help="cases of the review's cost ('' for none)")
    bench.parser.add_argument("--review-rounds", type=int, default=3)
    bench.parser.add_argument("--review-rollouts", default="1000,2000")
    bench.parser.add_argument("--server", action="store_true",
                              help="the server's search bots within their budget")
    bench.parser.add_argument("--server-specs", default="ismcts,ismcts:time=1")
    bench.parser.add_argument("--server-seconds", type=float, default=3.0)
    args = bench.parse()
    if args.cases:
        speed(_cases(args.cases), args.decisions, args.iterations, args.repeats, args.engine,
              args.seed)
    if args.review:
        review(_cases(args.review), args.review_rounds,
               [int(x) for x in args.review_rollouts.split(",")])
    if args.server:
        server(_cases(args.cases)[0], args.decisions, args.server_specs.split(","),
               args.server_seconds)


if __name__ == "__main__":
    main()
