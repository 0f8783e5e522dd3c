"""How the server listens: uvicorn's options, and a guard on every socket.

uvicorn reads requests without a deadline: a client that sends half a request
and then nothing keeps its socket (and a file descriptor) for ever, and a
thousand of them make every new connection fail. The guard
(:class:`GuardedHttp`, uvicorn's httptools protocol with three checks) closes:

- a request not read in full (head and body) within :attr:`Limits.read_timeout`
  seconds of the connection opening, or of the first byte of a later request on
  a kept-alive connection (answered ``408``);
- a socket beyond :attr:`Limits.sockets_per_address` open from one address,
  HTTP or WebSocket (answered ``503``); a trusted proxy is not counted, its
  clients are counted by their forwarded address in the app;
- a socket beyond :func:`socket_cap` open in all (answered ``503``), so that
  the server keeps file descriptors for its database and its logs.

``X-Forwarded-For`` is read only from the proxies named with
``eights serve --trusted-proxy`` (none by default): from anyone else it is
ignored, so that a client cannot pose as many addresses to slip past the
per-address limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import resource
from collections.abc import Sequence
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from eights.server.limits import Limits

__all__ = ["STOP_WAIT", "Guard", "GuardedHttp", "Server", "socket_cap", "uvicorn_config"]

STOP_WAIT = 5.0
"""Seconds a stopping server waits for the requests under way (then they are cancelled): a
review's asker is answered at once (:class:`Server`), and everything else answers sooner."""

_REFUSED = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s")
_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"connection: close\r\ncontent-length: %d\r\n\r\n%s")


def _answer(template: bytes, text: str) -> bytes:
    body = text.encode("utf-8")
    return template % (len(body), body)


def socket_cap() -> int:
    """Sockets the server keeps open at most: its file descriptor limit less 100."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(16, (soft if soft != resource.RLIM_INFINITY else 65536) - 100)


class Guard:
    """The open sockets, by client address; what a new one may be refused for."""

    def __init__(self, *, read_timeout: float, per_address: int, total: int,
                 trusted: Sequence[str] = ()) -> None:
        self.read_timeout = read_timeout
        self.per_address = per_address
        self.total = total
        self.trusted = [ipaddress.ip_network("0.0.0.0/0" if t == "*" else t, strict=False)
                        for t in trusted]
        self.trust_all = "*" in trusted
        self.sockets: dict[str, set[asyncio.BaseTransport]] = {}
        self.count = 0
        """Sockets in :attr:`sockets`, some of which may have closed since."""
        self._prune_at = 1024

    def admit(self, address: str, transport: asyncio.BaseTransport) -> str | None:
        """Count a new socket from ``address``; the reason to refuse it, or ``None``."""
        if self.count >= self._prune_at or self.count >= self.total:
            self._prune()
        if self.count >= self.total:
            return "the server is full; try again later"
        mine = self.sockets.setdefault(address, set())
        if not self.is_trusted(address):
            for closed in [t for t in mine if t.is_closing()]:
                mine.discard(closed)
                self.count -= 1
            if len(mine) >= self.per_address:
                return (f"at most {self.per_address} connections from one address; "
                        "close some first")
        mine.add(transport)
        self.count += 1
        return None

    def is_trusted(self, address: str) -> bool:
        """Whether ``address`` is a trusted proxy's."""
        if self.trust_all:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def release(self, address: str, transport: asyncio.BaseTransport) -> None:
        mine = self.sockets.get(address)
        if mine is not None and transport in mine:
            mine.discard(transport)
            self.count -= 1
            if not mine:
                del self.sockets[address]

    def _prune(self) -> None:
        """Forget the sockets that closed (a WebSocket's close is not seen here)."""
        for address, mine in list(self.sockets.items()):
            for closed in [t for t in mine if t.is_closing()]:
                mine.discard(closed)
                self.count -= 1
            if not mine:
                del self.sockets[address]
        self._prune_at = max(1024, 2 * self.count)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a read deadline and the :class:`Guard`'s counts."""

    guard: ClassVar[Guard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._address = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        refused = self.guard.admit(self._address, transport)
        if refused is not None:
            transport.write(_answer(_REFUSED, refused))
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.release(self._address, self.transport)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the WebSocket pings its client from here on
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.guard.read_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.write(_answer(_TIMEOUT, f"send the whole request within "
                                         f"{self.guard.read_timeout:g} seconds"))
            self.transport.close()


def uvicorn_config(app: Any, *, host: str, port: int, limits: Limits,
                   trusted_proxies: Sequence[str] = (), unix_socket: str | None = None,
                   **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for the app: the guarded protocol, ``X-Forwarded-For`` read
    from ``trusted_proxies`` only (addresses or networks, as uvicorn's
    ``forwarded_allow_ips``), and the server's frame and compression choices.

    With ``unix_socket`` the app listens on that Unix socket instead of ``host:port``, and
    whoever opens it is the proxy: its ``X-Forwarded-For`` is believed (the first address:
    the proxy must replace the client's header, not add to it), and its sockets are not held
    to one address's share. Keep the socket where only the proxy can open it."""
    if unix_socket is not None:
        trusted_proxies = ["*"]
        options["uds"] = unix_socket
    guard = Guard(read_timeout=limits.read_timeout, per_address=limits.sockets_per_address,
                  total=socket_cap(), trusted=trusted_proxies)
    protocol = type("GuardedHttp", (GuardedHttp,), {"guard": guard})
    # Frames above 64 KiB are cut off by uvicorn; the app answers anything above 4 KiB itself.
    # No per-message deflate: compressing every state for every seat cost a tenth of the
    # server's time under load, for messages of a few kilobytes.
    options.setdefault("timeout_graceful_shutdown", STOP_WAIT)
    return uvicorn.Config(app, host=host, port=port, http=protocol, ws_max_size=64 * 1024,
                          ws_per_message_deflate=False,
                          proxy_headers=bool(trusted_proxies),
                          forwarded_allow_ips=list(trusted_proxies), **options)


class Server(uvicorn.Server):
    """uvicorn's server, telling the app when it is asked to stop (SIGTERM, Ctrl-C): the app's
    ``state.stopping()``, if it has one, runs on the event loop at once, so that requests that
    would wait long (a review) are answered now and the server stops without waiting for them
    (uvicorn sends the app's lifespan its shutdown only after the requests under way)."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        stopping = getattr(getattr(self.config.app, "state", None), "stopping", None)
        if callable(stopping) and not self.should_exit:
            with contextlib.suppress(RuntimeError):  # no loop running yet
                asyncio.get_running_loop().call_soon_threadsafe(stopping)
        super().handle_exit(sig, frame)
