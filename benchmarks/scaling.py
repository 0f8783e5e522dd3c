"""Throughput of simulate and tournament in one process, two worker processes, and on a
local Ray with one and two workers.

    python benchmarks/scaling.py [--repeats 3] [--scale 1.0] [--no-ray]

Four workloads, each sized for a few seconds in one process (``--scale`` multiplies
them): ``simulate`` on the compiled kernel and on the reference engine (random bots,
--rounds), a tournament of greedy and random (classic, 4 players) and a heavier one
with the expert (huit-fou, 4 players, expert,greedy,random). Each runs as
``--jobs 1``, ``--jobs 2``, and on one local Ray of two CPUs with at most one task at
a time and with two (``--ray local --jobs 1|2`` but on a Ray started once: its start-up
is printed apart, and one run of each workload warms its workers first, also printed
apart). The configurations alternate, ``--repeats`` times, so that a busy machine hurts
them alike; the table gives the median rounds per wall-clock second with the lowest
and highest, the speed-up of the median over one process, and for the processes the
median CPU seconds of a run (this process and its workers: the cost of the start-ups,
and how much of the machine the run got when it was busy). A worker process pays
its start-up in every run (spawn, import, the kernel loaded from numba's cache): that
is what ``eights simulate --jobs 2`` costs, and why short runs gain little.

On a shared machine the other jobs decide how much a second worker can gain: before
and after the workloads, the benchmark counts how much more a plain Python loop does
in two processes than in one for the same two seconds (2.0 on an idle 2-core machine).

Every configuration's numbers are checked equal to one process's (the point of the
fixed chunks and deals): a difference stops the benchmark.
"""

from __future__ import annotations

import logging
import multiprocessing
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from common import Bench, cpu_time, machine_line
from eights.lab.simulate import simulate
from eights.lab.tournament import tournament


@dataclass(frozen=True)
class Workload:
    name: str
    run: Callable[[int | None, str | None], Any]
    """Plays the workload with ``jobs`` and ``ray``; returns the result (with to_json)."""
    rounds: int


def workloads(scale: float, seed: int = 1) -> list[Workload]:
    def n(count: int) -> int:
        return max(1, round(count * scale))

    fast, ref, light, heavy = n(300_000), n(4_000), n(100), n(12)
    return [
        Workload(f"simulate crazy-eights 4p random, {fast:,} rounds, fast engine",
                 lambda jobs, ray: simulate("crazy-eights", 4, rounds=fast, seed=seed, engine="fast",
                                            jobs=jobs, ray=ray), fast),
        Workload(f"simulate classic 4p random, {ref:,} rounds, reference engine",
                 lambda jobs, ray: simulate("classic", 4, rounds=ref, seed=seed, jobs=jobs, ray=ray),
                 ref),
        Workload(f"tournament classic 4p greedy,random, {light} deals",
                 lambda jobs, ray: tournament("classic", 4, ["greedy", "random"], light, seed=seed,
                                              jobs=jobs, ray=ray), light * 6),
        Workload(f"tournament huit-fou 4p expert,greedy,random, {heavy} deals",
                 lambda jobs, ray: tournament("huit-fou", 4, ["expert", "greedy", "random"], heavy,
                                              seed=seed, jobs=jobs, ray=ray), heavy * 12),
    ]


TIMING = {"seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"}


def numbers(result: Any) -> dict[str, Any]:
    return {k: v for k, v in result.to_json().items() if k not in TIMING}


def timed(work: Workload, jobs: int | None, ray: str | None) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds of one run (this process and its finished children, the worker
    processes; not Ray's workers, which are not its children), and its numbers."""
    with cpu_time(children=True) as spent:
        result = work.run(jobs, ray)
    return spent.wall, spent.seconds, numbers(result)


def _spin(seconds: float) -> int:
    """Loops of plain Python done in ``seconds`` of wall time."""
    count, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        count += 1
    return count


def headroom(seconds: float = 2.0) -> float:
    """How much more two processes loop than one in the same wall time (2.0: two free
    cores; 1.0: the machine is full)."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        pool.map(_spin, [0.1, 0.1])  # started and imported before the count
        one = pool.apply(_spin, (seconds,))
        two = sum(pool.map(_spin, [seconds, seconds]))
    return two / one


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each")
    bench.parser.add_argument("--scale", type=float, default=1.0, help="multiply every workload")
    bench.parser.add_argument("--no-ray", action="store_true", help="processes only")
    args = bench.parse()
    configs: list[tuple[str, int | None, str | None]] = [("1 process", 1, None),
                                                          ("2 processes", 2, None)]
    if not args.no_ray:
        import ray

        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
        print(f"Ray start-up (local, 2 CPUs): {time.perf_counter() - start:.1f} s")
        configs += [("Ray, 1 worker", 1, "local"), ("Ray, 2 workers", 2, "local")]
    print(f"two processes loop x{headroom():.2f} as much as one; {args.repeats} alternating "
          "runs of each configuration\n")
    try:
        for work in workloads(args.scale, args.seed):
            expected = numbers(work.run(1, None))  # also loads the kernel here
            if not args.no_ray:
                warm, _, got = timed(work, 2, "local")
                assert got == expected, f"{work.name}: Ray gave other numbers"
                print(f"(first run on Ray, its workers importing eights: {warm:.1f} s)")
            seconds: dict[str, list[float]] = {label: [] for label, _, _ in configs}
            cpus: dict[str, list[float]] = {label: [] for label, _, _ in configs}
            for _ in range(args.repeats):
                for label, jobs, ray_address in configs:
                    wall, used, got = timed(work, jobs, ray_address)
                    assert got == expected, f"{work.name}: {label} gave other numbers"
                    seconds[label].append(wall)
                    cpus[label].append(used)
            print(work.name)
            base = statistics.median(work.rounds / s for s in seconds["1 process"])
            for label, walls in seconds.items():
                rates = sorted(work.rounds / s for s in walls)
                mid = statistics.median(rates)
                spent = "" if "Ray" in label else f"  {statistics.median(cpus[label]):.1f} s CPU"
                print(f"  {label:<15}{mid:>11,.0f} rounds/s  [{rates[0]:,.0f} – {rates[-1]:,.0f}]"
                      f"  x{mid / base:.2f}{spent}")
                bench.result({"workload": work.name, "config": label, "rounds_per_s": rates,
                              "cpu_s": cpus[label]})
            print()
    finally:
        if not args.no_ray:
            ray.shutdown()
    print(f"at the end: {machine_line()}; two processes loop x{headroom():.2f} as much as one")


if __name__ == "__main__":
    main()
