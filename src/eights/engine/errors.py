"""The exception types of eights: each names what was wrong and what is allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from eights.engine.cards import Card

__all__ = [
    "EightsError",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
    "ScriptEnded",
]


class EightsError(Exception):
    """Base class of every error eights raises on purpose."""


class NotationError(EightsError, ValueError):
    """Malformed text for a card, a suit, a rank or an action."""


class IllegalActionError(EightsError, ValueError):
    """A well-formed action that the rules do not allow now.

    The state it was offered to is unchanged; :attr:`legal` lists what is
    allowed instead.
    """

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.legal = legal


class RulesError(EightsError, ValueError):
    """A rules file or override that cannot be used: names the key and the allowed values."""


class RecordError(EightsError, ValueError):
    """A game record that is malformed: names the field and what it should hold."""


class ScriptEnded(EightsError):
    """A game on a closed script (:meth:`~eights.engine.game.Game.extend_deck`) needs a card
    the script does not hold: the caller is the chance player and chooses it.

    :attr:`stock` lists the cards it may be, each copy equally likely. The action (or the
    deal) that raised it is left half done: play it on a copy, then again with the card.
    """

    def __init__(self, stock: tuple[Card, ...]) -> None:
        super().__init__(f"the script of cards has ended; the next card leaves a stock of "
                         f"{len(stock)}: add it with extend_deck")
        self.stock = stock
