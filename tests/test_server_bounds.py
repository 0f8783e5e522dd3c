"""Bounds that hold under concurrency: the open tables per address (counted and stored in one
transaction), and the record requests (refused before the log is read, and rate-limited)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eights.server import Limits
from eights.server.store import Store
from postgres import BACKENDS, database_url
from test_server import hub_of, make_client


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, str(tmp_path / "bounds.sqlite3")) as url:
        yield url


def _at_once(clients: list[TestClient], count: int, body: dict[str, Any]) -> Counter[int]:
    """``count`` table creations sent at the same instant, over ``clients`` in turn: the
    answers' status codes."""
    go = threading.Barrier(count)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def one(i: int) -> None:
        go.wait()
        status = clients[i % len(clients)].post("/api/tables", json=body).status_code
        with lock:
            statuses[status] += 1

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


LIMITS = Limits(tables_per_address=5, request_burst=1000, requests_per_second=1000.0)


def test_the_open_tables_per_address_hold_under_a_burst(db: str) -> None:
    """The count and the insert were apart: 20 creations at once on one SQLite server made
    20 tables (bound 5). Now exactly 5 are made, the others refused ``429 too_many``."""
    with make_client(db, limits=LIMITS) as client:
        statuses = _at_once([client], 30, {"rules": "classic", "players": 2})
        assert statuses == {201: 5, 429: 25}, statuses
        assert hub_of(client).store.count_open("testclient") == (5, 5)


def test_the_open_tables_per_address_hold_over_two_processes() -> None:
    """On PostgreSQL, over two server processes (two apps on one schema) at once."""
    with database_url("postgresql", "") as url, ExitStack() as stack:
        clients = [stack.enter_context(make_client(url, limits=LIMITS)) for _ in range(2)]
        statuses = _at_once(clients, 30, {"rules": "classic", "players": 2})
        assert statuses == {201: 5, 429: 25}, statuses
        store = Store(url)
        assert store.count_open("testclient") == (5, 5)
        store.close()


def test_the_server_s_open_tables_hold_under_a_burst(db: str) -> None:
    limits = Limits(tables=4, tables_per_address=100, request_burst=1000,
                    requests_per_second=1000.0)
    with make_client(db, limits=limits) as client:
        statuses = _at_once([client], 20, {"rules": "classic", "players": 2})
        assert statuses == {201: 4, 429: 16}, statuses
        refused = client.post("/api/tables", json={"rules": "classic", "players": 2})
        assert refused.status_code == 429
        assert "maximum of open tables" in refused.json()["message"]


# --------------------------------------------------------------------------- records


def test_the_record_of_an_open_table_is_refused_before_its_log_is_read(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 requests for the record of a table at version 13,402 took 116 s (each read the
    whole log, then refused it) and pushed the health check to 85 s."""
    with make_client(db) as client:
        made = client.post("/api/tables", json={"rules": "classic", "players": 2,
                                                "bots": {"0": "greedy", "1": "greedy"}}).json()
        code = made["code"]
        loads: list[str] = []
        real = Store.load

        def counted(self: Store, code: str, **kwargs: Any) -> Any:
            loads.append(code)
            return real(self, code, **kwargs)

        monkeypatch.setattr(Store, "load", counted)
        refused = client.get(f"/api/tables/{code}/record")
        assert refused.status_code == 409 and refused.json()["code"] == "wrong_status"
        missing = client.get("/api/tables/NOSUCHTABLE/record")
        assert missing.status_code == 404
        assert loads == []


def test_record_requests_are_rate_limited_per_address(db: str) -> None:
    limits = Limits(records_per_second=0.5, record_burst=3)
    with make_client(db, limits=limits) as client:
        code = client.post("/api/tables", json={"rules": "classic", "players": 2}).json()["code"]
        answers = [client.get(f"/api/tables/{code}/record") for _ in range(4)]
        assert [a.status_code for a in answers] == [409, 409, 409, 429]
        refused = answers[-1].json()
        assert refused["code"] == "rate_limited"
        assert "record requests" in refused["message"] and "0.5 a second" in refused["message"]


def test_concurrent_requests_for_one_record_build_it_once(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from eights.server import hub as hub_module
    from eights.server import room as room_module
    from test_server import watched_bot_table

    with make_client(db) as client, watched_bot_table(client, target=1, seed=4) as (made, watcher):
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "finished")
    replays: list[str] = []
    real = room_module.replay_table

    def slow(data: Any) -> Any:
        replays.append(data.code)
        threading.Event().wait(0.3)  # a long match: the requests come while it is built
        return real(data)

    monkeypatch.setattr(hub_module, "replay_table", slow)
    limits = Limits(record_burst=100)
    with make_client(db, limits=limits) as client:
        go = threading.Barrier(12)
        answers: list[int] = []

        def one() -> None:
            go.wait()
            answers.append(client.get(f"/api/tables/{made['code']}/record").status_code)

        threads = [threading.Thread(target=one) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [200] * 12
    assert replays == [made["code"]]
