"""Random playouts of ``python_eights`` (``eights.openspiel``) through OpenSpiel's API.

    python benchmarks/openspiel.py [--seconds 3] [--presets huit-americain,crazy-eights]

For each preset (at its default player count, or ``name:players``) it plays random rounds
for a fixed CPU time the way OpenSpiel's search does: ``chance_outcomes()`` and a card drawn
with its odds at a chance node, ``legal_actions()`` and a uniform choice at a decision,
``apply_action`` either way, plus one ``clone()`` a round; and prints states/s (chance
nodes and decisions), decisions/s and rounds/s. For comparison it steps OpenSpiel's own
C++ ``crazy_eights`` (4 players, special cards, reshuffle) the same way from Python.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import pyspiel

import eights.openspiel  # noqa: F401  (registers python_eights)
from eights import load_rules

PRESETS = "huit-americain,crazy-eights,openspiel:4,les-huit,tschau-sepp,classic"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time a measurement")
    parser.add_argument("--presets", default=PRESETS, help="name or name:players, by commas")
    args = parser.parse_args()
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
        states, decisions, rounds, spent = playouts(game, args.seconds)
        print(f"{label:<34}{states / spent:>10,.0f}{decisions / spent:>13,.0f}"
              f"{rounds / spent:>10,.1f}")


if __name__ == "__main__":
    main()
