"""kill -9 and restart: a real server process, real WebSockets, the match goes on exactly.

The server runs as ``python -m eights.cli serve`` on a free loopback port;
three people play part of a match over WebSockets, the process is killed with
SIGKILL, a new one starts on the same database, the people reconnect with their
seat tokens and find the same version and the same view, then play on; the
exported record of the whole match replays to what they saw last. On SQLite,
and on PostgreSQL when ``EIGHTS_TEST_POSTGRES`` is set (see ``postgres.py``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from eights.engine.record import load_record, replay
from postgres import BACKENDS, database_url
from test_server import Chooser, pick
from test_server_family import pick_family

Message = dict[str, Any]

START_TIMEOUT = 30.0
"""Seconds a server process may take to answer ``/api/health``."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``eights serve`` as a child process (its output goes to ``log``)."""

    def __init__(self, db: str, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        env = {**os.environ, "EIGHTS_DATA_DIR": str(log.parent)}
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "eights.cli", "serve", "--port", str(port), "--db", db,
                 "--bot-delay", "0", "--testing-fixed-seeds"], stdout=out, stderr=subprocess.STDOUT,
                env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while True:  # until it answers (or dies, or takes too long)
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited with {self.process.returncode}:\n"
                                     + log.read_text(errors="replace")[-3000:])
            try:
                if self.get("/api/health")["ok"]:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the server did not answer within {START_TIMEOUT} s:\n"
                                     + log.read_text(errors="replace")[-3000:])
            time.sleep(0.05)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def get(self, path: str) -> Message:
        with urllib.request.urlopen(self.url(path), timeout=5) as response:
            data: Message = json.load(response)
            return data

    def post(self, path: str, body: Message) -> Message:
        request = urllib.request.Request(self.url(path), data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            data: Message = json.load(response)
            return data

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """A clean shutdown (SIGINT, as Ctrl-C), else SIGKILL."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def running(db: str, port: int, log: Path) -> Iterator[Server]:
    server = Server(db, port, log)
    try:
        yield server
    finally:
        server.stop()


class Seat:
    """A person's WebSocket connection: numbered messages, the last state seen."""

    def __init__(self, ws: ClientConnection, token: str) -> None:
        self.ws = ws
        self.token = token
        self.seq = 0
        self.state: Message | None = None

    def send(self, kind: str, **fields: Any) -> None:
        self.seq += 1
        self.ws.send(json.dumps({"type": kind, "seq": self.seq, **fields}))

    def recv(self) -> Message:
        data: Message = json.loads(self.ws.recv(timeout=10))
        assert data["type"] != "error", data
        if data["type"] == "state":
            self.state = data
        return data

    def until(self, pred: Callable[[Message], bool]) -> Message:
        while True:
            msg = self.recv()
            if pred(msg):
                return msg

    def hello(self) -> Message:
        self.send("hello", token=self.token)
        welcome = self.until(lambda m: m["type"] == "welcome")
        return welcome

    @property
    def version(self) -> int:
        assert self.state is not None
        version: int = self.state["version"]
        return version

    @property
    def view(self) -> Message:
        assert self.state is not None
        view: Message = self.state["view"]
        return view

    def close(self) -> None:
        self.ws.close()


def newer(version: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["version"] > version


def sit(stack: ExitStack, server: Server, code: str, tokens: dict[int, str]) -> dict[int, Seat]:
    seats = {}
    for seat, token in tokens.items():
        ws = stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/tables/{code}",
                                         open_timeout=5))
        person = Seat(ws, token)
        assert person.hello()["seat"] == seat
        seats[seat] = person
    return seats


def play(seats: dict[int, Seat], rng: random.Random, moves: int, choose: Chooser = pick) -> None:
    """``moves`` actions by whoever is to play (the next round dealt when one ends);
    every seat sees each one before the next."""
    for _ in range(moves):
        first = seats[0]
        if first.view["match_over"]:
            return
        acted = first.version
        if first.view["round_over"]:
            first.send("next_round", token=first.token, version=acted)
        else:
            person = seats[first.view["to_play"]]
            assert person.version == acted and person.view["legal"]
            person.send("action", token=person.token, action=choose(person.view["legal"], rng),
                        version=acted)
        for person in seats.values():
            person.until(newer(acted))
            assert person.version == acted + 1


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, str(tmp_path / "server.sqlite3")) as url:
        yield url


FAMILY = {"multi_play": "same-rank", "play_on": True, "scoring": "placings", "hand_size": 3}
"""SW3, TS11, TS12 on three cards a hand: by the kill, plays of several cards and a seat out."""


@pytest.mark.parametrize(("rules", "overrides", "seed", "choose"), [
    ("huit-americain", {}, 21, pick),
    ("crazy-eights", FAMILY, 4, pick_family),
], ids=["huit-americain", "crazy-eights+"])
def test_a_killed_server_resumes_the_match_exactly(db: str, tmp_path: Path, rules: str,
                                                   overrides: dict[str, Any], seed: int,
                                                   choose: Chooser) -> None:
    port, log, rng = free_port(), tmp_path / "server.log", random.Random(3)
    with ExitStack() as stack:
        first = stack.enter_context(running(db, port, log))
        made = first.post("/api/tables", {"rules": rules, "players": 3, "seed": seed,
                                          "name": "Ana", "overrides": overrides})
        code = made["code"]
        tokens = {0: made["token"]}
        for seat, name in ((1, "Bob"), (2, "Cy")):
            tokens[seat] = first.post(f"/api/tables/{code}/join", {"name": name, "seat": seat})["token"]
        seats = sit(stack, first, code, tokens)
        seats[0].send("start", token=made["host_token"])
        for person in seats.values():
            person.until(newer(-1))
        play(seats, rng, moves=12, choose=choose)
        before = {seat: person.state for seat, person in seats.items()}
        version = seats[0].version
        assert version == 12
        if overrides:  # the replay has plays of several cards and a seat out to restore
            view = seats[0].view
            assert view["finished"] and any("+" in a for _s, a in view["history"])
        first.kill()
        assert first.process.returncode == -signal.SIGKILL
        for person in seats.values():
            person.close()

    with ExitStack() as stack:
        second = stack.enter_context(running(db, port, log))
        assert second.get(f"/api/tables/{code}")["version"] == version
        seats = sit(stack, second, code, tokens)
        for seat, person in seats.items():
            state = person.until(lambda m: m["type"] == "state")
            seen = before[seat]
            assert seen is not None
            assert state["version"] == version
            assert state["view"] == seen["view"]
            assert state["view"]["hand"] == seen["view"]["hand"]
            assert state["view"]["hand"] or seat in state["view"]["finished"]  # TS11: out
        play(seats, rng, moves=10, choose=choose)
        assert seats[0].version == version + 10
        final = {seat: person.view for seat, person in seats.items()}
        seats[0].send("close", token=made["host_token"])
        for person in seats.values():
            person.until(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
        try:
            record = second.get(f"/api/tables/{code}/record")
        except urllib.error.HTTPError as exc:  # pragma: no cover - the message helps
            raise AssertionError(exc.read().decode()) from None

    game = replay(load_record(record))
    assert sum(len(r["actions"]) for r in record["rounds"]) + game.round - 1 == version + 10
    for seat, view in final.items():
        assert game.observe(seat).to_json() == view
