"""One seat's observation as integers, read from a kernel state in compiled code.

:func:`observe` writes exactly what :func:`eights.codes.observation` makes of the
engine's :meth:`~eights.engine.game.Game.observe` for the same seat: the same integers
in the same layout (see :mod:`eights.codes`, ``observation_size(players)`` of them),
so a policy trained on the kernel's observations reads the engine's alike
(``tests/test_fast_world.py`` compares them at every decision, for every seat).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import (
    O_COUNTS,
    O_DISCARD,
    O_DRAWN,
    O_FLAGS,
    O_HAND,
    O_PENDING_RANK,
    O_RANK,
    O_SEATS,
    O_SUIT,
    O_TOP,
    observation_size,
)
from eights.fast import kernel as k
from eights.fast.kernel import _njit

__all__ = ["observation", "observe"]


@_njit
def observe(tab: Any, st: Any, seat: int, out: Any) -> None:
    """Write ``seat``'s observation of the state ``st`` to ``out`` (an integer array of
    ``observation_size(players)``; every value is written). ``tab`` is unused: the
    kernel's functions all take it first."""
    n = st[k.S_N]
    out[:] = 0
    hand = st[k.S_HANDS] + seat * 53
    for c in range(53):
        out[O_HAND + c] = st[hand + c]
    disc, disc_n = st[k.S_DISC], st[k.S_DISC_N]
    out[O_TOP + st[disc + disc_n - 1]] = 1
    for i in range(disc_n):
        out[O_DISCARD + st[disc + i]] += 1
    over = st[k.S_OVER] != 0
    to_play = -1 if over else st[k.S_TO_MOVE]
    if to_play == seat and st[k.S_DRAWN] >= 0:  # the drawn card is the drawer's to see
        out[O_DRAWN + st[k.S_DRAWN]] = 1
    suit = st[k.S_SUIT]
    out[O_SUIT + (4 if suit < 0 else suit)] = 1
    out[O_RANK + st[k.S_RANK]] = 1
    if st[k.S_PENDING]:
        out[O_PENDING_RANK + (st[k.S_PCARD] >> 2)] = 1
    out[O_COUNTS] = st[k.S_PENDING]
    out[O_COUNTS + 1] = st[k.S_STOCK_N]
    out[O_COUNTS + 2] = st[k.S_SKIP_DUE]
    out[O_COUNTS + 3] = st[k.S_DRAWS]
    out[O_COUNTS + 4] = st[k.S_PLAYS]
    out[O_COUNTS + 5] = st[k.S_PASSES]
    out[O_COUNTS + 6] = st[k.S_SKIP_NEXT]
    out[O_FLAGS] = st[k.S_FREE] != 0
    out[O_FLAGS + 1] = st[k.S_AGAIN] != 0
    out[O_FLAGS + 2] = st[k.S_REPLACE] != 0
    out[O_FLAGS + 3] = st[k.S_SERVED] != 0
    out[O_FLAGS + 4] = st[k.S_ANNOUNCE_DUE] != 0
    out[O_FLAGS + 5] = st[k.S_NAMING] != 0
    out[O_FLAGS + 6] = st[k.S_DIR] < 0
    out[O_FLAGS + 7] = to_play == seat
    out[O_FLAGS + 8] = over
    for i in range(n):  # seats relative to the observer
        s = (seat + i) % n
        out[O_SEATS + i] = st[st[k.S_HSIZE] + s]
        out[O_SEATS + n + i] = (st[k.S_FIN_MASK] >> s) & 1
        out[O_SEATS + 2 * n + i] = to_play == s
        out[O_SEATS + 3 * n + i] = st[k.S_DEALER] == s
        out[O_SEATS + 4 * n + i] = st[k.S_ATTACKER] == s


def observation(tab: Any, st: npt.NDArray[np.int64], seat: int) -> npt.NDArray[np.int64]:
    """``seat``'s observation of ``st`` as a new ``int64`` array (see :func:`observe`)."""
    n = int(st[k.S_N])
    if not 0 <= seat < n:
        raise ValueError(f"seat {seat} does not exist; seats are 0 to {n - 1}")
    out = np.empty(observation_size(n), dtype=np.int64)
    observe(tab, st, seat, out)
    return out
