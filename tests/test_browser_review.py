"""The review of a round in the browser: "Review my play" on the round's summary and on a
finished table's record page, in English and French, with no "null", "undefined" or "NaN";
a spectator is offered nothing to review.

The browser is that of ``test_browser.py``; the server is its server with the reviews in a
thread and on few worlds (a review in its low-priority process would wait for the CPU of a
busy test machine).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserContext, expect

from eights.engine.record import load_record
from eights.i18n import translator
from eights.i18n.advice import meaning_words, move_words
from eights.i18n.text import card_words
from eights.lab.review import MARKS, positions
from eights.server import Limits, create_app
from eights.server.review import ReviewLimits
from test_browser import Server, browser, contexts, person, seat_alone, shot
from test_browser_screens import MATCH_OVER, clean, until

__all__ = ["browser", "contexts"]  # the fixtures, imported from test_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """test_browser's server, its reviews in a thread on 8 worlds a decision."""
    db = tmp_path_factory.mktemp("browser-review") / "server.sqlite3"
    limits = Limits(tables_per_address=100, requests_per_second=100.0, request_burst=200)
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, limits=limits, testing_fixed_seeds=True,
                     bot_pool="threads")
    app.state.reviewer.limits = ReviewLimits(worlds=8)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    uv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
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


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_review_my_play_after_the_round_and_from_the_record_page(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str) -> None:
    _ = translator(lang)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 2, "bots": {"1": "expert"}, "seed": 4,
        "overrides": {"hand_size": 4, "rounds": 1}})
    page.evaluate(f"localStorage.setItem('eights.lang', '{lang}')")
    page.reload()
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    until(page, MATCH_OVER)
    expect(page.locator("#summary")).to_be_visible()
    button = page.locator("#review-round-1")
    expect(button).to_have_text(_("Review my play"))
    button.click()
    panel = page.locator("#review-1")
    expect(panel.locator(".review-summary")).to_be_visible(timeout=60_000)
    expect(panel.locator("h3")).to_have_text(_("Your play in round {n}", n=1))
    marks = panel.locator(".review-decision").evaluate_all(
        "items => items.map(i => i.dataset.mark)")
    assert marks and set(marks) <= set(MARKS)
    expect(panel.locator(".review-mark").first).not_to_be_empty()
    clean(page, "review-panel", lang)

    page.click("#record-link")
    page.wait_for_selector("#record-page")
    expect(page.locator("#record-page h2")).to_have_text(_("Record of table {code}", code=code))
    page.click("#review-round-1")
    expect(page.locator("#review-1 .review-summary")).to_be_visible(timeout=60_000)
    clean(page, "record-page-review", lang)

    watcher = person(browser, contexts, locale="fr-FR" if lang == "fr" else "en-GB")
    watcher.goto(f"{server.url}/t/{code}/record")
    watcher.wait_for_selector("#record-page")
    expect(watcher.locator(".review-button")).to_have_count(0)
    expect(watcher.locator("#record-page")).to_contain_text(
        translator(lang)("Only the players of this table can review their play."))


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("fr", True)])
def test_each_decision_shows_the_position_as_the_person_saw_it(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str,
        phone: bool) -> None:
    """Each decision is the person's own move ("your 2nd move, round 1"), opened on the
    position as their seat saw it (their hand, the up-card and the suit to follow, every
    seat's card count, checked against the record's own replay), every option in lines with
    what a percentage is; on a desktop and on a phone (390x844), in English and French."""
    _ = translator(lang)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 3, "bots": {"1": "expert", "2": "greedy"}, "seed": 7,
        "overrides": {"hand_size": 5, "rounds": 1}}, phone=phone)
    page.evaluate(f"localStorage.setItem('eights.lang', '{lang}')")
    page.reload()
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    until(page, MATCH_OVER)
    with page.expect_response(lambda r: r.url.endswith(f"/api/tables/{code}/review"),
                              timeout=60_000) as asked:
        page.locator("#review-round-1").click()
    answer = asked.value.json()
    panel = page.locator("#review-1")
    expect(panel.locator(".review-summary")).to_be_visible(timeout=60_000)
    expect(panel.locator(".review-meaning")).to_have_text(meaning_words(_))
    record = load_record(server.get(f"/api/tables/{code}/record"))
    seen = {(p.round, p.turn): p for p in positions(record, [0], [1])}
    decisions = panel.locator(".review-decision")
    assert decisions.count() == len(answer["decisions"]) == len(seen) > 0
    for k, d in enumerate(answer["decisions"]):
        position = seen[(d["round"], d["turn"])]
        view = position.observation
        assert d["move"] == position.move and d["where"] == move_words(position.move, 1, _)
        assert d["position"]["hand"] == [str(c) for c in view.hand]
        assert d["position"]["hand_sizes"] == list(view.hand_sizes)
        assert "hands" not in d["position"] and "revealed" not in d["position"]
        item = decisions.nth(k)
        expect(item.locator(".review-where")).to_have_text(d["where"])
        if not item.locator("details").evaluate("e => e.open"):
            item.locator("summary").click()
        shown = item.locator(".review-hand .review-card").evaluate_all(
            "cards => cards.map(c => c.getAttribute('aria-label'))")
        assert shown == [card_words(c, _) for c in view.hand]
        expect(item.locator(".review-up")).to_contain_text(card_words(view.up_card, _))
        expect(item.locator(".review-counts li")).to_have_count(view.players + 1)
        expect(item.locator(".review-counts .review-me")).to_contain_text(
            _.plural("{n} card", "{n} cards", len(view.hand)))
        lines = item.locator(".review-line")
        expect(lines).to_have_count(len(d["lines"]))
        expect(lines.first).to_contain_text("1. ")
    clean(page, f"review-position-{'phone' if phone else 'desktop'}", lang)
    worst = next((k for k, d in enumerate(answer["decisions"]) if d["mistake"]), 0)
    decisions.nth(worst).scroll_into_view_if_needed()
    shot(page, f"review-decision-{lang}-{'phone' if phone else 'desktop'}")
