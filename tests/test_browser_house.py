"""House rules, the lobby and practice in the browser (issue 34), driven in Debian's chromium.

One scenario walks what a player does: the New table form with five rules changed (one a
list, ``not_on``) and a target, the rules in words following each toggle, a bad combination
refused beside its field before anything is sent; a round against learned bots with a hint
and an undo (practice: one person and bots), both seen in the review; the rules panel, the
lobby's badge with the changes in words, a rematch with the same rules; a TOML file loaded
into the form; and a table of two people, where hint and undo are absent. A second test
walks the same screens on a phone and in French: a shared link opens the form filled in,
house rules kept by name come back, the lobby's badge opens on a tap.

The browser is that of ``test_browser.py``; the server is its server with bots, hints and
reviews in threads, a hint and a review on few worlds (their search is tested in
``test_review.py``). Screenshots go to ``$EIGHTS_ARTIFACTS`` as ``house-*.png``.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, FilePayload, Page, Route, expect

from eights.engine.game import Game
from eights.i18n import translator
from eights.i18n.explain import describe
from eights.server import Limits, create_app
from eights.server.house import house_rules
from eights.server.review import ReviewLimits
from test_browser import (
    Server,
    browser,
    contexts,
    hand,
    join_by_link,
    no_errors,
    person,
    play_turn,
    seat_alone,
    serving,
    shot,
    version,
    wait_version_after,
)
from test_browser_screens import MATCH_OVER, clean, until

__all__ = ["browser", "contexts"]  # the fixtures, imported from test_browser

HOUSE_TOML = """\
extends = "switch"
title = "Kitchen Switch"
hand_size = 6
[cards.Q]
skip = true
"""

MY_TURN = "document.querySelector('#table').dataset.myTurn === 'true'"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """test_browser's server, with its bots, hints and reviews in threads on few worlds."""
    db = tmp_path_factory.mktemp("browser-house") / "server.sqlite3"
    limits = Limits(tables_per_address=100, requests_per_second=100.0, request_burst=200)
    app = create_app(f"sqlite:///{db}", bot_delay=0.0, limits=limits, testing_fixed_seeds=True,
                     bot_pool="threads")
    app.state.reviewer.limits = ReviewLimits(worlds=8)
    app.state.hub.thinker.hint_worlds = 16
    with serving(app) as served:
        yield served


def words(page: Page) -> str:
    text = page.locator("#house-words").text_content() or ""
    return text


def change(page: Page, selector: str, action: str, value: str = "") -> None:
    """Change one field of the house rules and wait for the server's check of it."""
    checks = "Number(document.querySelector('#house-rules').dataset.checks || 0)"
    before = page.evaluate(f"() => {checks}")
    field = page.locator(selector)
    if action == "check":
        field.click()
    elif action == "fill":
        field.fill(value)
        field.dispatch_event("change")
    elif action == "select":
        field.select_option(value)
    else:
        field.click()
    page.wait_for_function(f"() => {checks} > {before}")


FORM_HOUSE = {"extends": "classic", "hand_size": 5, "voluntary_draw": False, "target": 1,
              "cards": {"Q": {"skip": True}, "A": {"reverse": True}, "8": {"not_on": ["2"]}}}
"""What the form makes below: five rules changed from classic (one a list) and a target."""


def seeded(page: Page, seed: int) -> None:
    """The table the page makes is dealt from ``seed`` (a testing server takes one): the
    form's request gets it on its way."""
    def add_seed(route: Route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))
    page.route("**/api/tables", add_seed)


def test_a_house_rules_table_from_the_form_with_hint_undo_review_badge_and_rematch(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    rules = house_rules(FORM_HOUSE)
    seed = next(s for s in range(1, 500)  # Ana (seat 0) has a choice at her first turn
                if len(Game(rules, 3, seed=s, dealer=2).legal_actions()) > 1)
    page = person(browser, contexts)
    seeded(page, seed)
    page.goto(server.url + "/")
    page.click("#new-table")
    page.click("#house-rules > summary")
    expect(page.locator("#house-words")).to_contain_text("Players: 2 to 10")  # classic's words
    page.select_option("#create-players", "3")
    page.select_option("#create-level", "learned")  # the family model plays any house rules
    for group in ("dealing", "drawing"):  # special cards and the end are open already
        page.click(f".house-group[data-group='{group}'] > summary")
    # A bad combination: a joker without a rule says so beside the field, before sending.
    change(page, "#house-jokers", "fill", "1")
    expect(page.locator("[data-key='jokers'] .field-error")).to_contain_text(
        "unless [cards.X] says what a joker does")
    expect(page.locator("#create-submit")).to_be_disabled()
    shot(page, "house-form-error-en-desktop")
    change(page, "#house-jokers", "fill", "0")
    expect(page.locator("[data-key='jokers'] .field-error")).to_be_hidden()
    # Five rules changed, one a list (8s may not cover a 2), and a target.
    change(page, "#house-hand_size", "fill", "5")
    change(page, "#house-voluntary_draw", "check")
    said = words(page)
    page.select_option("#house-card", "Q")
    change(page, "#house-card-skip", "check")
    assert words(page) != said  # the rules in words follow the toggle
    expect(page.locator("#house-words")).to_contain_text("Queens: the next player loses their turn")
    expect(page.locator("#house-card-words")).to_have_text("Queens: the next player loses their turn.")
    page.select_option("#house-card", "A")
    change(page, "#house-card-reverse", "check")
    page.select_option("#house-card", "8")
    change(page, "#house-card-not_on [data-rank='2']", "click")
    change(page, "#house-target", "fill", "1")
    expect(page.locator("#house-count")).to_have_text("6 changes")
    expect(page.locator("#house-changes")).to_contain_text("8s · Not on: 2")
    expect(page.locator("#create-submit")).to_be_enabled()
    shot(page, "house-form-en-desktop")
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    code = page.url.rsplit("/", 1)[1]
    room = server.hub.rooms[code]
    house = room.house
    assert house == FORM_HOUSE and room.seed == seed
    assert [s.bot_spec for s in room.seats] == [None, "learned", "learned"]

    # The lobby, from another browser: a badge, and the changes in words on hover.
    other = person(browser, contexts)
    other.goto(server.url + "/")
    badge = other.locator(f".table-item[data-code='{code}'] .house-badge")
    expect(other.locator(f".table-item[data-code='{code}']")).to_contain_text("(Learned)")
    badge.hover()
    popup = other.locator(f"#house-{code}")
    expect(popup).to_be_visible()
    expect(popup).to_contain_text("Cards dealt: 5")
    shot(other, "house-lobby-badge-en-desktop")

    # Practice: a hint (at a decision with a choice), then a move taken back.
    for _turn in range(40):
        page.wait_for_function(MY_TURN)
        if page.locator("#hint").is_enabled():
            break
        play_turn(page)
    page.click("#hint")
    expect(page.locator("#hint-line")).to_contain_text(
        "Hint, your chance to win the round after each move", timeout=120_000)
    expect(page.locator("#hand .card.hinted, #actions .action.hinted")).to_have_count(1)
    shot(page, "house-hint-en-desktop")
    cards, before = hand(page), version(page)
    play_turn(page)
    page.wait_for_function(f"() => ({MY_TURN}) || document.querySelector('#table')"
                           ".dataset.roundOver === 'true'")
    moved = version(page)  # the bots have answered: five cards each, nobody is out
    page.click("#undo")
    wait_version_after(page, moved)
    assert hand(page) == cards and version(page) > before  # back, and the version goes on
    # The round to its end; the rules panel says the house rules in words, and as a file.
    page.click("#rules-button")
    expect(page.locator("#rules-overrides")).to_contain_text("Cards dealt: 5")
    page.click("#rules-file > summary")
    expect(page.locator("#rules-toml")).to_contain_text('not_on = ["2"]')
    shot(page, "house-rules-panel-en-desktop")
    page.click("#rules-close")
    until(page, MATCH_OVER)
    assert room.meta["hints"] and room.meta.get("undos")
    page.click("#review-round-1")
    note = page.locator("#review-practice-1")
    expect(note).to_contain_text("You asked for 1 hint this round.", timeout=120_000)
    expect(note).to_contain_text("You took back")
    expect(page.locator("#review-1 .review-hinted")).to_have_count(1)
    shot(page, "house-review-en-desktop")
    # A rematch keeps the rules.
    page.click("#rematch")
    page.wait_for_url(lambda url: code not in url)
    again = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#table[data-status='playing']")
    assert server.hub.rooms[again].house == house

    # A TOML file loaded into the form: its preset is chosen, its rules shown.
    other.click("#new-table")
    other.click("#house-rules > summary")
    toml: FilePayload = {"name": "house.toml", "mimeType": "text/plain",
                         "buffer": HOUSE_TOML.encode()}
    other.set_input_files("#house-file", files=[toml])
    expect(other.locator("#create-rules")).to_have_value("switch")
    expect(other.locator("#house-changes")).to_contain_text("Title: Kitchen Switch")
    expect(other.locator("#house-hand_size")).to_have_value("6")

    # Two people at a table: no hint, no undo.
    made = server.post("/api/tables", {"rules": "classic", "players": 3, "seed": 4,
                                       "bots": {"2": "greedy"}})
    ana, bob = person(browser, contexts), person(browser, contexts)
    host = json.dumps(made["host_token"])
    ana.context.add_init_script(f"localStorage.setItem('eights.host.{made['code']}', {host})")
    join_by_link(ana, server.url + made["invite"], "Ana")
    join_by_link(bob, server.url + made["invite"], "Bob")
    ana.click("#start")
    for person_page in (ana, bob):
        person_page.wait_for_selector("#table[data-status='playing'] #hand .card")
        expect(person_page.locator("#hint")).to_have_count(0)
        expect(person_page.locator("#undo")).to_have_count(0)
    for p in (page, other, ana, bob):
        no_errors(p)


def link_to(house: dict[str, object]) -> str:
    text = base64.urlsafe_b64encode(json.dumps(house).encode()).decode().rstrip("=")
    return f"/#rules={text}"


@pytest.mark.parametrize(("lang", "phone"), [("fr", True), ("fr", False)],
                         ids=["fr-phone", "fr-desktop"])
def test_the_house_rules_screens_on_a_phone_and_in_french(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str,
        phone: bool) -> None:
    _ = translator(lang)
    where = f"{lang}-{'phone' if phone else 'desktop'}"
    made = server.post("/api/tables", {"rules": {"extends": "crazy-eights", "hand_size": 6,
                                                 "cards": {"Q": {"skip": True}}, "target": 50},
                                       "players": 3, "bots": {"2": "expert"}})
    page = person(browser, contexts, phone=phone, locale="fr-FR" if lang == "fr" else "en-GB")
    page.goto(server.url + "/")
    badge = page.locator(f".table-item[data-code='{made['code']}'] .house-badge")
    badge.tap() if phone else badge.click()
    popup = page.locator(f"#house-{made['code']}")
    expect(popup).to_contain_text(_("{label}: {value}", label=_("Cards dealt"), value="6"))
    clean(page, f"house-lobby-{where}", lang)

    # A link opens the form with its house rules filled in; kept by name, they come back.
    page.goto(server.url + link_to({"extends": "switch", "hand_size": 5, "target": 3}))
    page.reload()  # the same page at another fragment: open it anew
    expect(page.locator("#create-dialog")).to_be_visible()
    expect(page.locator("#create-rules")).to_have_value("switch")
    expect(page.locator("#house-hand_size")).to_have_value("5")
    linked = house_rules({"extends": "switch", "hand_size": 5, "target": 3})
    expect(page.locator("#house-words")).to_contain_text(describe(linked, _)[-1])
    clean(page, f"house-form-{where}", lang)
    page.fill("#house-name", "Five cards")
    page.click("#house-save")
    page.goto(server.url + "/")
    page.click("#new-table")
    page.click("#house-rules > summary")
    page.select_option("#house-saved", "Five cards")
    expect(page.locator("#house-hand_size")).to_have_value("5")
    expect(page.locator("#create-rules")).to_have_value("switch")

    # A practice table: the hint and undo buttons, and the table's settings.
    table, _code = seat_alone(server, browser, contexts, {
        "rules": {"extends": "classic", "hand_size": 5, "rounds": 1}, "players": 2,
        "bots": {"1": "greedy"}, "seed": 8}, phone=phone)
    table.evaluate(f"localStorage.setItem('eights.lang', '{lang}')")
    table.reload()
    table.wait_for_selector("#table[data-my-turn='true']")
    table.click("#deck-toggle")
    expect(table.locator("body")).to_have_class(re.compile(r"\bdeck-four\b"))
    table.click("#sound-toggle")
    expect(table.locator("#sound-toggle")).to_have_attribute("aria-pressed", "true")
    hint = table.locator("#hint")
    hint.tap() if phone else hint.click()
    said = _("Hint, your chance to win the round after each move: {options}", options="")
    expect(table.locator("#hint-line")).to_contain_text(said.split(":")[0].rstrip("\u00a0 "),
                                                        timeout=120_000)
    clean(table, f"house-practice-{where}", lang)
    play_turn(table)  # a sound for the move (sounds are on)
    table.wait_for_function("() => Boolean(document.body.dataset.lastSound)")
    no_errors(page)
    no_errors(table)
