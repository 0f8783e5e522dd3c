"""A hung owner: how long until another process runs its tables.

    python benchmarks/server_hung_owner.py [--runs 5] [--stopped 20] [--db URL] [--json FILE]

Two ``eights serve`` processes on one PostgreSQL behind HAProxy
(``eights.server.cluster.Cluster``); without ``--db``, a private PostgreSQL server
in a temporary directory (``server_clients.PrivatePostgres``). Each run makes an
all-bot table (two greedy bots, 0.05 s bot delay) on the first process, starts it,
and once it has stored 3 actions stops the process that runs it with SIGSTOP, as a
hung process: its PostgreSQL sessions live on, its event loop does not run. It
measures the seconds from the SIGSTOP to the table's next action stored (by another
process: the lease ends when PostgreSQL ends the hung process's idle lease session,
``EIGHTS_LEASE_TIMEOUT``, 10 s by default; then the other process's sweep adopts the
table, seen unleased twice a second apart). After ``--stopped`` seconds the owner
gets SIGCONT; 3 s later the table's stored log must replay (every action legal in
turn: none stored twice by the two processes) with no gap in its numbers.

It prints each run's takeover, the median and the spread, and the load average.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import unix_connect

from eights.server.cluster import Cluster, unix_request
from eights.server.leases import LEASE_KEY
from eights.server.room import replay_table
from eights.server.store import Store, normalize_url

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Bench
from server_clients import PrivatePostgres


def _post(server: Path, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/tables`` to a server's own Unix socket."""
    status, answer = unix_request(server, "POST", "/api/tables", json.dumps(body).encode(),
                                  headers={"Content-Type": "application/json"}, timeout=10)
    if status != 201:
        raise RuntimeError(f"creating the table: {status} {answer[:200]!r}")
    data: dict[str, Any] = json.loads(answer)
    return data


def _scalar(url: str, sql: str, **params: Any) -> Any:
    engine = create_engine(normalize_url(url))
    try:
        with engine.connect() as connection:
            return connection.execute(text(sql), params).scalar()
    finally:
        engine.dispose()


def actions(url: str, code: str) -> int:
    """The actions stored of table ``code``."""
    return int(_scalar(url, "SELECT count(*) FROM actions WHERE table_code = :c", c=code))


def owner_pid(url: str, code: str) -> int | None:
    """The operating-system process id of the server holding the lease of ``code`` (the lease
    connection's ``application_name`` is ``eights serve PID``)."""
    name = _scalar(url, "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON "
                        "a.pid = l.pid WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND "
                        "l.granted AND ((l.classid::bigint << 32) | l.objid::bigint) = "
                        + LEASE_KEY.replace("%s", ":c"), c=code)
    return None if name is None else int(str(name).split()[-1])


@contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """``url`` in a new schema of its own (dropped on exit): nothing left by a run, such as
    a table still open, reaches the next one."""
    parsed = make_url(normalize_url(url))
    schema = f"eights_hung_{secrets.token_hex(4)}"
    admin = create_engine(parsed, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def hung_owner_takeover(cluster: Cluster, url: str, stopped: float) -> tuple[float, int]:
    """One run (see the module text): the takeover in seconds, and the actions stored by the
    end, once the log was checked."""
    first = cluster.server_socket(0)  # the first process itself, past the proxy
    made = _post(first, {"rules": "classic", "players": 2, "target": 10000,
                         "bots": {"0": "greedy", "1": "greedy"}})
    code = made["code"]
    with unix_connect(str(first), f"ws://localhost/ws/tables/{code}") as ws:
        ws.send(json.dumps({"type": "hello", "seq": 1}))
        ws.send(json.dumps({"type": "start", "seq": 2, "token": made["host_token"]}))
        began = time.monotonic()
        while actions(url, code) < 3:
            if time.monotonic() - began > 30:
                raise RuntimeError("the table does not play")
            time.sleep(0.05)
    owner = owner_pid(url, code)
    servers = {s.pid for s in cluster.servers if s is not None}
    if owner not in servers:
        raise RuntimeError(f"the table's owner {owner} is none of the servers {servers}")
    os.kill(owner, signal.SIGSTOP)
    try:
        stored = actions(url, code)
        hung = time.monotonic()
        while actions(url, code) == stored:
            if time.monotonic() - hung > 90:
                raise RuntimeError("no process took the hung owner's table in 90 s")
            time.sleep(0.05)
        took = time.monotonic() - hung
        if owner_pid(url, code) in (None, owner):
            raise RuntimeError("the table moved on, but not under another process's lease")
        time.sleep(max(0.0, stopped - took))
    finally:
        os.kill(owner, signal.SIGCONT)
    time.sleep(3.0)  # the old owner runs again: it must store nothing
    store = Store(url)
    try:
        data = store.load(code)
    finally:
        store.close()
    if data is None:
        raise RuntimeError(f"table {code} is gone")
    replay_table(data)  # every stored action legal in turn: none doubled, none lost
    if [a.seq for a in data.actions] != list(range(1, len(data.actions) + 1)):
        raise RuntimeError(f"table {code}: the action numbers have a gap")
    return took, len(data.actions)


def main(argv: list[str] | None = None) -> int:
    bench = Bench(__doc__)
    parser = bench.parser
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stopped", type=float, default=20.0,
                        help="seconds the owner stays stopped")
    parser.add_argument("--db", help="a PostgreSQL URL (default: a private server)")
    args = bench.parse(argv)
    private = None if args.db else PrivatePostgres()
    url = args.db or (private.url if private else "")
    took: list[float] = []
    try:
        with TemporaryDirectory(prefix="eights-hung-") as logs:
            for run in range(args.runs):
                with fresh_schema(url) as scoped, Cluster(
                        scoped, 2, log_dir=Path(logs) / str(run),
                        serve_args=["--bot-delay", "0.05"]) as cluster:
                    seconds, stored = hung_owner_takeover(cluster, scoped, args.stopped)
                took.append(seconds)
                bench.say(f"run {run + 1}: taken over after {seconds:.2f} s "
                          f"({stored} actions stored, the log replays)")
    finally:
        if private is not None:
            private.stop()
    load = os.getloadavg()
    figures = {"runs": len(took), "median": statistics.median(took), "min": min(took),
               "max": max(took), "lease_timeout": float(os.environ.get("EIGHTS_LEASE_TIMEOUT")
                                                        or 10.0),
               "load_average": [round(x, 2) for x in load]}
    bench.result(figures)
    print(f"hung owner taken over: median {figures['median']:.2f} s, "
          f"{figures['min']:.2f} to {figures['max']:.2f} s over {len(took)} runs "
          f"(lease timeout {figures['lease_timeout']:g} s; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
