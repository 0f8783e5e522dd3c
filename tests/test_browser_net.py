"""The page's connection (``static/net.js``) in Debian's chromium: a connection that goes
silent, as one to a hung server behind a proxy that keeps the tunnel open, is noticed within
seconds and replaced by a new one, without waiting for a close that never comes.

The server and the browser are ``test_browser``'s; the connection passes through Playwright's
WebSocket routing, which the test makes silent (nothing forwarded either way, nothing closed).
"""

from __future__ import annotations

import re
import threading
import time

from playwright.sync_api import Browser, BrowserContext, WebSocketRoute

from test_browser import Server, browser, contexts, person, server

__all__ = ["browser", "contexts", "server"]  # the fixtures, taken from test_browser

QUIET, DEADLINE = 5.0, 3.0
"""net.js's: seconds of silence before a ping, and a ping's deadline."""


def test_a_silent_connection_is_replaced_within_seconds(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """Issue 36 item 2: the page pinged every 25 s and never checked for a pong; people at a
    stopped owner received nothing for 40 s (until SIGCONT), while another process ran their
    table from 12 s on."""
    made = server.post("/api/tables", {"rules": "classic", "players": 3,
                                       "bots": {"1": "greedy", "2": "greedy"}})
    opened: list[float] = []
    silent = threading.Event()

    def route(ws: WebSocketRoute) -> None:
        first = not opened
        opened.append(time.monotonic())
        upstream = ws.connect_to_server()
        upstream.on_message(lambda m: None if first and silent.is_set() else ws.send(m))
        ws.on_message(lambda m: None if first and silent.is_set() else upstream.send(m))

    page = person(browser, contexts)
    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
    page.goto(f"{server.url}/t/{made['code']}")  # watching: the table waits for its players
    page.wait_for_selector("#table[data-online='true']", state="attached")
    assert len(opened) == 1
    silent.set()  # the server hangs: nothing comes, nothing is closed
    began = time.monotonic()
    deadline = began + QUIET + DEADLINE + 10
    while len(opened) < 2:
        assert time.monotonic() < deadline, "the page kept a silent connection"
        page.wait_for_timeout(100)
    noticed = opened[1] - began
    assert noticed < QUIET + DEADLINE + 2.5, f"a new connection after {noticed:.1f} s"
    page.wait_for_selector("#table[data-online='true']", state="attached")
    assert page.evaluate("document.querySelector('#banner').hidden")
