"""Which server process runs which table, when several serve one PostgreSQL database.

Each open table is run by one process at a time: the process that holds its
*lease*, a PostgreSQL session advisory lock on the process's lease connection.
The lock's key is one 64-bit number, :data:`LEASE_KEY`: the hash of the schema
and the table's code (``hashtextextended``; with 32 bits, 1,000 open tables
would share a key about once in 10,000 databases). Whoever holds the lease runs
the table's bots, its turn timer and its expiry, and sells its seats; a process
that is killed (even by ``kill -9``) loses its connection, and PostgreSQL lets
go of its locks at once: another process adopts the tables (the hub's sweep).

Processes talk through ``LISTEN``/``NOTIFY`` on one channel per schema
(:func:`channel`), a JSON payload each:

- ``{"op": "release", "code": C}``: a process was asked about table ``C`` (the
  proxy sent a player there) and asks whoever runs it to hand it over, which it does
  when nobody is connected to the table there;
- ``{"op": "keep", "code": C}``: the answer of the process running ``C`` when people are
  connected to it there: the asker answers its request ``unavailable`` at once;
- ``{"op": "lobby"}``: a table was created, finished or closed, so the lobbies
  the processes keep for a second are read again.

Nothing else crosses processes: the database holds every table, seat and action,
so no other message bus (Redis) is needed.

A lease lives as long as its session, and the session as long as the process shows
life: the lease connection sets PostgreSQL's ``idle_session_timeout`` to
:func:`lease_timeout` seconds (10 by default, ``EIGHTS_LEASE_TIMEOUT``), and a heartbeat
thread sends ``SELECT 1`` on it every :data:`HEARTBEAT` seconds, but only while the
process's event loop runs (the hub calls :meth:`Leases.tick`). A process that hangs
(stopped by SIGSTOP, its event loop blocked, its machine gone) sends nothing: PostgreSQL
ends its session, its locks go, and the other processes adopt its tables. A process that
comes back does not act on the tables meanwhile: :meth:`Leases.live` turns false as soon as
no statement was confirmed for nearly the timeout, and every write is fenced
(:func:`eights.server.store.fence`).

The lease connection and the listening connection are separate (psycopg blocks
a connection while it waits for notifications); both are opened by the function the
store gives (:meth:`eights.server.store.Store.claim`: a connection of its own, detached from
the engine's pool), so this module knows connections, not the store. Every call here
blocks: the hub calls them in threads.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

__all__ = ["HEARTBEAT", "LEASE_KEY", "Connect", "LeaseLost", "Leases", "channel",
           "lease_timeout"]

log = logging.getLogger("eights.server")

LEASE_KEY = "hashtextextended(current_schema() || '/' || %s, 0)"
"""PostgreSQL's key of the lease of a table (``%s``: its code): one 64-bit advisory lock, per
schema."""

Connect = Callable[[], Any]
"""Opens a DBAPI connection (psycopg) of its own, outside any pool: a lease's session."""

APPLICATION = "eights serve"
"""The ``application_name`` of a lease connection, followed by the server's process id: who
runs a table is in ``pg_locks`` joined with ``pg_stat_activity`` (docs/protocol.md). The
listening connection's name ends with `` listening``."""


def channel(schema: str) -> str:
    """The ``LISTEN`` channel of the servers of one schema (a channel is per database).

    >>> channel("public")
    'eights_3bb42e1d'
    """
    return f"eights_{zlib.crc32(schema.encode('utf-8')):08x}"


HEARTBEAT = 1.0
"""Seconds between two statements on the lease connection while the event loop runs."""


def lease_timeout() -> float:
    """Seconds a lease outlives the last sign of life of its process: ``EIGHTS_LEASE_TIMEOUT``
    (at least 3), else 10. A hung owner's tables move after about this long, plus the two
    sweeps of adoption (docs/protocol.md measures it)."""
    raw = os.environ.get("EIGHTS_LEASE_TIMEOUT", "").strip()
    try:
        seconds = float(raw) if raw else 10.0
    except ValueError:
        raise ValueError(f"EIGHTS_LEASE_TIMEOUT must be a number of seconds, not {raw!r}") from None
    if not seconds >= 3:
        raise ValueError(f"EIGHTS_LEASE_TIMEOUT must be 3 seconds or more, not {raw}")
    return seconds


class LeaseLost(RuntimeError):
    """The lease connection broke: this process no longer holds any lease."""


class Leases:
    """The leases this process holds, and the messages it gets from the other processes.

    ``connect`` opens each of its connections (:meth:`eights.server.store.Store.claim` gives
    one of the store's database); the hub listens (:meth:`listen`).
    """

    def __init__(self, connect: Connect) -> None:
        self.connect = connect
        self.on_message: Callable[[str, str | None], None] | None = None
        self.mine: set[str] = set()
        """The codes of the tables whose lease this process holds."""
        self._lock = threading.Lock()
        self._connection: Any = None
        """The lease connection (psycopg, autocommit): its session holds the locks."""
        self._channel: str | None = None
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.pid: int | None = None
        """The backend process id of the lease connection (the session holding the locks):
        every write of a table is stored only if that session holds its lease (the fence,
        :func:`eights.server.store.fence`)."""
        self.timeout = lease_timeout()
        """PostgreSQL ends the lease connection's session after this many idle seconds."""
        self.confirmed = -math.inf
        """When (``time.monotonic()``) the last statement on the lease connection that
        succeeded was sent: the session, so every lease in :attr:`mine`, lives until at
        least :attr:`timeout` seconds after it (unless its connection breaks: the fence)."""
        self._tick = time.monotonic()
        self._heart: threading.Thread | None = None

    # ------------------------------------------------------------------ connections

    def _connect(self, role: str = "") -> Any:
        connection = self.connect()
        connection.autocommit = True
        connection.execute("SELECT set_config('application_name', %s, false)",
                           (f"{APPLICATION} {os.getpid()}{role}",))
        if not role:
            try:  # a hung process's session, and with it its leases, ends
                connection.execute("SELECT set_config('idle_session_timeout', %s, false)",
                                   (f"{round(self.timeout * 1000)}ms",))
            except Exception as exc:  # PostgreSQL before 14
                log.warning("PostgreSQL does not end idle sessions (%s): a hung server process "
                            "keeps its tables until it ends", _first_line(exc))
            sent = time.monotonic()
            self.pid = int(connection.execute("SELECT pg_backend_pid()").fetchone()[0])
            self.confirmed = sent
        return connection

    def start(self) -> None:
        """Open the lease connection (raises when PostgreSQL cannot be reached), and start
        its heartbeat."""
        with self._lock:
            self._connection = self._connect()
            schema = self._connection.execute("SELECT current_schema()").fetchone()[0]
        self._channel = channel(schema)
        self._tick = time.monotonic()
        self._heart = threading.Thread(target=self._beat, name="eights-leases-heartbeat",
                                       daemon=True)
        self._heart.start()

    def tick(self) -> None:
        """The process is alive (its event loop runs): keep its leases."""
        self._tick = time.monotonic()

    def live(self) -> bool:
        """Whether this process's leases surely still stand: a statement on the lease
        connection succeeded less than :attr:`timeout` seconds ago, less two heartbeats
        (after a hang, the session may be gone: nothing is done on the tables until a
        statement says whether it is)."""
        return time.monotonic() - self.confirmed < self.timeout - 2 * HEARTBEAT

    def _beat(self) -> None:
        """Every :data:`HEARTBEAT` seconds, a statement on the lease connection while the
        event loop ran within half the timeout; else none, so that PostgreSQL ends the
        session of a hung process and the others adopt its tables."""
        stalled = False
        while not self._stop.wait(HEARTBEAT):
            if time.monotonic() - self._tick > self.timeout / 2:
                if not stalled:
                    log.error("the event loop has not run for %.1f s: this process lets its "
                              "leases lapse", time.monotonic() - self._tick)
                stalled = True
                continue
            stalled = False
            with contextlib.suppress(LeaseLost):  # known: the sweep leases the tables again
                self._run("SELECT 1")

    def listen(self, on_message: Callable[[str, str | None], None]) -> None:
        """Call ``on_message(op, code)`` from a thread of its own for every message sent
        (this process's own too: they are harmless to it)."""
        self.on_message = on_message
        self._listener = threading.Thread(target=self._listen, name="eights-leases-listen",
                                          daemon=True)
        self._listener.start()

    def stop(self) -> None:
        """Let go of every lease and stop listening."""
        self._stop.set()
        with self._lock:
            connection, self._connection = self._connection, None
            self.mine.clear()
            if connection is not None:
                try:
                    connection.execute("SELECT pg_advisory_unlock_all()")
                except Exception:  # gone already: so are its locks
                    log.debug("letting go of the leases failed", exc_info=True)
                connection.close()
        if self._listener is not None:
            self._listener.join(5)
            self._listener = None
        if self._heart is not None:
            self._heart.join(5)
            self._heart = None

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """One statement on the lease connection (connecting again after a loss); raises
        :class:`LeaseLost` when it fails, the connection then closed and :attr:`mine` empty
        (these statements fail only with their connection, which holds the locks)."""
        with self._lock:
            if self._stop.is_set():
                raise LeaseLost("the server is stopping")
            if self._connection is not None and not self.mine:
                # Nothing to lose: a session PostgreSQL ended while it held no lease (idle
                # past the timeout, before the first table) is opened again quietly.
                with contextlib.suppress(Exception):
                    sent = time.monotonic()
                    row = self._connection.execute(sql, params).fetchone()
                    self.confirmed = sent
                    return row
                with contextlib.suppress(Exception):
                    self._connection.close()
                self._connection = None
            try:
                if self._connection is None:
                    self._connection = self._connect()
                sent = time.monotonic()  # the session's idle time starts after this
                row = self._connection.execute(sql, params).fetchone()
                self.confirmed = sent
                return row
            except Exception as exc:
                connection, self._connection = self._connection, None
                if self.mine:
                    log.error("the lease connection to PostgreSQL broke (%s): the %d tables run "
                              "here wait until they are leased again", _first_line(exc),
                              len(self.mine))
                self.mine.clear()
                if connection is not None:
                    with contextlib.suppress(Exception):
                        connection.close()  # every lock it held goes with its session
                raise LeaseLost(f"the lease connection to PostgreSQL broke: {exc}") from exc

    # ------------------------------------------------------------------ leases

    def take(self, code: str) -> bool:
        """Take the lease of table ``code`` if no other process holds it (never waits)."""
        if code in self.mine and not self.live():
            with contextlib.suppress(LeaseLost):  # the session may have ended meanwhile
                self._run("SELECT 1")
        if code in self.mine:
            return True
        got = bool(self._run(f"SELECT pg_try_advisory_lock({LEASE_KEY})", (code,))[0])
        if got:
            self.mine.add(code)
        return got

    def give_up(self, code: str) -> None:
        """Let go of the lease of table ``code`` (another process may take it at once)."""
        if code not in self.mine:
            return
        self.mine.discard(code)
        with contextlib.suppress(LeaseLost):  # else every lease went with the connection
            self._run(f"SELECT pg_advisory_unlock({LEASE_KEY})", (code,))

    def check(self) -> bool:
        """Whether the lease connection works. When it broke (PostgreSQL restarted, the
        network failed), every lease went with it: :attr:`mine` is empty, and the tables run
        here must be leased again before they change (:meth:`take` connects again)."""
        try:
            self._run("SELECT 1")
        except LeaseLost:
            return False
        return True

    def notify(self, op: str, code: str | None = None) -> None:
        """Send ``op`` (about table ``code``) to every other server process of this schema."""
        payload = json.dumps({"op": op, "code": code})
        self._run("SELECT pg_notify(%s, %s)", (self._channel, payload))

    # ------------------------------------------------------------------ listening

    def _listen(self) -> None:
        while not self._stop.is_set():
            connection = None
            try:
                connection = self._connect(" listening")
                connection.execute(f'LISTEN "{self._channel}"')
                while not self._stop.is_set():
                    for note in connection.notifies(timeout=1.0):
                        self._heard(note.payload)
            except Exception as exc:  # PostgreSQL restarted: listen again in a moment
                if not self._stop.is_set():
                    log.warning("listening to the other server processes failed (again in "
                                "1 s): %s", _first_line(exc))
                    self.check()  # the lease connection may have gone too: know it now
                    self._stop.wait(1.0)
            finally:
                if connection is not None:
                    try:
                        connection.close()
                    except Exception:
                        log.debug("closing the listening connection failed", exc_info=True)

    def _heard(self, payload: str) -> None:
        try:
            message = json.loads(payload)
            op, code = str(message["op"]), message.get("code")
        except (ValueError, KeyError, TypeError):
            log.warning("a message from another server process is malformed: %.100s", payload)
            return
        if self.on_message is not None:
            self.on_message(op, code if isinstance(code, str) else None)


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0] if text else type(exc).__name__
