"""The browser page's screens, walked end to end (issue 21: the first hour, second pass).

Every screen the browser tests reach is checked, in English and in French, for the text a
script leaves behind when a value is missing ("null", "undefined", "NaN"), in what is shown
and in the labels a screen reader says. Then the parts a new player meets first: the
new-table form (each preset's whole range of players, every bot the server seats), the
names of bots (as the terminal says them), a free seat in the lobby, what Space does (as
the key help says), and a rematch at the end of a match.

The server and the browser are those of ``test_browser.py`` (its fixtures and helpers).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from eights.engine.game import Game
from eights.engine.rules import load_rules, preset_names
from eights.i18n import translator
from eights.i18n.text import level_words
from eights.server.app import LEVELS
from test_browser import (
    Server,
    browser,
    contexts,
    data,
    first_seed,
    hand,
    history,
    join_by_link,
    marked,
    person,
    picker_opened,
    play_turn,
    seat_alone,
    server,
    shot,
    version,
    wait_version_after,
)

__all__ = ["browser", "contexts", "server"]  # the fixtures, imported from test_browser

LOCALES = {"en": "en-GB", "fr": "fr-FR"}
MISSING = re.compile(r"(?<![^\W\d_])(?:null|undefined|NaN)+(?![^\W\d_])")
"""What a script shows when a value is missing, alone or run together ("nullnull"), not
inside a word (French "nulle")."""

SHOWN = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll("*")) {
    for (const name of ["aria-label", "title", "placeholder", "alt", "value"]) {
      const value = node.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  return parts.join("\\n");
}"""
"""The text of the page: what is shown (open dialogs too) and what is said of it."""


def clean(page: Page, screen: str, lang: str) -> None:
    """No "null", "undefined" or "NaN" on this screen; a screenshot of it."""
    text: str = page.evaluate(SHOWN)
    found = [line for line in text.splitlines() if MISSING.search(line)]
    assert not found, f"{screen} ({lang}) shows {found}"
    shot(page, f"screen-{lang}-{screen}")


def until(page: Page, condition: str, turns: int = 200) -> None:
    """Ana plays her turns (the bots theirs) until the page's ``data-*`` condition holds."""
    for _ in range(turns):
        page.wait_for_function("() => document.querySelector('#table').dataset.myTurn === 'true'"
                               f" || ({condition})")
        if page.evaluate(f"() => {condition}"):
            return
        play_turn(page)
    pytest.fail(f"never {condition}")


ROUND_OVER = "document.querySelector('#table').dataset.roundOver === 'true'"
MATCH_OVER = "document.querySelector('#table').dataset.matchOver === 'true'"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_no_screen_shows_null_undefined_or_nan(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str) -> None:
    """Lobby, new-table form, waiting table, playing table, the rules panel without and with
    house rules, the end of a round, the end of the match, the rematch: in both languages."""
    _ = translator(lang)
    server.post("/api/tables", {"rules": "classic", "players": 3, "bots": {"2": "greedy"},
                                "name": "Zoé"})
    page = person(browser, contexts, locale=LOCALES[lang])
    page.goto(server.url + "/")
    expect(page.locator("#tables .table-item").first).to_be_visible()
    clean(page, "lobby", lang)
    page.click("#new-table")
    expect(page.locator("#create-dialog")).to_be_visible()
    clean(page, "new-table-form", lang)

    # A table with a free seat: the waiting room, and its rules (no house rules).
    page.select_option("#create-players", "3")
    page.select_option("#create-bots", "1")
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_selector("#table[data-status='waiting'] .seat-row.free")
    clean(page, "waiting-table", lang)
    page.click("#rules-button")
    expect(page.locator("#rules-panel")).to_be_visible()
    expect(page.locator("#rules-overrides")).to_have_count(0)
    clean(page, "rules-panel", lang)
    page.click("#rules-close")
    page.click("#seat-bots")
    page.click("#start")
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    clean(page, "playing-table", lang)

    # House rules: short rounds, a match of two.
    page, _code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 2, "bots": {"1": "greedy"}, "seed": 3,
        "overrides": {"hand_size": 2, "rounds": 2}})
    page.evaluate(f"localStorage.setItem('eights.lang', '{lang}')")
    page.reload()
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    page.click("#rules-button")
    expect(page.locator("#rules-overrides")).to_contain_text(  # the house rules in words
        translator(lang)("{label}: {value}", label=translator(lang)("Rounds"), value="2"))
    clean(page, "rules-panel-house-rules", lang)
    page.click("#rules-close")
    until(page, ROUND_OVER)
    expect(page.locator("#summary")).to_be_visible()
    clean(page, "end-of-round", lang)
    page.click("#next-round")
    page.wait_for_selector("#table[data-round='2'][data-round-over='false']")
    until(page, MATCH_OVER)
    expect(page.locator("#summary .winners")).to_be_visible()
    clean(page, "end-of-match", lang)
    page.click("#rematch")
    page.wait_for_selector("#table[data-status='playing'][data-round='1'] #hand .card")
    clean(page, "rematch", lang)


def test_the_form_offers_every_players_count_and_every_bot_the_server_seats(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts)
    page.goto(server.url + "/")
    page.click("#new-table")
    for name in preset_names():
        page.select_option("#create-rules", name)
        low, high = load_rules(name).players
        counts = page.eval_on_selector_all("#create-players option", "nodes => nodes.map(n => n.value)")
        assert counts == [str(n) for n in range(low, high + 1)], name
    assert load_rules("classic").players == (2, 10)  # the form once stopped at 8
    levels = page.eval_on_selector_all("#create-level option", "nodes => nodes.map(n => n.value)")
    assert levels == list(LEVELS)  # the levels of the terminal's new-match screen
    expect(page.locator("#create-level option[value='ismcts']")).to_have_text("Search")
    expect(page.locator("#create-level")).to_have_value("greedy")
    words = page.evaluate("async () => { const lobby = await import('/static/lobby.js');"
                          " return ['learned', 'ismcts:time=2', 'someday'].map(lobby.levelWords); }")
    assert words == ["Learned", "Search (ismcts:time=2)", "someday"]  # as the terminal says
    learned = page.locator("#create-level option[value='learned']")
    searched = page.locator("#create-level option[value='ismcts:prior=learned']")
    expect(searched).to_have_text("Search + learned")
    for name in preset_names():  # the family model plays every table
        page.select_option("#create-rules", name)
        for n in load_rules(name).players:
            page.select_option("#create-players", str(n))
            expect(learned).to_be_enabled()
            expect(searched).to_be_enabled()
    page.select_option("#create-rules", "classic")
    page.select_option("#create-players", "3")
    page.select_option("#create-level", "ismcts:prior=learned")
    expect(page.locator("#create-level")).to_have_value("ismcts:prior=learned")
    page.select_option("#create-rules", "classic")
    page.select_option("#create-players", "10")
    page.select_option("#create-bots", "9")
    page.select_option("#create-level", "ismcts")
    shot(page, "create-ten-players")
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    code = page.url.rsplit("/", 1)[1]
    apart(page, "table-10p")
    token = page.evaluate(f"localStorage.getItem('eights.seat.{code}')")
    phone = person(browser, contexts, phone=True)  # the same seat on a phone
    phone.context.add_init_script(f"localStorage.setItem('eights.seat.{code}', {json.dumps(token)})")
    phone.goto(f"{server.url}/t/{code}")
    phone.wait_for_selector("#table[data-status='playing'] #hand .card")
    apart(phone, "table-10p-phone")
    seats = server.get(f"/api/tables/{code}")["seats"]
    assert len(seats) == 10 and [s["bot"] for s in seats[1:]] == ["ismcts"] * 9
    # Bots are counted as the terminal counts them: the first bot is Bot 1.
    assert [s["name"] for s in seats[1:]] == [f"Bot {k}" for k in range(1, 10)]


def apart(page: Page, name: str) -> None:
    """Nine other seats round the table, each on the screen, none over another."""
    expect(page.locator("#opponents .pod")).to_have_count(9)
    shot(page, name)
    boxes = page.eval_on_selector_all("#opponents .pod", "nodes => nodes.map(n => {"
                                      " const r = n.getBoundingClientRect();"
                                      " return [r.left, r.top, r.right, r.bottom]; })")
    width = page.viewport_size["width"] if page.viewport_size else 0
    for k, (left, top, right, bottom) in enumerate(boxes):
        assert left >= 0 and right <= width, (name, k)
        for other in boxes[k + 1:]:
            assert right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top, (
                name, k, boxes)


def terminal_names(players: int, humans: int, lang: str) -> list[str]:
    """The names the terminal gives the seats (``eights play``'s session)."""
    from eights.session import Session

    session = Session.start("classic", players, humans=humans, bots=["greedy"], seed=1,
                            save_dir=None, lang=lang)
    return list(session.names)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_bots_have_the_terminals_names_and_a_free_seat_says_so(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str) -> None:
    """Bots are counted among the bots in seat order, as the terminal counts them, in the
    page's language: in the lobby, the waiting room, round the table and in the log."""
    _ = translator(lang)
    made = server.post("/api/tables", {"rules": "classic", "players": 4,
                                       "bots": {"2": "greedy", "3": "greedy"},
                                       "title": f"Free seats {lang}"})
    page = person(browser, contexts, locale=LOCALES[lang])
    page.goto(server.url + "/")
    item = page.locator(f"#tables .table-item[data-code='{made['code']}']")
    free, first, second = _("free seat"), _("Bot {n}", n=1), _("Bot {n}", n=2)
    level = level_words("greedy", _)[0]  # each bot's level beside its name (issue 34)
    expect(item.locator(".seat-names")).to_have_text(
        f"{free}, {free}, {first} ({level}), {second} ({level})")
    expect(item.locator(".free-seat")).to_have_count(2)
    shot(page, f"lobby-free-seat-{lang}")
    host = made["host_token"]
    page.context.add_init_script(f"localStorage.setItem('eights.host.{made['code']}', '{host}')")
    join_by_link(page, server.url + made["invite"], "Ana")
    page.click("#seat-bots")  # a bot in seat 1: the bots are counted again, in seat order
    bots = terminal_names(4, 1, lang)[1:]  # the terminal: one person, then three bots
    assert bots == [_("Bot {n}", n=k) for k in (1, 2, 3)]
    expect(page.locator(".seat-row.bot")).to_have_count(3)
    names = page.eval_on_selector_all(".seat-row .seat-name", "nodes => nodes.map(n => n.textContent)")
    assert names == ["Ana", *bots]
    page.click("#start")
    page.wait_for_selector("#table[data-my-turn='true']")
    for seat in (1, 2, 3):
        expect(page.locator(f".pod[data-seat='{seat}'] .name")).to_have_text(bots[seat - 1])
    play_turn(page)  # then the bots play: the log says their names in the page's language
    page.wait_for_function("name => [...document.querySelectorAll('#log li')]"
                           ".some(li => li.textContent.startsWith(name + ' '))", arg=bots[0])


def test_space_does_what_the_key_help_says(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """One card at a time (classic): Enter or Space plays the card. Several of a rank
    (switch, SW3): m or Space marks it, and Enter plays it (alone, or the marked cards)."""
    def plain_play(game: Game) -> bool:
        return any(a.card is not None and a.suit is None for a in game.legal_actions())

    seed = first_seed(plain_play, "classic", {})
    card = next(str(a.card) for a in Game(load_rules("classic"), 2, seed=seed, dealer=1).legal_actions()
                if a.card is not None and a.suit is None)
    page, code = seat_alone(server, browser, contexts, {
        "rules": "classic", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    expect(page.locator("#keys")).to_have_text(  # classic: no t, no a (issue 35)
        "Keys: ←/→ choose a card, Enter or Space plays it, d draws, p passes.")
    expect(page.locator("#keys-marking")).to_have_count(0)
    held, before = len(hand(page)), version(page)
    page.focus(f"#hand .card[data-card='{card}']")
    page.keyboard.press(" ")
    assert not picker_opened(page, before)
    wait_version_after(page, before)
    assert history(server, code)[0] == card and len(hand(page)) == held - 1

    seed = first_seed(lambda g: any(len(a.cards) == 2 for a in g.legal_actions()), "switch", {})
    legal = Game(load_rules("switch"), 2, seed=seed, dealer=1).legal_actions()
    pair = next(a for a in legal if len(a.cards) == 2)
    alone = next(str(c) for c in pair.cards if any(a.cards == (c,) and a.suit is None for a in legal))
    page, code = seat_alone(server, browser, contexts, {
        "rules": "switch", "players": 2, "bots": {"1": "greedy"}, "seed": seed})
    keys = page.locator("#keys")
    expect(keys).to_have_text("Keys: ←/→ choose a card, Enter plays it, d draws, p passes, "
                              "a announces.")  # switch announces its last card; no t
    expect(page.locator("#keys-marking")).to_contain_text("m or Space marks a card")
    page.focus(f"#hand .card[data-card='{alone}']")
    page.keyboard.press(" ")
    assert marked(page) == [alone] and version(page) == 0  # marked, not played
    page.keyboard.press(" ")
    assert marked(page) == []  # and unmarked
    shot(page, "keys-multi")
    before = version(page)
    page.keyboard.press("Enter")  # alone, at once
    wait_version_after(page, before)
    assert history(server, code)[0] == alone


def finish_match(pages: dict[int, Page], watcher: Page) -> None:
    """A match of one round: the seat to play, as the watcher sees it, plays through its page
    (the bots play theirs), until the match is over."""
    for _ in range(300):
        watcher.wait_for_function("() => document.querySelector('#table').dataset.matchOver === 'true'"
                                  " || document.querySelector('.pod.turn[data-seat=\"0\"],"
                                  " .pod.turn[data-seat=\"1\"]')")
        if data(watcher, "match-over") == "true":
            return
        page = pages[int(watcher.get_attribute(".pod.turn", "data-seat") or -1)]
        page.wait_for_selector("#table[data-my-turn='true']")
        play_turn(page)
        watcher.wait_for_function("v => Number(document.querySelector('#table').dataset.version) >= v",
                                  arg=version(page))
    pytest.fail("the match did not end")


def test_a_rematch_moves_everyone_to_a_new_table_with_the_same_rules_and_seats(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    overrides: dict[str, Any] = {"hand_size": 2, "rounds": 1}
    made = server.post("/api/tables", {"rules": "classic", "players": 3, "bots": {"2": "expert"},
                                       "overrides": overrides, "turn_timer": 120, "seed": 5,
                                       "title": "Revanche"})
    code, invite = made["code"], server.url + made["invite"]
    ana, bob = person(browser, contexts), person(browser, contexts)
    ana.context.add_init_script(f"localStorage.setItem('eights.host.{code}', '{made['host_token']}')")
    join_by_link(ana, invite, "Ana")
    join_by_link(bob, invite, "Bob")
    ana.click("#start")
    watcher = person(browser, contexts)
    watcher.goto(invite)
    watcher.wait_for_selector("#table[data-status='playing'] #opponents .pod")
    finish_match({0: ana, 1: bob}, watcher)
    expect(ana.locator("#rematch")).to_be_visible()
    expect(bob.locator("#rematch")).to_be_visible()
    expect(watcher.locator("#rematch")).to_have_count(0)  # watching: nothing to ask for
    shot(ana, "match-over-rematch")
    bob.click("#rematch")  # anyone seated may ask; Bob hosts the new table
    for page in (ana, bob):
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        page.wait_for_function(f"() => !location.pathname.endsWith('{code}')")
    new = bob.url.rsplit("/", 1)[1]
    assert ana.url.endswith(f"/t/{new}") and new != code
    bob.wait_for_selector("#table[data-status='playing'] #hand .card")  # every seat taken: started
    ana.wait_for_selector("#table[data-status='playing'] #hand .card")
    expect(ana.locator("#me")).to_contain_text("Ana")
    expect(bob.locator("#me")).to_contain_text("Bob")
    old, table = server.get(f"/api/tables/{code}"), server.get(f"/api/tables/{new}")
    assert old["rematch"] == new and table["rematch"] is None
    assert (table["rules"], table["overrides"], table["title"], table["turn_timer"]) == (
        "classic", overrides, "Revanche", 120)
    assert [(s["name"], s["kind"], s["bot"]) for s in table["seats"]] == [
        ("Ana", "person", None), ("Bob", "person", None), ("Bot 1", "bot", "expert")]
    room = server.hub.rooms[new]
    assert room.seed != server.hub.rooms[code].seed  # dealt anew
    shot(bob, "rematch-started")
    # The watcher is shown the way to the new table.
    link = watcher.locator("#rematch-link")
    expect(link).to_have_text("Watch the rematch")
    link.click()
    watcher.wait_for_selector("#table[data-status='playing'] #opponents .pod")
    assert watcher.url.endswith(f"/t/{new}")
