"""Server bots: a budget for every move, thinking in a pool of their own, outside the lock.

A test bot (``waiting``) thinks until the test lets it go, so a test can act
on the table while it thinks. It runs in the thread pool (``bot_pool="threads"``),
where the test's bot factory is known; one test plays a real search in the
process pool.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor
from contextlib import ExitStack
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
