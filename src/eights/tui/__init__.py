"""The full-screen terminal game (Textual).

- :mod:`eights.tui.app` — ``eights play``: the table screen, its keys and the game flow;
- :mod:`eights.tui.newmatch` — the new-match screen (key ``n``): rules, players and the
  bots' level;
- :mod:`eights.tui.replay` — ``eights replay FILE --view``: step through a record;
- :mod:`eights.tui.cards`, :mod:`eights.tui.panels`, :mod:`eights.tui.dialogs` — the
  widgets and dialogs both share;
- ``app.tcss`` — every style, in theme variables.

Importing this package does not import Textual; the command line imports the
apps only when it opens one.
"""

from __future__ import annotations

DELAYS: dict[str, float] = {"slow": 1.5, "normal": 0.8, "fast": 0.3, "instant": 0.0}
"""Seconds between two bot moves, by speed."""
SPEEDS: tuple[str, ...] = tuple(DELAYS)
"""Speeds from slowest to fastest."""
