"""Two ``eights serve`` processes on one PostgreSQL, behind the shipped HAProxy config.

One cluster (:class:`eights.server.cluster.Cluster`: real processes, real
HAProxy, a fresh schema) serves the whole module; a test that kills a process
starts it again. Each open table is run by the process holding its lease; who
that is comes from the database (:func:`owner`), as an operator would find it.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import os
import random
import signal
import socket
import stat
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect, unix_connect

from eights.cli import app as cli_app
from eights.engine.record import load_record, replay
from eights.server.cluster import (
    HAPROXY_CONFIG,
    Cluster,
    ClusterError,
    free_port,
    per_address_bound,
    render_haproxy,
    unix_request,
)
from eights.server.leases import APPLICATION, LEASE_KEY
from eights.server.store import normalize_url
from postgres import fresh_schema
from test_server import pick

Message = dict[str, Any]

FAILOVER = 10.0
"""Seconds within which another process runs a table whose process was killed."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with fresh_schema() as url, Cluster(
            url, 2, log_dir=tmp_path_factory.mktemp("cluster"),
            serve_args=["--bot-delay", "0.02", "--testing-fixed-seeds",
                        "--address-limit", "500"]) as running:
        yield running


@pytest.fixture
def both(cluster: Cluster) -> Cluster:
    """The cluster with both processes up (a test before may have killed one)."""
    for i in range(len(cluster.servers)):
        if not cluster.alive(i):
            cluster.restart(i)
    return cluster


def call(url: str, method: str = "GET", body: Message | None = None) -> tuple[int, Message]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def direct(cluster: Cluster, i: int, path: str, method: str = "GET",
           body: Message | None = None) -> tuple[int, Message]:
    """A request straight to process ``i`` (its Unix socket), past the proxy."""
    data = None if body is None else json.dumps(body).encode()
    status, answer = unix_request(cluster.server_socket(i), method, path, data,
                                  headers={"Content-Type": "application/json"})
    return status, json.loads(answer)


def direct_socket(cluster: Cluster, i: int, code: str) -> Any:
    """A WebSocket to table ``code`` straight at process ``i``."""
    return unix_connect(str(cluster.server_socket(i)), f"ws://localhost/ws/tables/{code}",
                        open_timeout=15)


def made(cluster: Cluster, **body: Any) -> Message:
    status, table = call(f"{cluster.url}/api/tables", "POST", body)
    assert status == 201, table
    return table


def query(cluster: Cluster, sql: str, **params: Any) -> list[Any]:
    engine = create_engine(normalize_url(cluster.db_url))
    try:
        with engine.connect() as connection:
            return list(connection.execute(text(sql), params))
    finally:
        engine.dispose()


def owner(cluster: Cluster, code: str) -> int | None:
    """The index of the process holding the lease of table ``code`` (from ``pg_locks``)."""
    rows = query(cluster, "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                 "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objsubid = 1 "
                 "AND l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = "
                 + LEASE_KEY.replace("%s", ":code"), code=code)
    pids = {int(name.removeprefix(APPLICATION)) for (name,) in rows}
    assert len(pids) <= 1, pids
    for i, server in enumerate(cluster.servers):
        if server is not None and server.pid in pids:
            return i
    return None


def stored(cluster: Cluster, code: str) -> int:
    """The actions stored for table ``code``."""
    return int(query(cluster, "SELECT count(*) FROM actions WHERE table_code = :c", c=code)[0][0])


def eventually(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what} within {seconds:g} s"
        time.sleep(0.05)


class Person:
    """A player in a browser: a WebSocket through the proxy, opened again when it drops (as
    static/net.js does); every state seen, and every close code."""

    def __init__(self, cluster: Cluster, code: str, token: str, at: int | None = None) -> None:
        """Through the proxy, or straight ``at`` a process."""
        self.url = f"ws://{cluster.url.removeprefix('http://')}/ws/tables/{code}"
        self.open = ((lambda: connect(self.url, open_timeout=15)) if at is None
                     else (lambda: direct_socket(cluster, at, code)))
        self.token = token
        self.closes: list[int | None] = []
        self.states: list[Message] = []
        self.seq = 0
        self._sockets = ExitStack()
        self.ws = self._connect()

    def _connect(self) -> Any:
        deadline = time.monotonic() + FAILOVER
        while True:
            try:
                ws = self._sockets.enter_context(self.open())
                self.seq = 1
                ws.send(json.dumps({"type": "hello", "seq": 1, "token": self.token}))
                return ws
            except (OSError, ConnectionClosed):
                assert time.monotonic() < deadline, "could not reconnect"
                time.sleep(0.2)

    def send(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        with contextlib.suppress(ConnectionClosed):  # the next receive reconnects, and the
            self.ws.send(json.dumps({"type": kind, "seq": self.seq, **fields}))  # caller resends

    def until(self, pred: Callable[[Message], bool], timeout: float = 15.0) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            try:
                message: Message = json.loads(self.ws.recv(timeout=max(0.1, deadline
                                                                        - time.monotonic())))
            except ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
                self.ws = self._connect()
                continue
            if message["type"] == "state":
                self.states.append(message)
            if pred(message):
                return message
            assert time.monotonic() < deadline, "no such message in time"

    @property
    def state(self) -> Message:
        return self.states[-1]

    def close(self) -> None:
        self._sockets.close()


def my_turn(message: Message) -> bool:
    """A state where seat 0 (the person) is to play, or the round or match is over."""
    if message["type"] != "state":
        return False
    view = message["view"]
    return bool(view["match_over"] or view["round_over"] or view["to_play"] == 0)


def play(person: Person, host: str, moves: int, rng: random.Random) -> None:
    """``moves`` of the person's moves at a table of one person and bots (dealing the next
    round when one ends); each made on the newest state and seen applied. A move whose
    connection dropped is made again on the state the reconnection brings (as the page
    does: it offers the moves of the state it has)."""
    done = 0
    while done < moves:
        state = person.until(my_turn) if not my_turn(person.state) else person.state
        view, version = state["view"], state["version"]
        if view["match_over"]:
            return
        if view["round_over"]:
            person.send("next_round", token=host, version=version)
        else:
            person.send("action", token=person.token, version=version,
                        action=pick(view["legal"], rng))
        after = person.until(moved_or_dropped(person, version))
        if after["type"] == "error":  # refused for now (the database is away): play again on
            after = person.until(lambda m: m["type"] == "state")  # the state sent once back
        done += after["version"] > version


def moved_or_dropped(person: Person, version: int) -> Callable[[Message], bool]:
    """A state past ``version``, or any state after the connection dropped from now on, or
    an ``unavailable`` error."""
    drops = len(person.closes)
    return lambda m: ((m["type"] == "state" and (m["version"] > version
                                                 or len(person.closes) > drops))
                      or (m["type"] == "error" and m["code"] == "unavailable"))


def person_and_bot(cluster: Cluster, seed: int) -> tuple[Message, Person]:
    """A started classic table of Ana (seat 0, through the proxy) and a greedy bot."""
    table = made(cluster, rules="classic", players=2, name="Ana", bots={"1": "greedy"},
                 seed=seed, target=500)
    person = Person(cluster, table["code"], table["token"])
    person.until(lambda m: m["type"] == "welcome")
    person.send("start", token=table["host_token"])
    person.until(my_turn)
    return table, person


def finished_record(cluster: Cluster, table: Message, person: Person) -> Message:
    """Close the table as its host, and read its record through the proxy."""
    while True:  # sent again if the connection dropped first
        person.send("close", token=table["host_token"])
        if person.until(closed_or_dropped(person))["type"] == "table":
            break
    status, record = call(f"{cluster.url}/api/tables/{table['code']}/record")
    assert status == 200, record
    return record


def closed_or_dropped(person: Person) -> Callable[[Message], bool]:
    drops = len(person.closes)
    return lambda m: ((m["type"] == "table" and m["table"]["status"] == "closed")
                      or (m["type"] == "state" and len(person.closes) > drops))


def check_record(record: Message, person: Person) -> None:
    """The record replays to what the person saw last, and holds each step once."""
    game = replay(load_record(record))
    last = person.state
    assert sum(len(r["actions"]) for r in record["rounds"]) + game.round - 1 == last["version"]
    assert game.observe(0).to_json() == last["view"]
    versions = [s["version"] for s in person.states]
    assert versions == sorted(versions)  # never a step back, whatever reconnected


def logs(cluster: Cluster) -> str:
    return "".join(p.read_text(errors="replace") for p in Path(cluster.log_dir).glob("server*.log"))


# --------------------------------------------------------------------------- the tests


def test_every_process_lists_the_same_lobby(both: Cluster) -> None:
    public = [made(both, rules="classic", players=3, title=f"open {i}")["code"] for i in range(3)]
    hidden = made(both, rules="classic", players=3, public=False)["code"]

    def lobbies() -> list[list[str]] | None:
        seen = [[t["code"] for t in direct(both, i, "/api/tables")[1]["tables"]]
                for i in range(2)]
        return seen if all(set(public) <= set(codes) for codes in seen) else None

    first, second = eventually(lobbies, 3.0, "both processes list the new tables")
    assert first == second
    assert hidden not in first
    # Listing tables never moves them: each is still run by the process that made it.
    assert {owner(both, code) for code in public} <= {0, 1}


def test_a_seat_is_sold_once_when_two_processes_are_asked_at_once(both: Cluster) -> None:
    def buy(go: threading.Barrier, answers: list[tuple[int, Message]], code: str, i: int) -> None:
        go.wait()
        answers.append(direct(both, i, f"/api/tables/{code}/join", "POST",
                              {"name": f"Buyer {i}", "seat": 1}))

    for attempt in range(4):
        table = made(both, rules="classic", players=3, name="Ana")
        code = table["code"]
        go = threading.Barrier(2)
        answers: list[tuple[int, Message]] = []
        buyers = [threading.Thread(target=buy, args=(go, answers, code, i)) for i in (0, 1)]
        for b in buyers:
            b.start()
        for b in buyers:
            b.join(30)
        sold = [answer for status, answer in answers if status == 200]
        assert len(sold) == 1, (attempt, answers)
        refused = [answer for status, answer in answers if status != 200]
        assert len(refused) == 1 and refused[0]["code"] in ("bad_request", "unavailable"), answers
        seats = query(both, "SELECT name FROM seats WHERE table_code = :c AND seat = 1", c=code)
        assert seats[0][0] == sold[0]["table"]["seats"][1]["name"]


def test_a_bot_table_runs_once_while_requests_move_it(both: Cluster) -> None:
    table = made(both, rules="classic", players=3, bots={"0": "greedy", "1": "greedy",
                                                         "2": "greedy"}, seed=5, rounds=2)
    code = table["code"]
    with connect(f"ws://{both.url.removeprefix('http://')}/ws/tables/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1}))
        ws.send(json.dumps({"type": "start", "seq": 2, "token": table["host_token"]}))
        eventually(lambda: stored(both, code) > 0, 5.0, "the bots move")
    moves = 0
    while moves < 6 and call(f"{both.url}/api/tables/{code}")[1]["status"] == "playing":
        was = owner(both, code)
        other = 1 - was if was is not None else moves % 2
        # Nobody is connected to it where it runs: a connection at the other process takes it.
        with direct_socket(both, other, code) as ws:
            ws.send(json.dumps({"type": "hello", "seq": 1}))
            welcome = json.loads(ws.recv(timeout=10))
            assert welcome["type"] == "welcome", welcome
            if welcome["table"]["status"] == "playing":  # (unless the match just ended)
                holder = owner(both, code)
                assert holder == other or (holder is None and call(
                    f"{both.url}/api/tables/{code}")[1]["status"] == "finished"), holder
        moves += 1
        time.sleep(0.1)
    eventually(lambda: call(f"{both.url}/api/tables/{code}")[1]["status"] == "finished", 60.0,
               "the match ends")
    status, record = call(f"{both.url}/api/tables/{code}/record")
    assert status == 200, record
    game = replay(load_record(record))
    assert game.match_over and game.round == 2
    assert sum(len(r["actions"]) for r in record["rounds"]) == stored(both, code)
    assert "duplicate key" not in logs(both) and "database write failed" not in logs(both)


def test_a_killed_owner_s_table_plays_on_elsewhere_nothing_lost(both: Cluster) -> None:
    rng = random.Random(7)
    table, person = person_and_bot(both, seed=11)
    play(person, table["host_token"], 6, rng)
    killed = owner(both, table["code"])
    assert killed is not None
    seen = person.state["version"]
    both.kill(killed)
    gone = time.monotonic()
    state = person.until(lambda m: m["type"] == "state" and len(person.closes) > 0)
    failover = time.monotonic() - gone
    assert failover < FAILOVER
    assert state["version"] >= seen
    assert owner(both, table["code"]) == 1 - killed
    play(person, table["host_token"], 6, rng)
    # The proxy now sends the table's requests where it runs, also once the killed process
    # is back (the code stuck to the process that answered the person's reconnection).
    both.restart(killed)
    watcher = spectate(both, table["code"])
    assert isinstance(watcher[0], dict) and watcher[0]["type"] == "welcome", watcher
    assert owner(both, table["code"]) == 1 - killed
    check_record(finished_record(both, table, person), person)
    person.close()


def test_a_table_nobody_watches_is_adopted_when_its_process_dies(both: Cluster) -> None:
    table = made(both, rules="classic", players=2, bots={"0": "greedy", "1": "greedy"},
                 seed=3, target=10_000)
    code = table["code"]
    with connect(f"ws://{both.url.removeprefix('http://')}/ws/tables/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1}))
        ws.send(json.dumps({"type": "start", "seq": 2, "token": table["host_token"]}))
        eventually(lambda: stored(both, code) > 0, 5.0, "the bots move")
    killed = owner(both, code)
    assert killed is not None
    both.kill(killed)
    at_kill = stored(both, code)
    eventually(lambda: owner(both, code) == 1 - killed, FAILOVER, "the other process adopts it")
    eventually(lambda: stored(both, code) > at_kill + 3, FAILOVER, "the bots play on")
    status, info = call(f"{both.url}/api/tables/{code}")
    assert status == 200 and info["status"] == "playing"


def test_a_table_whose_people_went_to_another_process_is_handed_over(both: Cluster) -> None:
    """A person who comes back at the process that does not run the table (a proxy that
    changed its mind), nobody being connected where it runs: that process hands it over
    within the wait, and play goes on there."""
    rng = random.Random(5)
    table, person = person_and_bot(both, seed=8)
    code = table["code"]
    play(person, table["host_token"], 3, rng)
    running = owner(both, code)
    assert running is not None
    seen = person.state["version"]
    person.close()
    asked = time.monotonic()
    back = Person(both, code, table["token"], at=1 - running)
    state = back.until(lambda m: m["type"] == "state")
    assert time.monotonic() - asked < 5.0
    assert state["version"] >= seen  # (the bot may have moved since)
    assert owner(both, code) == 1 - running
    play(back, table["host_token"], 4, rng)
    assert back.closes == []
    check_record(finished_record(both, table, back), back)
    back.close()


def test_a_process_whose_lease_connection_breaks_stops_changing_its_tables(both: Cluster) -> None:
    """PostgreSQL ends the lease connection of a table's process (as when it restarts): that
    process stops moving the table until it leases it again, or lets another run it; play
    goes on, each step once."""
    rng = random.Random(9)
    table, person = person_and_bot(both, seed=13)
    play(person, table["host_token"], 3, rng)
    running = owner(both, table["code"])
    assert running is not None
    server = both.servers[running]
    assert server is not None
    ended = query(both, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                  "WHERE application_name LIKE :name", name=f"{APPLICATION} {server.pid}%")
    assert [e for (e,) in ended] == [True, True]  # its lease and listening connections
    eventually(lambda: owner(both, table["code"]) is not None, FAILOVER, "leased again")
    play(person, table["host_token"], 5, rng)
    check_record(finished_record(both, table, person), person)
    person.close()
    assert "the lease connection to PostgreSQL broke" in logs(both)


def test_several_processes_need_postgresql_and_haproxy(tmp_path: Path) -> None:
    runner = CliRunner()
    sqlite = runner.invoke(cli_app, ["serve", "--processes", "2", "--db",
                                     f"sqlite:///{tmp_path / 'one.sqlite3'}"])
    assert sqlite.exit_code == 2 and "needs a PostgreSQL --db" in sqlite.output
    for option in (["--trusted-proxy", "10.0.0.1"], ["--unix-socket", str(tmp_path / "s")]):
        mixed = runner.invoke(cli_app, ["serve", "--processes", "2", "--db",
                                        "postgresql://u:p@127.0.0.1:1/x", *option])
        assert mixed.exit_code == 2 and "runs its servers on private sockets" in mixed.output
    with pytest.raises(ClusterError, match="HAProxy is not at '/nowhere/haproxy'"):
        Cluster("postgresql://u:p@127.0.0.1:1/x", 2, log_dir=tmp_path, haproxy="/nowhere/haproxy")


# --------------------------------------------------------------------------- routing (issue 29)


def raw_get(host: str, port: int, path: str) -> tuple[int, bytes]:
    """``GET path`` sent exactly as written (no client normalises it)."""
    connection = http.client.HTTPConnection(host, port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def encoded_paths(code: str) -> list[str]:
    """Addresses of table ``code`` that a server decodes to its own, written with percent
    escapes: the prefix's slash, the code's slash, one letter of the code."""
    letter = next(i for i, c in enumerate(code) if c.isalpha())
    one = f"{code[:letter]}%{ord(code[letter]):02X}{code[letter + 1:]}"
    return [f"/api%2Ftables/{code}", f"/api/tables%2F{code}", f"/ws%2Ftables/{code}",
            f"/api/tables/{one}", f"/api/tables/{one}/record", f"/ws/tables/{one}"]


class Flood:
    """``request(i)`` called every ``every`` seconds in a thread, until :meth:`stop`; the
    answers (or the exceptions raised) in :attr:`answers`."""

    def __init__(self, request: Callable[[int], Any], every: float) -> None:
        self.answers: list[Any] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(request, every), daemon=True)
        self._thread.start()

    def _run(self, request: Callable[[int], Any], every: float) -> None:
        i = 0
        while not self._stop.is_set():
            try:
                self.answers.append(request(i))
            except Exception as exc:  # the answer is what the test looks at
                self.answers.append(exc)
            i += 1
            self._stop.wait(every)

    def play_through(self, person: Person, host: str, rng: random.Random, *, moves: int,
                     answers: int) -> None:
        """The person plays at least ``moves`` moves, and on until ``answers`` requests were
        answered (at most a minute more)."""
        play(person, host, moves, rng)
        deadline = time.monotonic() + 60
        while len(self.answers) < answers and time.monotonic() < deadline:
            play(person, host, 1, rng)

    def stop(self) -> list[Any]:
        self._stop.set()
        self._thread.join(60)
        return self.answers


def test_a_percent_encoded_path_through_the_proxy_never_moves_a_table(both: Cluster) -> None:
    """The proxy routes on the path it reads; the server decodes it: an address written with
    percent escapes (a slash of the prefix, a letter of the code) would reach any process.
    The proxy refuses them (400), so a flood of them during play changes nothing."""
    rng = random.Random(21)
    table, person = person_and_bot(both, seed=21)
    code = table["code"]
    play(person, table["host_token"], 2, rng)
    running = owner(both, code)
    assert running is not None
    port = int(both.url.rsplit(":", 1)[1])
    paths = encoded_paths(code)
    requests = Flood(lambda i: raw_get("127.0.0.1", port, paths[i % len(paths)]), 0.05)
    try:
        before = stored(both, code)
        requests.play_through(person, table["host_token"], rng, moves=8, answers=24)
    finally:
        answers = requests.stop()
    assert owner(both, code) == running
    assert person.closes == []  # nobody was sent away
    assert len(answers) >= 24
    assert all(isinstance(a, tuple) and a[0] == 400 for a in answers), answers[:5]
    assert stored(both, code) >= before + 8
    check_record(finished_record(both, table, person), person)
    person.close()


def test_requests_at_a_process_that_does_not_run_a_table_never_move_it(both: Cluster) -> None:
    """Straight to the process that does not run a table, past the proxy: reads are answered
    from the database, and a WebSocket is told to come back (1013) while someone is connected
    at the table's process: the table stays, play flows. Once nobody is there, a connection
    at the other process takes the table over."""
    rng = random.Random(23)
    table, person = person_and_bot(both, seed=23)
    code = table["code"]
    play(person, table["host_token"], 2, rng)
    running = owner(both, code)
    assert running is not None
    other = 1 - running

    def request(i: int) -> Any:
        if i % 3 == 0:
            return direct(both, other, f"/api/tables/{code}")
        if i % 3 == 1:
            return direct(both, other, f"/api/tables/{code}/rules")
        try:
            with direct_socket(both, other, code) as ws:
                ws.send(json.dumps({"type": "hello", "seq": 1}))
                return [json.loads(ws.recv(timeout=10)) for _ in range(3)]
        except ConnectionClosed as closed:  # (closed before the hello was sent, or after)
            return closed.rcvd.code if closed.rcvd else None

    requests = Flood(request, 0.05)
    try:
        before = stored(both, code)
        requests.play_through(person, table["host_token"], rng, moves=8, answers=24)
    finally:
        answers = requests.stop()
    assert owner(both, code) == running
    assert person.closes == []
    assert len(answers) >= 24
    assert stored(both, code) >= before + 8
    infos = [a for i, a in enumerate(answers) if i % 3 == 0]
    assert infos and all(a[0] == 200 and a[1]["code"] == code and a[1]["status"] == "playing"
                         for a in infos), infos[:3]
    versions = [a[1]["version"] for a in infos]
    assert versions == sorted(versions) and versions[-1] > versions[0]
    assert all(a[0] == 200 and a[1]["overrides"] == {"target": 500}
               for i, a in enumerate(answers) if i % 3 == 1)
    sockets = [a for i, a in enumerate(answers) if i % 3 == 2]
    assert sockets and all(a == 1013 for a in sockets), sockets[:3]
    # The person leaves: the table's process has nobody at it, and lets it go when asked (a
    # client told "unavailable" a moment before tries again, as the page does).
    person.close()
    deadline = time.monotonic() + 10
    while True:
        with direct_socket(both, other, code) as ws:
            with contextlib.suppress(ConnectionClosed):  # refused, it may be closed already
                ws.send(json.dumps({"type": "hello", "seq": 1}))
            welcome = json.loads(ws.recv(timeout=10))  # (what came before the close comes)
            if welcome["type"] == "welcome":
                state = json.loads(ws.recv(timeout=10))
                assert state["type"] == "state" and state["version"] >= person.state["version"]
                break
        assert welcome["code"] == "unavailable" and time.monotonic() < deadline, welcome
        time.sleep(0.5)
    assert owner(both, code) == other


def test_requests_waiting_for_a_handoff_are_each_answered_within_the_wait(
        both: Cluster) -> None:
    """Eight requests at once for a table whose process does not answer (stopped): each is
    answered within the documented wait of its own, not one after another."""
    table = made(both, rules="classic", players=3, name="Ana")
    code = table["code"]
    running = owner(both, code)
    assert running is not None
    server = both.servers[running]
    assert server is not None
    took: list[tuple[float, int]] = []

    def join(go: threading.Barrier, i: int) -> None:
        go.wait()
        start = time.monotonic()
        status, _answer = direct(both, 1 - running, f"/api/tables/{code}/join", "POST",
                                 {"name": f"Guest {i}", "seat": 1 + i % 2})
        took.append((time.monotonic() - start, status))

    go = threading.Barrier(8)
    threads = [threading.Thread(target=join, args=(go, i)) for i in range(8)]
    server.send_signal(signal.SIGSTOP)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        server.send_signal(signal.SIGCONT)
    assert len(took) == 8
    assert max(seconds for seconds, _ in took) < 5.0 + 2.0, sorted(took)


def proxy_connections(cluster: Cluster, address: str = "127.0.0.1") -> int:
    """The connections the proxy counts for ``address`` now (its runtime API: ``show table``)."""
    for line in cluster.ask_proxy("show table eights").splitlines():
        if f"key=::ffff:{address} " in line or f"key={address} " in line:
            return int(line.rsplit("conn_cur=", 1)[1].split()[0])
    return 0


def test_the_proxy_bounds_one_address_over_every_process(tmp_path: Path) -> None:
    """The processes see the proxy alone; the proxy sees every client: one address holds at
    most 60 connections at once through it, over every process (the next is closed
    unanswered; a place freed is taken again). Each step waits until the proxy has counted
    the connections made (its runtime API), so that none is still in its accept queue: the
    proxy accepts and counts them in several threads, so a test that did not wait saw
    another than the 61st refused (measured: the 61st answered and a held one closed in 5 of
    20 tries with HAProxy's 2 threads here, 0 of 20 with one thread). Also: a client's own
    X-Forwarded-For is not believed (its sixth table is refused), and the processes' sockets
    are in a directory nobody else can enter."""
    template = HAPROXY_CONFIG.read_text("utf-8")
    assert "tcp-request connection reject if { sc0_conn_cur gt 60 }" in template
    # Idle connections are closed after 10 s (timeout http-request): longer here, so that a
    # slow machine cannot close the held ones before the test looks.
    config = tmp_path / "haproxy.cfg.in"
    config.write_text(template.replace("timeout http-request 10s", "timeout http-request 120s"),
                      "utf-8")

    def health(sock: socket.socket) -> bytes:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: eights\r\nConnection: close\r\n\r\n")
        try:
            return sock.recv(64)
        except ConnectionResetError:
            return b""

    with fresh_schema() as url, Cluster(url, 2, log_dir=tmp_path, config=config) as running:
        assert stat.S_IMODE(running.runtime.stat().st_mode) == 0o700
        assert all(s.parent == running.runtime and s.is_socket() for s in running.sockets)
        proxy = ("127.0.0.1", running.proxy_port)
        held = [socket.create_connection(proxy, timeout=5) for _ in range(60)]
        try:
            eventually(lambda: proxy_connections(running) == 60, 20, "the proxy counts 60")
            try:
                with socket.create_connection(proxy, timeout=5) as extra:
                    assert health(extra) == b""  # closed unanswered
            except ConnectionResetError:  # (so fast that connect() itself saw the reset)
                pass
            eventually(lambda: proxy_connections(running) == 60, 20, "the 61st is gone")
            held.pop().close()
            eventually(lambda: proxy_connections(running) == 59, 20, "a place is freed")
            with socket.create_connection(proxy, timeout=5) as again:
                assert health(again).startswith(b"HTTP/1.1 200")
        finally:
            for sock in held:
                sock.close()
        eventually(lambda: proxy_connections(running) == 0, 20, "every place is freed")
        # The address a process counts is the one the proxy saw, not one the client wrote:
        # 127.0.0.1's sixth table is refused, whatever it says; 127.0.0.2 makes its own.
        body = {"rules": "classic", "players": 2}
        answers = [create_from(running, "127.0.0.1", body, {"X-Forwarded-For": f"10.0.0.{i}"})
                   for i in range(6)]
        assert [status for status, _ in answers] == [201] * 5 + [429], answers
        assert "at most 5 open tables from one address" in answers[5][1]["message"]
        assert create_from(running, "127.0.0.2", body, {})[0] == 201
    rendered = render_haproxy(template, bind="127.0.0.1:9", servers=[1],
                              per_address=per_address_bound(["--address-limit", "500"]))
    assert "sc0_conn_cur gt 540 }" in rendered
    assert "sc1_http_req_rate(creations) gt 32400 }" in rendered


def create_from(cluster: Cluster, source: str, body: Message, headers: dict[str, str]
                ) -> tuple[int, Message]:
    """``POST /api/tables`` through the proxy, from the loopback address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", cluster.proxy_port, timeout=20,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/api/tables", body=json.dumps(body),
                           headers={"Content-Type": "application/json", **headers})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def spectate(cluster: Cluster, code: str) -> list[Any]:
    """A spectator through the proxy: the first two events, or the close code."""
    try:
        with connect(f"ws://{cluster.url.removeprefix('http://')}/ws/tables/{code}",
                     open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "seq": 1}))
            return [json.loads(ws.recv(timeout=10)) for _ in range(2)]
    except ConnectionClosed as closed:
        return [closed.rcvd.code if closed.rcvd else None]


def test_a_process_the_proxy_set_aside_gets_its_tables_back(both: Cluster) -> None:
    """The proxy sets aside the process running a table while it lives (as when its health
    checks time out; here its runtime API's ``state maint``): a new connection for the table
    goes to the other process, which does not take the table from the person connected where
    it runs, and is told to come back (1013). Once the proxy takes the process back, the next
    connection reaches it: the code sticks to the process that said it runs the table, not to
    one that refused."""
    rng = random.Random(31)
    table, person = person_and_bot(both, seed=31)
    code = table["code"]
    play(person, table["host_token"], 2, rng)
    running = owner(both, code)
    assert running is not None
    aside = [f"{backend}/eights{running + 1}" for backend in ("tables", "any")]
    for server in aside:
        both.ask_proxy(f"set server {server} state maint")
    try:
        refused = spectate(both, code)
        assert refused[-1] == 1013 or refused[0]["code"] == "unavailable", refused
        play(person, table["host_token"], 2, rng)  # the person plays on where the table runs
    finally:
        for server in aside:
            both.ask_proxy(f"set server {server} state ready")
    eventually(lambda: both.proxy_sees(running), 20, "the proxy takes the process back")
    welcome = spectate(both, code)
    assert isinstance(welcome[0], dict) and welcome[0]["type"] == "welcome", welcome
    assert welcome[1]["type"] == "state", welcome
    assert owner(both, code) == running
    assert person.closes == []
    check_record(finished_record(both, table, person), person)
    person.close()


def set_aside(cluster: Cluster, i: int) -> bool:
    """Whether the proxy marks process ``i`` down in every backend (each checks it apart)."""
    try:
        rows = [line.split(",") for line in cluster.ask_proxy("show stat").splitlines()
                if not line.startswith("#")]
    except OSError:
        return False
    mine = [row for row in rows if len(row) > 17 and row[1] == f"eights{i + 1}"]
    return bool(mine) and all(row[17].startswith("DOWN") for row in mine)


def test_the_proxy_stops_sending_to_a_process_that_does_not_answer(both: Cluster) -> None:
    """Issue 36 item 2: a stopped process still accepts on its Unix socket, and the proxy kept
    sending it the requests of its tables: a reload of the page during the hang waited 60 s
    for HAProxy's 504. Its health checks (2 s to answer, three misses) now set it aside within
    seconds, and the table's requests go to the other process meanwhile."""
    table = made(both, rules="classic", players=2, name="Ana", bots={"1": "greedy"}, seed=3)
    code = table["code"]
    i = eventually(lambda: owner(both, code) is not None and (owner(both, code),), 10,
                   "the maker holds the table")[0]
    stopped = both.servers[i]
    assert stopped is not None
    os.kill(stopped.pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        eventually(lambda: set_aside(both, i), 14.0, "the proxy sets the stopped process aside")
        status, answer = call(f"{both.url}/api/tables/{code}")  # from the other process
        waited = time.monotonic() - began
        assert status == 200 and answer["code"] == code, answer
        assert waited < 20.0, f"the table's page answered {waited:.1f} s into the hang"
    finally:
        os.kill(stopped.pid, signal.SIGCONT)
    eventually(lambda: both.proxy_sees(i), 30.0, "the proxy takes the process back")


class _Stub(http.server.BaseHTTPRequestHandler):
    """A server process as the proxy sees it: healthy, and every new table made."""

    def do_GET(self) -> None:
        self._answer(200, b'{"ok": true}')

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._answer(201, b'{"code": "x"}')

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        pass


def test_the_proxy_bounds_the_new_tables_of_a_network(tmp_path: Path) -> None:
    """Issue 36 item 3: 956 creations from 956 addresses filled the servers' 1,000 tables in
    17 s. One network (an IPv4 /24, an IPv6 /48) makes 30 new tables a minute through the
    proxy, whatever its addresses; the 31st is refused in JSON."""
    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    config = tmp_path / "haproxy.cfg"
    port = free_port()
    config.write_text(render_haproxy(HAPROXY_CONFIG.read_text("utf-8"), bind=f"127.0.0.1:{port}",
                                     servers=[stub.server_address[1]]), "utf-8")
    proxy = subprocess.Popen(["/usr/sbin/haproxy", "-db", "-f", str(config)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def create(source: str) -> tuple[int, bytes]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                                    source_address=(source, 0))
            try:
                connection.request("POST", "/api/tables", body=b"{}",
                                   headers={"Content-Type": "application/json"})
                answer = connection.getresponse()
                return answer.status, answer.read()
            finally:
                connection.close()

        eventually(lambda: _up(port), 20, "the proxy answers")
        made = [create(f"127.0.0.{1 + i % 3}")[0] for i in range(30)]
        assert made == [201] * 30
        status, body = create("127.0.0.9")  # the same /24
        assert status == 429 and json.loads(body)["code"] == "rate_limited"
        assert create("127.0.1.9")[0] == 201  # another network
    finally:
        proxy.terminate()
        proxy.wait(10)
        stub.shutdown()


def _up(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def test_the_proxy_s_own_errors_are_the_servers_json(tmp_path: Path) -> None:
    """Issue 36 item 5: a proxy's error came back as its HTML page, which the browser page
    cannot read; HAProxy now answers its 502, 503 and 504 in the servers' JSON."""
    config = tmp_path / "haproxy.cfg"
    port = free_port()
    config.write_text(render_haproxy(HAPROXY_CONFIG.read_text("utf-8"), bind=f"127.0.0.1:{port}",
                                     servers=[free_port()]), "utf-8")  # nothing listens there
    proxy = subprocess.Popen(["/usr/sbin/haproxy", "-db", "-f", str(config)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def lobby() -> tuple[int, Message] | None:
            try:
                return call(f"http://127.0.0.1:{port}/api/tables")
            except OSError:
                return None

        status, answer = eventually(lobby, 20, "the proxy answers")
        assert status == 503 and answer["type"] == "error" and answer["code"] == "unavailable"
    finally:
        proxy.terminate()
        proxy.wait(10)
