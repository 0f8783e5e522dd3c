"""Your hand as a fan of cards that always fits its width.

Cards stand side by side while they fit; when the hand is wider than the
screen, they overlap like a fan held in the hand, each still showing its
rank over its suit in the left corner (the last one shows whole). The chosen
card stands one line higher; playable cards have a heavy border (so they
differ under NO_COLOR too); cards received since your last move are marked
``+`` in the bottom border. Colours come from ``app.tcss`` (component classes).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import ClassVar

from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.style import Style
from textual.widget import Widget

from eights.engine.cards import Card
from eights.i18n import Translator
from eights.i18n.text import rank_label
from eights.tui.cards import is_red

__all__ = ["CARD_WIDTH", "HandFan", "fan_step", "mini_face"]

CARD_WIDTH = 7
"""Columns of one whole card, borders included."""
GAP = 1
"""Columns between two cards that do not overlap."""
MIN_STEP = 3
"""The least a card may show when cards overlap: its border, its rank (``10``) and its suit."""
LIGHT = "╭─╮│╰╯"
HEAVY = "┏━┓┃┗┛"


def fan_step(cards: int, width: int) -> int:
    """Columns from one card's left edge to the next one's, so that ``cards`` fit in ``width``.

    >>> fan_step(5, 76), fan_step(12, 76), fan_step(30, 76)
    (8, 6, 3)
    """
    if cards <= 1:
        return CARD_WIDTH + GAP
    room = (width - CARD_WIDTH) // (cards - 1)
    return max(MIN_STEP, min(CARD_WIDTH + GAP, room))


def mini_face(card: Card, _: Translator) -> tuple[str, str]:
    """The two inner lines of a card in the fan: rank over suit on the left, mirrored on the right.

    Court cards carry the letters players write in the language shown (R, D, V in French).

    >>> from eights.engine.cards import Card
    >>> from eights.i18n import translator
    >>> mini_face(Card.parse("Th"), translator("en")), mini_face(Card.parse("Ks"), translator("fr"))
    (('10  ♥', '♥  10'), ('R   ♠', '♠   R'))
    """
    if card.suit is None:
        rank = suit = "★"
    else:
        rank, suit = rank_label(card.rank, _), card.suit.symbol
    inner = CARD_WIDTH - 2
    return (rank + suit.rjust(inner - len(rank)), suit + rank.rjust(inner - len(suit)))


class HandFan(Widget, can_focus=False):
    """The hand of the seat shown, one card per column group, fitting its width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hand--black", "hand--red", "hand--joker", "hand--playable", "hand--unplayable",
        "hand--selected", "hand--new", "hand--back",
    }

    class Chosen(Message):
        """A card was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, _: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tr = _
        self.cards: tuple[Card, ...] = ()
        """The cards shown, in order (empty when the hand is hidden)."""
        self.playable: frozenset[Card] = frozenset()
        self.turn = False
        self.selected = -1
        self.new: frozenset[int] = frozenset()
        """Positions of the cards received since the last move of this seat."""

    def show(self, cards: Sequence[Card], *, playable: Collection[Card] = (),
             turn: bool = False, selected: int = -1, new: Collection[int] = ()) -> None:
        """Show ``cards``; mark the playable ones (on ``turn``), the selected and the new ones."""
        self.cards = tuple(cards)
        self.playable = frozenset(playable)
        self.turn = turn
        self.selected = selected
        self.new = frozenset(new)
        self.refresh()

    @property
    def step(self) -> int:
        return fan_step(len(self.cards), self.content_region.width or self.size.width)

    def lefts(self) -> list[int]:
        """The column where each card starts."""
        return [i * self.step for i in range(len(self.cards))]

    def index_at(self, x: int, y: int) -> int:
        """The card under a column and line of this widget (``-1`` for none)."""
        step = self.step
        for i in reversed(range(len(self.cards))):  # the later card lies on top
            left = i * step
            top = 0 if i == self.selected else 1
            if left <= x < left + CARD_WIDTH and top <= y < top + 4:
                return i
        return -1

    def _card_cells(self, i: int, card: Card) -> list[list[tuple[str, tuple[str, ...]]]]:
        """The four lines of card ``i``, as (character, component classes) cells."""
        playable = self.turn and card in self.playable
        box = HEAVY if playable else LIGHT
        colour = ("hand--joker" if card.suit is None
                  else "hand--red" if is_red(card) else "hand--black")
        frame: tuple[str, ...] = ("hand--playable",) if playable else ()
        state: tuple[str, ...] = ()
        if self.turn and not playable:
            state += ("hand--unplayable",)
        if i == self.selected:
            state += ("hand--selected",)
        number = str(i + 1) if i < 9 else box[1]
        top = box[0] + number + box[1] * (CARD_WIDTH - 3) + box[2]
        mark = "+" if i in self.new else box[1]
        bottom = box[4] + mark + box[1] * (CARD_WIDTH - 3) + box[5]
        first, second = mini_face(card, self.tr)
        lines: list[list[tuple[str, tuple[str, ...]]]] = []
        lines.append([(ch, frame + state) for ch in top])
        for inner in (first, second):
            lines.append([(box[3], frame + state)] + [(ch, (colour, *state)) for ch in inner]
                         + [(box[3], frame + state)])
        new_mark = ("hand--new",) if i in self.new else ()
        lines.append([(ch, frame + state + (new_mark if k == 1 else ()))
                      for k, ch in enumerate(bottom)])
        return lines

    def render(self) -> Content:
        width = self.content_region.width or self.size.width
        height = 5
        grid: list[list[tuple[str, tuple[str, ...]]]] = [
            [(" ", ())] * max(width, 1) for _row in range(height)]
        step = self.step
        for i, card in enumerate(self.cards):
            left = i * step
            top = 0 if i == self.selected else 1
            for dy, line in enumerate(self._card_cells(i, card)):
                row = grid[top + dy]
                for dx, cell in enumerate(line):
                    if 0 <= left + dx < len(row):
                        row[left + dx] = cell
        out: list[Content] = []
        for row in grid:
            parts: list[str | Content | tuple[str, str | Style]] = []
            run, names = "", row[0][1]
            for ch, cell_names in row:
                if cell_names != names:
                    parts.append((run, self.get_visual_style(*names)) if names else run)
                    run, names = "", cell_names
                run += ch
            parts.append((run, self.get_visual_style(*names)) if names else run)
            out.append(Content.assemble(*parts))
        return Content("\n").join(out)

    def on_click(self, event: Click) -> None:
        index = self.index_at(event.x, event.y)
        if index >= 0:
            event.stop()
            self.post_message(self.Chosen(index))

