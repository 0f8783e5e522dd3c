"""Your hand as a fan of cards that always fits its width.

Cards stand side by side while they fit; when the hand is wider than the
screen, they overlap like a fan held in the hand, each still showing its
rank over its suit in the left corner (the last one shows whole). The chosen
card stands one line higher; playable cards have a heavy border (so they
differ under NO_COLOR too); cards marked to go down together (SW3) carry
``✓`` in the top border, beside their number; cards received since your last
move are marked ``+`` in the bottom border. Colours come from ``app.tcss``
(component classes).
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

__all__ = ["BIG_WIDTH", "CARD_WIDTH", "MARK", "HandFan", "fan_step", "mini_face"]

CARD_WIDTH = 7
"""Columns of one whole card, borders included."""
BIG_WIDTH = 9
"""Columns of one whole card on a tall screen (:attr:`HandFan.big`)."""
GAP = 1
"""Columns between two cards that do not overlap."""
MIN_STEP = 3
"""The least a card may show when cards overlap: its border, its rank (``10``) and its suit."""
MARK = "✓"
"""The sign, in the top border, of a card marked to go down with others (SW3)."""
LIGHT = "╭─╮│╰╯"
HEAVY = "┏━┓┃┗┛"


def fan_step(cards: int, width: int, card_width: int = CARD_WIDTH) -> int:
    """Columns from one card's left edge to the next one's, so that ``cards`` fit in ``width``.

    >>> fan_step(5, 76), fan_step(12, 76), fan_step(30, 76)
    (8, 6, 3)
    """
    if cards <= 1:
        return card_width + GAP
    room = (width - card_width) // (cards - 1)
    return max(MIN_STEP, min(card_width + GAP, room))


def mini_face(card: Card, _: Translator, big: bool = False) -> tuple[str, ...]:
    """The inner lines of a card in the fan: rank over suit on the left, mirrored on the right
    (and the suit in the middle of a big card).

    Court cards carry the letters players write in the language shown (R, D, V in French).

    >>> from eights.engine.cards import Card
    >>> from eights.i18n import translator
    >>> mini_face(Card.parse("Th"), translator("en")), mini_face(Card.parse("Ks"), translator("fr"))
    (('10  ♥', '♥  10'), ('R   ♠', '♠   R'))
    >>> mini_face(Card.parse("Qd"), translator("en"), big=True)
    ('Q     ♦', '       ', '   ♦   ', '       ', '♦     Q')
    """
    if card.suit is None:
        rank = suit = "★"
    else:
        rank, suit = rank_label(card.rank, _), card.suit.symbol
    inner = (BIG_WIDTH if big else CARD_WIDTH) - 2
    first, last = rank + suit.rjust(inner - len(rank)), suit + rank.rjust(inner - len(suit))
    if not big:
        return (first, last)
    return (first, " " * inner, suit.center(inner), " " * inner, last)


class HandFan(Widget, can_focus=False):
    """The hand of the seat shown, one card per column group, fitting its width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hand--black", "hand--red", "hand--joker", "hand--playable", "hand--unplayable",
        "hand--selected", "hand--new", "hand--back", "hand--marked",
    }

    class Chosen(Message):
        """A card was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class Marked(Message):
        """A card was right-clicked (or ctrl-clicked): mark it to go down with others (SW3)."""

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
        self.marked: frozenset[int] = frozenset()
        """Positions of the cards marked to go down together (SW3)."""
        self.big = False
        """Bigger cards, for tall screens (set by the table's layout)."""

    @property
    def card_width(self) -> int:
        return BIG_WIDTH if self.big else CARD_WIDTH

    @property
    def card_height(self) -> int:
        """Lines of one card, borders included."""
        return 7 if self.big else 4

    def set_big(self, big: bool) -> None:
        """Show big cards (or the usual ones); the widget is one line taller than a card."""
        self.big = big
        self.styles.height = self.card_height + 1
        self.refresh()

    def show(self, cards: Sequence[Card], *, playable: Collection[Card] = (),
             turn: bool = False, selected: int = -1, new: Collection[int] = (),
             marked: Collection[int] = ()) -> None:
        """Show ``cards``; mark the playable ones (on ``turn``), the selected, the new ones and
        those marked to go down together."""
        self.cards = tuple(cards)
        self.playable = frozenset(playable)
        self.turn = turn
        self.selected = selected
        self.new = frozenset(new)
        self.marked = frozenset(marked)
        self.refresh()

    @property
    def step(self) -> int:
        return fan_step(len(self.cards), self.content_region.width or self.size.width,
                        self.card_width)

    def lefts(self) -> list[int]:
        """The column where each card starts."""
        return [i * self.step for i in range(len(self.cards))]

    def index_at(self, x: int, y: int) -> int:
        """The card under a column and line of this widget (``-1`` for none)."""
        step = self.step
        for i in reversed(range(len(self.cards))):  # the later card lies on top
            left = i * step
            top = 0 if i == self.selected else 1
            if left <= x < left + self.card_width and top <= y < top + self.card_height:
                return i
        return -1

    def _card_cells(self, i: int, card: Card) -> list[list[tuple[str, tuple[str, ...]]]]:
        """The lines of card ``i``, as (character, component classes) cells."""
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
        width = self.card_width
        tick = MARK if i in self.marked else box[1]  # seen even where the next card overlaps
        top = box[0] + number + tick + box[1] * (width - 4) + box[2]
        mark = "+" if i in self.new else box[1]
        bottom = box[4] + mark + box[1] * (width - 3) + box[5]
        lines: list[list[tuple[str, tuple[str, ...]]]] = []
        marked = ("hand--marked",) if i in self.marked else ()
        lines.append([(ch, frame + state + (marked if k == 2 else ())) for k, ch in enumerate(top)])
        for inner in mini_face(card, self.tr, self.big):
            lines.append([(box[3], frame + state)] + [(ch, (colour, *state)) for ch in inner]
                         + [(box[3], frame + state)])
        new_mark = ("hand--new",) if i in self.new else ()
        lines.append([(ch, frame + state + (new_mark if k == 1 else ()))
                      for k, ch in enumerate(bottom)])
        return lines

    def render(self) -> Content:
        width = self.content_region.width or self.size.width
        height = self.card_height + 1
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
            mark = event.button == 3 or event.ctrl
            self.post_message(self.Marked(index) if mark else self.Chosen(index))

