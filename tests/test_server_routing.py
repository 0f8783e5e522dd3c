"""Addresses the server takes: a path written with percent escapes is refused, since a proxy
routes a table's requests by the path as written and the server would decode it into another
(``/api%2Ftables/CODE`` is ``/api/tables/CODE`` to the server, not to the proxy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from eights.server import Limits
from eights.server.app import PLAIN_PATHS
from test_server import make_client
from test_server_listen import request, serving


def test_a_percent_encoded_path_is_refused_plain_ones_answered(tmp_path: Path) -> None:
    with make_client(f"sqlite:///{tmp_path / 's.sqlite3'}") as client:
        made = client.post("/api/tables", json={"rules": "classic", "players": 2})
        assert made.status_code == 201
        code = made.json()["code"]
        letter = next(i for i, c in enumerate(code) if c.isalpha())
        one = f"{code[:letter]}%{ord(code[letter]):02x}{code[letter + 1:]}"
        for path in (f"/api%2Ftables/{code}", f"/api/tables%2F{code}", f"/api/tables/{one}",
                     f"/api/tables/{one}/rules", f"/api/tables/{code}/record%20",
                     "/static/app%2Ejs", f"/t/{one}"):
            answer = client.get(path)
            assert answer.status_code == 400, path
            assert answer.json() == {"type": "error", "code": "bad_request",
                                     "message": PLAIN_PATHS}
        refused = client.post(f"/api/tables/{one}/join", json={"name": "Eve"})
        assert refused.status_code == 400 and refused.json()["message"] == PLAIN_PATHS
        for path in (f"/ws%2Ftables/{code}", f"/ws/tables/{one}"):
            with client.websocket_connect(path) as ws:
                assert ws.receive_json()["message"] == PLAIN_PATHS
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
            assert closed.value.code == 1008
        assert client.get(f"/api/tables/{code}").json()["code"] == code
        assert client.get(f"/api/tables/{code}/rules?lang=fr").status_code == 200
        assert client.get("/static/app.js").status_code == 200
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ws.send_json({"type": "hello", "seq": 1})
            assert ws.receive_json()["type"] == "welcome"


def test_an_answer_about_a_table_run_here_says_so(tmp_path: Path) -> None:
    """``X-Eights-Runs: CODE`` on the answers about an open table from the process running
    it (the proxy sticks the code there); none about a table that is not open, or none."""
    with make_client(f"sqlite:///{tmp_path / 's.sqlite3'}") as client:
        made = client.post("/api/tables", json={"rules": "classic", "players": 2})
        code = made.json()["code"]
        for path in (f"/api/tables/{code}", f"/api/tables/{code}/rules",
                     f"/api/tables/{code}/record"):  # (a record of an open table: 409)
            assert client.get(path).headers.get("x-eights-runs") == code, path
        joined = client.post(f"/api/tables/{code}/join", json={"name": "Ana"})
        assert joined.status_code == 200 and joined.headers["x-eights-runs"] == code
        assert "x-eights-runs" not in client.get("/api/tables/nosuchtable").headers
        assert "x-eights-runs" not in client.get("/api/tables").headers
        with client.websocket_connect(f"/ws/tables/{code}") as ws:
            ws.send_json({"type": "hello", "seq": 1})
            assert ws.receive_json()["type"] == "welcome"
            ws.send_json({"type": "close", "seq": 2, "token": made.json()["host_token"]})
            while ws.receive_json()["type"] != "table":
                pass
        assert "x-eights-runs" not in client.get(f"/api/tables/{code}/record").headers


def test_a_percent_encoded_websocket_straight_at_a_server_closes_with_1008(tmp_path: Path
                                                                            ) -> None:
    """Issue 36 item 8: uvicorn answered such a handshake with HTTP 403, not the documented
    close 1008 after the error."""
    with serving(tmp_path, Limits()) as port:
        code = request(port, "POST", "/api/tables", {"rules": "classic", "players": 2})[1]["code"]
        with connect(f"ws://127.0.0.1:{port}/ws%2Ftables/{code}", open_timeout=10) as ws:
            error = json.loads(ws.recv(timeout=10))
            assert error == {"type": "error", "code": "bad_request", "message": PLAIN_PATHS,
                             "seq": None}
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
