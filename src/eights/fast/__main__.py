"""``python -m eights.fast``: compile the kernel's entry points into numba's cache.

``make play`` and ``make test`` run it once when they install, so the first search
decision, simulation or batched step later loads machine code (about a second)
instead of compiling it (half a minute or more). Any rule set warms every rule set:
the compiled code does not depend on the rules, only on the array types.
"""

from __future__ import annotations

import time

import numpy as np

from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.fast import FastGame, policy_rounds, random_rounds
from eights.fast.batch import RoundTallies
from eights.fast.observe import observation
from eights.fast.vector import TableBatch
from eights.fast.world import PlayOuts


def warm() -> float:
    """Call every compiled entry point once; returns the wall seconds it took."""
    began = time.perf_counter()
    rules = load_rules("classic")
    random_rounds(rules, 2, 1)
    policy_rounds(rules, ["greedy", "random"], 1)
    RoundTallies(rules, ["random", "greedy"]).play(1)
    game = FastGame(rules, 2, seed=1)
    game.apply(game.legal_codes()[0])
    game.greedy_action()
    observation(game.kt.tab, game.state, 0)
    PlayOuts(rules, 2).play(Game(rules, 2, seed=1), seed=1)
    tables = TableBatch(rules, 2, batch=1, seed=1)
    _, mask = tables.reset()
    tables.step(np.array([int(np.flatnonzero(mask[0])[0])]))
    return time.perf_counter() - began


if __name__ == "__main__":
    print(f"eights.fast: the kernel compiled or loaded from numba's cache in {warm():.1f} s")
