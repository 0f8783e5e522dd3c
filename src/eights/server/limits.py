"""Bounds that keep one client from taking the server: sizes, rates and counts.

>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]

Open tables are counted by who made them (:func:`creator_key`): an IPv4 address, or an IPv6
address's /64 (one subscriber's network, where each device may take many addresses); and by
their network (:func:`network_of`): an IPv4 /24, an IPv6 /48.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Limits", "TokenBucket", "creator_key", "network_of"]


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
    """Open tables created from one client address (an IPv6 address's /64: :func:`creator_key`)."""
    tables_per_network: int = 20
    """Open tables created from one network (an IPv4 /24, an IPv6 /48: :func:`network_of`)."""
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
    waiting_idle: float = 600.0
    """Seconds a waiting table may stay with nobody connected to it before it is closed
    (abandoned tables would otherwise fill the server's cap)."""
    waiting_unseen: float = 120.0
    """Seconds a waiting table nobody ever connected to may stay (since it was made, or the
    server restarted): a flood of creations from many addresses fills the cap for no longer."""
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


def creator_key(address: str) -> str:
    """Who made a table, as its open tables are counted: an IPv4 address itself, an IPv6
    address's /64 (written in full), anything else (a Unix socket's peer) as it is.

    >>> creator_key("203.0.113.7"), creator_key("2001:db8:1:2::99")
    ('203.0.113.7', '2001:0db8:0001:0002::/64')
    >>> creator_key("::ffff:203.0.113.7"), creator_key("testclient")
    ('203.0.113.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    return ipaddress.ip_network(f"{ip}/64", strict=False).network_address.exploded[:19] + "::/64"


def network_of(key: str) -> str | None:
    """The network of a :func:`creator_key`, as the start of the keys it holds: an IPv4 /24,
    an IPv6 /48; ``None`` for a key that is no address.

    >>> network_of("203.0.113.7"), network_of("2001:0db8:0001:0002::/64")
    ('203.0.113.', '2001:0db8:0001:')
    >>> network_of("testclient") is None
    True
    """
    if key.endswith("::/64"):
        return key[:15]
    try:
        ipaddress.IPv4Address(key)
    except ValueError:
        return None
    return key.rsplit(".", 1)[0] + "."
