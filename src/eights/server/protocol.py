"""The wire protocol: small JSON events tagged by ``type``.

Clients send the messages below over the table's WebSocket; every message
carries ``seq``, a number the client increases with each message it sends
on that connection (a message whose ``seq`` is not above the last one is a
stale or replayed message and is refused). The server answers with the
events built by :func:`event`: ``welcome``, ``table``, ``state``, ``error``,
``rematch``, ``hint`` (practice) and ``pong``.

HTTP requests (create a table, join a seat) are validated by the models at
the end of this module.

>>> parse_message('{"type": "ping", "seq": 1}')
Ping(seq=1, type='ping')
>>> try:
...     parse_message('{"type": "dance", "seq": 1}')
... except ProtocolError as exc:
...     print(exc.code.value, exc.message.split("; ")[0])
...     print(exc.message.split("; ")[1])
unknown_type unknown message type 'dance'
types are action, close, hello, hint, next_round, ping, rematch, seat_bot, start, undo
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

__all__ = [
    "ClientMessage",
    "Close",
    "CreateTable",
    "ErrorCode",
    "Hello",
    "Hint",
    "JoinTable",
    "NextRound",
    "Ping",
    "Play",
    "ProtocolError",
    "Rematch",
    "RulesCheck",
    "SeatBot",
    "Start",
    "Undo",
    "error_event",
    "event",
    "parse_message",
]



def _printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("printable text only (no control or formatting characters)")
    return value


SAFE_INT = 2**53
"""Whole numbers in messages are below this (JavaScript's safe integers), and never negative."""

Count = Annotated[int, Field(strict=True, ge=0, lt=SAFE_INT)]
"""A whole number from 0 to 2**53 - 1: ``true``, ``1.0`` and ``"1"`` are refused."""
Token = Annotated[str, Field(min_length=1, max_length=100)]
Seq = Count
ACTION_LENGTH = 64
"""The longest action text: a multi-card play of every card of one rank in this server's
largest deal (three decks: ``7c+7c+7c+7d+…+7s=h!``, 38 characters) fits with room to spare."""
Name = Annotated[str, Field(min_length=1, max_length=24), AfterValidator(_printable)]
Title = Annotated[str, Field(max_length=60), AfterValidator(_printable)]
BotSpec = Annotated[str, Field(min_length=1, max_length=60)]


class ErrorCode(StrEnum):
    """The ``code`` of an ``error`` event (the ``message`` says what to do)."""

    BAD_JSON = "bad_json"
    """The message is not a JSON object (or not a text frame)."""
    UNKNOWN_TYPE = "unknown_type"
    BAD_MESSAGE = "bad_message"
    """A field is missing, unknown or of the wrong kind."""
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    STALE = "stale"
    """``seq`` not above the last one, or an action made on an older ``version``."""
    HELLO_FIRST = "hello_first"
    BAD_TOKEN = "bad_token"
    NO_SEAT = "no_seat"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_NOTATION = "bad_notation"
    ILLEGAL = "illegal"
    WRONG_STATUS = "wrong_status"
    """The table is not in a status where this is possible (not started, over, closed)."""
    BAD_REQUEST = "bad_request"
    """A request the table cannot grant (a seat taken, an unknown bot)."""
    NOT_FOUND = "not_found"
    TOO_MANY = "too_many"
    """A bound on tables or connections is reached."""
    UNAVAILABLE = "unavailable"
    """The database did not answer: the table waits for it (and tries again by itself), then
    sends its state."""
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A message or request refused, with the code and message sent to the client."""

    def __init__(self, code: ErrorCode, message: str, seq: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq
        """The refused message's ``seq``, when it could be read."""


# --------------------------------------------------------------------------- client messages


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True, strict=True)

    seq: Seq
    """Increases with every message the client sends on this connection."""


class Hello(_Message):
    """The first message on a connection: who is there (a seat token, or none to watch)."""

    type: Literal["hello"] = "hello"
    token: Token | None = None
    lang: Literal["en", "fr"] = "en"


class Play(_Message):
    """Play an action (canonical notation) for the seat of ``token``."""

    type: Literal["action"] = "action"
    token: Token
    action: Annotated[str, Field(min_length=1, max_length=ACTION_LENGTH)]
    version: Count
    """The ``version`` of the last ``state`` the client saw."""


class NextRound(_Message):
    """Deal the next round once a round is over (any seated person, or the host)."""

    type: Literal["next_round"] = "next_round"
    token: Token
    version: Count


class Start(_Message):
    """Host: start the match (every seat must be taken)."""

    type: Literal["start"] = "start"
    token: Token


class SeatBot(_Message):
    """Host: put a bot in a free seat, or in place of a person who is not connected."""

    type: Literal["seat_bot"] = "seat_bot"
    token: Token
    seat: Count
    """Checked against the table's seats (``bad_request`` names them)."""
    bot: BotSpec = "greedy"


class Close(_Message):
    """Host: close the table (everyone is disconnected; the record stays)."""

    type: Literal["close"] = "close"
    token: Token


class Rematch(_Message):
    """Once the match is over: a new table with the same rules, seats and bots (a seated
    person, or the host). The people connected get their new seats (a ``rematch`` event)."""

    type: Literal["rematch"] = "rematch"
    token: Token


class Hint(_Message):
    """Practice (one person and bots): the search's hint for the person's decision now. The
    answer is a ``hint`` event to this connection alone."""

    type: Literal["hint"] = "hint"
    token: Token
    version: Count


class Undo(_Message):
    """Practice (one person and bots): take back the person's last decision of this round,
    and every move after it."""

    type: Literal["undo"] = "undo"
    token: Token
    version: Count


class Ping(_Message):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[Hello | Play | NextRound | Start | SeatBot | Close | Rematch | Hint
                          | Undo | Ping,
                          Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_MODELS: dict[str, type[_Message]] = {
    "action": Play, "close": Close, "hello": Hello, "hint": Hint, "next_round": NextRound,
    "ping": Ping, "rematch": Rematch, "seat_bot": SeatBot, "start": Start, "undo": Undo,
}
TYPES = tuple(sorted(_MODELS))
_COUNTS = frozenset({"seq", "version", "seat", "seed"})
"""Fields of type :data:`Count`: their errors state the range."""
_ALLOWED = {
    "int_type": "must be a whole number", "int_from_float": "must be a whole number",
    "string_type": "must be a string", "missing": "is missing",
}
"""What a field must be, by pydantic error type (pydantic's own words otherwise)."""


def _shown(key: str) -> str:
    """A client's dict key in an error: short printable text, else a placeholder."""
    return key if len(key) <= 40 and key.isprintable() else "(unreadable key)"


def describe_errors(errors: list[Any], fields: Sequence[str] = ()) -> str:
    """The first few validation problems, naming the field (never echoing the input).

    ``errors`` are pydantic's (their ``loc`` without the model's name); ``fields``
    are listed when a field is unknown.
    """
    parts = []
    for err in errors[:3]:
        loc = [_shown(str(x)) for x in err.get("loc", ())]
        kind = err.get("type", "")
        if loc and loc[-1] in _COUNTS and kind in ("int_type", "int_from_float",
                                                   "greater_than_equal", "less_than"):
            said = f"must be a whole number from 0 to {SAFE_INT - 1}"
        elif kind == "extra_forbidden":
            said = "is not a field here" + (f"; fields are {', '.join(fields)}" if fields else "")
        else:
            said = _ALLOWED.get(kind) or str(err.get("msg", "is not valid")).replace(
                "Input should", "should").replace("Value error, ", "")
        parts.append(f"field {'.'.join(loc) or 'body'!r} {said}")
    return "; ".join(parts)


def _echo_seq(data: dict[str, Any]) -> int | None:
    """The ``seq`` to put in an error about ``data``, when it is a valid one."""
    seq = data.get("seq")
    return seq if type(seq) is int and 0 <= seq < SAFE_INT else None


def parse_message(text: str) -> ClientMessage:
    """Decode and validate one client message (raises :class:`ProtocolError`).

    Strict JSON (no ``NaN``, no lone surrogates), strict types (``true`` is
    not a number, ``"1"`` is not a number), bounded whole numbers.
    """
    try:
        data = orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON (UTF-8 text, no "
                            'NaN); send one JSON object such as {"type": "hello", "seq": 1}'
                            ) from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_JSON, "the message must be a JSON object with a 'type'")
    seq = _echo_seq(data)
    if "type" not in data:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "field 'type' is missing; types are "
                            + ", ".join(TYPES), seq)
    kind = data["type"]
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "field 'type' must be a string naming the "
                            "message type; types are " + ", ".join(TYPES), seq)
    if kind not in _MODELS:
        shown = kind if len(kind) <= 20 and kind.isprintable() else "(unreadable)"
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {shown!r}; types are "
                            + ", ".join(TYPES), seq)
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        errors = [{**e, "loc": e["loc"][1:]} for e in exc.errors()]
        fields = [f for f in _MODELS[kind].model_fields if f != "type"]
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: {describe_errors(errors, fields)}",
                            seq) from None


# --------------------------------------------------------------------------- HTTP requests


class CreateTable(BaseModel):
    """``POST /api/tables``.

    Types are strict (``"4"`` is not a number, ``1`` is not ``true``). The
    numbers of the rules (``players``, ``target``, ``rounds``, ``overrides``)
    are checked by the rules themselves (:func:`eights.engine.rules.load_rules`),
    and the turn timer against :class:`~eights.server.limits.Limits`: their
    errors are ``bad_request`` (400) and say what is allowed.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)

    rules: Annotated[str, Field(min_length=1, max_length=40)] | dict[str, Any] = "classic"
    """A preset name, or a rules object: the keys of a rules file (``extends`` a preset, and
    any field, card tables and lists included), checked as a file is
    (:mod:`eights.server.house`). Files are never read by the server."""
    players: Annotated[int, Field(strict=True)] | None = None
    """Within the preset's range of players (its default when left out)."""
    bots: dict[Annotated[str, Field(max_length=3)], BotSpec] = Field(default_factory=dict)
    """Seats given to bots, e.g. ``{"2": "greedy", "3": "expert"}``."""
    target: Annotated[int, Field(strict=True)] | None = None
    rounds: Annotated[int, Field(strict=True)] | None = None
    overrides: dict[Annotated[str, Field(max_length=40)], Any] = Field(default_factory=dict)
    """Rules fields and their values: ``true``/``false``, a whole number or a short string."""
    title: Title = ""
    public: bool = True
    """Listed in the lobby (a private table is reached only by its code)."""
    turn_timer: Annotated[float, Field(allow_inf_nan=False)] | None = None
    """Seconds a person has to act before a safe move is played for them (``None``: no timer)."""
    seed: Count | None = None
    """For tests only: refused unless the server was started with fixed seeds allowed."""
    name: Name | None = None
    """Also take the first free seat under this name."""

    @field_validator("overrides", "bots")
    @classmethod
    def _few(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > 20:
            raise ValueError("at most 20 entries")
        return value

    @field_validator("overrides")
    @classmethod
    def _plain(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, item in value.items():
            text = isinstance(item, str) and len(item) <= 40 and item.isprintable()
            if not (type(item) in (bool, int) or text):
                raise ValueError(f"the value of {key[:40]!r} must be true or false, a whole "
                                 "number, or a string of at most 40 printable characters")
        return value


class RulesCheck(BaseModel):
    """``POST /api/rules/check``: a rules object, or a rules file's text, to check as a
    rules file is (the New table form, as it is filled in)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    rules: dict[str, Any] | None = None
    toml: Annotated[str, Field(max_length=16 * 1024)] | None = None
    """A house-rules file's text (read as TOML, then checked as the object is)."""
    players: Annotated[int, Field(strict=True, ge=2, le=20)] | None = None
    """The table's player count, checked against the rules (default: theirs)."""
    lang: Literal["en", "fr"] = "en"


class JoinTable(BaseModel):
    """``POST /api/tables/{code}/join``."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)

    name: Name
    seat: Count | None = None


# --------------------------------------------------------------------------- server events


def event(kind: str, **fields: Any) -> str:
    """A server event as compact JSON text: ``{"type": kind, **fields}`` (orjson: the
    server encodes one ``state`` per seat for every action, so this is hot).

    >>> event("pong", seq=3)
    '{"type":"pong","seq":3}'
    """
    return orjson.dumps({"type": kind, **fields}, option=orjson.OPT_NON_STR_KEYS).decode()


def error_event(code: ErrorCode, message: str, seq: int | None = None) -> str:
    """An ``error`` event; ``seq`` is the refused message's, when it had one."""
    return event("error", code=code.value, message=message, seq=seq)
