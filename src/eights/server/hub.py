"""The tables of a server: creating, finding, restoring, and the per-address bounds."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections import Counter, OrderedDict
from typing import Any

from eights.engine.errors import EightsError, RulesError
from eights.engine.record import record_of
from eights.engine.rules import load_rules, preset_names
from eights.server.limits import Limits, TokenBucket
from eights.server.protocol import CreateTable, ErrorCode, ProtocolError
from eights.server.room import Room, bot_name, hash_token, new_token, replay_table
from eights.server.store import OPEN, SeatData, Store, TableData, Writer
from eights.server.thinking import Pool, Thinker, check_bot

__all__ = ["CARD_OVERRIDES", "OVERRIDES", "Hub"]

log = logging.getLogger("eights.server")

OVERRIDES: dict[str, int | None] = {
    "target": None, "rounds": None, "jokers": 4, "decks": 3, "hand_size": 12,
    "hand_limit": 60, "max_draws": 60, "announce_penalty": 10,
    "announce_last_card": None, "voluntary_draw": None, "voluntary_pass": None,
    "special_cards": None, "reshuffle": None, "starter_effects": None, "starter_wild_any": None,
    "replace_after_play": None, "overflow": None, "draw": None, "scoring": None,
    "blocked_scoring": None, "starter_wild": None, "reverse_two": None,
    "forced_draw_ends_turn": None, "serve_last_draw": None, "out_penalty": 10, "call_out": None,
    "call_out_penalty": 10, "multi_play": None, "play_on": None,
}
"""Rules fields a table may change. The rules check every value (one source of truth for
what a rule allows); a number here is this server's own cap on top of them (it bounds the
cards in play, so the work of every move), ``None`` for no cap."""

CARD_OVERRIDES: dict[str, int | None] = {
    "wild": None, "name_suit": None, "skip": None, "reverse": None, "draw": 10, "stack": None,
    "again": None, "again_penalty": 10, "pass_on": None, "must_cover": None, "going_out": None,
    "out_multiplier": 4, "any_follows": None,
}
"""Fields of a card table a table may change, as ``cards.<rank or card>.<field>``
(``cards.8.pass_on``, ``cards.Jc.draw``): the toggles of the family's Decisions (MM5, BJ2,
TS6, LC5, SW10...). Lists (``stack_with``, ``cancelled_by``) are not values a table sends."""
_CARD_KEY = re.compile(r"cards\.(?:[2-9TJQKA][cdhs]?|X)\.([a-z_]{1,20})")

_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")
READ_BACK = 64
"""Finished tables, and records, kept in memory once read back (a match is replayed to read it)."""


class Hub:
    """Every table the server runs, and the bounds on what one address may open."""

    def __init__(self, store: Store, limits: Limits, bot_delay: float, *,
                 fixed_seeds: bool = False, bot_workers: int = 1,
                 bot_pool: Pool = "processes") -> None:
        self.store = store
        self.fixed_seeds = fixed_seeds
        """Accept a ``seed`` when a table is created (for tests only: whoever knows the
        seed knows every hand and the stock)."""
        self.writer = Writer(store)
        self.limits = limits
        self.bot_delay = bot_delay
        self.thinker = Thinker(workers=bot_workers, wait=limits.bot_wait, pool=bot_pool)
        """Where bots other than the quick ones think (a pool of their own)."""
        self.rooms: dict[str, Room] = {}
        self.owners: dict[str, str] = {}
        """Open table code -> the address that created it."""
        self.connections: Counter[str] = Counter()
        self._read_back: OrderedDict[str, Room] = OrderedDict()
        """Finished tables read back from the database, the last used last."""
        self._records: OrderedDict[str, dict[str, Any]] = OrderedDict()
        """Records of finished or closed tables (they never change), the last used last."""
        self._requests: dict[str, TokenBucket] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Claim the database (one process serves it), migrate the schema, rebuild every
        open table by replaying its actions, and start closing the waiting tables nobody
        comes back to (a waiting table restored starts its wait again)."""
        self.store.claim()
        try:
            self.store.migrate()
        except BaseException:
            self.store.close()  # let go of the claim: nothing runs here
            raise
        self.writer.start()
        low, high = self.limits.turn_timer
        for data in self.store.load_open():
            if data.turn_timer is not None and not low <= data.turn_timer <= high:
                # Stored before the timer had bounds: a short one would let the table play itself.
                data.turn_timer = min(max(data.turn_timer, low), high)
            try:
                room = self._room(data)
            except (EightsError, ValueError) as exc:
                log.error("table %s cannot be restored: %s", data.code, exc)
                continue
            if room.status == "playing" and room.game.match_over:
                room.status = "finished"
                self.store.run(Store.set_table(room.code, status="finished"))
                continue
            self.rooms[room.code] = room
            room.schedule()
        log.info("%d open tables restored", len(self.rooms))
        self._sweeper = asyncio.get_running_loop().create_task(self._expire_waiting(),
                                                                name="waiting tables expire")

    async def _expire_waiting(self) -> None:
        """Close the waiting tables nobody came back to (:attr:`Limits.waiting_idle`)."""
        idle = self.limits.waiting_idle
        while True:
            await asyncio.sleep(min(60.0, idle / 4))
            for room in [r for r in self.rooms.values() if r.status == "waiting"]:
                try:
                    await room.expire(idle)
                except Exception:  # the database: try again at the next sweep
                    log.exception("table %s: closing it after its wait failed", room.code)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            room.stop()
            for conn in room.conns:
                conn.close(1012, "the server is restarting; reconnect in a moment")
        self.thinker.close()
        await asyncio.to_thread(self.writer.stop)
        self.store.close()

    def health(self) -> dict[str, Any]:
        """``/api/health``: ``degraded`` while a table cannot store its next step (the
        database fails or does not answer; the table tries again by itself)."""
        open_rooms = [r for r in self.rooms.values() if r.open]
        stalled = [r.stalled for r in open_rooms if r.stalled is not None]
        now = asyncio.get_running_loop().time()
        return {"ok": not stalled, "status": "degraded" if stalled else "ok",
                "tables": len(open_rooms), "stalled": len(stalled),
                "stalled_seconds": round(now - min(stalled), 1) if stalled else 0.0}

    def _room(self, data: TableData) -> Room:
        room = Room(data, writer=self.writer, limits=self.limits, bot_delay=self.bot_delay,
                    on_done=self._done, thinker=self.thinker)
        room.spawn = self._spawn
        return room

    async def _spawn(self, data: TableData, address: str) -> Room:
        """Store and open a table made by a room (a rematch), counted for ``address``."""
        if sum(1 for r in self.rooms.values() if r.open) >= self.limits.tables:
            raise ProtocolError(ErrorCode.TOO_MANY, "the server holds its maximum of open tables; "
                                "try again later")
        await self.writer.run(Store.add_table(data))
        room = self._room(data)
        self.rooms[data.code] = room
        self.owners[data.code] = address
        return room

    def _done(self, room: Room) -> None:
        """A table finished or closed: it no longer counts for its creator."""
        self.owners.pop(room.code, None)
        if not room.conns:
            self.rooms.pop(room.code, None)

    # ------------------------------------------------------------------ bounds

    def check_rate(self, address: str) -> None:
        """HTTP requests that create or join tables, per address."""
        bucket = self._requests.get(address)
        if bucket is None:
            if len(self._requests) > 10_000:
                self._requests = {a: b for a, b in self._requests.items() if not b.full}
            bucket = self._requests[address] = TokenBucket(self.limits.requests_per_second,
                                                           self.limits.request_burst)
        if not bucket.take():
            raise ProtocolError(ErrorCode.RATE_LIMITED, "too many requests from your address; "
                                "wait a few seconds")

    def _check_timer(self, seconds: float | None) -> None:
        low, high = self.limits.turn_timer
        if seconds is not None and not low <= seconds <= high:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"turn_timer must be {low:g} to {high:g} "
                                f"seconds, or null for no timer; got {seconds:g}")

    def _check_bounded(self, preset: str, target: int, rounds: int) -> None:
        """Every match ends: it has a target score or a number of rounds, and at most
        :attr:`Limits.rounds` rounds."""
        most = self.limits.rounds
        if rounds > most:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"rounds must be 1 to {most} on this "
                                f"server (or 0 for no limit, with a target score); got {rounds}")
        if target <= 0 and rounds <= 0:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"preset {preset!r} with target 0 (no "
                                "target score) and no round limit would never end: give a "
                                f"target above 0, or rounds from 1 to {most}")

    def admit(self, address: str) -> None:
        """Count one more connection from ``address`` (or refuse it)."""
        if sum(self.connections.values()) >= self.limits.connections:
            raise ProtocolError(ErrorCode.TOO_MANY, "the server is full; try again later")
        if self.connections[address] >= self.limits.connections_per_address:
            raise ProtocolError(ErrorCode.TOO_MANY, f"at most {self.limits.connections_per_address} "
                                "connections from one address; close some first")
        self.connections[address] += 1

    def release(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]

    # ------------------------------------------------------------------ tables

    async def create(self, req: CreateTable, address: str) -> dict[str, Any]:
        """A new table; the answer holds the host token (and a seat token with ``name``)."""
        self.check_rate(address)
        if sum(1 for r in self.rooms.values() if r.open) >= self.limits.tables:
            raise ProtocolError(ErrorCode.TOO_MANY, "the server holds its maximum of open tables; "
                                "try again later")
        if sum(1 for a in self.owners.values() if a == address) >= self.limits.tables_per_address:
            raise ProtocolError(ErrorCode.TOO_MANY, f"at most {self.limits.tables_per_address} open "
                                "tables from one address; close one first")
        presets = preset_names()
        if req.rules not in presets:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown rules {req.rules!r}; presets are "
                                f"{', '.join(presets)}")
        if req.seed is not None and not self.fixed_seeds:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'seed' is refused: this server deals "
                                "every table from its own secure randomness, so that no one "
                                "can know the hidden cards; leave 'seed' out (only a server "
                                "started for tests, with fixed seeds allowed, takes it)")
        self._check_timer(req.turn_timer)
        overrides: dict[str, Any] = {}
        for key, value in req.overrides.items():
            card = _CARD_KEY.fullmatch(key)
            if key not in OVERRIDES and not (card and card[1] in CARD_OVERRIDES):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"the rules field {key!r} cannot be changed "
                                    f"here; fields are {', '.join(sorted(OVERRIDES))}, and "
                                    f"cards.<rank or card>.<field> for the fields "
                                    f"{', '.join(sorted(CARD_OVERRIDES))}")
            top = CARD_OVERRIDES[card[1]] if card else OVERRIDES[key]
            if top is not None and type(value) is int and value > top:  # the tighter bound first
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"preset {req.rules!r} with overrides: "
                                    f"key {key!r} has bad value {value!r}; allowed on this "
                                    f"server: at most {top}")
            overrides[key] = value
        if req.target is not None:
            overrides["target"] = req.target
        if req.rounds is not None:
            overrides["rounds"] = req.rounds
        try:
            rules = load_rules(req.rules, overrides)
            players = rules.default_players if req.players is None else req.players
            rules.check_players(players)
        except RulesError as exc:
            raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
        self._check_bounded(req.rules, rules.target, rules.rounds)
        seats = [SeatData(i) for i in range(players)]
        for key, spec in req.bots.items():
            seat = int(key) if key.isascii() and key.isdecimal() and key == str(int(key)) else -1
            if not 0 <= seat < players:
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot seat {key!r} does not exist; "
                                    f"seats are 0 to {players - 1}")
            check_bot(spec, self.limits.bot_seconds, rules, players)
            seats[seat] = SeatData(seat, None, spec)
        for taken in seats:  # the first bot is Bot 1, as in the terminal
            if taken.bot is not None:
                taken.name = bot_name(s.name for s in seats)
        host_token = new_token()
        answer: dict[str, Any] = {"host_token": host_token}
        if req.name is not None:
            free = [s for s in seats if s.bot is None]
            if not free:
                raise ProtocolError(ErrorCode.BAD_REQUEST, "every seat has a bot; leave one free "
                                    "to sit down")
            token = new_token()
            free[0].name, free[0].token_hash = req.name, hash_token(token)
            answer.update(seat=free[0].seat, token=token)
        code = secrets.token_urlsafe(9)
        while code in self.rooms:  # pragma: no cover - 72 random bits
            code = secrets.token_urlsafe(9)
        data = TableData(code=code, rules=req.rules, overrides=overrides, players=players,
                         seed=secrets.randbits(63) if req.seed is None else req.seed,
                         dealer=players - 1,  # seat 0 plays first
                         status="waiting", host_hash=hash_token(host_token), seats=seats,
                         title=req.title, public=req.public, turn_timer=req.turn_timer)
        await self.writer.run(Store.add_table(data))
        room = self._room(data)
        self.rooms[code] = room
        self.owners[code] = address
        answer.update(code=code, invite=f"/t/{code}", table=room.info())
        return answer

    async def get(self, code: str, *, keep: bool = True) -> Room:
        """A table to join or watch: an open one, or a finished one read back from the database.

        A finished table read back is kept while someone watches it (``keep``);
        :meth:`Room.leave` lets it go with the last connection. The last few read
        back are kept too (:data:`READ_BACK`), so asking again does not replay them.
        """
        room = self.rooms.get(code) or self._read_back.get(code)
        if room is None:
            data = await asyncio.to_thread(self.store.load, code) if _CODE.fullmatch(code) else None
            if data is None:
                raise ProtocolError(ErrorCode.NOT_FOUND, f"there is no table {code[:32]!r}; check "
                                    "the invite code")
            if data.status == "closed":
                raise ProtocolError(ErrorCode.WRONG_STATUS, f"table {code} is closed")
            replayed = await asyncio.to_thread(self._room, data)  # off the event loop
            # Loaded meanwhile by another request? Then that one.
            room = self.rooms.get(code) or self._read_back.get(code) or replayed
        if room.status == "closed":
            raise ProtocolError(ErrorCode.WRONG_STATUS, f"table {code} is closed")
        if keep:
            self.rooms.setdefault(code, room)
        if not room.open:
            _remember(self._read_back, code, room)
        return room

    def lobby(self) -> list[dict[str, Any]]:
        """Public tables waiting for players or being played."""
        return [r.info() for r in self.rooms.values() if r.public and r.open][:200]

    async def record(self, code: str) -> dict[str, Any]:
        """The ``eights-record/1`` of a finished or closed table."""
        data = await asyncio.to_thread(self.store.load, code) if _CODE.fullmatch(code) else None
        if data is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"there is no table {code[:32]!r}")
        if data.status in OPEN:
            raise ProtocolError(ErrorCode.WRONG_STATUS, "the record shows every hand and the order of "
                                "the stock, so it is given once the match is over or the table is "
                                "closed")
        record = self._records.get(code)
        if record is None:
            game = await asyncio.to_thread(replay_table, data)
            seats = [{"name": s.name, "player": s.bot or "human"} for s in data.seats]
            record = record_of(game, meta={"table": code, "title": data.title,
                                           "seats": seats}).to_json()
        _remember(self._records, code, record)
        return record


def _remember(cache: OrderedDict[str, Any], code: str, value: Any) -> None:
    """Keep ``value`` among the :data:`READ_BACK` last used."""
    cache[code] = value
    cache.move_to_end(code)
    while len(cache) > READ_BACK:
        cache.popitem(last=False)

