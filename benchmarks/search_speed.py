"""The search's speed: the search as it is against the search before it, on the same
decisions, in one run; and what a whole-round review of one seat costs.

    python benchmarks/search_speed.py [--cases classic:2,classic:4,huit-americain:4]
                                      [--decisions 30] [--iterations 2000] [--repeats 5]
                                      [--engine] [--rollout] [--review classic:4,huit-fou:4]
                                      [--review-rounds 3] [--review-worlds 4000]

Decisions: for each case (preset and players), decision points of seeded games between
greedy bots (only decisions with a choice), the same for every spec. The specs, timed in
turn and again ``--repeats`` times (alternating, so a change of the machine's load falls on
all of them), each a fresh bot warmed up before its clock starts:

- ``before``: ``ismcts:iterations=N:rollout=greedy:tree=own``, the search before the
  expert's rollouts (compiled: a tree of its own moves, greedy rollouts);
- ``flat``: ``ismcts:iterations=N:rollout=greedy``, greedy rollouts over a flat root;
- ``now``: ``ismcts:iterations=N``, the default now (the expert's rollouts, flat);
- ``rollout`` (with ``--rollout``): ``rollout=greedy:tree=own:kernel=rollout``, the search
  before it was compiled;
- ``engine`` (with ``--engine``): ``kernel=off``, the reference, all on the engine.

Printed per spec: decisions a second (the median over the repeats, and the lowest and
highest), rollouts a decision, rollouts a second; then the ratio of the search now's
decisions a second to the search before's, the median of the per-repeat ratios (each
measured on the same decisions back to back) with their range. CPU time of this process.

Review: for each ``--review`` case, ``--review-rounds`` seeded rounds played by experts;
every decision of seat 0 with a choice evaluated by :meth:`ISMCTSBot.evaluate
<eights.bots.ismcts.ISMCTSBot.evaluate>` at ``--review-worlds`` worlds (every legal action
in each: the review's ``normal`` is 4000), by the review before (``rollout=greedy:tree=own``)
and now (the defaults): CPU seconds for the whole round of seat 0 (the median over the
rounds, and the range).

Server (``--server``): what the server's search bots do within their budget. In a worker
process made as the server makes its bot pool (spawned, ``nice`` 10:
:mod:`eights.server.thinking`), each ``--server-specs`` spec, made into the spec the server
runs (:func:`~eights.server.thinking.server_bot`, the budget of ``--server-seconds``), moves
by :func:`~eights.server.thinking.think` on the decisions of the first case, before
(``rollout=greedy:tree=own``) and now: rollouts a move and CPU seconds a move (means).

The machine (CPU model, load average) is printed beside the figures.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import random
import statistics
import time

from common import machine_line
from eights import Game, Observation, load_rules
from eights.bots import ExpertBot, make_bot
from eights.bots.ismcts import ISMCTSBot
from eights.engine.actions import Action

Point = tuple[Observation, list[Action]]


def decision_points(name: str, players: int, count: int, seed: int = 1) -> list[Point]:
    """``count`` decisions with a choice, from seeded games between greedy bots."""
    rules = load_rules(name)
    greedy = make_bot("greedy")
    rng = random.Random(seed)
    out: list[Point] = []
    game_seed = seed
    while len(out) < count:
        game = Game(rules, players, seed=game_seed)
        game_seed += 1
        while not game.over and len(out) < count:
            seen = game.observe(game.to_move)
            legal = game.legal_actions()
            if len(legal) > 1:
                out.append((seen, legal))
            game.apply(greedy.choose(seen, legal, rng))
    return out


def timed(spec: str, points: list[Point]) -> tuple[float, int]:
    """CPU seconds and rollouts of ``spec``'s decisions on ``points``, a fresh bot warmed up
    (compiled or loaded from numba's cache) on the first point before the clock starts."""
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot)
    seen, legal = points[0]
    bot.choose(seen, legal, random.Random(0))
    rollouts = 0
    start = time.process_time()
    for i, (seen, legal) in enumerate(points):
        bot.choose(seen, legal, random.Random(i))
        rollouts += bot.last_iterations
    return time.process_time() - start, rollouts


def _load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def speed(cases: list[tuple[str, int]], decisions: int, iterations: int, repeats: int,
          engine: bool, rollout: bool) -> None:
    specs = {"before": f"ismcts:iterations={iterations}:rollout=greedy:tree=own",
             "flat": f"ismcts:iterations={iterations}:rollout=greedy",
             "now": f"ismcts:iterations={iterations}"}
    if rollout:
        specs["rollout"] = f"ismcts:iterations={iterations}:rollout=greedy:tree=own:kernel=rollout"
    if engine:
        specs["engine"] = f"ismcts:iterations={iterations}:kernel=off"
    print(f"Decisions at iterations={iterations}, {decisions} decisions a case, {repeats} "
          f"repeats ({_load()})")
    print(f"{'case':<20}{'spec':<10}{'decisions/s':>12}{'range':>18}{'rollouts/dec':>14}"
          f"{'rollouts/s':>12}")
    for name, players in cases:
        points = decision_points(name, players, decisions)
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
        ratios = [c / b for c, b in zip(rates["now"], rates["before"], strict=True)]
        print(f"{'':<20}now / before: {statistics.median(ratios):.2f}x decisions a second "
              f"(repeats {min(ratios):.2f}-{max(ratios):.2f}x; {_load()})", flush=True)


def review(cases: list[tuple[str, int]], rounds: int, worlds: int) -> None:
    print(f"\nReview of seat 0, every decision with a choice, {worlds} worlds a decision, "
          f"{rounds} rounds a case ({_load()})")
    print(f"{'case':<20}{'decisions':>10}{'now s':>10}{'range':>14}{'before s':>10}{'x':>6}")
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
        cost: dict[str, list[float]] = {"now": [], "before": []}
        for points in games:
            for label, spec in (("now", "ismcts"), ("before", "ismcts:rollout=greedy:tree=own")):
                bot = make_bot(spec)
                assert isinstance(bot, ISMCTSBot)
                bot.evaluate(*points[0], random.Random(0), worlds=2)  # compiled now
                start = time.process_time()
                for i, (seen, legal) in enumerate(points):
                    bot.evaluate(seen, legal, random.Random(i), worlds=worlds)
                cost[label].append(time.process_time() - start)
        c, b = cost["now"], cost["before"]
        count = statistics.median(len(p) for p in games)
        print(f"{f'{name} {players}p':<20}{count:>10.0f}"
              f"{statistics.median(c):>10.2f}{f'{min(c):.2f}-{max(c):.2f}':>14}"
              f"{statistics.median(b):>10.2f}"
              f"{statistics.median(c) / statistics.median(b):>6.2f}", flush=True)
    print(f"({_load()})")


def _server_moves(spec: str, points: list[Point]) -> tuple[float, float]:
    """In a worker of the server's pool: the mean rollouts and CPU seconds of a move of the
    bot of ``spec`` (as the server runs it) on ``points``, the first move unmeasured."""
    from eights.server import thinking

    thinking.think(spec, *points[0], "warm")
    bot = thinking._local.bots[spec]
    rollouts = 0
    start = time.thread_time()
    for i, (seen, legal) in enumerate(points):
        thinking.think(spec, seen, legal, f"move {i}")
        rollouts += bot.last_iterations
    return rollouts / len(points), (time.thread_time() - start) / len(points)


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
            for variant in (f"{spec}:rollout=greedy:tree=own", spec):
                ran = server_bot(variant, seconds)[0]
                got = pool.submit(_server_moves, ran, points).result()
                print(f"{ran:<46}{got[0]:>14.0f}{got[1]:>12.3f}", flush=True)
    print(f"({_load()})")


def _cases(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(","):
        name, _, players = item.partition(":")
        out.append((name, int(players) if players else load_rules(name).default_players))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="classic:2,classic:4,huit-americain:4")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--engine", action="store_true", help="time kernel=off too")
    parser.add_argument("--rollout", action="store_true", help="time kernel=rollout too")
    parser.add_argument("--review", default="classic:4,huit-fou:4",
                        help="cases of the review's cost ('' for none)")
    parser.add_argument("--review-rounds", type=int, default=3)
    parser.add_argument("--review-worlds", type=int, default=4000)
    parser.add_argument("--server", action="store_true",
                        help="the server's search bots within their budget")
    parser.add_argument("--server-specs", default="ismcts,ismcts:time=1")
    parser.add_argument("--server-seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(machine_line(), flush=True)
    if args.cases:
        speed(_cases(args.cases), args.decisions, args.iterations, args.repeats, args.engine,
              args.rollout)
    if args.review:
        review(_cases(args.review), args.review_rounds, args.review_worlds)
    if args.server:
        server(_cases(args.cases)[0], args.decisions, args.server_specs.split(","),
               args.server_seconds)


if __name__ == "__main__":
    main()
