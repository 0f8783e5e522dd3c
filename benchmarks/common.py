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
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Bench", "Spent", "cpu_model", "cpu_time", "machine", "machine_line"]


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


class Bench:
    """A benchmark's command line and output: ``--seed``, ``--json FILE`` and ``--quiet``
    beside the script's own arguments; the machine line printed before the measurement,
    and the machine recorded beside the results in the JSON file."""

    def __init__(self, doc: str | None, seed: int = 0) -> None:
        text = (doc or "").strip()
        self.parser = argparse.ArgumentParser(
            description=text.splitlines()[0] if text else None, epilog=None,
            formatter_class=argparse.RawDescriptionHelpFormatter)
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
