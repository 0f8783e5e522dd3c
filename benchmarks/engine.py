"""Random-play throughput: the reference engine, the compiled kernel, pyspiel stepped from
Python and OpenSpiel's C++ loop, measured in the same run.

    python benchmarks/engine.py [--seconds 3] [--repeats 3] [--presets] [--no-compile]
                                [--only reference,kernel,pyspiel,cpp]

On OpenSpiel's own game (the ``openspiel`` preset with 4 players, special cards and
reshuffle; ``crazy_eights`` with the same parameters), alternating the four so that a
busy machine hurts all alike, each measured for ``--seconds`` of CPU time, best and
median of ``--repeats``:

- ``reference``: :class:`eights.Game` through its public API, ``legal_actions()`` then
  ``push()`` (which, like pyspiel's ``apply_action``, does not re-check), a uniform
  random choice;
- ``kernel``: whole rounds played inside compiled code by the kernel's uniform random
  policy (:func:`eights.fast.random_rounds`: deal, legal actions, apply, scoring);
- ``pyspiel (Python)``: ``pyspiel``'s ``crazy_eights`` stepped from Python the same way
  as the reference engine (uniform legal action, uniform chance outcome);
- ``OpenSpiel C++``: ``pyspiel.evaluate_bots`` with uniform random bots, one call a round
  (the whole round in C++).

It prints rounds/s and the ratios (targets of issue 12: kernel at least 5x OpenSpiel's
C++ loop, and at least 20x the reference engine on every preset) with the CPU model (the
kernel's lead over the C++ depends on the processor: issue 35), then the kernel's
first-call compile time (a fresh ``NUMBA_CACHE_DIR``) and its time to load from that cache,
each in a new process (wall time: importing :mod:`eights.fast` and one round included).
``--presets`` adds the reference engine and the kernel on every preset at its default
player count. A pyspiel decision count includes its separate "nominate suit" steps,
which eights folds into the play (``8h=s``): compare rounds/s.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from common import Bench, alternate, cpu_model, for_cpu, spread
from eights import Game, load_rules, preset_names
from eights.engine.rules import Rules

OPENSPIEL_PARAMS: dict[str, Any] = {
    "players": 4, "max_draw_cards": 5, "use_special_cards": True, "reshuffle": True,
    "max_turns": 100,
}

Measure = Callable[[float], tuple[int, float]]
"""``measure(seconds) -> (rounds, CPU seconds)``."""


def timed(play_round: Callable[[Callable[[], float]], int], seconds: float,
          seed: int = 1) -> tuple[int, float]:
    """Rounds and CPU seconds of ``play_round(rand)`` called until ``seconds`` pass."""
    rand = random.Random(seed).random

    def twenty() -> int:
        for _ in range(20):
            play_round(rand)
        return 20

    return for_cpu(seconds, twenty)


def reference(rules: Rules, players: int) -> Measure:
    def play_round(rand: Callable[[], float]) -> int:
        game = Game(rules, players, seed=int(rand() * 2**32))
        decisions = 0
        while not game.over:
            legal = game.legal_actions()
            game.push(legal[int(rand() * len(legal))])
            decisions += 1
        return decisions

    return lambda seconds: timed(play_round, seconds)


def kernel(rules: Rules, players: int) -> Measure:
    from eights.fast import random_rounds

    random_rounds(rules, players, 1, 0)  # compiled (or loaded) before any clock starts
    seeds = iter(range(1, 1 << 62))

    def chunk() -> int:
        random_rounds(rules, players, 2000, next(seeds))
        return 2000

    return lambda seconds: for_cpu(seconds, chunk)


def pyspiel_python() -> Measure:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", dict(OPENSPIEL_PARAMS))

    def play_round(rand: Callable[[], float]) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
                decisions += 1
        return decisions

    return lambda seconds: timed(play_round, seconds)


def openspiel_cpp() -> Measure:
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("crazy_eights", dict(OPENSPIEL_PARAMS))
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(4)]
    rng = np.random.RandomState(1)

    def fifty() -> int:
        for _ in range(50):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, int(rng.randint(2**31)))
        return 50

    return lambda seconds: for_cpu(seconds, fifty)


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


def rates(measures: dict[str, Measure], seconds: float, repeats: int) -> dict[str, list[float]]:
    """Rounds/s of each measure, ``repeats`` times, taking turns."""
    def rate(measure: Measure) -> Callable[[], float]:
        def once() -> float:
            rounds, cpu = measure(seconds)
            return rounds / cpu
        return once

    return alternate({name: rate(m) for name, m in measures.items()}, repeats)


MEASURES = ("reference", "kernel", "pyspiel", "cpp")


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--seconds", type=float, default=3.0,
                              help="CPU time per measurement")
    bench.parser.add_argument("--repeats", type=int, default=3,
                              help="alternate the measurements this many times")
    bench.parser.add_argument("--presets", action="store_true",
                              help="also compare the kernel and the engine on every preset")
    bench.parser.add_argument("--no-compile", action="store_true",
                              help="skip the compile-time measurement (about 15 s to a minute)")
    bench.parser.add_argument("--only", default=",".join(MEASURES),
                              help=f"the measures on OpenSpiel's game, of {', '.join(MEASURES)}")
    args = bench.parse()
    only = set(args.only.split(","))
    if only - set(MEASURES):
        bench.parser.error(f"--only takes {', '.join(MEASURES)}, not {args.only!r}")
    rules = load_rules("openspiel", {"default_players": 4, "special_cards": True,
                                     "reshuffle": True})
    makers: dict[str, tuple[str, Callable[[], Measure]]] = {
        "reference": ("reference", lambda: reference(rules, 4)),
        "kernel": ("kernel", lambda: kernel(rules, 4)),
        "pyspiel": ("pyspiel (Python)", pyspiel_python),
        "cpp": ("OpenSpiel C++", openspiel_cpp)}
    measures: dict[str, Measure] = {}
    for key in MEASURES:
        if key in only:
            try:
                measures[makers[key][0]] = makers[key][1]()
            except ImportError:
                print("pyspiel not installed (pip install open_spiel): no OpenSpiel figures")
    got = rates(measures, args.seconds, args.repeats)
    print(f"openspiel preset, 4 players, special cards, reshuffle ({args.repeats} runs "
          f"alternating, {args.seconds:g} s CPU each; rounds/s)")
    print(f"  {'engine':<18}{'best':>10}{'median':>10}{'worst':>10}")
    for name, values in got.items():
        best_, median_, worst_ = spread(values)
        print(f"  {name:<18}{best_:>10,.0f}{median_:>10,.0f}{worst_:>10,.0f}")
    bench.result({"rounds_per_s": got})
    best = {name: max(values) for name, values in got.items()}
    if "kernel" in best and "reference" in best:
        print(f"  kernel / reference: {best['kernel'] / best['reference']:.1f}x")
    if "kernel" in best and "OpenSpiel C++" in best:
        print(f"  kernel / OpenSpiel C++: {best['kernel'] / best['OpenSpiel C++']:.2f}x "
              f"on {cpu_model()} (target 5x)")
    if "reference" in best and "pyspiel (Python)" in best:
        print(f"  reference / pyspiel (Python): "
              f"{best['reference'] / best['pyspiel (Python)']:.2f}x")
    if not args.no_compile:
        first, cached = compile_and_load()
        print(f"kernel first call, empty cache (compile): {first:.1f} s; "
              f"from the cache: {cached:.2f} s")
    if args.presets:
        from eights.codes import action_count
        from eights.fast import KernelUnsupported

        print(f"\n{'preset':<16}{'players':>8}{'kernel r/s':>12}{'reference r/s':>15}"
              f"{'ratio':>8}  (best of {args.repeats}, alternating; target 20x)")
        for name in preset_names():
            preset = load_rules(name)
            n = preset.default_players
            try:
                action_count(preset, n)
                pair = {"kernel": kernel(preset, n), "reference": reference(preset, n)}
            except KernelUnsupported as exc:
                print(f"{name:<16}  kernel does not support {exc.field}")
                continue
            pair_rates = rates(pair, args.seconds / 2, args.repeats)
            k, r = max(pair_rates["kernel"]), max(pair_rates["reference"])
            print(f"{name:<16}{n:>8}{k:>12,.0f}{r:>15,.0f}{k / r:>7.1f}x")
            bench.result({"preset": name, "players": n, "kernel": k, "reference": r})


if __name__ == "__main__":
    main()
