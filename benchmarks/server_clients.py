"""What the server benchmarks share: ``eights serve`` in a child process, HTTP calls,
tables of scripted seats, latency figures, and the check of a table's record against
what its clients saw.

``server_load.py`` (one server, clients that never lose their connection) and
``server_chaos.py`` (several servers killed and restarted, clients that reconnect)
import it; it is not a benchmark by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http.client import HTTPException
from pathlib import Path
from typing import Any, TypeVar

import orjson
from websockets.asyncio.client import ClientConnection

from eights.engine.game import Game
from eights.engine.record import load_record, replay
from eights.server.cluster import free_port

Message = dict[str, Any]
Step = tuple[int, str] | None
"""One step of a match as its clients see it: ``(seat, action)``, or None for a round dealt."""
T = TypeVar("T")
TableT = TypeVar("TableT")


# --------------------------------------------------------------------------- options


def add_workload_options(parser: argparse.ArgumentParser, *, tables: int, ramp: float,
                         bots: int, think_help: str, seed: bool = True) -> None:
    """The options both benchmarks give their tables (how many, their rules and players,
    the greedy bots among them, the people's pace, the seed); the defaults that differ are
    arguments."""
    parser.add_argument("--tables", type=int, default=tables)
    parser.add_argument("--ramp", type=float, default=ramp,
                        help="seconds over which the matches start")
    parser.add_argument("--think", type=float, default=1.0, help=think_help)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", type=int, default=bots, help="seats played by greedy bots")
    parser.add_argument("--bot-delay", type=float, default=1.0)
    parser.add_argument("--rules", default="classic")
    if seed:  # (benchmarks/common.py's Bench gives it)
        parser.add_argument("--seed", type=int, default=1)


def check_workload(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse a workload with no seat left for a person."""
    if not 0 <= args.bots < args.players:
        parser.error("--bots must leave at least one person seat")


# --------------------------------------------------------------------------- server processes


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux), NaN once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_healthy(base: str, alive: Callable[[], bool], what: str, timeout: float = 60) -> None:
    """Wait until ``GET base/api/health`` answers ok; fail if ``alive()`` turns false."""
    deadline = time.monotonic() + timeout
    while True:
        if not alive():
            raise RuntimeError(f"{what} exited before it answered")
        try:
            if http(base, "GET", "/api/health", timeout=5)["ok"]:
                return
        except (OSError, RuntimeError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer within {timeout:.0f} s")
        time.sleep(0.05)


class ServerProcess:
    """``eights serve`` in a child process, its output appended to ``log``; restartable
    on the same port (``kill`` it with SIGKILL, then ``start`` it again)."""

    def __init__(self, db: str, log: Path, *, bot_delay: float | None = None,
                 address_limit: int | None = None, extra: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.log = log
        self.command = [sys.executable, "-m", "eights.cli", "serve", "--port", str(self.port),
                        "--db", db, *extra]
        if bot_delay is not None:
            self.command += ["--bot-delay", str(bot_delay)]
        if address_limit is not None:
            self.command += ["--address-limit", str(address_limit)]
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        env = {**os.environ, "EIGHTS_DATA_DIR": str(self.log.parent)}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT,
                                            env=env)
        process = self.process
        try:
            wait_healthy(self.base, lambda: process.poll() is None, "the server")
        except RuntimeError as exc:
            self.stop()
            raise RuntimeError(f"{exc}: " + self.log.read_text(errors="replace")[-2000:]) from None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu_seconds(self) -> float:
        return float("nan") if self.process is None else cpu_seconds(self.process.pid)

    def late_moves(self) -> int:
        """Bot moves that ran past the bots' wait (the server played greedy), from its log."""
        return self.log.read_text(errors="replace").count("did not move within")

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing is flushed or closed."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


class PrivatePostgres:
    """A PostgreSQL server of its own in a temporary directory, on a free loopback port
    (initdb, as the ``postgres`` user when run as root), restartable; removed by ``stop``."""

    def __init__(self) -> None:
        versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                          key=lambda p: int(p.parent.parent.name))
        if not versions:
            raise RuntimeError("no PostgreSQL server under /usr/lib/postgresql (Debian package "
                               "postgresql); give --db URL instead")
        self.bin = versions[-1].parent
        self.root = root = Path(tempfile.mkdtemp(prefix="eights-chaos-pg-"))
        self.data = root / "data"
        self.port = free_port()
        self.as_user: list[str] = []
        root.chmod(0o755)
        if os.geteuid() == 0:  # initdb refuses to run as root
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(root, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "eights", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(root / "server.log"), "-w", "-t", "60",
                  "-o", f"-p {self.port} -k {root} -c listen_addresses=127.0.0.1 "
                  "-c max_connections=400", "start")
        self._run("createdb", "-h", str(root), "-p", str(self.port), "-U", "eights", "eights")
        self.url = f"postgresql://eights@127.0.0.1:{self.port}/eights"

    def _run(self, tool: str, *args: str) -> None:
        # Output to a file, not a pipe: the server pg_ctl starts would hold a pipe open.
        out = self.root / f"{tool}.out"
        with out.open("w") as sink:
            done = subprocess.run([*self.as_user, str(self.bin / tool), *args], stdout=sink,
                                  stderr=subprocess.STDOUT, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {out.read_text(errors='replace')}")

    def cpu_seconds(self) -> float:
        """CPU time so far of the server and its live backends (those that ended are not
        counted: run it with long-lived connections, as ``eights serve`` keeps)."""
        try:
            main = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return float("nan")
        total = cpu_seconds(main)
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == main:
                    total += cpu_seconds(int(stat.parent.name))
            except (OSError, ValueError, IndexError):
                continue
        return total

    def restart(self) -> None:
        """``pg_ctl restart`` (fast shutdown: every connection is cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t",
                  "60", "-m", "fast", "restart")

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                        "fast", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)


class HTTPStatusError(RuntimeError):
    """An answer with an error status (``code``)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def http(base: str, method: str, path: str, body: Message | None = None, *,
         timeout: float = 30) -> Message:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer: Message = json.load(response)
            return answer
    except urllib.error.HTTPError as exc:
        raise HTTPStatusError(f"{method} {path}: {exc.code} "
                              f"{exc.read().decode(errors='replace')}", exc.code) from None


def ask_review(base: str, code: str, token: str, round_no: int = 1, *,
               timeout: float = 90, source: str | None = None) -> tuple[int, bytes]:
    """``POST /api/tables/CODE/review`` as the page asks, from the loopback address ``source``
    (default: the system's): the status and the body (an error status too; a connection that
    fails raises :class:`OSError`)."""
    import http.client

    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request("POST", f"/api/tables/{code}/review",
                           body=json.dumps({"token": token, "round": round_no}),
                           headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def get_patiently(base: str, path: str, seconds: float = 60) -> Message:
    """``GET base/path``, asked again every half second while it fails for want of a
    server (none answering, the proxy's 502 or 503, an answer cut short), for up to
    ``seconds``; any other error status is final."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return http(base, "GET", path, timeout=10)
        except (OSError, HTTPStatusError, HTTPException, ValueError) as exc:
            if (isinstance(exc, HTTPStatusError) and exc.code < 500) \
                    or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


async def in_threads(pool: concurrent.futures.ThreadPoolExecutor, calls: list[Callable[[], T]]
                     ) -> list[T]:
    loop = asyncio.get_running_loop()
    return list(await asyncio.gather(*(loop.run_in_executor(pool, call) for call in calls)))


# --------------------------------------------------------------------------- tables and seats


@dataclass
class Client:
    """One person's seat: its token, its connection, and the last state it saw."""

    seat: int
    token: str
    ws: ClientConnection | None = None
    seq: int = 0
    state: Message | None = None

    async def send(self, kind: str, **fields: Any) -> None:
        assert self.ws is not None
        self.seq += 1
        await self.ws.send(orjson.dumps({"type": kind, "seq": self.seq, **fields}).decode())


def pick(legal: list[str], rng: random.Random) -> str:
    """Some card if one plays, else draw, pass or take (so rounds move on)."""
    plays = [a for a in legal if a not in ("draw", "pass", "take")]
    if plays:
        return rng.choice(plays)
    return "draw" if "draw" in legal else legal[0]


def step_of(state: Message) -> Step:
    """The step a ``state`` event (of version above 0) reports: the action, or a deal."""
    last = state["last"]
    return None if last is None else (last["seat"], last["action"])


async def create_tables(base: str, pool: concurrent.futures.ThreadPoolExecutor, *, count: int,
                        rules: str, players: int, bots: int, seed: int, title: str,
                        make: Callable[[str, str, list[Client], random.Random], TableT]
                        ) -> list[TableT]:
    """``count`` private tables, the last ``bots`` seats greedy bots and a person joined in
    every other seat; ``make(code, host_token, clients, rng)`` wraps each."""
    spec = {str(players - 1 - i): "greedy" for i in range(bots)}

    def call(path: str, body: Message) -> Message:
        return http(base, "POST", path, body)

    def create(i: int) -> TableT:
        made = call("/api/tables", {"rules": rules, "players": players, "bots": spec,
                                    "target": 10_000, "public": False, "title": f"{title} {i}"})
        clients = [Client(seat, call(f"/api/tables/{made['code']}/join",
                                      {"name": f"P{seat}", "seat": seat})["token"])
                   for seat in range(players - bots)]
        return make(made["code"], made["host_token"], clients, random.Random(f"{seed}/{i}"))

    return await in_threads(pool, [lambda i=i: create(i) for i in range(count)])  # type: ignore[misc]


# --------------------------------------------------------------------------- figures


def quantile(samples: Sequence[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_ms(samples: Sequence[float]) -> dict[str, float]:
    """p50, p90, p99, max and mean of samples in seconds, in milliseconds."""
    return {"p50": round(1000 * quantile(samples, 0.50), 2),
            "p90": round(1000 * quantile(samples, 0.90), 2),
            "p99": round(1000 * quantile(samples, 0.99), 2),
            "max": round(1000 * max(samples, default=float("nan")), 2),
            "mean": round(1000 * statistics.fmean(samples), 2) if samples else float("nan")}


# --------------------------------------------------------------------------- the check


def record_steps(record: Message) -> tuple[Game, list[Step]]:
    """Replay an ``eights-record/1``: the final game, and its steps by version (the step
    that made version ``v`` at index ``v - 1``), as ``state`` events report them."""
    steps: list[Step] = []

    def on_step(game: Game, r: int, i: int, action: object) -> None:
        if r and not i:
            steps.append(None)  # the round was dealt before its first action
        assert game.to_play is not None  # a step is legal only while a seat is to play
        steps.append((game.to_play, str(action)))

    game = replay(load_record(record), on_step=on_step)
    for r, rnd in enumerate(record["rounds"]):  # a round dealt that has no action yet
        if r and not rnd["actions"]:
            steps.append(None)
    return game, steps


def check_record(code: str, record: Message, seen: Mapping[int, Step],
                 last: Sequence[tuple[int, int, Message]], *, every_step: bool) -> str | None:
    """What is wrong with a table's record, or None.

    ``seen`` maps the versions the clients were told of to their step; ``last`` holds
    ``(seat, version, view)``, the last state each client saw. Every step told must be in
    the record at its version (none lost, none doubled: a step added or dropped shifts
    every later one), each client must have seen the record's final version, and the
    record must replay to the view each client saw last. With ``every_step`` the clients
    must also have been told of every step of the record.
    """
    try:
        game, steps = record_steps(record)
    except Exception as exc:  # any failure to replay is the finding
        return f"{code}: the record does not replay ({type(exc).__name__}: {exc})"
    for version, step in sorted(seen.items()):
        if version > len(steps):
            return (f"{code}: the clients were told of version {version} ({step}), the record "
                    f"ends at version {len(steps)}")
        if steps[version - 1] != step:
            return (f"{code}: version {version} was {step} for the clients, "
                    f"{steps[version - 1]} in the record")
    if every_step and len(seen) != len(steps):
        return f"{code}: the record holds {len(steps)} steps, the clients saw {len(seen)}"
    for seat, version, view in last:
        if version != len(steps):
            return f"{code}: seat {seat} saw version {version} last, the record ends at {len(steps)}"
        if game.observe(seat).to_json() != view:
            return f"{code}: seat {seat} saw a state the record does not replay to"
    return None


def play_first_round(base: str, made: Mapping[str, Any], rng: random.Random,
                     wait: float = 30.0) -> None:
    """Round 1 of a table just made by ``POST /api/tables`` (``made``: its answer), played to
    its end over the WebSocket as the page plays it: the host starts the match, and seat 0,
    the person, plays some card when one plays (else its first legal action) while the bots
    play theirs. ``wait``: the most seconds between two messages."""
    from websockets.sync.client import connect

    with connect(base.replace("http", "ws") + f"/ws/tables/{made['code']}",
                 max_size=2**22) as ws:
        seq = 0

        def send(kind: str, **fields: Any) -> None:
            nonlocal seq
            seq += 1
            ws.send(json.dumps({"type": kind, "seq": seq, **fields}))

        send("hello", token=made["token"])
        send("start", token=made["host_token"])
        while True:
            msg = json.loads(ws.recv(timeout=wait))
            if msg["type"] != "state":
                continue
            view = msg["view"]
            if view["round_over"]:
                return
            if view["to_play"] == 0 and view["legal"]:
                plays = [a for a in view["legal"] if a not in ("draw", "pass", "take")]
                send("action", token=made["token"], version=msg["version"],
                     action=rng.choice(plays) if plays else view["legal"][0])
