"""A compiled kernel (numba) that plays any supported :class:`~eights.engine.rules.Rules`.

The reference engine (:mod:`eights.engine`) is the specification; the kernel
is proven against it (``tests/test_fast.py``). Importing this package imports
numba; :func:`~eights.fast.tables.check_supported` alone does not.

Two ways in: :class:`FastGame` steps one round (legal actions, apply, the state as
one ``int64`` array: ``state.copy()`` copies it), and :func:`random_rounds` /
:func:`policy_rounds` play whole rounds inside compiled code with the built-in
policies (``random``, seeded; ``greedy``, the engine's GreedyBot choice for choice).

The action encoding (fixed, 537 codes)
--------------------------------------

===========  ===================================================================
``0..529``   a single card: ``card * 10 + suit * 2 + call``, ``card`` its code
             (``rank * 4 + suit``, joker 52), ``suit`` the suit named (0-3:
             ``c d h s``) or 4 for none, ``call`` 1 for ``!`` (the last card
             announced, or the going-out call). The same number as the
             engine's interned ``Action.play(card, suit, call)``.
``530``      ``draw``
``531``      ``take`` (LH5)
``532``      ``pass``
``533..536`` ``=c``, ``=d``, ``=h``, ``=s``: name a wild starter's suit (TS3, UC3)
===========  ===================================================================

The kernel lists legal actions in the engine's canonical order (ascending codes but
for the going-out call under ``call_out``, which the engine lists after a card's plain
plays). Plays of several cards (``multi_play``) are not supported yet:
:func:`compile_rules` raises :class:`KernelUnsupported` naming the field.
"""

from eights.fast.game import (
    POLICIES,
    FastGame,
    RoundResults,
    action_code,
    code_action,
    policy_rounds,
    random_rounds,
)
from eights.fast.kernel import N_ACTIONS
from eights.fast.tables import KernelTables, KernelUnsupported, check_supported, compile_rules

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
    "policy_rounds",
    "random_rounds",
]
