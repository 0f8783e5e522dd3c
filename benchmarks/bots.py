"""Speed of the bots: ISMCTS rollouts per second per preset on the engine and on the
compiled kernel, time per decision of every bot.

    python benchmarks/bots.py [--decisions 40] [--iterations 300] [--timed 10] [--budget 2000]

For each preset (default player count) it collects decision points from
seeded games between greedy bots (only decisions with more than one legal
action), then times every bot on the same decisions: random, greedy, expert,
and ISMCTS with a fixed budget of rollouts (the default, ``kernel=auto``, with
and without pruning), and the cost of sampling one world.

Rollouts per second are those of the unpruned search, measured on both paths in
the same run, alternating (``kernel=off``, ``kernel=on``, twice; ``-`` where the
kernel does not play the rules; ``kernel=on`` is the search in compiled code since
2026-11-28, ``benchmarks/search_speed.py`` compares it with the search before); then the
time of a whole decision at ``iterations=2000`` (pruned, as played) on both paths, over the first ``--timed``
decision points. Times are CPU time of this process; the kernel is compiled (or
loaded from numba's cache) before any clock starts.
"""

from __future__ import annotations

import random

from common import Bench, cpu_time, decision_points
from eights import Observation, load_rules, preset_names
from eights.bots import make_bot
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.actions import Action


def _timed(spec: str, points: list[tuple[Observation, list[Action]]]) -> tuple[float, int]:
    """CPU seconds and rollouts of ``spec``'s decisions on ``points`` (a fresh bot, warmed up
    on the first point before the clock starts)."""
    bot = make_bot(spec)
    seen, legal = points[0]
    bot.choose(seen, legal, random.Random(0))
    rng = random.Random(0)
    rollouts = 0
    with cpu_time() as spent:
        for seen, legal in points:
            bot.choose(seen, legal, rng)
            rollouts += getattr(bot, "last_iterations", 0)
    return spent.seconds, rollouts


def _kernel_plays(name: str) -> bool:
    from eights.fast import KernelUnsupported, check_supported

    try:
        check_supported(load_rules(name))
    except KernelUnsupported:
        return False
    return True


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--decisions", type=int, default=40)
    bench.parser.add_argument("--iterations", type=int, default=300)
    bench.parser.add_argument("--timed", type=int, default=10,
                              help="decision points timed at --budget rollouts (0: none)")
    bench.parser.add_argument("--budget", type=int, default=2000)
    args = bench.parse()
    specs = ["random", "greedy", "expert", f"ismcts:iterations={args.iterations}",
             f"ismcts:iterations={args.iterations}:prune=0"]
    heads = ["random ms", "greedy ms", "expert ms", "ismcts ms", "unpruned ms"]
    paths = ("off", "on")
    print(f"{'preset':<16}" + "".join(f"{h:>12}" for h in heads)
          + f"{'engine it/s':>13}{'kernel it/s':>13}{'x':>6}{'sample µs':>11}"
          + (f"{f'{args.budget} it: engine ms':>22}{'kernel ms':>11}{'x':>6}" if args.timed else ""),
          flush=True)
    for name in preset_names():
        points = decision_points(name, None, args.decisions, args.seed)
        row = f"{name:<16}"
        figures: dict[str, object] = {"preset": name}
        for spec, head in zip(specs, heads, strict=True):
            spent, _ = _timed(spec, points)
            row += f"{spent / len(points) * 1000:>12.3f}"
            figures[head] = spent / len(points) * 1000
        kernel = _kernel_plays(name)
        cpu_of: dict[str, float] = dict.fromkeys(paths, 0.0)
        rollouts = dict.fromkeys(paths, 0)
        for _ in range(2):  # alternating, so a change of load falls on both paths
            for path in paths if kernel else paths[:1]:
                cpu, done = _timed(f"ismcts:iterations={args.iterations}:prune=0:kernel={path}",
                                   points)
                cpu_of[path] += cpu
                rollouts[path] += done
        rates = {path: rollouts[path] / cpu_of[path] for path in paths if cpu_of[path]}
        row += f"{rates['off']:>13.0f}"
        row += f"{rates['on']:>13.0f}{rates['on'] / rates['off']:>6.1f}" if kernel else f"{'-':>13}{'':>6}"
        sampler = random.Random(0)
        with cpu_time() as sampling:
            for seen, _ in points:
                bands = hand_bands(seen)
                for _ in range(20):
                    sample_world(seen, sampler, bands)
        row += f"{sampling.seconds / (20 * len(points)) * 1e6:>11.1f}"
        figures.update({"rollouts_per_s": rates, "sample_us": sampling.seconds / (20 * len(points))
                        * 1e6})
        if args.timed:
            ms = {path: _timed(f"ismcts:iterations={args.budget}:kernel={path}",
                               points[:args.timed])[0] / args.timed * 1000
                  for path in (paths if kernel else paths[:1])}
            row += f"{ms['off']:>22.0f}"
            row += f"{ms['on']:>11.0f}{ms['off'] / ms['on']:>6.1f}" if kernel else f"{'-':>11}"
            figures[f"decision_ms_{args.budget}"] = ms
        print(row, flush=True)
        bench.result(figures)


if __name__ == "__main__":
    main()
