"""Actions and their canonical text.

========  ===========================================================
``7h``    play a card
``8h=s``  play a card that names a suit (a wild 8), naming spades
``5c!``   play and announce the last card (HA13); ``8h=s!`` too; from a
          one-card hand, the going-out call (MM9: ``8h!`` names no suit)
``draw``  take what the rules make you take now (a forced draw in full,
          the 10's penalty, or the preset's draw policy)
``pass``  end the turn where the rules allow it
``take``  LH5: after playing, take the top card of the stock
========  ===========================================================

Every action value is interned, so building one is a table lookup:

>>> Action.parse("8H=♠!")
Action.parse('8h=s!')
>>> str(Action.play(Card.parse("7h"))), str(Action.parse("DRAW"))
('7h', 'draw')
"""

from __future__ import annotations

from enum import Enum

from eights.engine.cards import CARDS, Card, Suit
from eights.engine.errors import NotationError

__all__ = ["DRAW", "PASS", "TAKE", "Action", "Kind"]


class Kind(Enum):
    """What an action does."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    TAKE = "take"


class Action:
    """One decision of the player to move: a small immutable, interned value."""

    __slots__ = ("_text", "announce", "card", "kind", "suit")

    kind: Kind
    card: Card | None
    """The card played (``None`` unless :attr:`kind` is ``PLAY``)."""
    suit: Suit | None
    """The suit named with a wild card, if any."""
    announce: bool
    """``True`` when the play announces the last card (HA13) or calls going out (MM9)."""
    _text: str

    def __init__(self, kind: Kind, card: Card | None, suit: Suit | None, announce: bool) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "announce", announce)
        if kind is Kind.PLAY:
            assert card is not None
            text = str(card) + ("" if suit is None else "=" + suit.letter) + ("!" if announce else "")
        else:
            text = kind.value
        object.__setattr__(self, "_text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    @staticmethod
    def play(card: Card, suit: Suit | None = None, announce: bool = False) -> Action:
        """The interned action that plays ``card`` (naming ``suit``, announcing)."""
        return _PLAYS[(card * 5 + (4 if suit is None else suit)) * 2 + announce]

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action from its text (case and suit symbols are forgiven)."""
        raw = text.strip()
        word = raw.lower()
        if word in _WORDS:
            return _WORDS[word]
        if not raw:
            raise NotationError(
                "empty action; write a card (7h), a wild card with a suit (8h=s), "
                "a trailing ! to announce the last card, or draw, pass, take"
            )
        announce = raw.endswith("!")
        body = raw[:-1] if announce else raw
        card_text, eq, suit_text = body.partition("=")
        try:
            card = Card.parse(card_text)
            suit = Suit.parse(suit_text) if eq else None
        except NotationError as exc:
            raise NotationError(
                f"malformed action {text!r}: {exc}. Actions are a card (7h), a wild card "
                "naming a suit (8h=s), a trailing ! to announce the last card (5c!), "
                "or draw, pass, take"
            ) from None
        return Action.play(card, suit, announce)

    def pretty(self) -> str:
        """Display text with suit symbols (``8♥ → ♠``)."""
        if self.card is None:
            return self._text
        text = self.card.pretty()
        if self.suit is not None:
            text += " → " + self.suit.symbol
        return text + ("!" if self.announce else "")

    def without_announce(self) -> Action:
        """The same play without the last-card announcement."""
        if self.card is None or not self.announce:
            return self
        return Action.play(self.card, self.suit, False)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    # Every action value is interned (``play``, ``parse`` and the constants are the
    # only ways to get one), so equality and hashing are by identity: fast in
    # ``action in legal`` (no rich comparison is defined, on purpose; sort by
    # ``str``). Pickling goes through the text to stay interned.
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self._text,))



_PLAYS: tuple[Action, ...] = tuple(
    Action(Kind.PLAY, CARDS[code // 10], None if (code // 2) % 5 == 4 else Suit((code // 2) % 5),
           bool(code % 2))
    for code in range(53 * 10)
)
DRAW = Action(Kind.DRAW, None, None, False)
PASS = Action(Kind.PASS, None, None, False)
TAKE = Action(Kind.TAKE, None, None, False)
_WORDS: dict[str, Action] = {"draw": DRAW, "pass": PASS, "take": TAKE}
