"""Policy opponents in NumPy and OpenBLAS's threads: the batched environment's steps per second.

    python benchmarks/blas_threads.py [--tables 64] [--seconds 3] [--repeats 3]

A NumPy policy opponent (the one-layer "frozen network" of docs/environments.md:
``obs @ weights``, float64, then the best legal code) holds the three other seats of
``--tables`` tables of classic at four players, and the learning seat plays a masked
uniform-random choice. NumPy's matrix product runs on OpenBLAS, which by default starts
one thread a core for each product, however small; on a busy machine those threads
wait for each other and for the cores. Each configuration runs in a child process of its
own (OpenBLAS reads its thread count when NumPy is imported), alternating, best of
``--repeats``, each for ``--seconds`` of wall time:

- ``default``: OpenBLAS as NumPy starts it (one thread a core), ``blas_threads=None``;
- ``OPENBLAS_NUM_THREADS=1``: the environment variable, set before Python starts (and
  ``blas_threads=None``);
- ``blas_threads=1``: ``EightsVectorEnv(..., blas_threads=1)``, which limits the
  threads around each call of a policy opponent with threadpoolctl (only where
  threadpoolctl is installed).

It prints steps per second (table-steps: a call at 64 tables is 64 steps), the CPU time a
step took (all threads together) and the load average. docs/environments.md keeps the
figures measured.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from importlib.util import find_spec

CHILD = r"""
import json, sys, time
import numpy as np
from eights.rl import EightsVectorEnv

tables, seconds, limit = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
weights = np.random.default_rng(0).normal(size=(281, 537))

def snapshot(obs, mask):
    logits = obs @ weights
    logits[~mask] = -np.inf
    return logits.argmax(axis=1)

options = {"blas_threads": None if limit == "-" else int(limit)}
envs = EightsVectorEnv("classic", 4, num_envs=tables, opponents=snapshot, **options)
obs, _ = envs.reset(seed=1)
rng = np.random.default_rng(1)
for _ in range(20):  # warm: the kernel loads from numba's cache
    masks = envs.action_masks()
    envs.step((rng.random(masks.shape) * masks).argmax(axis=1))
steps = 0
wall, cpu = time.perf_counter(), time.process_time()
while time.perf_counter() - wall < seconds:
    masks = envs.action_masks()
    envs.step((rng.random(masks.shape) * masks).argmax(axis=1))
    steps += tables
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"rate": steps / wall, "cpu_us": 1e6 * cpu / steps}))
"""


def run(name: str, tables: int, seconds: float) -> dict[str, float]:
    env = dict(os.environ)
    env.pop("OPENBLAS_NUM_THREADS", None)
    limit = "-"
    if name == "OPENBLAS_NUM_THREADS=1":
        env["OPENBLAS_NUM_THREADS"] = "1"
    elif name == "blas_threads=1":
        limit = "1"
    done = subprocess.run([sys.executable, "-c", CHILD, str(tables), str(seconds), limit],
                          env=env, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    names = ["default", "OPENBLAS_NUM_THREADS=1"]
    if find_spec("threadpoolctl") is not None:
        names.append("blas_threads=1")
    best: dict[str, dict[str, float]] = {}
    load = [os.getloadavg()[0]]
    for _ in range(args.repeats):
        for name in names:
            got = run(name, args.tables, args.seconds)
            if name not in best or got["rate"] > best[name]["rate"]:
                best[name] = got
    load.append(os.getloadavg()[0])
    base = best["default"]["rate"]
    print(f"classic, 4 players, {args.tables} tables, a NumPy policy opponent at 3 seats, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} before, {load[1]:.2f} after, "
          f"best of {args.repeats} x {args.seconds} s")
    print("| threads | steps/s | × default | CPU µs a step |")
    print("| --- | ---: | ---: | ---: |")
    for name in names:
        got = best[name]
        print(f"| {name} | {got['rate']:,.0f} | {got['rate'] / base:.1f} | {got['cpu_us']:.1f} |")


if __name__ == "__main__":
    main()
