"""Whether `eights train --hours H` holds its limit: the whole command's wall time, several runs.

    python benchmarks/train_limit.py [--runs 4] [--hours 0.02] [--rules classic]
                                     [--players 4] [--seed 0] [--json FILE]

Each run is the command a user types (``python -m eights.cli train RULES --hours H``, a
fresh folder, seed ``--seed`` + run), timed from before the process starts to after it
ends (the interpreter's start and the imports included), beside the run's own account
(``model.json``: its phases and their seconds) and the load average. The limit holds when
every run's wall time is at most ``--hours`` (issue 35, item 7: 78.8 s against 72 s).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Bench


def main() -> None:
    bench = Bench(__doc__)
    bench.parser.add_argument("--runs", type=int, default=4)
    bench.parser.add_argument("--hours", type=float, default=0.02)
    bench.parser.add_argument("--rules", default="classic")
    bench.parser.add_argument("--players", type=int, default=4)
    args = bench.parse()
    limit = args.hours * 3600
    env = {**os.environ, "EIGHTS_PROGRESS": "0"}
    walls = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "run"
            load = os.getloadavg()[0]
            began = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "eights.cli", "train", args.rules,
                                   "--players", str(args.players), "--hours", str(args.hours),
                                   "--seed", str(args.seed + run), "--out", str(out)],
                                  capture_output=True, text=True, env=env, check=False)
            wall = time.perf_counter() - began
            if done.returncode != 0:
                bench.say(f"run {run}: failed ({done.returncode}): {done.stderr[-500:]}")
                continue
            card = json.loads((out / "model.json").read_text("utf-8"))
        walls.append(wall)
        training = card["training"]
        phases = ", ".join(f"{p['phase']} {p['seconds']:.1f}" for p in training["phases"])
        bench.say(f"run {run}: {wall:.1f} s of wall time against {limit:.0f} s "
                  f"({'held' if wall <= limit else 'OVER'}); the run's own count "
                  f"{training['seconds']:.1f} s ({phases}); load {load:.1f} before, "
                  f"{os.getloadavg()[0]:.1f} after")
        bench.result({"run": run, "wall_s": round(wall, 2), "limit_s": limit,
                      "counted_s": training["seconds"], "phases": training["phases"],
                      "load_before": round(load, 2)})
    if walls:
        bench.say(f"{len(walls)} runs: {min(walls):.1f} to {max(walls):.1f} s of wall time "
                  f"against {limit:.0f} s; {sum(w <= limit for w in walls)} held")


if __name__ == "__main__":
    main()
