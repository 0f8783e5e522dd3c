"""Storage: commit before broadcast, restart recovery, records, migrations, determinism."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from typer.testing import CliRunner

from eights.cli import app as cli_app
from eights.engine.record import load_record, replay
from eights.server import hub as hub_module
from eights.server import room as room_module
from eights.server.room import Room
from eights.server.store import Base, Store
from postgres import BACKENDS, database_url
from test_server import (
    Peer,
    create,
    hub_of,
    make_client,
    pick,
    play_round,
    room_of,
    settled,
    start_table,
    watched_bot_table,
)


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, then a schema on the PostgreSQL server of
    ``EIGHTS_TEST_POSTGRES`` (skipped without it, except in CI where it fails)."""
    with database_url(request.param, str(tmp_path / "server.sqlite3")) as url:
        yield url


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


def _stored_version(store: Store, code: str) -> int:
    data = store.load(code)
    assert data is not None
    return len(data.actions) + data.round - 1


def test_every_state_is_on_disk_before_it_is_sent(db: str, stack: ExitStack) -> None:
    client = stack.enter_context(make_client(db))
    table, people = start_table(client, stack, rules="huit-fou", players=3, bots={"2": "greedy"},
                                seed=5)
    reader = Store(db)  # another connection to the same file, as after a crash
    rng = random.Random(4)
    checked = 0
    for _ in range(6):
        view = people[0].view
        if view["round_over"]:
            break
        peer = people[view["to_play"]]
        acted = peer.version
        peer.play(pick(peer.view["legal"], rng))
        while True:
            msg = people[0].recv()
            if msg["type"] == "state":
                assert _stored_version(reader, table["code"]) >= msg["version"]
                checked += 1
                if settled(people, acted)(msg):
                    break
        people[1].until(settled(people, acted))
    reader.close()
    assert checked >= 6


def _snapshot(room: Room) -> tuple[Any, ...]:
    return (room.version, room.status, room.game.to_json(),
            [room.game.observe(s).to_json() for s in range(room.n)],
            [(s.name, s.bot_spec, s.token_hash) for s in room.seats])


def test_a_restart_resumes_every_table_exactly(db: str, stack: ExitStack) -> None:
    first = stack.enter_context(make_client(db))
    table, people = start_table(first, stack, rules="classic", players=4,
                                bots={"1": "greedy", "3": "expert"}, seed=12)
    code = table["code"]
    rng = random.Random(8)
    play_round(people, rng, moves=5)
    waiting = create(first, rules="les-huit", players=2, name="Zoe")
    before = _snapshot(room_of(first, code))
    seen = {seat: p.state for seat, p in people.items()}
    # A second server on the same file, while the first never shut down (as after kill -9,
    # when the system has let go of the first's claim on the database).
    hub_of(first).store.release()
    with make_client(db) as second:
        restored = room_of(second, code)
        assert _snapshot(restored) == before
        assert room_of(second, waiting["code"]).status == "waiting"
        with second.websocket_connect(f"/ws/tables/{code}") as ws:
            ana = Peer(ws, people[0].token)
            assert ana.hello()["seat"] == 0
            state = ana.expect("state")
            assert seen[0] is not None and state == {**seen[0], "last": None}
            if ana.view["to_play"] == 0:
                acted = ana.version
                ana.play(pick(ana.view["legal"], rng))
                moved = ana.until(lambda m: m["type"] == "state" and m["version"] > acted)
                assert moved["last"]["seat"] == 0


def test_a_bot_to_play_resumes_after_a_restart(db: str) -> None:
    bots = {"0": "greedy", "1": "random"}
    with make_client(db, bot_delay=3600) as first:  # the bots would wait an hour
        made = create(first, rules="classic", players=2, bots=bots, seed=2)
        with first.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            watcher = Peer(ws)
            watcher.hello()
            watcher.send("start", token=made["host_token"])
            assert watcher.until(lambda m: m["type"] == "state")["version"] == 0
    with make_client(db) as second, second.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        watcher = Peer(ws)
        watcher.hello()
        watcher.until(lambda m: m["type"] == "state" and m["version"] > 0)
        stored = hub_of(second).store.load(made["code"])
        assert stored is not None and stored.actions[0].source == "bot"


def test_all_bot_matches_are_deterministic_and_their_record_replays(tmp_path: Path) -> None:
    records = []
    for run in range(2):
        with make_client(f"sqlite:///{tmp_path / f'run{run}.sqlite3'}") as client:
            made = create(client, rules="huit-americain", players=3,
                          bots={"0": "greedy", "1": "expert", "2": "random"}, target=60, seed=99)
            code = made["code"]
            with client.websocket_connect(f"/ws/tables/{code}") as ws:
                watcher = Peer(ws)
                watcher.hello()
                watcher.send("start", token=made["host_token"])
                final = watcher.until(lambda m: m["type"] == "state"
                                      and m["view"]["match_over"], timeout=20)
                closed = watcher.until(lambda m: m["type"] == "table")
                assert closed["table"]["status"] == "finished"
            room = room_of(client, code) if code in hub_of(client).rooms else None
            assert room is None  # a finished table leaves memory with its last connection
            response = client.get(f"/api/tables/{code}/record")
            assert response.status_code == 200
            record = response.json()
            assert record["meta"]["seats"][1] == {"name": "Bot 2", "player": "expert"}
            game = replay(load_record(record))
            assert game.match_over and list(game.scores) == final["view"]["scores"]
            assert {**game.observe(0).to_json(), "seat": None, "hand": []} == final["view"]
            records.append([r["actions"] for r in record["rounds"]])
    assert records[0] == records[1]


def test_finished_tables_can_still_be_watched(db: str) -> None:
    with make_client(db) as client, watched_bot_table(client, target=1, seed=4) as (made, watcher):
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
    with make_client(db) as client, client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
        late = Peer(ws)
        assert late.hello()["table"]["status"] == "finished"
        state = late.expect("state")
        assert state["view"]["match_over"] and state["view"]["hand"] == []
        assert state["view"]["revealed"] is not None


def test_finished_tables_are_replayed_once_for_many_readers(db: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db) as client, watched_bot_table(client, target=1, seed=4) as (made, watcher):
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
    code = made["code"]
    replays: list[str] = []
    real = room_module.replay_table

    def counted(data: Any) -> Any:
        replays.append(data.code)
        return real(data)

    monkeypatch.setattr(hub_module, "replay_table", counted)
    monkeypatch.setattr(room_module, "replay_table", counted)
    with make_client(db) as client:
        for _ in range(5):
            assert client.get(f"/api/tables/{code}").json()["status"] == "finished"
            assert client.get(f"/api/tables/{code}/record").json()["meta"]["table"] == code
        assert replays == [code, code]  # once for the table, once for its record
        with client.websocket_connect(f"/ws/tables/{code}") as ws:  # the host closes it
            host = Peer(ws)
            host.hello()
            host.send("close", token=made["host_token"])
            host.until(lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
        closed = client.get(f"/api/tables/{code}")
        assert closed.status_code == 409 and closed.json()["code"] == "wrong_status"
        assert client.get(f"/api/tables/{code}/record").status_code == 200


def test_a_stored_turn_timer_is_brought_within_the_bounds(db: str) -> None:
    with make_client(db) as client:
        made = create(client, rules="classic", players=2, turn_timer=30)
        hub_of(client).store.run(Store.set_table(made["code"], turn_timer=0.001))  # an old table
    with make_client(db) as client:
        assert room_of(client, made["code"]).turn_timer == 5.0
        assert client.get(f"/api/tables/{made['code']}").json()["turn_timer"] == 5.0


def test_a_failed_commit_changes_nothing(db: str, stack: ExitStack,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    client = stack.enter_context(make_client(db))
    table, people = start_table(client, stack, rules="classic", players=2, seed=6)
    ana = people[0]
    room = room_of(client, table["code"])
    before = (room.version, room.game.to_json())

    def failing(*_args: Any, **_kw: Any) -> Any:
        def op(_session: Any) -> None:
            raise OSError("disk full")
        return op

    monkeypatch.setattr(Store, "add_action", staticmethod(failing))
    ana.play(ana.view["legal"][0])
    assert ana.error("internal")["message"] == ("the server failed to handle this message; "
                                                "the table is unchanged")
    assert (room.version, room.game.to_json()) == before
    monkeypatch.undo()
    acted = ana.version
    ana.play(ana.view["legal"][0])
    assert ana.until(lambda m: m["type"] == "state")["version"] == acted + 1


def test_migrations_build_exactly_the_models(db: str) -> None:
    store = Store(db)
    store.migrate()
    store.migrate()  # a second start-up changes nothing
    with store.engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    store.close()
    assert diff == []


def test_serve_command() -> None:
    runner = CliRunner()
    helped = runner.invoke(cli_app, ["serve", "--help"])
    assert helped.exit_code == 0 and "--db" in helped.output and "--port" in helped.output
    assert "--testing-fixed-seeds" in helped.output and "TESTS ONLY" in helped.output
    bad = runner.invoke(cli_app, ["serve", "--db", "not a url"])
    assert bad.exit_code == 2 and "cannot use the database" in bad.output
