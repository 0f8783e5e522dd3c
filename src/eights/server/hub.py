"""The tables of a server: creating, finding, restoring, and the per-address bounds.

On PostgreSQL several processes serve one database, each running the open tables whose
lease it holds (:mod:`eights.server.leases`): a request for a table this process does not
run takes its lease (asking the process that holds it to hand it over), and a sweep adopts
the tables whose process died. The lobby and the open-table counts come from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import re
import secrets
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from eights.engine.errors import EightsError, RulesError
from eights.engine.record import record_of
from eights.engine.rules import preset_names
from eights.server.house import CAPS, CARD_CAPS, table_rules_of
from eights.server.leases import LeaseLost, Leases
from eights.server.limits import Limits, TokenBucket
from eights.server.protocol import CreateTable, ErrorCode, ProtocolError
from eights.server.room import Room, bot_name, hash_token, new_token, replay_table, undo_steps
from eights.server.store import OPEN, SeatData, Store, TableData, TooMany, Writer
from eights.server.thinking import Pool, Thinker, check_bot

__all__ = ["CARD_OVERRIDES", "OVERRIDES", "Elsewhere", "Hub"]

log = logging.getLogger("eights.server")

OVERRIDES = CAPS
"""Rules fields a table's ``overrides`` may change, with this server's caps
(:data:`eights.server.house.CAPS`)."""
CARD_OVERRIDES = CARD_CAPS
"""Fields of a card table ``overrides`` may change (:data:`eights.server.house.CARD_CAPS`)."""
_CARD_KEY = re.compile(r"cards\.(?:[2-9TJQKA][cdhs]?|X)\.([a-z_]{1,20})")

_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}")
READ_BACK = 64
"""Finished tables, and records, kept in memory once read back (a match is replayed to read it)."""
_NO_LEASES = ("the server lost its connection to the database, which says which process runs "
              "which table; try again in a moment")
SWEEP = 1.0
"""Seconds between two looks (PostgreSQL) at the lease connection and at open tables no
process runs (their process died): this process adopts those it can lease."""
RECORD_BUILDS = 2
"""Records built at once (each reads a whole match and replays it in a thread): the others
wait their turn, so a flood of record requests leaves the threads to everything else."""
HANDOFF = 5.0
"""Seconds a request waits, at most, for the process running a table to hand it over (every
request its own wait, however many ask at once)."""
KEPT_FOR = 1.0
"""Seconds a process answers a table's requests ``unavailable`` at once, without asking again,
after the process running the table said it keeps it (people are connected to it there)."""
LOBBY_FOR = 1.0
"""Seconds the lobby read from the database is kept (a table made or ended anywhere drops it
at once, through a ``lobby`` message)."""


class Hub:
    """Every table the server runs, and the bounds on what one address may open."""

    def __init__(self, store: Store, limits: Limits, bot_delay: float, *,
                 fixed_seeds: bool = False, bot_workers: int | None = None,
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
        """The tables this process runs (on PostgreSQL, those whose lease it holds), and the
        finished ones watched here."""
        self.leases: Leases | None = None
        """On PostgreSQL: the leases of the tables this process runs."""
        self._taking: dict[str, asyncio.Lock] = {}
        """A lock per table being leased here (one request takes it, the others wait)."""
        self._takers: Counter[str] = Counter()
        """The requests holding or waiting for each lock of :attr:`_taking`."""
        self._refusals: dict[str, asyncio.Event] = {}
        """Set when the process running a table asked for here answers that it keeps it."""
        self._kept: dict[str, float] = {}
        """Until when (loop time) a table's process is known to keep it (:data:`KEPT_FOR`)."""
        self._lobby: tuple[float, list[TableData]] | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self.connections: Counter[str] = Counter()
        self._read_back: OrderedDict[str, Room] = OrderedDict()
        """Finished tables read back from the database, the last used last."""
        self._records: OrderedDict[str, dict[str, Any]] = OrderedDict()
        """Records of finished or closed tables (they never change), the last used last."""
        self._requests: dict[str, TokenBucket] = {}
        self._record_requests: dict[str, TokenBucket] = {}
        self._building: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """Records being built, by table code (concurrent requests share one)."""
        self._record_builds = asyncio.Semaphore(RECORD_BUILDS)

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Claim the database (a SQLite file serves one process), migrate the schema, and
        run the open tables: on SQLite, every one, rebuilt by replaying its actions; on
        PostgreSQL, those no other process runs (the sweep, every :data:`SWEEP` seconds,
        adopts them). A waiting table restored starts its wait again, and the waiting tables
        nobody comes back to are closed."""
        self.store.claim()
        try:
            self.store.migrate()
        except BaseException:
            self.store.close()  # let go of the claim: nothing runs here
            raise
        self.writer.start()
        loop = self._loop = asyncio.get_running_loop()
        self.leases = self.store.leases
        if self.leases is None:
            restored = self.store.load_open()
        else:  # the tables no other process runs, leased now
            self.leases.listen(self._heard)
            free = self.store.open_codes(unleased=True)
            restored = [d for d in (self._take_over(c) for c in free if self.leases.take(c))
                        if d is not None and d.status in OPEN]
            for code in set(free) & self.leases.mine - {d.code for d in restored}:
                self.leases.give_up(code)  # ended meanwhile
            self._tasks.append(loop.create_task(self._sweep(), name="tables adopted"))
            self._tasks.append(loop.create_task(self._alive(), name="leases kept"))
        for data in restored:
            if self.leases is not None:
                self.leases.tick()  # restoring is life: the leases are kept meanwhile
            room = self._restored(data)
            if room is not None:
                self._run(room)
            elif self.leases is not None:
                self.leases.give_up(data.code)
        log.info("%d open tables restored", len(self.rooms))
        self._tasks.append(loop.create_task(self._expire_waiting(),
                                            name="waiting tables expire"))

    def _take_over(self, code: str) -> TableData | None:
        """Start-up: a table just leased, read once its former owner's writes are done (the
        event loop waits meanwhile: the leases are kept)."""
        assert self.leases is not None
        self.leases.tick()
        return self.store.load(code, take_over=True)

    async def _alive(self) -> None:
        """Tell the leases the event loop runs (:meth:`Leases.tick`): a process whose loop
        hangs lets them lapse, and the other processes adopt its tables."""
        assert self.leases is not None
        while True:
            self.leases.tick()
            await asyncio.sleep(0.5)

    def _restored(self, data: TableData) -> Room | None:
        """The room of a stored open table (``None`` when it cannot run: it is logged, or
        its match turns out over and it is finished)."""
        low, high = self.limits.turn_timer
        if data.turn_timer is not None and not low <= data.turn_timer <= high:
            # Stored before the timer had bounds: a short one would let the table play itself.
            data.turn_timer = min(max(data.turn_timer, low), high)
        try:
            room = self._room(data)
        except (EightsError, ValueError) as exc:
            log.error("table %s cannot be restored: %s", data.code, exc)
            return None
        if room.status == "playing" and room.game.match_over:
            room.status = "finished"
            self.store.run(Store.set_table(room.code, status="finished"))
            return None
        return room

    def _run(self, room: Room) -> None:
        self.rooms[room.code] = room
        room.schedule()

    # ------------------------------------------------------------------ leases (PostgreSQL)

    def _heard(self, op: str, code: str | None) -> None:
        """A message from a server process (in the listening thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._act_on, op, code)

    def _act_on(self, op: str, code: str | None) -> None:
        if op == "lobby":
            self._lobby = None
        elif op == "release" and code is not None:
            room = self.rooms.get(code)
            if room is not None and self.leases is not None and code in self.leases.mine:
                loop = asyncio.get_running_loop()
                if room.conns:  # its people are here: a request elsewhere does not move it
                    self._tasks.append(loop.create_task(self._tell("keep", code)))
                else:
                    self._tasks.append(loop.create_task(self._hand_over(room),
                                                        name=f"table {code} handed over"))
        elif op == "keep" and code is not None:
            now = asyncio.get_running_loop().time()
            if len(self._kept) > 10_000:
                self._kept = {c: t for c, t in self._kept.items() if t > now}
            self._kept[code] = now + KEPT_FOR
            refused = self._refusals.get(code)
            if refused is not None:
                refused.set()

    async def _hand_over(self, room: Room) -> None:
        """Stop running ``room`` and give up its lease, once its current step is stored, if
        nobody is connected to it here (else say it is kept)."""
        async with room.lock:
            if room.conns:
                await self._tell("keep", room.code)
                return
            room.leave_to_another()
        await self._let_go(room)
        log.info("table %s: handed over to another server process", room.code)

    def _lost(self, room: Room) -> None:
        """Another process changed ``room`` (:attr:`Room.on_lost`): let it go."""
        self._tasks.append(asyncio.get_running_loop().create_task(self._let_go(room)))

    async def _let_go(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        if self.leases is not None:
            await asyncio.to_thread(self.leases.give_up, room.code)

    async def _sweep(self) -> None:
        """Every :data:`SWEEP` seconds: check the lease connection (lost, the tables run here
        wait until they are leased again, :meth:`_regain`), then adopt the open tables
        nobody runs."""
        assert self.leases is not None
        leases = self.leases
        seen: set[str] = set()
        while True:
            try:
                await asyncio.to_thread(leases.check)
                for room in [r for r in self.rooms.values() if r.open and not r.held()]:
                    await self._regain(room)
                unleased = await asyncio.to_thread(self.store.open_codes, unleased=True)
                # Adopted when seen unleased twice, a sweep apart: a process whose lease
                # connection broke has seen it by then and stopped moving its tables.
                orphans = [code for code in unleased if code in seen]
                seen = set(unleased)
                random.shuffle(orphans)  # processes sweeping together share them out
                for code in orphans:
                    await self._lease(code, hand_off=False)
                self._tasks = [t for t in self._tasks if not t.done()]
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("adopting the tables nobody runs failed (again in %g s): %s",
                            SWEEP, str(exc).splitlines()[0] if str(exc) else repr(exc))
            await asyncio.sleep(SWEEP)

    async def _regain(self, room: Room) -> None:
        """Lease again a table run here whose lease went with the lease connection: it goes
        on if the database still holds what this process has of it; else it is read again
        (another process changed it meanwhile) or let go (another process runs it now)."""
        assert self.leases is not None
        async with self._table_lock(room.code):
            await self._regain_locked(room)

    @contextlib.asynccontextmanager
    async def _table_lock(self, code: str, deadline: float | None = None
                          ) -> AsyncIterator[None]:
        """Hold the lock of table ``code`` (while it is leased or leased again here); waiting
        for it until ``deadline`` (loop time) at most: past it, :class:`TimeoutError`."""
        lock = self._taking.setdefault(code, asyncio.Lock())
        self._takers[code] += 1
        try:
            if deadline is None:
                await lock.acquire()
            else:
                async with asyncio.timeout_at(deadline):
                    await lock.acquire()
            try:
                yield
            finally:
                lock.release()
        finally:
            self._takers[code] -= 1
            if self._takers[code] <= 0:
                del self._takers[code]
                self._taking.pop(code, None)

    async def _regain_locked(self, room: Room) -> None:
        assert self.leases is not None
        code = room.code
        if self.rooms.get(code) is not room:
            return
        try:
            got = await asyncio.to_thread(self.leases.take, code)
        except Exception as exc:  # the database is still away: try at the next sweep
            if room.stalled is None:
                room.stalled = asyncio.get_running_loop().time()
            log.warning("table %s: cannot lease it again yet: %s", code, exc)
            return
        async with room.lock:  # no step of it is under way: the database is comparable
            try:
                if got:  # its own step whose commit got no answer may be stored: apply it
                    await room.settle()
                data = (await asyncio.to_thread(functools.partial(self.store.load, code,
                                                                  take_over=True))
                        if got else None)
            except Exception as exc:  # let go, so that the next sweep comes back to it
                log.warning("table %s: cannot read it again yet: %s", code, exc)
                await asyncio.to_thread(self.leases.give_up, code)
                return
            if room.gone:  # another process stored a step at its number (Room._lost)
                return
            if data is not None and _same(room, data):
                log.info("table %s: leased again, unchanged", code)
                room.resume()
                return
            room.leave_to_another()
        del self.rooms[code]
        if data is None:
            log.warning("table %s: another server process runs it now", code)
            return
        log.warning("table %s: changed meanwhile by another server process; read again",
                    code)
        fresh = None
        if data.status in OPEN:
            fresh = await asyncio.to_thread(self._restored, data)
        if fresh is None:
            await asyncio.to_thread(self.leases.give_up, code)
        else:
            self._run(fresh)

    async def _lease(self, code: str, *, hand_off: bool,
                     deadline: float | None = None) -> Room | None:
        """Run the open table ``code`` here: take its lease (``hand_off``: asking the process
        that holds it to let go, until ``deadline``, loop time, at most :data:`HANDOFF`
        seconds from now), read it from the database and replay it. ``None`` when it is not
        open (or, without ``hand_off``, leased elsewhere)."""
        assert self.leases is not None
        leases = self.leases
        if hand_off and deadline is None:
            deadline = asyncio.get_running_loop().time() + HANDOFF
        try:
            async with self._table_lock(code, deadline if hand_off else None):
                room = self.rooms.get(code)
                if room is not None and room.open:
                    return room
                if not await asyncio.to_thread(leases.take, code):
                    if not hand_off:
                        return None
                    assert deadline is not None
                    await self._ask_for(code, deadline)
                try:
                    data = await asyncio.to_thread(functools.partial(self.store.load, code,
                                                                     take_over=True))
                    room = None
                    if data is not None and data.status in OPEN:
                        room = await asyncio.to_thread(self._restored, data)  # off the loop
                except BaseException:
                    await asyncio.to_thread(leases.give_up, code)
                    raise
                if room is None:
                    await asyncio.to_thread(leases.give_up, code)
                    return None
                self._run(room)
                return room
        except TimeoutError:  # other requests for it held the lock until this one's deadline
            raise ProtocolError(ErrorCode.UNAVAILABLE, _not_handed(code)) from None

    async def _ask_for(self, code: str, deadline: float) -> None:
        """Ask the process that runs ``code`` to hand it over, and take its lease then; it does
        when nobody is connected to the table there, and else answers that it keeps it:
        ``unavailable`` at once (and for :data:`KEPT_FOR` seconds without asking again), as
        when ``deadline`` passes."""
        assert self.leases is not None
        loop = asyncio.get_running_loop()
        if self._kept.get(code, 0.0) > loop.time():
            raise ProtocolError(ErrorCode.UNAVAILABLE, _kept(code))
        refused = self._refusals[code] = asyncio.Event()
        try:
            asked = 0.0
            while loop.time() < deadline:
                if loop.time() >= asked + 1.0:  # again each second: a message may be missed
                    await asyncio.to_thread(self.leases.notify, "release", code)
                    asked = loop.time()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(refused.wait(), min(0.05, max(0.0, deadline
                                                                         - loop.time())))
                if refused.is_set():
                    raise ProtocolError(ErrorCode.UNAVAILABLE, _kept(code))
                if await asyncio.to_thread(self.leases.take, code):
                    return
        finally:
            if self._refusals.get(code) is refused:
                del self._refusals[code]
        raise ProtocolError(ErrorCode.UNAVAILABLE, _not_handed(code))

    def _changed(self) -> None:
        """A table was made, finished or closed: the lobbies of every process are stale."""
        self._lobby = None
        if self.leases is not None:
            task = asyncio.get_running_loop().create_task(self._tell("lobby"))
            self._tasks.append(task)

    async def _tell(self, op: str, code: str | None = None) -> None:
        assert self.leases is not None
        try:
            await asyncio.to_thread(self.leases.notify, op, code)
        except Exception as exc:  # the others read the lobby again within LOBBY_FOR anyway
            log.warning("telling the other server processes failed: %s", exc)

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
        for task in self._tasks:
            task.cancel()
        for room in self.rooms.values():
            room.stop()
            for conn in room.conns:
                conn.close(1012, "the server is restarting; reconnect in a moment")
        self.thinker.close()
        await asyncio.to_thread(self.writer.stop)  # what is queued is stored, then
        await asyncio.to_thread(self.store.close)  # the leases go: others may adopt the tables

    def health(self) -> dict[str, Any]:
        """``/api/health``: ``degraded`` while a table cannot store its next step (the
        database fails or does not answer; the table tries again by itself)."""
        open_rooms = [r for r in self.rooms.values() if r.open]
        stalled = [r.stalled for r in open_rooms if r.stalled is not None]
        now = asyncio.get_running_loop().time()
        return {"ok": not stalled, "status": "degraded" if stalled else "ok",
                "tables": len(open_rooms), "stalled": len(stalled),
                "stalled_seconds": round(now - min(stalled), 1) if stalled else 0.0,
                "bots": self.thinker.health()}

    def _room(self, data: TableData) -> Room:
        room = Room(data, writer=self.writer, limits=self.limits, bot_delay=self.bot_delay,
                    on_done=self._done, thinker=self.thinker)
        room.spawn = self._spawn
        room.on_lost = self._lost
        leases = self.store.leases
        if leases is not None:  # a finished table is never changed by bots: no lease
            room.held = lambda: not room.open or (room.code in leases.mine and leases.live())
        return room

    async def _spawn(self, data: TableData, address: str) -> Room:
        """Store and open a table made by a room (a rematch), counted for ``address``."""
        total, _mine = await asyncio.to_thread(self.store.count_open, address)
        if total >= self.limits.tables:
            raise ProtocolError(ErrorCode.TOO_MANY, "the server holds its maximum of open tables; "
                                "try again later")
        data.creator = address
        return await self._open(data, per_creator=False)

    async def _open(self, data: TableData, *, per_creator: bool = True) -> Room:
        """Store a new table and run it here (on PostgreSQL, its lease taken first, so that
        no sweep adopts it in between), if the server's open tables, and (``per_creator``)
        its creator's, are below their bounds: checked in the transaction that stores it
        (:meth:`Store.add_table`), so a burst of creations never passes them."""
        try:
            if self.leases is not None and not await asyncio.to_thread(self.leases.take,
                                                                       data.code):
                raise ProtocolError(ErrorCode.INTERNAL, "a new table's code is taken; try again")
        except LeaseLost:
            raise ProtocolError(ErrorCode.UNAVAILABLE, _NO_LEASES) from None
        try:
            await self.writer.run(Store.add_table(
                data, tables=self.limits.tables,
                per_creator=self.limits.tables_per_address if per_creator else None))
        except BaseException as exc:
            if self.leases is not None:
                await asyncio.to_thread(self.leases.give_up, data.code)
            if isinstance(exc, TooMany):
                raise ProtocolError(ErrorCode.TOO_MANY, str(exc)) from None
            raise
        room = self._room(data)
        self.rooms[data.code] = room
        self._changed()
        return room

    def _done(self, room: Room) -> None:
        """A table finished or closed: it no longer counts for its creator, and (on
        PostgreSQL) its lease goes (nothing changes it any more)."""
        if not room.conns:
            self.rooms.pop(room.code, None)
        if self.leases is not None and room.code in self.leases.mine:
            self._tasks.append(asyncio.get_running_loop().create_task(
                asyncio.to_thread(self.leases.give_up, room.code)))
            self._changed()

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

    @staticmethod
    def _overrides(req: CreateTable) -> dict[str, Any]:
        """The overrides of a table made from a preset (``target`` and ``rounds`` among
        them), each a field a table may change, within this server's caps."""
        overrides: dict[str, Any] = {}
        for key, value in req.overrides.items():
            card = _CARD_KEY.fullmatch(key)
            if key not in OVERRIDES and not (card and card[1] in CARD_OVERRIDES):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"the rules field {key!r} cannot be "
                                    f"changed here; fields are {', '.join(sorted(OVERRIDES))}, "
                                    f"and cards.<rank or card>.<field> for the fields "
                                    f"{', '.join(sorted(CARD_OVERRIDES))} (every field, lists "
                                    "included, in a rules object)")
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
        return overrides

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
        total, mine = await asyncio.to_thread(self.store.count_open, address)
        if total >= self.limits.tables:
            raise ProtocolError(ErrorCode.TOO_MANY, "the server holds its maximum of open tables; "
                                "try again later")
        if mine >= self.limits.tables_per_address:
            raise ProtocolError(ErrorCode.TOO_MANY, f"at most {self.limits.tables_per_address} open "
                                "tables from one address; close one first")
        presets = preset_names()
        if isinstance(req.rules, str) and req.rules not in presets:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown rules {req.rules!r}; presets are "
                                f"{', '.join(presets)}, or send a rules object (the keys of a "
                                "rules file)")
        if req.seed is not None and not self.fixed_seeds:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "'seed' is refused: this server deals "
                                "every table from its own secure randomness, so that no one "
                                "can know the hidden cards; leave 'seed' out (only a server "
                                "started for tests, with fixed seeds allowed, takes it)")
        self._check_timer(req.turn_timer)
        house: dict[str, Any] | None = None
        overrides: dict[str, Any] = {}
        if isinstance(req.rules, str):
            preset = req.rules
            overrides = self._overrides(req)
        else:  # a rules object: checked as a rules file is (server/house.py)
            if req.overrides:
                raise ProtocolError(ErrorCode.BAD_REQUEST, "'overrides' goes with a preset name; "
                                    "with a rules object, put the fields in the object")
            house = dict(req.rules)
            if req.target is not None:
                house["target"] = req.target
            if req.rounds is not None:
                house["rounds"] = req.rounds
            parent = house.get("extends")
            preset = parent if isinstance(parent, str) and parent in presets else "custom"
        try:
            rules = table_rules_of(preset, overrides, house)
            players = rules.default_players if req.players is None else req.players
            rules.check_players(players)
        except RulesError as exc:
            raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
        self._check_bounded(preset if house is None else "inline rules", rules.target,
                            rules.rounds)
        seats = [SeatData(i) for i in range(players)]
        for key, spec in req.bots.items():
            seat = int(key) if key.isascii() and key.isdecimal() and key == str(int(key)) else -1
            if not 0 <= seat < players:
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot seat {key!r} does not exist; "
                                    f"seats are 0 to {players - 1}")
            # Off the event loop: a learned bot's check reads the model the server ships.
            await asyncio.to_thread(check_bot, spec, self.limits.bot_seconds, rules, players)
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
        data = TableData(code=code, rules=preset, overrides=overrides, house=house, players=players,
                         seed=secrets.randbits(63) if req.seed is None else req.seed,
                         dealer=players - 1,  # seat 0 plays first
                         status="waiting", host_hash=hash_token(host_token), seats=seats,
                         title=req.title, public=req.public, turn_timer=req.turn_timer,
                         creator=address)
        room = await self._open(data)
        answer.update(code=code, invite=f"/t/{code}", host_link=f"/t/{code}#host={host_token}",
                      table=room.info())
        return answer

    def runs(self, code: str) -> bool:
        """Whether this process runs the open table ``code`` now (on PostgreSQL: holds its
        lease)."""
        room = self.rooms.get(code)
        return room is not None and room.open and room.held()

    async def look(self, code: str) -> Room | Elsewhere:
        """A table to describe (``GET /api/tables/CODE`` and its rules): as :meth:`get`, but
        an open table another process runs (PostgreSQL) is read from the database, and never
        taken from its process: a request for it does not move it."""
        room = self.rooms.get(code)
        if (self.leases is not None and _CODE.fullmatch(code)
                and (room is None or not room.open)):
            data = await asyncio.to_thread(self.store.summary, code)
            if data is not None and data.status in OPEN:
                room = self.rooms.get(code)
                if room is None or not room.open:  # not run here meanwhile
                    return Elsewhere(data)
        return await self.get(code, keep=False)

    async def get(self, code: str, *, keep: bool = True) -> Room:
        """A table to join or watch: an open one, or a finished one read back from the database.

        On PostgreSQL an open table another process runs is taken over (its lease): at once
        when no process holds it, else when the process running it lets it go because nobody
        is connected to it there (:meth:`_ask_for`); else ``unavailable``.

        A finished table read back is kept while someone watches it (``keep``);
        :meth:`Room.leave` lets it go with the last connection. The last few read
        back are kept too (:data:`READ_BACK`), so asking again does not replay them.
        """
        deadline = asyncio.get_running_loop().time() + HANDOFF
        room = self.rooms.get(code) or self._read_back.get(code)
        if room is not None and self.leases is not None and room.open and not room.held():
            # Its lease went with the lease connection: what this process has of it may be
            # behind what another process made of it since, so it is never shown as it is.
            await self._regain(room)
            room = self.rooms.get(code)
            if room is not None and not room.held():
                raise ProtocolError(ErrorCode.UNAVAILABLE, _NO_LEASES)
        if room is None and self.leases is not None and _CODE.fullmatch(code):
            try:
                room = await self._lease(code, hand_off=True, deadline=deadline)
            except LeaseLost:
                raise ProtocolError(ErrorCode.UNAVAILABLE, _NO_LEASES) from None
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

    async def lobby(self) -> list[dict[str, Any]]:
        """Public tables waiting for players or being played (at most 200, the oldest first).

        On PostgreSQL, those of every process: read from the database (kept
        :data:`LOBBY_FOR` seconds), with the live description of those run here. A table
        run by another process shows no one connected (its connections are there).
        """
        if self.leases is None:
            return [r.info() for r in self.rooms.values() if r.public and r.open][:200]
        loop = asyncio.get_running_loop()
        if self._lobby is None or loop.time() - self._lobby[0] > LOBBY_FOR:
            self._lobby = (loop.time(), await asyncio.to_thread(self.store.lobby, 200))
        tables = []
        for data in self._lobby[1]:
            room = self.rooms.get(data.code)
            tables.append(room.info() if room is not None and room.open else _listed(data))
        return tables

    async def record(self, code: str, address: str) -> dict[str, Any]:
        """The ``eights-record/1`` of a finished or closed table, asked for from ``address``.

        At most :attr:`Limits.records_per_second` requests per address (``rate_limited``).
        An open table's is refused from its status alone, before its log is read; a record is
        built (the match read and replayed) for one request at a time per table, at most
        :data:`RECORD_BUILDS` at once, then kept (:data:`READ_BACK` of them)."""
        bucket = self._record_requests.get(address)
        if bucket is None:
            if len(self._record_requests) > 10_000:
                self._record_requests = {a: b for a, b in self._record_requests.items()
                                         if not b.full}
            bucket = self._record_requests[address] = TokenBucket(
                self.limits.records_per_second, self.limits.record_burst)
        if not bucket.take():
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"too many record requests from your "
                                f"address: {self.limits.records_per_second:g} a second (bursts "
                                f"of {self.limits.record_burst}); wait a few seconds")
        record = self._records.get(code)
        if record is not None:
            _remember(self._records, code, record)
            return record
        status = await asyncio.to_thread(self.store.status, code) if _CODE.fullmatch(code) else None
        if status is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, f"there is no table {code[:32]!r}")
        if status in OPEN:
            raise ProtocolError(ErrorCode.WRONG_STATUS, "the record shows every hand and the order of "
                                "the stock, so it is given once the match is over or the table is "
                                "closed")
        building = self._building.get(code)
        if building is None:
            building = self._building[code] = asyncio.ensure_future(self._build_record(code))
            building.add_done_callback(lambda _: self._building.pop(code, None))
        return await asyncio.shield(building)

    async def _build_record(self, code: str) -> dict[str, Any]:
        async with self._record_builds:
            data = await asyncio.to_thread(self.store.load, code)
            if data is None:  # pragma: no cover - a table is never deleted
                raise ProtocolError(ErrorCode.NOT_FOUND, f"there is no table {code[:32]!r}")
            if data.status in OPEN:  # pragma: no cover - a table never opens again
                raise ProtocolError(ErrorCode.WRONG_STATUS, "the match is not over")
            record = await asyncio.to_thread(_record, data)  # off the event loop
        _remember(self._records, code, record)
        return record


class Elsewhere:
    """An open table run by another process, as the database holds it (:meth:`Hub.look`)."""

    def __init__(self, data: TableData) -> None:
        self.data = data
        self.code = data.code
        self.preset = data.rules
        self.overrides = data.overrides
        self.house = data.house
        self.rules = table_rules_of(data.rules, data.overrides, data.house)

    def info(self) -> dict[str, Any]:
        """As :meth:`Room.info` (nobody shown connected: its connections are elsewhere)."""
        return _listed(self.data)


def _not_handed(code: str) -> str:
    return (f"table {code} is run by another server process that did not hand it over within "
            f"{HANDOFF:g} s; try again in a moment")


def _kept(code: str) -> str:
    return (f"table {code} is run by another server process, where people are connected to "
            "it; try again in a moment (through the proxy, which sends you there)")


def _record(data: TableData) -> dict[str, Any]:
    """The ``eights-record/1`` of a stored table, replayed."""
    seats = [{"name": s.name, "player": s.bot or "human"} for s in data.seats]
    meta = {"table": data.code, "title": data.title, "seats": seats}
    meta.update((k, data.meta[k]) for k in ("hints", "undos") if data.meta.get(k))
    return record_of(replay_table(data), meta=meta).to_json()


def _same(room: Room, data: TableData) -> bool:
    """Whether the stored table ``data`` is what ``room`` holds (its steps, status and seats)."""
    seats = [(s.name, s.bot, s.token_hash) for s in sorted(data.seats, key=lambda s: s.seat)]
    return (len(data.actions) == room.actions and data.round == room.game.round
            and data.status == room.status
            and seats == [(s.name, s.bot_spec, s.token_hash) for s in room.seats])


def _listed(data: TableData) -> dict[str, Any]:
    """The lobby's description of a table another process runs (as :meth:`Room.info`, read
    from the database: :meth:`Store.lobby`)."""
    seats = [{"seat": x.seat, "name": x.name,
              "kind": "bot" if x.bot else "person" if x.token_hash else "free", "bot": x.bot,
              "connected": False} for x in data.seats]
    return {"code": data.code, "title": data.title, "rules": data.rules,
            "rules_title": _rules_title(data.rules, json.dumps(data.overrides, sort_keys=True),
                                        json.dumps(data.house, sort_keys=True)),
            "overrides": data.overrides,
            "house_rules": data.house is not None or bool(data.overrides),
            "practice": [x.bot is None and x.token_hash is not None for x in data.seats].count(True)
            == 1 and all(x.bot or x.token_hash for x in data.seats),
            "players": data.players, "status": data.status,
            "round": data.round, "version": (data.turn_version or 0) + data.round - 1 + undo_steps(data.meta),
            "public": data.public, "turn_timer": data.turn_timer, "seats": seats,
            "spectators": 0, "rematch": None}


@functools.lru_cache(maxsize=256)
def _rules_title(preset: str, overrides: str, house: str) -> str:
    try:
        return table_rules_of(preset, json.loads(overrides), json.loads(house)).title
    except (EightsError, ValueError):
        return preset


def _remember(cache: OrderedDict[str, Any], code: str, value: Any) -> None:
    """Keep ``value`` among the :data:`READ_BACK` last used."""
    cache[code] = value
    cache.move_to_end(code)
    while len(cache) > READ_BACK:
        cache.popitem(last=False)

