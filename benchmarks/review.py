"""The review's measurements (docs/bots.md, "The review"): ordinal validity, calibration,
stability and speed.

    python benchmarks/review.py collect --rounds 40 --seed 1 --out review-data.jsonl
    python benchmarks/review.py report review-data.jsonl
    python benchmarks/review.py speed --rounds 10 --seed 1
    python benchmarks/review.py server --rounds 3 --seed 1
    python benchmarks/review.py table --seconds 20 --repeats 3 [--workers 2]
    python benchmarks/review.py stopping --rounds 20 --seed 1

``collect`` plays ``--rounds`` rounds of each table (classic at 2 and 4 players,
huit-americain at 4), seat 0 played by ``expert``, ``greedy`` and ``random`` in turn on
the same deals, the other seats by experts, and reviews seat 0 at ``--quality`` with seed
1 (the marks), again with seed 2 (stability), and values the played and the best action
once more on ``--check`` times as many fresh worlds with seed 3 (calibration: does the
best action win more often by the loss the review said?). One JSON line a decision,
written as it goes, so ``report`` can judge any thresholds afterwards without playing
again (``report --best 0.01 --good 0.03 ...``).

``paired`` judges the three bots on the same positions: at each decision of an expert,
the action each bot would choose there, valued by the same review (the differences
between expert and greedy are small; on the same positions, with the same values, they
are measured without the noise of different rounds).

``speed`` times a whole round of seat 0 (an expert among experts) at ``normal``, in CPU
time of this thread, for classic at 4 players and huit-fou at 4: the targets are 5 s and
20 s. ``server`` times a review as the browser asks for it, in the server's review pool
(the first one spawns the process and loads the kernel): the target is 10 s on an idle
server. ``table`` times a server's bot moves (its own pool, ``nice`` 10) with and without
reviews running beside them in the review pool (``nice`` 19), phases alternated: does a
review slow a table in play? ``stopping`` asks whether stopping a decision's sampling
once its mark cannot change would make long rounds fast enough.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from eights import Game, load_rules
from eights.bots import make_bot
from eights.bots.ismcts import Evaluation
from eights.engine.record import Record, record_of
from eights.lab import review as lab
from eights.lab.review import Position, evaluate_position, positions, review_bot

TABLES = (("classic", 2), ("classic", 4), ("huit-americain", 4))
PLAYERS = ("expert", "greedy", "random")
BINS = (0.0, 0.01, 0.03, 0.07, 0.15, 1.01)


def played_round(rules: str, players: int, seed: int, seat0: str) -> Record:
    """One round, seat 0 played by ``seat0``, the others by experts (the deal from ``seed``)."""
    game = Game(load_rules(rules), players, seed=seed)
    bots = [make_bot(seat0), *(make_bot("expert") for _ in range(players - 1))]
    rng = random.Random(f"{seed}/bots")
    while not game.over:
        game.apply(bots[game.to_move].choose(game.observe(game.to_move), list(game.legal),
                                             rng))
    return record_of(game)


def check(position: Position, best: str, played: str, worlds: int) -> tuple[float, float]:
    """The best action's win chance minus the played one's on fresh worlds (seed 3)."""
    ev = review_bot().evaluate(position.observation, list(position.observation.legal),
                               random.Random(f"check:{position.round}:{position.turn}"), worlds)
    names = [str(a) for a in ev.actions]
    return ev.paired(names.index(best), names.index(played))


def collect(args: argparse.Namespace) -> None:
    worlds = lab.QUALITIES[args.quality]
    out = Path(args.out)
    done: set[tuple[str, int, str, int]] = set()
    row: dict[str, Any]
    if out.exists():  # resume: the rounds already written are skipped
        for line in out.read_text("utf-8").splitlines():
            row = json.loads(line)
            done.add((row["rules"], row["players"], row["player"], row["deal"]))
    bot = review_bot()
    with out.open("a", encoding="utf-8") as sink:
        for deal in range(args.seed, args.seed + args.rounds):
            for rules, players in TABLES:
                for player in PLAYERS:
                    if (rules, players, player, deal) in done:
                        continue
                    record = played_round(rules, players, deal, player)
                    rows = []
                    for position in positions(record, [0]):
                        start = time.thread_time()
                        one = evaluate_position(position, worlds, 1, bot)
                        cpu = time.thread_time() - start
                        two = evaluate_position(position, worlds, 2, bot)
                        row = {
                            "rules": rules, "players": players, "player": player, "deal": deal,
                            "round": position.round, "turn": position.turn,
                            "k": len(one.actions), "played": str(one.played.action),
                            "best": str(one.best.action), "loss": one.loss, "se": one.loss_se,
                            "loss2": two.loss, "se2": two.loss_se, "cpu": cpu,
                        }
                        if args.check and one.best.action != one.played.action:
                            gain, gain_se = check(position, row["best"], row["played"],
                                                  worlds * args.check)
                            row.update(gain=gain, gain_se=gain_se)
                        rows.append(row)
                    if not rows:  # no decision with a choice: still noted as done
                        rows.append({"rules": rules, "players": players, "player": player,
                                     "deal": deal, "empty": True})
                    for row in rows:
                        sink.write(json.dumps(row) + "\n")
                    sink.flush()
            print(f"deal {deal} done, {time.strftime('%H:%M:%S')}, load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)


def marks(row: dict[str, Any], second: bool = False) -> str:
    if second:
        return lab.mark_of(row["loss2"], row["se2"])
    return lab.mark_of(row["loss"], row["se"])


def report(args: argparse.Namespace) -> None:
    lab.BEST = args.best
    lab.THRESHOLDS.update(good=args.good, inaccuracy=args.inaccuracy, mistake=args.mistake)
    lab.Z = args.z
    rows = [json.loads(line) for line in Path(args.data).read_text("utf-8").splitlines()]
    decisions = [r for r in rows if not r.get("empty")]
    deals: dict[tuple[str, int, str], set[int]] = {
        (r["rules"], r["players"], r["player"]): set() for r in rows}
    for r in rows:
        deals[(r["rules"], r["players"], r["player"])].add(r["deal"])
    print(f"marks of the loss less {lab.Z} standard errors: best <= {lab.BEST}, good <= "
          f"{lab.THRESHOLDS['good']}, inaccuracy <= {lab.THRESHOLDS['inaccuracy']}, mistake "
          f"<= {lab.THRESHOLDS['mistake']}")
    print("\nordinal validity (seat 0 against experts; mean over decisions, ± its standard "
          "error)")
    print(f"{'table':<20} {'seat 0':<8} {'rounds':>6} {'decisions':>9} {'accuracy':>9} "
          f"{'mean loss':>14}  marks (best/good/inacc./mistake/blunder)")
    for rules, players in TABLES:
        for player in PLAYERS:
            mine = [r for r in decisions if (r["rules"], r["players"], r["player"])
                    == (rules, players, player)]
            if not mine:
                continue
            got = [marks(r) for r in mine]
            acc = sum(m in ("best", "good") for m in got) / len(got)
            losses = [r["loss"] for r in mine]
            se = statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0.0
            counts = "/".join(str(got.count(m)) for m in lab.MARKS)
            print(f"{rules + f' {players}p':<20} {player:<8} "
                  f"{len(deals[(rules, players, player)]):>6} {len(mine):>9} {acc:>9.3f} "
                  f"{statistics.mean(losses):>8.4f} ±{se:.4f}  {counts}")
    print("\nstability (seeds 1 and 2, the same mark)")
    for rules, players in TABLES:
        mine = [r for r in decisions if (r["rules"], r["players"]) == (rules, players)]
        if mine:
            same = sum(marks(r) == marks(r, True) for r in mine) / len(mine)
            print(f"{rules + f' {players}p':<20} {same:.3f} of {len(mine)} decisions")
    if decisions:
        same = sum(marks(r) == marks(r, True) for r in decisions) / len(decisions)
        print(f"{'all':<20} {same:.3f} of {len(decisions)} decisions")
    print("\ncalibration (the loss x said with seed 1; the best action's gain over the played "
          "one on fresh worlds, seed 3)")
    print(f"{'x':<14} {'decisions':>9} {'mean x':>8} {'gain':>8} {'± se':>7}")
    for low, high in itertools.pairwise(BINS):
        mine = [r for r in decisions if "gain" in r and low <= r["loss"] < high]
        if not mine:
            continue
        gains = [r["gain"] for r in mine]
        se = math.sqrt(sum(r["gain_se"] ** 2 for r in mine)) / len(mine)
        spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        print(f"[{low:.2f}, {min(high, 1):.2f}) {len(mine):>9} "
              f"{statistics.mean(r['loss'] for r in mine):>8.4f} "
              f"{statistics.mean(gains):>8.4f} {max(se, spread):>7.4f}")
    by_table: dict[str, list[float]] = defaultdict(list)
    for r in decisions:
        by_table[f"{r['rules']} {r['players']}p"].append(r["cpu"])
    print("\nCPU a decision (seed 1 only): " + ", ".join(
        f"{t} {statistics.mean(c):.3f} s" for t, c in by_table.items()))


def speed(args: argparse.Namespace) -> None:
    for rules, players, target in (("classic", 4, 5.0), ("huit-fou", 4, 20.0)):
        times: list[float] = []
        counts: list[int] = []
        bot = review_bot()
        evaluate_position(positions(played_round(rules, players, 0, "expert"), [0])[0], 2, 0,
                          bot)  # the kernel compiled (or loaded) before the clock runs
        for deal in range(args.seed, args.seed + args.rounds):
            record = played_round(rules, players, deal, "expert")
            found = positions(record, [0])
            start = time.thread_time()
            for position in found:
                evaluate_position(position, lab.QUALITIES[args.quality], 1, bot)
            times.append(time.thread_time() - start)
            counts.append(len(found))
        print(f"{rules} {players}p at {args.quality}: a round of seat 0 in "
              f"{statistics.median(times):.2f} s of CPU (median of {len(times)}; "
              f"{min(times):.2f} to {max(times):.2f}; {statistics.mean(counts):.1f} decisions "
              f"a round); target {target:g} s; kernel {bot.last_kernel}; load "
              f"{os.getloadavg()[0]:.1f}", flush=True)


def paired(args: argparse.Namespace) -> None:
    """The three bots judged on the same positions: at each decision of seat 0 (an expert
    among experts), the review's values of every action once, and the loss and mark of
    the action each bot would choose there (random: the mean over its legal actions)."""
    worlds = lab.QUALITIES[args.quality]
    bot = review_bot()
    chooser = {name: make_bot(name) for name in ("expert", "greedy")}
    losses: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    for deal in range(args.seed, args.seed + args.rounds):
        for rules, players in TABLES:
            record = played_round(rules, players, deal, "expert")
            for position in positions(record, [0]):
                decision = evaluate_position(position, worlds, 1, bot)
                values = {a.action: a for a in decision.actions}
                best = decision.best
                legal = list(position.observation.legal)
                rng = random.Random(f"{deal}/{position.turn}")
                for name in ("expert", "greedy", "random"):
                    picks = (legal if name == "random" else
                             [chooser[name].choose(position.observation, legal, rng)])
                    share = 1.0 / len(picks)
                    loss = sum(best.win - values[a].win for a in picks) * share
                    losses[(rules, players, name)].append(loss)
        print(f"deal {deal} done, {time.strftime('%H:%M:%S')}, load "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        if (deal - args.seed) % 5 == 4 or deal == args.seed + args.rounds - 1:
            _paired_table(losses)


def _paired_table(losses: dict[tuple[str, int, str], list[float]]) -> None:
    print("\nthe same positions (an expert's decisions), each bot's choice valued by one review")
    print(f"{'table':<20} {'bot':<8} {'decisions':>9} {'mean loss':>16}")
    for (rules, players, name), mine in losses.items():
        se = statistics.stdev(mine) / math.sqrt(len(mine)) if len(mine) > 1 else 0.0
        print(f"{rules + f' {players}p':<20} {name:<8} {len(mine):>9} "
              f"{statistics.mean(mine):>9.4f} ±{se:.4f}", flush=True)


def stopping(args: argparse.Namespace) -> None:
    """Would stopping a decision's sampling early save enough? Each decision of seat 0 (an
    expert among experts) is valued at ``--quality``; the rule is judged on the first
    quarter of its worlds: stop there when the mark cannot change, that is when the mark
    of the played action's loss less ``z + 0.75`` standard errors (the 0.75: the marks'
    1.5 at four times the worlds) is the mark of the largest loss any action could
    still show over it (its paired difference plus ``z`` standard errors). Prints, per
    table and ``z``, the decisions stopped, how many of them kept their full mark, and the
    work left (rollouts, against all worlds everywhere)."""
    worlds = lab.QUALITIES[args.quality]
    first_part = worlds // 4
    bot = review_bot()
    for rules, players, rounds in (("huit-fou", 4, args.rounds), ("classic", 4, args.rounds),
                                   ("classic", 2, args.rounds // 2)):
        stopped = {2.0: 0, 3.0: 0}
        kept = {2.0: 0, 3.0: 0}
        work = {2.0: 0, 3.0: 0}
        decisions = full = 0
        for deal in range(args.seed, args.seed + rounds):
            for position in positions(played_round(rules, players, deal, "expert"), [0]):
                legal = list(position.observation.legal)
                mine = legal.index(position.played)
                values = bot.evaluate(position.observation, legal,
                                      random.Random(f"stopping/{deal}/{position.turn}"), worlds)
                final = _mark(values, mine)[0]
                first = Evaluation(values.actions, values.wins[:first_part],
                                   values.points[:first_part])
                _, loss, se = _mark(first, mine)
                decisions += 1
                full += len(legal) * worlds
                for z in stopped:
                    most = max([0.0] + [d + z * e for d, e in
                                        (first.paired(j, mine) for j in range(len(legal))
                                         if j != mine)])
                    least = max(0.0, loss - (z + 0.75) * se)
                    if lab.mark_of(most, 0.0) == lab.mark_of(least, 0.0):
                        stopped[z] += 1
                        kept[z] += lab.mark_of(most, 0.0) == final
                        work[z] += len(legal) * first_part
                    else:
                        work[z] += len(legal) * worlds
        for z in stopped:
            print(f"{rules} {players}p, z {z:g}: {stopped[z]} of {decisions} decisions stopped "
                  f"at {first_part} worlds, {kept[z]} of them with their mark at {worlds}; "
                  f"work left {work[z] / full:.3f}", flush=True)


def _mark(values: Evaluation, mine: int) -> tuple[str, float, float]:
    """The mark of action ``mine`` in ``values``, its loss and the loss's standard error."""
    wins = [values.win(i) for i in range(len(values.actions))]
    best = max(range(len(wins)), key=lambda i: (wins[i], -i))
    if best == mine:
        return "best", 0.0, 0.0
    loss, se = values.paired(best, mine)
    return lab.mark_of(max(0.0, loss), se), max(0.0, loss), se


def worker_cpu() -> float:
    """The CPU seconds this (worker) process has used since it started: its start-up too."""
    times = os.times()
    return times.user + times.system


def server(args: argparse.Namespace) -> None:
    """A review as the browser asks for it, in the server's review pool (a process at nice
    19): the first one (the process spawned, eights and the kernel loaded) and a second one,
    in wall-clock seconds and in the worker's CPU seconds (on an idle server the wall clock
    is the CPU time; on a busy one the review waits for idle CPU, by design)."""
    import concurrent.futures
    import multiprocessing

    from eights.server.review import review_round, review_worker_started

    executor = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=review_worker_started)
    try:
        for deal in range(args.seed, args.seed + args.rounds):
            record = played_round("classic", 4, deal, "greedy").to_json()
            start = time.monotonic()
            answer = executor.submit(review_round, record, 0, 1, "en", 60.0).result()
            wall = time.monotonic() - start
            cpu = executor.submit(worker_cpu).result()
            print(f"classic 4p round {deal}: review in {wall:.1f} s wall clock, the review "
                  f"{answer['cpu']:.2f} s CPU, the worker {cpu:.2f} s CPU since it started "
                  f"({len(answer['decisions'])} decisions); load {os.getloadavg()[0]:.1f}",
                  flush=True)
    finally:
        executor.shutdown()


def table(args: argparse.Namespace) -> None:
    """Bot moves as a server's tables ask for them (:class:`~eights.server.thinking.Thinker`,
    ``--workers`` processes, ``--tables`` tables each waiting for its bot's move before
    asking the next), in phases of ``--seconds``: alone, then with one review after another
    running in the review pool, alternated ``--repeats`` times. Prints each phase's median
    move time and the ratio of the phases' medians."""
    import asyncio
    import concurrent.futures
    import multiprocessing
    import threading

    from eights.server.review import review_round, review_worker_started
    from eights.server.thinking import Thinker

    found = [(p.observation, list(p.observation.legal))
             for deal in range(args.seed, args.seed + 8)
             for p in positions(played_round("classic", 4, deal, "expert"), [0, 1, 2, 3])]
    records = [played_round("classic", 4, deal, "greedy").to_json()
               for deal in range(args.seed, args.seed + 8)]
    thinker = Thinker(workers=args.workers, wait=120.0)
    reviews = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=review_worker_started)
    reviewing = threading.Event()
    finished = threading.Event()
    reviewed = [0]

    def review_loop() -> None:
        for record in itertools.cycle(records):
            if not reviewing.wait(0.2):
                if finished.is_set():
                    return
                continue
            reviews.submit(review_round, record, 0, 1, "en", 60.0).result()
            reviewed[0] += 1

    async def phase(seconds: float) -> list[float]:
        times: list[float] = []
        end = time.monotonic() + seconds

        async def one_table(k: int) -> None:
            for n in itertools.count(k * 7):
                if time.monotonic() >= end:
                    return
                view, legal = found[n % len(found)]
                start = time.monotonic()
                await thinker.choose(args.bot, view, legal, f"{k}/{n}")
                times.append(time.monotonic() - start)

        await asyncio.gather(*(one_table(k) for k in range(args.tables)))
        return times

    worker = threading.Thread(target=review_loop, daemon=True)
    worker.start()
    try:
        reviews.submit(worker_cpu).result()  # the review worker spawned before the clock
        asyncio.run(phase(10.0))  # the bot workers spawned, the kernel loaded
        medians: dict[bool, list[float]] = {False: [], True: []}
        for repeat in range(args.repeats):
            for with_reviews in (False, True):
                if with_reviews:
                    reviewing.set()
                    time.sleep(1.0)  # a review under way before the first move is timed
                before = reviewed[0]
                times = asyncio.run(phase(args.seconds))
                reviewing.clear()
                median = statistics.median(times)
                medians[with_reviews].append(median)
                print(f"repeat {repeat + 1}, {'with reviews' if with_reviews else 'alone':<12}"
                      f": {len(times)} moves, median {median * 1000:.1f} ms, p90 "
                      f"{sorted(times)[int(0.9 * len(times))] * 1000:.1f} ms; reviews "
                      f"finished {reviewed[0] - before}; load {os.getloadavg()[0]:.1f}",
                      flush=True)
        alone = statistics.median(medians[False])
        beside = statistics.median(medians[True])
        print(f"{args.bot}, {thinker.workers} bot workers, {args.tables} tables, "
              f"{os.cpu_count()} processors: median move {alone * 1000:.1f} ms alone, "
              f"{beside * 1000:.1f} ms with reviews (ratio {beside / alone:.3f}; "
              f"phase medians alone {[round(m * 1000, 1) for m in medians[False]]}, with "
              f"{[round(m * 1000, 1) for m in medians[True]]})", flush=True)
    finally:
        finished.set()
        reviewing.clear()
        worker.join()
        thinker.close()
        reviews.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--rounds", type=int, default=40)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--quality", default="normal", choices=list(lab.QUALITIES))
    c.add_argument("--check", type=int, default=4,
                   help="fresh worlds for calibration, in multiples of the quality's (0: none)")
    c.add_argument("--out", default="review-data.jsonl")
    r = sub.add_parser("report")
    r.add_argument("data")
    r.add_argument("--best", type=float, default=lab.BEST)
    r.add_argument("--good", type=float, default=lab.THRESHOLDS["good"])
    r.add_argument("--inaccuracy", type=float, default=lab.THRESHOLDS["inaccuracy"])
    r.add_argument("--mistake", type=float, default=lab.THRESHOLDS["mistake"])
    r.add_argument("--z", type=float, default=lab.Z)
    s = sub.add_parser("speed")
    s.add_argument("--rounds", type=int, default=10)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--quality", default="normal", choices=list(lab.QUALITIES))
    q = sub.add_parser("paired")
    q.add_argument("--rounds", type=int, default=30)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--quality", default="normal", choices=list(lab.QUALITIES))
    w = sub.add_parser("server")
    w.add_argument("--rounds", type=int, default=3)
    w.add_argument("--seed", type=int, default=1)
    e = sub.add_parser("stopping")
    e.add_argument("--rounds", type=int, default=20)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--quality", default="normal", choices=list(lab.QUALITIES))
    t = sub.add_parser("table")
    t.add_argument("--bot", default="ismcts:iterations=20000")
    t.add_argument("--workers", type=int, default=None,
                   help="bot workers (default: the server's, processors less one)")
    t.add_argument("--tables", type=int, default=2)
    t.add_argument("--seconds", type=float, default=30.0)
    t.add_argument("--repeats", type=int, default=3)
    t.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    {"collect": collect, "report": report, "speed": speed, "paired": paired,
     "server": server, "table": table, "stopping": stopping}[args.command](args)


if __name__ == "__main__":
    main()
