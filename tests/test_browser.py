"""The browser table, driven by Playwright in Debian's chromium (headless).

The real server runs in this process (uvicorn in a thread, on a free port,
with a temporary SQLite file and bots that do not pause); each test opens
pages in fresh browser contexts (a context is a separate person: its own
localStorage) and plays through clicks, taps and key presses only. Waits are
on conditions (the page's ``data-*`` attributes mirror the last state), never
fixed sleeps.

Screenshots of the lobby and the table go to ``$EIGHTS_ARTIFACTS`` (default
``tests/artifacts/``, ignored by git). Chromium is ``/usr/bin/chromium``
(``apt-get install chromium``; CI installs it): without it these tests fail,
they do not skip.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    WebSocketRoute,
    expect,
    sync_playwright,
)

from eights.bots import GreedyBot
from eights.engine.actions import DRAW, PASS, Action
from eights.engine.cards import Card, Suit
from eights.engine.game import Game
from eights.engine.rules import load_rules, preset_names
from eights.i18n import translator
from eights.server import Limits, create_app
from eights.server.hub import Hub

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("EIGHTS_ARTIFACTS") or Path(__file__).parent / "artifacts")
TIMEOUT_MS = 10_000
"""Longest wait for any one condition in a page."""


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    """The app served by uvicorn on a thread of its own, with its own event loop."""

    url: str
    hub: Hub
    loop: asyncio.AbstractEventLoop

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            result: dict[str, Any] = json.load(answer)
        return result

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + path, timeout=5) as answer:
            result: dict[str, Any] = json.load(answer)
        return result

    def drop_connections(self, code: str) -> None:
        """Close every connection to a table from the server side (a network drop)."""
        def drop() -> None:
            for conn in list(self.hub.rooms[code].conns):
                conn.close(1012, "dropped by the test")
        self.loop.call_soon_threadsafe(drop)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("browser") / "server.sqlite3"
    limits = Limits(tables_per_address=100, requests_per_second=100.0, request_burst=200)
    # Fixed seeds (a testing-only server option) give the tests the deals they need.
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, limits=limits, testing_fixed_seeds=True)
    with serving(app) as served:
        yield served


@contextmanager
def serving(app: FastAPI) -> Iterator[Server]:
    """``app`` served by uvicorn on a free port, on a thread with its own event loop."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=64 * 1024, lifespan="on"))
    loop = asyncio.new_event_loop()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(uv.serve(sockets=[sock]))

    thread = threading.Thread(target=run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not uv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield Server(f"http://127.0.0.1:{port}", app.state.hub, loop)
    finally:
        uv.should_exit = True
        thread.join(10)
        sock.close()


# --------------------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: the browser tests drive Debian's chromium; install it "
                    "with `apt-get install -y chromium` (.ci/run does)", pytrace=False)
    with sync_playwright() as playwright:
        yield launch(playwright)


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Contexts a test opens (each one person), closed at the end."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def person(browser: Browser, opened: list[BrowserContext], *, phone: bool = False,
           locale: str = "en-GB") -> Page:
    if phone:
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                      is_mobile=True, has_touch=True, locale=locale)
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 860}, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    opened.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def no_errors(page: Page) -> None:
    errors: list[str] = page.errors  # type: ignore[attr-defined]
    assert not errors, errors


def shot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), animations="disabled")
    return path


# --------------------------------------------------------------------------- reading the page


def data(page: Page, name: str) -> str | None:
    value: str | None = page.get_attribute("#table", f"data-{name}")
    return value


def version(page: Page) -> int:
    return int(data(page, "version") or -1)


def wait_version_after(page: Page, before: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {before}")


def picker_opened(page: Page, before: int) -> bool:
    """After a card is chosen: wait until the suit picker opens or the move is played."""
    page.wait_for_function("v => document.querySelector('#suit-picker').open"
                           " || Number(document.querySelector('#table').dataset.version) > v", arg=before)
    opened: bool = page.evaluate("document.querySelector('#suit-picker').open")
    return opened


def hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.dataset.card)")
    return cards


def playable(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card.playable",
                                                 "nodes => nodes.map(n => n.dataset.card)")
    return cards


def log_lines(page: Page) -> list[str]:
    lines: list[str] = page.eval_on_selector_all("#log li", "nodes => nodes.map(n => n.textContent)")
    return lines


def join_by_link(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join")
    expect(page.locator(".seat-row .badge.you")).to_be_visible()


# --------------------------------------------------------------------------- a seed for the round


def human_choice(hand_cards: tuple[Card, ...], legal: list[Action]) -> Action:
    """What the test clicks: the first highlighted card of the hand (naming spades with an 8),
    else Draw, else Pass."""
    for card in hand_cards:
        plays = [a for a in legal if a.card == card and not a.announce]
        if plays:
            named = [a for a in plays if a.suit is Suit.SPADES]
            return named[0] if named else plays[0]
    return DRAW if DRAW in legal else PASS


def rehearse(seed: int, humans: tuple[int, ...] = (0, 1)) -> list[tuple[int, Action]]:
    """The humans' moves of round 1 at a 4-seat classic table (greedy bots in seats 2 and 3)."""
    game = Game(load_rules("classic"), 4, seed=seed, dealer=3)
    bot = GreedyBot()
    moves: list[tuple[int, Action]] = []
    while not game.over and len(game.history) < 400:
        seat = game.to_play
        assert seat is not None
        legal = game.legal_actions()
        if seat in humans:
            action = human_choice(game.observe(seat).hand, legal)
            moves.append((seat, action))
        else:
            action = bot.choose(game.observe(seat), legal, random.Random(0))  # greedy ignores it
        game.apply(action)
    return moves if game.over else []


def seed_with_an_eight_and_a_draw() -> int:
    """A deal where both people play a card, one plays an 8 (the suit picker) and one draws;
    the browsers do not rely on it, it only makes sure the test meets those moments."""
    for seed in range(1, 1000):
        moves = rehearse(seed)
        if not moves or len(moves) > 30:
            continue
        eights = [a for _, a in moves if a.suit is not None]
        draws = [a for _, a in moves if a == DRAW]
        players = {s for s, a in moves if a.card is not None}
        if eights and draws and players == {0, 1}:
            return seed
    raise AssertionError("no seed found")  # pragma: no cover


# --------------------------------------------------------------------------- tests


@dataclass
class Tally:
    plays: int = 0
    eights: int = 0
    draws: int = 0
    by_seat: dict[int, int] = field(default_factory=dict)


def take_turn(page: Page, name: str, *, tap: bool, tally: Tally, seat: int) -> None:
    """Play one turn through the page: a highlighted card (suit picker for an 8), else Draw."""
    page.wait_for_selector("#table[data-my-turn='true']")
    before = version(page)
    cards = hand(page)
    lit = playable(page)
    for card in lit:  # the highlighted cards are exactly those the state lists as legal
        assert card in cards
    if lit:
        card = lit[0]
        target = page.locator(f"#hand .card.playable[data-card='{card}']").first
        target.tap() if tap else target.click()
        if picker_opened(page, before):
            if not tally.eights:
                shot(page, "suit-picker-phone" if tap else "suit-picker")
            picker = page.locator("#suit-picker [data-suit='s']")
            picker.tap() if tap else picker.click()
            tally.eights += 1
            wait_version_after(page, before)
            pretty = Card.parse(card).pretty()
            expect(page.locator("#log")).to_contain_text(f"{name} plays {pretty} and names ♠")
        else:
            wait_version_after(page, before)
            expect(page.locator("#log")).to_contain_text(f"{name} plays {Card.parse(card).pretty()}")
        assert len(hand(page)) == len(cards) - 1
        tally.plays += 1
        tally.by_seat[seat] = tally.by_seat.get(seat, 0) + 1
    else:
        assert page.locator("#draw").is_enabled()
        button = page.locator("#draw")
        button.tap() if tap else button.click()
        wait_version_after(page, before)
        expect(page.locator("#log")).to_contain_text(f"{name} draws 1 card")
        assert len(hand(page)) == len(cards) + 1
        tally.draws += 1


def test_two_people_and_two_bots_play_a_round_through_clicks(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    seed = seed_with_an_eight_and_a_draw()
    made = server.post("/api/tables", {"rules": "classic", "players": 4, "seed": seed,
                                       "bots": {"2": "greedy", "3": "greedy"}, "title": "Friday cards"})
    code, invite = made["code"], server.url + made["invite"]
    ana = person(browser, contexts)
    bob = person(browser, contexts, phone=True)
    # Ana holds the host token, as if she had created the table (the lobby test does that).
    host = json.dumps(made["host_token"])
    ana.context.add_init_script(f"localStorage.setItem('eights.host.{code}', {host})")
    join_by_link(ana, invite, "Ana")
    join_by_link(bob, invite, "Bob")
    expect(ana.locator("#start")).to_be_enabled()
    shot(ana, "waiting-room")
    ana.click("#start")

    tally = Tally()
    pages = {0: (ana, "Ana", False), 1: (bob, "Bob", True)}
    for turn in range(80):
        ana.wait_for_function("() => document.querySelector('#table').dataset.roundOver === 'true'"
                              " || document.querySelector('.pod.turn[data-seat=\"1\"], #me.turn')")
        if data(ana, "round-over") == "true":
            break
        seat = 0 if ana.locator("#me.turn").count() else 1
        page, name, tap = pages[seat]
        take_turn(page, name, tap=tap, tally=tally, seat=seat)
        if turn == 3:
            shot(ana, "table")
            shot(bob, "table-phone")
    else:
        pytest.fail("the round did not end")
    assert tally.eights >= 1 and tally.draws >= 1 and set(tally.by_seat) == {0, 1}, tally

    # Both see the summary: every hand shown, the points and the totals.
    for page in (ana, bob):
        expect(page.locator("#summary")).to_be_visible()
        expect(page.locator("#summary-title")).to_contain_text("Round 1 is over")
        expect(page.locator("#summary tbody tr")).to_have_count(4)
    shot(ana, "round-summary")
    totals = ana.eval_on_selector_all("#summary .total", "nodes => nodes.map(n => Number(n.textContent))")
    assert sum(totals) > 0
    # The log tells the round in words, bots' moves too; bots are counted as the terminal
    # counts them (the bot in seat 3 is the second bot).
    assert any(line.startswith("Bot 2 ") for line in log_lines(ana))
    expect(ana.locator("#summary tbody tr[data-seat='3'] th")).to_have_text("Bot 2")
    bob.click("#next-round")
    for page in (ana, bob):
        page.wait_for_selector("#table[data-round='2'][data-round-over='false']")
        expect(page.locator("#summary")).to_be_hidden()
    expect(ana.locator("#hand .card")).to_have_count(7)  # CL1: seven cards each up to four players
    no_errors(ana)
    no_errors(bob)


def test_the_lobby_creates_a_table_in_two_clicks(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    server.post("/api/tables", {"rules": "huit-americain", "players": 3, "title": "Soirée",
                                "bots": {"2": "expert"}, "name": "Zoé"})
    page = person(browser, contexts)
    page.goto(server.url + "/")
    expect(page.locator("#tables .table-item").first).to_be_visible()
    expect(page.locator("#tables")).to_contain_text("Soirée")
    shot(page, "lobby")
    page.click("#new-table")  # click 1
    expect(page.locator("#create-rules")).to_have_value("classic")
    expect(page.locator("#create-players")).to_have_value("4")
    expect(page.locator("#create-bots")).to_have_value("3")  # a full table by default
    shot(page, "lobby-create")
    page.select_option("#create-bots", "2")  # a seat left free for a friend
    page.fill("#create-name", "Ana")
    page.click("#create-submit")  # click 2
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    code = page.url.rsplit("/", 1)[1]
    expect(page.locator("#invite")).to_have_value(f"{server.url}/t/{code}")
    expect(page.locator(".seat-row[data-seat='0']")).to_contain_text("Ana")
    expect(page.locator(".seat-row[data-seat='0'] .badge.you")).to_be_visible()
    expect(page.locator(".seat-row.bot")).to_have_count(2)
    expect(page.locator("#start")).to_be_disabled()  # seat 1 is free
    shot(page, "table-waiting")
    table = server.get(f"/api/tables/{code}")
    assert [s["kind"] for s in table["seats"]] == ["person", "free", "bot", "bot"]
    assert table["seats"][0]["connected"]
    # The host fills the free seat with a bot and starts.
    page.click("#seat-bots")
    expect(page.locator("#start")).to_be_enabled()
    page.click("#start")
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    assert code in [t["code"] for t in server.get("/api/tables")["tables"]]
    no_errors(page)


def create_alone(page: Page, players: int = 2, timer: int | None = None) -> str:
    """Through the lobby: a table of one person and bots (it starts at once)."""
    page.click("#new-table")
    if timer is not None:
        expect(page.locator("#create-timer")).to_have_value("0")  # no timer unless chosen
        page.select_option("#create-timer", str(timer))
    page.select_option("#create-players", str(players))
    page.select_option("#create-bots", str(players - 1))
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    return page.url.rsplit("/", 1)[1]


def test_reload_and_a_network_drop_resume_the_seat(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts)
    page.goto(server.url + "/")
    code = create_alone(page)
    page.wait_for_selector("#table[data-my-turn='true']")
    cards, at = hand(page), version(page)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('eights.seat.{code}')).token")
    assert isinstance(token, str) and len(token) >= 32

    page.reload()
    page.wait_for_selector(f"#table[data-version='{at}'][data-my-turn='true']")
    assert hand(page) == cards
    expect(page.locator("#me")).to_contain_text("Ana")

    # The server drops the connection: the page says so, reconnects and plays on.
    page.wait_for_selector("#table[data-connections='1'][data-online='true']")
    server.drop_connections(code)
    page.wait_for_selector("#table[data-online='false']", state="attached")
    page.wait_for_selector("#table[data-connections='2'][data-online='true']", state="attached")
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#banner")).to_have_text("Reconnecting…")  # what it said meanwhile
    assert server.get(f"/api/tables/{code}")["seats"][0]["connected"]
    lit = playable(page)
    if lit:
        play_first_lit(page)
    else:
        page.click("#draw")
    wait_version_after(page, at)
    no_errors(page)


def test_the_french_page_is_in_french(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts, locale="fr-FR")
    page.goto(server.url + "/")
    expect(page.locator("#new-table")).to_have_text("Nouvelle table")
    expect(page.locator("#open-title")).to_have_text("Tables ouvertes")
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.click("#new-table")  # the rules' titles are in French too
    classic = translator("fr")(load_rules("classic").title)
    assert classic != load_rules("classic").title
    expect(page.locator("#create-rules option[value='classic']")).to_have_text(classic)
    page.click("#create-dialog button[value='cancel']")
    create_alone(page)
    page.wait_for_selector("#table[data-my-turn='true']")
    expect(page.locator("#draw")).to_contain_text("Piocher")
    expect(page.locator("#pass")).to_contain_text("Passer")
    labels = page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert all(re.search(r" de (trèfle|carreau|cœur|pique)|joker", label) for label in labels), labels
    lit = playable(page)
    before = version(page)
    if lit:
        page.click(f"#hand .card.playable[data-card='{lit[0]}']")
        if picker_opened(page, before):
            expect(page.locator("#picker-title")).to_have_text(
                translator("fr")("Name the suit to follow"))  # « demandez », not « annoncez »
            assert not page.locator("#picker-title").inner_text().startswith("Annonce")
            page.click("#suit-picker [data-suit='h']")
        wait_version_after(page, before)
        expect(page.locator("#log")).to_contain_text("Ana joue")
    else:
        page.click("#draw")
        wait_version_after(page, before)
        expect(page.locator("#log")).to_contain_text("Ana pioche")
    shot(page, "table-fr")
    no_errors(page)


def test_keyboard_play(server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts)
    page.goto(server.url + "/")
    create_alone(page, players=3)
    for _ in range(3):  # three turns, keys only
        page.wait_for_selector("#table[data-my-turn='true']")
        before, cards = version(page), hand(page)
        lit = playable(page)
        if not lit:
            page.keyboard.press("d")
            wait_version_after(page, before)
            assert len(hand(page)) == len(cards) + 1
            continue
        if not page.evaluate("document.activeElement.matches('#hand .card')"):
            for _ in range(40):  # Tab reaches the cards
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.matches('#hand .card')"):
                    break
            else:
                pytest.fail("Tab never reached the hand")
        page.keyboard.press("Home")
        for _ in range(len(cards)):
            if page.evaluate("document.activeElement.matches('.card.playable')"):
                break
            page.keyboard.press("ArrowRight")
        focused = page.evaluate("[document.activeElement.dataset.card, "
                                "document.activeElement.matches(':focus-visible'), "
                                "document.activeElement.getAttribute('aria-label')]")
        card, visible, label = focused
        assert card in lit and visible and label.endswith(", playable"), focused
        page.keyboard.press("Enter")
        if picker_opened(page, before):
            page.keyboard.press("c")
        wait_version_after(page, before)
        assert len(hand(page)) == len(cards) - 1
        if data(page, "round-over") == "true":
            break
        # The hand is drawn anew after every move; the focus stays on a card of it.
        page.wait_for_function("() => document.activeElement.matches('#hand .card')")
    no_errors(page)


def seat_alone(server: Server, browser: Browser, opened: list[BrowserContext],
               body: dict[str, Any], *, phone: bool = False) -> tuple[Page, str]:
    """A table made over HTTP with bots in every seat but 0; Ana joins by the link and starts it."""
    made = server.post("/api/tables", body)
    page = person(browser, opened, phone=phone)
    host = json.dumps(made["host_token"])
    page.context.add_init_script(f"localStorage.setItem('eights.host.{made['code']}', {host})")
    join_by_link(page, server.url + made["invite"], "Ana")
    page.click("#start")
    page.wait_for_selector("#table[data-my-turn='true']")
    return page, made["code"]


def first_seed(accept: Callable[[Game], bool], rules: str, overrides: dict[str, Any]) -> int:
    """The first seed whose deal (2 players, seat 0 to play) passes ``accept``."""
    for seed in range(1, 500):
        if accept(Game(load_rules(rules, overrides), 2, seed=seed, dealer=1)):
            return seed
    raise AssertionError("no seed found")  # pragma: no cover


def play_first_lit(page: Page) -> None:
    lit, before = playable(page), version(page)
    page.click(f"#hand .card.playable[data-card='{lit[0]}']")
    page.wait_for_function("v => document.querySelector('#suit-picker').open"
                           " || document.querySelector('#play-marked')"
                           " || Number(document.querySelector('#table').dataset.version) > v", arg=before)
    marked = page.locator("#play-marked")
    if marked.count():  # SW3: a card that may go down with others is marked, then played
        for _ in range(12):
            if marked.is_enabled():
                break
            more = page.locator("#hand .card.playable:not(.marked)")
            if more.count():
                more.first.click()
            else:  # the card marked last cannot be on top: mark the first marked one last
                first = page.locator("#hand .card.marked").first.get_attribute("data-card")
                page.click(f"#hand .card.marked[data-card='{first}']")
                page.click(f"#hand .card[data-card='{first}']:not(.marked)")
        marked.click()
    if picker_opened(page, before):
        page.click("#suit-picker [data-suit]:not([hidden])")


def test_the_announce_button_and_the_take_choice(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    # HA13 with two cards dealt: the first play leaves one card, so it may be announced.
    overrides = {"hand_size": 2}
    seed = first_seed(lambda g: any(a.announce for a in g.legal_actions()), "huit-americain", overrides)
    page, _code = seat_alone(server, browser, contexts, {
        "rules": "huit-americain", "players": 2, "bots": {"1": "greedy"}, "overrides": overrides,
        "seed": seed})
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#status")).to_contain_text("Announce your last card")
    page.keyboard.press("a")
    expect(announce).to_have_attribute("aria-pressed", "true")
    before = version(page)
    play_first_lit(page)
    wait_version_after(page, before)
    expect(page.locator("#log")).to_contain_text("Ana plays")
    expect(page.locator("#log")).to_contain_text("“last card!”")

    # LH5: after a play, take the top card of the stock, or not.
    seed = first_seed(lambda g: any(a.card is not None for a in g.legal_actions()), "les-huit", {})
    page, code = seat_alone(server, browser, contexts, {
        "rules": "les-huit", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    cards, before = len(hand(page)), version(page)
    play_first_lit(page)
    expect(page.locator("#take")).to_be_enabled()
    expect(page.locator("#status")).to_have_text("Take the top card of the stock?")
    assert len(hand(page)) == cards - 1 and not playable(page)
    shot(page, "take-choice")
    page.click("#take")
    wait_version_after(page, before + 1)
    expect(page.locator("#log")).to_contain_text("Ana takes the top card of the stock")
    assert len(hand(page)) == cards

    # Someone else with the link watches: no hand, no buttons, the same table.
    watcher = person(browser, contexts)
    watcher.goto(f"{server.url}/t/{code}")
    watcher.wait_for_selector("#table[data-status='playing'] #opponents .pod")
    expect(watcher.locator("#me")).to_contain_text("watching")
    expect(watcher.locator("#hand .card")).to_have_count(0)
    expect(watcher.locator("#actions button")).to_have_count(0)
    expect(watcher.locator("#opponents .pod")).to_have_count(2)
    no_errors(page)
    no_errors(watcher)


# --------------------------------------------------------------------------- issue 10: the table


def status_of(server: Server, path: str) -> int:
    """The HTTP status of a GET (an error status too)."""
    try:
        with urllib.request.urlopen(server.url + path, timeout=5) as answer:
            status: int = answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
    return status


def play_turn(page: Page) -> None:
    """One move through the page: the first highlighted card, else Draw, else Pass."""
    before = version(page)
    if playable(page):
        play_first_lit(page)
    elif page.locator("#draw").is_enabled():
        page.click("#draw")
    else:
        page.click("#pass")
    wait_version_after(page, before)


def play_until(page: Page, done: Callable[[], bool], turns: int = 120) -> None:
    """Ana plays her turns until ``done`` (the bots play theirs)."""
    for _ in range(turns):
        page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'"
                               " || document.querySelector('#table').dataset.roundOver === 'true'"
                               " || document.querySelector('#log').textContent.includes('Bot 1 ')")
        if done():
            return
        if data(page, "my-turn") == "true":
            play_turn(page)
    pytest.fail("never done")


def test_the_host_puts_a_bot_in_for_a_player_who_left_then_closes_the_table(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    made = server.post("/api/tables", {"rules": "classic", "players": 2})
    code, invite = made["code"], server.url + made["invite"]
    ana, bob = person(browser, contexts), person(browser, contexts)
    host = json.dumps(made["host_token"])
    ana.context.add_init_script(f"localStorage.setItem('eights.host.{code}', {host})")
    join_by_link(ana, invite, "Ana")
    join_by_link(bob, invite, "Bob")
    ana.click("#start")
    bob.wait_for_selector("#table[data-status='playing'] #hand .card")
    watcher = person(browser, contexts)
    watcher.goto(invite)
    watcher.wait_for_selector("#table[data-status='playing'] #opponents .pod")
    # Only the host sees the controls, and a connected player cannot be replaced.
    expect(ana.locator("#close-table")).to_be_visible()
    expect(bob.locator("#close-table")).to_be_hidden()
    expect(ana.locator("#bot-in-1")).to_have_count(0)

    bob.close()  # Bob leaves: the table would wait for him forever
    bot_in = ana.locator("#bot-in-1")
    expect(bot_in).to_be_visible()
    expect(ana.locator(".pod[data-seat='1']")).to_have_class(re.compile(r"\baway\b"))
    shot(ana, "host-bot-in")
    bot_in.click()
    expect(ana.locator(".pod[data-seat='1'] .name")).to_have_text("Bot 1")
    expect(ana.locator("#bot-in-1")).to_have_count(0)
    assert server.get(f"/api/tables/{code}")["seats"][1]["kind"] == "bot"
    # The game goes on: the bot moves in Bob's seat.
    play_until(ana, lambda: any(line.startswith("Bot 1 ") for line in log_lines(ana)))

    ana.click("#close-table")
    expect(ana.locator("#confirm-close")).to_be_visible()
    shot(ana, "host-close-confirm")
    ana.click("#confirm-close-yes")
    for page in (ana, watcher):
        expect(page.locator("#banner")).to_contain_text("The host closed the table.")
        page.wait_for_selector("#table[data-status='closed']", state="attached")
        assert page.evaluate("document.querySelector('#hand').inert")
    shot(watcher, "table-closed")
    assert status_of(server, f"/api/tables/{code}") == 409
    no_errors(ana)
    no_errors(watcher)


def test_the_lobby_sets_a_turn_timer_and_offers_to_resume_a_seat(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts)
    page.goto(server.url + "/")
    expect(page.locator("#brand-name")).to_be_hidden()  # the hero names the game once
    code = create_alone(page, timer=60)
    assert server.get(f"/api/tables/{code}")["turn_timer"] == 60
    page.wait_for_selector("#table[data-my-turn='true']")
    expect(page.locator("#status")).to_contain_text(re.compile(r"turn timer: \d+ s"))

    page.goto(server.url + "/")
    item = page.locator(f"#tables .table-item[data-code='{code}']")
    expect(item.locator("a")).to_have_text("Resume")
    expect(item).to_contain_text("2 players")
    expect(item).to_contain_text("60 s")
    assert item.inner_text().count("Eights") == 1  # the rules' title is said once
    shot(page, "lobby-resume")
    other = person(browser, contexts)
    other.goto(server.url + "/")
    expect(other.locator(f"#tables .table-item[data-code='{code}'] a")).to_have_text("Watch")
    item.locator("a").click()
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    expect(page.locator("#me")).to_contain_text("Ana")
    no_errors(page)
    no_errors(other)


def test_the_rules_panel_explains_the_table_in_english_and_in_french(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page, code = seat_alone(server, browser, contexts, {
        "rules": "huit-fou", "players": 3, "bots": {"1": "greedy", "2": "greedy"},
        "overrides": {"target": 30}})
    # Aces reverse here: the direction is shown.
    expect(page.locator("#direction-chip")).to_be_visible()
    expect(page.locator("#direction")).to_be_visible()
    page.click("#rules-button")  # one click
    panel = page.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("#rules-specials")).to_contain_text(
        "Aces: the direction of play reverses")
    expect(panel.locator("#rules-specials")).to_contain_text("Queens: the next player loses their turn")
    expect(panel.locator("#rules-wins")).to_have_text("Lowest total wins")
    expect(panel.locator("#rules-goal")).to_contain_text("reaches 30")
    expect(panel.locator("#rules-overrides")).to_contain_text("Target: 30")  # in words
    shot(page, "rules-panel")
    page.click("#rules-close")
    expect(panel).to_be_hidden()

    french = person(browser, contexts, locale="fr-FR", phone=True)
    french.goto(f"{server.url}/t/{code}")
    french.wait_for_selector("#table[data-status='playing'] #opponents .pod")
    french.tap("#rules-button")
    panel = french.locator("#rules-panel")
    expect(panel.locator("#rules-specials")).to_contain_text(
        re.compile(r"Les as\s?:\s?le sens du jeu s’inverse"))
    expect(panel.locator("#rules-wins")).to_have_text("Le plus petit total gagne")
    expect(panel.locator("h2")).to_contain_text("Huit fou")
    shot(french, "rules-panel-fr-phone")
    # Classic has no card that reverses: no direction there.
    other, _code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 3, "bots": {"1": "greedy", "2": "greedy"}})
    expect(other.locator("#direction-chip")).to_have_count(0)
    expect(other.locator("#direction")).to_be_hidden()
    no_errors(page)
    no_errors(french)


def test_the_round_summary_counts_the_points_and_a_reload_keeps_the_whole_log(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page, code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 2, "bots": {"1": "greedy"}, "overrides": {"hand_size": 2},
        "seed": 3})  # a fixed deal: the same story every run
    play_until(page, lambda: data(page, "round-over") == "true")
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    points = load_rules("classic").points
    values = []
    for seat in (0, 1):
        row = summary.locator(f"tbody tr[data-seat='{seat}']")
        cards = row.locator(".counted").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        value = sum(points[Card.parse(c).rank] for c in cards)
        expect(row.locator(".hand-value")).to_have_text(f"= {value}")
        values.append(value)
    out = 0 if values[0] == 0 else 1
    name = ["Ana", "Bot 1"][out]
    expect(page.locator("#summary-how")).to_have_text(
        f"{name} went out and scores the cards left in the other hands: {values[1 - out]}.")
    expect(summary.locator(f"tbody tr[data-seat='{out}'] .round-points")).to_have_text(
        f"+{values[1 - out]}" if values[1 - out] else "0")
    expect(page.locator("#summary-leader")).to_contain_text(f"Ahead: {name} with {values[1 - out]}.")
    expect(page.locator("#summary-leader")).to_contain_text("Highest total wins")
    shot(page, "round-summary-counted")
    phone = person(browser, contexts, phone=True)  # someone watching on a phone sees it too
    phone.goto(f"{server.url}/t/{code}")
    expect(phone.locator("#summary-how")).to_be_visible()
    shot(phone, "round-summary-phone")

    page.click("#next-round")
    page.wait_for_selector("#table[data-round='2'][data-round-over='false']")
    if data(page, "my-turn") == "true":
        play_turn(page)
    # the bot's move comes a moment later: read the log once it is Ana's turn again
    page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'"
                           " || document.querySelector('#table').dataset.roundOver === 'true'")
    lines, at = log_lines(page), version(page)
    assert lines[0] == "Dealt: round 1." and "Dealt: round 2." in lines, lines
    page.reload()
    page.wait_for_selector(f"#table[data-version='{at}']")
    assert log_lines(page) == lines
    # A spectator who comes later reads the same story.
    watcher = person(browser, contexts)
    watcher.goto(f"{server.url}/t/{code}")
    watcher.wait_for_selector(f"#table[data-version='{at}']")
    assert log_lines(watcher) == lines
    no_errors(page)


def test_a_forced_draw_in_huit_fou_says_to_play_the_card(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    # HF5: draw until a card can be played, then play it (no Pass).
    seed = first_seed(lambda g: [str(a) for a in g.legal_actions()] == ["draw"], "huit-fou", {})
    page, _code = seat_alone(server, browser, contexts, {
        "rules": "huit-fou", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    for _ in range(30):
        before = version(page)
        page.click("#draw")
        wait_version_after(page, before)
        if playable(page):
            break
    drawn = page.get_attribute("#hand .card.drawn", "data-card")
    assert drawn is not None and playable(page) == [drawn]
    expect(page.locator("#pass")).to_be_disabled()
    expect(page.locator("#status")).to_have_text(f"You drew {Card.parse(drawn).pretty()}: play it.")
    no_errors(page)


def test_while_reconnecting_the_banner_overlays_and_the_hand_is_inert(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page, code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 2, "bots": {"1": "greedy"}})
    page.wait_for_selector("#table[data-online='true']")
    box = page.locator("#hand").bounding_box()
    expect(page.locator("#draw kbd")).to_be_visible()  # a keyboard: the keys are shown
    down = [True]

    def network(ws: WebSocketRoute) -> None:
        if down[0]:
            ws.close()
        else:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), network)
    server.drop_connections(code)  # and the network is down: no reconnection yet
    page.wait_for_selector("#table[data-online='false']", state="attached")
    expect(page.locator("#banner")).to_have_text("Reconnecting…")
    assert page.locator("#hand").bounding_box() == box  # nothing moved
    assert page.evaluate("document.querySelector('#hand').inert")
    shot(page, "reconnecting")
    down[0] = False
    page.wait_for_selector("#table[data-online='true']", state="attached", timeout=20_000)
    assert not page.evaluate("document.querySelector('#hand').inert")
    expect(page.locator("#banner")).to_be_hidden()

    phone = person(browser, contexts, phone=True)
    phone.goto(f"{server.url}/t/{code}")
    phone.wait_for_selector("#table[data-status='playing']")
    expect(phone.locator("#draw kbd")).to_be_hidden()  # a touch screen: no keys
    expect(phone.locator(".keys")).to_be_hidden()


def seat_layout(page: Page) -> dict[int, dict[str, float]]:
    boxes: dict[int, dict[str, float]] = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#opponents .pod')].map(n => {"
        " const r = n.getBoundingClientRect(); return [n.dataset.seat, {x: r.x + r.width / 2,"
        " y: r.y + r.height / 2, left: r.left, right: r.right}]; }))")
    return {int(k): v for k, v in boxes.items()}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_seats_sit_around_the_table(
        server: Server, browser: Browser, contexts: list[BrowserContext], players: int) -> None:
    bots = {str(s): "greedy" for s in range(1, players)}
    page, code = seat_alone(server, browser, contexts, {"rules": "huit-fou", "players": players,
                                                         "bots": bots})
    shot(page, f"table-{players}p")
    centre = page.locator("#discard").bounding_box()
    felt = page.locator("#felt").bounding_box()
    assert centre is not None and felt is not None
    seats = seat_layout(page)
    assert sorted(seats) == list(range(1, players))
    middle = felt["x"] + felt["width"] / 2
    if players == 2:
        assert seats[1]["y"] < centre["y"] and abs(seats[1]["x"] - middle) < 30  # across
    if players == 4:  # the next player on the left, then across, then on the right
        assert seats[1]["right"] < centre["x"] < centre["x"] + centre["width"] < seats[3]["left"]
        assert seats[2]["y"] < min(seats[1]["y"], seats[3]["y"])
        assert abs(seats[2]["x"] - middle) < 30
    if players == 6:  # an arc from the left over the top to the right
        xs = [seats[s]["x"] for s in range(1, 6)]
        assert xs == sorted(xs)
        assert seats[3]["y"] < seats[2]["y"] < seats[1]["y"]
    # The same seat on a phone.
    token = page.evaluate(f"localStorage.getItem('eights.seat.{code}')")
    phone = person(browser, contexts, phone=True)
    phone.context.add_init_script(f"localStorage.setItem('eights.seat.{code}', {json.dumps(token)})")
    phone.goto(f"{server.url}/t/{code}")
    phone.wait_for_selector("#table[data-status='playing'] #hand .card")
    shot(phone, f"table-{players}p-phone")
    width = phone.viewport_size["width"] if phone.viewport_size else 390
    for box in seat_layout(phone).values():
        assert box["left"] >= 0 and box["right"] <= width  # every seat on the screen
    no_errors(page)
    no_errors(phone)


# --------------------------------------------------------------------------- issue 11: the family


def marked(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card.marked",
                                                 "nodes => nodes.map(n => n.dataset.card)")
    return cards


def history(server: Server, code: str) -> list[str]:
    return [str(a) for _seat, a in server.hub.rooms[code].game.history]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_sw3_several_cards_are_marked_by_clicks_and_played_together(
        server: Server, browser: Browser, contexts: list[BrowserContext], phone: bool) -> None:
    """SW3: the cards of one rank that may go down together are marked one by one (a click or
    a tap); the last marked is the top card; the Play button sends the canonical text."""
    seed = first_seed(lambda g: any(len(a.cards) == 3 for a in g.legal_actions()), "switch", {})
    game = Game(load_rules("switch"), 2, seed=seed, dealer=1)
    triple = next(a for a in game.legal_actions() if len(a.cards) == 3)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "switch", "players": 2, "bots": {"1": "greedy"}, "seed": seed}, phone=phone)
    first, second, third = (str(c) for c in sorted(triple.cards, key=str))
    click = page.tap if phone else page.click
    held = len(hand(page))
    assert {first, second, third} <= set(playable(page))
    expect(page.locator("#status")).to_contain_text("mark several of one rank")
    click(f"#hand .card[data-card='{first}']")
    assert marked(page) == [first] and version(page) == 0  # marked, not played
    expect(page.locator("#play-marked")).to_be_visible()
    click(f"#hand .card[data-card='{second}']")
    click(f"#hand .card[data-card='{second}']")  # a second click takes the mark off
    assert marked(page) == [first]
    for card in (third, second):
        click(f"#hand .card[data-card='{card}']")
    assert sorted(marked(page)) == sorted([first, second, third])
    # The last marked is on top; the others follow in card order (the canonical text).
    expect(page.locator(f"#hand .card.top-card[data-card='{second}']")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Marked:")
    wanted = str(Action.play_many([Card.parse(first), Card.parse(third), Card.parse(second)]))
    pretty = " ".join(Card.parse(c).pretty() for c in wanted.split("+"))
    expect(page.locator("#play-marked")).to_have_text(f"Play {pretty}")
    shot(page, f"multi-marked-{'phone' if phone else 'desktop'}")
    before = version(page)
    click("#play-marked")
    wait_version_after(page, before)
    assert history(server, code)[0] == wanted
    assert len(hand(page)) == held - 3 and not marked(page)
    page.wait_for_selector(f"#discard .top[data-card='{second}']")
    expect(page.locator("#log")).to_contain_text("Ana plays")
    no_errors(page)


def test_sw3_keys_mark_cards_and_enter_plays_them_with_that_card_on_top(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    seed = first_seed(lambda g: any(len(a.cards) == 2 for a in g.legal_actions()), "switch", {})
    game = Game(load_rules("switch"), 2, seed=seed, dealer=1)
    pair = next(a for a in game.legal_actions() if len(a.cards) == 2)
    under, top = (str(c) for c in pair.cards)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "switch", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    cards = hand(page)
    page.focus(f"#hand .card[data-card='{under}']")
    page.keyboard.press("m")
    assert marked(page) == [under]
    page.keyboard.press("Escape")
    assert marked(page) == []
    page.focus(f"#hand .card[data-card='{under}']")
    page.keyboard.press("m")
    for _ in range(abs(cards.index(top) - cards.index(under))):
        page.keyboard.press("ArrowRight" if cards.index(top) > cards.index(under) else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == top
    before = version(page)
    page.keyboard.press("Enter")
    wait_version_after(page, before)
    assert history(server, code)[0] == str(pair)
    no_errors(page)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_uc3_the_first_player_names_the_suit_of_a_wild_starter(
        server: Server, browser: Browser, contexts: list[BrowserContext], phone: bool) -> None:
    """UC3: on a starter joker the suit picker opens by itself; the first player names the
    suit (=h), then takes their turn. Closed, it comes back with the button or the n key."""
    seed = first_seed(lambda g: g.naming and g.to_play == 0, "uno-cards", {})
    page, code = seat_alone(server, browser, contexts, {
        "rules": "uno-cards", "players": 2, "bots": {"1": "greedy"}, "seed": seed}, phone=phone)
    picker = page.locator("#suit-picker")
    expect(picker).to_be_visible()
    expect(picker.locator(".picker-hint")).to_contain_text("is wild: name the suit to follow.")
    expect(page.locator("#status")).to_contain_text("is wild: name the suit to follow.")
    assert playable(page) == [] and page.locator("#draw").is_disabled()
    shot(page, f"starter-naming-{'phone' if phone else 'desktop'}")
    if phone:
        page.tap("#suit-picker [data-suit='h']")
    else:
        page.keyboard.press("Escape")
        expect(picker).to_be_hidden()
        page.click("#name-suit")
        expect(picker).to_be_visible()
        page.keyboard.press("Escape")
        page.keyboard.press("n")
        expect(picker).to_be_visible()
        page.keyboard.press("h")
    page.wait_for_selector("#named-suit[data-suit='h']")
    assert history(server, code)[0] == "=h"
    expect(page.locator("#name-suit")).to_have_count(0)
    page.wait_for_selector("#table[data-my-turn='true']")  # then Ana plays her turn
    assert not page.evaluate("document.querySelector('#suit-picker').open")
    no_errors(page)


def test_ts11_players_out_show_their_place_and_the_summary_the_placings(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """TS11, TS12: under play_on a player who goes out (with the call, TS10) shows their
    place; the round summary lists the placings and the points, place minus one."""
    page, code = seat_alone(server, browser, contexts, {
        "rules": "tschau-sepp", "players": 3, "bots": {"1": "greedy", "2": "greedy"},
        "seed": 4})
    seen_place = False
    for _ in range(200):
        page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'"
                               " || document.querySelector('#table').dataset.roundOver === 'true'")
        seen_place = seen_place or page.locator("#opponents .pod[data-place], #my-place").count() > 0
        if data(page, "round-over") == "true":
            break
        if page.locator("#announce[aria-pressed='false']").count():
            page.click("#announce")  # TS10: the calls
        if page.locator("#suit-picker").evaluate("d => d.open"):
            page.click("#suit-picker [data-suit]:not([hidden])")
            page.wait_for_selector("#table[data-my-turn='false'], #table[data-round-over='true']",
                                   state="attached")
            continue
        play_turn(page)
        if page.locator("#opponents .pod[data-place]").count() and not seen_place:
            seen_place = True
            shot(page, "play-on-out")
    else:
        pytest.fail("the round never ended")
    game = server.hub.rooms[code].game
    finished = list(game.finished)
    assert finished and seen_place
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    names = ["Ana", "Bot 1", "Bot 2"]
    expect(page.locator("#summary-placings")).to_contain_text(f"1. {names[finished[0]]}")
    expect(page.locator("#summary-how")).to_have_text(
        "Each player scores their place minus one: 0 for the first out, 2 for the last.")
    for seat, points in enumerate(game.round_points or ()):
        row = summary.locator(f"tbody tr[data-seat='{seat}']")
        expect(row.locator(".place")).to_have_text(str(points + 1))
    expect(page.locator("#summary-leader")).to_contain_text("Lowest total wins")
    shot(page, "play-on-summary")
    no_errors(page)


def test_the_lobby_offers_every_preset_and_a_family_table_says_its_goal(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """Every preset is in the lobby's list (the family too); a Switch table counts its goal in
    rounds won (SW11), in the singular for one."""
    page = person(browser, contexts)
    page.goto(server.url + "/")
    page.click("#new-table")
    options = page.eval_on_selector_all("#create-rules option", "nodes => nodes.map(n => n.value)")
    assert sorted(options) == sorted(preset_names())
    assert {"mau-mau", "switch", "black-jack", "last-card", "pesten", "tschau-sepp",
            "uno-cards"} <= set(options)
    page.select_option("#create-rules", "tschau-sepp")
    expect(page.locator("#create-players")).to_have_value("4")
    page.select_option("#create-rules", "switch")
    page.select_option("#create-players", "2")
    page.select_option("#create-bots", "1")
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    expect(page.locator("#side .scores")).to_contain_text("Match: the first to win 1 round")
    no_errors(page)


def test_sw3_ts11_the_french_page_says_the_new_moves_in_french(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    seed = first_seed(lambda g: any(len(a.cards) == 2 for a in g.legal_actions()), "switch", {})
    made = server.post("/api/tables", {"rules": "switch", "players": 2, "bots": {"1": "greedy"},
                                       "seed": seed})
    page = person(browser, contexts, phone=True, locale="fr-FR")
    page.context.add_init_script(
        f"localStorage.setItem('eights.host.{made['code']}', {json.dumps(made['host_token'])})")
    page.goto(server.url + made["invite"])
    page.fill("#join-name", "Ana")
    page.tap("#join")
    page.tap("#start")
    page.wait_for_selector("#table[data-my-turn='true']")
    pair = next(a for a in Game(load_rules("switch"), 2, seed=seed, dealer=1).legal_actions()
                if len(a.cards) == 2)
    expect(page.locator("#status")).to_contain_text("choisissez-en plusieurs de même valeur")
    for card in pair.cards:
        page.tap(f"#hand .card[data-card='{card}']")
    expect(page.locator("#play-marked")).to_contain_text("Jouer")
    expect(page.locator("#status")).to_contain_text("Choisies")
    shot(page, "multi-marked-fr-phone")
    before = version(page)
    page.tap("#play-marked")
    wait_version_after(page, before)
    assert history(server, made["code"])[0] == str(pair)
    no_errors(page)


def test_mm5_a_skip_is_passed_on_or_accepted(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """MM5's toggle (``cards.8.pass_on``): skipped by an 8, Ana may pass the skip on with an 8
    (a highlighted card) or accept it (the Pass button says so)."""
    overrides = {"cards.8.pass_on": True}
    rules = load_rules("mau-mau", overrides)

    def skipped(seed: int) -> bool:  # Ana draws; the bot (greedy) answers with an 8; Ana holds one
        game = Game(rules, 2, seed=seed, dealer=1)
        if DRAW not in game.legal_actions():
            return False
        game.apply(DRAW)
        if game.to_play != 1:
            return False
        game.apply(GreedyBot().choose(game.observe(1), game.legal_actions(), random.Random(0)))
        return game.to_play == 0 and bool(game.skip_due) and len(game.legal_actions()) > 1

    seed = next(s for s in range(1, 3000) if skipped(s))
    page, code = seat_alone(server, browser, contexts, {
        "rules": "mau-mau", "players": 2, "bots": {"1": "greedy"}, "overrides": overrides,
        "seed": seed})
    before = version(page)
    page.click("#draw")
    page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {before + 1}"
                           " && document.querySelector('#table').dataset.myTurn === 'true'")
    expect(page.locator("#status")).to_contain_text("skips you: pass the skip on with a card of its rank")
    expect(page.locator("#pass")).to_have_text(re.compile(r"^Accept the skip"))
    eights = playable(page)
    assert eights and all(card[0] == "8" for card in eights)
    shot(page, "skip-due")
    before = version(page)
    page.click(f"#hand .card.playable[data-card='{eights[0]}']")  # passed on: the bot is skipped
    wait_version_after(page, before)
    moves = history(server, code)
    assert moves[0] == "draw" and moves[1][0] == "8" and moves[2] == eights[0]
    no_errors(page)


def test_sw8_two_aces_name_one_suit_with_the_picker(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """SW3, SW8: a play of several wild cards names one suit: the Play button opens the suit
    picker, which shows the cards played; the action is written Ah+Ad=c (the top card last)."""
    def aces(game: Game) -> bool:
        return any(len(a.cards) == 2 and a.suit is not None for a in game.legal_actions())

    seed = first_seed(aces, "switch", {})
    game = Game(load_rules("switch"), 2, seed=seed, dealer=1)
    pair = next(a for a in game.legal_actions() if len(a.cards) == 2 and a.suit is not None)
    under, top = (str(c) for c in pair.cards)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "switch", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    page.click(f"#hand .card[data-card='{under}']")
    page.click(f"#hand .card[data-card='{top}']")
    page.click("#play-marked")
    picker = page.locator("#suit-picker")
    expect(picker).to_be_visible()
    pretty = f"{Card.parse(under).pretty()} {Card.parse(top).pretty()}"
    expect(picker.locator(".picker-hint")).to_have_text(f"You play {pretty}: name the suit to follow.")
    shot(page, "multi-wild-picker")
    before = version(page)
    page.click("#suit-picker [data-suit='c']")
    wait_version_after(page, before)
    assert history(server, code)[0] == f"{under}+{top}=c"
    no_errors(page)


def test_sw3_the_page_reads_plays_of_several_cards_from_their_text(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """static/plays.js: the cards of a play, the cards that may go together, the plays of the
    marked cards (the card marked last on top, and none when the rules refuse it there: then
    the cards that may be on top), two decks' twin cards, calls."""
    page = person(browser, contexts)
    page.goto(server.url + "/")
    got = page.evaluate("""async () => {
      const p = await import("/static/plays.js");
      return {
        cards: [p.cardsOf("7c+7h=s!"), p.cardsOf("=s"), p.cardsOf("draw"), p.cardOf("8h=s!"),
                p.cardOf("7c+7h"), p.cardOf("pass")],
        group: [...p.groupable(["7c+7h", "7h+7c", "Kh", "draw"])].sort(),
        top: p.playsOfCards(["7c+7h", "7h+7c", "Kh"], ["7h", "7c"], false),
        onlyTop: [p.playsOfCards(["7h+7c"], ["7c", "7h"], false), p.topsOfCards(["7h+7c"], ["7c", "7h"])],
        twins: p.playsOfCards(["7h+7h+7s", "7h+7s+7h"], ["7h", "7s", "7h"], false),
        join: [p.canJoin(["7h+7h+7s"], ["7h"], "7h"), p.canJoin(["7h+7s"], ["7h"], "7h"),
               p.canJoin(["7h+7s", "Kh"], [], "Kh")],
        suits: p.playsOfCards(["Ah+Ad=c", "Ah+Ad=d", "Ad+Ah=c"], ["Ah", "Ad"], false),
        calls: [p.withCall(["7c!", "7c"], true), p.withCall(["7c!", "7c"], false),
                p.withCall(["7c!"], false), p.playsOfCards(["7c+7h!", "7c+7h"], ["7c", "7h"], true)],
        none: p.playsOfCards(["7c+7h"], ["7c"], false),
      };
    }""")
    assert got == {
        "cards": [["7c", "7h"], [], [], "8h", "7h", None],
        "group": ["7c", "7h"],
        "top": ["7h+7c"],
        "onlyTop": [[], ["7c"]],  # 7h was marked last and cannot be on top: nothing is played
        "twins": ["7h+7s+7h"],
        "join": [True, False, True],
        "suits": ["Ah+Ad=c", "Ah+Ad=d"],
        "calls": [["7c!"], ["7c"], ["7c!"], ["7c+7h!"]],
        "none": [],
    }
    no_errors(page)
