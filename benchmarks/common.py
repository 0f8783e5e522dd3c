"""What every benchmark shares: its arguments, CPU timing, the machine, and JSON out.

A benchmark script holds only its measurement; this module gives it the rest::

    from common import Bench, cpu_time

    def main() -> None:
        bench = Bench(__doc__)                      # --seed, --json FILE, --quiet
        bench.parser.add_argument("--games", type=int, default=20)
        args = bench.parse()                        # prints the machine line first
        with cpu_time() as spent:
            ...                                     # the measurement
        bench.result({"games": args.games, "cpu_s": spent.seconds})   # to --json FILE

Timing is **process CPU time** (:func:`time.process_time`: every thread of the process,
so the worker threads of OpenBLAS or numba count, which :func:`time.thread_time` does not
see), optionally with the CPU of finished child processes (``children=True``). The
machine line names the CPU model, the cores and the load average, which every figure
printed beside a ratio must carry: the same code measures differently on another CPU.

Scripts run as ``python benchmarks/NAME.py``, so this module is imported as ``common``
(the script's folder is on ``sys.path``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from eights import Observation
    from eights.engine.actions import Action

__all__ = ["Bench", "Spent", "alternate", "cpu_model", "cpu_time", "decision_points", "for_cpu",
           "machine", "machine_line", "spread"]


def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo``; :func:`platform.processor` elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text("utf-8", "replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    """The facts a figure depends on: CPU model, cores, load average, Python, platform."""
    return {"cpu": cpu_model(), "cores": os.cpu_count() or 1,
            "load": round(os.getloadavg()[0], 2), "python": platform.python_version(),
            "platform": platform.platform(terse=True)}


def machine_line() -> str:
    """One line for a benchmark's output: ``machine: AMD EPYC, 2 cores, load 1.23, ...``."""
    m = machine()
    return (f"machine: {m['cpu']}, {m['cores']} cores, load {m['load']:.2f}, "
            f"Python {m['python']}, {m['platform']}")


@dataclass
class Spent:
    """CPU seconds measured by :func:`cpu_time` (set when its block ends)."""

    seconds: float = 0.0
    wall: float = 0.0


@contextmanager
def cpu_time(children: bool = False) -> Iterator[Spent]:
    """Measure the block's process CPU time (all threads; with ``children``, plus the CPU
    of child processes that ended and were waited for inside it) and its wall time."""
    spent = Spent()

    def now() -> float:
        if not children:
            return time.process_time()
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    cpu, wall = now(), time.perf_counter()
    try:
        yield spent
    finally:
        spent.seconds = now() - cpu
        spent.wall = time.perf_counter() - wall


def for_cpu(seconds: float, work: Callable[[], int]) -> tuple[int, float]:
    """Call ``work()`` (it returns how many units it did: rounds, steps...) until ``seconds``
    of process CPU time have passed: the units done and the CPU seconds they took."""
    done = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        done += work()
    return done, spent


def alternate(measures: Mapping[str, Callable[[], float]], repeats: int
              ) -> dict[str, list[float]]:
    """Each measure's values, the measures called in turn ``repeats`` times over (so that a
    change of the machine's load falls on each alike)."""
    values: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(repeats):
        for name, measure in measures.items():
            values[name].append(measure())
    return values


def spread(values: list[float]) -> tuple[float, float, float]:
    """The best (highest), the median and the worst of a measure's values."""
    return max(values), statistics.median(values), min(values)


def decision_points(rules: Any, players: int | None, count: int, seed: int = 1
                    ) -> list[tuple[Observation, list[Action]]]:
    """``count`` decisions with a choice (more than one legal action), as the seat to play
    saw them, from games between greedy bots seeded ``seed``, ``seed + 1``...: the positions
    the bot benchmarks time their decisions on. ``rules``: a preset name or a ``Rules``;
    ``players``: the rules' default when ``None``."""
    import random

    from eights import Game, load_rules
    from eights.bots import make_bot

    loaded = load_rules(rules)
    n = loaded.default_players if players is None else players
    greedy = make_bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[Observation, list[Action]]] = []
    game_seed = seed
    while len(out) < count:
        game = Game(loaded, n, seed=game_seed)
        game_seed += 1
        while not game.over and len(out) < count:
            seen = game.observe(game.to_move)
            legal = game.legal_actions()
            if len(legal) > 1:
                out.append((seen, legal))
            game.apply(greedy.choose(seen, legal, rng))
    return out


class Bench:
    """A benchmark's command line and output: ``--seed``, ``--json FILE`` and ``--quiet``
    beside the script's own arguments; the machine line printed before the measurement,
    and the machine recorded beside the results in the JSON file."""

    def __init__(self, doc: str | None, seed: int | None = 0) -> None:
        text = (doc or "").strip()
        self.parser = argparse.ArgumentParser(
            description=text.splitlines()[0] if text else None, epilog=None,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        if seed is not None:  # None: a measurement whose seeds are fixed (no --seed)
            self.parser.add_argument("--seed", type=int, default=seed,
                                     help=f"the first seed of the measurement (default {seed})")
        self.parser.add_argument("--json", type=Path, metavar="FILE",
                                 help="also write the results, with the machine, as JSON")
        self.parser.add_argument("--quiet", action="store_true",
                                 help="print only the results, not the machine line")
        self.args = argparse.Namespace()
        self.results: list[Any] = []

    def parse(self, argv: list[str] | None = None) -> argparse.Namespace:
        """Parse the command line and print the machine line (unless ``--quiet``)."""
        self.args = self.parser.parse_args(argv)
        self.say(machine_line())
        return self.args

    def say(self, text: str) -> None:
        """Print a line now (benchmarks run for minutes: nothing waits in a buffer)."""
        if not getattr(self.args, "quiet", False):
            print(text, flush=True)

    def result(self, row: Any) -> None:
        """Keep a result for the JSON file (written at once, so an interrupted run keeps
        what it measured)."""
        self.results.append(row)
        path = getattr(self.args, "json", None)
        if path is not None:
            data = {"script": Path(sys.argv[0]).name, "argv": sys.argv[1:],
                    "machine": machine(), "results": self.results}
            path.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
