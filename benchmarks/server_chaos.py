"""Chaos on the server: processes killed with -9, PostgreSQL restarted, and nothing lost.

    python benchmarks/server_chaos.py [--processes 3] [--tables 300] [--seconds 300]
                                      [--kill-every 30] [--db URL] [--json]

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

``tests/test_server_chaos.py`` runs it short. This is a measurement; the exit
status is 1 when an invariant fails.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import gc
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from server_clients import (
    Client,
    Message,
    PrivatePostgres,
    ServerProcess,
    Step,
    add_workload_options,
    check_record,
    check_workload,
    create_tables,
    get_patiently,
    in_threads,
    latency_ms,
    pick,
    step_of,
)

# --------------------------------------------------------------------------- the servers


class Servers(Protocol):
    """What the run needs of its servers (``eights.server.cluster.Cluster`` has it)."""

    @property
    def url(self) -> str: ...

    def kill(self, i: int) -> None: ...

    def restart(self, i: int) -> None: ...

    def stop(self) -> None: ...


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
    """"kill N" or "postgresql"."""
    versions: dict[str, int] = field(default_factory=dict)
    """Each table's newest version when the fault began."""
    seconds: float = 0.0
    """How long the fault's own step took (the restart)."""


@dataclass
class Run:
    tables: list[Table]
    ws_base: str
    think: float
    stopping: bool = False
    errors: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)


def make_table(code: str, host_token: str, clients: list[Client], rng: random.Random) -> Table:
    return Table(code, host_token, [Seat(c.seat, c.token) for c in clients], rng)


async def play(run: Run, table: Table, client: Seat) -> None:
    """One person's browser: connect, ``hello``, play; on a drop, reconnect with backoff."""
    attempt = 0
    while not client.done:
        try:
            async with connect(f"{run.ws_base}/ws/tables/{table.code}", open_timeout=10,
                               close_timeout=2, ping_interval=None, max_size=2**22) as ws:
                client.ws, client.seq, client.resumed = ws, 0, False
                client.connection += 1
                attempt = 0
                await client.send("hello", token=client.token)
                async for text in ws:
                    await on_event(run, table, client, orjson.loads(text))
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


def schedule(seconds: float, kill_every: float, processes: int, restart_db: bool
             ) -> list[tuple[float, str]]:
    """Kills every ``kill_every`` seconds, the processes in turn, the last one at least
    ``kill_every`` before the end (so every table shows it plays on); the database
    restarted once, half-way between the two kills nearest the middle."""
    faults = [(k * kill_every, f"kill {(k - 1) % processes}")
              for k in range(1, int(seconds / kill_every) + 1)
              if k * kill_every <= seconds - kill_every]
    if restart_db:
        faults.append(((int(seconds / 2 / kill_every) + 0.5) * kill_every, "postgresql"))
    return sorted(faults)


async def inflict(run: Run, cluster: Servers, database: PrivatePostgres | None, start: float,
                  plan: list[tuple[float, str]], down: float,
                  pool: concurrent.futures.ThreadPoolExecutor) -> None:
    loop = asyncio.get_running_loop()
    for offset, kind in plan:
        await asyncio.sleep(max(0.0, start + offset - time.perf_counter()))
        fault = Fault(time.perf_counter(), kind, {t.code: t.version for t in run.tables})
        run.faults.append(fault)
        if kind == "postgresql":
            assert database is not None
            await loop.run_in_executor(pool, database.restart)
        else:
            i = int(kind.split()[1])
            await loop.run_in_executor(pool, cluster.kill, i)
            await asyncio.sleep(down)
            await loop.run_in_executor(pool, cluster.restart, i)
        fault.seconds = time.perf_counter() - fault.at


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
    plan = schedule(args.seconds, args.kill_every, args.processes, database is not None)
    faults = asyncio.create_task(inflict(run, cluster, database, start, plan, args.down, pool))
    await asyncio.sleep(max(0.0, start + args.seconds - time.perf_counter()))
    await faults
    run.stopping = True
    end = time.perf_counter()
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
    return {**figures(run, args, start, end, setup), **summary}


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
    for fault in run.faults:
        reached = [t for t in run.tables if fault.kind == "postgresql"
                   or any(fault.at <= d <= fault.at + 3 for d in t.drops)]
        resumed, stepped = [], []
        for table in reached:
            step = first_after([at for at, v in table.progress
                                if v > fault.versions[table.code]], fault.at)
            back = first_after(table.resumes, fault.at)
            if back is not None and fault.kind != "postgresql":  # it drops no connection
                resumed.append(back)
            if step is not None:
                stepped.append(step)
            if fault.kind == "postgresql":  # it drops no connection: its own window
                windows[table.code].append((fault.at, end if step is None else fault.at + step))
        if fault.kind != "postgresql":
            kill_steps.extend(stepped)
        faults.append({
            "kind": fault.kind, "at": round(fault.at - start, 1),
            "restart_seconds": round(fault.seconds, 2), "tables_reached": len(reached),
            "reconnected_s": spread(resumed), "first_step_s": spread(stepped),
            "never_stepped": len(reached) - len(stepped)})
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
    kills = [f for f in run.faults if f.kind != "postgresql"]
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--processes", type=int, default=3)
    add_workload_options(parser, tables=300, ramp=5.0, bots=1,
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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
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
            db = args.db or (database.url if database else "")
            with servers(db, args.processes, log_dir, serve_args, args.haproxy_config) as cluster:
                result = asyncio.run(chaos(cluster, None if args.no_db_restart else database,
                                           args))
        finally:
            if database is not None:
                database.stop()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if args.json:
        print(json.dumps(result))
    else:
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
    print(f"tables stuck {r['tables_stuck']}, records wrong {r['records_wrong']}, "
          f"problems {r['problems']}")
    for line in r["problem_examples"][:20]:
        print("  ", line)
    print("errors by kind:")
    for kind, count in r["errors"].items():
        print(f"  {count:>6}  {kind}")


if __name__ == "__main__":
    sys.exit(main())
