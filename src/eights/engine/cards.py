"""Cards, ranks and suits, with a short text notation that round-trips.

A card is a small interned integer (``rank * 4 + suit``; the joker is 52), so
hands, stocks and lookup tables stay cheap, while its text form is the one
players read and write:

>>> Card.parse("7h")
Card.parse('7h')
>>> str(Card.parse("10♠")), Card.parse("X").pretty()
('Ts', '🃏')
>>> Card.parse("qd").pretty()
'Q♦'

Two copies of a card (two decks) are the same card for play: a hand or the
stock is a multiset of these values.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from eights.engine.errors import NotationError

__all__ = [
    "CARDS",
    "JOKER",
    "RANKS",
    "SUITS",
    "Card",
    "Rank",
    "Suit",
    "make_deck",
    "parse_cards",
]


class Suit(IntEnum):
    """The four suits, in the order of their canonical letters ``c d h s``."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """Canonical one-letter form: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """Display symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from ``c d h s`` (any case) or ``♣ ♦ ♥ ♠``.

        >>> Suit.parse("S"), Suit.parse("♥")
        (<Suit.SPADES: 3>, <Suit.HEARTS: 2>)
        """
        found = _SUIT_TEXT.get(text.strip().lower())
        if found is None:
            raise NotationError(f"unknown suit {text!r}; suits are c, d, h, s (or ♣ ♦ ♥ ♠)")
        return found


class Rank(IntEnum):
    """Ranks from ace to king, then the joker."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7
    NINE = 8
    TEN = 9
    JACK = 10
    QUEEN = 11
    KING = 12
    JOKER = 13

    @property
    def letter(self) -> str:
        """Canonical one-character form: ``A 2 … 9 T J Q K X``."""
        return "A23456789TJQKX"[self]

    @property
    def face_value(self) -> int:
        """Number printed on the card: 1 for an ace, 10 for a ten, 11–13 for faces."""
        return int(self) + 1

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank from ``A 2 … 9 T J Q K X`` (any case, ``10`` for ten).

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 9>, <Rank.QUEEN: 11>)
        """
        found = _RANK_TEXT.get(text.strip().upper())
        if found is None:
            raise NotationError(
                f"unknown rank {text!r}; ranks are A 2 3 4 5 6 7 8 9 T (or 10) J Q K, X for a joker"
            )
        return found


_SUIT_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_TEXT[_s.letter] = _s
    _SUIT_TEXT[_s.symbol] = _s
for _sym, _s in (("♧", Suit.CLUBS), ("♢", Suit.DIAMONDS), ("♡", Suit.HEARTS), ("♤", Suit.SPADES)):
    _SUIT_TEXT[_sym] = _s
_RANK_TEXT: dict[str, Rank] = {r.letter: r for r in Rank}
_RANK_TEXT["10"] = Rank.TEN

RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
"""The thirteen ranks of a standard deck, ace first."""

SUITS: tuple[Suit, ...] = tuple(Suit)
"""The four suits in canonical order."""


class Card(int):
    """One card: an interned ``int`` (``rank * 4 + suit``, joker 52).

    Build cards with :meth:`parse` or :meth:`of`; every card value exists once.
    """

    __slots__ = ()

    @classmethod
    def of(cls, rank: Rank, suit: Suit | None) -> Card:
        """The card of this rank and suit (``suit`` is ``None`` for the joker)."""
        if rank is Rank.JOKER:
            return JOKER
        if suit is None:
            raise NotationError(f"a {rank.letter} needs a suit")
        return CARDS[rank * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``7h``, ``Td``, ``10♠``, ``QS`` or ``X`` (a joker).

        >>> Card.parse("Zz")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        eights.engine.errors.NotationError: malformed card 'Zz': unknown rank 'Z'; ranks are ...
        """
        raw = text.strip()
        if raw.upper() in ("X", "JOKER", "🃏"):
            return JOKER
        try:
            if len(raw) < 2:
                raise NotationError("too short")
            rank = Rank.parse(raw[:-1])
            if rank is Rank.JOKER:
                raise NotationError("a joker is written X alone, with no suit")
            return cls.of(rank, Suit.parse(raw[-1]))
        except NotationError as exc:
            raise NotationError(
                f"malformed card {text!r}: {exc}. Write rank then suit, e.g. 7h, Td, 10s, Q♥, "
                "or X for a joker") from None

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit | None:
        """The card's suit, ``None`` for a joker."""
        return _SUIT_OF[self]

    def pretty(self) -> str:
        """Display text with a suit symbol (``7♥``, ``10♦``, ``🃏``)."""
        if self == 52:
            return "🃏"
        rank = _RANK_OF[self]
        label = "10" if rank is Rank.TEN else rank.letter
        return label + _SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return _CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CARD_TEXT[self]!r})"


_SUIT_SYMBOLS = "♣♦♥♠"
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(53))
"""Every card value, indexed by its integer code; ``CARDS[52]`` is the joker."""
JOKER: Card = CARDS[52]
_RANK_OF: tuple[Rank, ...] = tuple(Rank(i // 4) for i in range(52)) + (Rank.JOKER,)
_SUIT_OF: tuple[Suit | None, ...] = tuple(Suit(i % 4) for i in range(52)) + (None,)
_CARD_TEXT: tuple[str, ...] = tuple(
    _RANK_OF[i].letter + ("" if i == 52 else "cdhs"[i % 4]) for i in range(53)
)


def make_deck(decks: int = 1, jokers: int = 0, ranks: Iterable[Rank] | None = None) -> list[Card]:
    """The cards of ``decks`` standard decks with ``jokers`` jokers per deck.

    ``ranks`` chooses the ranks of each deck (all thirteen when ``None``), each
    in the four suits: a 32-card pack is the ranks 7 to A.

    >>> len(make_deck()), len(make_deck(2, jokers=2))
    (52, 108)
    >>> short = make_deck(ranks=[Rank.ACE, *RANKS[6:]])
    >>> len(short), str(short[0]), str(short[-1])
    (32, 'Ac', 'Ks')
    """
    if ranks is None:
        one = list(CARDS[:52])
    else:  # card order, as the full deck: a deck never depends on how its ranks were listed
        one = [CARDS[r * 4 + s] for r in sorted(set(ranks)) if r is not Rank.JOKER for s in range(4)]
    return one * decks + [JOKER] * (jokers * decks)


def parse_cards(items: Iterable[str]) -> list[Card]:
    """Parse each text to a card (``["7h", "X"]``)."""
    return [Card.parse(item) for item in items]
