"""The exception types of eights: each names what was wrong and what is allowed."""

from __future__ import annotations

__all__ = [
    "EightsError",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesError",
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
