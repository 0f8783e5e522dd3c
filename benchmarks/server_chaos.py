"""Chaos on the server: processes killed with -9, PostgreSQL restarted, and nothing lost.

    python benchmarks/server_chaos.py [--processes 3] [--tables 300] [--seconds 300]
                                      [--kill-every 30] [--db URL] [--json FILE] [--hostile]

It runs ``--processes`` ``eights serve`` processes on one PostgreSQL behind the
proxy (``eights.server.cluster.Cluster``: HAProxy routing by table code), or one
process alone with ``--processes 1``. Without ``--db`` it starts a private
PostgreSQL server in a temporary directory (as ``tools/test-env`` does) and
restarts it once mid-run (``pg_ctl restart``, between two kills); with ``--db``
the database is not restarted. It creates ``--tables`` tables of ``--players``
seats, the last ``--bots`` of them greedy bots and a scripted person in each of
the others: a WebSocket client that plays a legal action after a think time
(``--think`` seconds on average, uniform ±50%), the first seat dealing each
next round. Every ``--kill-every`` seconds one process (in turn) is killed with
SIGKILL and started again ``--down`` seconds later. A client whose connection
drops reconnects by itself with the browser's backoff (``static/net.js``: 0.5 s
doubling up to 10 s, ±25%) and says ``hello`` again, which brings it the
current state; an action it sent and was not told about is lost or stored, and
it plays on from what it is told.

After ``--seconds`` the clients stop acting, wait until each has the table's
last state, and the host closes every table. Then it checks:

- every table plays on: its version grew after the last fault;
- no step lost or doubled: every step any client was told of (each ``state``
  event names the version and the action that made it) is in the table's
  record at that version, so an action told accepted appears exactly once, in
  order (an action added or dropped shifts every later one);
- the record replays to the state each client saw last.

It prints the latency from an action sent to its ``state`` at the client that
sent it, outside the failover windows (a table's window runs from a connection
of its clients dropping, or from the database restart, to the table's next
step: a kill's, and a handoff's when a restarted process takes tables back),
and for each fault the failover time of the tables it reached:
from the fault to a client's first ``state`` on a new connection (reconnected)
and to the first new step (the first action after it, which includes a think
time or a bot's delay), median and max. Errors are counted by kind; most are
expected during failovers (connections refused or dropped, ``unavailable``).

With ``--hostile`` (or each of its parts: ``--flood S``, ``--sigstop S``,
``--record-flood N``, ``--creation-burst N``, ``--launcher``), the faults of a hostile
client and operator come too, each half-way between two kills (issue 29):

- *flood*: for S seconds, requests about the tables written with percent escapes
  (``/api%2Ftables/CODE``, a letter of the code as ``%41``) through the proxy, and
  reads and WebSockets straight at a process that does not run the table (its Unix
  socket): counted by answer, and the tables whose process changed meanwhile
  (``moved``) or whose clients were dropped;
- *sigstop*: the process running the most tables is stopped (SIGSTOP) for S seconds,
  then continued: the first step of its tables after the stop and after it ends;
- *burst*: N requests at once for the record of open tables (each refused, 409) and N
  creations of tables at once, with the longest health check of the processes
  meanwhile;
- *launcher*, after the run: ``eights serve --processes 2`` started, stopped with
  SIGTERM (seconds until it and its children are gone), started again and killed with
  SIGKILL (seconds until its children are gone by themselves).

With ``--hostile`` (issue 36) come too:

- *creations*: ``--creation-flood N`` tables made through the proxy from N loopback
  addresses (127.1.x.y, one each), as many addresses as it takes to fill the servers' cap of
  open tables: made and refused, then a newcomer's table (another address) every 5 s until
  one is made: how long the flood kept newcomers out (tables nobody ever came to close after
  120 s);
- *reviews*: a review of round 1 asked every ``--review-every`` seconds through the proxy,
  by a person of a table whose round 1 ended, all through the run, so that reviews are in
  flight during kills and stops: the answers by status, whether each was the servers' JSON,
  and how many overlapped a fault; and after the run, the children of every killed process
  still running (its review worker, bot workers, resource tracker: none should be);
- *sigstop*, with the page's own client: ``--page-clients`` of the stopped process's tables
  are watched by ``static/net.js`` itself (``benchmarks/net_client.mjs`` in Node 20.10+, the
  page's liveness check included): the seconds until each sees its table move again.

The scripted clients check their connection as the page does (a ping after 5 s of silence,
given up after 3 s more without an answer, or after 6 s without opening).

``tests/test_server_chaos.py`` runs it short. This is a measurement; the exit
status is 1 when an invariant fails.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import gc
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from common import Bench, machine, machine_line
from server_clients import (
    Client,
    Message,
    PrivatePostgres,
    ServerProcess,
    Step,
    add_workload_options,
    ask_review,
    check_record,
    check_workload,
    create_tables,
    get_patiently,
    in_threads,
    latency_ms,
    pick,
    step_of,
    wait_healthy,
)

# --------------------------------------------------------------------------- the servers


class Servers(Protocol):
    """What the run needs of its servers (``eights.server.cluster.Cluster`` has it)."""

    @property
    def url(self) -> str: ...

    def kill(self, i: int) -> None: ...

    def restart(self, i: int) -> None: ...

    def stop(self) -> None: ...


class ClusterLike(Servers, Protocol):
    """What the hostile faults need more (``eights.server.cluster.Cluster`` has it)."""

    servers: list[subprocess.Popen[bytes] | None]
    proxy_port: int

    def server_socket(self, i: int) -> Path: ...


class OneServer:
    """One ``eights serve`` process, killed and restarted on its port."""

    def __init__(self, db: str, log_dir: Path, serve_args: Sequence[str]) -> None:
        self.server = ServerProcess(db, log_dir / "server.log", extra=serve_args)
        self.url = self.server.base

    def kill(self, i: int) -> None:
        self.server.kill()

    def restart(self, i: int) -> None:
        self.server.kill()
        self.server.start()

    def stop(self) -> None:
        self.server.stop()

    def __enter__(self) -> OneServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


@contextmanager
def servers(db: str, processes: int, log_dir: Path, serve_args: Sequence[str],
            haproxy_config: Path | None = None) -> Iterator[Servers]:
    if processes == 1:
        with OneServer(db, log_dir, serve_args) as one:
            yield one
        return
    from eights.server.cluster import Cluster

    with Cluster(db, processes, log_dir=log_dir, serve_args=serve_args,
                 config=haproxy_config) as cluster:
        yield cluster


# --------------------------------------------------------------------------- tables and seats


@dataclass
class Sent:
    version: int
    action: str | None
    """None for next_round."""
    at: float
    connection: int
    seq: int


@dataclass
class Seat(Client):
    connection: int = 0
    """How many connections the client has opened."""
    sent: Sent | None = None
    accepted: int = 0
    """Actions it was told were applied (a ``state`` one version on, naming it)."""
    resumed: bool = True
    """It had a ``state`` on its current connection."""
    heard: float = 0.0
    """When its last event came."""
    done: bool = False


@dataclass
class Table:
    code: str
    host_token: str
    clients: list[Seat]
    rng: random.Random
    seen: dict[int, Step] = field(default_factory=dict)
    """Every step any client was told of, by version."""
    version: int = -1
    progress: list[tuple[float, int]] = field(default_factory=list)
    """(time, version) each time a client saw a newer version than any before."""
    drops: list[float] = field(default_factory=list)
    """When a client's connection dropped or failed."""
    resumes: list[float] = field(default_factory=list)
    """When a client had its first ``state`` on a new connection."""
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(sent, told) of each action told accepted."""


@dataclass
class Fault:
    at: float
    kind: str
    """"kill N", "postgresql", "flood", "sigstop N" or "burst"."""
    versions: dict[str, int] = field(default_factory=dict)
    """Each table's newest version when the fault began."""
    seconds: float = 0.0
    """How long the fault's own step took (the restart)."""
    reached: set[str] | None = None
    """The tables it reached, when not those whose clients dropped (a stop's: its
    process's tables)."""
    ended: float = 0.0
    """When it ended (a stop: the process continued)."""
    figures: dict[str, Any] = field(default_factory=dict)
    """What it measured of its own (answers by status, tables moved, times)."""

    def code_reached(self, code: str) -> bool:
        return self.reached is not None and code in self.reached


@dataclass
class Run:
    tables: list[Table]
    ws_base: str
    think: float
    stopping: bool = False
    errors: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    background: list[asyncio.Task[None]] = field(default_factory=list)
    """Measurements a fault left running (a newcomer after the creation flood)."""
    reviews: list[tuple[float, float, str]] = field(default_factory=list)
    """(asked, answered, outcome) of each review asked for."""
    orphans: set[int] = field(default_factory=set)
    """The children of the processes killed (their workers): none should outlive them."""


def make_table(code: str, host_token: str, clients: list[Client], rng: random.Random) -> Table:
    return Table(code, host_token, [Seat(c.seat, c.token) for c in clients], rng)


QUIET, DEADLINE, OPENING = 5.0, 3.0, 6.0
"""static/net.js's liveness: seconds of silence before a ping, a ping's deadline, and the
seconds a connection has to open."""


async def alive(ws: Any, client: Seat, run: Run) -> None:
    """As the page does: ping a connection quiet for :data:`QUIET` seconds, and drop one that
    does not answer within :data:`DEADLINE` (its server hung: the proxy keeps the tunnel)."""
    asked = 0.0
    while True:
        await asyncio.sleep(0.5)
        now = time.perf_counter()
        if asked and now - asked > DEADLINE and client.heard < asked:
            run.errors["given up: silent for a ping's deadline"] += 1
            ws.transport.abort()
            return
        if client.heard >= asked:
            asked = 0.0
        if not asked and now - client.heard > QUIET:
            asked = now
            with suppress(ConnectionClosed):
                await client.send("ping")


async def play(run: Run, table: Table, client: Seat) -> None:
    """One person's browser: connect, ``hello``, play; on a drop, reconnect with backoff."""
    attempt = 0
    while not client.done:
        try:
            async with connect(f"{run.ws_base}/ws/tables/{table.code}", open_timeout=OPENING,
                               close_timeout=2, ping_interval=None, max_size=2**22) as ws:
                client.ws, client.seq, client.resumed = ws, 0, False
                client.connection += 1
                client.heard = time.perf_counter()
                attempt = 0
                await client.send("hello", token=client.token)
                watch = asyncio.create_task(alive(ws, client, run))
                try:
                    async for text in ws:
                        await on_event(run, table, client, orjson.loads(text))
                finally:
                    watch.cancel()
            if client.done:
                return
            run.errors[f"closed by the server ({ws.close_code})"] += 1
        except ConnectionClosed as exc:
            if client.done:
                return
            run.errors["dropped " + (f"({exc.rcvd.code})" if exc.rcvd else "(no close frame)")] += 1
        except (OSError, TimeoutError, InvalidHandshake) as exc:
            run.errors[f"connect failed ({type(exc).__name__})"] += 1
        client.ws = None
        table.drops.append(time.perf_counter())
        delay = min(10.0, 0.5 * 2**attempt) * random.uniform(0.75, 1.25)
        attempt += 1
        await asyncio.sleep(delay)


async def on_event(run: Run, table: Table, client: Seat, msg: Message) -> None:
    client.heard = time.perf_counter()
    kind = msg["type"]
    if kind == "pong":
        return
    if kind == "error":
        run.errors[f"error event {msg['code']}"] += 1
        sent = client.sent
        if sent is not None and sent.connection == client.connection and sent.seq == msg["seq"]:
            client.sent = None  # refused: nothing changed
            if msg["code"] == "unavailable" and client.state is not None:
                await decide(run, table, client, client.state)  # a person tries again
        return
    if kind == "welcome" and msg["seat"] != client.seat:
        run.problems.append(f"{table.code}: seat {client.seat} was welcomed as {msg['seat']}")
    if kind != "state":
        return
    now = time.perf_counter()
    version = msg["version"]
    before = client.state["version"] if client.state is not None else -1
    if version < before:
        run.problems.append(f"{table.code}: seat {client.seat} was at version {before}, "
                            f"then told {version}")
    client.state = msg
    # A state one version on, on the same connection, tells the step that made it; the
    # state after a hello (``last`` is null) or after a gap does not.
    step = step_of(msg)
    if client.resumed and version == before + 1:
        told = table.seen.setdefault(version, step)
        if told != step:
            run.problems.append(f"{table.code}: version {version} was {told}, then {step}")
    if not client.resumed:
        client.resumed = True
        table.resumes.append(now)
    if version > table.version:
        table.version = version
        table.progress.append((now, version))
    sent = client.sent
    if sent is not None and version > sent.version:
        if version == sent.version + 1 and sent.action is not None \
                and step == (client.seat, sent.action):
            client.accepted += 1
            table.samples.append((sent.at, now))
        client.sent = None
    await decide(run, table, client, msg)


async def decide(run: Run, table: Table, client: Seat, state: Message) -> None:
    view = state["view"]
    if run.stopping or view["match_over"]:
        return
    if view["round_over"]:
        if client is table.clients[0]:
            await act(run, table, client, state, None)
    elif view["to_play"] == client.seat:
        await act(run, table, client, state, pick(view["legal"], table.rng))


async def act(run: Run, table: Table, client: Seat, state: Message, action: str | None) -> None:
    """After a think time, send ``action`` (None: deal the next round) made on ``state``,
    unless the client already did on this connection."""
    version = state["version"]
    sent = client.sent
    if sent is not None and sent.version == version and sent.connection == client.connection:
        return  # the same state again (after a refusal): what was sent is on its way
    if run.think > 0:
        await asyncio.sleep(table.rng.uniform(0.5, 1.5) * run.think)
        if run.stopping:
            return
    client.sent = Sent(version, action, time.perf_counter(), client.connection, client.seq + 1)
    if action is None:
        await client.send("next_round", token=client.token, version=version)
    else:
        await client.send("action", token=client.token, version=version, action=action)


# --------------------------------------------------------------------------- faults


def schedule(seconds: float, kill_every: float, processes: int, restart_db: bool,
             extra: Sequence[str] = ()) -> list[tuple[float, str]]:
    """Kills every ``kill_every`` seconds, the processes in turn, the last one at least
    ``kill_every`` before the end (so every table shows it plays on); the database
    restarted once, half-way between the two kills nearest the middle; the ``extra``
    faults (``flood``, ``sigstop``, ``burst``) in the other half-way slots, in order.

    >>> schedule(150, 30, 3, True, ["flood", "sigstop", "burst"])  # doctest: +NORMALIZE_WHITESPACE
    [(30, 'kill 0'), (45.0, 'flood'), (60, 'kill 1'), (75.0, 'postgresql'), (90, 'kill 2'),
     (105.0, 'sigstop'), (120, 'kill 0'), (135.0, 'burst')]
    """
    faults: list[tuple[float, str]] = [(k * kill_every, f"kill {(k - 1) % processes}")
                                       for k in range(1, int(seconds / kill_every) + 1)
                                       if k * kill_every <= seconds - kill_every]
    middle = (int(seconds / 2 / kill_every) + 0.5) * kill_every
    if restart_db:
        faults.append((middle, "postgresql"))
    slots = [(k + 0.5) * kill_every for k in range(1, int(seconds / kill_every))
             if (k + 0.5) * kill_every < seconds - kill_every / 4
             and not (restart_db and (k + 0.5) * kill_every == middle)]
    faults.extend(zip(slots, extra, strict=False))
    return sorted(faults)


async def inflict(run: Run, cluster: Servers, database: PrivatePostgres | None, start: float,
                  plan: list[tuple[float, str]], down: float,
                  pool: concurrent.futures.ThreadPoolExecutor,
                  args: argparse.Namespace | None = None, db: str = "") -> None:
    loop = asyncio.get_running_loop()
    for offset, kind in plan:
        await asyncio.sleep(max(0.0, start + offset - time.perf_counter()))
        fault = Fault(time.perf_counter(), kind, {t.code: t.version for t in run.tables})
        run.faults.append(fault)
        if kind == "postgresql":
            assert database is not None
            await loop.run_in_executor(pool, database.restart)
        elif kind in ("flood", "sigstop", "burst", "creations"):
            assert args is not None
            await hostile(kind, fault, run, cluster, db, args, pool)
        else:
            i = int(kind.split()[1])
            process = getattr(cluster, "servers", [None] * (i + 1))[i]
            if process is not None:
                run.orphans |= children(process.pid)
            await loop.run_in_executor(pool, cluster.kill, i)
            await asyncio.sleep(down)
            await loop.run_in_executor(pool, cluster.restart, i)
        fault.seconds = time.perf_counter() - fault.at


# --------------------------------------------------------------------------- hostile faults


def owners(db: str, cluster: Servers, codes: Sequence[str]) -> dict[str, int | None]:
    """The process (index) holding each table's lease, from ``pg_locks`` (``None``: no
    process, or not a cluster)."""
    servers = getattr(cluster, "servers", None)
    if not db or servers is None:
        return dict.fromkeys(codes)
    from sqlalchemy import create_engine, text

    from eights.server.leases import APPLICATION, LEASE_KEY
    from eights.server.store import normalize_url

    pids = {s.pid: i for i, s in enumerate(servers) if s is not None}
    engine = create_engine(normalize_url(db))
    found: dict[str, int | None] = dict.fromkeys(codes)
    try:
        with engine.connect() as connection:
            for code in codes:
                rows = connection.execute(text(
                    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON "
                    "a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND "
                    "l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = "
                    + LEASE_KEY.replace("%s", ":code")), {"code": code}).all()
                for (name,) in rows:
                    pid = int(str(name).removeprefix(APPLICATION).split()[0])
                    found[code] = pids.get(pid)
    finally:
        engine.dispose()
    return found


def encoded(code: str, rng: random.Random) -> str:
    """An address of table ``code`` written with a percent escape, as a server decodes it to
    the table's own."""
    letter = rng.choice([i for i, c in enumerate(code) if c.isalpha()])
    one = f"{code[:letter]}%{ord(code[letter]):02X}{code[letter + 1:]}"
    return rng.choice([f"/api%2Ftables/{code}", f"/api/tables%2F{code}", f"/ws%2Ftables/{code}",
                       f"/api/tables/{one}", f"/api/tables/{one}/record", f"/ws/tables/{one}"])


def raw_get(port: int, path: str) -> int:
    """``GET path`` to the proxy, sent as written: the status."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        connection.endheaders()
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def wrong_process(cluster: ClusterLike, i: int, code: str, websocket: bool) -> str:
    """A read of table ``code``, or a WebSocket and ``hello``, straight at process ``i``
    (not the one running it): what came back."""
    from eights.server.cluster import unix_request

    if not websocket:
        return f"GET {unix_request(cluster.server_socket(i), 'GET', f'/api/tables/{code}')[0]}"
    from websockets.sync.client import unix_connect

    try:
        with unix_connect(str(cluster.server_socket(i)), f"ws://localhost/ws/tables/{code}",
                          open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "seq": 1}))
            kind = json.loads(ws.recv(timeout=10))["type"]
            return f"WebSocket {kind}"
    except ConnectionClosed as closed:
        return f"WebSocket closed {closed.rcvd.code if closed.rcvd else None}"


async def hostile(kind: str, fault: Fault, run: Run, cluster: Servers, db: str,
                  args: argparse.Namespace, pool: concurrent.futures.ThreadPoolExecutor
                  ) -> None:
    """One of the hostile faults (:func:`schedule`'s extra ones), measured into ``fault``."""
    loop = asyncio.get_running_loop()
    codes = [t.code for t in run.tables]
    rng = random.Random(f"{args.seed}/{kind}")
    if kind == "flood":
        before = await loop.run_in_executor(pool, owners, db, cluster, codes)
        answers: Counter[str] = Counter()
        until = time.perf_counter() + args.flood
        port = int(cluster.url.rsplit(":", 1)[1])
        processes = len(getattr(cluster, "servers", [None]))

        def requests(worker: int) -> None:
            mine = random.Random(f"{args.seed}/flood/{worker}")
            while time.perf_counter() < until:
                code = mine.choice(codes)
                try:
                    owner = before.get(code)
                    if worker % 2 == 0 or owner is None or processes < 2:
                        answers[f"proxy, escaped path: {raw_get(port, encoded(code, mine))}"] += 1
                    else:
                        other = mine.choice([i for i in range(processes) if i != owner])
                        answers[wrong_process(cluster, other, code,  # type: ignore[arg-type]
                                              websocket=mine.random() < 0.5)] += 1
                except Exception as exc:  # counted: the flood goes on
                    answers[f"failed: {type(exc).__name__}"] += 1

        await asyncio.gather(*(loop.run_in_executor(pool, requests, w) for w in range(4)))
        fault.ended = time.perf_counter()
        after = await loop.run_in_executor(pool, owners, db, cluster, codes)
        moved = [c for c in codes if before[c] is not None and before[c] != after[c]]
        fault.reached = {t.code for t in run.tables
                         if any(fault.at <= d <= fault.ended for d in t.drops)}
        fault.figures = {"seconds": args.flood, "requests": sum(answers.values()),
                         "answers": dict(answers.most_common()), "moved": len(moved),
                         "dropped": len(fault.reached)}
    elif kind == "sigstop":
        servers = getattr(cluster, "servers", None)
        held = await loop.run_in_executor(pool, owners, db, cluster, codes)
        counts = Counter(i for i in held.values() if i is not None)
        if not servers or not counts:
            fault.figures = {"skipped": "no process to stop"}
            return
        i = counts.most_common(1)[0][0]
        process = servers[i]
        assert process is not None
        fault.reached = {c for c, owner in held.items() if owner == i}
        fault.kind = f"sigstop {i}"
        watched = sorted(fault.reached)[:args.page_clients]
        page = await PageClients.start(cluster.url, watched) if watched else None
        at_stop = {t.code: t.version for t in run.tables}
        fault.versions, fault.at = dict(at_stop), time.perf_counter()  # from the stop itself
        stopped = time.time()
        process.send_signal(signal.SIGSTOP)
        try:
            await asyncio.sleep(args.sigstop)
        finally:
            process.send_signal(signal.SIGCONT)
        fault.ended = time.perf_counter()
        fault.figures = {"process": i, "tables": len(fault.reached),
                         "stopped_s": args.sigstop}
        if page is not None:
            fault.figures["page_clients"] = await page.moved(at_stop, stopped, 30.0)
        elif args.page_clients:
            fault.figures["page_clients"] = "skipped: " + PageClients.missing()
    elif kind == "creations":
        port = int(cluster.url.rsplit(":", 1)[1])
        addresses = [f"127.1.{n // 250}.{n % 250 + 1}" for n in range(args.creation_flood)]
        many = concurrent.futures.ThreadPoolExecutor(16)
        try:
            asked = time.perf_counter()
            flood = await asyncio.gather(*(loop.run_in_executor(many, create_from, port, a)
                                           for a in addresses))
            flood_s = time.perf_counter() - asked
        finally:
            many.shutdown()
        fault.ended = time.perf_counter()
        outcomes = Counter(outcome for outcome, _ in flood)
        fault.figures = {"addresses": len(addresses), "seconds": round(flood_s, 1),
                         "answers": dict(outcomes.most_common())}
        run.background.append(asyncio.create_task(newcomer(port, fault)))
    elif kind == "burst":
        health: list[float] = []
        done = asyncio.Event()

        def watch_health() -> None:
            from eights.server.cluster import unix_request

            sockets = [cluster.server_socket(i)  # type: ignore[attr-defined]
                       for i in range(len(getattr(cluster, "servers", [])))]
            while not done.is_set():
                for path in sockets:
                    asked = time.perf_counter()
                    with suppress(OSError):
                        unix_request(path, "GET", "/api/health", timeout=30)
                    health.append(time.perf_counter() - asked)
                time.sleep(0.2)

        def record(code: str) -> str:
            try:
                urllib.request.urlopen(f"{cluster.url}/api/tables/{code}/record", timeout=120)
                return "200"
            except urllib.error.HTTPError as exc:
                return str(exc.code)
            except OSError as exc:
                return type(exc).__name__

        def create(i: int) -> str:
            body = json.dumps({"rules": args.rules, "players": 2, "public": False,
                               "title": f"burst {i}"}).encode()
            request = urllib.request.Request(f"{cluster.url}/api/tables", data=body,
                                             method="POST",
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=120) as answer:
                    return str(answer.status)
            except urllib.error.HTTPError as exc:
                return str(exc.code)
            except OSError as exc:
                return type(exc).__name__

        many = concurrent.futures.ThreadPoolExecutor(max(8, args.record_flood,
                                                         args.creation_burst))
        watcher = loop.run_in_executor(pool, watch_health)
        try:
            asked = time.perf_counter()
            records = await asyncio.gather(*(loop.run_in_executor(many, record, rng.choice(codes))
                                             for _ in range(args.record_flood)))
            records_s = time.perf_counter() - asked
            asked = time.perf_counter()
            made = await asyncio.gather(*(loop.run_in_executor(many, create, i)
                                          for i in range(args.creation_burst)))
            made_s = time.perf_counter() - asked
        finally:
            done.set()
            await watcher
            many.shutdown()
        fault.ended = time.perf_counter()
        fault.reached = {t.code for t in run.tables
                         if any(fault.at <= d <= fault.ended for d in t.drops)}
        fault.figures = {
            "records": dict(Counter(records).most_common()), "records_s": round(records_s, 2),
            "creations": dict(Counter(made).most_common()), "creations_s": round(made_s, 2),
            "health_max_s": round(max(health), 2) if health else None,
            "dropped": len(fault.reached)}


def create_from(port: int, source: str) -> tuple[str, str | None]:
    """A new table through the proxy from the loopback address ``source``: its status and
    error code (``"201"``, ``"429 too_many"``...), and its code when made."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/api/tables",
                           body=json.dumps({"rules": "classic", "players": 2, "public": False}),
                           headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        body = answer.read()
    except OSError as exc:
        return type(exc).__name__, None
    finally:
        connection.close()
    try:
        data = json.loads(body)
    except ValueError:
        return f"{answer.status} not JSON", None
    if answer.status == 201:
        return "201", str(data["code"])
    return f"{answer.status} {data.get('code')}", None


async def newcomer(port: int, fault: Fault, every: float = 5.0, most: float = 240.0) -> None:
    """After a creation flood: someone else (another address each time) tries to make a table
    every ``every`` seconds until one is made: the seconds from the flood's end."""
    loop = asyncio.get_running_loop()
    tries: Counter[str] = Counter()
    for k in range(int(most / every) + 1):
        outcome, _ = await loop.run_in_executor(None, create_from, port, f"127.2.0.{k % 250 + 1}")
        tries[outcome] += 1
        if outcome == "201":
            fault.figures["newcomer_made_after_s"] = round(time.perf_counter() - fault.ended, 1)
            break
        await asyncio.sleep(every)
    else:
        fault.figures["newcomer_made_after_s"] = None
    fault.figures["newcomer_tries"] = dict(tries)


class PageClients:
    """``static/net.js`` itself (``benchmarks/net_client.mjs`` in Node) watching tables."""

    SCRIPT = Path(__file__).resolve().parent / "net_client.mjs"

    def __init__(self, process: asyncio.subprocess.Process, codes: list[str]) -> None:
        self.process = process
        self.codes = codes
        self.events: list[Message] = []
        self.reader: asyncio.Task[None] | None = None

    @staticmethod
    def missing() -> str:
        """Why the page's client cannot run here ("" when it can)."""
        import shutil

        node = shutil.which("node")
        if node is None:
            return "no node on PATH"
        done = subprocess.run([node, "--experimental-websocket", "-e",
                               "process.exit(typeof WebSocket === 'function' ? 0 : 1)"],
                              capture_output=True, check=False)
        return "" if done.returncode == 0 else "node has no WebSocket (20.10 or later needed)"

    @classmethod
    async def start(cls, base: str, codes: list[str]) -> PageClients | None:
        """Watching ``codes``, once each has its table (else ``None``: no node)."""
        if cls.missing():
            return None
        process = await asyncio.create_subprocess_exec(
            "node", "--experimental-websocket", str(cls.SCRIPT), base, *codes,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL)
        page = cls(process, codes)
        page.reader = asyncio.create_task(page.read())
        deadline = time.monotonic() + 20
        while {e["code"] for e in page.events if e["kind"] == "welcome"} != set(codes):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        return page

    async def read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            with suppress(ValueError):
                self.events.append(json.loads(line))

    async def moved(self, versions: dict[str, int], since: float, after: float) -> dict[str, Any]:
        """Per table, the seconds from ``since`` (the epoch) until the page saw it past its
        version in ``versions``, waiting ``after`` seconds more at most; then it stops."""
        deadline = time.monotonic() + after

        def seen() -> dict[str, float]:
            found: dict[str, float] = {}
            for e in self.events:
                if (e["kind"] == "state" and e["t"] >= since and e["code"] not in found
                        and (e.get("version") or -1) > versions.get(e["code"], -1)):
                    found[e["code"]] = e["t"] - since
            return found

        while len(seen()) < len(self.codes) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        moved = seen()
        reconnected = [min(e["t"] for e in self.events if e["code"] == code
                           and e["kind"] == "open" and e["t"] >= since) - since
                       for code in self.codes
                       if any(e["code"] == code and e["kind"] == "open" and e["t"] >= since
                              for e in self.events)]
        self.process.kill()
        await self.process.wait()
        if self.reader is not None:
            self.reader.cancel()
        return {"tables": len(self.codes), "moved_again_s": spread(list(moved.values())),
                "never_moved": len(self.codes) - len(moved),
                "reconnected_s": spread(reconnected)}


async def reviewing(run: Run, base: str, every: float) -> None:
    """All through the run: every ``every`` seconds, a person of a table whose round 1 ended
    asks for its review through the proxy (in a thread: answers come whenever they come),
    from an address of the table's own (127.3.x.y: the server counts reviews per person)."""
    loop = asyncio.get_running_loop()
    rng = random.Random("reviews")
    asking = concurrent.futures.ThreadPoolExecutor(8)

    def ask(code: str, token: str, person: str) -> None:
        asked = time.perf_counter()
        try:
            status, text = ask_review(base, code, token, source=person)
        except OSError as exc:
            run.reviews.append((asked, time.perf_counter(), type(exc).__name__))
            return
        try:
            data = json.loads(text)
            outcome = f"{status} {data.get('code', 'review')}"
        except ValueError:
            outcome = f"{status} not JSON"
        run.reviews.append((asked, time.perf_counter(), outcome))

    pending = []
    try:
        while not run.stopping:
            await asyncio.sleep(every)
            ended = [(t, c) for t in run.tables for c in t.clients
                     if c.state is not None and c.state["view"].get("round", 0) >= 2]
            if ended:
                table, client = rng.choice(ended)  # each person from an address of their own
                person = f"127.3.{run.tables.index(table) // 250}.{run.tables.index(table) % 250 + 1}"
                pending.append(loop.run_in_executor(asking, ask, table.code, client.token, person))
    finally:
        await asyncio.gather(*pending, return_exceptions=True)
        asking.shutdown()


def review_figures(run: Run) -> dict[str, Any] | None:
    if not run.reviews:
        return None
    windows = [(f.at, f.at + max(f.seconds, f.ended - f.at if f.ended else 0.0, 1.0))
               for f in run.faults]
    during = [r for r in run.reviews if any(r[0] <= b and r[1] >= a for a, b in windows)]
    outcomes = Counter(outcome for _, _, outcome in run.reviews)
    answered = [r for r in run.reviews if r[2][:1].isdigit()]
    return {"asked": len(run.reviews), "answers": dict(outcomes.most_common()),
            "json": sum(not o.endswith("not JSON") for _, _, o in answered),
            "not_json": sum(o.endswith("not JSON") for _, _, o in answered),
            "during_faults": len(during),
            "during_faults_answers": dict(Counter(o for _, _, o in during).most_common()),
            "wait_s": spread([b - a for a, b, _ in run.reviews])}


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def launcher_faults(db: str, log_dir: Path) -> dict[str, Any]:
    """``eights serve --processes 2`` stopped with SIGTERM, then killed with SIGKILL: the
    seconds until it and its children (HAProxy, the servers) are gone, and any left."""
    from eights.server.cluster import free_port

    result: dict[str, Any] = {}
    for signum in (signal.SIGTERM, signal.SIGKILL):
        port = free_port()
        env = {**os.environ, "EIGHTS_DATA_DIR": str(log_dir / "launcher")}
        launcher = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve",
                                     "--processes", "2", "--db", db, "--port", str(port)],
                                    env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        name = signal.Signals(signum).name
        try:
            wait_healthy(f"http://127.0.0.1:{port}",
                         lambda launcher=launcher: launcher.poll() is None,  # type: ignore[misc]
                         "the launcher", timeout=120)
            kids = children(launcher.pid)
            kids |= set().union(*(children(kid) for kid in kids))  # the servers' workers too
            sent = time.perf_counter()
            launcher.send_signal(signum)
            status = launcher.wait(60)
            deadline = time.perf_counter() + 60
            while any(running(k) for k in kids) and time.perf_counter() < deadline:
                time.sleep(0.05)
            left = sorted(k for k in kids if running(k))
            result[name] = {"children": len(kids), "exit_status": status,
                            "all_gone_s": round(time.perf_counter() - sent, 2),
                            "left_after_60_s": len(left)}
            for k in left:
                os.kill(k, signal.SIGKILL)
        except Exception as exc:  # a figure missing is reported, not fatal
            result[name] = {"failed": repr(exc)}
            if launcher.poll() is None:
                launcher.kill()
    return result


# --------------------------------------------------------------------------- the run


async def chaos(cluster: Servers, database: PrivatePostgres | None, args: argparse.Namespace
                ) -> dict[str, Any]:
    pool = concurrent.futures.ThreadPoolExecutor(16)
    base = cluster.url
    t0 = time.perf_counter()
    tables = await create_tables(base, pool, count=args.tables, rules=args.rules,
                                 players=args.players, bots=args.bots, seed=args.seed,
                                 title="chaos", make=make_table)
    run = Run(tables, base.replace("http://", "ws://"), args.think)
    tasks = [asyncio.create_task(play(run, t, c)) for t in tables for c in t.clients]
    gate = time.monotonic() + 120
    while any(c.heard == 0 for t in tables for c in t.clients):  # each was welcomed once
        if time.monotonic() > gate:
            raise RuntimeError("the clients did not all connect within 120 s")
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)  # every welcome arrived
    setup = time.perf_counter() - t0
    gc.collect()
    gc.freeze()
    start = time.perf_counter()
    for i, table in enumerate(tables):  # the matches start over the first --ramp seconds
        await table.clients[0].send("start", token=table.host_token)
        await asyncio.sleep(max(0.0, start + args.ramp * (i + 1) / len(tables)
                                - time.perf_counter()))
    extra = [kind for kind, on in (("creations", args.creation_flood > 0),
                                   ("flood", args.flood > 0), ("sigstop", args.sigstop > 0),
                                   ("burst", args.record_flood > 0 or args.creation_burst > 0))
             if on]
    plan = schedule(args.seconds, args.kill_every, args.processes, database is not None, extra)
    db = args.db_url
    faults = asyncio.create_task(inflict(run, cluster, database, start, plan, args.down, pool,
                                         args, db))
    reviews = (asyncio.create_task(reviewing(run, base, args.review_every))
               if args.review_every > 0 else None)
    await asyncio.sleep(max(0.0, start + args.seconds - time.perf_counter()))
    await faults
    run.stopping = True
    end = time.perf_counter()
    if reviews is not None:
        await reviews
    for task in run.background:  # (a newcomer after a flood: at most its own bound)
        await task
    try:
        summary = await finish(run, base, args, pool)
    except Exception as exc:  # the figures of the run are still worth printing
        run.problems.append(f"the check at the end failed: {exc!r}")
        summary = {"tables_stuck": None, "records_wrong": None, "steps_told": None,
                   "actions_told_accepted": None}
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pool.shutdown()
    more: dict[str, Any] = {"reviews": review_figures(run)}
    if run.orphans:  # the killed processes' children: none outlives its process
        await asyncio.sleep(5)
        more["killed_children"] = len(run.orphans)
        more["killed_children_left"] = sum(running(pid) for pid in run.orphans)
    return {**figures(run, args, start, end, setup), **summary, **more}


async def finish(run: Run, base: str, args: argparse.Namespace,
                 pool: concurrent.futures.ThreadPoolExecutor) -> dict[str, Any]:
    """Let the last steps reach every client, check the tables play on, close them, and
    check each record against what the clients saw."""
    tables = run.tables
    await asyncio.sleep(args.bot_delay * args.bots + 1)  # the bots to play finish their move
    def read(table: Table) -> Message:
        try:
            return get_patiently(base, f"/api/tables/{table.code}", 60)
        except Exception as exc:  # whatever went wrong, the table could not be read
            return {"status": f"unreadable ({exc!r})", "version": -1}

    deadline = time.monotonic() + 60
    while True:
        now = await in_threads(pool, [lambda t=t: read(t) for t in tables])  # type: ignore[misc]
        behind = [t for t, info in zip(tables, now, strict=True)
                  if any(c.state is None or c.state["version"] != info["version"]
                         for c in t.clients)]
        if not behind or time.monotonic() > deadline:
            break
        await asyncio.sleep(1)
    for table, info in zip(tables, now, strict=True):
        if info["version"] < 0:
            run.problems.append(f"{table.code}: {info['status']}")
        elif table in behind:
            seats = "; ".join(
                f"seat {c.seat} at version {c.state and c.state['version']}, "
                f"{'connected' if c.ws is not None else 'not connected'} (connection "
                f"{c.connection}), last event {time.perf_counter() - c.heard:.0f} s ago"
                for c in table.clients)
            run.problems.append(f"{table.code}: a client never had the last state, version "
                                f"{info['version']}: {seats}")
    last_fault = run.faults[-1] if run.faults else None
    stuck = [t.code for t, info in zip(tables, now, strict=True)
             if info["status"] not in ("playing", "finished")
             or (info["status"] == "playing" and last_fault is not None
                 and info["version"] <= last_fault.versions[t.code])]
    for code in stuck:
        run.problems.append(f"{code}: did not play on after the last fault")
    for table in tables:
        for client in table.clients:
            client.done = True
        host = table.clients[0]
        try:
            if host.ws is None:
                raise ConnectionError("not connected")
            await host.send("close", token=table.host_token)
        except (ConnectionClosed, ConnectionError) as exc:
            run.problems.append(f"{table.code}: could not close the table ({exc})")
    await asyncio.sleep(1)

    def check(table: Table) -> str | None:
        try:
            record = get_patiently(base, f"/api/tables/{table.code}/record")
        except Exception as exc:  # whatever went wrong, there is no record to check
            return f"{table.code}: no record ({exc!r})"
        last = [(c.seat, c.state["version"], c.state["view"]) for c in table.clients
                if c.state is not None]
        return check_record(table.code, record, table.seen, last, every_step=False)

    found = [p for p in await in_threads(pool, [lambda t=t: check(t) for t in tables])  # type: ignore[misc]
             if p is not None]
    run.problems.extend(found)
    return {"tables_stuck": len(stuck), "records_wrong": len(found),
            "steps_told": sum(len(t.seen) for t in tables),
            "actions_told_accepted": sum(c.accepted for t in tables for c in t.clients)}


def figures(run: Run, args: argparse.Namespace, start: float, end: float, setup: float
            ) -> dict[str, Any]:
    def first_after(times: list[float], at: float) -> float | None:
        return next((t - at for t in times if t >= at), None)

    windows: dict[str, list[tuple[float, float]]] = {t.code: [] for t in run.tables}
    faults, kill_steps = [], []
    for n, fault in enumerate(run.faults):
        reached = [t for t in run.tables if fault.kind == "postgresql"
                   or (fault.code_reached(t.code) if fault.reached is not None
                       else any(fault.at <= d <= fault.at + 3 for d in t.drops))]
        # What happens after the next fault began is the next fault's.
        until = run.faults[n + 1].at if n + 1 < len(run.faults) else end
        resumed, stepped = [], []
        for table in reached:
            step = first_after([at for at, v in table.progress
                                if v > fault.versions[table.code]], fault.at)
            back = first_after(table.resumes, fault.at)
            if back is not None and fault.at + back < until and fault.kind != "postgresql":
                resumed.append(back)  # (a database restart drops no connection)
            if step is not None:
                stepped.append(step)
            if fault.kind == "postgresql" or fault.ended:  # no drop marks its window
                windows[table.code].append((fault.at, end if step is None else fault.at + step))
        if fault.kind.startswith("kill"):
            kill_steps.extend(stepped)
        after_end = [step for table in reached
                     if (step := first_after([at for at, _ in table.progress], fault.ended))
                     is not None] if fault.ended and reached else []
        faults.append({
            "kind": fault.kind, "at": round(fault.at - start, 1),
            "restart_seconds": round(fault.seconds, 2), "tables_reached": len(reached),
            "reconnected_s": spread(resumed), "first_step_s": spread(stepped),
            "never_stepped": len(reached) - len(stepped),
            **({"first_step_after_end_s": spread(after_end)} if after_end else {}),
            **fault.figures})
    for table in run.tables:  # a connection dropped, to the table's next step
        for drop in table.drops:
            windows[table.code].append((drop, next((at for at, _ in table.progress if at > drop),
                                                   end)))
    inside: list[float] = []
    outside: list[float] = []
    for table in run.tables:
        for sent, told in table.samples:
            hit = any(sent <= b and told >= a for a, b in windows[table.code])
            (inside if hit else outside).append(told - sent)
    kills = [f for f in run.faults if f.kind.startswith("kill")]
    actions = sum(len(t.seen) for t in run.tables)
    return {
        "processes": args.processes, "tables": args.tables, "players": args.players,
        "bots": args.bots, "clients": args.tables * (args.players - args.bots),
        "think": args.think, "seconds": round(end - start, 1), "setup_seconds": round(setup, 1),
        "steps": actions, "steps_per_second": round(actions / (end - start), 1),
        "latency_ms": latency_ms(outside), "latency_samples": len(outside),
        "in_failover_samples": len(inside),
        "in_failover_latency_ms": latency_ms(inside),
        "kills": len(kills), "failover_first_step_s": spread(kill_steps),
        "faults": faults, "errors": dict(run.errors.most_common()),
        "problems": len(run.problems), "problem_examples": run.problems[:100],
    }


def spread(samples: list[float]) -> dict[str, float] | None:
    if not samples:
        return None
    return {"median": round(statistics.median(samples), 2), "max": round(max(samples), 2)}


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    bench = Bench(__doc__, seed=1)
    parser = bench.parser
    parser.add_argument("--processes", type=int, default=3)
    add_workload_options(parser, tables=300, ramp=5.0, bots=1, seed=False,
                         think_help="mean seconds a person waits before acting")
    parser.add_argument("--seconds", type=float, default=300.0, help="playing time")
    parser.add_argument("--kill-every", type=float, default=30.0,
                        help="seconds between two kills (-9) of a server process")
    parser.add_argument("--down", type=float, default=1.0,
                        help="seconds a killed process stays down before its restart")
    parser.add_argument("--no-db-restart", action="store_true",
                        help="do not restart the private PostgreSQL mid-run")
    parser.add_argument("--db", help="a PostgreSQL URL (default: a private server, restarted "
                        "once mid-run)")
    parser.add_argument("--log-dir", type=Path,
                        help="keep the servers' logs here (default: a temporary directory)")
    parser.add_argument("--haproxy-config", type=Path,
                        help="an HAProxy configuration template in place of the shipped one "
                        "(deploy/haproxy.cfg), e.g. with other health-check timings")
    parser.add_argument("--hostile", action="store_true",
                        help="the hostile faults too, at their defaults: --flood 10 --sigstop 25 "
                        "--record-flood 200 --creation-burst 40 --creation-flood 956 "
                        "--review-every 3 --page-clients 3 --launcher")
    parser.add_argument("--creation-flood", type=int, default=0,
                        help="tables made at once through the proxy, each from an address of "
                        "its own (127.1.x.y)")
    parser.add_argument("--review-every", type=float, default=0.0,
                        help="seconds between two reviews asked for through the proxy, all "
                        "through the run")
    parser.add_argument("--page-clients", type=int, default=0,
                        help="tables of the stopped process watched by static/net.js itself "
                        "(Node 20.10+)")
    parser.add_argument("--flood", type=float, default=0.0,
                        help="seconds of requests written with percent escapes and straight at "
                        "the wrong process")
    parser.add_argument("--sigstop", type=float, default=0.0,
                        help="seconds the process running the most tables is stopped")
    parser.add_argument("--record-flood", type=int, default=0,
                        help="record requests of open tables at once")
    parser.add_argument("--creation-burst", type=int, default=0,
                        help="table creations at once")
    parser.add_argument("--launcher", action="store_true",
                        help="after the run: eights serve --processes 2 stopped with SIGTERM, "
                        "then killed with SIGKILL")
    args = bench.parse(argv)
    if args.hostile:
        args.flood = args.flood or 10.0
        args.sigstop = args.sigstop or 25.0
        args.record_flood = args.record_flood or 200
        args.creation_burst = args.creation_burst or 40
        args.creation_flood = args.creation_flood or 956
        args.review_every = args.review_every or 3.0
        args.page_clients = args.page_clients or 3
        args.launcher = True
    check_workload(parser, args)
    if args.tables < 1 or args.processes < 1 or args.kill_every <= 0:
        parser.error("--tables, --processes and --kill-every must be positive")
    if args.seconds < 2 * args.kill_every:
        parser.error("--seconds must be at least twice --kill-every (a kill, then time to "
                     "show every table plays on)")
    if args.db and not args.db.startswith(("postgresql", "postgres:")):
        parser.error("--db must be a PostgreSQL URL: several processes share one only there")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    gc.set_threshold(20_000, 20, 100)
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        pass
    serve_args = ["--bot-delay", str(args.bot_delay), "--address-limit",
                  str(args.tables * args.players + 100)]
    with tempfile.TemporaryDirectory(prefix="eights-chaos-") as tmp:
        log_dir = args.log_dir or Path(tmp) / "logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        database = None if args.db else PrivatePostgres()
        try:
            db = args.db_url = args.db or (database.url if database else "")
            with servers(db, args.processes, log_dir, serve_args, args.haproxy_config) as cluster:
                result = asyncio.run(chaos(cluster, None if args.no_db_restart else database,
                                           args))
            if args.launcher:
                result["launcher"] = launcher_faults(db, log_dir)
        finally:
            if database is not None:
                database.stop()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    result["load_at_end"] = round(os.getloadavg()[0], 2)
    result["machine"] = machine()
    bench.result(result)
    if not args.quiet:
        report(result)
    return 0 if result["problems"] == 0 else 1


def report(r: dict[str, Any]) -> None:
    lat = r["latency_ms"]
    print(f"{r['processes']} processes, {r['tables']} tables x {r['players']} seats "
          f"({r['bots']} bots), {r['clients']} clients, think {r['think']} s; "
          f"set-up {r['setup_seconds']} s")
    print(f"{r['steps']} steps in {r['seconds']} s ({r['steps_per_second']}/s); "
          f"{r['actions_told_accepted']} actions told accepted")
    print(f"action -> state outside failovers ({r['latency_samples']} samples): p50 {lat['p50']} "
          f"ms  p99 {lat['p99']} ms  max {lat['max']} ms; inside: {r['in_failover_samples']} "
          f"samples, p50 {r['in_failover_latency_ms']['p50']} ms")
    first = r["failover_first_step_s"]
    if first:
        print(f"{r['kills']} kills: kill -> first new step, median {first['median']} s, "
              f"max {first['max']} s")
    for f in r["faults"]:
        print(f"  {f['at']:>6} s  {f['kind']:<10}  {f['tables_reached']:>4} tables reached; "
              f"reconnected {f['reconnected_s']}; first step {f['first_step_s']}; "
              f"never stepped {f['never_stepped']}; restart took {f['restart_seconds']} s")
        own = {k: v for k, v in f.items() if k not in ("at", "kind", "tables_reached",
                                                      "reconnected_s", "first_step_s",
                                                      "never_stepped", "restart_seconds")}
        if own:
            print(f"           {json.dumps(own)}")
    if r.get("reviews"):
        print(f"reviews: {json.dumps(r['reviews'])}")
    if "killed_children" in r:
        print(f"children of killed processes: {r['killed_children']}, still running "
              f"{r['killed_children_left']}")
    if "launcher" in r:
        print(f"launcher: {json.dumps(r['launcher'])}")
    print(f"load at the end {r['load_at_end']}; {machine_line()}")
    print(f"tables stuck {r['tables_stuck']}, records wrong {r['records_wrong']}, "
          f"problems {r['problems']}")
    for line in r["problem_examples"][:20]:
        print("  ", line)
    print("errors by kind:")
    for kind, count in r["errors"].items():
        print(f"  {count:>6}  {kind}")


if __name__ == "__main__":
    sys.exit(main())
