"""Random rollouts of the compiled kernel against the reference engine (and OpenSpiel).

    python benchmarks/kernel.py [--seconds 3] [--repeats 3]

On the ``openspiel`` preset with 4 players, special cards and reshuffle, in one
run, alternating so that a busy machine hurts all alike (best of ``--repeats``,
CPU time):

- the kernel: whole rounds played by its compiled uniform-random policy
  (``eights.fast.random_rounds``: deal, legal actions, apply, scoring);
- the reference engine: ``legal_actions()`` then ``push()`` from Python, a
  uniform random choice, as ``benchmarks/engine.py`` measures it;
- OpenSpiel's C++ loop, if ``pyspiel`` is installed: ``pyspiel.evaluate_bots``
  with uniform random bots, one call a round.

It then prints the kernel's first-call compile time (a fresh ``NUMBA_CACHE_DIR``)
and its time to load from that cache, each in a new process (wall time, import
of ``eights.fast`` and one round included), and the kernel against the engine on
every preset the kernel supports.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

from eights import Game, load_rules, preset_names
from eights.engine.rules import Rules
from eights.fast import KernelUnsupported, check_supported, random_rounds

OPENSPIEL_PARAMS: dict[str, Any] = {
    "players": 4, "max_draw_cards": 5, "use_special_cards": True, "reshuffle": True,
    "max_turns": 100,
}


def reference(rules: Rules, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Rounds, decisions and CPU seconds of the reference engine's random play."""
    rand = random.Random(seed).random
    rounds = decisions = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        for _ in range(10):
            game = Game(rules, players, seed=int(rand() * 2**32))
            while not game.over:
                legal = game.legal_actions()
                game.push(legal[int(rand() * len(legal))])
                decisions += 1
            rounds += 1
    return rounds, decisions, time.process_time() - start


def kernel(rules: Rules, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Rounds, decisions and CPU seconds of the kernel's compiled random rounds."""
    random_rounds(rules, players, 1, seed)  # compiled (or loaded) before the clock starts
    rounds = decisions = 0
    batch = 2000
    start = time.process_time()
    while time.process_time() < start + seconds:
        result = random_rounds(rules, players, batch, seed + rounds)
        rounds += batch
        decisions += int(result.decisions.sum())
    return rounds, decisions, time.process_time() - start


def openspiel_cpp(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    """Rounds of OpenSpiel's C++ loop (``evaluate_bots``, uniform random bots)."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("crazy_eights", dict(OPENSPIEL_PARAMS))
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    rng = np.random.RandomState(seed)
    rounds = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        for _ in range(50):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, int(rng.randint(2**31)))
            rounds += 1
    return rounds, 0, time.process_time() - start


_PROBE = ("import time; t = time.perf_counter(); from eights.fast import random_rounds; "
          "random_rounds('openspiel', 4, 1); print(time.perf_counter() - t)")


def compile_and_load() -> tuple[float, float]:
    """Wall seconds of the first call with an empty cache, then with the cache filled."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _PROBE], env=env, check=True,
                                 capture_output=True, text=True)
            times.append(float(out.stdout.strip()))
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3,
                        help="alternate measurements and keep the best of each")
    parser.add_argument("--presets", action="store_true",
                        help="also compare on every supported preset (default players)")
    args = parser.parse_args()
    rules = load_rules("openspiel", {"default_players": 4, "special_cards": True,
                                     "reshuffle": True})
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.repeats):
        for name, measure in (("kernel", kernel), ("reference", reference)):
            r, d, t = measure(rules, 4, args.seconds)
            best[name] = max(best.get(name, (0.0, 0.0)), (r / t, d / t))
        try:
            r, _, t = openspiel_cpp(args.seconds)
        except ImportError:
            continue
        best["openspiel C++"] = max(best.get("openspiel C++", (0.0, 0.0)), (r / t, 0.0))
    print(f"openspiel preset, 4 players, special cards, reshuffle (best of {args.repeats}, "
          f"{args.seconds:g} s CPU each):")
    for name, (rps, dps) in best.items():
        extra = f"{dps:>12,.0f} decisions/s" if dps else ""
        print(f"  {name:<14}{rps:>12,.0f} rounds/s{extra}")
    k, ref = best["kernel"][0], best["reference"][0]
    print(f"  kernel / reference: {k / ref:.1f}x")
    if "openspiel C++" in best:
        print(f"  kernel / OpenSpiel C++: {k / best['openspiel C++'][0]:.2f}x")
    else:
        print("  pyspiel not installed: no OpenSpiel C++ figure")
    first, cached = compile_and_load()
    print(f"first call, empty cache (compile): {first:.1f} s; from the cache: {cached:.2f} s")
    if args.presets:
        print(f"\n{'preset':<16}{'players':>8}{'kernel r/s':>12}{'reference r/s':>15}{'ratio':>8}")
        for name in preset_names():
            rules = load_rules(name)
            try:
                check_supported(rules)
            except KernelUnsupported as exc:
                print(f"{name:<16}  not supported: {exc.field}")
                continue
            n = rules.default_players
            kr, _, kt = kernel(rules, n, args.seconds / 2)
            rr, _, rt = reference(rules, n, args.seconds / 2)
            print(f"{name:<16}{n:>8}{kr / kt:>12,.0f}{rr / rt:>15,.0f}{(kr / kt) / (rr / rt):>7.1f}x")


if __name__ == "__main__":
    main()
