"""A compiled kernel (numba) that plays any supported :class:`~eights.engine.rules.Rules`.

The reference engine (:mod:`eights.engine`) is the specification; the kernel
is proven against it (``tests/test_fast.py``). Importing this package imports
numba; :func:`~eights.fast.tables.check_supported` alone does not.

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

import hashlib
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def drop_stale_cache(here: Path = _HERE, codes: Path = _HERE.parent / "codes.py") -> bool:
    """Drop the package's cached machine code when any of its sources has changed.

    numba's cache (``cache=True``) checks only the file of each function: a function of
    ``world.py`` compiled against an older ``kernel.py`` (whose helpers it inlines) would
    load unchanged and play the old rules. The sources' hash is kept beside the cache, in
    the package's ``__pycache__`` (numba's cache for a writable tree); when it differs,
    every ``*.nbi``/``*.nbc`` there is removed and compiled again on first use. A
    read-only install caches elsewhere, and an upgrade changes every file at once.
    Returns whether the cache was dropped.
    """
    sources = [*sorted(here.glob("*.py")), codes]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    try:
        if stamp.read_text("ascii") == digest:
            return False
    except OSError:
        pass  # no stamp yet: whatever is cached is of unknown sources
    try:
        for old in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            old.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest, "ascii")
    except OSError:
        pass  # not writable: numba caches elsewhere (or not at all)
    return True


drop_stale_cache()

from eights.codes import N_ACTIONS  # noqa: E402 (after the cache check)
from eights.fast.game import (  # noqa: E402
    POLICIES,
    FastGame,
    RoundResults,
    action_code,
    code_action,
    policy_rounds,
    random_rounds,
)
from eights.fast.tables import (  # noqa: E402
    KernelTables,
    KernelUnsupported,
    check_supported,
    compile_rules,
)

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
