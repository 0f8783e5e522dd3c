"""Server bots: a budget for every move, thinking in a pool of their own, outside the lock.

A test bot (``waiting``) thinks until the test lets it go, so a test can act
on the table while it thinks. It runs in the thread pool (``bot_pool="threads"``),
where the test's bot factory is known; one test plays a real search in the
process pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from eights import bots as bot_registry
from eights.bots import GreedyBot
from eights.engine.actions import Action
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.rules import load_rules
from eights.server import Limits, create_app, thinking
from eights.server.protocol import ProtocolError
from eights.server.store import SeatData, Store, TableData
from eights.server.thinking import Thinker, check_bot, server_bot, think
from test_server import Message, Peer, create, pick, room_of


class Gate:
    """What the waiting bot waits for, and what it tells the test."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.done = threading.Event()
        self.threads: list[str] = []


class WaitingBot:
    """Thinks until the gate opens, then plays its last legal action."""

    name = "waiting"
    gate = Gate()

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        gate = WaitingBot.gate
        gate.threads.append(threading.current_thread().name)
        gate.started.set()
        gate.release.wait(30)
        gate.done.set()
        return legal[-1]


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    monkeypatch.setitem(bot_registry.BOTS, "waiting", WaitingBot)
    monkeypatch.setattr(thinking, "BOTS", (*thinking.BOTS, "waiting"))
    WaitingBot.gate = Gate()
    yield WaitingBot.gate
    WaitingBot.gate.release.set()  # no thread left waiting


def client_of(tmp_path: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0,
                                 limits=limits, testing_fixed_seeds=True, bot_pool="threads"))


def newer(version: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["version"] > version


def bot_thinking(client: TestClient, stack: ExitStack, gate: Gate) -> tuple[Message, Peer]:
    """A two-seat table, Ana against the waiting bot, which is thinking once this returns."""
    table = create(client, rules="classic", players=2, bots={"1": "waiting"}, name="Ana", seed=3)
    ana = Peer(stack.enter_context(client.websocket_connect(f"/ws/tables/{table['code']}")),
               table["token"])
    ana.hello()
    ana.send("start", token=table["host_token"])
    ana.until(lambda m: m["type"] == "state")
    while ana.view["to_play"] == 0:  # Ana plays until the bot is to move
        acted = ana.version
        ana.play(pick(ana.view["legal"], random.Random(acted)))
        ana.until(newer(acted))
    assert gate.started.wait(10), "the bot was asked to move"
    return table, ana


def test_a_bot_thinks_in_its_own_pool_outside_the_lock(tmp_path: Path, gate: Gate) -> None:
    with client_of(tmp_path) as client, ExitStack() as stack:
        table, ana = bot_thinking(client, stack, gate)
        code = table["code"]
        # The table answers while the bot thinks: a spectator is welcomed (under the lock).
        watcher = Peer(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")))
        assert watcher.hello()["table"]["code"] == code
        assert watcher.expect("state")["version"] == ana.version
        assert gate.threads == ["eights-bot_0"]  # not the event loop, not the default pool
        chosen = str(room_of(client, code).game.legal_actions()[-1])
        version = ana.version
        gate.release.set()
        moved = ana.until(newer(version))
        assert moved["last"] | {"text": ""} == {"seat": 1, "action": chosen, "by": "bot",
                                                "text": ""}


def greedy_moved(ana: Peer, version: int, greedy: Action) -> None:
    """The greedy move came for the bot, and Ana is to play: nothing else may change."""
    moved = ana.until(newer(version))
    assert moved["version"] == version + 1
    assert moved["last"]["seat"] == 1 and moved["last"]["by"] == "bot"
    assert moved["last"]["action"] == str(greedy)
    assert moved["view"]["to_play"] == 0


def test_a_bot_past_its_wait_plays_the_greedy_move(tmp_path: Path, gate: Gate) -> None:
    with client_of(tmp_path, Limits(bot_wait=0.3)) as client, ExitStack() as stack:
        table, ana = bot_thinking(client, stack, gate)
        room = room_of(client, table["code"])
        view, legal = room.game.observe(1), room.game.legal_actions()
        greedy = GreedyBot().choose(view, legal, random.Random(0))
        assert legal[-1] != greedy, "the test needs the bot's move to differ from greedy's"
        version = ana.version
        greedy_moved(ana, version, greedy)
        gate.release.set()  # the late answer is dropped
        assert gate.done.wait(10)
        ana.alive()
        assert room.version == version + 1
        bots = client.get("/api/health").json()["bots"]  # the fallback is counted
        assert bots["late"] == 1 and bots["failed"] == 0 and bots["moves"] >= 1
        assert bots["pool"] == "threads" and bots["workers"] == thinking.default_workers()


def test_health_counts_the_bot_moves_and_their_fallbacks(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With one worker and 8 search tables, 128 moves in 90 s ran past the cap and were
    played by the greedy bot, and nothing said so: ``/api/health`` counts them."""
    class Failing:
        name = "failing"

        def choose(self, *_args: object) -> Action:
            raise RuntimeError("a bot that fails")

    monkeypatch.setitem(bot_registry.BOTS, "failing", Failing)
    monkeypatch.setattr(thinking, "BOTS", (*thinking.BOTS, "failing"))
    monkeypatch.setitem(thinking.CLIENT_OPTIONS, "failing", ())
    monkeypatch.setattr(thinking, "INLINE_BOTS", thinking.INLINE_BOTS | {"failing"})
    with client_of(tmp_path) as client:
        assert client.get("/api/health").json()["bots"]["moves"] == 0
        with watched(client, {"0": "greedy", "1": "failing"}) as watcher:
            watcher.until(lambda m: m["type"] == "state" and m["version"] >= 6, timeout=20)
        bots = client.get("/api/health").json()["bots"]
        assert bots["failed"] >= 3 and bots["late"] == 0
        assert bots["moves"] >= bots["failed"] + 3  # the greedy bot's own moves too


@contextmanager
def watched(client: TestClient, bots: dict[str, str]) -> Iterator[Peer]:
    made = create(client, rules="classic", players=2, bots=bots, seed=5)
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        watcher = Peer(ws)
        watcher.hello()
        watcher.send("start", token=made["host_token"])
        yield watcher


def test_the_pool_is_sized_by_the_machine() -> None:
    workers = thinking.default_workers()
    assert 1 <= workers <= thinking.MOST_WORKERS
    assert workers == max(1, min(thinking.MOST_WORKERS, len(os.sched_getaffinity(0)) - 1))
    assert Thinker(wait=1.0).workers == workers
    assert Thinker(workers=3, wait=1.0).workers == 3


def test_a_move_thought_on_a_changed_table_is_dropped(tmp_path: Path, gate: Gate) -> None:
    with client_of(tmp_path) as client, ExitStack() as stack:
        table, ana = bot_thinking(client, stack, gate)
        room = room_of(client, table["code"])
        view, legal = room.game.observe(1), room.game.legal_actions()
        greedy = GreedyBot().choose(view, legal, random.Random(0))
        assert legal[-1] != greedy
        version = ana.version
        # The host puts another bot in while the first one thinks: the table does not wait.
        ana.send("seat_bot", token=table["host_token"], seat=1, bot="greedy")
        greedy_moved(ana, version, greedy)
        gate.release.set()
        assert gate.done.wait(10)
        ana.alive()
        assert room.version == version + 1


def test_a_search_bot_always_has_a_time_limit_within_the_budget(tmp_path: Path) -> None:
    with client_of(tmp_path) as client:
        table = create(client, rules="classic", players=2, name="Ana", seed=3,
                       bots={"1": "ismcts:iterations=5000"})
        bot = room_of(client, table["code"]).seats[1].bot
        assert bot is not None and getattr(bot, "time", None) == 3.0
        assert getattr(bot, "iterations", None) == 5000
        answer = client.post("/api/tables", json={"rules": "classic", "players": 2,
                                                  "bots": {"1": "ismcts:time=4"}})
        assert answer.status_code == 400
        assert "at most 3 seconds a move" in answer.json()["message"]


def test_the_budget_is_the_servers() -> None:
    assert server_bot("ismcts:iterations=5000", 0.5)[0] == "ismcts:iterations=5000:time=0.5"
    assert getattr(server_bot("ismcts", 0.5)[1], "time", None) == 0.5  # its 1 s default, cut
    assert getattr(server_bot("ismcts:time=0.2", 0.5)[1], "time", None) == 0.2
    assert server_bot("expert:block=2", 0.5)[0] == "expert:block=2"  # no time to set
    with pytest.raises(ProtocolError, match=r"at most 0\.5 seconds"):
        check_bot("ismcts:time=1", 0.5)
    with pytest.raises(ProtocolError, match="iterations must be 1 to 5000"):
        check_bot("ismcts:iterations=5001", 3.0)


def test_a_search_thinks_in_a_worker_process_and_a_dead_worker_is_replaced() -> None:
    game = Game(load_rules("classic"), 2, seed=4)
    view, legal = game.observe(game.to_move), game.legal_actions()
    spec = "ismcts:iterations=40:kernel=off"
    thinker = Thinker(workers=1, wait=120.0)

    async def moves() -> list[Action | str]:
        first = await thinker.choose(spec, view, legal, "s")
        workers = thinker._executor._processes  # type: ignore[union-attr]
        for process in list(workers.values()):
            process.kill()
            process.join()
        try:
            broken: Action | str = await thinker.choose(spec, view, legal, "s")
        except BrokenExecutor:
            broken = "broken"
        return [first, broken, await thinker.choose(spec, view, legal, "s")]

    try:
        first, broken, again = asyncio.run(moves())
    finally:
        thinker.close()
    assert first in legal and broken == "broken"
    assert again == first  # a new worker, the same search for the same seed


def test_a_move_taken_up_past_its_deadline_is_skipped() -> None:
    game = Game(load_rules("classic"), 2, seed=4)
    view, legal = game.observe(game.to_move), game.legal_actions()
    assert think("greedy", view, legal, "s", time.monotonic() - 0.01) is None
    assert think("greedy", view, legal, "s", time.monotonic() + 60) in legal


# --------------------------------------------------------------------------- options a client may set


class Fifo:
    """A named pipe that tells whether anyone opened it to read (a server that opens a path a
    client names would block there for ever): ``opened`` is set, and the reader let go."""

    def __init__(self, path: Path) -> None:
        os.mkfifo(path)
        self.path = path
        self.opened = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.02):
            try:  # a non-blocking open for writing succeeds only while a reader has it open
                fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                continue
            self.opened.set()
            os.close(fd)  # the reader sees the end of the file: it goes on

    def close(self) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture
def fifo() -> Iterator[Fifo]:
    where = Path(tempfile.mkdtemp(prefix="e"))  # short: a bot spec is 60 characters at most
    pipe = Fifo(where / "b.npz")
    yield pipe
    pipe.close()
    shutil.rmtree(where)


def _says_nothing_of_the_disk(message: str) -> None:
    for leak in ("Errno", "No such file", "pickled", "Is a directory", "/etc", "root:"):
        assert leak not in message, message


@pytest.mark.parametrize("path", ["/etc/passwd", "/nonexistent", "/root", "FIFO"])
def test_a_bot_option_naming_a_file_is_refused_without_opening_it(
        tmp_path: Path, fifo: Fifo, path: str) -> None:
    """``belief=PATH`` reached ``np.load`` on the event loop: a probe of the server's disk
    (the error said what was there) and, with a named pipe, a server frozen for ever."""
    path = str(fifo.path) if path == "FIFO" else path
    with client_of(tmp_path) as client:
        for spec in (f"ismcts:worlds=belief:belief={path}", f"ismcts:belief={path}",
                     f"learned:model={path}"):
            answer = client.post("/api/tables", json={"rules": "classic", "players": 2,
                                                      "bots": {"1": spec}})
            assert answer.status_code == 400, answer.text
            message = answer.json()["message"]
            name = spec.split(":")[0]
            option = "belief" if name == "ismcts" else "model"
            assert f"option {option} cannot be set on this server" in message, message
            assert "options a client may set: " in message, message
            _says_nothing_of_the_disk(message)
        assert not fifo.opened.is_set(), "the server opened a path a client named"


def test_seat_bot_refuses_a_file_option_without_opening_it(tmp_path: Path, fifo: Fifo) -> None:
    with client_of(tmp_path) as client, ExitStack() as stack:
        table = create(client, rules="classic", players=2, name="Ana", seed=3)
        ana = Peer(stack.enter_context(client.websocket_connect(f"/ws/tables/{table['code']}")),
                   table["token"])
        ana.hello()
        ana.send("seat_bot", token=table["host_token"], seat=1,
                 bot=f"ismcts:worlds=belief:belief={fifo.path}")
        refused = ana.error("bad_request")
        assert "option belief cannot be set on this server" in refused["message"]
        _says_nothing_of_the_disk(refused["message"])
        assert room_of(client, table["code"]).seats[1].kind == "free"
        assert not fifo.opened.is_set()


def test_a_stored_bot_naming_a_file_is_restored_without_opening_it(
        tmp_path: Path, fifo: Fifo) -> None:
    """A table stored before the server refused such options (or written into the database by
    hand) is restored with the greedy bot in that seat; the file is never opened."""
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    store = Store(url)
    store.migrate()
    spec = f"ismcts:worlds=belief:belief={fifo.path}"
    store.run(Store.add_table(TableData(
        code="OLDTABLE", rules="classic", overrides={}, players=2, seed=5, dealer=1,
        status="playing", host_hash="h", seats=[SeatData(0, "Bot 1", "greedy"),
                                               SeatData(1, "Bot 2", spec)])))
    store.close()
    with client_of(tmp_path) as client:
        seat = room_of(client, "OLDTABLE").seats[1]
        assert seat.bot is not None and seat.bot.name == "greedy"
        assert seat.runs == "greedy"
    assert not fifo.opened.is_set()


def test_every_option_a_client_may_set_is_a_number_or_a_fixed_word() -> None:
    """The allow-list (thinking.CLIENT_OPTIONS) holds no free text: no option a network client
    sets can name a path, a module or anything else on the server."""
    from eights.bots import bot_options

    assert set(thinking.CLIENT_OPTIONS) == set(thinking.BOTS)
    for name, allowed in thinking.CLIENT_OPTIONS.items():
        declared = bot_options(name)
        assert declared is not None
        for option in allowed:
            kind = declared[option]
            words = thinking.CLIENT_WORDS.get((name, option))
            assert kind.kind in (int, float, bool) or kind.choices or words, (name, option)
            assert words is None or all(w.isalpha() and len(w) <= 8 for w in words)
    assert "belief" not in thinking.CLIENT_OPTIONS["ismcts"]
    assert thinking.CLIENT_OPTIONS["learned"] == ("temperature",)
    with pytest.raises(ProtocolError, match="options a client may set: temperature"):
        check_bot("learned:model=x.npz", 3.0)
    check_bot("ismcts:iterations=50:worlds=belief:prior=none:tree=all", 3.0)  # fixed words
    with pytest.raises(ProtocolError, match="option rollout must be expert or greedy or random"):
        check_bot("ismcts:rollout=/etc/passwd", 3.0)
    # the ceiling measurement (a search that sees every card) is never a client's
    assert "see" not in thinking.CLIENT_OPTIONS["ismcts"]
    with pytest.raises(ProtocolError, match="option see cannot be set on this server"):
        check_bot("ismcts:see=all", 3.0)


def test_a_search_with_learned_parts_is_seated_at_every_table() -> None:
    """The family models serve every table: a preset at a player count no specialist was
    trained for, and a house change of a preset (a match target)."""
    classic = load_rules("classic")
    target = load_rules("classic", ["target=20"])
    for spec in ("ismcts:worlds=belief", "ismcts:prior=learned", "learned"):
        for rules, players in ((classic, 2), (classic, 3), (target, 2), (classic, 7)):
            check_bot(spec, 3.0, rules, players)
    with pytest.raises(ProtocolError, match="options a client may set"):
        check_bot("ismcts:worlds=belief:belief=/etc/passwd", 3.0, classic, 3)


# --------------------------------------------------------------------------- workers die with their server

_OWNER = """
import asyncio, os, sys
from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.server.thinking import Thinker

game = Game(load_rules("classic"), 2, seed=4)
view, legal = game.observe(game.to_move), game.legal_actions()
thinker = Thinker(workers=2, wait=120.0)

async def main():
    await asyncio.gather(*(thinker.choose("greedy", view, legal, str(i)) for i in range(8)))
    print(" ".join(str(p) for p in thinker._executor._processes), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_the_bot_workers_die_with_their_server_even_by_kill_9() -> None:
    """A server killed with ``kill -9`` left its search workers asleep for ever (190 to 700 MB
    each): they now end within a few seconds of it."""
    owner = subprocess.Popen([sys.executable, "-c", _OWNER], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(Path(thinking.__file__)
                                                                  .parents[2])})
    try:
        assert owner.stdout is not None
        line = owner.stdout.readline()
        workers = [int(p) for p in line.split()]
        assert workers and all(_alive(p) for p in workers), line
        owner.kill()  # SIGKILL: no clean-up of any kind runs in the server
        owner.wait()
        deadline = time.monotonic() + 5.0
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [p for p in workers if _alive(p)]
        assert not left, f"workers {left} outlived their server"
    finally:
        owner.kill()
        for pid in workers if "workers" in locals() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


_PARENT = """
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import sys; from eights.server.thinking "
                          "import _watch; _watch(int(sys.argv[1]))", str(os.getpid())])
print(child.pid, flush=True)
child.wait()
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_the_watchdog_alone_ends_a_worker_whose_parent_died() -> None:
    """The portable half (where no parent-death signal exists): the watchdog sees the worker
    handed to another parent and ends it."""
    parent = subprocess.Popen([sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(thinking.__file__)
                                                                   .parents[2])})
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    try:
        time.sleep(0.5)
        assert _alive(child)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5.0
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(child), "the watchdog did not end the orphan"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
