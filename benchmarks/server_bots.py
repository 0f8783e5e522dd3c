"""Search bots beside people: does a table of search bots move the people's latency?

    python benchmarks/server_bots.py [--search-tables 8] [--tables 10] [--seconds 30]
                                     [--repeats 3] [--search-bot ismcts] [--json]
                                     [--search-warmup 30] [--bot-workers 1]

Each run is ``benchmarks/server_load.py``: ``--tables`` tables of scripted people
(WebSocket clients that act after ``--think`` seconds on average) on a fresh
server, measuring the time from an action sent to its state received at each
client. It runs them alone, then beside ``--search-tables`` tables of search bots
only (every seat ``--search-bot``, no pause between moves; they play
``--search-warmup`` seconds before the people start, while the bots' workers
import the search and load its compiled kernel), with the bots
thinking in worker processes (``eights serve --bot-pool processes``, the
default) and in threads (``--bot-pool threads``). The runs are interleaved
(alone, processes, threads, alone, ...) ``--repeats`` times, so a change in
the machine's load falls on every configuration alike; it prints each
configuration's median over the repeats of p50, p99 and max, the steps
the search tables made while measured, and how many of their moves ran past the bots' wait
(the server then plays the greedy move).

The target: search tables move the people's p99 by no more than a few ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

LOAD = Path(__file__).resolve().parent / "server_load.py"

CONFIGS = {"alone": [], "processes": ["--bot-pool", "processes"],
           "threads": ["--bot-pool", "threads"]}


def run(args: argparse.Namespace, config: str) -> dict[str, Any]:
    extra = [] if config == "alone" else [
        "--search-tables", str(args.search_tables), "--search-bot", args.search_bot,
        "--bot-workers", str(args.bot_workers), "--search-warmup", str(args.search_warmup),
        *CONFIGS[config]]
    done = subprocess.run(
        [sys.executable, str(LOAD), "--tables", str(args.tables), "--seconds", str(args.seconds),
         "--think", str(args.think), "--bot-delay", "0", "--ramp", "1", "--warmup", "3",
         "--json", *extra], capture_output=True, text=True, timeout=args.seconds * 10 + 300)
    if done.returncode != 0:
        raise RuntimeError(f"{config}: server_load.py failed:\n{done.stdout}\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=10, help="tables of people (4 seats)")
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--search-tables", type=int, default=8)
    parser.add_argument("--search-bot", default="ismcts")
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--search-warmup", type=float, default=30.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--configs", default="alone,processes,threads",
                        help="which of alone, processes, threads to run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    configs = args.configs.split(",")
    if not set(configs) <= set(CONFIGS):
        parser.error(f"--configs: choose among {', '.join(CONFIGS)}")
    results: dict[str, list[dict[str, Any]]] = {c: [] for c in configs}
    for _ in range(args.repeats):
        for config in configs:
            results[config].append(run(args, config))
            r = results[config][-1]
            print(f"  {config:9} p50 {r['latency_ms']['p50']:7.2f} ms  p99 "
                  f"{r['latency_ms']['p99']:7.2f} ms  search steps "
                  f"{r['search_tables']['steps']} (late {r['search_tables']['late_moves']})",
                  file=sys.stderr, flush=True)
    table = {}
    for config, runs in results.items():
        table[config] = {key: round(statistics.median(r["latency_ms"][key] for r in runs), 2)
                         for key in ("p50", "p99", "max")}
        table[config]["search_steps"] = statistics.median(r["search_tables"]["steps"]
                                                          for r in runs)
        table[config]["late_moves"] = statistics.median(
            r["search_tables"]["late_moves"] for r in runs)
        table[config]["errors"] = sum(r["errors"] + r["lost"] for r in runs)
    if args.json:
        print(json.dumps({"args": vars(args), "medians": table}))
        return 0
    print(f"{args.tables} tables of 4 people (think {args.think} s), {args.seconds:g} s a run, "
          f"median of {args.repeats} runs; search tables: {args.search_tables} x 4 "
          f"{args.search_bot}, {args.bot_workers} bot worker(s)")
    for config, row in table.items():
        print(f"{config:9}  p50 {row['p50']:7.2f} ms  p99 {row['p99']:7.2f} ms  max "
              f"{row['max']:7.2f} ms  search steps {row['search_steps']:g} (late "
              f"{row['late_moves']:g})  errors {row['errors']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
