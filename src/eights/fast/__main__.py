"""``python -m eights.fast [--nice N]``: compile the kernel's entry points into numba's
cache, then mark the cache ready (:func:`eights.fast.cache.mark_ready`).

``make test`` runs it once when it installs, and ``eights play`` starts it in the
background when the cache is cold (``--nice 10``: at low priority, under the game), so
the first search decision, simulation or batched step later loads machine code (about
a second) instead of compiling it (half a minute or more). Any rule set warms every
rule set: the compiled code does not depend on the rules, only on the array types.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.fast import FastGame, policy_rounds, random_rounds
from eights.fast.batch import RoundTallies
from eights.fast.cache import mark_ready
from eights.fast.observe import observation
from eights.fast.search import warm as warm_search
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
    playouts = PlayOuts(rules, 2)
    playouts.play(Game(rules, 2, seed=1), seed=1)
    warm_search(playouts.kt, 2, playouts.policies)  # the search's worlds (ISMCTS)
    tables = TableBatch(rules, 2, batch=1, seed=1)
    _, mask = tables.reset()
    tables.step(np.array([int(np.flatnonzero(mask[0])[0])]))
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eights.fast",
                                     description="Compile the kernel into numba's cache.")
    parser.add_argument("--nice", type=int, default=0, metavar="N",
                        help="lower this process's priority by N first (os.nice)")
    args = parser.parse_args(argv)
    if args.nice:
        os.nice(args.nice)
    seconds = warm()
    marked = mark_ready()
    print(f"eights.fast: the kernel compiled or loaded from numba's cache in {seconds:.1f} s"
          + ("" if marked else " (the package is read-only: no ready mark)"))


if __name__ == "__main__":
    main()
