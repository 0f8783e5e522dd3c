"""Storage: tables, seats and the append-only list of actions (SQLAlchemy).

A table is stored as what it needs to be replayed: its rules (a preset and
overrides), seed, first dealer and seats, its status, the number of rounds
dealt, and one row per accepted action with its sequence number. The game
itself is never stored: the server rebuilds it by replaying the actions.

Writes go through :class:`Writer`, one thread that commits them in batches
(many tables' actions share one commit under load); ``await writer.run(op)``
returns once ``op`` is committed, so the server broadcasts only what is on
disk. SQLite (the default) runs in WAL mode with ``synchronous=NORMAL``: a
committed action survives the process being killed. PostgreSQL works through
the same code (``postgresql://`` uses psycopg 3).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from eights.server.leases import LEASE_KEY, Leases, lease_timeout

__all__ = [
    "ActionData",
    "AddAction",
    "Base",
    "DatabaseInUse",
    "SeatData",
    "SeatTaken",
    "Store",
    "TableData",
    "TableWrite",
    "TooMany",
    "Unreachable",
    "Writer",
    "check_sqlite_path",
    "make_db_engine",
    "normalize_url",
]

log = logging.getLogger("eights.server")

MIGRATIONS = Path(__file__).parent / "migrations"
LOCKS = 0x6569  # "ei"
"""The class of this server's PostgreSQL advisory locks (their first 32-bit key); the second
key is the schema's hash, so databases in other schemas never wait on each other."""
MIGRATING = "migrate"
CREATING = "create"
"""The advisory lock creations take turns on (with :data:`LOCKS`), per schema."""
OPEN = ("waiting", "playing")
"""Statuses of tables the server keeps running (restored at start-up)."""


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(moment: dt.datetime | None) -> dt.datetime | None:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=dt.UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The invite code (unguessable)."""
    title: Mapped[str] = mapped_column(String(60), default="")
    rules: Mapped[str] = mapped_column(String(40))
    """A preset name."""
    overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Rules fields changed from the preset (dotted keys, TOML-like values)."""
    house: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The rules object the table was made with (the keys of a rules file), if any: then
    ``rules`` is the preset it extends (``custom`` for none) and ``overrides`` is empty."""
    meta: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """What the record's ``meta`` says besides the seats: a practice table's ``hints`` and
    ``undos`` (server/room.py)."""
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``waiting``, ``playing``, ``finished`` or ``closed``."""
    round: Mapped[int] = mapped_column(Integer, default=1)
    """Rounds dealt so far (the next round is dealt by replay too)."""
    public: Mapped[bool] = mapped_column(default=True)
    turn_timer: Mapped[float | None] = mapped_column(Float, default=None)
    turn_deadline: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                              default=None)
    """When the turn timer of the step ``turn_version`` runs out (kept across a restart)."""
    turn_version: Mapped[int | None] = mapped_column(Integer, default=None)
    host_hash: Mapped[str] = mapped_column(String(64))
    creator: Mapped[str | None] = mapped_column(String(64), default=None, index=True)
    """The client address that created the table (the per-address cap counts it)."""
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now,
                                                    onupdate=_now)


class SeatRow(Base):
    __tablename__ = "seats"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"),
                                            primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(24), default=None)
    bot: Mapped[str | None] = mapped_column(String(60), default=None)
    """The bot spec when a bot sits here."""
    token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """SHA-256 of the seat token of the person sitting here (the token itself is never stored)."""


class ActionRow(Base):
    __tablename__ = "actions"

    table_code: Mapped[str] = mapped_column(ForeignKey("tables.code", ondelete="CASCADE"),
                                            primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1, 2, 3, … over the whole match."""
    round: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    """Canonical notation (any length: a play of several cards with three decks is long)."""
    source: Mapped[str] = mapped_column(String(8))
    """``person``, ``bot`` or ``timer`` (a safe move played for a person)."""
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


# --------------------------------------------------------------------------- plain snapshots


@dataclass
class SeatData:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class ActionData:
    seq: int
    round: int
    seat: int
    action: str
    source: str


@dataclass
class TableData:
    """A stored table, detached from the database."""

    code: str
    rules: str
    overrides: dict[str, Any]
    players: int
    seed: int
    dealer: int
    status: str
    host_hash: str
    seats: list[SeatData]
    title: str = ""
    public: bool = True
    turn_timer: float | None = None
    round: int = 1
    actions: list[ActionData] = field(default_factory=list)
    turn_deadline: dt.datetime | None = None
    """When the turn timer of the step ``turn_version`` runs out."""
    turn_version: int | None = None
    creator: str | None = None
    """Who created the table (:func:`eights.server.limits.creator_key`)."""
    updated_at: dt.datetime | None = None
    """When the table's row last changed (its creation, a status, a deal...)."""
    house: dict[str, Any] | None = None
    """The rules object the table was made with, if any (:attr:`TableRow.house`)."""
    meta: dict[str, Any] = field(default_factory=dict)
    """A practice table's ``hints`` and ``undos`` (:attr:`TableRow.meta`)."""


# --------------------------------------------------------------------------- engine


def normalize_url(url: str) -> str:
    """A database URL as SQLAlchemy takes it: ``postgresql://`` (or ``postgres://``) uses
    psycopg 3, the driver ``eights`` depends on; a URL naming its driver is left alone.

    >>> normalize_url("postgresql://eights:secret@localhost/eights")
    'postgresql+psycopg://eights:secret@localhost/eights'
    >>> normalize_url("postgresql+psycopg2://db/x"), normalize_url("sqlite:///x.sqlite3")
    ('postgresql+psycopg2://db/x', 'sqlite:///x.sqlite3')
    """
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def check_sqlite_path(url: str) -> None:
    """Refuse (``ValueError``) a SQLite URL that does not name its file plainly: a ``file:``
    URI (``?uri=true``) may name the file other than the server locks it (its own lock is on
    the path, :meth:`Store.claim`), with options such as ``nolock`` or ``immutable``, and
    makes folders named ``file:`` of its own. A plain path names the file.

    >>> check_sqlite_path("sqlite:////srv/eights/server.sqlite3")
    >>> try:
    ...     check_sqlite_path("sqlite:///file:/srv/b.sqlite3?uri=true")
    ... except ValueError as exc:
    ...     print(str(exc)[:40])
    the SQLite database must be a plain path
    """
    parsed = make_url(normalize_url(url))
    database = parsed.database or ""
    uri = str(parsed.query.get("uri", "")).lower() not in ("", "false", "0", "no")
    if database.startswith("file:") or uri:
        raise ValueError("the SQLite database must be a plain path, such as "
                         "sqlite:////srv/eights/server.sqlite3: 'file:' names and ?uri=true are "
                         "refused (the server locks the file a path names; a URI could name it "
                         "otherwise)")


def make_db_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created, WAL mode is on."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() == "sqlite":
        check_sqlite_path(url)
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        # How long a write waits for another connection's lock (``?timeout=`` in the URL).
        engine = create_engine(parsed, connect_args={} if "timeout" in parsed.query
                               else {"timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(parsed, pool_pre_ping=True)
    if engine.dialect.name == "postgresql":
        idle = f"{round(lease_timeout() * 1000)}ms"

        @event.listens_for(engine, "connect")
        def _bounded(dbapi_connection: Any, _record: Any) -> None:
            # A hung process's transaction under way (its rows locked: a table being taken
            # over waits for it, Store.load) is ended by PostgreSQL, as its lease is.
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT set_config('idle_in_transaction_session_timeout', %s, false)",
                           (idle,))
            cursor.close()
            dbapi_connection.commit()

    return engine


def _count_open(connection: Connection, creator: str | None,
                network: str | None = None) -> tuple[int, int, int]:
    """Open tables: in all, made by ``creator``, and made in ``network`` (the start of the
    creators' keys, :func:`eights.server.limits.network_of`; 0 without one)."""
    mine = func.coalesce(func.sum(case((TableRow.creator == creator, 1), else_=0)), 0)
    near = (func.coalesce(func.sum(case((TableRow.creator.startswith(network), 1), else_=0)), 0)
            if network is not None else func.coalesce(func.sum(0), 0))
    row = connection.execute(select(func.count(), mine, near)
                             .where(TableRow.status.in_(OPEN))).one()
    return int(row[0]), int(row[1]), int(row[2])


class TooMany(RuntimeError):
    """A new table was not stored: a bound on open tables is reached (:meth:`Store.add_table`)."""


class SeatTaken(RuntimeError):
    """A seat sold meanwhile by another process (:meth:`Store.take_seat`)."""


class DatabaseInUse(RuntimeError):
    """Another server process serves this database (:meth:`Store.claim`)."""


class Unreachable(RuntimeError):
    """The database cannot be reached (its driver's reason, in one line)."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


Op = Callable[[Session], None]
"""A write: adds or updates rows in the session it is given (committed by the Writer)."""


class Store:
    """The database of tables (synchronous; the server calls it from threads)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_db_engine(url)
        self._claim: IO[str] | None = None
        self._file: int | None = None
        """A descriptor of the SQLite file, flocked while this store claims it."""
        self.leases: Leases | None = None
        """On PostgreSQL, once claimed: the leases of the tables this process runs."""

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision.

        On PostgreSQL the upgrade holds an advisory lock (:data:`LOCKS`) for its
        transaction: a process that starts while another migrates (``eights db upgrade``,
        or a server starting) waits, then finds the schema at the head and changes
        nothing. A SQLite file serves one process (:meth:`claim`): no one to race.
        """
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:c, hashtext(:what || "
                                        "current_schema()))"), {"c": LOCKS, "what": MIGRATING})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def revision(self) -> str | None:
        """The schema's Alembic revision (``None`` for an empty database)."""
        from alembic.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    @property
    def sqlite_file(self) -> Path | None:
        """The database file when this store is a SQLite file (not ``:memory:``)."""
        parsed = make_url(normalize_url(self.url))
        if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
            return None
        return Path(parsed.database).resolve()

    @property
    def shared(self) -> bool:
        """Whether several server processes may serve this database (PostgreSQL: each open
        table is run by one process at a time, its lease; see :mod:`eights.server.leases`)."""
        return self.engine.dialect.name == "postgresql"

    def claim(self) -> None:
        """Serve a SQLite file from this process alone.

        The tables live in the memory of the process that runs them, and a SQLite file has
        no way to tell processes which tables each runs: a second server on the same file
        would sell the same seats twice and run the same bots twice. So a second process
        fails at once with :class:`DatabaseInUse`, whose message says why: the first holds
        an exclusive lock on ``<file>.lock`` (where its process id is written) and on the
        database file itself (``flock``: the file, whatever path names it, so a hard link to
        it is the same database), which the system lets go of when the process ends, even by
        ``kill -9`` (:meth:`release` and :meth:`close` let go too). The file is made, empty,
        if it is not there yet (SQLite takes it as a new database).

        PostgreSQL is served by many processes, each open table leased by one of them at a
        time: the claim opens this process's lease connection (:attr:`leases`), and its
        leases go when the process ends, or with :meth:`release`.
        """
        if self._claim is not None or self.leases is not None:
            return
        path = self.sqlite_file
        if path is not None:
            self._claim_file(path)
        elif self.shared:
            leases = Leases(self._own_connection)
            leases.start()
            self.leases = leases

    def _own_connection(self) -> Any:
        """A DBAPI connection of its own (a session outside the pool: a lease's,
        :class:`~eights.server.leases.Leases`); :class:`Unreachable` when the database cannot
        be reached."""
        try:
            raw = self.engine.raw_connection()
        except Exception as exc:
            raise Unreachable(_first_line(exc)) from exc
        connection = raw.driver_connection
        raw.detach()  # its own session, never handed back to the pool
        return connection

    def _claim_file(self, path: Path) -> None:
        import fcntl

        path.parent.mkdir(parents=True, exist_ok=True)
        lock = (path.parent / (path.name + ".lock")).open("a+", encoding="utf-8")
        # The file itself, by its identity: a flock, which SQLite's own (fcntl) locks never
        # meet. Closed only once SQLite's connections are (close()): closing a descriptor of
        # the file lets go of every fcntl lock this process holds on it.
        if self._file is None:
            self._file = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o644)
        who: str | None = None  # why it is refused, if it is
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.seek(0)
            holder = lock.read().strip()
            who = f" (process {holder})" if holder.isdigit() else ""
        else:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                who = " under another name of the file (a link to it)"
        if who is not None:
            lock.close()
            raise DatabaseInUse(
                f"the SQLite database {str(path)!r} is in use by another eights server{who}. "
                "SQLite serves one process: stop the other server, or give this one another "
                "--db (several processes serve one PostgreSQL database)")
        lock.truncate(0)
        lock.write(str(os.getpid()))
        lock.flush()
        self._claim = lock

    def close(self) -> None:
        self.release()
        self.engine.dispose()
        if self._file is not None:  # SQLite's connections are closed: nothing to lose
            os.close(self._file)
            self._file = None

    def release(self) -> None:
        """Let go of the claim (:meth:`claim`), as the system does when the process ends."""
        if self._claim is not None:
            if self._file is not None:
                import fcntl

                fcntl.flock(self._file, fcntl.LOCK_UN)
            self._claim.close()  # closing the file lets go of its lock
            self._claim = None
        if self.leases is not None:
            self.leases.stop()
            self.leases = None

    def run(self, op: Op) -> None:
        """Commit one write now, in this thread (fenced on PostgreSQL: :meth:`fence`)."""
        with Session(self.engine) as s, s.begin():
            self.lock(s.connection(), [op])
            op(s)
            s.flush()
            self.fence(s.connection(), [op])

    def lock(self, connection: Connection, ops: Iterable[Op]) -> None:
        """At the start of a transaction of the writes ``ops``, on PostgreSQL: lock the rows
        of the tables they change (``FOR SHARE``, until the commit), but for actions, whose
        insert locks its table's row by itself (its foreign key); then :meth:`fence`."""
        if self.leases is not None:
            codes = {op.code for op in ops if isinstance(op, TableWrite) and op.fenced}
            if codes:
                connection.execute(_SHARED, {"codes": sorted(codes)})

    def fence(self, connection: Connection, ops: Iterable[Op]) -> None:
        """At the end of a transaction of the writes ``ops`` (after :meth:`lock`): on
        PostgreSQL, raise :class:`NotLeased` unless this process holds the leases of the
        tables they change (:func:`fence`); on SQLite, nothing (one process a file)."""
        if self.leases is not None:
            fence(connection, _codes(ops), self.leases.pid)

    # ------------------------------------------------------------------ reading

    def load(self, code: str, *, take_over: bool = False) -> TableData | None:
        """The table ``code`` with its seats and actions (``None`` if there is none).

        ``take_over`` (PostgreSQL, once this process holds the table's lease): first wait for
        any write of the table still under way (its former owner's, which passed its fence
        before the lease changed hands), so that what is read is everything ever stored of
        it (:func:`fence`); at most :data:`TAKE_OVER_WAIT` seconds (a hung owner's
        transaction is ended by PostgreSQL sooner: ``idle_in_transaction_session_timeout``).
        """
        with Session(self.engine) as s:
            if take_over and self.leases is not None:
                s.execute(text(f"SET LOCAL lock_timeout = '{int(TAKE_OVER_WAIT * 1000)}ms'"))
                s.execute(_BARRIER, {"code": code})
            row = s.get(TableRow, code)
            return None if row is None else self._snapshot(s, row)

    def status(self, code: str) -> str | None:
        """The status of table ``code`` (``None`` if there is none): one row, no log."""
        with self.engine.connect() as connection:
            status = connection.execute(select(TableRow.status)
                                        .where(TableRow.code == code)).scalar()
            return None if status is None else str(status)

    def load_open(self) -> list[TableData]:
        """Every table still waiting or playing, with its seats and actions."""
        with Session(self.engine) as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(OPEN))
                             .order_by(TableRow.created_at)).all()
            return [self._snapshot(s, row) for row in rows]

    def count_open(self, creator: str) -> tuple[int, int]:
        """Open tables in the database: in all, and created from the address ``creator``
        (every server process counts the same rows)."""
        total, mine, _ = self.count_near(creator, None)
        return total, mine

    def count_near(self, creator: str, network: str | None) -> tuple[int, int, int]:
        """Open tables in the database: in all, created by ``creator``, and created in
        ``network`` (:func:`eights.server.limits.network_of`)."""
        with self.engine.connect() as connection:
            return _count_open(connection, creator, network)

    def open_codes(self, *, unleased: bool = False) -> list[str]:
        """The codes of the open tables; ``unleased``: only those no server process holds the
        lease of (PostgreSQL, :func:`eights.server.leases.lease_key`)."""
        query = "SELECT code FROM tables WHERE status IN ('waiting', 'playing')"
        if unleased:
            query += (" AND " + LEASE_KEY % "code" + " NOT IN ("
                      "SELECT (l.classid::bigint << 32) | l.objid::bigint FROM pg_locks l "
                      "WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted "
                      "AND l.database = (SELECT oid FROM pg_database "
                      "WHERE datname = current_database()))")
        with self.engine.connect() as connection:
            return [code for (code,) in connection.execute(text(query))]

    def lobby(self, limit: int) -> list[TableData]:
        """The public open tables, the oldest first, with their seats (not their actions:
        :attr:`TableData.actions` is empty and ``round`` is the rounds dealt; the number of
        actions is in :attr:`TableData.turn_version`)."""
        with Session(self.engine) as s:
            counted = (select(func.max(ActionRow.seq)).where(ActionRow.table_code == TableRow.code)
                       .scalar_subquery())
            rows = s.execute(select(TableRow, counted).where(TableRow.status.in_(OPEN),
                                                             TableRow.public)
                             .order_by(TableRow.created_at).limit(limit)).all()
            codes = [row.code for row, _ in rows]
            seats: dict[str, list[SeatData]] = {code: [] for code in codes}
            if codes:
                for x in s.scalars(select(SeatRow).where(SeatRow.table_code.in_(codes))
                                   .order_by(SeatRow.table_code, SeatRow.seat)):
                    seats[x.table_code].append(SeatData(x.seat, x.name, x.bot, x.token_hash))
            return [TableData(code=row.code, rules=row.rules, overrides=dict(row.overrides or {}),
                              house=row.house, meta=dict(row.meta or {}), players=row.players,
                              seed=0, dealer=row.dealer, status=row.status,
                              host_hash="", seats=seats[row.code], title=row.title,
                              public=row.public, turn_timer=row.turn_timer, round=row.round,
                              turn_version=actions or 0)
                    for row, actions in rows]

    def summary(self, code: str) -> TableData | None:
        """Table ``code`` with its seats, as :meth:`lobby` gives them (without its actions,
        whose number is in :attr:`TableData.turn_version`); ``None`` when there is none."""
        with Session(self.engine) as s:
            row = s.get(TableRow, code)
            if row is None:
                return None
            actions = s.scalar(select(func.max(ActionRow.seq))
                               .where(ActionRow.table_code == code))
            seats = [SeatData(x.seat, x.name, x.bot, x.token_hash)
                     for x in s.scalars(select(SeatRow).where(SeatRow.table_code == code)
                                        .order_by(SeatRow.seat))]
            return TableData(code=row.code, rules=row.rules, overrides=dict(row.overrides or {}),
                             house=row.house, meta=dict(row.meta or {}), players=row.players,
                             seed=0, dealer=row.dealer, status=row.status,
                             host_hash="", seats=seats, title=row.title, public=row.public,
                             turn_timer=row.turn_timer, round=row.round,
                             turn_version=actions or 0)

    @staticmethod
    def _snapshot(s: Session, row: TableRow) -> TableData:
        seats = s.scalars(select(SeatRow).where(SeatRow.table_code == row.code)
                          .order_by(SeatRow.seat)).all()
        actions = s.scalars(select(ActionRow).where(ActionRow.table_code == row.code)
                            .order_by(ActionRow.seq)).all()
        return TableData(
            code=row.code, rules=row.rules, overrides=dict(row.overrides or {}),
            house=row.house, meta=dict(row.meta or {}), players=row.players, seed=row.seed,
            dealer=row.dealer, status=row.status,
            host_hash=row.host_hash, title=row.title, public=row.public,
            turn_timer=row.turn_timer, round=row.round, turn_deadline=_aware(row.turn_deadline),
            turn_version=row.turn_version, creator=row.creator,
            updated_at=_aware(row.updated_at),
            seats=[SeatData(x.seat, x.name, x.bot, x.token_hash) for x in seats],
            actions=[ActionData(a.seq, a.round, a.seat, a.action, a.source) for a in actions],
        )

    def stored(self, code: str, seq: int) -> tuple[ActionData | None, int]:
        """The action stored as number ``seq`` of table ``code`` (``None`` if there is none),
        and the rounds dealt: what a write whose answer was lost left behind."""
        with Session(self.engine) as s:
            row = s.get(ActionRow, (code, seq))
            dealt = s.scalar(select(TableRow.round).where(TableRow.code == code))
            action = None if row is None else ActionData(row.seq, row.round, row.seat, row.action,
                                                         row.source)
            return action, dealt or 0

    # ------------------------------------------------------------------ writing (ops for the Writer)

    @staticmethod
    def add_table(data: TableData, *, tables: int | None = None,
                  per_creator: int | None = None, network: str | None = None,
                  per_network: int | None = None) -> TableWrite:
        """Store a new table, if the database holds fewer than ``tables`` open tables in all,
        fewer than ``per_creator`` created by ``data.creator``, and fewer than
        ``per_network`` created in ``network`` (:class:`TooMany` otherwise): counted and
        stored in one transaction, creations taking turns (on PostgreSQL an advisory lock
        for the transaction, across processes; a SQLite file has one writer), so that a
        burst of creations never passes a bound."""
        def op(s: Session) -> None:
            if tables is not None or per_creator is not None or per_network is not None:
                connection = s.connection()
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:c, hashtext(:what || "
                                            "current_schema()))"), {"c": LOCKS, "what": CREATING})
                total, mine, near = _count_open(connection, data.creator, network)
                if tables is not None and total >= tables:
                    raise TooMany("the server holds its maximum of open tables; try again later")
                if per_creator is not None and mine >= per_creator:
                    raise TooMany(f"at most {per_creator} open tables from one address; close "
                                  "one first")
                if per_network is not None and network is not None and near >= per_network:
                    raise TooMany(f"at most {per_network} open tables from one network; close "
                                  "one first, or try again later")
            s.add(TableRow(code=data.code, title=data.title, rules=data.rules,
                           overrides=data.overrides, house=data.house, meta=data.meta or None,
                           players=data.players, seed=data.seed,
                           dealer=data.dealer, status=data.status, round=data.round,
                           public=data.public, turn_timer=data.turn_timer,
                           host_hash=data.host_hash, creator=data.creator))
            s.flush()
            s.add_all(SeatRow(table_code=data.code, seat=x.seat, name=x.name, bot=x.bot,
                              token_hash=x.token_hash) for x in data.seats)
        return TableWrite(data.code, op)

    @staticmethod
    def set_seat(code: str, seat: SeatData) -> TableWrite:
        def op(s: Session) -> None:
            s.connection().execute(  # Core, not the ORM: a plain UPDATE, several times faster
                update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat.seat)
                .values(name=seat.name, bot=seat.bot, token_hash=seat.token_hash))
        return TableWrite(code, op)

    @staticmethod
    def take_seat(code: str, seat: SeatData) -> TableWrite:
        """Sit someone in a seat that is free in the database (no person's token, no bot);
        :class:`SeatTaken` when it is not (another process sold it: only one sale lands)."""
        def op(s: Session) -> None:
            done = s.connection().execute(
                update(SeatRow).where(SeatRow.table_code == code, SeatRow.seat == seat.seat,
                                      SeatRow.token_hash.is_(None), SeatRow.bot.is_(None))
                .values(name=seat.name, bot=seat.bot, token_hash=seat.token_hash))
            if done.rowcount != 1:
                raise SeatTaken(f"seat {seat.seat} of table {code} is no longer free")
        return TableWrite(code, op)

    @staticmethod
    def set_table(code: str, **values: Any) -> TableWrite:
        """Change ``status``, ``round``, the turn timer's ``turn_deadline`` and
        ``turn_version``, or ``meta``."""
        def op(s: Session) -> None:
            s.connection().execute(update(TableRow).where(TableRow.code == code)
                                   .values(updated_at=_now(), **values))
        return TableWrite(code, op)

    @staticmethod
    def take_back(code: str, seq: int, meta: dict[str, Any]) -> TableWrite:
        """Undo at a practice table: delete the actions from number ``seq`` on and store the
        table's new ``meta`` (which says what was taken back), in one transaction."""
        def op(s: Session) -> None:
            connection = s.connection()
            connection.execute(delete(ActionRow).where(ActionRow.table_code == code,
                                                       ActionRow.seq >= seq))
            connection.execute(update(TableRow).where(TableRow.code == code)
                               .values(updated_at=_now(), meta=meta))
        return TableWrite(code, op)

    @staticmethod
    def close_finished(code: str) -> TableWrite:
        """Close a finished table. Not fenced: nobody leases a finished table (its game never
        changes again), and this changes nothing but a finished table's status."""
        def op(s: Session) -> None:
            s.connection().execute(update(TableRow).where(TableRow.code == code,
                                                          TableRow.status == "finished")
                                   .values(updated_at=_now(), status="closed"))
        return TableWrite(code, op, fenced=False)

    @staticmethod
    def add_action(code: str, action: ActionData) -> Op:
        """One action (the :class:`Writer` inserts the actions of a batch together)."""
        return AddAction(code, action)


@dataclass(frozen=True, slots=True)
class TableWrite:
    """A write that changes table ``code`` (on PostgreSQL it is fenced: :func:`fence`)."""

    code: str
    apply: Callable[[Session], None]
    fenced: bool = True

    def __call__(self, s: Session) -> None:
        self.apply(s)


def _codes(ops: Iterable[Op]) -> set[str]:
    """The tables the writes ``ops`` change under their lease."""
    return {op.code for op in ops
            if isinstance(op, AddAction) or (isinstance(op, TableWrite) and op.fenced)}


class NotLeased(RuntimeError):
    """An action of a table whose lease this process does not hold was not stored."""


_FENCE = text("SELECT code FROM unnest(CAST(:codes AS text[])) AS code WHERE EXISTS ("
              "SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.objsubid = 1 "
              "AND l.granted AND l.pid = :pid AND "
              "((l.classid::bigint << 32) | l.objid::bigint) = " + LEASE_KEY % "code" + ")")
_SHARED = text("SELECT code FROM tables WHERE code = ANY(CAST(:codes AS text[])) ORDER BY code "
               "FOR SHARE")
_BARRIER = text("SELECT code FROM tables WHERE code = :code FOR UPDATE")
TAKE_OVER_WAIT = 30.0
"""Seconds a process taking a table over waits for a write of the table's former owner still
under way (:meth:`Store.load` with ``take_over``), past which it gives up (and tries later)."""


def fence(connection: Connection, codes: set[str], pid: int | None) -> None:
    """Raise :class:`NotLeased` (the transaction is then rolled back) unless the session
    ``pid`` (this process's lease connection) holds the lease of every table in ``codes``.

    At the end of every transaction that changes tables (actions, deals, status, seats,
    turn deadlines), whose rows it locked before (:meth:`Store.lock`: ``FOR SHARE``, or ``FOR
    KEY SHARE`` by an action's foreign key) until the commit. A process taking a table over
    takes its lease, then locks its row ``FOR UPDATE`` before it reads the table
    (:meth:`Store.load`, ``take_over``), which waits for any such transaction under way. So a
    write of a former owner either passed this check while it still held the lease and is
    read by the new owner, or it fails here: a process whose lease went without its knowing
    (its lease connection broke a moment ago, or it hung and PostgreSQL ended its idle
    session) stores nothing, and tells no one of anything.
    """
    if not codes:
        return
    held = set() if pid is None else {
        code for (code,) in connection.execute(_FENCE, {"codes": sorted(codes), "pid": pid})}
    if held != codes:
        raise NotLeased(f"this server process does not hold the lease of table(s) "
                        f"{', '.join(sorted(codes - held))} any more; nothing was stored")


def _insert_actions(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """One INSERT (executemany) of action rows, below the ORM."""
    connection.execute(insert(ActionRow), rows)


@dataclass(frozen=True, slots=True)
class AddAction:
    """The op inserting one action row. It is the hot write (one per move on every
    table), so the :class:`Writer` sends consecutive ones as one multi-row INSERT."""

    code: str
    action: ActionData

    def row(self) -> dict[str, Any]:
        a = self.action
        return {"table_code": self.code, "seq": a.seq, "round": a.round, "seat": a.seat,
                "action": a.action, "source": a.source, "created_at": _now()}

    def __call__(self, s: Session) -> None:
        _insert_actions(s.connection(), [self.row()])


class Writer:
    """One thread committing writes in batches; each caller waits for its own commit.

    The thread keeps one connection open and writes actions below the ORM: a
    commit of one action costs about a quarter of an ORM session's (measured on
    SQLite: 0.1 ms of CPU against 0.4 ms), and when tables are busy many
    actions share one commit.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[tuple[Op, asyncio.AbstractEventLoop,
                                             asyncio.Future[None]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._connection: Connection | None = None
        """The writer thread's connection (opened there, dropped after a failure)."""

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="eights-db-writer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Commit what is queued, then stop the thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    async def run(self, op: Op) -> None:
        """Commit ``op``; raises what the database raised (nothing is then written)."""
        if self._thread is None:
            raise RuntimeError("the database writer is not running")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._queue.put((op, loop, future))
        await future

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            batch = []
            stop = item is None
            if item is not None:
                batch.append(item)
            while len(batch) < 500:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            if batch:
                self._commit(batch)
            if stop:
                self._drop_connection()
                return

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # already broken
                log.debug("closing the writer's connection failed", exc_info=True)

    def _commit_one(self, op: Op) -> BaseException | None:
        try:
            if isinstance(op, AddAction):
                with self.store.engine.begin() as connection:
                    _insert_actions(connection, [op.row()])
                    self.store.fence(connection, [op])
            else:
                self.store.run(op)
        except Exception as exc:
            return exc
        return None

    def _commit(self, batch: Sequence[tuple[Op, asyncio.AbstractEventLoop, asyncio.Future[None]]]) -> None:
        errors: list[BaseException | None] = [None] * len(batch)
        try:
            if self._connection is None:
                self._connection = self.store.engine.connect()
            connection = self._connection
            ops = [op for op, _, _ in batch]
            with connection.begin():
                self.store.lock(connection, ops)
                session: Session | None = None  # only for the rarer writes, which use the ORM
                rows: list[dict[str, Any]] = []
                for op, _, _ in batch:
                    if isinstance(op, AddAction):
                        rows.append(op.row())
                        continue
                    if rows:  # in order: a table is created before its actions
                        _insert_actions(connection, rows)
                        rows = []
                    if session is None:
                        session = Session(bind=connection)
                    op(session)
                    session.flush()
                if rows:
                    _insert_actions(connection, rows)
                if session is not None:
                    session.close()
                self.store.fence(connection, ops)
        except Exception as exc:
            self._drop_connection()  # it may be broken; the next batch opens another
            errors[0] = exc
            # One at a time, so that one bad write fails alone; and once more on a fresh
            # connection when this one was dead (the database restarted since the last
            # batch). A write that was stored after all then fails on its key, and the room
            # finds it stored (Room._resolve).
            if len(batch) > 1 or getattr(exc, "connection_invalidated", False):
                for i, (op, _, _) in enumerate(batch):
                    errors[i] = self._commit_one(op)
        for (_, loop, future), error in zip(batch, errors, strict=True):
            loop.call_soon_threadsafe(_settle, future, error)


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        if not isinstance(error, TooMany):  # a bound reached, not a failure
            log.error("database write failed: %s", error)
        future.set_exception(error)
