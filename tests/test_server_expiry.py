"""Waiting tables expire: one nobody is connected to, untouched for ``waiting_idle`` seconds,
is closed, and no longer counts for its creator or for the server's cap."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from eights.server import Limits
from test_server import Peer, create, hub_of, make_client


def wait_closed(client: TestClient, code: str, within: float = 10.0) -> float:
    """Seconds until table ``code`` answers that it is closed."""
    start = time.monotonic()
    while client.get(f"/api/tables/{code}").status_code != 409:
        assert time.monotonic() - start < within, f"table {code} did not expire"
        time.sleep(0.02)
    return time.monotonic() - start


def test_an_abandoned_waiting_table_expires(tmp_path: Path) -> None:
    limits = Limits(waiting_idle=0.3, tables_per_address=1)
    with make_client(f"sqlite:///{tmp_path / 'server.sqlite3'}", limits=limits) as client:
        first = create(client, rules="classic", title="left alone")
        refused = client.post("/api/tables", json={"rules": "classic"})
        assert refused.status_code == 429  # the creator's one table is open
        assert [t["code"] for t in client.get("/api/tables").json()["tables"]] == [first["code"]]
        wait_closed(client, first["code"])
        assert client.get("/api/tables").json()["tables"] == []
        assert first["code"] not in hub_of(client).rooms
        create(client, rules="classic")  # the creator may open another


def test_a_table_someone_waits_at_does_not_expire(tmp_path: Path) -> None:
    limits = Limits(waiting_idle=0.3)
    with make_client(f"sqlite:///{tmp_path / 'server.sqlite3'}", limits=limits) as client:
        table = create(client, rules="classic", players=2, name="Ana")
        code = table["code"]
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ana = Peer(ws, table["token"])
            ana.hello()
            time.sleep(1.5)  # five times the idle time, sweeps every 0.075 s
            ana.alive()
            assert client.get(f"/api/tables/{code}").json()["status"] == "waiting"
        # Ana left: the wait starts from her leaving.
        assert wait_closed(client, code) >= 0.2
