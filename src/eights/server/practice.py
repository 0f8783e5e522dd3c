"""Practice at a table of one person and bots: the search's hint, and its words.

A hint values every legal action of the person's decision as the terminal's ``h`` does
(:func:`eights.lab.review.evaluate_options` at the ``fast`` quality, its words
:func:`eights.i18n.advice.hint_json`), from the seat's
observation alone: the worlds it plays are dealt from what the seat can see, so a hint
tells nothing of the hidden cards. It runs in the server's bot pool
(:meth:`eights.server.thinking.Thinker.hint`), never on the event loop, for at most
:data:`HINT_WAIT` seconds. Undo is the room's (:meth:`eights.server.room.Room.handle`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from eights.engine.observation import Observation
from eights.i18n import Translator
from eights.i18n.advice import HintLine, hint_json, hint_lines
from eights.lab.review import QUALITIES, Position, decision_rng, evaluate_options

__all__ = ["HINT_QUALITY", "HINT_WAIT", "hint_values", "hint_words"]

HINT_QUALITY = "fast"
"""The worlds of a hint (:data:`eights.lab.review.QUALITIES`), as the terminal's."""
HINT_WAIT = 20.0
"""Wall-clock seconds a hint may take, its wait in the pool included."""


def hint_values(view: Observation, seed: int = 0, worlds: int | None = None,
                deadline: float | None = None) -> list[HintLine] | None:
    """Every legal action of the decision ``view`` is at, in lines with their chance of
    winning the round, the best first, ties sharing a rank (read from ``view`` alone);
    ``None`` when it starts past ``deadline`` (``time.monotonic()``). Runs in the pool:
    plain values come back."""
    if deadline is not None and time.monotonic() >= deadline:
        return None
    if not view.legal:  # not this seat's decision: nothing to value
        return []
    here = Position(view.round, len(view.history), view, view.legal[0])
    options = evaluate_options(view, worlds or QUALITIES[HINT_QUALITY], decision_rng(seed, here))
    return hint_lines(options.lines)


def hint_words(values: Sequence[HintLine], _: Translator) -> dict[str, Any]:
    """A hint in words, and each option: the terminal's words
    (:func:`eights.i18n.advice.hint_json`: ``Hint, your chance to win the round after each
    move: 6♠ 17% · draw 12%``, ``best``, ``options``, ``lines``, ``meaning``)."""
    return hint_json(values, _)
