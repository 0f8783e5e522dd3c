"""Leases on PostgreSQL: every write of a table is fenced by its lease, a table taken over is
read only once its former owner's writes are done, and a hung owner loses its leases.

A process that lost a table's lease (without knowing yet: its lease connection broke, or it
hung and PostgreSQL ended its session) must store nothing of the table and tell no one of
anything: not an action, a deal, a start, a close or expiry, a seat, a turn deadline.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib.util
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy.orm import Session

from eights.server.cluster import Cluster
from eights.server.leases import Leases
from eights.server.store import (
    ActionData,
    NotLeased,
    SeatData,
    Store,
    TableData,
    Writer,
)
from postgres import fresh_schema
from test_server import Peer, create, hub_of, join, make_client, pick

Op = Callable[[Any], None]


def _table(code: str, status: str = "waiting") -> TableData:
    return TableData(code=code, rules="classic", overrides={}, players=2, seed=1, dealer=1,
                     status=status, host_hash="h", seats=[SeatData(0), SeatData(1)])


def _lose(leases: Leases) -> None:
    """The lease connection's locks go, and this process does not know (``mine`` unchanged):
    as when its connection broke a moment ago, or it hung and PostgreSQL ended its session."""
    leases._run("SELECT pg_advisory_unlock_all()")


@pytest.fixture
def two() -> Iterator[tuple[Store, Store]]:
    """Two processes' stores on one fresh schema, both claimed (each has its leases)."""
    with fresh_schema() as url:
        first, second = Store(url), Store(url)
        for store in (first, second):
            store.claim()
            store.migrate()
        try:
            yield first, second
        finally:
            first.close()
            second.close()


def _writes(code: str) -> dict[str, Op]:
    deadline = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=30)
    return {
        "start": Store.set_table(code, status="playing"),
        "close or expiry": Store.set_table(code, status="closed"),
        "deal": Store.set_table(code, round=2),
        "turn deadline": Store.set_table(code, turn_deadline=deadline, turn_version=3),
        "seat change": Store.set_seat(code, SeatData(0, "Eve", "greedy")),
        "seat sold": Store.take_seat(code, SeatData(1, "Bob", None, "b" * 64)),
        "action": Store.add_action(code, ActionData(1, 1, 0, "draw", "person")),
    }


def _as_stored(store: Store, code: str) -> Any:
    data = store.load(code)
    assert data is not None
    return (data.status, data.round, data.turn_deadline, data.turn_version,
            [(s.seat, s.name, s.bot, s.token_hash) for s in data.seats], len(data.actions))


def test_every_write_of_a_table_is_stored_only_under_its_lease(two: tuple[Store, Store]) -> None:
    """Only action inserts were fenced: a process that lost a table's lease still stored
    deals, a close (whose record, seed and stock order, could then be downloaded while the
    new owner played on), starts, seats and turn deadlines."""
    first, second = two
    a, b = first.leases, second.leases
    assert a is not None and b is not None
    assert a.take("W")
    first.run(Store.add_table(_table("W")))
    before = _as_stored(first, "W")
    _lose(a)
    assert "W" in a.mine and b.take("W")
    writer = Writer(first)
    writer.start()

    async def through_the_writer(op: Op) -> BaseException | None:
        try:
            await writer.run(op)
        except Exception as exc:
            return exc
        return None

    try:
        for what, op in _writes("W").items():
            refused = asyncio.run(through_the_writer(op))
            assert isinstance(refused, NotLeased), (what, refused)
            with pytest.raises(NotLeased):
                first.run(op)
            assert _as_stored(first, "W") == before, what
        with pytest.raises(NotLeased):  # a new table is leased before it is stored
            first.run(Store.add_table(_table("NEW")))
        assert first.load("NEW") is None
        for op in _writes("W").values():  # its owner's writes land
            second.run(op)
        assert _as_stored(second, "W") != before
    finally:
        writer.stop()


@pytest.mark.parametrize("kind", ["close", "action"])
def test_a_table_taken_over_is_read_once_its_former_owner_s_write_is_done(
        two: tuple[Store, Store], kind: str) -> None:
    """A write that passed its fence while its process still held the lease may commit
    after the lease changed hands: the new owner waits for it, then reads it (a table's row
    is locked by a close ``FOR SHARE``, by an action's insert through its foreign key)."""
    first, second = two
    a, b = first.leases, second.leases
    assert a is not None and b is not None
    assert a.take("T")
    first.run(Store.add_table(_table("T", "playing")))
    fenced, go = threading.Event(), threading.Event()

    def former_owner() -> None:
        write = (Store.set_table("T", status="closed") if kind == "close"
                 else Store.add_action("T", ActionData(1, 1, 0, "draw", "person")))
        with first.engine.begin() as connection:
            first.lock(connection, [write])
            write(Session(bind=connection))
            first.fence(connection, [write])
            fenced.set()
            go.wait(10)  # it hangs here, before its commit, its lease going meanwhile

    thread = threading.Thread(target=former_owner)
    thread.start()
    assert fenced.wait(10)
    _lose(a)
    assert b.take("T")
    threading.Timer(1.0, go.set).start()
    began = time.monotonic()
    data = second.load("T", take_over=True)
    waited = time.monotonic() - began
    thread.join()
    assert data is not None  # read after the write landed
    assert (data.status == "closed") if kind == "close" else (len(data.actions) == 1)
    assert waited >= 0.8, waited


# --------------------------------------------------------------------------- a room that lost its lease


def test_a_room_whose_lease_went_stores_and_tells_nothing() -> None:
    """Through the protocol: the host's start, close and seat_bot, a person's move and the
    next round are refused ``unavailable`` by a process whose lease went without its knowing;
    the database is unchanged and no one hears of a change."""
    with fresh_schema() as url, make_client(url, bot_delay=3600) as client, ExitStack() as stack:
        other = Store(url)
        other.claim()
        stack.callback(other.close)
        hub = hub_of(client)
        leases = hub.store.leases
        assert leases is not None and other.leases is not None
        waiting = create(client, rules="classic", players=2, name="Ana", seed=4)
        playing = create(client, rules="classic", players=2, name="Ana", seed=4)
        join(client, playing["code"], "Bob")
        peers = {}
        for table in (waiting, playing):
            peer = Peer(stack.enter_context(client.websocket_connect(f"/ws/tables/{table['code']}")),
                        table["token"])
            peer.hello()
            peers[table["code"]] = peer
        ana = peers[playing["code"]]
        ana.send("start", token=playing["host_token"])
        ana.until(lambda m: m["type"] == "state")
        before = {code: _as_stored(hub.store, code) for code in peers}
        _lose(leases)
        for code in peers:
            assert other.leases.take(code)
        ana.play(pick(ana.view["legal"], random.Random(1)))
        ana.error("unavailable")
        ana.send("close", token=playing["host_token"])
        ana.error("unavailable")
        host = peers[waiting["code"]]
        host.send("seat_bot", token=waiting["host_token"], seat=1, bot="greedy")
        host.error("unavailable")
        host.send("start", token=waiting["host_token"])
        host.error("bad_request")  # a free seat: refused before any write
        host.send("close", token=waiting["host_token"])
        host.error("unavailable")
        for code, peer in peers.items():
            assert _as_stored(hub.store, code) == before[code], code
            peer.send("ping")
            assert peer.expect("pong")  # nothing came before it: no state, no table change


# --------------------------------------------------------------------------- a hung owner


def test_a_process_whose_event_loop_stops_lets_its_leases_lapse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The heartbeat runs only while the event loop ticks: once it stops, PostgreSQL ends
    the lease connection's idle session, and another process takes the table."""
    monkeypatch.setenv("EIGHTS_LEASE_TIMEOUT", "3")
    with fresh_schema() as url:
        first, second = Store(url), Store(url)
        for store in (first, second):
            store.claim()
        first.migrate()
        try:
            a, b = first.leases, second.leases
            assert a is not None and b is not None
            done = threading.Event()

            def b_lives() -> None:
                while not done.wait(0.5):
                    b.tick()

            threading.Thread(target=b_lives, daemon=True).start()
            assert a.take("H")
            for _ in range(8):  # alive: the lease holds past its timeout
                a.tick()
                time.sleep(0.5)
            assert a.live() and not b.take("H")
            began = time.monotonic()  # no more ticks: the loop hangs
            while not b.take("H"):
                assert time.monotonic() - began < 10, "the hung process kept its lease"
                time.sleep(0.1)
            assert not a.live()  # it knows it may have lost them, before any statement
            a.tick()  # it comes back: the heartbeat finds the session ended
            began = time.monotonic()
            while a.mine:
                assert time.monotonic() - began < 5, "the lost leases were not noticed"
                time.sleep(0.1)
            assert a.check() and a.live() and not a.take("H")
        finally:
            done.set()
            first.close()
            second.close()


def _benchmark() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "server_hung_owner.py"
    spec = importlib.util.spec_from_file_location("server_hung_owner", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not os.path.exists("/usr/sbin/haproxy"), reason="needs HAProxy")
def test_a_hung_owner_s_tables_are_taken_over(tmp_path: Path) -> None:
    """SIGSTOP of the process running a table: another process steps it within the lease
    timeout (3 s here) and two sweeps; resumed, the old owner stores nothing (the log
    replays, without gaps). ``benchmarks/server_hung_owner.py`` measures it."""
    with fresh_schema() as url:
        env = {"EIGHTS_LEASE_TIMEOUT": "3"}
        with _env(env), Cluster(url, 2, log_dir=tmp_path,
                                serve_args=["--bot-delay", "0.05"]) as cluster:
            took, stored = _benchmark().hung_owner_takeover(cluster, url, stopped=8.0)
        assert took < 3 + 2 * 1.0 + 4.0, took  # timeout, two sweeps, and a busy machine
        assert stored > 3


class _env:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.saved: dict[str, str | None] = {}

    def __enter__(self) -> None:
        for key, value in self.values.items():
            self.saved[key] = os.environ.get(key)
            os.environ[key] = value

    def __exit__(self, *_exc: object) -> None:
        for key, value in self.saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

