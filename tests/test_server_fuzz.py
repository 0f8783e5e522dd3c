"""Anything a client sends: the server answers, stays up, and changes nothing it should not.

A property test (hypothesis) throws frames at a playing two-person table over
the ASGI test client: arbitrary JSON values, text that is not JSON, binary
frames, frames over the size cap, lone surrogates, and every message type
with fields drawn from good, bad and strange values. After each frame the
same connection must still answer a ping, no ``internal`` error may appear,
and the table (version, game, every seat's view) must be exactly as before
unless the frame was a legal action or the deal of the next round.

A second one posts arbitrary bodies to create a table and to join one: every
answer is JSON, a table or an error with a code, never a failure or a trace.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from eights.server import Limits
from eights.server.protocol import SAFE_INT, TYPES
from eights.server.room import Connection, Room
from test_server import Message, Peer, make_client, room_of, start_table


@dataclass(frozen=True)
class Fill:
    """A value filled in when the frame is sent (it depends on the table at that moment)."""

    name: str
    index: int = 0
    """For ``legal``: which legal action (modulo their number)."""


SEQ, TOKEN, OTHER, HOST, VERSION = (Fill(n) for n in ("seq", "token", "other", "host", "version"))
LEGAL = st.integers(0, 30).map(lambda i: Fill("legal", i))

# Numbers up to 2**70 and down to -2**70, but none an accepted seq could take too close to the
# top of the range (a connection whose seq reached 2**53 - 1 could send nothing more).
NUMBERS = st.integers(-2**70, 2**70).filter(lambda n: not 2**40 <= n < SAFE_INT)
LEAVES = (st.none() | st.booleans() | NUMBERS | st.floats()
          | st.text(max_size=12) | st.sampled_from(["draw", "pass", "8h=s", "Qs", "greedy", "fr"]))
JSON = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
VALUES = st.one_of(
    st.sampled_from([SEQ, TOKEN, OTHER, VERSION]), LEGAL, JSON,
    st.sampled_from(["greedy", "expert", "ismcts:iterations=abc", "ismcts:iterations=999999",
                     "x" * 70, "en", "de", "draw", "8h", "8h=z", "Xx", 0, 1, 2, 99, -1, 2**53,
                     True, 1.5, "1"]))
WELL_FORMED: dict[str, dict[str, Any]] = {
    "action": {"token": TOKEN, "action": Fill("legal"), "version": VERSION},
    "next_round": {"token": TOKEN, "version": VERSION},
    "hello": {"token": TOKEN, "lang": "en"},
    "start": {"token": HOST},
    "seat_bot": {"token": HOST, "seat": 0, "bot": "greedy"},
    "close": {"token": OTHER},
    "rematch": {"token": TOKEN},  # refused while the match is played
    "hint": {"token": TOKEN, "version": VERSION},  # refused: two people, no practice
    "undo": {"token": TOKEN, "version": VERSION},
    "ping": {},
}
assert sorted(WELL_FORMED) == sorted(TYPES)


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """A well-formed message of a known type, then a few fields left out, changed or added."""
    kind = draw(st.sampled_from(TYPES))
    body: dict[str, Any] = {"type": kind, "seq": SEQ, **WELL_FORMED[kind]}
    if kind == "action":
        body["action"] = draw(LEGAL)
    for _ in range(draw(st.integers(0, 3))):
        field = draw(st.sampled_from(["seq", "token", "action", "version", "seat", "bot", "lang",
                                      "type", "peek"]))
        if draw(st.booleans()):
            body.pop(field, None)
        else:
            body[field] = draw(VALUES | st.sampled_from([*TYPES, HOST]))
    if body.get("type") == "close" and body.get("token") == HOST:
        body["token"] = TOKEN  # the host closing the table would end the test, not find a bug
    return body


@dataclass(frozen=True)
class Frame:
    """What one client sends: a message to fill in, or raw text, or bytes."""

    message: dict[str, Any] | None = None
    text: str | None = None
    data: bytes | None = None


MESSAGES = messages().map(lambda m: Frame(message=m))
ODD = st.one_of(
    JSON.map(lambda v: Frame(text=json.dumps(v))),
    st.text(max_size=60).map(lambda t: Frame(text=t)),
    st.binary(max_size=60).map(lambda b: Frame(data=b)),
    st.integers(4000, 20_000).map(lambda n: Frame(text='{"type": "ping", "seq": 1, "pad": "'
                                                  + "x" * n + '"}')),
    st.lists(st.integers(0xD800, 0xDFFF).map(chr), min_size=1, max_size=3).map(
        lambda s: Frame(text='{"type": "ping", "seq": 5, "x": "' + "".join(s) + '"}')),
    st.integers(1, 3000).map(lambda n: Frame(text="[" * n)),
)
FRAMES = st.integers(0, 9).flatmap(lambda i: MESSAGES if i < 7 else ODD)
"""Mostly messages of known types (they reach the table), some frames that do not parse."""


@dataclass
class Table:
    client: TestClient
    code: str
    host: str
    people: dict[int, Peer]
    conns: dict[int, Connection]

    @property
    def room(self) -> Room:
        return room_of(self.client, self.code)

    def snapshot(self) -> tuple[Any, ...]:
        room = self.room
        return (room.version, room.status, json.dumps(room.game.to_json(), sort_keys=True),
                [json.dumps(room.view(s), sort_keys=True) for s in (None, *range(room.n))])


def _fill(value: Any, table: Table, seat: int) -> Any:
    if isinstance(value, Fill):
        room, peer = table.room, table.people[seat]
        legal = [str(a) for a in room.game.legal_actions()] or ["draw"]
        return {"seq": peer.seq + 1, "token": peer.token, "other": table.people[1 - seat].token,
                "host": table.host, "version": room.version,
                "legal": legal[value.index % len(legal)]}[value.name]
    return value


def _json_text(body: dict[str, Any]) -> str:
    try:
        return json.dumps(body)
    except ValueError:  # pragma: no cover - json.dumps takes every value built here
        return "{}"


def _answers(peer: Peer) -> list[Message]:
    """Ping on the same connection: the events that came before its pong.

    The ping's seq is above any a frame can carry (its own numbers are below
    2**40; a filled-in seq is one more than the last ping's), so it is never stale.
    """
    peer.seq = max(peer.seq, 2**40)
    seq = peer.send("ping")
    got: list[Message] = []
    while True:
        msg = peer.recv()
        if msg == {"type": "pong", "seq": seq}:
            return got
        got.append(msg)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    limits = Limits(messages_per_second=1e9, message_burst=10**9, hellos_per_second=1e9,
                    hello_burst=10**9)
    with make_client(f"sqlite:///{tmp_path / 'server.sqlite3'}", limits=limits) as client, \
            ExitStack() as stack:
        made, people = start_table(client, stack, rules="huit-americain", players=2, seed=5)
        room = room_of(client, made["code"])
        conns = {c.seat: c for c in room.conns if c.seat is not None}
        yield Table(client, made["code"], made["host_token"], people, conns)


def test_any_frame_is_answered_and_changes_only_what_it_may(table: Table) -> None:
    changes = 0

    # The table lives on from one example to the next (as a real one does), so an example does
    # not replay alike: no shrinking (Phase.generate only), and a failure shows the frames sent.
    @settings(max_examples=300, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(frames=st.lists(st.tuples(st.sampled_from([0, 1]), FRAMES), min_size=1, max_size=3))
    def check(frames: list[tuple[int, Frame]]) -> None:
        nonlocal changes
        for seat, frame in frames:
            peer, conn = table.people[seat], table.conns[seat]
            before = table.snapshot()
            legal = [str(a) for a in table.room.game.legal_actions()]
            to_play, round_over = table.room.game.to_play, table.room.game.over
            body: dict[str, Any] | None = None
            if frame.message is not None:
                body = {k: _fill(v, table, seat) for k, v in frame.message.items()}
                if type(body.get("seq")) is int and body["seq"] < SAFE_INT:
                    peer.seq = max(peer.seq, body["seq"])
                peer.ws.send_text(_json_text(body))
            elif frame.text is not None:
                peer.ws.send_text(frame.text)
            else:
                assert frame.data is not None
                peer.ws.send_bytes(frame.data)

            answer = _answers(peer)
            assert answer, "every frame gets an answer"
            assert not [m for m in answer if m.get("code") == "internal"], answer
            for msg in answer:
                assert "Traceback" not in json.dumps(msg)
            after = table.snapshot()
            others = _answers(table.people[1 - seat])
            if after == before:
                assert all(m["type"] == "table" for m in others), others
            else:
                changes += 1
                assert body is not None, "only a message can change the table"
                assert after[0] == before[0] + 1, "one step at a time"
                assert body["token"] == peer.token and body["version"] == before[0]
                if body["type"] == "action":
                    assert to_play == seat and body["action"] in legal
                else:
                    assert body["type"] == "next_round" and round_over
                assert [m["version"] for m in answer if m["type"] == "state"] == [after[0]]
                assert [m["version"] for m in others if m["type"] == "state"] == [after[0]]
            if conn.seat != seat or conn.lang != "en":  # a hello changed who this connection is
                peer.hello(peer.token)
                if table.room.status != "waiting":
                    peer.expect("state")
                _answers(table.people[1 - seat])  # its "table" event

    check()
    assert changes > 0, "legal actions were among the frames"


# --------------------------------------------------------------------------- HTTP bodies

CREATE_FIELDS = ["rules", "players", "bots", "target", "rounds", "overrides", "title", "public",
                 "turn_timer", "seed", "name"]
SOME = st.one_of(LEAVES, JSON, st.sampled_from(["classic", "huit-fou", "les-huit", 2, 3, 4, 30,
                                                True, False, "Ana", {"1": "greedy"},
                                                {"jokers": 2}, {"draw": "repeat"}, {"decks": 9}]))


def test_any_create_or_join_body_gets_a_json_answer(tmp_path: Path) -> None:
    limits = Limits(requests_per_second=1e9, request_burst=10**9, tables=10**6,
                    tables_per_address=10**6)
    with make_client(f"sqlite:///{tmp_path / 'server.sqlite3'}", limits=limits,
                     fixed_seeds=False) as client:
        code = client.post("/api/tables", json={"rules": "classic", "players": 3}).json()["code"]

        @settings(max_examples=100, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(body=st.dictionaries(st.sampled_from(CREATE_FIELDS) | st.text(max_size=6), SOME,
                                    max_size=6) | JSON,
               join=st.booleans())
        def check(body: Any, join: bool) -> None:
            path = f"/api/tables/{code}/join" if join else "/api/tables"
            response = client.post(path, content=json.dumps(body),
                                   headers={"content-type": "application/json"})
            answer = response.json()
            if response.status_code in (200, 201):
                assert "token" in answer or "host_token" in answer
                assert "seed" not in json.dumps(answer)
                return
            assert response.status_code in (400, 409, 413, 422), response.text
            assert answer["type"] == "error" and answer["message"], answer
            assert "Traceback" not in response.text
            if isinstance(body, dict) and "seed" in body and response.status_code == 400:
                assert answer["code"] == "bad_request"

        check()
