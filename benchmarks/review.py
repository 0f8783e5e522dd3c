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
import dataclasses
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

from eights import Action, Game, load_rules
from eights.bots import make_bot
from eights.bots.ismcts import Evaluation
from eights.engine.record import Record, record_of
from eights.engine.rules import Scoring
from eights.lab import review as lab
from eights.lab.review import evaluate_position, positions, review_bot

TABLES = (("classic", 2), ("huit-americain", 2), ("classic", 4), ("huit-americain", 4))
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


def run_of(ev: Evaluation, points: bool) -> dict[str, Any]:
    """One evaluation of a decision as the data keeps it: every action's win chance and its
    standard error, the top action, and every action's paired loss to the top with its
    standard error (and the same in points where the rules score), rounded."""
    k = len(ev.actions)
    wins = [ev.win(i) for i in range(k)]
    top = max(range(k), key=lambda i: (wins[i], -i))
    pairs = [(0.0, 0.0) if i == top else ev.paired(top, i) for i in range(k)]
    run: dict[str, Any] = {
        "win": [round(w, 5) for w in wins], "se": [round(ev.win_se(i), 5) for i in range(k)],
        "top": top, "d": [round(d, 5) for d, _ in pairs], "dse": [round(e, 5) for _, e in pairs]}
    if points:
        run["pts"] = [round(ev.mean_points(i), 3) for i in range(k)]
    return run


def collect(args: argparse.Namespace) -> None:
    """Rounds played for the review, seat 0 reviewed with seeds 1 and 2, and the reference
    (see the module text); one JSON line a decision, appended as it goes (a run stopped
    and started again skips the rounds already written)."""
    worlds = lab.QUALITIES[args.quality]
    out = Path(args.out)
    done: set[tuple[str, int, str, int]] = set()
    row: dict[str, Any]
    if out.exists():  # resume: the rounds already written are skipped
        for line in out.read_text("utf-8").splitlines():
            row = json.loads(line)
            done.add((row["rules"], row["players"], row["player"], row["deal"]))
    bot = review_bot()
    tables = [t for t in TABLES if args.table is None or f"{t[0]}:{t[1]}" in args.table]
    with out.open("a", encoding="utf-8") as sink:
        for deal in range(args.seed, args.seed + args.rounds):
            for rules, players in tables:
                for player in PLAYERS:
                    if (rules, players, player, deal) in done:
                        continue
                    record = played_round(rules, players, deal, player)
                    rows = []
                    for position in positions(record, [0]):
                        seen = position.observation
                        legal = list(seen.legal)
                        scores = seen.rules.scoring is not Scoring.ROUNDS_WON
                        row = {"rules": rules, "players": players, "player": player,
                               "deal": deal, "round": position.round, "turn": position.turn,
                               "move": position.move, "k": len(legal),
                               "actions": [str(a) for a in legal],
                               "played": legal.index(position.played)}
                        for name, seed, many in (("s1", 1, worlds), ("s2", 2, worlds),
                                                 ("ref", 3, worlds * args.check)):
                            if not many:
                                continue
                            start = time.process_time()
                            ev = bot.evaluate(seen, legal, lab.decision_rng(seed, position),
                                              many)
                            row[name] = run_of(ev, scores)
                            if name == "s1":
                                row["cpu"] = round(time.process_time() - start, 4)
                        rows.append(row)
                    if not rows:  # no decision with a choice: still noted as done
                        rows.append({"rules": rules, "players": players, "player": player,
                                     "deal": deal, "empty": True})
                    for row in rows:
                        sink.write(json.dumps(row) + "\n")
                    sink.flush()
            print(f"deal {deal} done, {time.strftime('%H:%M:%S')}, load "
                  f"{os.getloadavg()[0]:.1f}", flush=True)


def load_rows(paths: list[str]) -> list[dict[str, Any]]:
    """The decisions of ``collect``'s files (rounds with no decision left out)."""
    rows = []
    for path in paths:
        for line in Path(path).read_text("utf-8").splitlines():
            row = json.loads(line)
            if not row.get("empty"):
                rows.append(row)
    return rows


def row_lines(row: dict[str, Any]) -> list[int]:
    """Each action's line as the review forms them (:func:`eights.lab.review.alike`), by
    the rules alone: the noise check between alike actions needs their paired difference,
    which the data does not keep (alike actions are equal by the rules' symmetry)."""
    rules = load_rules(row["rules"])
    actions = [Action.parse(a) for a in row["actions"]]
    lines: list[int] = []
    for i, action in enumerate(actions):
        home = next((lines[j] for j in range(i) if lab.alike(rules, actions[j], action)), None)
        lines.append(i if home is None else home)
    return lines


def row_mark(row: dict[str, Any], run: str, rule: lab.MarkRule) -> str:
    """The mark ``rule`` gives the played action of a decision in run ``s1``, ``s2``
    (the review with seed 1 or 2) or ``ref``."""
    data = row[run]
    if "lines" not in row:
        row["lines"] = row_lines(row)
    return lab.mark_of(row["played"], data["win"], list(zip(data["d"], data["dse"], strict=True)),
                       row["lines"], rule)


def gap(row: dict[str, Any]) -> float:
    """The reference's gap: its best action's win chance less its second best's."""
    wins: list[float] = sorted(row["ref"]["win"], reverse=True)
    return wins[0] - wins[1]


def judged(rows: list[dict[str, Any]], rule: lab.MarkRule) -> dict[str, Any]:
    """What the targets read for ``rule``: accuracy of each player at 2 and at 4 players,
    stability between seeds 1 and 2 on every decision, on those whose reference gap (best
    less second best) exceeds 0.05, and on those where the played action's reference loss
    exceeds 0.05; and how often both seeds put a decision on the same side of accuracy
    (fine, or not)."""
    out: dict[str, Any] = {}
    for players in (2, 4):
        for player in PLAYERS:
            mine = [r for r in rows if r["players"] == players and r["player"] == player]
            if mine:
                fine = sum(row_mark(r, "s1", rule) in lab.FINE for r in mine)
                out[f"{player} {players}p"] = (fine / len(mine), len(mine))
    for name, keep in (("stable", lambda r: True), ("stable gap>0.05", lambda r: gap(r) > 0.05),
                       ("stable loss>0.05",
                        lambda r: r["ref"]["d"][r["played"]] > 0.05)):
        mine = [r for r in rows if keep(r)]
        if mine:
            same = sum(row_mark(r, "s1", rule) == row_mark(r, "s2", rule) for r in mine)
            out[name] = (same / len(mine), len(mine))
    fine = sum((row_mark(r, "s1", rule) in lab.FINE) == (row_mark(r, "s2", rule) in lab.FINE)
               for r in rows)
    out["same side"] = (fine / len(rows), len(rows))  # fine (best, equal, good) or not
    return out


def rule_of(args: argparse.Namespace, name: str) -> lab.MarkRule:
    base = lab.RULES[name]
    changes = {k: getattr(args, k) for k in ("measure", "z", "good", "inaccuracy", "mistake",
                                             "floor", "cap") if getattr(args, k) is not None}
    return dataclasses.replace(base, **changes) if changes else base


def report(args: argparse.Namespace) -> None:
    """Every rule asked for (default: all of :data:`eights.lab.review.RULES`, the
    thresholds overridden by the options) replayed on the data: per table and seat-0
    player the accuracy and the marks, then the targets (accuracy at 2 and 4 players,
    stability), then the calibration of the losses against the reference."""
    rows = load_rows(args.data)
    print(f"{len(rows)} decisions from {', '.join(args.data)}")
    for name in args.rule or list(lab.RULES):
        rule = rule_of(args, name)
        print(f"\nrule {rule.name}: {rule.measure}, z {rule.z}, floor {rule.floor}, cap "
              f"{rule.cap}; good <= "
              f"{rule.good}, inaccuracy <= {rule.inaccuracy}, mistake <= {rule.mistake}")
        print(f"{'table':<20} {'seat 0':<8} {'rounds':>6} {'decisions':>9} {'accuracy':>9} "
              f"{'mean loss':>14}  marks ({'/'.join(lab.MARKS)})")
        for rules, players in TABLES:
            for player in PLAYERS:
                mine = [r for r in rows if (r["rules"], r["players"], r["player"])
                        == (rules, players, player)]
                if not mine:
                    continue
                got = [row_mark(r, "s1", rule) for r in mine]
                acc = sum(m in lab.FINE for m in got) / len(got)
                losses = [r["s1"]["d"][r["played"]] if m != "best" else 0.0
                          for r, m in zip(mine, got, strict=True)]
                se = statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 \
                    else 0.0
                counts = "/".join(str(got.count(m)) for m in lab.MARKS)
                print(f"{rules + f' {players}p':<20} {player:<8} "
                      f"{len({r['deal'] for r in mine}):>6} {len(mine):>9} {acc:>9.3f} "
                      f"{statistics.mean(losses):>8.4f} ±{se:.4f}  {counts}")
        for key, (value, n) in judged(rows, rule).items():
            print(f"  {key:<18} {value:.3f} of {n}")
    print("\ncalibration (the played action's loss x said with seed 1; its loss on the "
          "reference's fresh worlds, seed 3)")
    print(f"{'x':<14} {'decisions':>9} {'mean x':>8} {'reference':>9} {'± se':>7}")
    for low, high in itertools.pairwise(BINS):
        mine = [r for r in rows if r["s1"]["top"] != r["played"]
                and low <= r["s1"]["d"][r["played"]] < high]
        if not mine:
            continue
        wins = [r["ref"]["win"] for r in mine]
        gains = [w[r["s1"]["top"]] - w[r["played"]] for r, w in zip(mine, wins, strict=True)]
        spread = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        print(f"[{low:.2f}, {min(high, 1):.2f}) {len(mine):>9} "
              f"{statistics.mean(r['s1']['d'][r['played']] for r in mine):>8.4f} "
              f"{statistics.mean(gains):>9.4f} {spread:>7.4f}")
    by_table: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        by_table[f"{r['rules']} {r['players']}p"].append(r["cpu"])
    print("\nCPU a decision (seed 1 only): " + ", ".join(
        f"{t} {statistics.mean(c):.3f} s" for t, c in by_table.items()))


def scan(args: argparse.Namespace) -> None:
    """The targets over a grid of rules: for each measure, ``z``, ``floor`` and ``good``
    threshold (accuracy depends on these alone), the inaccuracy and mistake thresholds
    at ``--spread`` times ``good`` and twice that (stability depends on them too). One
    line a rule; those meeting every target are starred."""
    rows = load_rows(args.data)
    grid = {"win": ([0.0], [1.0], [0.02, 0.025, 0.03, 0.035, 0.04]),
            "share": ([0.05], [1.0], [0.06, 0.08, 0.10, 0.12, 0.15]),
            "stake": ([0.05], [0.5, 0.4, 0.3, 0.25, 0.2],
                      [0.025, 0.03, 0.035, 0.04, 0.045, 0.05]),
            "odds": ([0.02], [1.0], [0.10, 0.12, 0.14, 0.16, 0.20]),
            "spread": ([0.05, 0.10, 0.20], [1.0], [0.20, 0.30, 0.40])}
    for kind in args.measure_list or list(grid):
        floors, caps, goods = grid[kind]
        measure = "share" if kind == "stake" else kind
        for z, floor, cap, good in itertools.product(args.z_list, floors, caps, goods):
            rule = lab.MarkRule(kind, measure, z, good, good * args.spread,
                                good * args.spread * 2, floor, cap)
            got = judged(rows, rule)
            met = all(got[f"random {p}p"][0] <= 0.70 and got[f"expert {p}p"][0] >= 0.85
                      for p in (2, 4) if f"random {p}p" in got) \
                and got.get("stable gap>0.05", (0.0, 0))[0] >= 0.95
            print(("* " if met else "  ") + f"{kind:<6} z {z:<4} floor {floor:<5} cap {cap:<4} "
                  f"good {good:<5} " + " ".join(f"{k} {v:.3f}" for k, (v, _) in got.items()),
                  flush=True)


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
                    stake = (max(first.win(i) for i in range(len(legal))),
                             min(first.win(i) for i in range(len(legal))))
                    if lab.RULE.grade(most, 0.0, *stake) == lab.RULE.grade(least, 0.0, *stake):
                        stopped[z] += 1
                        kept[z] += lab.RULE.grade(most, 0.0, *stake) == final
                        work[z] += len(legal) * first_part
                    else:
                        work[z] += len(legal) * worlds
        for z in stopped:
            print(f"{rules} {players}p, z {z:g}: {stopped[z]} of {decisions} decisions stopped "
                  f"at {first_part} worlds, {kept[z]} of them with their mark at {worlds}; "
                  f"work left {work[z] / full:.3f}", flush=True)


def _mark(values: Evaluation, mine: int) -> tuple[str, float, float]:
    """The mark of action ``mine`` in ``values`` (every action its own line), its loss and
    the loss's standard error."""
    wins = [values.win(i) for i in range(len(values.actions))]
    best = max(range(len(wins)), key=lambda i: (wins[i], -i))
    losses = [(0.0, 0.0) if i == best else values.paired(best, i) for i in range(len(wins))]
    loss, se = losses[mine]
    return lab.mark_of(mine, wins, losses), max(0.0, loss), se


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
    c.add_argument("--table", action="append", default=None,
                   help="only this table (rules:players, repeatable; default: every table)")
    r = sub.add_parser("report")
    r.add_argument("data", nargs="+")
    r.add_argument("--rule", action="append", choices=list(lab.RULES),
                   help="a rule to replay (repeatable; default: every rule)")
    r.add_argument("--measure", choices=list(lab.MEASURES), default=None)
    for name in ("z", "good", "inaccuracy", "mistake", "floor", "cap"):
        r.add_argument(f"--{name}", type=float, default=None,
                       help=f"the rule's {name}, overridden (default: the rule's own)")
    g = sub.add_parser("scan")
    g.add_argument("data", nargs="+")
    g.add_argument("--measure", dest="measure_list", action="append",
                   choices=[*lab.MEASURES, "stake"], help="stake: share with a cap below 1")
    g.add_argument("--z", dest="z_list", type=float, action="append", default=None)
    g.add_argument("--spread", type=float, default=2.5,
                   help="inaccuracy = spread x good, mistake = twice that")
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
    if args.command == "scan" and not args.z_list:
        args.z_list = [lab.RULE.z]
    {"collect": collect, "report": report, "scan": scan, "speed": speed, "paired": paired,
     "server": server, "table": table, "stopping": stopping}[args.command](args)


if __name__ == "__main__":
    main()
