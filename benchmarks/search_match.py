"""The search against the expert, in duplicate deals: the strength figures of docs/bots.md.

    python benchmarks/search_match.py [--presets classic,huit-americain,huit-fou,les-huit]
                                      [--players 2] [--deals 300] [--spec ismcts]
                                      [--against expert] [--ceiling] [--jobs 2]
                                      [--seed 9001] [--json FILE]

Each deal (``eights.lab.tournament.make_deal``: the deck's order and the seed of the draws
after it, from ``--seed`` and the deal's number) is played in every seating of the lineup:
at 2 players ``--spec`` in each seat in turn against ``--against``; at more, one ``--spec``
against ``--against`` in every other seat, the searcher in each seat in turn. A deal's
figure is the searcher's share of the rounds it won (a round won by ``k`` seats counts
``1/k``; in team games the searcher's team's win counts, so 0.5 is level at 4 players in
les-huit, 0.25 elsewhere); the line gives the mean over deals with its 95% interval.

``--ceiling`` adds the same search seeing every card (``see=all``: every world the true
game, handed to it before each decision; the stock's order stays chance), on the same deals:
how much of the gap to a perfect reader of hands is information. ``--compare SPEC`` plays a
second search on the same deals and gives the paired difference, deal by deal.

Seeds: the development of the search used seeds below 9000; the figures in docs/bots.md
use ``--seed 9001`` and up, never used while tuning.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from common import Bench
from eights.bots import make_bot
from eights.bots.ismcts import ISMCTSBot
from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.lab.parallel import derive_seed
from eights.lab.tournament import make_deal, seat_assignments


@dataclass(frozen=True)
class Job:
    preset: str
    players: int
    specs: tuple[str, ...]
    """The searcher (bot 0) and its opponent (bot 1)."""
    seed: int


def play_deal(job: Job, index: int) -> tuple[int, float, int, float]:
    """Every seating of deal ``index``: the deal, bot 0's share of the rounds (its team's
    win), the decisions it made and its CPU seconds."""
    rules = load_rules(job.preset)
    n = job.players
    deal = make_deal(rules, n, job.seed, index)
    lineup = (1, n - 1)
    orders = seat_assignments(2, n, lineup)
    won = 0.0
    decisions = 0
    spent = 0.0
    teams = rules.has_teams(n)
    for a, order in enumerate(orders):
        bots = [make_bot(job.specs[b]) for b in order]
        rngs = [random.Random(derive_seed(job.seed, "bot", index, a, s)) for s in range(n)]
        game = Game(rules, n, seed=deal.seed, dealer=0, deck=deal.deck)
        me = order.index(0)
        while not game.over:
            p = game.to_move
            legal = game.legal_actions()
            bot = bots[p]
            if isinstance(bot, ISMCTSBot) and bot.see == "all":
                bot.show(game)
            if p == me and len(legal) > 1:
                began = time.process_time()
                action = bot.choose(game.observe(p), legal, rngs[p])
                spent += time.process_time() - began
                decisions += 1
            else:
                action = bot.choose(game.observe(p), legal, rngs[p])
            game.apply(action)
        winners = game.round_winners or ()
        if winners:
            mine = [s for s in winners if (s % 2 == me % 2 if teams else s == me)]
            won += len(mine) / len(winners)
    return index, won / len(orders), decisions, spent


def _run(job_index: tuple[Job, int]) -> tuple[int, float, int, float]:
    return play_deal(*job_index)


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal, over the values)."""
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - 1.96 * se, mean + 1.96 * se


def match(job: Job, deals: int, jobs: int) -> tuple[list[float], int, float, float]:
    """Deal by deal shares of bot 0, its decisions, CPU seconds, and the wall time."""
    began = time.perf_counter()
    shares = [0.0] * deals
    decisions = 0
    spent = 0.0
    tasks = [(job, i) for i in range(deals)]
    if jobs <= 1:
        results = map(_run, tasks)
        for i, share, d, s in results:
            shares[i], decisions, spent = share, decisions + d, spent + s
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for i, share, d, s in pool.imap_unordered(_run, tasks, chunksize=1):
                shares[i], decisions, spent = share, decisions + d, spent + s
    return shares, decisions, spent, time.perf_counter() - began


def main() -> None:
    bench = Bench(__doc__, seed=9001)
    parser = bench.parser
    parser.add_argument("--presets", default="classic,huit-americain,huit-fou,les-huit")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--spec", default="ismcts")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--compare", default="", help="a second search on the same deals")
    parser.add_argument("--ceiling", action="store_true",
                        help="also the same search seeing every card (see=all)")
    parser.add_argument("--jobs", type=int, default=2)
    args = bench.parse()
    specs = [args.spec]
    if args.compare:
        specs.append(args.compare)
    if args.ceiling:
        specs.append(args.spec + ":see=all")
    for spec in specs:
        make_bot(spec)
    bench.say(f"seed {args.seed}, {args.deals} deals, {args.players} players, every seating; "
              f"against {args.against}; {args.jobs} workers")
    for preset in args.presets.split(","):
        got: dict[str, list[float]] = {}
        for spec in specs:
            job = Job(preset, args.players, (spec, args.against), args.seed)
            shares, decisions, spent, wall = match(job, args.deals, args.jobs)
            got[spec] = shares
            mean, low, high = interval(shares)
            bench.say(f"{preset:<15} {args.players}p  {spec:<40} {mean:.3f} [{low:.3f}, {high:.3f}]"
                      f"  {args.deals} deals  {spent / max(1, decisions) * 1000:.0f} ms CPU a "
                      f"decision ({decisions} decisions)  {wall / 60:.1f} min wall")
            bench.result({"preset": preset, "players": args.players, "spec": spec,
                          "against": args.against, "deals": args.deals, "seed": args.seed,
                          "share": mean, "low": low, "high": high,
                          "ms_per_decision": spent / max(1, decisions) * 1000,
                          "decisions": decisions, "wall_s": wall})
        if len(specs) > 1:
            base = got[specs[0]]
            for spec in specs[1:]:
                d, lo, hi = interval([a - b for a, b in zip(got[spec], base, strict=True)])
                bench.say(f"{preset:<15} {args.players}p  {spec} minus {specs[0]}, deal by deal: "
                          f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
