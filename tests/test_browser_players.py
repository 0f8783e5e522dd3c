"""The browser page as a new player meets it (issue 28, items 9, 12 and 13): the bots' levels
named as the terminal names them (the search with the learned prior offered too), a full
table by default with the free seats a choice, each bot's level on its seat, the page's
name in French, the invite link's underscore, and a Switch match's goal and summary.

The server and the browser are those of ``test_browser.py`` (its fixtures and helpers).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from eights.i18n import translator
from eights.i18n.text import BOT_LEVELS, level_words
from test_browser import (
    Server,
    browser,
    contexts,
    data,
    join_by_link,
    no_errors,
    person,
    play_until,
    server,
    shot,
)

__all__ = ["browser", "contexts", "server"]  # the fixtures, imported from test_browser

LOCALES = {"en": "en-GB", "fr": "fr-FR"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_form_names_the_levels_and_defaults_to_a_full_table(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str) -> None:
    _ = translator(lang)
    page = person(browser, contexts, locale=LOCALES[lang])
    page.goto(server.url + "/")
    expect(page.locator("#brand-name")).to_have_text(_("Crazy Eights"))
    assert page.title() == _("Crazy Eights")  # « Huit américain » in French
    page.click("#new-table")
    level = page.locator("#create-level")
    names = level.locator("option").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert names == [level_words(spec, _)[0] for spec in BOT_LEVELS]
    expect(level).to_have_value("greedy")
    expect(page.locator("#create-level-about")).to_have_text(level_words("greedy", _)[1])
    # a full table: you and three bots; fewer bots leave seats free, as each choice says
    bots = page.locator("#create-bots")
    expect(bots).to_have_value("3")
    choices = bots.locator("option").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert choices == ["3", *(_.plural("{k}, {n} free seat", "{k}, {n} free seats", n, k=3 - n)
                              for n in (1, 2, 3))]
    prior = level.locator("option[value='ismcts:prior=learned']")
    for players in ("3", "7", "2"):  # the family model plays every count
        page.select_option("#create-players", players)
        expect(prior).to_be_enabled()
    expect(bots).to_have_value("1")
    page.select_option("#create-level", "ismcts:prior=learned")
    expect(page.locator("#create-level-about")).to_have_text(
        level_words("ismcts:prior=learned", _)[1])
    page.select_option("#create-level", "expert")
    page.fill("#create-name", "Ana")
    page.click("#create-submit")
    # nobody to wait for: the match starts at once
    page.wait_for_selector("#table[data-status='playing'] #hand .card")
    badge = page.locator("#opponents .pod .badge")
    expect(badge).to_have_text(level_words("expert", _)[0])
    shot(page, f"players-full-table-{lang}")
    no_errors(page)


def test_the_invite_link_shows_its_underscore_and_each_bot_its_level(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    """The link's monospace text at 13.6 px had no room below its baseline: an underscore
    vanished (``mvuoaD D-oiK``). Its line is now tall enough for it."""
    made = server.post("/api/tables", {"rules": "classic", "players": 4,
                                       "bots": {"3": "ismcts:prior=learned"}})
    page = person(browser, contexts)
    join_by_link(page, server.url + made["invite"], "Ana")
    field = page.locator("#invite")
    expect(field).to_have_value(f"{server.url}/t/{made['code']}")
    size, height = field.evaluate("n => [parseFloat(getComputedStyle(n).fontSize),"
                                  " parseFloat(getComputedStyle(n).lineHeight)]")
    assert size == pytest.approx(13.6, abs=0.1) and height >= 1.5 * size
    shot(page, "players-invite-link")  # looked at: the underscore shows
    expect(page.locator(".seat-row[data-seat='3'] .badge")).to_have_text("bot · Search + learned")
    at_three = server.post("/api/tables", {"rules": "classic", "players": 3,  # the family model
                                           "bots": {"2": "ismcts:prior=learned"}})
    assert at_three["table"]["seats"][2]["bot"] == "ismcts:prior=learned"
    no_errors(page)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_switch_match_to_one_round_reads_and_its_summary_counts_no_values(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str) -> None:
    _ = translator(lang)
    made = server.post("/api/tables", {"rules": "switch", "players": 2, "target": 1,
                                       "bots": {"1": "greedy"}, "seed": 4})
    page = person(browser, contexts, locale=LOCALES[lang])
    host = made["host_token"]
    page.context.add_init_script(f"localStorage.setItem('eights.host.{made['code']}', '{host}')")
    join_by_link(page, server.url + made["invite"], "Ana")
    page.click("#start")
    page.wait_for_selector("#table[data-status='playing']")
    goal = _.plural("Match: the first to win {n} round", "Match: the first to win {n} rounds", 1)
    assert goal == {"en": "Match: the first to win 1 round",
                    "fr": "Partie\u00a0: le premier à gagner 1 manche"}[lang]
    expect(page.locator(".scores .muted")).to_have_text(goal)
    play_until(page, lambda: data(page, "round-over") == "true", turns=200)
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    heads = summary.locator("thead th").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert _("Value") not in heads and heads[-2:] == [_("Round"), _("Total")]
    expect(summary.locator(".hand-value, .card-points")).to_have_count(0)
    shot(page, f"players-switch-summary-{lang}")
    no_errors(page)
