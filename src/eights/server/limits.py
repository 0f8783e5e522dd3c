"""Bounds that keep one client from taking the server: sizes, rates and counts.

>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Limits", "TokenBucket"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound of the server, in one place (tests shrink them)."""

    message_bytes: int = 4096
    """Largest client message, in UTF-8 bytes (larger ones get a ``too_large`` error)."""
    messages_per_second: float = 20.0
    message_burst: int = 40
    strikes: int = 50
    """Messages refused for the rate before the connection is closed (code 1008)."""
    requests_per_second: float = 2.0
    """HTTP requests that create or join tables, per client address."""
    request_burst: int = 20
    records_per_second: float = 1.0
    """``GET /api/tables/CODE/record`` requests per client address (each may replay a whole
    match)."""
    record_burst: int = 10
    tables: int = 1000
    """Open tables (waiting or playing) on the server."""
    tables_per_address: int = 5
    """Open tables created from one client address."""
    connections: int = 10_000
    connections_per_address: int = 20
    sockets_per_address: int = 60
    """Open sockets (HTTP and WebSocket) from one client address; more are refused (503)."""
    read_timeout: float = 10.0
    """Seconds a client has to send a whole HTTP request; a slower one is closed (408)."""
    spectators_per_table: int = 50
    turn_timer: tuple[float, float] = (5.0, 600.0)
    """Shortest and longest turn timer a table may have, in seconds (or no timer): a short
    timer would let a table play itself against the database."""
    send_queue_bytes: int = 512 * 1024
    """Bytes of events waiting to be sent to one connection; a client that falls further
    behind is disconnected (code 1013, its waiting events dropped) and can reconnect."""
    send_timeout: float = 10.0
    """Seconds one event may take to be sent: a client that stops reading (its TCP window
    stays shut) is dropped after it, without waiting for the close handshake."""
    rounds: int = 100
    """Most rounds a match may have. A match without a target score (``target: 0``) must
    set a number of rounds, so that every match ends."""
    welcome_log: int = 1000
    """Lines of the match in words a ``welcome`` carries: the most recent ones (as many as
    the browser page shows, some 40 KB)."""
    hellos_per_second: float = 0.5
    """``hello`` messages a connection may send (each is answered with the whole table)."""
    hello_burst: int = 5
    waiting_idle: float = 1800.0
    """Seconds a waiting table may stay with nobody connected and no seat taken before it
    is closed (abandoned tables would otherwise fill the server's cap)."""
    bot_seconds: float = 3.0
    """A bot's budget: the longest a bot spec may ask to think a move (its ``time``); a bot
    that takes a ``time`` and sets none within it thinks this long at most."""
    bot_wait: float = 5.0
    """Wall-clock seconds the server waits for a bot's move, queue included; after that it
    plays the greedy move for the bot."""


@dataclass(slots=True)
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; each message takes one."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    last: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.last = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    @property
    def full(self) -> bool:
        return self.tokens + (self.clock() - self.last) * self.rate >= self.burst
