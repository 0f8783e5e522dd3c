"""Bad input, bounds, and hidden information: what a client cannot do or see.

Every refused message gets an ``error`` event naming the mistake; the
connection stays usable and the game is unchanged. A whole-match test scans
every event each client received: no card of another seat's hand and no card
of the stock ever appears.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from eights import Game, load_rules
from eights.engine.record import load_record
from eights.server import Limits
from eights.server.room import Connection, Room
from test_server import (
    Message,
    Peer,
    create,
    join,
    make_client,
    pick,
    play_round,
    room_of,
    settled,
    start_table,
)

# --------------------------------------------------------------------------- refused messages


@dataclass
class Duel:
    """Ana (seat 0, to play first) and Bob (seat 1) at a started 2-player table."""

    client: TestClient
    code: str
    host: str
    ana: Peer
    bob: Peer

    @property
    def room(self) -> Room:
        return room_of(self.client, self.code)


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    with make_client(f"sqlite:///{tmp_path / 'server.sqlite3'}") as c:
        yield c


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


@pytest.fixture
def duel(client: TestClient, stack: ExitStack) -> Duel:
    table, people = start_table(client, stack, rules="huit-americain", players=2, seed=3)
    ana, bob = people[0], people[1]
    assert ana.view["to_play"] == 0 and ana.view["legal"]
    return Duel(client, table["code"], table["host_token"], ana, bob)


def _raw(text: str) -> Callable[[Duel, Peer], None]:
    def send(_d: Duel, peer: Peer) -> None:
        peer.ws.send_text(text)
    return send


def _msg(**fields: Any) -> Callable[[Duel, Peer], None]:
    """A message from the peer; ``"{token}"``, ``"{version}"``, ``"{host}"`` are filled in."""
    def send(d: Duel, peer: Peer) -> None:
        fill = {"{token}": peer.token, "{version}": peer.version, "{host}": d.host}
        body = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in fields.items()}
        peer.seq += 1
        body.setdefault("seq", peer.seq)
        peer.ws.send_text(json.dumps(body))
    return send


def _binary(_d: Duel, peer: Peer) -> None:
    peer.ws.send_bytes(b'{"type": "ping", "seq": 99}')


def _illegal(d: Duel, peer: Peer) -> None:
    hand = set(peer.view["hand"])
    stranger = next(c for c in ("2c", "3d", "4h", "5s", "6c", "9d", "Kh", "Qs") if c not in hand)
    _msg(type="action", token="{token}", action=stranger, version="{version}")(d, peer)


BAD = [
    # (case, who sends, message, error code, words in the message)
    ("not JSON", "ana", _raw("{oops"), "bad_json", "not valid JSON"),
    ("not an object", "ana", _raw("[1, 2]"), "bad_json", "JSON object"),
    ("binary frame", "ana", _binary, "bad_json", "text frames"),
    ("no type", "ana", _raw('{"seq": 50}'), "bad_message", "'type' is missing"),
    ("unknown type", "ana", _msg(type="peek"), "unknown_type", "types are action"),
    ("oversized", "ana", _raw('{"type": "ping", "seq": 60, "pad": "' + "x" * 5000 + '"}'),
     "too_large", "capped at 4096 bytes"),
    ("missing field", "ana", _msg(type="action", token="{token}", version="{version}"),
     "bad_message", "'action'"),
    ("unknown field", "ana", _msg(type="action", token="{token}", action="draw",
                                   version="{version}", peek=True), "bad_message", "'peek'"),
    ("wrong kind", "ana", _msg(type="action", token="{token}", action=7, version="{version}"),
     "bad_message", "'action'"),
    ("missing token", "ana", _msg(type="action", action="draw", version="{version}"),
     "bad_message", "'token'"),
    ("wrong token", "ana", _msg(type="action", token="not-my-token-at-all", action="draw",
                                 version="{version}"), "bad_token", "not the token of seat 0"),
    ("other seat's token", "bob", _msg(type="action", token="{host}", action="draw",
                                        version="{version}"), "bad_token", "seat 1"),
    ("out of turn", "bob", _msg(type="action", token="{token}", action="draw", version="{version}"),
     "not_your_turn", "Ana's turn"),
    ("bad notation", "ana", _msg(type="action", token="{token}", action="9z", version="{version}"),
     "bad_notation", "legal now: "),
    ("illegal action", "ana", _illegal, "illegal", "is not legal now; legal: "),
    ("stale seq", "ana", _msg(type="ping", seq=0), "stale", "not above"),
    ("host command, seat token", "ana", _msg(type="close", token="{token}"), "bad_token",
     "host token"),
    ("next round mid-round", "ana", _msg(type="next_round", token="{token}", version="{version}"),
     "wrong_status", "not over"),
    ("start twice", "ana", _msg(type="start", token="{host}"), "wrong_status", "under way"),
    ("seat out of range", "ana", _msg(type="seat_bot", token="{host}", seat=7), "bad_request",
     "does not exist"),
    # Whole numbers are strict and bounded: 0 to 2**53 - 1, no boolean, no float, no string.
    ("seq past 2**64", "ana", _raw('{"type": "ping", "seq": 18446744073709551616}'), "bad_message",
     "'seq' must be a whole number from 0 to 9007199254740991"),
    ("seq 2**53", "ana", _raw('{"type": "ping", "seq": 9007199254740992}'), "bad_message",
     "'seq' must be a whole number"),
    ("seq true", "ana", _raw('{"type": "ping", "seq": true}'), "bad_message", "'seq' must be"),
    ("seq as text", "ana", _raw('{"type": "ping", "seq": "70"}'), "bad_message", "'seq' must be"),
    ("seq negative", "ana", _raw('{"type": "ping", "seq": -1}'), "bad_message", "'seq' must be"),
    ("version 1.0", "ana", _msg(type="action", token="{token}", action="draw", version=1.0),
     "bad_message", "'version' must be a whole number"),
    ("version past 2**64", "ana", _msg(type="action", token="{token}", action="draw",
                                        version=2**64), "bad_message", "'version' must be"),
    ("seat true", "ana", _msg(type="seat_bot", token="{host}", seat=True), "bad_message",
     "'seat' must be"),
    ("type not a string", "ana", _msg(type=5), "bad_message",
     "'type' must be a string naming the message type; types are action, close"),
    ("NaN", "ana", _raw('{"type": "ping", "seq": NaN}'), "bad_json", "not valid JSON"),
    ("escaped lone surrogate", "ana", _raw('{"type": "hello", "seq": 80, "token": "\\ud800"}'),
     "bad_json", "not valid JSON"),
    ("raw lone surrogate", "ana", _raw('{"type": "ping", "seq": 81, "x": "\ud800"}'), "bad_json",
     "not valid JSON"),
    ("deep nesting", "ana", _raw("[" * 3000), "bad_json", "not valid JSON"),
    ("language", "ana", _msg(type="hello", token="{token}", lang="de"), "bad_message",
     "'lang' should be 'en' or 'fr'"),
]


@pytest.mark.parametrize(("case", "who", "send", "code", "words"), BAD, ids=[b[0] for b in BAD])
def test_refused_message(duel: Duel, case: str, who: str, send: Callable[[Duel, Peer], None],
                         code: str, words: str) -> None:
    peer = duel.ana if who == "ana" else duel.bob
    other = duel.bob if who == "ana" else duel.ana
    before = (duel.room.version, duel.room.game.to_json(), duel.room.status)
    send(duel, peer)
    error = peer.error(code)
    assert words in error["message"], error["message"]
    assert "Traceback" not in error["message"]
    peer.alive()
    other.alive()  # nothing was broadcast: the next event the other seat gets is its pong
    assert (duel.room.version, duel.room.game.to_json(), duel.room.status) == before


def test_stale_version_is_refused_and_the_state_resent(duel: Duel) -> None:
    ana = duel.ana
    seq = ana.play(ana.view["legal"][0], version=ana.version - 1 if ana.version else 99)
    error = ana.error("stale")
    assert error["seq"] == seq and "here is the current state" in error["message"]
    state = ana.expect("state")
    assert state["version"] == duel.room.version and state["view"]["legal"]
    duel.bob.alive()


def test_replayed_message_is_refused(duel: Duel) -> None:
    ana, bob = duel.ana, duel.bob
    version = ana.version
    frame = json.dumps({"type": "action", "seq": 500, "token": ana.token,
                        "action": pick(ana.view["legal"], random.Random(0)), "version": version})
    ana.ws.send_text(frame)
    ana.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    bob.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    after = duel.room.game.to_json()
    ana.ws.send_text(frame)  # the same frame again: its seq is not new
    assert ana.error("stale")["seq"] == 500
    ana.seq = 600  # a new seq, but made on the old version
    ana.play(json.loads(frame)["action"], version=version)
    ana.error("stale")
    ana.expect("state")
    assert duel.room.game.to_json() == after and duel.room.version == version + 1


def test_messages_before_hello_are_refused(duel: Duel) -> None:
    with duel.client.websocket_connect(f"/ws/tables/{duel.code}") as ws:
        peer = Peer(ws, duel.ana.token)
        peer.seq = 1
        peer.play("draw", version=duel.room.version)
        assert "say hello first" in peer.error("hello_first")["message"]
        peer.send("hello", token="forged-token-000000000000")
        peer.error("bad_token")
        peer.alive()


@pytest.mark.parametrize("handler", ["_play", "handle", "hello"])
def test_internal_failures_send_no_details(duel: Duel, monkeypatch: pytest.MonkeyPatch,
                                           caplog: pytest.LogCaptureFixture, handler: str) -> None:
    def broken(*_args: Any, **_kw: Any) -> None:
        raise RuntimeError("secret detail /etc/shadow " + " ".join(duel.bob.view["hand"]))

    async def broken_async(*args: Any, **kw: Any) -> None:
        broken(*args, **kw)

    monkeypatch.setattr(Room, handler, broken if handler == "hello" else broken_async)
    before = (duel.room.version, duel.room.game.to_json(), duel.room.status)
    ana = duel.ana
    seq = ana.send("hello", token=ana.token) if handler == "hello" else ana.play("draw")
    error = ana.error("internal")
    assert error["seq"] == seq
    assert error["message"] == "the server failed to handle this message; the table is unchanged"
    assert "Traceback" in caplog.text and "secret detail" in caplog.text  # in the server's log only
    assert (duel.room.version, duel.room.game.to_json(), duel.room.status) == before
    ana.alive()
    duel.bob.alive()  # nothing was broadcast
    monkeypatch.undo()
    ana.play(ana.view["legal"][0])  # the same connection plays on
    assert ana.until(lambda m: m["type"] == "state")["version"] == before[0] + 1


def test_a_failure_after_the_change_is_stored_sends_the_current_state(
        duel: Duel, monkeypatch: pytest.MonkeyPatch) -> None:
    """The action is stored and applied, then telling everyone fails: the sender hears that
    it failed and gets the state the table is now in (never "unchanged")."""
    def broken(*_args: Any) -> None:
        raise RuntimeError("broadcast bug")

    monkeypatch.setattr(Room, "_broadcast_state", broken)
    ana, version = duel.ana, duel.room.version
    seq = ana.play(pick(ana.view["legal"], random.Random(1)))
    error = ana.error("internal")
    assert error["seq"] == seq and error["message"].endswith("here is the current state")
    state = ana.expect("state")
    assert state["version"] == version + 1 == duel.room.version
    assert state["view"] == duel.room.game.observe(0).to_json()
    ana.alive()


def test_a_failure_inside_the_engine_changes_nothing(duel: Duel,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception halfway through applying an action: the room's game is untouched (the
    action is applied to a copy, kept only once it is stored)."""
    real_push = Game.push

    def half(self: Game, action: Any) -> None:
        self.hands[0].clear()
        self.history.append((0, action))
        raise RuntimeError("engine bug")

    monkeypatch.setattr(Game, "push", half)
    before = (duel.room.version, duel.room.game.to_json(), duel.room.actions)
    ana = duel.ana
    ana.play(ana.view["legal"][0])
    ana.error("internal")
    assert (duel.room.version, duel.room.game.to_json(), duel.room.actions) == before
    monkeypatch.setattr(Game, "push", real_push)
    ana.play(ana.view["legal"][0])
    assert ana.until(lambda m: m["type"] == "state")["version"] == before[0] + 1


# --------------------------------------------------------------------------- bounds


def test_rate_limit_per_connection(tmp_path: Any) -> None:
    limits = Limits(messages_per_second=0.001, message_burst=4, strikes=3)
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as client:
        code = create(client, rules="classic", players=2)["code"]
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            peer = Peer(ws)
            peer.hello()
            for _ in range(3):
                peer.alive()
            peer.send("ping")
            assert "slow down" in peer.error("rate_limited")["message"]
            peer.send("ping")
            peer.error("rate_limited")
            peer.send("ping")
            assert "disconnecting" in peer.error("rate_limited")["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                peer.recv()
            assert closed.value.code == 1008


def test_tables_and_connections_per_address(tmp_path: Any) -> None:
    limits = Limits(tables_per_address=1, connections_per_address=2, spectators_per_table=1)
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as client:
        code = create(client, rules="classic", players=2)["code"]
        refused = client.post("/api/tables", json={"rules": "classic"})
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        with client.websocket_connect(f"/ws/tables/{code}") as one, \
                client.websocket_connect(f"/ws/tables/{code}") as two:
            Peer(one).hello()
            second = Peer(two)
            second.send("hello")
            assert "maximum of 1 spectators" in second.error("too_many")["message"]
            with client.websocket_connect(f"/ws/tables/{code}") as three:
                third = Peer(three)
                assert "at most 2 connections" in third.error("too_many")["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.recv()
                assert closed.value.code == 1008
        with client.websocket_connect(f"/ws/tables/{code}") as again:
            Peer(again).hello()  # the count went down when the others left


def test_http_rate_limit_per_address(tmp_path: Any) -> None:
    limits = Limits(requests_per_second=0.001, request_burst=2)
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as client:
        code = create(client, rules="classic", players=3)["code"]
        join(client, code, "Ana")
        refused = client.post(f"/api/tables/{code}/join", json={"name": "Bob"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert client.get("/api/tables").status_code == 200  # reading is not limited


def test_a_client_too_far_behind_is_disconnected() -> None:
    """The queue is bounded in bytes: a few large events fill it as many small ones do."""
    async def fill(events: list[str]) -> Connection:
        conn = Connection("1.2.3.4", Limits(send_queue_bytes=10_000))
        for text in events:
            conn.send(text)
            assert conn.queued <= 10_000
        return conn

    import asyncio

    for events in (["x" * 3000] * 5, ["é" * 1500] * 5, ["xy"] * 6000):
        conn = asyncio.run(fill(events))
        assert conn.closing and conn.close_code == 1013
        assert conn.queue.qsize() == 1 and conn.queued == 0  # what waited is dropped: the close
    kept = asyncio.run(fill(["x" * 3000] * 3))
    assert not kept.closing and kept.queued == 9000


# --------------------------------------------------------------------------- hidden information

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|X)(?:\+(?:[2-9TJQKA][cdhs]|X))*(?:=[cdhs])?!?$")
"""A card, or a play of one or several cards (``7h``, ``7c+7h=s!``: SW3)."""
PRETTY = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


@dataclass(frozen=True)
class Snapshot:
    hands: tuple[frozenset[str], ...]
    discard: frozenset[str]
    stock: frozenset[str]
    over: bool
    history: tuple[str, ...]


def _snap(game: Game) -> Snapshot:
    return Snapshot(tuple(frozenset(str(c) for c in h) for h in game.hands),
                    frozenset(str(c) for c in game.discard), frozenset(str(c) for c in game.stock),
                    game.over, tuple(str(a) for _, a in game.history))


def timeline(record: Message) -> dict[int, Snapshot]:
    """The true state after every step of a recorded match, by ``version``."""
    rec = load_record(record)
    game = Game(rec.rules, rec.players, seed=rec.seed, dealer=rec.dealer, deck=rec.rounds[0].deck)
    snaps: dict[int, Snapshot] = {}
    version = 0
    for r, rnd in enumerate(rec.rounds):
        if r:
            game.next_round(rnd.deck)
            version += 1
        snaps[version] = _snap(game)
        for action in rnd.actions:
            game.apply(action)
            version += 1
            snaps[version] = _snap(game)
    return snaps


def _strings(value: Any, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            assert key not in ("deck", "seed", "stock_cards", "hands"), key
            if key not in skip:
                yield from _strings(item, skip)


def _played(text: str) -> set[str]:
    """The cards of a card or a play: ``7c+7h=s!`` -> ``{7c, 7h}``."""
    return set(text.split("=")[0].rstrip("!").split("+")) if CARD.match(text) else set()


def _cards(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    return {card for s in _strings(value, skip) for card in _played(s)}


def scan(messages: list[Message], seat: int | None, snaps: dict[int, Snapshot]) -> int:
    """Check every event one client received; the number of states checked."""
    checked = 0
    for msg in messages:
        if msg["type"] != "state":
            assert not _cards(msg), msg  # welcome, table, pong: no card at all
            continue
        snap = snaps[msg["version"]]
        view = msg["view"]
        own = snap.hands[seat] if seat is not None else frozenset()
        shown = set().union(*snap.hands) if snap.over else set()
        visible = snap.discard | own | shown
        seen = _cards(msg, skip=frozenset({"history", "last"}))
        assert seen <= visible, (seat, msg["version"], seen - visible)
        assert not seen & snap.stock
        if not snap.over:
            others = set().union(*(h for s, h in enumerate(snap.hands) if s != seat))
            assert not seen & others
        assert set(view["hand"]) == own
        assert tuple(a for _, a in view["history"]) == snap.history  # public: what was played
        last = msg["last"]
        if last is not None:
            assert last["action"] == snap.history[-1]
            played = _played(last["action"])
            pretty = set(PRETTY.findall(last["text"]))
            assert len(pretty) <= len(played), last
        checked += 1
    return checked


@pytest.mark.parametrize(("rules", "players", "bots", "target"), [
    ("classic", 4, {"1": "greedy", "3": "expert"}, 60),
    ("huit-americain", 3, {"2": "random"}, 40),
])
def test_no_message_shows_another_hand_or_the_stock(client: TestClient, stack: ExitStack, rules: str,
                                                    players: int, bots: dict[str, str],
                                                    target: int) -> None:
    rng = random.Random(7)
    table, people = start_table(client, stack, rules=rules, players=players, bots=bots,
                                          target=target, seed=17)
    code = table["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        watcher = Peer(ws)
        watcher.hello()
        watcher.expect("state")
        rounds = 0
        while True:
            last = play_round(people, rng, watchers=(watcher,))
            rounds += 1
            if last["match_over"]:
                break
            anyone = next(iter(people.values()))
            acted = anyone.version
            anyone.send("next_round", token=anyone.token, version=acted)
            for p in (*people.values(), watcher):
                p.until(settled(people, acted))
        assert room_of(client, code).status == "finished"
        record = client.get(f"/api/tables/{code}/record").json()
    assert load_rules(rules).decks_for(players) == 1  # every card is unique: a card names its place
    snaps = timeline(record)
    checked = sum(scan(p.received, seat, snaps) for seat, p in people.items())
    checked += scan(watcher.received, None, snaps)
    assert checked > 20 * rounds
