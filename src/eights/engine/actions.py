"""Actions and their canonical text.

========  ===========================================================
``7h``    play a card
``8h=s``  play a card that names a suit (a wild 8), naming spades
``5c!``   play and announce the last card (HA13); ``8h=s!`` too; from a
          one-card hand, the going-out call (MM9: ``8h!`` names no suit)
``7h+7s`` several cards of one rank in one play (SW3): the last written is
          the top card; ``Ah+As=d``, ``7h+7s!`` name and call once, at the end
``=s``    name a suit without playing (TS3, UC3: a wild starter)
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

The cards under the top card are written in card order, whatever order they
were given in, so one multi-card play has one text:

>>> Action.parse("7s+7c+7h")
Action.parse('7c+7s+7h')
>>> [str(c) for c in Action.parse("7s+7c+7h").cards]
['7c', '7s', '7h']
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from eights.engine.cards import CARDS, Card, Suit
from eights.engine.errors import NotationError

__all__ = ["DRAW", "NAMES", "PASS", "TAKE", "Action", "Kind"]


class Kind(Enum):
    """What an action does."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    TAKE = "take"
    NAME = "name"
    """Name a suit without playing (``=s``: the dealer or first player on a wild starter)."""


class Action:
    """One decision of the player to move: a small immutable, interned value."""

    __slots__ = ("_text", "announce", "card", "cards", "kind", "suit", "under")

    kind: Kind
    card: Card | None
    """The card played, the top card of a multi-card play (``None`` unless :attr:`kind`
    is ``PLAY``)."""
    cards: tuple[Card, ...]
    """Every card played, the top card last (``()`` unless :attr:`kind` is ``PLAY``)."""
    under: tuple[Card, ...]
    """The cards played under the top card, in card order (``()`` for a single card)."""
    suit: Suit | None
    """The suit named with a wild card (or by ``=s``), if any."""
    announce: bool
    """``True`` when the play announces the last card (HA13) or calls going out (MM9)."""
    _text: str

    def __init__(self, kind: Kind, cards: tuple[Card, ...], suit: Suit | None,
                 announce: bool) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "card", cards[-1] if cards else None)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "under", cards[:-1])
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "announce", announce)
        if kind is Kind.PLAY:
            text = ("+".join(str(c) for c in cards) + ("" if suit is None else "=" + suit.letter)
                    + ("!" if announce else ""))
        elif kind is Kind.NAME:
            assert suit is not None
            text = "=" + suit.letter
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
    def play_many(cards: Sequence[Card], suit: Suit | None = None,
                  announce: bool = False) -> Action:
        """The interned action that plays ``cards`` at once, the last one on top (SW3).

        The cards under the top card take card order; one card is :meth:`play`.
        """
        if len(cards) == 1:
            return Action.play(cards[0], suit, announce)
        if not cards:
            raise NotationError("a play needs at least one card")
        key = (*sorted(cards[:-1]), cards[-1], -1 if suit is None else int(suit), announce)
        found = _MANY.get(key)
        if found is None:
            found = _MANY.setdefault(key, Action(Kind.PLAY, (*sorted(cards[:-1]), cards[-1]),
                                                 suit, announce))
        return found

    @staticmethod
    def name(suit: Suit) -> Action:
        """The interned action that names ``suit`` without playing (``=s``)."""
        return NAMES[suit]

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
                "several cards of one rank (7h+7s), a trailing ! to call (5c!), "
                "=s to name a suit, or draw, pass, take"
            )
        announce = raw.endswith("!")
        body = raw[:-1] if announce else raw
        card_text, eq, suit_text = body.partition("=")
        try:
            suit = Suit.parse(suit_text) if eq else None
            if not card_text.strip() and suit is not None and not announce:
                return NAMES[suit]
            cards = [Card.parse(part) for part in card_text.split("+")]
        except NotationError as exc:
            raise NotationError(
                f"malformed action {text!r}: {exc}. Actions are a card (7h), a wild card "
                "naming a suit (8h=s), several cards of one rank with the top card last "
                "(7h+7s), a trailing ! to call (5c!), =s to name a suit, "
                "or draw, pass, take"
            ) from None
        return Action.play_many(cards, suit, announce)

    def pretty(self) -> str:
        """Display text with suit symbols (``8♥ → ♠``, ``7♣ 7♥``)."""
        if self.kind is Kind.NAME:
            assert self.suit is not None
            return "→ " + self.suit.symbol
        if self.card is None:
            return self._text
        text = " ".join(c.pretty() for c in self.cards)
        if self.suit is not None:
            text += " → " + self.suit.symbol
        return text + ("!" if self.announce else "")

    def without_announce(self) -> Action:
        """The same play without the last-card announcement."""
        if self.card is None or not self.announce:
            return self
        return Action.play_many(self.cards, self.suit, False)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    # Every action value is interned (``play``, ``play_many``, ``parse`` and the constants
    # are the only ways to get one), so equality and hashing are by identity: fast in
    # ``action in legal`` (no rich comparison is defined, on purpose; sort by
    # ``str``). Pickling goes through the text to stay interned.
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self._text,))


_PLAYS: tuple[Action, ...] = tuple(
    Action(Kind.PLAY, (CARDS[code // 10],), None if (code // 2) % 5 == 4 else Suit((code // 2) % 5),
           bool(code % 2))
    for code in range(53 * 10)
)
_MANY: dict[tuple[int, ...], Action] = {}
"""Multi-card plays, interned as they are first built."""
DRAW = Action(Kind.DRAW, (), None, False)
PASS = Action(Kind.PASS, (), None, False)
TAKE = Action(Kind.TAKE, (), None, False)
NAMES: tuple[Action, ...] = tuple(Action(Kind.NAME, (), suit, False) for suit in Suit)
"""``=c``, ``=d``, ``=h``, ``=s``: name a suit without playing (TS3, UC3)."""
_WORDS: dict[str, Action] = {"draw": DRAW, "pass": PASS, "take": TAKE}
