"""OpenSpiel: random playouts of ``python_eights`` through OpenSpiel's API, and the compiled
kernel against OpenSpiel's own C++ game.

    python benchmarks/openspiel.py [--seconds 3] [--presets huit-americain,crazy-eights]
    python benchmarks/openspiel.py --versus [--seconds 2] [--repeats 5]

Playouts (the default): for each preset (at its default player count, or ``name:players``)
it plays random rounds for a fixed CPU time the way OpenSpiel's search does:
``chance_outcomes()`` and a card drawn with its odds at a chance node, ``legal_actions()``
and a uniform choice at a decision, ``apply_action`` either way, plus one ``clone()`` a
round; and prints states/s (chance nodes and decisions), decisions/s and rounds/s. For
comparison it steps OpenSpiel's own C++ ``crazy_eights`` (4 players, special cards,
reshuffle) the same way from Python.

``--versus``: OpenSpiel's game as the ``openspiel`` preset (4 players, special cards,
reshuffle) played by ``eights simulate --engine fast`` (:func:`eights.lab.simulate.simulate`
on the compiled kernel, random bots, CPU time of the play) against OpenSpiel's C++ loop
(``pyspiel.evaluate_bots`` with uniform random bots, one call a round, the whole round in
C++), alternating ``--repeats`` times, each for ``--seconds`` of CPU time: rounds/s of
each, their ratio per repeat (median, range), with the CPU model (issue 35: the kernel's
lead depends on the processor).
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np
import pyspiel

import eights.openspiel  # noqa: F401  (registers python_eights)
from common import Bench, alternate, cpu_model, for_cpu, spread
from eights import load_rules
from eights.lab.simulate import simulate

PRESETS = "huit-americain,crazy-eights,openspiel:4,les-huit,tschau-sepp,classic"
CPP_PARAMS: dict[str, Any] = {"players": 4, "max_draw_cards": 5, "use_special_cards": True,
                              "reshuffle": True, "max_turns": 100}
"""OpenSpiel's ``crazy_eights`` as the ``openspiel`` preset plays it with 4 players."""
OVERRIDES = {"special_cards": True, "reshuffle": True}


def playouts(game: Any, seconds: float, seed: int = 1) -> tuple[int, int, int, float]:
    """States, decisions and rounds of random play for ``seconds`` of CPU time."""
    rng = random.Random(seed)
    states = decisions = rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state().clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, odds)[0]
            else:
                action = rng.choice(state.legal_actions())
                decisions += 1
            state.apply_action(action)
            states += 1
        rounds += 1
    return states, decisions, rounds, time.process_time() - start


def kernel_rate(seconds: float, seed: int) -> float:
    """Rounds/s of ``eights simulate --engine fast`` on the ``openspiel`` preset."""
    rules = load_rules("openspiel", OVERRIDES)
    rounds = max(1000, int(seconds * 60_000))
    result = simulate(rules, 4, rounds=rounds, seed=seed, engine="fast")
    return result.rounds / result.seconds


def cpp_rate(seconds: float, seed: int) -> float:
    """Rounds/s of OpenSpiel's C++ ``crazy_eights`` in ``evaluate_bots``, one call a round."""
    game = pyspiel.load_game("crazy_eights", dict(CPP_PARAMS))
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    rng = np.random.RandomState(seed)

    def fifty() -> int:
        for _ in range(50):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, int(rng.randint(2**31)))
        return 50

    rounds, spent = for_cpu(seconds, fifty)
    return rounds / spent


def versus(bench: Bench, seconds: float, repeats: int, seed: int) -> None:
    kernel_rate(0.1, seed)  # compiled (or loaded from numba's cache) before any clock starts
    rates = alternate({"kernel (eights simulate --engine fast)": lambda: kernel_rate(seconds, seed),
                       "OpenSpiel C++ (evaluate_bots)": lambda: cpp_rate(seconds, seed)},
                      repeats)
    kernel, cpp = rates.values()
    ratios = sorted(k / c for k, c in zip(kernel, cpp, strict=True))
    bench.say(f"openspiel preset, 4 players, special cards, reshuffle: rounds/s, {repeats} "
              f"runs alternating, {seconds:g} s CPU each")
    print(f"  {'':<40}{'best':>10}{'median':>10}{'worst':>10}")
    for name, values in rates.items():
        best, mid, worst = spread(values)
        print(f"  {name:<40}{best:>10,.0f}{mid:>10,.0f}{worst:>10,.0f}")
    print(f"  kernel / C++ on {cpu_model()}: median {statistics.median(ratios):.2f}x "
          f"(runs {ratios[0]:.2f}x to {ratios[-1]:.2f}x; target 5x)")
    bench.result({"kernel": kernel, "cpp": cpp, "ratios": ratios, "seconds": seconds})


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--seconds", type=float, default=3.0, help="CPU time a measurement")
    bench.parser.add_argument("--presets", default=PRESETS, help="name or name:players, by commas")
    bench.parser.add_argument("--versus", action="store_true",
                              help="the kernel against OpenSpiel's C++ loop instead")
    bench.parser.add_argument("--repeats", type=int, default=5,
                              help="alternating runs of --versus")
    args = bench.parse()
    if args.versus:
        versus(bench, args.seconds, args.repeats, args.seed)
        return
    print(f"{'game':<34}{'states/s':>10}{'decisions/s':>13}{'rounds/s':>10}")
    runs: list[tuple[str, Any]] = []
    for item in args.presets.split(","):
        name, _, players = item.partition(":")
        n = int(players) if players else load_rules(name).default_players
        runs.append((f"python_eights {name} {n}p", pyspiel.load_game(
            "python_eights", {"rules": name, "players": n})))
    runs.append(("crazy_eights (C++) 4p", pyspiel.load_game("crazy_eights", {
        "players": 4, "use_special_cards": True, "reshuffle": True})))
    for label, game in runs:
        states, decisions, rounds, spent = playouts(game, args.seconds, args.seed)
        print(f"{label:<34}{states / spent:>10,.0f}{decisions / spent:>13,.0f}"
              f"{rounds / spent:>10,.1f}")
        bench.result({"game": label, "states_per_s": states / spent,
                      "decisions_per_s": decisions / spent, "rounds_per_s": rounds / spent})


if __name__ == "__main__":
    main()
