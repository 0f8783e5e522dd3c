"""A live table: its game, seats and connections, and the flow of turns.

The room is the only place that changes a table. Every change runs under the
room's lock in the same order: check the request (nothing changes when it is
refused), commit it to the database, apply it to the in-memory game, then
send each connection what it may see: a seat gets ``observe(seat)``, a
spectator the public part of it (no hand at all). Bots and the turn timer act
from a task the room schedules after each change.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from eights.bots import Bot, GreedyBot, make_bot, parse_bot_spec
from eights.engine.actions import Action
from eights.engine.errors import NotationError
from eights.engine.game import Game, Step
from eights.engine.record import record_of, replay
from eights.engine.rules import load_rules
from eights.i18n import translator
from eights.i18n.text import describe_move
from eights.server.limits import Limits, TokenBucket
from eights.server.protocol import (
    ClientMessage,
    Close,
    ErrorCode,
    Hello,
    NextRound,
    Play,
    ProtocolError,
    SeatBot,
    Start,
    error_event,
    event,
)
from eights.server.store import OPEN, ActionData, SeatData, Store, TableData, Writer

__all__ = ["BOTS", "Connection", "Room", "check_bot", "hash_token", "new_token", "replay_table"]

log = logging.getLogger("eights.server")

BOTS = ("random", "greedy", "expert", "ismcts", "learned")
"""Bots a table may seat (``ismcts`` with at most 5000 iterations or 3 seconds a move;
``learned`` with the shipped model only: no ``model`` path from a client)."""
_SLOW_BOTS = ("ismcts",)
"""Bots that think in a worker thread, so the other tables keep playing meanwhile."""


def new_token() -> str:
    """A secret token (192 random bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (tokens are random, so no salt is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _matches(token: str, digest: str | None) -> bool:
    return digest is not None and hmac.compare_digest(hash_token(token), digest)


def check_bot(spec: str) -> Bot:
    """The bot of ``spec``, if the server seats such a bot (else :class:`ProtocolError`)."""
    try:
        name, options = parse_bot_spec(spec)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    if name not in BOTS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown bot {name!r}; bots are "
                            f"{', '.join(BOTS)} (e.g. greedy, ismcts:iterations=500)")
    for key, value in options.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: option {key} must be a "
                                f"finite number, not {value}")
    if name == "learned" and "model" in options:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "learned plays the shipped model here; "
                            "the model option is for the command line")
    if name == "ismcts":
        iterations, seconds = options.get("iterations", 1000), options.get("time", 0)
        if not isinstance(iterations, int) or not 1 <= iterations <= 5000:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "ismcts iterations must be 1 to 5000")
        if not isinstance(seconds, (int, float)) or not 0 <= seconds <= 3:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "ismcts time must be at most 3 seconds")
    try:
        return make_bot(spec)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None


def replay_table(data: TableData) -> Game:
    """The game of a stored table: its actions replayed from the deal."""
    game = Game(load_rules(data.rules, data.overrides), data.players, seed=data.seed,
                dealer=data.dealer)
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
    holds up a table; one that falls :attr:`Limits.send_queue` events behind
    is disconnected.
    """

    def __init__(self, address: str, limits: Limits) -> None:
        self.address = address
        self.seat: int | None = None
        self.lang = "en"
        self.joined = False
        """True once the client said hello."""
        self.last_seq = -1
        self.bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
        self.strikes = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closing = False
        self.close_code = 1000
        self.close_reason = ""
        self._limit = limits.send_queue

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.queue.qsize() >= self._limit:
            self.close(1013, "too far behind: reconnect to get the current state")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then close the socket."""
        if not self.closing:
            self.closing = True
            self.close_code, self.close_reason = code, reason
            self.queue.put_nowait(None)


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

    @property
    def kind(self) -> str:
        return "bot" if self.bot_spec else "person" if self.token_hash else "free"


class Room:
    """A table being played (or waiting, or just finished)."""

    def __init__(self, data: TableData, *, writer: Writer, limits: Limits, bot_delay: float,
                 on_done: Callable[[Room], None]) -> None:
        self.code = data.code
        self.title = data.title
        self.preset = data.rules
        self.overrides = dict(data.overrides)
        self.seed = data.seed
        self.dealer = data.dealer
        self.public = data.public
        self.turn_timer = data.turn_timer
        self.status = data.status
        self.host_hash = data.host_hash
        self.seats = [_Seat(s.name, s.bot, s.token_hash, None if s.bot is None else make_bot(s.bot))
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
        self.deadline: float | None = None
        """When the turn timer runs out (event-loop time)."""
        self._task: asyncio.Task[None] | None = None
        self._logs: dict[str, list[str]] = {}
        """The match in words by language, once asked for (see :meth:`log_lines`)."""

    # ------------------------------------------------------------------ state

    @property
    def n(self) -> int:
        return self.game.n

    @property
    def version(self) -> int:
        """Steps of the game so far: actions applied and rounds dealt after the first."""
        return self.actions + self.game.round - 1

    @property
    def open(self) -> bool:
        return self.status in OPEN

    def names(self) -> list[str]:
        return [s.name or f"Seat {i + 1}" for i, s in enumerate(self.seats)]

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
        text = describe_move(self.game, self.names(), last.step, translator(lang))
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
        names = self.names()
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
            lines.append(describe_move(self.game, self.names(), step, translator(lang)))

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
        """Sit a person down in a free seat: the seat and its secret token."""
        async with self.lock:
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
            await self._set_seat(seat, _Seat(name, None, hash_token(token)))
            self._broadcast_table()
            return seat, token

    async def _set_seat(self, seat: int, new: _Seat) -> None:
        await self.writer.run(Store.set_seat(self.code, SeatData(seat, new.name, new.bot_spec,
                                                                  new.token_hash)))
        self.seats[seat] = new

    def hello(self, conn: Connection, msg: Hello) -> None:
        """Who a connection is: a seat (by its token) or a spectator."""
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
        conn.send(event("welcome", seat=seat, table=self.info(), log=self.log_lines(conn.lang)))
        if self.status != "waiting":
            conn.send(self.state_event(seat, conn.lang))
        self._broadcast_table(skip=conn)

    def leave(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            self._broadcast_table()
        if not self.open and not self.conns:
            self.on_done(self)

    # ------------------------------------------------------------------ messages

    async def handle(self, conn: Connection, msg: ClientMessage) -> None:
        """One validated message (raises :class:`ProtocolError` when it is refused)."""
        async with self.lock:
            if self.status == "closed":
                raise ProtocolError(ErrorCode.WRONG_STATUS, f"table {self.code} is closed")
            if isinstance(msg, Hello):
                self.hello(conn, msg)
            elif not conn.joined:
                raise ProtocolError(ErrorCode.HELLO_FIRST, 'say hello first: {"type": "hello", '
                                    '"seq": 1, "token": "<seat token, or leave it out to watch>"}')
            elif isinstance(msg, Play):
                await self._play(conn, msg)
            elif isinstance(msg, NextRound):
                await self._next_round(conn, msg)
            elif isinstance(msg, Start):
                await self._start(msg)
            elif isinstance(msg, SeatBot):
                await self._seat_bot(msg)
            elif isinstance(msg, Close):
                await self._close(msg)

    def _stale(self, conn: Connection, msg: Play | NextRound) -> bool:
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
        bot = check_bot(msg.bot)
        await self._set_seat(msg.seat, _Seat(f"Bot {msg.seat + 1}", msg.bot, None, bot))
        self._schedule()
        self._broadcast_table()

    async def _close(self, msg: Close) -> None:
        self._check_host(msg.token)
        self._check_status("waiting", "playing", "finished", doing="close")
        await self.writer.run(Store.set_table(self.code, status="closed"))
        self.status = "closed"
        self._cancel()
        self._broadcast_table()
        for conn in self.conns:
            conn.close(1000, "the host closed the table")
        self.on_done(self)

    # ------------------------------------------------------------------ changing the game

    async def _commit(self, seat: int, action: Action, source: str) -> None:
        """Apply a legal action to a copy of the game, store it, then keep the copy and tell
        everyone.

        The room's game changes only once the action is applied and committed,
        in one assignment: a failure before (a commit that fails, an exception
        anywhere) changes nothing, and nothing else changes the game meanwhile
        (the room's lock is held). When the action ends the match, the status
        is committed after it: a restart in between finds the match over and
        finishes the table.
        """
        game = self.game.clone()
        step = game.apply(action)
        stored = ActionData(self.actions + 1, self.game.round, seat, str(action), source)
        await self.writer.run(Store.add_action(self.code, stored))
        self.game, self.actions = game, stored.seq  # together: the version moves by one
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
        await self.writer.run(Store.set_table(self.code, round=game.round))
        self.game = game
        self._log_deal()
        self._schedule()
        self._broadcast_state(None)

    # ------------------------------------------------------------------ bots and the timer

    def _cancel(self) -> None:
        task, self._task = self._task, None
        self.deadline = None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _schedule(self) -> None:
        """After a change: let a bot play, or start the turn timer, or deal the next round."""
        self._cancel()
        if self.status != "playing":
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
            self.deadline = asyncio.get_running_loop().time() + delay
        self._task = asyncio.create_task(self._later(self.version, delay),
                                         name=f"table {self.code} v{self.version}")

    def schedule(self) -> None:
        """Resume the flow (after a restart)."""
        self._schedule()

    def stop(self) -> None:
        self._cancel()

    async def _later(self, version: int, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            async with self.lock:
                if self.version != version or self.status != "playing":
                    return
                self._task = None  # from here on, nothing cancels this step
                self.deadline = None
                game = self.game
                if game.over:
                    await self._deal()
                    return
                seat = game.to_move
                bot = self.seats[seat].bot
                source = "bot"
                if bot is None:
                    bot, source = GreedyBot(), "timer"
                view, legal = game.observe(seat), game.legal_actions()
                rng = random.Random(f"{self.seed}/bots/{version}")
                try:
                    if bot.name in _SLOW_BOTS:
                        action = await asyncio.to_thread(bot.choose, view, legal, rng)
                    else:
                        action = bot.choose(view, legal, rng)
                    if action not in legal:
                        raise ValueError(f"{bot.name} chose {action}, which is not legal")
                except Exception:  # a failing bot must not stall the table: play a safe move
                    log.exception("table %s: the %s bot failed; a safe move is played",
                                  self.code, bot.name)
                    action = GreedyBot().choose(view, legal, rng)
                await self._commit(seat, action, source)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot or timer move failed", self.code)

