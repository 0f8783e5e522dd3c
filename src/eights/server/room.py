"""A live table: its game, seats and connections, and the flow of turns.

The room is the only place that changes a table. Every change runs under the
room's lock in the same order: check the request (nothing changes when it is
refused), commit it to the database, apply it to the in-memory game, then
send each connection what it may see: a seat gets ``observe(seat)``, a
spectator the public part of it (no hand at all). Bots and the turn timer act
from a task the room schedules after each change.

The database is the authority on what happened. A write that fails is tried
again (a bot's or the timer's move, with backoff, until it lands); a write
whose answer was lost (the connection broke during ``COMMIT``) is looked up
before anything else changes the table: found, it is applied and sent; not
found, the table is unchanged. Meanwhile :attr:`Room.stalled` says so, and
``/api/health`` reports the server degraded.

**Practice** (a table of one person and bots only, :attr:`Room.practice`) adds two
requests, refused at any other table. A **hint** is checked under the lock (the person's
turn, the current version), noted in the table's ``meta.hints`` (committed first, as
every change), then thought in the bots' pool with the lock released (the search reads
the seat's observation only) and sent to the asking connection alone; a change of the
table meanwhile makes it stale, and it is dropped. An **undo** takes back the person's
last decision of the round in play and every move after it: checked (the person's turn
or a bot's, the round not over, a decision of theirs in it), committed (the actions from
that decision on are deleted and ``meta.undos`` says what they were, in one
transaction), then applied (the game is replayed to the decision, off the event loop),
and every connection gets ``welcome`` again (the log rewritten) and the state. The
record stays replayable: the stored actions are the match as played since, and the
deal's order is the seed's, so the stock is the same cards in the same order after an
undo (the person saw a card they drew and took back: that is why undo is practice
only, and is written in the record). The version never goes back: an undo is one step
(:attr:`Room.version` counts the actions taken back too), so the bots' choices after an
undo come from new seeds (``seed/bots/version``) and may differ from the first time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from eights.bots import Bot, GreedyBot
from eights.engine.actions import Action
from eights.engine.errors import NotationError
from eights.engine.game import Game, Step
from eights.engine.observation import Observation
from eights.engine.record import record_of, replay
from eights.i18n import translator
from eights.i18n.text import describe_move
from eights.server.house import table_rules_of
from eights.server.limits import Limits, TokenBucket
from eights.server.practice import HINT_WAIT, hint_words
from eights.server.protocol import (
    ClientMessage,
    Close,
    ErrorCode,
    Hello,
    Hint,
    NextRound,
    Play,
    ProtocolError,
    Rematch,
    SeatBot,
    Start,
    Undo,
    error_event,
    event,
)
from eights.server.store import (
    OPEN,
    ActionData,
    NotLeased,
    SeatData,
    SeatTaken,
    Store,
    TableData,
    Writer,
)
from eights.server.thinking import BOTS, INLINE_BOTS, Thinker, check_bot, seated_bot

__all__ = ["BOTS", "Connection", "Room", "bot_name", "check_bot", "event_bytes", "hash_token",
           "new_token", "replay_table", "undo_steps"]

log = logging.getLogger("eights.server")

RETRY = (0.1, 5.0)
"""Seconds before a failed bot, timer or deal step is tried again: the first wait, doubled
after each failure up to the second."""
_UNSURE = ("the database did not answer, so this move may or may not be stored; the table "
           "asks again by itself and sends its state as soon as the database answers")
MOVED = "the table moved to another server process; reconnect"
"""The reason of the 1012 close when a table's lease goes to another process."""
_REGAINING = ("the server lost its connection to the database, which says which process runs "
              "this table; it changes as soon as the database answers again: try again then")
_WAITING = ("the table is waiting for the database to confirm its last step; it sends its "
            "state as soon as the database answers, then try again")


def new_token() -> str:
    """A secret token (192 random bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _matches(token: str, digest: str | None) -> bool:
    return digest is not None and hmac.compare_digest(hash_token(token), digest)


_BOT_NAME = re.compile(r"Bot [1-9][0-9]{0,2}")
"""A bot's stored name (:func:`bot_name`), said in each language by :meth:`Room.names`."""


def bot_name(taken: Iterable[str | None]) -> str:
    """The name of a new bot: ``Bot k`` with the smallest k not ``taken`` by another seat.

    Bots are counted among the bots, as the terminal counts them (the first bot is ``Bot 1``
    whatever its seat):

    >>> bot_name(["Ana", None]), bot_name(["Ana", "Bot 1", "Bot 3"])
    ('Bot 1', 'Bot 2')
    """
    names = set(taken)
    k = 1
    while f"Bot {k}" in names:
        k += 1
    return f"Bot {k}"


def undo_steps(meta: dict[str, Any]) -> int:
    """The steps a table's undos count in its version: the actions each took back, and one."""
    return sum(len(u.get("actions", ())) + 1 for u in meta.get("undos", ()) if isinstance(u, dict))


def replay_table(data: TableData) -> Game:
    """The game of a stored table: its actions replayed from the deal."""
    game = Game(table_rules_of(data.rules, data.overrides, data.house), data.players,
                seed=data.seed, dealer=data.dealer)
    for action in data.actions:
        while game.round < action.round:
            game.next_round()
        game.apply(action.action)
    while game.round < data.round:
        game.next_round()
    return game


# --------------------------------------------------------------------------- connections


class Connection:
    """One WebSocket client: who it is, its counters and its outgoing queue.

    Events are queued and a writer task sends them, so a slow client never
    holds up a table; one whose queue holds more than
    :attr:`Limits.send_queue_bytes` is disconnected (1013), what it had waiting
    dropped.
    """

    def __init__(self, address: str, limits: Limits) -> None:
        self.address = address
        self.seat: int | None = None
        self.lang = "en"
        self.joined = False
        """True once the client said hello."""
        self.last_seq = -1
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
        self.hellos = TokenBucket(limits.hellos_per_second, limits.hello_burst)
        self.strikes = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued = 0
        """Bytes of the events in :attr:`queue`."""
        self.closing = False
        self.close_code = 1000
        self.close_reason = ""
        self._limit = limits.send_queue_bytes

    def send(self, text: str) -> None:
        if self.closing:
            return
        size = event_bytes(text)
        if self.queued + size > self._limit:
            self.close(1013, "too far behind: reconnect to get the current state", drop=True)
            return
        self.queued += size
        self.queue.put_nowait(text)

    def sent(self, text: str) -> None:
        """``text`` left the queue (it may have been sent after the queue was dropped)."""
        self.queued = max(0, self.queued - event_bytes(text))

    def close(self, code: int, reason: str, *, drop: bool = False) -> None:
        """Send what is queued (or ``drop`` it), then close the socket."""
        if not self.closing:
            self.closing = True
            self.close_code, self.close_reason = code, reason
            if drop:
                while not self.queue.empty():
                    self.queue.get_nowait()
                self.queued = 0
            self.queue.put_nowait(None)


def event_bytes(text: str) -> int:
    """The size of an event in UTF-8 (events are mostly ASCII, which Python knows at once)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


# --------------------------------------------------------------------------- the room


@dataclass(frozen=True, slots=True)
class _Last:
    """The action just applied, for the ``last`` field of the next ``state`` events."""

    step: Step
    source: str


@dataclass(slots=True)
class _Seat:
    name: str | None = None
    bot_spec: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None
    runs: str | None = None
    """The spec the bot runs from: ``bot_spec`` within the server's budget (:func:`server_bot`)."""

    @classmethod
    def of_bot(cls, name: str | None, spec: str, seconds: float) -> _Seat:
        runs, bot = seated_bot(spec, seconds)
        return cls(name, spec, None, bot, runs)

    @property
    def kind(self) -> str:
        return "bot" if self.bot_spec else "person" if self.token_hash else "free"


class Room:
    """A table being played (or waiting, or just finished)."""

    def __init__(self, data: TableData, *, writer: Writer, limits: Limits, bot_delay: float,
                 on_done: Callable[[Room], None], thinker: Thinker) -> None:
        self.code = data.code
        self.title = data.title
        self.preset = data.rules
        self.overrides = dict(data.overrides)
        self.house = None if data.house is None else dict(data.house)
        """The rules object the table was made with, if any (server/house.py)."""
        self.meta = dict(data.meta)
        """What the record's ``meta`` says besides the seats: ``hints`` and ``undos``."""
        self.seed = data.seed
        self.dealer = data.dealer
        self.public = data.public
        self.turn_timer = data.turn_timer
        self.status = data.status
        self.host_hash = data.host_hash
        self.seats = [_Seat(s.name, None, s.token_hash) if s.bot is None
                      else _Seat.of_bot(s.name, s.bot, limits.bot_seconds)
                      for s in sorted(data.seats, key=lambda s: s.seat)]
        self.game = replay_table(data)
        self.rules = self.game.rules
        self.actions = len(data.actions)
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.writer = writer
        self.limits = limits
        self.bot_delay = bot_delay
        self.on_done = on_done
        self.thinker = thinker
        self.deadline: float | None = None
        """When the turn timer runs out (event-loop time)."""
        self._stored_deadline = (data.turn_deadline if data.turn_version == self.version
                                 else None)
        """The deadline of the current turn as stored before a restart (wall clock)."""
        self.stalled: float | None = None
        """Since when (event-loop time) a step of the table keeps failing to be stored;
        ``None`` while all is well."""
        self._unsure: ActionData | int | None = None
        """A step whose commit got no answer (an action, or the round being dealt): it is
        looked up in the database before the table changes again."""
        self.touched = time.monotonic()
        """When someone last came or left, or took a seat (a waiting table expires from it)."""
        self._task: asyncio.Task[None] | None = None
        self._logs: dict[str, list[str]] = {}
        """The match in words by language, once asked for (see :meth:`log_lines`)."""
        self.rematch: str | None = None
        """The code of the table this one's rematch is played at (kept in memory only)."""
        self.spawn: Callable[[TableData, str], Awaitable[Room]] | None = None
        """How the hub stores and opens a new table (for a rematch), from an address."""
        self.gone = False
        """Set when this process stopped running the table (another runs it now): nothing
        here changes it any more (:meth:`leave_to_another`)."""
        self.held: Callable[[], bool] = lambda: True
        """Whether this process holds the table's lease (PostgreSQL; always on SQLite). While
        it does not (the lease connection broke), no bot, timer or message changes the table;
        the hub leases it again and calls :meth:`schedule`, or lets it go."""
        self.on_lost: Callable[[Room], None] | None = None
        """Told when the database shows that another process changed the table meanwhile
        (a seat sold, an action stored at the same number): this copy is stale."""
        self._hinting: asyncio.Task[None] | None = None
        """The practice hint being thought (one at a time a table)."""

    # ------------------------------------------------------------------ state

    @property
    def n(self) -> int:
        return self.game.n

    @property
    def version(self) -> int:
        """Steps of the game so far: actions applied and rounds dealt after the first, and
        for each undo the actions it took back and one more (so it never goes back)."""
        return self.actions + self.game.round - 1 + undo_steps(self.meta)

    @property
    def practice(self) -> bool:
        """One person and bots only: hint and undo are offered (never with two people)."""
        kinds = [s.kind for s in self.seats]
        return kinds.count("person") == 1 and kinds.count("bot") == len(kinds) - 1

    @property
    def open(self) -> bool:
        return self.status in OPEN

    def names(self, lang: str | None = None) -> list[str]:
        """The seats' names; in ``lang``, a bot's as the terminal says it ("Robot 2")."""
        names = [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]
        if lang is None:
            return names
        _ = translator(lang)
        return [_("Bot {n}", n=int(name[4:])) if s.kind == "bot" and _BOT_NAME.fullmatch(name)
                else name for s, name in zip(self.seats, names, strict=True)]

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def info(self) -> dict[str, Any]:
        """The public description of the table (the ``table`` of events and of the lobby)."""
        return {
            "code": self.code,
            "title": self.title,
            "rules": self.preset,
            "rules_title": self.rules.title,
            "overrides": self.overrides,
            "house_rules": self.house is not None or bool(self.overrides),
            "practice": self.practice,
            "players": self.n,
            "status": self.status,
            "round": self.game.round,
            "version": self.version,
            "public": self.public,
            "turn_timer": self.turn_timer,
            "seats": [{"seat": i, "name": s.name, "kind": s.kind, "bot": s.bot_spec,
                       "connected": s.kind == "person" and self.connected(i)}
                      for i, s in enumerate(self.seats)],
            "spectators": sum(1 for c in self.conns if c.seat is None),
            "rematch": self.rematch,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """What a seat may see (``observe``); a spectator sees no hand at all."""
        if seat is not None:
            return self.game.observe(seat).to_json()
        data = self.game.observe(0).to_json()
        data.update(seat=None, hand=[], drawn=None, legal=[])
        return data

    def _timer_left(self) -> float | None:
        if self.deadline is None:
            return None
        return round(max(0.0, self.deadline - asyncio.get_running_loop().time()), 1)

    def _last_json(self, lang: str, last: _Last | None) -> dict[str, Any] | None:
        if last is None:
            return None
        text = describe_move(self.game, self.names(lang), last.step, translator(lang))
        return {"seat": last.step.seat, "action": str(last.step.action), "by": last.source,
                "text": text}

    def state_event(self, seat: int | None, lang: str, last: _Last | None = None, *,
                    last_json: dict[str, Any] | None = None) -> str:
        if last_json is None:
            last_json = self._last_json(lang, last)
        return event("state", version=self.version, view=self.view(seat), last=last_json,
                     timer=self._timer_left())

    def _broadcast_state(self, last: _Last | None) -> None:
        cache: dict[tuple[int | None, str], str] = {}
        lasts: dict[str, dict[str, Any] | None] = {}
        for conn in self.conns:
            key = (conn.seat, conn.lang)
            text = cache.get(key)
            if text is None:
                if conn.lang not in lasts:
                    lasts[conn.lang] = self._last_json(conn.lang, last)
                text = cache[key] = self.state_event(conn.seat, conn.lang, last,
                                                     last_json=lasts[conn.lang])
            conn.send(text)

    def _broadcast_table(self, skip: Connection | None = None) -> None:
        text = event("table", table=self.info())
        for conn in self.conns:
            if conn is not skip:
                conn.send(text)

    # ------------------------------------------------------------------ the log

    def log_lines(self, lang: str) -> list[str]:
        """The match so far in words, as the page logs it live: "Dealt: round n." before each
        round, then each action's ``last.text`` (:func:`describe_move`, which says counts of
        cards, never a hidden card). Built once per language by replaying the match, then
        kept up to date, so a reload shows the same lines; empty before the match starts."""
        if self.status == "waiting":
            return []
        lines = self._logs.get(lang)
        if lines is None:
            lines = self._logs[lang] = self._narrate(lang)
        return lines

    def _narrate(self, lang: str) -> list[str]:
        _ = translator(lang)
        names = self.names(lang)
        record = record_of(self.game)
        rounds: list[list[str]] = [[] for _round in record.rounds]

        def said(game: Game, r: int, _index: int, step: Step) -> None:
            rounds[r].append(describe_move(game, names, step, _))

        replay(record, after_step=said)
        lines: list[str] = []
        for r, moves in enumerate(rounds):
            lines.append(_("Dealt: round {n}.", n=r + 1))
            lines.extend(moves)
        return lines

    def _log_step(self, step: Step) -> None:
        for lang, lines in self._logs.items():
            lines.append(describe_move(self.game, self.names(lang), step, translator(lang)))

    def _log_deal(self) -> None:
        for lang, lines in self._logs.items():
            lines.append(translator(lang)("Dealt: round {n}.", n=self.game.round))

    # ------------------------------------------------------------------ tokens

    def _seat_of(self, token: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.bot_spec is None and _matches(token, s.token_hash):
                return i
        return None

    def _check_host(self, token: str) -> None:
        if not _matches(token, self.host_hash):
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"this is not the host token of table "
                                f"{self.code}; only the host (who created it) can do that")

    def _check_status(self, *allowed: str, doing: str) -> None:
        if self.status not in allowed:
            hint = {"waiting": "the host has not started the match yet",
                    "playing": "the match is under way",
                    "finished": "the match is over",
                    "closed": "the table is closed"}[self.status]
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"cannot {doing}: {hint}")

    # ------------------------------------------------------------------ joining

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Sit a person down in a free seat: the seat and its secret token. The seat is sold
        only if it is free in the database too (:meth:`Store.take_seat`)."""
        async with self.lock:
            self._check_gone()
            self._check_status("waiting", doing="join")
            free = [i for i, s in enumerate(self.seats) if s.kind == "free"]
            if not free:
                raise ProtocolError(ErrorCode.BAD_REQUEST, "every seat is taken; you can watch")
            if seat is None:
                seat = free[0]
            elif not 0 <= seat < self.n:
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"seat {seat} does not exist; seats are "
                                    f"0 to {self.n - 1}")
            elif seat not in free:
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"seat {seat} is not free; free seats: "
                                    f"{', '.join(map(str, free))}")
            token = new_token()
            taken = _Seat(name, None, hash_token(token))
            try:
                await self.writer.run(Store.take_seat(self.code, SeatData(seat, name, None,
                                                                          taken.token_hash)))
            except SeatTaken:
                self._lost()
                raise ProtocolError(ErrorCode.UNAVAILABLE, f"seat {seat} was just taken by "
                                    "someone else; look at the table again") from None
            except NotLeased:
                raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING) from None
            self.seats[seat] = taken
            self.touched = time.monotonic()
            self._broadcast_table()
            return seat, token

    def _check_gone(self) -> None:
        if self.gone:
            raise ProtocolError(ErrorCode.UNAVAILABLE, MOVED)
        if not self.held():
            raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING)

    def leave_to_another(self) -> None:
        """Stop running the table (its lease goes to another process): no bot, timer or
        message changes it here any more, and every connection is closed with 1012 (the
        browser reconnects, and the proxy sends it to the process that runs it now)."""
        self.gone = True
        self._cancel()
        for conn in self.conns:
            conn.close(1012, MOVED)

    def _lost(self) -> None:
        """The database shows another process changed the table: stop, and say so."""
        if not self.gone:
            log.warning("table %s: changed by another server process; this one lets it go",
                        self.code)
            self.leave_to_another()
            if self.on_lost is not None:
                self.on_lost(self)

    async def _set_seat(self, seat: int, new: _Seat) -> None:
        await self.writer.run(Store.set_seat(self.code, SeatData(seat, new.name, new.bot_spec,
                                                                  new.token_hash)))
        self.seats[seat] = new
        self.touched = time.monotonic()

    def hello(self, conn: Connection, msg: Hello) -> None:
        """Who a connection is: a seat (by its token) or a spectator. The answer is the table
        and the most recent :attr:`Limits.welcome_log` lines of the match in words (with
        ``log_skipped``, the lines before them), then the state; at most
        :attr:`Limits.hellos_per_second` of them."""
        if not conn.hellos.take():
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"hello at most "
                                f"{self.limits.hellos_per_second:g} times a second (each one "
                                "sends the whole table); you are already welcomed")
        seat = None
        if msg.token is not None:
            seat = self._seat_of(msg.token)
            if seat is None:
                raise ProtocolError(ErrorCode.BAD_TOKEN, f"this token is not a seat token of "
                                    f"table {self.code}; say hello without a token to watch")
        elif conn.seat is not None or not conn.joined:
            watching = sum(1 for c in self.conns if c.seat is None)
            if watching >= self.limits.spectators_per_table:
                raise ProtocolError(ErrorCode.TOO_MANY, f"table {self.code} has its maximum of "
                                    f"{self.limits.spectators_per_table} spectators")
        conn.seat, conn.lang, conn.joined = seat, msg.lang, True
        self.conns.add(conn)
        self.touched = time.monotonic()
        lines = self.log_lines(conn.lang)
        shown = lines[-self.limits.welcome_log:] if self.limits.welcome_log > 0 else []
        conn.send(event("welcome", seat=seat, table=self.info(), log=shown,
                        log_skipped=len(lines) - len(shown)))
        if self.status != "waiting":
            conn.send(self.state_event(seat, conn.lang))
        self._broadcast_table(skip=conn)

    def leave(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            self.touched = time.monotonic()
            self._broadcast_table()
        if not self.open and not self.conns:
            self.on_done(self)

    # ------------------------------------------------------------------ messages

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        """One validated message (raises :class:`ProtocolError` when it is refused)."""
        async with self.lock:
            if self.gone:
                conn.close(1012, MOVED)
                raise ProtocolError(ErrorCode.UNAVAILABLE, MOVED)
            if self.status == "closed":
                raise ProtocolError(ErrorCode.WRONG_STATUS, f"table {self.code} is closed")
            if isinstance(msg, Hello):
                if self.status != "waiting" and msg.lang not in self._logs:
                    # Put into words once per language, off the event loop (a match of 100
                    # rounds, some 3,500 actions, takes half a second); the lock keeps the
                    # game still meanwhile.
                    self._logs[msg.lang] = await asyncio.to_thread(self._narrate, msg.lang)
                self.hello(conn, msg)
                return
            if not self.held():
                raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING)
            if not conn.joined:
                raise ProtocolError(ErrorCode.HELLO_FIRST, 'say hello first: {"type": "hello", '
                                    '"seq": 1, "token": "<seat token, or leave it out to watch>"}')
            try:
                if self._unsure is not None:
                    await self._resolve(_WAITING)
                if isinstance(msg, Play):
                    await self._play(conn, msg)
                elif isinstance(msg, NextRound):
                    await self._next_round(conn, msg)
                elif isinstance(msg, Start):
                    await self._start(msg)
                elif isinstance(msg, SeatBot):
                    await self._seat_bot(msg)
                elif isinstance(msg, Close):
                    await self._close(msg)
                elif isinstance(msg, Rematch):
                    await self._rematch(conn, msg)
                elif isinstance(msg, Hint):
                    await self._hint(conn, msg)
                elif isinstance(msg, Undo):
                    await self._undo(conn, msg)
            except NotLeased:  # a write found the lease gone: nothing was stored, nor said
                raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING) from None
            finally:
                if self._unsure is not None:  # a commit got no answer: the retry task asks
                    self._schedule()

    def _stale(self, conn: Connection, msg: Play | NextRound | Hint | Undo) -> bool:
        """An action made on an older state: say so and send the current state."""
        if msg.version == self.version:
            return False
        conn.send(error_event(ErrorCode.STALE, f"{msg.type} made on version {msg.version}, but the "
                              f"table is at version {self.version}; here is the current state",
                              msg.seq))
        conn.send(self.state_event(conn.seat, conn.lang))
        return True

    async def _play(self, conn: Connection, msg: Play) -> None:
        self._check_status("playing", doing="play")
        seat = conn.seat
        if seat is None:
            raise ProtocolError(ErrorCode.NO_SEAT, "this connection is watching; say hello with "
                                "your seat token to play")
        if not _matches(msg.token, self.seats[seat].token_hash):
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"this is not the token of seat {seat}, "
                                "the seat this connection said hello for")
        if self._stale(conn, msg):
            return
        game = self.game
        if game.over:
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"round {game.round} is over; send "
                                "next_round to deal the next one")
        legal = game.legal_actions()
        if game.to_play != seat:
            who = game.to_move
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"it is {self.names()[who]}'s turn "
                                f"(seat {who}), not yours; wait for a state whose view lists "
                                "your legal actions")
        allowed = ", ".join(str(a) for a in legal)
        try:
            action = Action.parse(msg.action)
        except NotationError as exc:
            raise ProtocolError(ErrorCode.BAD_NOTATION, f"{exc}; legal now: {allowed}") from None
        if action not in legal:
            raise ProtocolError(ErrorCode.ILLEGAL, f"{action} is not legal now; legal: {allowed}")
        await self._commit(seat, action, "person")

    async def _next_round(self, conn: Connection, msg: NextRound) -> None:
        self._check_status("playing", doing="deal the next round")
        if self._seat_of(msg.token) is None and not _matches(msg.token, self.host_hash):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "next_round takes the token of a seat at this "
                                "table or the host token")
        if self._stale(conn, msg):
            return
        if not self.game.over:
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"round {self.game.round} is not over yet")
        await self._deal()

    async def _start(self, msg: Start) -> None:
        self._check_host(msg.token)
        self._check_status("waiting", doing="start")
        free = [str(i) for i, s in enumerate(self.seats) if s.kind == "free"]
        if free:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"seats {', '.join(free)} are free: wait for "
                                "people to join or give those seats to bots (seat_bot)")
        await self.writer.run(Store.set_table(self.code, status="playing"))
        self.status = "playing"
        self._schedule()
        self._broadcast_table()
        self._broadcast_state(None)

    async def _seat_bot(self, msg: SeatBot) -> None:
        self._check_host(msg.token)
        self._check_status("waiting", "playing", doing="seat a bot")
        if not 0 <= msg.seat < self.n:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"seat {msg.seat} does not exist; seats are "
                                f"0 to {self.n - 1}")
        old = self.seats[msg.seat]
        if old.kind == "person" and self.connected(msg.seat):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"{old.name} is connected at seat "
                                f"{msg.seat}; only a missing player can be replaced")
        # Off the event loop: a learned bot's check reads the model the server ships.
        await asyncio.to_thread(check_bot, msg.bot, self.limits.bot_seconds, self.game.rules,
                                self.n)
        name = bot_name(s.name for i, s in enumerate(self.seats) if i != msg.seat)
        await self._set_seat(msg.seat, _Seat.of_bot(name, msg.bot, self.limits.bot_seconds))
        if self.status == "waiting":  # nothing said yet: count the bots in seat order
            await self._number_bots()
        self._schedule()
        self._broadcast_table()

    async def _number_bots(self) -> None:
        """Name the bots ``Bot 1``, ``Bot 2``… in seat order, as the terminal does."""
        k = 0
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                k += 1
                if s.name != f"Bot {k}":
                    await self._set_seat(i, dataclasses.replace(s, name=f"Bot {k}"))

    async def _close(self, msg: Close) -> None:
        self._check_host(msg.token)
        self._check_status("waiting", "playing", "finished", doing="close")
        await self._shut("the host closed the table")

    async def _shut(self, reason: str) -> None:
        await self.writer.run(Store.close_finished(self.code) if self.status == "finished"
                              else Store.set_table(self.code, status="closed"))
        self.status = "closed"
        self._cancel()
        self._broadcast_table()
        for conn in self.conns:
            conn.close(1000, reason)
        self.on_done(self)

    async def expire(self, idle: float) -> bool:
        """Close the table if it is waiting, with nobody connected, untouched for ``idle``
        seconds; whether it was closed."""
        async with self.lock:
            if (self.gone or not self.held() or self.status != "waiting" or self.conns
                    or time.monotonic() - self.touched < idle):
                return False
            await self._shut("the table expired")
            log.info("table %s: closed after %g s waiting with nobody there", self.code, idle)
            return True

    async def _rematch(self, conn: Connection, msg: Rematch) -> None:
        """A new table with the same rules, seats and bots, dealt anew (a fresh seed).

        Each person connected now keeps their seat and name there: their connections get a
        ``rematch`` event with the new seat token; the seats of people away are free (the
        table's ``rematch`` code lets them join). The one who asked is the new host.
        Spectators get the code to follow.
        """
        asker = self._seat_of(msg.token)
        if asker is None and not _matches(msg.token, self.host_hash):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "rematch takes the token of a seat at this "
                                "table or the host token")
        self._check_status("finished", doing="start a rematch")
        if self.rematch is not None:
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"the rematch of this table is table "
                                f"{self.rematch}, at /t/{self.rematch}")
        if self.spawn is None:  # pragma: no cover - the hub always sets it
            raise ProtocolError(ErrorCode.INTERNAL, "this server cannot open a new table here")
        tokens = {c.seat: new_token() for c in self.conns
                  if c.seat is not None and self.seats[c.seat].kind == "person"}
        seats = [SeatData(i, s.name, s.bot_spec) if s.kind == "bot"
                 else SeatData(i, s.name, None, hash_token(tokens[i])) if i in tokens
                 else SeatData(i) for i, s in enumerate(self.seats)]
        host = new_token()
        code = secrets.token_urlsafe(9)
        data = TableData(code=code, rules=self.preset, overrides=dict(self.overrides),
                         house=self.house, players=self.n, seed=secrets.randbits(63), dealer=self.n - 1,
                         status="waiting", host_hash=hash_token(host), seats=seats,
                         title=self.title, public=self.public, turn_timer=self.turn_timer)
        room = await self.spawn(data, conn.address)
        self.rematch = room.code
        invite = f"/t/{room.code}"
        for other in self.conns:
            fields: dict[str, Any] = {"code": room.code, "invite": invite, "table": room.info()}
            if other.seat in tokens:
                fields.update(seat=other.seat, token=tokens[other.seat])
            if other is conn:
                fields["host_token"] = host
            other.send(event("rematch", **fields))
        self._broadcast_table()

    # ------------------------------------------------------------------ practice

    def _practice_seat(self, conn: Connection, token: str, doing: str) -> int:
        """The person's seat at a practice table, for a hint or an undo (else refused)."""
        self._check_status("playing", doing=doing)
        if not self.practice:
            people = sum(1 for s in self.seats if s.kind == "person")
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"cannot {doing}: hint and undo are for "
                                f"practice, a table of one person and bots; this table has "
                                f"{people} people")
        seat = conn.seat
        if seat is None or not _matches(token, self.seats[seat].token_hash):
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"cannot {doing}: only the person "
                                "playing this table can, with their seat token")
        return seat

    def practice_of(self, round_no: int) -> dict[str, Any]:
        """The hints asked and the moves taken back in round ``round_no`` (for its review):
        ``{"hints": [turn, …], "undos": [{"turn", "actions"}, …]}``, a turn counting the
        round's actions before the decision."""
        def here(items: Any) -> list[dict[str, Any]]:
            return [x for x in items or () if isinstance(x, dict) and x.get("round") == round_no]
        return {"hints": [h["turn"] for h in here(self.meta.get("hints"))],
                "undos": [{"turn": u["turn"], "actions": u["actions"]}
                          for u in here(self.meta.get("undos"))]}

    async def _hint(self, conn: Connection, msg: Hint) -> None:
        """Under the lock: check, note the hint in ``meta.hints`` (committed), then think it
        in the pool with the lock released (:meth:`_send_hint`)."""
        seat = self._practice_seat(conn, msg.token, doing="ask for a hint")
        if self._stale(conn, msg):
            return
        game = self.game
        if game.over or game.to_play != seat:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "a hint is for your own decision: ask "
                                "on your turn")
        if self._hinting is not None and not self._hinting.done():
            raise ProtocolError(ErrorCode.TOO_MANY, "a hint is being thought already; it comes "
                                "in a moment")
        here = {"round": game.round, "turn": len(game.history)}
        hints = [h for h in self.meta.get("hints", []) if isinstance(h, dict)]
        if here not in hints:
            meta = {**self.meta, "hints": [*hints, here]}
            await self.writer.run(Store.set_table(self.code, meta=meta))
            self.meta = meta
        view = game.observe(seat)
        self._hinting = asyncio.create_task(self._send_hint(conn, msg.seq, view, self.version),
                                            name=f"table {self.code} hint")

    async def _send_hint(self, conn: Connection, seq: int, view: Observation,
                         version: int) -> None:
        """Think the hint (the pool, :data:`HINT_WAIT` seconds at most) and send it to
        ``conn``, unless the table moved on meanwhile."""
        try:
            values = await self.thinker.hint(view, HINT_WAIT)
        except TimeoutError:
            conn.send(error_event(ErrorCode.UNAVAILABLE, "the hint took too long: the server "
                                  "is busy; ask again in a moment", seq))
            return
        except Exception:
            log.exception("table %s: a hint failed", self.code)
            conn.send(error_event(ErrorCode.INTERNAL, "the hint failed; ask again", seq))
            return
        if self.version != version:
            return  # a move was made meanwhile: the hint is about a decision gone
        conn.send(event("hint", seq=seq, version=version,
                        **hint_words(values, translator(conn.lang))))

    async def _undo(self, conn: Connection, msg: Undo) -> None:
        """Take back the person's last decision of this round and every move after it
        (the order of changes: the module's text)."""
        seat = self._practice_seat(conn, msg.token, doing="undo")
        if self._stale(conn, msg):
            return
        game = self.game
        if game.over:
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"round {game.round} is over: a round "
                                "that has ended is not taken back")
        history = game.observe(seat).history
        mine = [i for i, (who, _action) in enumerate(history) if who == seat]
        if not mine:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"nothing to take back: you have made no "
                                f"move in round {game.round} yet")
        turn = mine[-1]
        taken = [str(action) for _who, action in history[turn:]]
        first = self.actions - len(taken) + 1
        undos = [u for u in self.meta.get("undos", []) if isinstance(u, dict)]
        meta = {**self.meta, "undos": [*undos, {"round": game.round, "turn": turn,
                                                 "actions": taken}]}
        before = await asyncio.to_thread(self._replayed, first - 1)  # off the event loop
        try:
            await self.writer.run(Store.take_back(self.code, first, meta))
        except NotLeased:
            raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING) from None
        except Exception:
            # Stored or not, nobody can tell here: the table is read again from the database,
            # the authority (the hub reloads it at the next request; the browser reconnects).
            log.exception("table %s: storing an undo failed; the table is read again", self.code)
            self._lost()
            raise ProtocolError(ErrorCode.UNAVAILABLE, MOVED) from None
        self.game, self.actions, self.meta = before, first - 1, meta
        self._logs.clear()
        self._schedule()
        langs = {c.lang for c in self.conns}
        self._logs.update(await asyncio.to_thread(lambda: {lang: self._narrate(lang)
                                                           for lang in langs}))
        for other in self.conns:
            if other.joined:
                lines = self.log_lines(other.lang)
                shown = lines[-self.limits.welcome_log:] if self.limits.welcome_log > 0 else []
                other.send(event("welcome", seat=other.seat, table=self.info(), log=shown,
                                 log_skipped=len(lines) - len(shown)))
                other.send(self.state_event(other.seat, other.lang))

    def _replayed(self, actions: int) -> Game:
        """The game after its first ``actions`` actions (the deal's order is the seed's)."""
        record = record_of(self.game)
        game = Game(self.rules, self.n, seed=self.seed, dealer=self.dealer)
        left = actions
        for r, played in enumerate(record.rounds):
            if r:
                game.next_round()
            for action in played.actions[:left]:
                game.apply(action)
            left -= min(left, len(played.actions))
        return game

    # ------------------------------------------------------------------ changing the game

    async def _commit(self, seat: int, action: Action, source: str) -> None:
        """Apply a legal action to a copy of the game, store it, then keep the copy and tell
        everyone.

        The room's game changes only once the action is applied and stored, in
        one assignment, and nothing else changes the game meanwhile (the room's
        lock is held). A failure before the commit (an exception anywhere, a
        write refused) changes nothing. A commit whose answer is lost is looked
        up (:meth:`_resolve`): stored, the action is kept as if the commit had
        answered; not stored, nothing changed; the database not answering, the
        table waits for it (:attr:`_unsure`) and the player hears exactly that.
        When the action ends the match, the status is committed after it: a
        restart in between finds the match over and finishes the table.
        """
        game = self.game.clone()
        step = game.apply(action)
        stored = ActionData(self.actions + 1, self.game.round, seat, str(action), source)
        try:
            await self.writer.run(Store.add_action(self.code, stored))
        except NotLeased:  # nothing was stored: the lease went with the lease connection
            # The hub's sweep sees the connection broken and leases the table again (it goes
            # on, unchanged, or is read again) or lets it go (another process runs it).
            raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING) from None
        except Exception:
            self._unsure = stored
            if await self._resolve(_UNSURE, afterwards=False):
                return  # stored after all, and applied
            raise  # not stored: the table is unchanged
        await self._took(game, step, stored.seq, source)

    async def _took(self, game: Game, step: Step, seq: int, source: str) -> None:
        """Keep a game one stored action ahead of the room's, and tell everyone."""
        self.game, self.actions = game, seq  # together: the version moves by one
        self.stalled = None
        self._log_step(step)
        done = "finished" if game.match_over else None
        if done:
            try:
                await self.writer.run(Store.set_table(self.code, status=done))
            except Exception:  # the action is stored: a restart finishes the table
                log.exception("table %s: storing the end of the match failed", self.code)
            self.status = done
        self._schedule()
        self._broadcast_state(_Last(step, source))
        if done:
            self._broadcast_table()
            self.on_done(self)

    async def _deal(self) -> None:
        game = self.game.clone()
        game.next_round()
        try:
            await self.writer.run(Store.set_table(self.code, round=game.round))
        except NotLeased:  # nothing was stored (as for an action, _commit)
            raise ProtocolError(ErrorCode.UNAVAILABLE, _REGAINING) from None
        except Exception:
            self._unsure = game.round
            if await self._resolve(_UNSURE, afterwards=False):
                return
            raise
        self._dealt(game)

    def _dealt(self, game: Game) -> None:
        self.game = game
        self.stalled = None
        self._log_deal()
        self._schedule()
        self._broadcast_state(None)

    async def _resolve(self, saying: str, *, afterwards: bool = True) -> bool:
        """Look up the step whose commit got no answer (:attr:`_unsure`): True when it is
        stored (it is then applied and sent, as if the commit had answered), False when it is
        not (nothing changed). Raises ``unavailable`` (with ``saying``) while the database does
        not answer. ``afterwards``: the commit that failed is long done, so the flow is
        scheduled again and everyone is sent the unchanged state."""
        pending = self._unsure
        if pending is None:
            return False
        seq = pending.seq if isinstance(pending, ActionData) else self.actions + 1
        try:
            found, dealt = await asyncio.to_thread(self.writer.store.stored, self.code, seq)
        except Exception as exc:
            if self.stalled is None:
                self.stalled = asyncio.get_running_loop().time()
            log.warning("table %s: cannot look up the step whose commit got no answer: %s",
                        self.code, exc)
            raise ProtocolError(ErrorCode.UNAVAILABLE, saying) from None
        self._unsure = None
        self.stalled = None  # the database answers again
        if isinstance(pending, int):
            if dealt < pending:
                if afterwards:
                    self._schedule()
                return False
            game = self.game.clone()
            game.next_round()
            self._dealt(game)
            return True
        if found is None:
            if afterwards:
                self._schedule()
                self._broadcast_state(None)  # those told to wait learn the table is unchanged
            return False
        if found != pending:  # not ours: another process stored an action at this number
            self._lost()
            raise ProtocolError(ErrorCode.UNAVAILABLE, MOVED)
        game = self.game.clone()  # the stored action, which the database holds as the record
        step = game.apply(Action.parse(found.action))
        await self._took(game, step, found.seq, found.source)
        return True

    # ------------------------------------------------------------------ bots and the timer

    def _cancel(self) -> None:
        task, self._task = self._task, None
        self.deadline = None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _schedule(self, *, resumed: bool = False) -> None:
        """After a change: let a bot play, or start the turn timer, or deal the next round
        (or, when a commit got no answer, look it up). A turn timer's deadline is stored, so
        that a restart gives the turn only what was left of it (``resumed``)."""
        self._cancel()
        if self.status != "playing":
            return
        if self._unsure is not None:
            self._task = asyncio.create_task(self._later(self.version, RETRY[0]),
                                             name=f"table {self.code} v{self.version} lookup")
            return
        game = self.game
        timed = True
        if game.over:
            if game.match_over:
                return
            if all(s.bot is not None for s in self.seats):
                timed = False
        elif self.seats[game.to_move].bot is not None:
            timed = False
        delay = self.turn_timer if timed else self.bot_delay
        if delay is None:
            return
        if timed:
            stored = self._stored_deadline
            if resumed and stored is not None:
                delay = min(delay, max(0.0, (stored - dt.datetime.now(dt.UTC)).total_seconds()))
            else:
                self._store_deadline(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=delay))
            self.deadline = asyncio.get_running_loop().time() + delay
        self._stored_deadline = None
        self._task = asyncio.create_task(self._later(self.version, delay),
                                         name=f"table {self.code} v{self.version}")

    def _store_deadline(self, deadline: dt.datetime) -> None:
        """Store when this turn's timer runs out (in the background: should it fail, a restart
        gives the turn in full)."""
        write = asyncio.ensure_future(self.writer.run(Store.set_table(
            self.code, turn_deadline=deadline, turn_version=self.version)))
        write.add_done_callback(_quiet)

    def schedule(self) -> None:
        """Resume the flow (after a restart)."""
        self._schedule(resumed=True)

    def resume(self) -> None:
        """Go on once leased again, unchanged (the hub): the flow resumes, and everyone gets
        the state (those refused meanwhile learn that the table moves again)."""
        self.stalled = None
        self._schedule(resumed=True)
        if self.status != "waiting":
            self._broadcast_state(None)

    async def settle(self) -> None:
        """Under the lock: look up the step whose commit got no answer, if any
        (:meth:`_resolve`: stored, it is applied and sent; not stored, nothing changed), so
        that the room holds what the database holds of its own steps. Raises
        ``unavailable`` while the database does not answer."""
        if self._unsure is not None:
            await self._resolve(_WAITING, afterwards=False)

    def stop(self) -> None:
        self._cancel()

    async def _later(self, version: int, delay: float) -> None:
        """The step a table takes by itself at ``version``, after ``delay``: a bot's move,
        the timer's, the next round; tried again with backoff (:data:`RETRY`) until it is
        stored, the choice kept between tries.

        A quick bot (:data:`INLINE_BOTS`) and the timer's greedy move choose under the lock.
        Any other bot thinks in the :class:`Thinker`'s pool, with the lock released, so the
        table still answers meanwhile; its move is committed only if the table is still as
        it was asked (same version, same bot in the seat), else dropped.
        """
        await asyncio.sleep(delay)
        wait = RETRY[0]
        chosen: tuple[int, Action, str] | None = None
        thinker: _Seat | None = None  # the pool bot whose move ``chosen`` is
        while True:
            try:
                if chosen is None:
                    async with self.lock:
                        if not await self._still(version):
                            return
                        asked = self._pool_question()
                    if asked is not None:
                        seat, thinker, view, legal = asked
                        assert thinker.bot is not None and thinker.runs is not None
                        action = await self._think(thinker.runs, thinker.bot.name, view, legal,
                                                   f"{self.seed}/bots/{version}")
                        chosen = (seat, action, "bot")
                async with self.lock:
                    if not await self._still(version):
                        return
                    if thinker is not None and chosen is not None and (
                            self.seats[chosen[0]] is not thinker):
                        return  # the seat changed while the bot thought: its move is dropped
                    self._task = None  # from here on, nothing cancels this step
                    self.deadline = None
                    if self.game.over:
                        await self._deal()
                        return
                    if chosen is None:
                        chosen = await self._choose(version)
                    await self._commit(*chosen)
                    return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.stalled is None:
                    self.stalled = asyncio.get_running_loop().time()
                log.error("table %s: a bot, timer or deal step failed (again in %.1f s): %s",
                          self.code, wait, exc)
                self._task = asyncio.current_task()  # a change by someone cancels the retry
            await asyncio.sleep(wait)
            wait = min(2 * wait, RETRY[1])

    async def _still(self, version: int) -> bool:
        """Under the lock: whether the step of ``version`` is still to take (a step whose
        commit got no answer is looked up first; when resolved, the flow was scheduled again
        from there)."""
        if self.gone or not self.held():
            return False
        if self._unsure is not None:
            await self._resolve(_WAITING)
            return False
        return self.version == version and self.status == "playing"

    def _pool_question(self) -> tuple[int, _Seat, Observation, list[Action]] | None:
        """Under the lock: the seat to move, its seat record, view and legal actions when a
        bot of the pool is to move (not a quick bot, the timer or a deal), else ``None``."""
        game = self.game
        if game.over:
            return None
        seat = game.to_move
        seated = self.seats[seat]
        if seated.bot is None or seated.runs is None or seated.bot.name in INLINE_BOTS:
            return None
        return seat, seated, game.observe(seat), game.legal_actions()

    async def _choose(self, version: int) -> tuple[int, Action, str]:
        """Under the lock: the seat to move, its action and who chose it (``bot`` for a quick
        bot, ``timer`` for a person's turn run out)."""
        game = self.game
        seat = game.to_move
        bot = self.seats[seat].bot
        source = "bot"
        if bot is None:
            bot, source = GreedyBot(), "timer"
        view, legal = game.observe(seat), game.legal_actions()
        rng = random.Random(f"{self.seed}/bots/{version}")
        try:
            action = bot.choose(view, legal, rng)
            if action not in legal:
                raise ValueError(f"{bot.name} chose {action}, which is not legal")
            if source == "bot":
                self.thinker.played("thought")
        except Exception:  # a failing bot must not stall the table: play a safe move
            log.exception("table %s: the %s bot failed; a safe move is played",
                          self.code, bot.name)
            if source == "bot":
                self.thinker.played("failed")
            action = GreedyBot().choose(view, legal, rng)
        return seat, action, source

    async def _think(self, spec: str, name: str, view: Observation, legal: list[Action],
                     seed: str) -> Action:
        """A pool bot's move, or the greedy move when it fails or runs past its wait."""
        try:
            action = await self.thinker.choose(spec, view, legal, seed)
            if action not in legal:
                raise ValueError(f"{name} chose {action}, which is not legal")
            self.thinker.played("thought")
            return action
        except TimeoutError:
            self.thinker.played("late")
            log.warning("table %s: the %s bot did not move within %g s; a safe move is played",
                        self.code, name, self.thinker.wait)
        except Exception:  # a failing bot must not stall the table
            self.thinker.played("failed")
            log.exception("table %s: the %s bot failed; a safe move is played", self.code, name)
        return GreedyBot().choose(view, legal, random.Random(seed))


def _quiet(task: asyncio.Future[None]) -> None:
    """Log a background write's failure (it changes nothing the clients were told)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("a background write failed: %s", task.exception())
