"""The wire protocol: small JSON events tagged by ``type``.

Clients send the messages below over the table's WebSocket; every message
carries ``seq``, a number the client increases with each message it sends
on that connection (a message whose ``seq`` is not above the last one is a
stale or replayed message and is refused). The server answers with the
events built by :func:`event`: ``welcome``, ``table``, ``state``, ``error``
and ``pong``.

HTTP requests (create a table, join a seat) are validated by the models at
the end of this module.

>>> parse_message('{"type": "ping", "seq": 1}')
Ping(seq=1, type='ping')
>>> try:
...     parse_message('{"type": "dance", "seq": 1}')
... except ProtocolError as exc:
...     print(exc.code.value, exc.message)
unknown_type unknown message type 'dance'; types are action, close, hello, next_round, ping, seat_bot, start
"""

from __future__ import annotations

import json
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
    "JoinTable",
    "NextRound",
    "Ping",
    "Play",
    "ProtocolError",
    "SeatBot",
    "Start",
    "error_event",
    "event",
    "parse_message",
]



def _printable(value: str) -> str:
    if not value.isprintable():
        raise ValueError("a name is printable text (no control characters)")
    return value


Token = Annotated[str, Field(min_length=1, max_length=100)]
Seq = Annotated[int, Field(ge=0, le=2**53)]
Name = Annotated[str, Field(min_length=1, max_length=24), AfterValidator(_printable)]
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
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

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
    action: Annotated[str, Field(min_length=1, max_length=16)]
    version: Annotated[int, Field(ge=0)]
    """The ``version`` of the last ``state`` the client saw."""


class NextRound(_Message):
    """Deal the next round once a round is over (any seated person, or the host)."""

    type: Literal["next_round"] = "next_round"
    token: Token
    version: Annotated[int, Field(ge=0)]


class Start(_Message):
    """Host: start the match (every seat must be taken)."""

    type: Literal["start"] = "start"
    token: Token


class SeatBot(_Message):
    """Host: put a bot in a free seat, or in place of a person who is not connected."""

    type: Literal["seat_bot"] = "seat_bot"
    token: Token
    seat: Annotated[int, Field(ge=0, le=99)]
    bot: BotSpec = "greedy"


class Close(_Message):
    """Host: close the table (everyone is disconnected; the record stays)."""

    type: Literal["close"] = "close"
    token: Token


class Ping(_Message):
    type: Literal["ping"] = "ping"


ClientMessage = Annotated[Hello | Play | NextRound | Start | SeatBot | Close | Ping,
                          Field(discriminator="type")]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
TYPES = ("action", "close", "hello", "next_round", "ping", "seat_bot", "start")


def _describe(exc: ValidationError) -> str:
    """The first few validation problems, naming the field (never echoing the input)."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(x) for x in err["loc"][1:]) or "message"
        parts.append(f"field {loc!r}: {err['msg']}")
    return "; ".join(parts)


def parse_message(text: str) -> ClientMessage:
    """Decode and validate one client message (raises :class:`ProtocolError`)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON; send one JSON "
                            'object such as {"type": "hello", "seq": 1}') from None
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.BAD_JSON, "the message must be a JSON object with a 'type'")
    seq = data.get("seq")
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "field 'type' is missing; types are "
                            + ", ".join(TYPES), seq)
    if kind not in TYPES:
        shown = kind if len(kind) <= 20 and kind.isprintable() else "(unreadable)"
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {shown!r}; types are "
                            + ", ".join(TYPES), seq)
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: {_describe(exc)}", seq) from None


# --------------------------------------------------------------------------- HTTP requests


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    rules: Annotated[str, Field(min_length=1, max_length=40)] = "classic"
    """A preset name (files are not read by the server)."""
    players: Annotated[int, Field(ge=2, le=15)] | None = None
    bots: dict[Annotated[int, Field(ge=0, le=14)], BotSpec] = Field(default_factory=dict)
    """Seats given to bots, e.g. ``{"2": "greedy", "3": "expert"}``."""
    target: Annotated[int, Field(ge=1, le=100_000)] | None = None
    rounds: Annotated[int, Field(ge=1, le=100)] | None = None
    overrides: dict[Annotated[str, Field(max_length=40)], bool | int | str] = Field(default_factory=dict)
    title: Annotated[str, Field(max_length=60)] = ""
    public: bool = True
    """Listed in the lobby (a private table is reached only by its code)."""
    turn_timer: Annotated[float, Field(gt=0, le=3600)] | None = None
    """Seconds a person has to act before a safe move is played for them."""
    seed: Annotated[int, Field(ge=0, le=2**53)] | None = None
    name: Name | None = None
    """Also take the first free seat under this name."""

    @field_validator("overrides")
    @classmethod
    def _few(cls, value: dict[str, bool | int | str]) -> dict[str, bool | int | str]:
        if len(value) > 20:
            raise ValueError("at most 20 overrides")
        return value


class JoinTable(BaseModel):
    """``POST /api/tables/{code}/join``."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: Name
    seat: Annotated[int, Field(ge=0, le=14)] | None = None


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
