"""The server through its protocol: create, join, play, reconnect, spectate, host commands.

Each test runs the app in-process (Starlette's TestClient: one event loop
for every connection) on its own SQLite file, with bots that do not pause.
The helpers here are shared by the other ``test_server_*`` files.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from eights.bots.basic import RandomBot
from eights.server import Limits, create_app
from eights.server.hub import Hub
from eights.server.room import Room

Message = dict[str, Any]


def make_client(db: str, *, limits: Limits | None = None, bot_delay: float = 0.0,
                fixed_seeds: bool = True) -> TestClient:
    """The app on ``db``; tests deal known hands (``seed``) unless ``fixed_seeds`` is off."""
    return TestClient(create_app(db, bot_delay=bot_delay, limits=limits,
                                 testing_fixed_seeds=fixed_seeds, reviews_ahead=False))


def hub_of(client: TestClient) -> Hub:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert isinstance(hub, Hub)
    return hub


def room_of(client: TestClient, code: str) -> Room:
    return hub_of(client).rooms[code]


class Peer:
    """One WebSocket client: numbers its messages, keeps everything it received."""

    def __init__(self, ws: WebSocketTestSession, token: str | None = None) -> None:
        self.ws = ws
        self.token = token
        self.seq = 0
        self.received: list[Message] = []
        self.state: Message | None = None
        self.seat: int | None = None

    def send(self, kind: str, **fields: Any) -> int:
        self.seq += 1
        self.ws.send_text(json.dumps({"type": kind, "seq": self.seq, **fields}))
        return self.seq

    def recv(self, timeout: float = 5.0) -> Message:
        """The next event (fails after ``timeout`` seconds instead of hanging)."""
        stream = self.ws._send_rx

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await stream.receive()

        message = self.ws.portal.call(get)
        if message["type"] == "websocket.close":
            raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
        data: Message = json.loads(message["text"])
        self.received.append(data)
        if data["type"] == "state":
            self.state = data
        return data

    def until(self, pred: Callable[[Message], bool], timeout: float = 5.0) -> Message:
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg

    def expect(self, kind: str) -> Message:
        msg = self.recv()
        assert msg["type"] == kind, msg
        return msg

    def error(self, code: str) -> Message:
        msg = self.recv()
        assert msg["type"] == "error", msg
        assert msg["code"] == code, msg
        assert msg["message"], msg
        return msg

    def hello(self, token: str | None = None, lang: str = "en") -> Message:
        if token is not None:
            self.token = token
        self.send("hello", **({"token": self.token} if self.token else {}), lang=lang)
        welcome = self.expect("welcome")
        self.seat = welcome["seat"]
        return welcome

    @property
    def view(self) -> Message:
        assert self.state is not None
        view: Message = self.state["view"]
        return view

    @property
    def version(self) -> int:
        assert self.state is not None
        version: int = self.state["version"]
        return version

    def play(self, action: str, version: int | None = None) -> int:
        return self.send("action", token=self.token, action=action,
                         version=self.version if version is None else version)

    def alive(self) -> None:
        """The connection still answers."""
        seq = self.send("ping")
        assert self.recv() == {"type": "pong", "seq": seq}


def create(client: TestClient, **body: Any) -> Message:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: Message = response.json()
    return data


@contextmanager
def watched_bot_table(client: TestClient, **options: Any) -> Iterator[tuple[Message, Peer]]:
    """A classic table of two greedy bots, created with ``options`` (``target``, ``seed``...),
    started by its host, and a :class:`Peer` watching it: ``(created, watcher)``."""
    made = create(client, rules="classic", players=2, bots={"0": "greedy", "1": "greedy"},
                  **options)
    with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        watcher = Peer(ws)
        watcher.hello()
        watcher.send("start", token=made["host_token"])
        yield made, watcher


def join(client: TestClient, code: str, name: str, **extra: Any) -> Message:
    response = client.post(f"/api/tables/{code}/join", json={"name": name, **extra})
    assert response.status_code == 200, response.text
    data: Message = response.json()
    return data


def pick(legal: list[str], rng: random.Random) -> str:
    """A person's choice: some card if one plays (the round moves on), else draw or pass."""
    plays = [a for a in legal if a not in ("draw", "pass", "take")]
    if plays:
        return rng.choice(plays)
    return "draw" if "draw" in legal else legal[0]


def settled(people: dict[int, Peer], after: int) -> Callable[[Message], bool]:
    """A state newer than ``after`` where a person is to play or the round is over."""
    def pred(msg: Message) -> bool:
        return (msg["type"] == "state" and msg["version"] > after
                and (msg["view"]["round_over"] or msg["view"]["to_play"] in people))
    return pred


Chooser = Callable[[list[str], random.Random], str]


def play_round(people: dict[int, Peer], rng: random.Random, watchers: tuple[Peer, ...] = (),
               moves: int | None = None, *, choose: Chooser = pick,
               stop: Callable[[Message], bool] | None = None) -> Message:
    """Play until the round is over, or ``moves`` people's moves (bots move by
    themselves), or a view where ``stop`` holds; the last state."""
    done = 0
    while True:
        any_peer = next(iter(people.values()))
        view = any_peer.view
        if view["round_over"] or (moves is not None and done >= moves) or (stop and stop(view)):
            return view
        peer = people[view["to_play"]]
        assert peer.view["legal"], "the seat to play sees its legal actions"
        acted = peer.version
        peer.play(choose(peer.view["legal"], rng))
        done += 1
        for p in (*people.values(), *watchers):
            p.until(settled(people, acted))


def start_table(client: TestClient, stack: ExitStack, **body: Any) -> tuple[Message, dict[int, Peer]]:
    """Create a table with people in the seats without bots, start it: the people connected.

    The connections close with ``stack`` (also when a test fails, so nothing hangs).
    """
    table = create(client, **body)
    code = table["code"]
    people: dict[int, Peer] = {}
    names = iter(["Ana", "Bob", "Cy", "Dee", "Eve"])
    for seat in range(table["table"]["players"]):
        if str(seat) in {str(k) for k in body.get("bots", {})}:
            continue
        joined = join(client, code, next(names), seat=seat)
        peer = Peer(stack.enter_context(client.websocket_connect(f"/ws/tables/{code}")),
                    joined["token"])
        assert peer.hello()["seat"] == seat
        people[seat] = peer
    first = next(iter(people.values()))
    first.send("start", token=table["host_token"])
    for p in people.values():
        p.until(settled(people, -1))
    return table, people


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with make_client(db) as c:
        yield c


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    """Connections opened by a test, closed before its client (so a failure cannot hang)."""
    with ExitStack() as s:
        yield s


# --------------------------------------------------------------------------- tables over HTTP


def test_a_table_may_use_the_new_turn_rules(client: TestClient) -> None:
    """SW7, PE5: reverse_two and forced_draw_ends_turn are table overrides; starter_wild too."""
    made = create(client, rules="huit-fou", players=2, bots={"1": "greedy"},
                  overrides={"reverse_two": "skip", "forced_draw_ends_turn": False,
                             "starter_wild": "any"})
    assert made["table"]["overrides"] == {"reverse_two": "skip", "forced_draw_ends_turn": False,
                                          "starter_wild": "any"}
    called = create(client, rules="classic", players=2, bots={"1": "greedy"},
                    overrides={"call_out": True, "call_out_penalty": 3, "serve_last_draw": True})
    assert called["table"]["overrides"]["call_out_penalty"] == 3  # MM9, LC8
    refused = client.post("/api/tables", json={"rules": "huit-fou", "overrides": {"reverse_two": "twice"}})
    assert refused.status_code == 400 and "reverse_two" in refused.json()["message"]


def test_create_join_and_lobby(client: TestClient) -> None:
    made = create(client, rules="huit-americain", players=4, bots={"2": "greedy", "3": "expert"},
                  target=200, title="Friday", name="Ana")
    code = made["code"]
    assert len(code) >= 12 and made["invite"] == f"/t/{code}"
    assert made["seat"] == 0 and made["token"] and made["host_token"] != made["token"]
    table = made["table"]
    assert table["status"] == "waiting" and table["overrides"] == {"target": 200}
    assert [s["kind"] for s in table["seats"]] == ["person", "free", "bot", "bot"]
    assert [s["bot"] for s in table["seats"]] == [None, None, "greedy", "expert"]
    assert "seed" not in json.dumps(made)

    lobby = client.get("/api/tables").json()["tables"]
    assert [t["code"] for t in lobby] == [code]
    private = create(client, rules="classic", players=2, public=False)
    assert private["code"] not in [t["code"] for t in client.get("/api/tables").json()["tables"]]
    assert client.get(f"/api/tables/{private['code']}").json()["public"] is False

    bob = join(client, code, "Bob")
    assert bob["seat"] == 1 and bob["token"] not in (made["token"], made["host_token"])
    taken = client.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 1})
    assert taken.status_code == 400
    assert taken.json()["code"] == "bad_request" and "every seat is taken" in taken.json()["message"]
    assert client.get(f"/api/tables/{code}").json()["seats"][1]["name"] == "Bob"
    presets = {p["name"] for p in client.get("/api/presets").json()["presets"]}
    assert {"classic", "huit-fou", "huit-americain", "les-huit", "openspiel"} <= presets


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"rules": "/etc/passwd"}, 400, "unknown rules"),
    ({"rules": "classic", "players": 11}, 400, "classic is played by 2 to 10 players, not 11"),
    ({"rules": "classic", "players": 3, "bots": {"3": "greedy"}}, 400, "bot seat '3' does not exist"),
    ({"rules": "classic", "players": 3, "bots": {"x": "greedy"}}, 400, "seats are 0 to 2"),
    ({"rules": "classic", "players": 3, "bots": {"01": "greedy"}}, 400, "bot seat '01'"),
    ({"rules": "classic", "bots": {"1": "cheater"}}, 400, "unknown bot 'cheater'"),
    ({"rules": "classic", "bots": {"1": "ismcts:iterations=999999"}}, 400, "1 to 5000"),
    ({"rules": "classic", "bots": {"1": "ismcts:c=inf"}}, 400, "option c must be a finite number"),
    ({"rules": "classic", "bots": {"1": "expert:points=nan"}}, 400, "option points must be a finite"),
    ({"rules": "classic", "bots": {"1": "expert:depth=2"}}, 400, "its options are block"),
    ({"rules": "classic", "overrides": {"decks": 50}}, 400,
     "key 'decks' has bad value 50; allowed on this server: at most 3"),
    ({"rules": "classic", "overrides": {"decks": 500}}, 400, "allowed on this server: at most 3"),
    ({"rules": "classic", "overrides": {"decks": -1}}, 400, "key 'decks' has bad value -1"),
    ({"rules": "classic", "overrides": {"jokers": True}}, 400, "key 'jokers' has bad value True"),
    ({"rules": "classic", "overrides": {"title": "x"}}, 400, "cannot be changed"),
    ({"rules": "classic", "overrides": {"draw": "x" * 41}}, 422, "the value of 'draw' must be"),
    ({"rules": "classic", "overrides": {"draw": [1]}}, 422,
     "the value of 'draw' must be true or false, a whole number, or a string"),
    ({"rules": "classic", "bots": {"x" * 500: "greedy"}}, 422, "'bots.(unreadable key)"),
    # The rules' own bounds, said in the rules' own words, whichever field carries them.
    ({"rules": "classic", "target": 100_000}, 400,
     "key 'target' has bad value 100000; allowed: a whole number from 0 to 10000"),
    ({"rules": "classic", "overrides": {"target": 100_000}}, 400,
     "key 'target' has bad value 100000; allowed: a whole number from 0 to 10000"),
    ({"rules": "classic", "rounds": -1}, 400, "key 'rounds' has bad value -1"),
    ({"rules": "classic", "players": 2, "bots": {"0": "greedy", "1": "greedy"}, "name": "Ana"},
     400, "every seat has a bot"),
    ({"rules": "classic", "colour": "red"}, 422, "'colour' is not a field here; fields are rules"),
    ({"rules": "classic", "turn_timer": -1}, 400, "turn_timer must be 5 to 600 seconds"),
    ({"rules": "classic", "turn_timer": 0.001}, 400, "turn_timer must be 5 to 600 seconds"),
    ({"rules": "classic", "turn_timer": 601}, 400, "or null for no timer; got 601"),
    # Strict types: no number from a string or a boolean, no boolean from a string.
    ({"rules": "classic", "turn_timer": "30"}, 422, "turn_timer"),
    ({"rules": "classic", "players": "4"}, 422, "players"),
    ({"rules": "classic", "players": True}, 422, "players"),
    ({"rules": "classic", "public": "yes"}, 422, "public"),
    ({"rules": "classic", "title": "Friday\u202e"}, 422, "printable"),
    ({"rules": "classic", "name": "   "}, 422, "name"),
    ([1, 2], 422, "body"),
])
def test_create_refuses_bad_requests(client: TestClient, body: Message, status: int, words: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status
    data = response.json()
    assert data["type"] == "error" and words in data["message"], data
    assert "Traceback" not in response.text
    assert hub_of(client).rooms == {}


def test_http_errors_are_json_without_traces(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["code"] == "bad_message"
    missing = client.get("/api/tables/nosuchtable00")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    assert client.get("/api/tables/" + "x" * 300).status_code == 404
    open_table = create(client, rules="classic", players=2)
    record = client.get(f"/api/tables/{open_table['code']}/record")
    assert record.status_code == 409 and "every hand" in record.json()["message"]
    huge = client.post("/api/tables", json={"rules": "classic", "title": "x" * 20_000})
    assert huge.status_code == 413 and huge.json()["code"] == "too_large"
    control = client.post(f"/api/tables/{open_table['code']}/join", json={"name": "Ana\x1b[31m"})
    assert control.status_code == 422 and "printable" in control.json()["message"]
    for body in (b"[" * 15_000, b'{"players": 1' + b"0" * 5000 + b"}"):  # past json's limits
        refused = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert refused.status_code == 422 and "not valid JSON" in refused.json()["message"]
    nowhere = client.get("/api/nothing-here")
    assert nowhere.status_code == 404 and nowhere.json()["code"] == "not_found"
    wrong = client.delete("/api/tables")
    assert wrong.status_code == 405 and "does not take this method" in wrong.json()["message"]
    with client.websocket_connect("/ws/tables/nosuchtable00") as ws:
        peer = Peer(ws)
        assert "check the invite code" in peer.error("not_found")["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            peer.recv()
        assert closed.value.code == 1008


# --------------------------------------------------------------------------- playing


def test_two_people_and_two_bots_play_whole_rounds(client: TestClient, stack: ExitStack) -> None:
    rng = random.Random(5)
    table, people = start_table(client, stack, rules="classic", players=4,
                                          bots={"1": "greedy", "3": "random"}, seed=11)
    code = table["code"]
    ana, cy = people[0], people[2]
    assert ana.view["hand"] and ana.view["hand"] != cy.view["hand"]
    assert ana.view["seat"] == 0 and cy.view["seat"] == 2
    for round_no in (1, 2):
        last = play_round(people, rng)
        assert last["round"] == round_no and last["round_over"]
        assert last["revealed"] is not None and last["round_points"] is not None
        if last["match_over"]:
            break
        acted = ana.version
        ana.send("next_round", token=ana.token, version=acted)
        for p in people.values():
            p.until(settled(people, acted))
        assert ana.view["round"] == round_no + 1 and not ana.view["round_over"]
    room = room_of(client, code)
    assert room.version == ana.version == cy.version
    assert room.game.observe(0).to_json() == ana.view
    bots_moved = [m["last"] for m in ana.received if m["type"] == "state" and m["last"]
                  and m["last"]["by"] == "bot"]
    assert bots_moved and all(m["seat"] in (1, 3) and m["text"] for m in bots_moved)
    versions = [m["version"] for m in ana.received if m["type"] == "state"]
    assert versions == sorted(versions)


def test_french_move_text(client: TestClient) -> None:
    table = create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana", seed=3)
    with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello(lang="fr")
        ana.send("start", token=table["host_token"])
        ana.until(lambda m: m["type"] == "state")
        acted = ana.version
        ana.play(pick(ana.view["legal"], random.Random(1)))
        moved = ana.until(lambda m: m["type"] == "state" and m["version"] > acted)
        assert moved["last"]["seat"] == 0 and moved["last"]["by"] == "person"
        text = moved["last"]["text"]
        assert text.startswith("Ana ") and any(w in text for w in ("joue", "pioche")), text


def test_reconnecting_with_the_seat_token_resumes_the_seat(client: TestClient,
                                                          stack: ExitStack) -> None:
    rng = random.Random(2)
    table, people = start_table(client, stack, rules="huit-fou", players=3,
                                          bots={"2": "greedy"}, seed=8)
    code = table["code"]
    play_round(people, rng, moves=3)
    before = people[1].state
    token = people[1].token
    people[1].ws.close()  # Bob's network drops
    gone = people[0].until(lambda m: m["type"] == "table")
    assert gone["table"]["seats"][1]["connected"] is False
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        bob = Peer(ws, token)
        welcome = bob.hello()
        assert welcome["seat"] == 1 and welcome["table"]["seats"][1]["connected"] is True
        state = bob.expect("state")
        assert before is not None
        assert state["version"] == before["version"] and state["view"] == before["view"]
        back = people[0].until(lambda m: m["type"] == "table")
        assert back["table"]["seats"][1]["connected"] is True
        bob.alive()


def test_spectators_watch_without_any_hand(client: TestClient) -> None:
    table = create(client, rules="les-huit", players=4, bots={"1": "greedy", "2": "greedy", "3": "greedy"},
                   name="Ana", seed=4)
    code = table["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws_a, \
            client.websocket_connect(f"/ws/tables/{code}") as ws_s:
        ana, watcher = Peer(ws_a, table["token"]), Peer(ws_s)
        ana.hello()
        welcome = watcher.hello()
        assert welcome["seat"] is None
        assert ana.until(lambda m: m["type"] == "table")["table"]["spectators"] == 1
        ana.send("start", token=table["host_token"])
        ana.until(settled({0: ana}, -1))
        watcher.until(settled({0: ana}, -1))
        assert watcher.view["hand"] == [] and watcher.view["legal"] == []
        assert watcher.view["seat"] is None and watcher.view["drawn"] is None
        assert watcher.view["hand_sizes"] == ana.view["hand_sizes"]
        watcher.play("draw", version=watcher.version)
        watcher.error("bad_message")  # no token at all
        seq = watcher.send("action", token="x" * 32, action="draw", version=watcher.version)
        assert watcher.error("no_seat")["seq"] == seq


def test_host_replaces_a_missing_player_with_a_bot(client: TestClient, stack: ExitStack) -> None:
    table, people = start_table(client, stack, rules="classic", players=3, bots={"2": "greedy"},
                                          seed=21)
    code, host = table["code"], table["host_token"]
    ana = people[0]
    ana.send("seat_bot", token=host, seat=1, bot="greedy")
    assert "is connected" in ana.error("bad_request")["message"]
    ana.send("seat_bot", token=ana.token, seat=1, bot="greedy")
    ana.error("bad_token")
    bob_token = people[1].token
    people[1].ws.close()
    ana.until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
    ana.send("seat_bot", token=host, seat=1, bot="expert")
    changed = ana.until(lambda m: m["type"] == "table")
    assert changed["table"]["seats"][1]["kind"] == "bot" and changed["table"]["seats"][1]["bot"] == "expert"
    # Bob's token no longer opens a seat; Ana plays on against two bots.
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        late = Peer(ws, bob_token)
        late.send("hello", token=bob_token)
        late.error("bad_token")
        late.alive()
    solo = {0: ana}
    if not ana.view["round_over"] and ana.view["to_play"] != 0:
        ana.until(settled(solo, ana.version))
    last = play_round(solo, random.Random(3))
    assert last["round_over"]


def test_host_closes_the_table(client: TestClient) -> None:
    table = create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana")
    code = table["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello()
        ana.send("close", token=ana.token)
        ana.error("bad_token")
        ana.send("close", token=table["host_token"])
        closed = ana.expect("table")
        assert closed["table"]["status"] == "closed"
        with pytest.raises(WebSocketDisconnect) as info:
            ana.recv()
        assert info.value.code == 1000
    assert client.get("/api/tables").json()["tables"] == []
    assert client.get(f"/api/tables/{code}").json()["code"] == "wrong_status"
    record = client.get(f"/api/tables/{code}/record")
    assert record.status_code == 200 and record.json()["format"] == "eights-record/1"
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        peer = Peer(ws)
        assert peer.expect("error")["code"] == "wrong_status"
        with pytest.raises(WebSocketDisconnect):
            peer.recv()


def test_start_needs_the_host_and_every_seat_taken(client: TestClient) -> None:
    table = create(client, rules="classic", players=3, bots={"2": "random"}, name="Ana")
    with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello()
        ana.send("start", token=table["host_token"])
        assert "seats 1 are free" in ana.error("bad_request")["message"]
        ana.play("draw", version=0)
        ana.error("wrong_status")
        ana.send("seat_bot", token=table["host_token"], seat=1, bot="greedy")
        ana.expect("table")
        ana.send("start", token=table["host_token"])
        assert ana.expect("table")["table"]["status"] == "playing"
        ana.expect("state")
        ana.send("start", token=table["host_token"])
        ana.error("wrong_status")


def test_turn_timer_plays_a_safe_move(db: str) -> None:
    client = make_client(db, limits=Limits(turn_timer=(0.01, 600.0)))  # shorter than 5 s, for tests
    with client:
        table = create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana",
                       turn_timer=0.05, seed=9)
        _timer_plays(client, table)


def _timer_plays(client: TestClient, table: Message) -> None:
    with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello()
        ana.send("start", token=table["host_token"])
        first = ana.until(settled({0: ana}, -1))
        assert first["timer"] is not None and 0 <= first["timer"] <= 0.05
        timed = ana.until(lambda m: m["type"] == "state" and m["last"] is not None
                          and m["last"]["seat"] == 0)
        assert timed["last"]["by"] == "timer" and timed["last"]["action"] in first["view"]["legal"]


# --------------------------------------------------------------------------- fair deals


def test_a_server_deals_from_its_own_randomness(db: str) -> None:
    with make_client(db, fixed_seeds=False) as client:
        refused = client.post("/api/tables", json={"rules": "classic", "players": 2, "seed": 7})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
        assert "'seed' is refused" in refused.json()["message"]
        assert hub_of(client).rooms == {}
        codes = [create(client, rules="classic", players=2, bots={"1": "greedy"}, name="Ana")["code"]
                 for _ in range(3)]
        seeds = {room_of(client, code).seed for code in codes}
        assert len(seeds) == 3 and all(0 <= s < 2**63 for s in seeds)
        hands = {tuple(room_of(client, code).game.hands[0]) for code in codes}
        assert len(hands) == 3
        for code in codes:  # nothing of the deal before the match ends
            record = client.get(f"/api/tables/{code}/record")
            assert record.status_code == 409 and "seed" not in record.text
            assert "seed" not in client.get(f"/api/tables/{code}").text
        assert "seed" not in client.get("/api/tables").text


def test_a_testing_server_deals_the_seed_it_is_given(db: str) -> None:
    with make_client(db, fixed_seeds=True) as client:
        one = create(client, rules="classic", players=2, seed=7)["code"]
        two = create(client, rules="classic", players=2, seed=7)["code"]
        assert room_of(client, one).game.hands == room_of(client, two).game.hands


@pytest.mark.parametrize("seconds", [5, 600, 42.5, None])
def test_turn_timers_within_the_range_are_taken(client: TestClient, seconds: float | None) -> None:
    made = create(client, rules="classic", players=2, turn_timer=seconds)
    assert made["table"]["turn_timer"] == seconds


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"name": "Bob", "seat": "1"}, 422, "seat"),
    ({"name": "Bob", "seat": True}, 422, "seat"),
    ({"name": "Bob", "seat": 2**64}, 422, "seat"),
    ({"name": "Bob", "seat": 9}, 400, "seat 9 does not exist; seats are 0 to 1"),
    ({"name": 5}, 422, "name"),
    ({"name": "Bob\u200b"}, 422, "printable"),
    ({"name": "x" * 25}, 422, "name"),
    ({"name": "Bob", "token": "x"}, 422, "'token' is not a field here; fields are name, seat"),
])
def test_join_refuses_bad_requests(client: TestClient, body: Message, status: int, words: str) -> None:
    code = create(client, rules="classic", players=2)["code"]
    response = client.post(f"/api/tables/{code}/join", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["message"]
    assert all(s["kind"] == "free" for s in client.get(f"/api/tables/{code}").json()["seats"])


def test_a_failing_bot_does_not_stall_the_table(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("bot bug")

    monkeypatch.setattr(RandomBot, "choose", broken)
    table = create(client, rules="classic", players=2, bots={"1": "random"}, name="Ana", seed=3)
    with client.websocket_connect(f"/ws/tables/{table['code']}") as ws:
        ana = Peer(ws, table["token"])
        ana.hello()
        ana.send("start", token=table["host_token"])
        ana.until(lambda m: m["type"] == "state")
        rng, bot_moves = random.Random(4), 0
        for _ in range(6):  # the bot's turn comes back each time: a safe move is played for it
            if ana.view["round_over"]:
                break
            if ana.view["to_play"] == 0:
                acted = ana.version
                ana.play(pick(ana.view["legal"], rng))
                ana.until(lambda m: m["type"] == "state" and m["version"] > acted)  # noqa: B023
            else:
                moved = ana.until(lambda m: m["type"] == "state" and m["last"] is not None
                                  and m["last"]["seat"] == 1)
                assert moved["last"]["by"] == "bot"
                bot_moves += 1
        assert bot_moves >= 2
