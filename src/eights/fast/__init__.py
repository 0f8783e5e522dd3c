"""A compiled kernel (numba) that plays any supported :class:`~eights.engine.rules.Rules`.

The reference engine (:mod:`eights.engine`) is the specification; the kernel
is proven against it (``tests/test_fast.py``). Its names are imported on first use:
``import eights.fast`` alone, :mod:`eights.fast.cache` (is the machine code ready, the
compile in the background) and :func:`~eights.fast.tables.check_supported` import no
numba; ``FastGame`` and the others do.

Two ways in: :class:`FastGame` steps one round (legal actions, apply, the state as
one ``int64`` array: ``state.copy()`` copies it), and :func:`random_rounds` /
:func:`policy_rounds` play whole rounds inside compiled code with the built-in
policies (``random``, seeded; ``greedy``, the engine's GreedyBot choice for choice).

Actions are the integer codes of :mod:`eights.codes` (the table is there: one card
``0..529``, ``draw`` 530, ``take`` 531, ``pass`` 532, ``=c..=s`` 533-536, plays of several
cards of one rank from 537, SW3); ``action_code``, ``code_action`` and ``N_ACTIONS`` are
re-exported here. The kernel lists legal actions in the engine's canonical order: a
card's plays in card order (its plain plays before the going-out call under
``call_out``), then the plays of several cards (``multi_play``) in the order the
engine makes them, then ``draw`` or ``pass``.

Every rules field is played. A rule set with ``multi_play`` whose deck, at some player
count, holds three copies of a card (``decks``) or more than 81 jokers has plays the
encoding cannot code: a state for that many players raises :class:`KernelUnsupported`
naming the field (:func:`check_supported` with ``players`` tells beforehand).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from eights.fast.cache import drop_stale_cache

drop_stale_cache()

if TYPE_CHECKING:
    from eights.codes import N_ACTIONS
    from eights.fast.game import (
        POLICIES,
        FastGame,
        RoundResults,
        action_code,
        code_action,
        policy_rounds,
        random_rounds,
    )
    from eights.fast.tables import (
        KernelTables,
        KernelUnsupported,
        check_supported,
        compile_rules,
    )

_HOMES = {"N_ACTIONS": "eights.codes",
          **dict.fromkeys(["POLICIES", "FastGame", "RoundResults", "action_code", "code_action",
                           "policy_rounds", "random_rounds"], "eights.fast.game"),
          **dict.fromkeys(["KernelTables", "KernelUnsupported", "check_supported",
                           "compile_rules"], "eights.fast.tables")}
"""Where each name of the package lives: imported on first use (PEP 562)."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'eights.fast' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__all__ = [
    "N_ACTIONS",
    "POLICIES",
    "FastGame",
    "KernelTables",
    "KernelUnsupported",
    "RoundResults",
    "action_code",
    "check_supported",
    "code_action",
    "compile_rules",
    "drop_stale_cache",
    "policy_rounds",
    "random_rounds",
]
