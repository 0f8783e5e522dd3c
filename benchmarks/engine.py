"""Random-play throughput of the engine, and the ratio to OpenSpiel stepped from Python.

    python benchmarks/engine.py [--seconds 3]

For every preset (at its default player count) it plays random rounds for a
fixed CPU time through the public API (``legal_actions()`` then ``apply()``) and
prints rounds/s and decisions/s. On the ``openspiel`` preset with 4 players,
special cards and reshuffle, it then steps ``pyspiel``'s ``crazy_eights``
with the same parameters from Python the same way (uniform random legal
action; uniform chance outcome, exact with one deck) and prints the ratio.
A pyspiel decision count includes its separate "nominate suit" steps, which
our engine folds into the play (``8h=s``); compare rounds/s first.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from eights import Game, load_rules, preset_names
from eights.engine.rules import Rules

OPENSPIEL_PARAMS: dict[str, Any] = {
    "players": 4, "max_draw_cards": 5, "use_special_cards": True, "reshuffle": True,
    "max_turns": 100,
}


def timed(play_round: Callable[[Callable[[], float]], int], seconds: float,
          seed: int = 1) -> tuple[int, int, float]:
    """Rounds, decisions and CPU seconds of ``play_round`` called until ``seconds`` pass.

    ``play_round(rand)`` plays one random round with ``rand`` and returns its
    number of decisions; both engines are measured through this same loop.
    """
    rand = random.Random(seed).random
    rounds = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for _ in range(20):
            decisions += play_round(rand)
            rounds += 1
    return rounds, decisions, time.process_time() - start


def ours(rules: Rules, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    def play_round(rand: Callable[[], float]) -> int:
        game = Game(rules, players, seed=int(rand() * 2**32))
        decisions = 0
        while not game.over:
            legal = game.legal_actions()
            # push, like pyspiel's apply_action, does not re-check the action or
            # report what it did (apply adds about 2 µs for its Step)
            game.push(legal[int(rand() * len(legal))])
            decisions += 1
        return decisions

    return timed(play_round, seconds, seed)


def pyspiel_steps(seconds: float, seed: int = 1) -> tuple[int, int, float]:
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

    return timed(play_round, seconds, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3,
                        help="alternate measurements and keep the best of each")
    args = parser.parse_args()
    print(f"{'preset':<16}{'players':>8}{'rounds/s':>12}{'decisions/s':>14}{'dec/round':>11}")
    for name in preset_names():
        rules = load_rules(name)
        r, d, t = ours(rules, rules.default_players, args.seconds)
        print(f"{name:<16}{rules.default_players:>8}{r / t:>12.0f}{d / t:>14.0f}{d / r:>11.1f}")
    overrides = {"default_players": 4, "special_cards": True, "reshuffle": True}
    rules = load_rules("openspiel", overrides)
    best_ours = (0.0, 0.0)
    best_theirs = (0.0, 0.0)
    have_pyspiel = True
    for _ in range(args.repeats):  # alternate, so a busy machine hurts both alike
        r, d, t = ours(rules, 4, args.seconds)
        best_ours = max(best_ours, (r / t, d / t))
        try:
            pr, pd, pt = pyspiel_steps(args.seconds)
        except ImportError:
            have_pyspiel = False
            break
        best_theirs = max(best_theirs, (pr / pt, pd / pt))
    print("\nopenspiel preset, 4 players, special cards, reshuffle "
          f"(best of {args.repeats}, CPU time):")
    print(f"  eights  {best_ours[0]:>10.0f} rounds/s {best_ours[1]:>10.0f} decisions/s")
    if not have_pyspiel:
        print("  pyspiel not installed (pip install open_spiel): no ratio")
        return
    print(f"  pyspiel {best_theirs[0]:>10.0f} rounds/s {best_theirs[1]:>10.0f} decisions/s "
          "(stepped from Python)")
    print(f"  ratio eights/pyspiel: {best_ours[0] / best_theirs[0]:.2f}x rounds/s, "
          f"{best_ours[1] / best_theirs[1]:.2f}x decisions/s")


if __name__ == "__main__":
    main()
