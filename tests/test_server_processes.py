"""One database, several processes: migrations that never race; a SQLite file served by one
process (a second server is refused and told why); PostgreSQL by many, a lease a table."""

from __future__ import annotations

import multiprocessing
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text
from typer.testing import CliRunner

from eights.cli import app as cli_app
from eights.server.cluster import free_port
from eights.server.leases import LEASE_KEY
from eights.server.store import (
    ActionData,
    Base,
    DatabaseInUse,
    NotLeased,
    SeatData,
    Store,
    TableData,
    Writer,
)
from postgres import fresh_schema


def test_a_sqlite_database_serves_one_process(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    first, second = Store(url), Store(url)
    first.claim()
    with pytest.raises(DatabaseInUse) as refused:
        second.claim()
    message = str(refused.value)
    assert str(tmp_path / "server.sqlite3") in message
    assert "another eights server" in message and "SQLite serves one process" in message
    first.close()
    second.claim()  # the first let go
    second.close()


def test_postgresql_is_served_by_many_processes_one_lease_a_table() -> None:
    """Two stores (two processes) claim one PostgreSQL schema: both may; a table's lease is
    held by one at a time, and asked for through a message; the sweep's query lists the
    open tables nobody holds; letting go (as a killed process does) frees every lease."""
    with fresh_schema() as url, fresh_schema() as other:
        first, second, elsewhere = Store(url), Store(url), Store(other)
        for store in (first, second, elsewhere):
            store.claim()
            store.migrate()
        a, b, c = first.leases, second.leases, elsewhere.leases
        assert a is not None and b is not None and c is not None
        heard: list[tuple[str, str | None]] = []
        a.listen(lambda op, code: heard.append((op, code)))
        for code in ("T1", "T2"):
            assert a.take(code)  # a table is leased before it is stored (the fence)
            first.run(Store.add_table(TableData(code=code, rules="classic", overrides={},
                                                players=2, seed=1, dealer=1, status="waiting",
                                                host_hash="h", seats=[SeatData(0), SeatData(1)])))
            a.give_up(code)
        assert sorted(first.open_codes(unleased=True)) == ["T1", "T2"]
        assert a.take("T1") and a.take("T1")  # taken once, however often asked
        assert not b.take("T1") and b.take("T2")
        assert c.take("T1")  # another schema: another table
        assert first.open_codes(unleased=True) == []
        time.sleep(0.2)  # the listener is listening
        b.notify("release", "T1")
        deadline = time.monotonic() + 5
        while ("release", "T1") not in heard:
            assert time.monotonic() < deadline, "the message never came"
            time.sleep(0.02)
        a.give_up("T1")
        assert b.take("T1") and not a.take("T1")
        second.release()  # as when its process is killed: every lease goes at once
        assert sorted(first.open_codes(unleased=True)) == ["T1", "T2"]
        assert a.take("T1") and a.take("T2")
        for store in (first, elsewhere):
            store.close()


def test_an_action_is_stored_only_under_its_table_s_lease() -> None:
    """The fence: a process whose lease went without its knowing (its lease connection's
    locks gone, another process holding the table now) stores nothing of the table, alone or
    in a batch with a table it still holds, and nothing it may tell anyone of."""
    import asyncio

    with fresh_schema() as url:
        first, second = Store(url), Store(url)
        for store in (first, second):
            store.claim()
            store.migrate()
        a, b = first.leases, second.leases
        assert a is not None and b is not None
        for code in ("F1", "F2"):
            assert a.take(code)
            first.run(Store.add_table(TableData(code=code, rules="classic", overrides={},
                                                players=2, seed=1, dealer=1, status="playing",
                                                host_hash="h", seats=[SeatData(0), SeatData(1)])))
        writer = Writer(first)
        writer.start()

        async def write(*steps: tuple[str, int]) -> list[BaseException | None]:
            done = await asyncio.gather(*(writer.run(Store.add_action(
                code, ActionData(seq, 1, 0, "d", "bot"))) for code, seq in steps),
                return_exceptions=True)
            return [d if isinstance(d, BaseException) else None for d in done]

        try:
            assert asyncio.run(write(("F1", 1), ("F2", 1))) == [None, None]
            a._run("SELECT pg_advisory_unlock_all()")  # the locks go; "mine" does not know
            assert "F1" in a.mine
            a._run(f"SELECT pg_try_advisory_lock({LEASE_KEY})", ("F2",))  # F2's taken again
            assert b.take("F1")
            errors = asyncio.run(write(("F1", 2), ("F2", 2)))  # one batch
            assert isinstance(errors[0], NotLeased) and "F1" in str(errors[0])
            assert errors[1] is None  # the table still held is stored all the same
            assert first.stored("F1", 2)[0] is None
            assert first.stored("F2", 2)[0] is not None
        finally:
            writer.stop()
            first.close()
            second.close()


def test_memory_and_postgresql_stores_take_no_file_lock() -> None:
    for url in ("sqlite://", "sqlite:///:memory:", "postgresql://u:p@127.0.0.1:1/x"):
        assert Store(url).sqlite_file is None


def test_a_second_server_on_one_sqlite_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "eights.cli", "serve", "--db", url, "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:  # up once it accepts connections (it claimed the file before that)
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the first server never started"
                time.sleep(0.2)
        refused = CliRunner().invoke(cli_app, ["serve", "--db", url, "--port", str(free_port())])
        assert refused.exit_code == 2
        assert "in use by another eights server" in refused.output
        assert f"process {server.pid}" in refused.output
    finally:
        server.terminate()
        server.wait(30)
    # Once the first has gone, the file is free again.
    again = Store(url)
    again.claim()
    again.close()


def _migrate_when(url: str, go: Any, results: Any) -> None:
    """In a forked process: wait for ``go``, then migrate; put the error's text or ``""``."""
    store = Store(url)
    go.wait(60)
    try:
        store.migrate()
        results.put("")
    except Exception as exc:
        results.put(f"{type(exc).__name__}: {exc}"[:300])
    finally:
        store.close()


def test_processes_starting_together_migrate_once() -> None:
    """Four processes, forked ready and released at once, upgrade one empty database: the
    lock makes them take turns (without it they collide on creating the same tables)."""
    ctx = multiprocessing.get_context("fork")
    with fresh_schema() as url:
        go, results = ctx.Event(), ctx.Queue()
        workers = [ctx.Process(target=_migrate_when, args=(url, go, results)) for _ in range(4)]
        for w in workers:
            w.start()
        time.sleep(0.5)
        go.set()
        errors = [results.get(timeout=120) for _ in workers]
        for w in workers:
            w.join(30)
        assert errors == [""] * 4
        store = Store(url)
        with store.engine.connect() as connection:
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
            versions = connection.execute(text("SELECT count(*) FROM alembic_version")).scalar()
        store.close()
        assert versions == 1


def test_db_upgrade_and_revision_commands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    runner = CliRunner()
    before = runner.invoke(cli_app, ["db", "revision", "--db", url])
    assert before.exit_code == 0 and "revision (empty)" in before.output
    assert "needs: eights db upgrade" in before.output
    first = runner.invoke(cli_app, ["db", "upgrade", "--db", url])
    assert first.exit_code == 0 and "upgraded from an empty database" in first.output
    second = runner.invoke(cli_app, ["db", "upgrade", "--db", url])
    assert second.exit_code == 0 and "already at revision" in second.output
    after = runner.invoke(cli_app, ["db", "revision", "--db", url])
    assert after.exit_code == 0 and "up to date" in after.output
    bad = runner.invoke(cli_app, ["db", "upgrade", "--db", "postgresql://nobody:x@127.0.0.1:1/none"])
    assert bad.exit_code == 2 and "cannot upgrade the database" in bad.output
    assert "nobody:x" not in bad.output  # no password on screen
