"""Practice at a table of one person and bots: the search's hint, and its words.

A hint values every legal action of the person's decision as the terminal's ``h`` does
(:func:`eights.lab.review.evaluate_position` at the ``fast`` quality), from the seat's
observation alone: the worlds it plays are dealt from what the seat can see, so a hint
tells nothing of the hidden cards. It runs in the server's bot pool
(:meth:`eights.server.thinking.Thinker.hint`), never on the event loop, for at most
:data:`HINT_WAIT` seconds. Undo is the room's (:meth:`eights.server.room.Room.handle`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from eights.engine.actions import Action
from eights.engine.observation import Observation
from eights.i18n import Translator
from eights.i18n.advice import percent
from eights.i18n.text import action_words
from eights.lab.review import QUALITIES, Position, evaluate_position

__all__ = ["HINT_QUALITY", "HINT_WAIT", "hint_values", "hint_words"]

HINT_QUALITY = "fast"
"""The worlds of a hint (:data:`eights.lab.review.QUALITIES`), as the terminal's."""
HINT_WAIT = 20.0
"""Wall-clock seconds a hint may take, its wait in the pool included."""


def hint_values(view: Observation, seed: int = 0, worlds: int | None = None,
                deadline: float | None = None) -> list[tuple[str, float]] | None:
    """Every legal action of the decision ``view`` is at, with its chance of winning the
    round, the best first (read from ``view`` alone); ``None`` when it starts past
    ``deadline`` (``time.monotonic()``). Runs in the pool: plain values come back."""
    if deadline is not None and time.monotonic() >= deadline:
        return None
    if not view.legal:  # not this seat's decision: nothing to value
        return []
    position = Position(view.round, len(view.history), view, view.legal[0])
    decision = evaluate_position(position, worlds or QUALITIES[HINT_QUALITY], seed)
    return [(str(value.action), value.win) for value in decision.actions]


def hint_words(values: Sequence[tuple[str, float]], _: Translator) -> dict[str, Any]:
    """A hint in words, and each option: ``Hint: 6♠ 17% · draw 12%``. The one place the
    page's hint is worded (the terminal's words, :func:`eights.tui.review.hint_line`)."""
    options = [{"action": action, "win": round(win, 4),
                "text": action_words(Action.parse(action), _), "percent": percent(win, _)}
               for action, win in values]
    text = _("Hint: {options}", options=" · ".join(f"{o['text']} {o['percent']}"
                                                   for o in options))
    return {"text": text, "options": options, "best": options[0]["action"] if options else None}
