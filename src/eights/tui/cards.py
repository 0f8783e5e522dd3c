"""Cards on screen: a card in a bordered box, a hand of them, and inline card chips.

Colours come from ``app.tcss`` (theme variables), never from the code: a
card is marked with CSS classes (``-red``, ``-playable``, ``-selected``…)
and the stylesheet decides how each looks, in dark, light and NO_COLOR
themes alike. Ranks are printed as players of the app's language write them
(``R D V`` for the French court cards): the widgets take the translator of the
app they run in (its ``tr``), or one given to them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual.containers import HorizontalScroll
from textual.content import Content
from textual.css.styles import RulesMap
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import RichLog, Static

from eights.engine.cards import Card, Rank, Suit
from eights.i18n import Translator, translator
from eights.i18n.text import card_label, rank_label

__all__ = ["CardChips", "CardFace", "GameLog", "HandView", "Unbroken", "app_translator",
           "face_lines", "is_red", "label", "set_text", "text_visual"]

NBSP = "\u00a0"


@dataclass(frozen=True, eq=True)
class Unbroken(Visual):
    """Plain text that wraps at spaces but never at a no-break space.

    Textual breaks a line at any whitespace, U+00A0 included, so a French line could
    begin with the « ; » or « : » that the catalog ties to the word before it (« main ;
    le plus petit total gagne »). This visual wraps the text itself (:mod:`textwrap`
    breaks only at ASCII whitespace) before Textual sees it.
    """

    text: str

    def __str__(self) -> str:
        return self.text

    def lines(self, width: int) -> list[str]:
        """The text's lines at ``width`` cells, broken at ASCII spaces only."""
        if width <= 0:
            return self.text.split("\n")
        return [wrapped for line in self.text.split("\n")
                for wrapped in (textwrap.wrap(line, width, break_on_hyphens=False) or [""])]

    def _content(self, width: int) -> Content:
        return Content("\n".join(self.lines(width)))

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        return self._content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return Content(self.text).get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return max((cell_len(word) for word in self.text.split()), default=0)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self._content(width).get_height(rules, width)


class GameLog(RichLog):
    """The log of the game: each line wraps at its spaces, never at a no-break space (as
    :class:`Unbroken`; a French line read « Appuyez sur » then « ? pour les règles. »)."""

    def write(self, content: RenderableType | object, width: int | None = None,
              expand: bool = False, shrink: bool = True, scroll_end: bool | None = None,
              animate: bool = False) -> Self:
        shown = self.scrollable_content_region.width  # 0 until laid out: RichLog then
        room = max(shown, self.min_width)              # writes it again once sized
        if shown and width is None:
            if isinstance(content, str) and any(cell_len(word) > room and "/" in word
                                                for word in content.split(" ")):
                content = "\n".join(path_lines(content, room))  # a saved game's path
            elif isinstance(content, str) and NBSP in content:
                content = "\n".join(Unbroken(content).lines(room))
            elif isinstance(content, Text) and NBSP in content.plain:
                content = Text("\n".join(Unbroken(content.plain).lines(room)),
                               style=content.style)
        return super().write(content, width, expand, shrink, scroll_end, animate)


def path_lines(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at its spaces, and a path longer
    than a line after one of its ``/`` (not inside a name, as the log would).

    >>> path_lines("Saved: /home/ana/.local/share/eights/games/20261128-classic.json", 24)
    ['Saved: /home/ana/.local/', 'share/eights/games/', '20261128-classic.json']
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        pieces = (re.findall(r"[^/]*/|[^/]+$", word) if cell_len(word) > width and "/" in word
                  else [word])
        for i, piece in enumerate(pieces):
            joined = line + (" " if line and i == 0 else "") + piece
            if line and cell_len(joined) > width:
                lines.append(line)
                line = piece
            else:
                line = joined
    return [*lines, line] if line else lines


def text_visual(text: str) -> str | Unbroken:
    """What a static shows for ``text``: the text itself, or :class:`Unbroken` when it holds
    a no-break space that Textual would break at."""
    return Unbroken(text) if NBSP in text else text


def set_text(widget: Static, text: str) -> None:
    """Update a static's text only when it changes (an update costs a layout); a no-break
    space never starts a line (:func:`text_visual`)."""
    visual = text_visual(text)
    if widget.content != visual:
        widget.update(visual)


def app_translator(widget: Widget) -> Translator:
    """The translator of the app ``widget`` runs in (its ``tr``), English outside such an app."""
    tr = getattr(widget.app, "tr", None)
    return tr if isinstance(tr, Translator) else translator("en")


def is_red(card: Card) -> bool:
    """Hearts and diamonds are printed in red."""
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def label(card: Card, _: Translator | None = None) -> str:
    """The rank as printed in a card's corner: ``A``, ``7``, ``10``, ``Q`` (``D`` in French), ``★``."""
    if card.rank is Rank.JOKER:
        return "★"
    return rank_label(card.rank, _ or translator("en"))


def face_lines(card: Card, big: bool = False, _: Translator | None = None) -> list[str]:
    """The inside of a card box: rank in the corner, suit symbol below.

    >>> face_lines(Card.parse("Th")), face_lines(Card.parse("8s"), big=True)
    (['10   ', '    ♥'], ['8      ', '   ♠   ', '      8'])
    >>> face_lines(Card.parse("Kh"), _=translator("fr"))
    ['R    ', '    ♥']
    """
    rank = label(card, _)
    suit = "★" if card.suit is None else card.suit.symbol
    if big:
        return [rank.ljust(7), suit.center(7), rank.rjust(7)]
    return [rank.ljust(5), suit.rjust(5)]


class CardFace(Widget):
    """One card in a bordered box (or its back, when :attr:`card` is ``None``)."""

    card: reactive[Card | None] = reactive(None)
    """The card shown; ``None`` shows the back of a card."""

    class Chosen(Message):
        """The card was clicked."""

        def __init__(self, face: CardFace) -> None:
            super().__init__()
            self.face = face

    def __init__(self, card: Card | None = None, *, big: bool = False, index: int = -1,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.big = big
        self.index = index
        """Position in the hand (``-1`` outside a hand)."""
        self.set_class(big, "-big")
        self.show(card)

    def show(self, card: Card | None) -> None:
        """Show ``card`` (colour classes follow the suit)."""
        self.card = card
        self.set_class(card is not None and is_red(card), "-red")
        self.set_class(card is not None and card.suit is None, "-joker")
        self.set_class(card is None, "-back")

    def render(self) -> Content:
        if self.card is None:
            width = 7 if self.big else 5
            return Content("\n".join(["░" * width] * (3 if self.big else 2)))
        return Content("\n".join(face_lines(self.card, self.big, app_translator(self))))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self))


class HandView(HorizontalScroll, can_focus=False):
    """A row of cards; keeps its card boxes and re-uses them as the hand changes."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._faces: list[CardFace] = []
        self.cards: tuple[Card, ...] = ()
        """The cards shown, in order (empty when the hand is hidden)."""

    def show(self, cards: Sequence[Card], *, playable: Collection[Card] = (),
             turn: bool = False, selected: int = -1, drawn: Card | None = None) -> None:
        """Show ``cards``; mark the playable ones (on ``turn``), the selected and the drawn one."""
        self.cards = tuple(cards)
        while len(self._faces) < len(cards):
            face = CardFace(index=len(self._faces), id=f"card-{len(self._faces)}")
            self._faces.append(face)
            self.mount(face)
        drawn_at = cards.index(drawn) if drawn is not None and drawn in cards else -1
        for i, face in enumerate(self._faces):
            if i >= len(cards):
                face.display = False
                continue
            card = cards[i]
            face.display = True
            face.show(card)
            face.border_title = str(i + 1) if i < 9 else ""
            face.border_subtitle = "+" if i == drawn_at else ""
            face.set_class(turn and card in playable, "-playable")
            face.set_class(turn and card not in playable, "-unplayable")
            face.set_class(i == selected, "-selected")
        if 0 <= selected < len(cards):
            self.call_after_refresh(self.scroll_to_widget, self._faces[selected], animate=False)

    @property
    def visible_faces(self) -> list[CardFace]:
        """The card boxes currently shown."""
        return [f for f in self._faces if f.display]


class CardChips(Widget):
    """Cards inline as short coloured text (``7♥ K♠ 8♦``), wrapping as needed."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"chips--red", "chips--black", "chips--joker", "chips--mark"}

    cards: reactive[tuple[Card, ...]] = reactive((), layout=True)
    marked: reactive[frozenset[int]] = reactive(frozenset())
    """Indices of cards to emphasise (the next cards played, in a replay)."""

    def __init__(self, cards: Sequence[Card] = (), *, empty: str = "—",
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.empty = empty
        self.set_reactive(CardChips.cards, tuple(cards))

    def render(self) -> Content:
        if not self.cards:
            return Content(self.empty)
        tr = app_translator(self)
        parts: list[str | Content | tuple[str, str | Style]] = []
        for i, card in enumerate(self.cards):
            if i:
                parts.append(" ")
            kind = ("chips--joker" if card.suit is None
                    else "chips--red" if is_red(card) else "chips--black")
            names = [kind, "chips--mark"] if i in self.marked else [kind]
            parts.append((card_label(card, tr), self.get_visual_style(*names)))
        return Content.assemble(*parts)
