"""``python -m eights.fast [--nice N] [--quiet]`` (or ``eights compile``): compile the
kernel's entry points into numba's cache, saying each as it goes, then mark the cache
ready (:func:`eights.fast.cache.mark_ready`).

``make test`` runs it once when it installs, and ``eights play`` starts it in the
background when the cache is cold (``--nice 10``: at low priority, under the game), so
the first search decision, simulation or batched step later loads machine code (about
a second) instead of compiling it (minutes: :data:`eights.fast.progress.ESTIMATE`). Any
rule set warms every rule set: the compiled code does not depend on the rules, only on
the array types.

Every compiled entry point must be called by one of :data:`STEPS` (a function added to
the kernel is added here too): ``tests/test_fast_cache.py`` checks that after
:func:`warm` no function of the package's modules is left uncompiled
(:func:`uncompiled`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

import eights.fast
from eights.codes import N_ACTIONS
from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.fast import FastGame, kernel, policy_rounds, random_rounds
from eights.fast.batch import RoundTallies
from eights.fast.cache import mark_ready
from eights.fast.observe import observation
from eights.fast.progress import reporting
from eights.fast.search import warm as warm_search
from eights.fast.selfplay import Tables
from eights.fast.vector import TableBatch
from eights.fast.world import PlayOuts


def _batched() -> None:
    tables = TableBatch(load_rules("classic"), 2, batch=1, seed=1)
    _, mask = tables.reset()
    tables.step(np.array([int(np.flatnonzero(mask[0])[0])]))
    tables.restart()
    tables.state()


def _batched_callable() -> None:
    tables = TableBatch(load_rules("classic"), 2, batch=1, seed=1,
                        opponents=lambda obs, mask: mask.argmax(axis=1))
    _, mask = tables.reset()
    tables.step(np.array([int(np.flatnonzero(mask[0])[0])]))


def _self_play() -> None:
    tables = Tables(load_rules("classic"), 2, batch=1, seed=1)
    tables.advance()
    tables.apply(np.array([0]), tables.legal[:1, 0])
    tables.deal(np.array([0]))


def _one_round() -> None:
    game = FastGame(load_rules("classic"), 2, seed=1)
    game.apply(game.legal_codes()[0])
    game.greedy_action()
    observation(game.kt.tab, game.state, 0)
    kernel.legal_mask(game.kt.tab, game.state, np.zeros(N_ACTIONS, dtype=np.int64))
    kernel.random_round(game.kt.tab, game.state.copy(), 0, np.empty(0, dtype=np.int64),
                        np.empty(N_ACTIONS, dtype=np.int64))


def _search() -> None:
    playouts = PlayOuts(load_rules("classic"), 2)
    playouts.play(Game(load_rules("classic"), 2, seed=1), seed=1)
    warm_search(playouts.kt, 2, playouts.policies)  # the search's worlds (ISMCTS)


STEPS: list[tuple[str, Callable[[], object]]] = [
    ("the batched environment (eights.rl.EightsVectorEnv, TableBatch)", _batched),
    ("the batched environment's policy opponents", _batched_callable),
    ("random rounds", lambda: random_rounds(load_rules("classic"), 2, 1)),
    ("rounds of built-in policies", lambda: policy_rounds(load_rules("classic"),
                                                          ["greedy", "random"], 1)),
    ("simulations' tallies (eights simulate)",
     lambda: RoundTallies(load_rules("classic"), ["random", "greedy"]).play(1)),
    ("one round stepped (FastGame), the kernel's other entry points", _one_round),
    ("the trainer's self-play tables (eights train)", _self_play),
    ("the search's play-outs (ismcts)",
     lambda: PlayOuts(load_rules("classic"), 2).play(Game(load_rules("classic"), 2, seed=1),
                                                     seed=1)),
    ("the search in compiled code (ismcts: worlds, tree, rollouts)", _search),
]
"""What :func:`warm` calls, in order: the batched environment first (a researcher's first
need), each step compiling the entry points it reaches."""


def warm(say: Callable[[str], None] = print) -> float:
    """Call every compiled entry point once (:data:`STEPS`), saying each step and each
    function compiled; returns the wall seconds it took."""
    began = time.perf_counter()
    with reporting(say):
        for i, (label, step) in enumerate(STEPS, 1):
            say(f"eights.fast: [{i}/{len(STEPS)}] {label}")
            step()
    return time.perf_counter() - began


def _cached(dispatcher: Any) -> bool:
    """Whether numba's cache holds machine code of ``dispatcher`` (its index file: a
    function compiled inside another, and loaded with it, has no signature of its own in
    the process). Reads numba's cache object, whose layout numba does not promise: where
    it cannot, False."""
    index = getattr(getattr(getattr(dispatcher, "_cache", None), "_cache_file", None),
                    "_index_path", None)
    return isinstance(index, str) and os.path.exists(index)


def uncompiled() -> list[str]:
    """The compiled functions (``numba.njit`` dispatchers) of the package's modules that
    have no machine code, neither in this process nor in numba's cache, inlined ones
    aside: after :func:`warm`, those that no step of :data:`STEPS` reaches."""
    left = []
    for info in pkgutil.iter_modules(eights.fast.__path__):
        module = importlib.import_module(f"eights.fast.{info.name}")
        for name, value in vars(module).items():
            if (isinstance(value, numba.core.registry.CPUDispatcher)
                    and value.__module__ == module.__name__
                    and value.targetoptions.get("inline", "never") == "never"
                    and not value.signatures and not _cached(value)):
                left.append(f"{module.__name__}.{name}")
    return sorted(left)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m eights.fast",
                                     description="Compile the kernel into numba's cache, "
                                                 "ahead of its first use.")
    parser.add_argument("--nice", type=int, default=0, metavar="N",
                        help="lower this process's priority by N first (os.nice)")
    parser.add_argument("--quiet", action="store_true",
                        help="print only the last line, not each step and function")
    args = parser.parse_args(argv)
    if args.nice:
        os.nice(args.nice)
    seconds = warm((lambda _: None) if args.quiet else print)
    marked = mark_ready()
    print(f"eights.fast: the kernel compiled or loaded from numba's cache in {seconds:.1f} s"
          + ("" if marked else " (the package is read-only: no ready mark)"))


if __name__ == "__main__":
    main()
