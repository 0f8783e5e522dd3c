"""Load on the server: N tables of WebSocket clients over loopback, and nothing lost.

    python benchmarks/server_load.py [--tables 500] [--seconds 20] [--think 1.0]
                                     [--players 4] [--bots 0] [--db URL | --postgres]
                                     [--processes 1] [--json]

It starts ``eights serve`` as a child process (SQLite in a temporary directory
unless ``--db`` is given, or a private PostgreSQL server with ``--postgres``;
``--address-limit`` lifts the per-address bounds, as every client comes from
127.0.0.1), or with ``--processes N`` above 1 (or ``--proxy``), N of them on one
PostgreSQL (``--db``, or a private server) behind HAProxy (``eights.server.cluster``),
creates the tables over HTTP, connects one
WebSocket client per person seat (one asyncio process for all of them), starts
every match, and lets each client play a legal action from the ``legal`` list
it was sent whenever its seat is to play (after ``--think`` seconds on average,
as a person would; 0 plays at once), the first seat dealing the next round
when one ends. After ``--seconds`` the clients stop, the host closes each
table, and the benchmark checks that nothing was lost: every table's exported
record (``GET /api/tables/CODE/record``) holds exactly the actions the clients
saw broadcast, and replays to the state each client saw last.

It prints actions a second, and the latency from sending an action to
receiving its broadcast: at every client of the table (each receipt one
sample) and at the slowest client of the table (the whole broadcast), over
the run after ``--warmup`` seconds (the matches start spread over ``--ramp``
seconds). Errors are error events, connections dropped, and tables that
stalled. It also prints the CPU the servers, the proxy and the clients used
(cores busy, and the CPU time per action of the servers and of the proxy),
since they share the machine.
``--think 0`` plays as fast as the server answers, which finds its ceiling;
with few tables a client then sends more than the 20 messages a second one
connection may send, and the refusals count as errors.

This is a measurement, not a test (the timing goals live here);
``tests/test_server_load.py`` runs it small.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import gc
import json
import random
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_clients import (
    Client,
    Message,
    PrivatePostgres,
    ServerProcess,
    Step,
    add_workload_options,
    check_record,
    check_workload,
    cpu_seconds,
    create_tables,
    http,
    in_threads,
    latency_ms,
    pick,
    step_of,
)

# --------------------------------------------------------------------------- tables and clients


@dataclass
class Stats:
    warm_from: float = 0.0
    """Latencies and actions before this time (perf_counter) are not counted."""
    latencies: list[float] = field(default_factory=list)
    """Send to receipt, one sample per client per action."""
    broadcasts: list[float] = field(default_factory=list)
    """Send to receipt by the last client of the table, one sample per action."""
    actions: int = 0
    """Steps broadcast after the warm-up (actions played, rounds dealt)."""
    errors: list[str] = field(default_factory=list)


@dataclass
class Table:
    code: str
    host_token: str
    clients: list[Client]
    rng: random.Random
    sent: dict[int, float] = field(default_factory=dict)
    """Version an action was made on -> when it was sent."""
    received: dict[int, int] = field(default_factory=dict)
    """Version -> clients that received its state."""
    seen: dict[int, Step] = field(default_factory=dict)
    """The steps broadcast, by version, as the first client saw them."""
    version: int = -1
    """The newest version the first client saw."""
    closed: bool = False


@dataclass
class Run:
    tables: list[Table]
    stats: Stats
    think: float
    stopping: bool = False


async def drive(run: Run, table: Table, client: Client) -> None:
    """Read one client's events; play when its seat is to play."""
    assert client.ws is not None
    stats, first = run.stats, client is table.clients[0]
    try:
        async for text in client.ws:
            now = time.perf_counter()
            msg: Message = orjson.loads(text)
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(f"{table.code} seat {client.seat}: {msg['code']}: {msg['message']}")
                continue
            if kind != "state":
                continue
            client.state = msg
            version = msg["version"]
            sent = table.sent.get(version - 1)
            count = table.received[version] = table.received.get(version, 0) + 1
            counted = now >= stats.warm_from
            if sent is not None and counted:
                stats.latencies.append(now - sent)
            if count == len(table.clients):
                del table.received[version]
                if sent is not None:
                    del table.sent[version - 1]
                    if counted:
                        stats.broadcasts.append(now - sent)
                if counted and version > 0:
                    stats.actions += 1
            view = msg["view"]
            if first:
                table.version = version
                if version > 0:
                    table.seen[version] = step_of(msg)
            if run.stopping or view["match_over"]:
                continue
            if view["round_over"]:
                if first:
                    await act(run, table, client, "next_round", version=version)
            elif view["to_play"] == client.seat:
                await act(run, table, client, "action", version=version,
                          action=pick(view["legal"], table.rng))
    except ConnectionClosed as exc:
        if not table.closed:
            stats.errors.append(f"{table.code} seat {client.seat}: connection closed ({exc})")


async def act(run: Run, table: Table, client: Client, kind: str, **fields: Any) -> None:
    if run.think > 0:
        await asyncio.sleep(table.rng.uniform(0.5, 1.5) * run.think)
        if run.stopping:
            return
    table.sent[fields["version"]] = time.perf_counter()
    await client.send(kind, token=client.token, **fields)


# --------------------------------------------------------------------------- the run


async def start_search_tables(base: str, args: argparse.Namespace,
                              pool: concurrent.futures.ThreadPoolExecutor) -> list[str]:
    """``--search-tables`` tables of ``--search-bot`` bots only, started: they play by
    themselves, beside the people's tables."""
    bots = {str(seat): args.search_bot for seat in range(args.players)}

    def create(i: int) -> Message:
        return http(base, "POST", "/api/tables", {
            "rules": args.rules, "players": args.players, "bots": bots, "target": 10_000,
            "public": False, "title": f"search {i}"})

    made = await in_threads(pool, [lambda i=i: create(i) for i in range(args.search_tables)])  # type: ignore[misc]
    ws_base = base.replace("http://", "ws://")
    for table in made:
        async with connect(f"{ws_base}/ws/tables/{table['code']}", ping_interval=None,
                           max_size=2**20) as ws:
            await ws.send(orjson.dumps({"type": "hello", "seq": 1}).decode())
            await ws.send(orjson.dumps({"type": "start", "seq": 2,
                                        "token": table["host_token"]}).decode())
            while orjson.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "state":
                pass  # the welcome, the table: the match is under way at its first state
    return [table["code"] for table in made]


def search_steps(base: str, codes: list[str]) -> int:
    return sum(http(base, "GET", f"/api/tables/{code}")["version"] for code in codes)


async def load(base: str, args: argparse.Namespace, server_cpu: Callable[[], float],
               late: Callable[[], int] = lambda: 0,
               proxy_cpu: Callable[[], float] = lambda: 0.0,
               database_cpu: Callable[[], float] = lambda: float("nan")) -> dict[str, Any]:
    """Drive the server(s) at ``base``; ``server_cpu``, ``proxy_cpu`` and ``database_cpu``
    are the CPU seconds used so far by the servers, the proxy in front of them and the
    database server."""
    pool = concurrent.futures.ThreadPoolExecutor(16)
    t0 = time.perf_counter()
    search = await start_search_tables(base, args, pool)
    if search:  # the bots' workers start, import the search and load its compiled kernel
        await asyncio.sleep(args.search_warmup)
    tables = await create_tables(base, pool, count=args.tables, rules=args.rules,
                                 players=args.players, bots=args.bots, seed=args.seed,
                                 title="load", make=Table)
    stats = Stats()
    run = Run(tables, stats, args.think)
    ws_base = base.replace("http://", "ws://")
    gate = asyncio.Semaphore(64)

    async def open_client(table: Table, client: Client) -> None:
        async with gate:
            client.ws = await connect(f"{ws_base}/ws/tables/{table.code}", open_timeout=60,
                                      ping_interval=None, max_size=2**20)
            await client.send("hello", token=client.token)
            welcome = json.loads(await client.ws.recv())
            if welcome.get("type") != "welcome" or welcome.get("seat") != client.seat:
                raise RuntimeError(f"table {table.code}: no welcome for seat {client.seat}: {welcome}")

    await asyncio.gather(*(open_client(t, c) for t in tables for c in t.clients))
    setup = time.perf_counter() - t0
    gc.collect()
    gc.freeze()  # as the server does: no pauses of the load generator in the figures
    tasks = [asyncio.create_task(drive(run, t, c)) for t in tables for c in t.clients]
    start = time.perf_counter()
    stats.warm_from = start + args.warmup
    # Matches start spread over --ramp seconds, as people arrive (not all in the same instant).
    for i, table in enumerate(tables):
        await table.clients[0].send("start", token=table.host_token)
        gap = start + args.ramp * (i + 1) / len(tables) - time.perf_counter()
        if gap > 0:
            await asyncio.sleep(gap)
    await asyncio.sleep(max(0.0, stats.warm_from - time.perf_counter()))
    cpu = (server_cpu(), time.process_time(), proxy_cpu(), database_cpu())
    searching = (search_steps(base, search), late())
    await asyncio.sleep(max(0.0, start + args.seconds - time.perf_counter()))
    searching = (search_steps(base, search) - searching[0], late() - searching[1])
    run.stopping = True
    end = time.perf_counter()
    cpu = (server_cpu() - cpu[0], time.process_time() - cpu[1], proxy_cpu() - cpu[2],
           database_cpu() - cpu[3])
    # Let the actions in flight arrive everywhere, then close every table.
    deadline = time.monotonic() + 30
    while any(t.sent for t in tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    for table in tables:
        if table.sent:
            stats.errors.append(f"{table.code}: no complete broadcast of the action made on "
                                f"version(s) {sorted(table.sent)} within 30 s")
    for table in tables:
        table.closed = True
        await table.clients[0].send("close", token=table.host_token)
    done, pending = await asyncio.wait(tasks, timeout=30)
    for task in pending:
        task.cancel()
    if pending:
        stats.errors.append(f"{len(pending)} connections still open 30 s after the tables closed")
    for task in done:
        if task.exception() is not None:
            stats.errors.append(f"a client failed: {task.exception()!r}")

    lost = await verify(base, tables, stats, pool)
    pool.shutdown()
    measured = end - stats.warm_from
    result = summary(args, stats, lost=lost, measured=measured, setup=setup)
    result["search_tables"] = {"tables": len(search), "bot": args.search_bot,
                               "steps": searching[0], "late_moves": searching[1]}
    result["processes"] = args.processes
    result["cpu"] = {"server": round(cpu[0] / measured, 2), "clients": round(cpu[1] / measured, 2),
                     "proxy": round(cpu[2] / measured, 2),
                     "database": round(cpu[3] / measured, 2),
                     "server_ms_per_action": round(1000 * cpu[0] / max(1, stats.actions), 3),
                     "proxy_ms_per_action": round(1000 * cpu[2] / max(1, stats.actions), 3),
                     "database_ms_per_action": round(1000 * cpu[3] / max(1, stats.actions), 3)}
    return result


async def verify(base: str, tables: list[Table], stats: Stats,
                 pool: concurrent.futures.ThreadPoolExecutor) -> int:
    """Tables whose record does not match what their clients saw."""
    def check(table: Table) -> str | None:
        try:
            record = http(base, "GET", f"/api/tables/{table.code}/record")
        except (OSError, RuntimeError) as exc:
            return f"{table.code}: no record ({exc})"
        last = [(c.seat, c.state["version"] if c.state else -1, c.state["view"] if c.state else {})
                for c in table.clients]
        return check_record(table.code, record, table.seen, last, every_step=True)

    problems = [p for p in await in_threads(pool, [lambda t=t: check(t) for t in tables])  # type: ignore[misc]
                if p is not None]
    stats.errors.extend(problems[:20])
    return len(problems)


def summary(args: argparse.Namespace, stats: Stats, *, lost: int, measured: float,
            setup: float) -> dict[str, Any]:
    return {
        "tables": args.tables, "players": args.players, "bots": args.bots,
        "clients": args.tables * (args.players - args.bots), "think": args.think,
        "seconds": round(measured, 2), "setup_seconds": round(setup, 2),
        "actions": stats.actions, "actions_per_second": round(stats.actions / measured, 1)
        if measured > 0 else 0.0,
        "latency_ms": latency_ms(stats.latencies), "broadcast_ms": latency_ms(stats.broadcasts),
        "errors": len(stats.errors), "error_examples": stats.errors[:5],
        "lost": lost, "verified_tables": args.tables - lost,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add_workload_options(parser, tables=500, ramp=1.0, bots=0,
                         think_help="mean seconds a client waits before it acts (0: at once)")
    parser.add_argument("--seconds", type=float, default=20.0, help="driving time (after set-up)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds at the start left out of the figures (the ramp included)")
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary directory; "
                        "with --processes above 1, a private PostgreSQL server)")
    parser.add_argument("--postgres", action="store_true",
                        help="start a private PostgreSQL server for the run (as tools/test-env "
                        "does) instead of SQLite")
    parser.add_argument("--processes", type=int, default=1,
                        help="eights serve processes on one PostgreSQL behind HAProxy "
                        "(eights.server.cluster.Cluster) when above 1")
    parser.add_argument("--proxy", action="store_true",
                        help="one process behind HAProxy too (as --processes 1 of a cluster), "
                        "to compare with more processes")
    parser.add_argument("--server", help="use the server already running at this URL "
                        "(started with a large enough --address-limit)")
    parser.add_argument("--search-tables", type=int, default=0,
                        help="tables of search bots only, playing beside the people's")
    parser.add_argument("--search-bot", default="ismcts",
                        help="the bot spec of every seat of the search tables")
    parser.add_argument("--search-warmup", type=float, default=30.0,
                        help="seconds the search tables play before the people's tables start")
    parser.add_argument("--bot-pool", choices=("processes", "threads"), default="processes",
                        help="where the server's search bots think (eights serve --bot-pool)")
    parser.add_argument("--bot-workers", type=int, default=1,
                        help="eights serve --bot-workers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    check_workload(parser, args)
    if (args.processes > 1 or args.proxy) and (args.server or (args.db or "postgres").startswith("sqlite")):
        parser.error("--processes above 1 and --proxy need PostgreSQL (--db postgresql://..., or none)")
    if args.tables < 1 or args.seconds <= 0 or args.processes < 1:
        parser.error("--tables and --seconds must be positive")
    if not 0 <= args.ramp <= args.warmup < args.seconds:
        parser.error("give 0 <= --ramp <= --warmup < --seconds")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server inherits it too
    gc.set_threshold(20_000, 20, 100)
    try:
        import uvloop

        uvloop.install()
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        pass
    with tempfile.TemporaryDirectory(prefix="eights-load-") as tmp, ExitStack() as stack:
        if args.server:
            result = asyncio.run(load(args.server.rstrip("/"), args, lambda: float("nan")))
        else:
            db, database_cpu = args.db, lambda: float("nan")
            proxied = args.processes > 1 or args.proxy
            if db is None and (args.postgres or proxied):
                database = PrivatePostgres()
                stack.callback(database.stop)
                db, database_cpu = database.url, database.cpu_seconds
            serve = ["--bot-delay", str(args.bot_delay), "--address-limit",
                     str((args.tables + args.search_tables) * args.players + 100),
                     "--bot-pool", args.bot_pool, "--bot-workers", str(args.bot_workers)]
            if not proxied:
                server = ServerProcess(db or f"sqlite:///{Path(tmp) / 'server.sqlite3'}",
                                       Path(tmp) / "server.log", extra=serve)
                stack.callback(server.stop)
                result = asyncio.run(load(server.base, args, server.cpu_seconds,
                                          server.late_moves, database_cpu=database_cpu))
            else:
                from eights.server.cluster import Cluster

                assert db is not None
                cluster = stack.enter_context(Cluster(db, args.processes,
                                                      log_dir=Path(tmp) / "logs",
                                                      serve_args=serve))
                result = asyncio.run(load(
                    cluster.url, args,
                    lambda: sum(cpu_seconds(p.pid) for p in cluster.servers if p is not None),
                    lambda: sum(log.read_text(errors="replace").count("did not move within")
                                for log in (Path(tmp) / "logs").glob("server*.log")),
                    lambda: cpu_seconds(cluster.proxy.pid) if cluster.proxy else float("nan"),
                    database_cpu))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0 if result["errors"] == 0 and result["lost"] == 0 else 1


def report(r: dict[str, Any]) -> None:
    lat, bc = r["latency_ms"], r["broadcast_ms"]
    print(f"{r['tables']} tables x {r['players']} seats ({r['bots']} bots), {r['clients']} "
          f"WebSocket clients, think {r['think']} s; set-up {r['setup_seconds']} s")
    print(f"{r['actions']} actions in {r['seconds']} s: {r['actions_per_second']} actions/s")
    print(f"send -> state at each client:   p50 {lat['p50']} ms  p90 {lat['p90']} ms  "
          f"p99 {lat['p99']} ms  max {lat['max']} ms")
    print(f"send -> state at every client:  p50 {bc['p50']} ms  p90 {bc['p90']} ms  "
          f"p99 {bc['p99']} ms  max {bc['max']} ms")
    cpu = r["cpu"]
    print(f"CPU (cores busy while measured): server {cpu['server']} ({r['processes']} "
          f"processes), proxy {cpu['proxy']}, database {cpu['database']}, clients "
          f"{cpu['clients']}; CPU an action: server {cpu['server_ms_per_action']} ms, proxy "
          f"{cpu['proxy_ms_per_action']} ms, database {cpu['database_ms_per_action']} ms")
    print(f"errors {r['errors']}, tables whose record differs {r['lost']} "
          f"({r['verified_tables']} verified)")
    search = r["search_tables"]
    if search["tables"]:
        print(f"beside {search['tables']} tables of {search['bot']} bots only, which made "
              f"{search['steps']} steps while measured ({search['late_moves']} moves past the "
              "bots' wait, played greedy)")
    for line in r["error_examples"]:
        print("  ", line)


if __name__ == "__main__":
    sys.exit(main())
