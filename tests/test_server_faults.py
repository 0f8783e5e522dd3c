"""Faults: a database that fails, stops or loses a reply; clients that stop reading; endless
matches. Every table keeps playing once the fault is gone, and every client is told the truth.

The faults are real where they can be: a SQLite database locked by another connection, a
PostgreSQL server cut off behind a small TCP proxy on loopback (:class:`FaultProxy`), which
can also drop the reply to a ``COMMIT`` after forwarding it (the move is stored, the server
never hears so). Each case runs on SQLite and on PostgreSQL (``EIGHTS_TEST_POSTGRES``, see
``tests/postgres.py``) unless it is about one of them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from eights import Game, load_rules
from eights.server import Limits
from eights.server import store as store_module
from eights.server.store import ActionData, Store, TableData, Writer
from postgres import BACKENDS, database_url, fresh_schema
from test_server import Message, Peer, create, hub_of, join, make_client, room_of, watched_bot_table


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """SQLite, then PostgreSQL (``EIGHTS_TEST_POSTGRES``)."""
    with database_url(request.param, str(tmp_path / "faults.sqlite3")) as url:
        yield url


def wait_for(check: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
    """Poll ``check`` until it returns something true (fails after ``timeout`` seconds)."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.02)


def first_seed(rules: str, overrides: dict[str, Any], players: int,
               accept: Callable[[Game], bool]) -> int:
    loaded = load_rules(rules, overrides)
    for seed in range(5000):
        if accept(Game(loaded, players, seed=seed, dealer=players - 1)):
            return seed
    raise AssertionError(f"no seed of {rules} {overrides} fits")


# --------------------------------------------------------------------------- a proxy that fails


class FaultProxy:
    """A TCP proxy on loopback in front of a PostgreSQL server, for faults on demand.

    :meth:`down` closes every connection and refuses new ones (the server as if stopped);
    :meth:`up` lets them through again. :meth:`drop_commit_reply` forwards the next
    ``COMMIT`` and then cuts that connection before its answer comes back.
    """

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.listener.settimeout(0.1)
        self.running = True
        self.refusing = False
        self.drop_next_commit = False
        self.down_after_commit = False
        self.commits_dropped = 0
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def url(self, url: str) -> str:
        return make_url(url).set(host="127.0.0.1", port=self.port).render_as_string(
            hide_password=False)

    def down(self) -> None:
        with self._lock:
            self.refusing = True
            for s in self._sockets:
                _shut(s)
            self._sockets.clear()

    def up(self) -> None:
        self.refusing = False

    def drop_commit_reply(self, *, then_down: bool = False) -> None:
        """Lose the answer to the next ``COMMIT`` (and, with ``then_down``, stop right then)."""
        self.drop_next_commit = True
        self.down_after_commit = then_down

    def close(self) -> None:
        self.running = False
        self.down()
        self._thread.join()
        self.listener.close()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            if self.refusing:
                _shut(client)
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                _shut(client)
                continue
            with self._lock:
                self._sockets.update((client, server))
            cut = threading.Event()
            for args in ((client, server, cut, True), (server, client, cut, False)):
                threading.Thread(target=self._pipe, args=args, daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket, cut: threading.Event,
              upstream: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data or cut.is_set():
                    break
                committing = upstream and self.drop_next_commit and b"COMMIT" in data
                if committing:
                    self.drop_next_commit = False
                    cut.set()  # nothing more goes back to the client on this connection
                    if self.down_after_commit:
                        self.refusing = True
                dst.sendall(data)
                if committing:
                    time.sleep(0.3)  # the server commits; its answer is never passed on
                    self.commits_dropped += 1
                    break
        except OSError:
            pass
        _shut(src)
        _shut(dst)


def _shut(s: socket.socket) -> None:
    with suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    s.close()


@contextmanager
def proxied(url: str) -> Iterator[tuple[str, FaultProxy]]:
    """``url`` (PostgreSQL) through a :class:`FaultProxy`."""
    parsed = make_url(url)
    proxy = FaultProxy(parsed.host or "127.0.0.1", parsed.port or 5432)
    try:
        yield proxy.url(url), proxy
    finally:
        proxy.close()


# --------------------------------------------------------------------------- 2: long plays


LONG = {"decks": 3, "hand_size": 12}
"""Switch with three decks: a hand may hold six or seven cards of one rank."""


def test_the_action_column_holds_a_three_deck_multi_card_play(db: str) -> None:
    """A play of seven cards (``2c+2d+2h+2h+2s+2s+2c``, 20 characters) is stored and read
    back: the column once held 16 characters, which PostgreSQL enforced."""
    store = Store(db)
    store.migrate()
    writer = Writer(store)
    writer.start()
    play = "2c+2d+2h+2h+2s+2s+2c"
    data = TableData(code="long", rules="switch", overrides=LONG, players=2, seed=1, dealer=1,
                     status="playing", host_hash="0" * 64, seats=[])

    async def write() -> None:
        await writer.run(Store.add_table(data))
        await writer.run(Store.add_action("long", ActionData(1, 1, 0, play, "person")))

    try:
        asyncio.run(write())
    finally:
        writer.stop()
    loaded = store.load("long")
    store.close()
    assert loaded is not None and [a.action for a in loaded.actions] == [play]


def test_a_long_multi_card_play_goes_through_the_server_and_a_restart_replays_it(db: str) -> None:
    seed = first_seed("switch", LONG, 2,
                      lambda g: any(len(str(a)) > 16 for a in g.legal_actions()))
    with make_client(db, bot_delay=3600) as client:  # the bot waits: the state stays as told
        table = create(client, rules="switch", players=2, overrides=LONG, seed=seed, name="Ana")
        code = table["code"]
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ana = Peer(ws, table["token"])
            ana.hello()
            ana.send("seat_bot", token=table["host_token"], seat=1, bot="greedy")
            ana.send("start", token=table["host_token"])
            ana.until(lambda m: m["type"] == "state")
            long = max(ana.view["legal"], key=len)
            assert len(long) > 16
            ana.play(long)
            moved = ana.until(lambda m: m["type"] == "state" and m["version"] == 1)
            assert moved["last"]["action"] == long
            told = room_of(client, code).game.to_json()
    with make_client(db, bot_delay=3600) as client:
        assert room_of(client, code).game.to_json() == told


# --------------------------------------------------------------------------- 1: writes that fail


Faulty = tuple[str, Callable[[], None], Callable[[], None]]
"""A database URL, and how to make its writes fail and then work again."""


@pytest.fixture
def faulty(db: str) -> Iterator[Faulty]:
    """SQLite locked by another connection (writes wait 0.2 s, then fail), or PostgreSQL
    cut off behind a :class:`FaultProxy` (as if stopped, then started again)."""
    if db.startswith("sqlite"):
        path = make_url(db).database
        assert path is not None
        holder: list[sqlite3.Connection] = []

        def lock() -> None:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("BEGIN EXCLUSIVE")
            holder.append(conn)

        def unlock() -> None:
            while holder:
                conn = holder.pop()
                conn.execute("ROLLBACK")
                conn.close()

        try:
            yield f"{db}?timeout=0.2", lock, unlock
        finally:
            unlock()
    else:
        with proxied(db) as (url, proxy):
            yield url, proxy.down, proxy.up


def health(client: TestClient) -> Message:
    response = client.get("/api/health")
    assert response.status_code == 200
    data: Message = response.json()
    return data


TIMED = Limits(turn_timer=(0.1, 600.0))
"""Turn timers shorter than 5 s, for tests."""


def test_a_timer_move_that_cannot_be_stored_is_tried_until_it_lands(faulty: Faulty) -> None:
    """An absent player's turn timer runs out while the database refuses writes: the table
    does not freeze at version 0. The server says it is degraded meanwhile, and ok after."""
    url, fail, mend = faulty
    with make_client(url, limits=TIMED, bot_delay=3600) as client:
        table = create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana",
                       turn_timer=0.3, seed=9)
        assert health(client)["status"] == "ok"
        with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
            watcher = Peer(ws)  # Ana never comes: the timer plays for her
            watcher.hello()
            watcher.send("start", token=table["host_token"])
            assert watcher.until(lambda m: m["type"] == "state")["version"] == 0
            fail()
            try:
                wait_for(lambda: health(client)["status"] == "degraded", what="degraded")
                time.sleep(0.5)  # a few retries fail meanwhile
                report = health(client)
                assert report == {**report, "ok": False, "status": "degraded", "stalled": 1}
                assert room_of(client, table["code"]).version == 0
            finally:
                mend()
            moved = watcher.until(lambda m: m["type"] == "state" and m["version"] == 1,
                                  timeout=15)
            assert moved["last"]["by"] == "timer" and moved["last"]["seat"] == 0
            assert health(client) == {**health(client), "ok": True, "status": "ok", "stalled": 0}
            told = room_of(client, table["code"]).game.to_json()
    with make_client(url, limits=TIMED, bot_delay=3600) as client:
        restored = room_of(client, table["code"])
        assert restored.version == 1 and restored.game.to_json() == told


def test_a_bot_table_freezes_no_longer_when_its_writes_fail(faulty: Faulty) -> None:
    url, fail, mend = faulty
    with make_client(url) as client, watched_bot_table(client, target=500, seed=3) as (table, watcher):
        watcher.until(lambda m: m["type"] == "state" and m["version"] >= 3)
        fail()
        try:
            wait_for(lambda: health(client)["status"] == "degraded", what="degraded")
            stuck = room_of(client, table["code"]).version
            time.sleep(0.5)
            assert room_of(client, table["code"]).version == stuck
        finally:
            mend()
        watcher.until(lambda m: m["type"] == "state" and m["version"] >= stuck + 5,
                      timeout=15)
        assert health(client)["status"] == "ok"


# --------------------------------------------------------------------------- 3: a lost answer


@pytest.fixture
def lost_reply(db: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Callable[[], None]]]:
    """A database URL, and how to lose the answer to the next commit (the write is stored,
    the server hears it failed): on PostgreSQL a proxy forwards the ``COMMIT`` and cuts the
    connection before the answer; on SQLite the writer reports a failure after committing."""
    if db.startswith("sqlite"):
        lose: list[bool] = []
        real = store_module._settle

        def settle(future: asyncio.Future[None], error: BaseException | None) -> None:
            if error is None and lose:
                lose.clear()
                error = OSError("the connection broke before the commit's answer")
            real(future, error)

        monkeypatch.setattr(store_module, "_settle", settle)
        yield db, lambda: lose.append(True)
    else:
        with proxied(db) as (url, proxy):
            yield url, proxy.drop_commit_reply


def test_a_move_whose_commit_answer_is_lost_is_found_and_stored_once(
        lost_reply: tuple[str, Callable[[], None]]) -> None:
    """The move is stored though its commit's answer never came: the player sees it played
    (never "unchanged"), the next moves are stored after it (no duplicate key), and a
    restart shows exactly what the clients were told."""
    url, lose = lost_reply
    with make_client(url, bot_delay=3600) as client:
        table = create(client, rules="classic", players=2, name="Ana", seed=6)
        code = table["code"]
        bob_seat = join(client, code, "Bob")
        with client.websocket_connect(f"/ws/tables/{code}") as ws_a, \
                client.websocket_connect(f"/ws/tables/{code}") as ws_b:
            ana, bob = Peer(ws_a, table["token"]), Peer(ws_b, bob_seat["token"])
            ana.hello()
            bob.hello()
            ana.send("start", token=table["host_token"])
            ana.until(lambda m: m["type"] == "state")
            bob.until(lambda m: m["type"] == "state")
            lose()
            move = ana.view["legal"][0]
            ana.play(move)
            seen = ana.recv(timeout=15)
            assert seen["type"] == "state", seen  # not an error saying the table is unchanged
            assert seen["version"] == 1 and seen["last"]["action"] == move
            assert bob.until(lambda m: m["type"] == "state")["version"] == 1
            for _ in range(3):  # the moves after it are stored too
                acted = ana.version
                peer = (ana, bob)[ana.view["to_play"]]
                peer.play(peer.view["legal"][0])
                for p in (ana, bob):
                    p.until(lambda m: m["type"] == "state" and m["version"] > acted)  # noqa: B023
            told = ana.state
    with make_client(url, bot_delay=3600) as client:
        room = room_of(client, code)
        assert room.version == 4
        stored = client.app.state.hub.store.load(code)  # type: ignore[attr-defined]
        assert [a.seq for a in stored.actions] == [1, 2, 3, 4]
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            again = Peer(ws, table["token"])
            again.hello()
            assert told is not None and again.expect("state") == {**told, "last": None}


def test_a_lost_answer_while_the_database_is_down_is_said_and_settled() -> None:
    """The answer to a commit is lost and the database stops: the player hears that the move
    may or may not be stored (``unavailable``), never that the table is unchanged; once the
    database is back, the table finds the stored move by itself and sends it."""
    with fresh_schema() as db, proxied(db) as (url, proxy), \
            make_client(url, bot_delay=3600) as client:
        table = create(client, rules="classic", players=2, name="Ana", bots={"1": "greedy"},
                       seed=6)
        with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
            ana = Peer(ws, table["token"])
            ana.hello()
            ana.send("start", token=table["host_token"])
            ana.until(lambda m: m["type"] == "state")
            proxy.drop_commit_reply(then_down=True)  # stopped while the answer is lost
            move = ana.view["legal"][0]
            ana.play(move)
            said = ana.recv(timeout=15)
            assert said["type"] == "error" and said["code"] == "unavailable", said
            assert "may or may not be stored" in said["message"]
            assert health(client)["status"] == "degraded"
            proxy.up()
            found = ana.until(lambda m: m["type"] == "state", timeout=15)
            assert found["version"] == 1 and found["last"]["action"] == move
            assert health(client)["status"] == "ok"


# --------------------------------------------------------------------------- 10: turn timers


def test_a_turn_timer_keeps_its_remaining_time_across_a_restart(db: str) -> None:
    """A 30 s turn stopped after 1.5 s resumes with what was left of it, not 30 s anew."""
    with make_client(db, limits=TIMED, bot_delay=3600) as client:
        table = create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana",
                       turn_timer=30, seed=9)
        with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
            ana = Peer(ws, table["token"])
            ana.hello()
            ana.send("start", token=table["host_token"])
            first = ana.until(lambda m: m["type"] == "state")
            assert first["version"] == 0 and 29 <= first["timer"] <= 30
            time.sleep(1.5)
    with make_client(db, limits=TIMED, bot_delay=3600) as client, \
            client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello()
        resumed = ana.expect("state")
        assert resumed["version"] == 0 and 20 <= resumed["timer"] <= 28.5


# --------------------------------------------------------------------------- 4: connection slots


def test_a_failed_table_lookup_gives_its_connection_slot_back(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking a table up fails (PostgreSQL stopped; on SQLite the read fails): each
    connection is told so and closed, and its slot is freed, so the address is not locked
    out once the database is back."""
    limits = Limits(connections_per_address=3)
    with ExitStack() as stack:
        if db.startswith("sqlite"):
            url = db
            broken = Store.load

            def failing(_self: Store, _code: str) -> None:
                raise OSError("the disk is gone")

            def fail() -> None:
                monkeypatch.setattr(Store, "load", failing)

            def mend() -> None:
                monkeypatch.setattr(Store, "load", broken)
        else:
            url, proxy = stack.enter_context(proxied(db))
            fail, mend = proxy.down, proxy.up
        client = stack.enter_context(make_client(url, limits=limits))
        code = create(client, rules="classic", players=2, seed=1)["code"]
        hub_of(client).rooms.clear()  # not in memory: every connection looks it up
        fail()
        for _ in range(5):
            with client.websocket_connect(f"/ws/tables/{code}") as ws:
                said = Peer(ws).recv(timeout=15)
                assert said["type"] == "error" and said["code"] == "unavailable", said
        assert hub_of(client).connections == {}
        mend()
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            assert Peer(ws).hello()["table"]["code"] == code


# --------------------------------------------------------------------------- 5: bounded matches


@pytest.mark.parametrize(("body", "words"), [
    ({"target": 0}, "target 0 (no target score) and no round limit would never end: give a "
                    "target above 0, or rounds from 1 to 100"),
    ({"target": 0, "rounds": 0}, "rounds from 1 to 100"),
    ({"overrides": {"target": 0}}, "would never end"),
    ({"target": 0, "rounds": 101}, "rounds must be 1 to 100 on this server"),
    ({"rounds": 5000}, "rounds must be 1 to 100 on this server (or 0 for no limit, with a "
                       "target score); got 5000"),
])
def test_a_match_that_could_never_end_is_refused(tmp_path: Path, body: Message,
                                                 words: str) -> None:
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}") as client:
        refused = client.post("/api/tables", json={"rules": "classic", "players": 2,
                                                   "bots": {"0": "greedy", "1": "greedy"}, **body})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
        assert words in refused.json()["message"]
        assert hub_of(client).rooms == {}
        made = create(client, rules="classic", players=2, target=0, rounds=3)
        assert made["table"]["overrides"] == {"target": 0, "rounds": 3}


def test_welcome_carries_the_most_recent_lines_and_hello_is_rate_limited(tmp_path: Path) -> None:
    limits = Limits(welcome_log=10, hello_burst=3, hellos_per_second=0.01)
    with (make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as client,
          watched_bot_table(client, target=0, rounds=3, seed=5) as (made, host)):
        code = made["code"]
        host.until(lambda m: m["type"] == "state" and m["version"] >= 30)
        room = room_of(client, code)
        with client.websocket_connect(f"/ws/tables/{code}") as ws2:
            late = Peer(ws2)
            welcome = late.hello()
            everything = room._narrate("en")
            total = welcome["log_skipped"] + len(welcome["log"])
            assert len(welcome["log"]) == 10 and total >= 30
            assert welcome["log"] == everything[total - 10:total]
            assert late.expect("state")["view"] is not None  # the whole view follows
            for _ in range(2):  # the burst: three hellos in all
                late.send("hello")
                late.until(lambda m: m["type"] in ("welcome", "error"))
                late.until(lambda m: m["type"] == "state")
            late.send("hello")
            refused = late.until(lambda m: m["type"] == "error")
            assert refused["code"] == "rate_limited" and "hello at most" in refused["message"]
            ping = late.send("ping")  # still connected
            late.until(lambda m: m == {"type": "pong", "seq": ping})


# --------------------------------------------------------------------------- 6: clients that stop reading


@contextmanager
def live_server(db: str, limits: Limits) -> Iterator[tuple[int, Any]]:
    """The app served by uvicorn on a loopback port, in a thread: its port and its hub."""
    import uvicorn

    from eights.server import create_app

    app = create_app(db, bot_delay=0.0, limits=limits, testing_fixed_seeds=True,
                     reviews_ahead=False)
    probe = socket.create_server(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, what="uvicorn to start")
        yield port, app.state.hub
    finally:
        server.should_exit = True
        thread.join(30)


def _ws_frame(text: str) -> bytes:
    """A client's masked text frame."""
    payload, mask = text.encode(), os.urandom(4)
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    """A spectator's socket stops reading (its TCP window shuts): the server drops it within
    ``send_timeout`` of the block, frees its slot and its queue, and the table plays on."""
    limits = Limits(send_queue_bytes=64 * 1024, send_timeout=1.0)
    with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits) as (port, hub):
        body = json.dumps({"rules": "classic", "players": 4, "target": 0, "rounds": 100,
                           "bots": {str(i): "greedy" for i in range(4)}}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", data=body,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            made = json.loads(answer.read())
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(f"GET /ws/tables/{made['code']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += sock.recv(1)
        assert reply.startswith(b"HTTP/1.1 101"), reply
        sock.sendall(_ws_frame('{"type": "hello", "seq": 1}'))
        sock.sendall(_ws_frame(json.dumps({"type": "start", "seq": 2,
                                           "token": made["host_token"]})))
        try:  # from here on the client reads nothing
            wait_for(lambda: hub.connections.get("127.0.0.1") == 1, what="the connection")
            room = hub.rooms[made["code"]]
            wait_for(lambda: not hub.connections, timeout=90, what="the client to be dropped")
            assert not room.conns
            at = room.version  # the table plays on (or has just finished its 100 rounds)
            wait_for(lambda: room.version > at or room.status != "playing", what="play on")
        finally:
            sock.close()


def test_a_bot_move_whose_commit_answer_is_lost_is_told_and_stored_once(
        lost_reply: tuple[str, Callable[[], None]]) -> None:
    """Bots play on after a lost answer: every state a watcher is sent follows the one before
    by one version, and the stored actions are exactly the moves it was told, each once."""
    url, lose = lost_reply
    with (make_client(url, bot_delay=0.01) as client,
          watched_bot_table(client, target=0, rounds=1, seed=4) as (made, watcher)):
        code = made["code"]
        watcher.until(lambda m: m["type"] == "state" and m["version"] >= 2)
        lose()
        told = {}
        while True:
            state = watcher.until(lambda m: m["type"] == "state", timeout=15)
            if state["last"] is not None:
                told[state["version"]] = state["last"]["action"]
            if state["version"] >= 12 or state["view"]["round_over"]:
                break
    stored = Store(url)
    data = stored.load(code)
    stored.close()
    assert data is not None
    actions = {a.seq: a.action for a in data.actions}
    assert sorted(actions) == list(range(1, len(actions) + 1))  # each seq once, no gap
    assert told == {v: actions[v] for v in told}
    assert sorted(told) == list(range(min(told), max(told) + 1))
