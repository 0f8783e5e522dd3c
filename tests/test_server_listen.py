"""The server as it listens (uvicorn with the guard), over raw loopback sockets.

Half-sent requests are closed after the read timeout and cannot use up the
server; one address cannot hold more than its share of sockets; and
``X-Forwarded-For`` is believed only from a trusted proxy. A second client
address is 127.0.0.2 (all of 127/8 is loopback on Linux).
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from eights.server import Limits, create_app
from eights.server.listen import uvicorn_config

OTHER = "127.0.0.2"


@contextmanager
def serving(tmp_path: Path, limits: Limits, trusted: Sequence[str] = ()) -> Iterator[int]:
    """The app under uvicorn, as ``eights serve`` runs it, in a thread: its port."""
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, limits=limits,
                     reviews_ahead=False)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    config = uvicorn_config(app, host="127.0.0.1", port=port, limits=limits,
                            trusted_proxies=trusted, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            thread.join(0.02)
        assert server.started, "the server started"
        yield port
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def request(port: int, method: str, path: str, body: dict[str, Any] | None = None, *,
            source: str = "127.0.0.1", headers: dict[str, str] | None = None
            ) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5,
                                      source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(method, path, body=data, headers={"Content-Type": "application/json",
                                                       **(headers or {})})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        conn.close()


def half_request(port: int, text: bytes, stack: ExitStack, source: str = "127.0.0.1"
                 ) -> socket.socket:
    sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=5,
                                                        source_address=(source, 0)))
    sock.sendall(text)
    return sock


def answer_and_close(sock: socket.socket) -> bytes:
    """All the server sends until it closes the socket (a timeout fails the test)."""
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data


HALF_HEAD = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: "
HALF_BODY = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"rules\""


def test_half_sent_requests_are_closed_and_hold_no_one_up(tmp_path: Path) -> None:
    limits = Limits(read_timeout=0.5, sockets_per_address=6)
    with serving(tmp_path, limits) as port, ExitStack() as stack:
        slow = [half_request(port, HALF_HEAD if i % 2 else HALF_BODY, stack) for i in range(6)]
        # The address has used its sockets: one more is refused at once.
        refused = half_request(port, b"", stack)
        assert answer_and_close(refused).startswith(b"HTTP/1.1 503 ")
        # Another address is served meanwhile.
        assert request(port, "GET", "/api/health", source=OTHER)[0] == 200
        # Each half request is closed within the read timeout.
        for sock in slow:
            answer = answer_and_close(sock)
            assert answer.startswith(b"HTTP/1.1 408 "), answer
            assert b"within 0.5 seconds" in answer
        # Its sockets given back, the first address is served again.
        assert request(port, "GET", "/api/health")[0] == 200


def test_a_kept_alive_connection_sending_its_next_request_slowly_is_closed(
        tmp_path: Path) -> None:
    with serving(tmp_path, Limits(read_timeout=0.5)) as port, ExitStack() as stack:
        sock = half_request(port, b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n", stack)
        first = b""
        while not first.endswith(b"}"):  # the answer, {"ok": ...}
            first += sock.recv(4096)
        assert first.startswith(b"HTTP/1.1 200 ")
        sock.sendall(HALF_HEAD)
        assert answer_and_close(sock).startswith(b"HTTP/1.1 408 ")


def test_forwarded_addresses_are_ignored_from_a_client(tmp_path: Path) -> None:
    """A client posing as five addresses is still one: its sixth table is refused."""
    with serving(tmp_path, Limits(tables_per_address=5)) as port:
        statuses = [request(port, "POST", "/api/tables", {"rules": "classic"},
                            headers={"X-Forwarded-For": f"10.0.0.{i}"})[0] for i in range(6)]
    assert statuses == [201] * 5 + [429]


@pytest.mark.parametrize("trusted", [["127.0.0.1"], ["127.0.0.0/8"]])
def test_forwarded_addresses_are_read_from_a_trusted_proxy(tmp_path: Path,
                                                           trusted: list[str]) -> None:
    with serving(tmp_path, Limits(tables_per_address=1), trusted) as port:
        statuses = [request(port, "POST", "/api/tables", {"rules": "classic"},
                            headers={"X-Forwarded-For": f"10.0.0.{i}"})[0] for i in range(3)]
        again = request(port, "POST", "/api/tables", {"rules": "classic"},
                        headers={"X-Forwarded-For": "10.0.0.1"})
        # The proxy's own sockets are not counted per address: it carries many clients.
    assert statuses == [201, 201, 201]
    assert again[0] == 429 and "at most 1 open tables" in again[1]["message"]


def test_a_trusted_proxy_is_not_held_to_one_address_share(tmp_path: Path) -> None:
    limits = Limits(sockets_per_address=2, read_timeout=5)
    with serving(tmp_path, limits, ["127.0.0.1"]) as port, ExitStack() as stack:
        for _ in range(4):
            half_request(port, HALF_HEAD, stack)
        assert request(port, "GET", "/api/health")[0] == 200


def test_on_a_unix_socket_whoever_opens_it_is_the_proxy(tmp_path: Path) -> None:
    """``eights serve --unix-socket PATH`` (as ``--processes`` runs its servers): the peer is
    the proxy, so ``X-Forwarded-For`` is believed and its sockets are not one address's."""
    from eights.server.cluster import unix_request

    limits = Limits(tables_per_address=1, sockets_per_address=2, read_timeout=5)
    path = tmp_path / "server.sock"
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0, limits=limits,
                     reviews_ahead=False)
    server = uvicorn.Server(uvicorn_config(app, host="127.0.0.1", port=0, limits=limits,
                                          unix_socket=str(path), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            thread.join(0.02)
        assert server.started, "the server started"

        def create(forwarded: str) -> int:
            return unix_request(path, "POST", "/api/tables", json.dumps({"rules": "classic"})
                                .encode(), headers={"Content-Type": "application/json",
                                                    "X-Forwarded-For": forwarded})[0]

        assert [create(f"10.0.0.{i}") for i in range(3)] == [201, 201, 201]
        assert create("10.0.0.1") == 429  # that address's one table
        with ExitStack() as stack:
            for _ in range(4):  # more than one address's share of sockets, half-sent
                sock = stack.enter_context(socket.socket(socket.AF_UNIX))
                sock.connect(str(path))
                sock.sendall(HALF_HEAD)
            assert unix_request(path, "GET", "/api/health")[0] == 200
    finally:
        server.should_exit = True
        thread.join(10)
