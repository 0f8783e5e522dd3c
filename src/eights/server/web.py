"""The browser table: static pages, and the words of the page from the terminal's catalogs.

The page is plain files in ``static/`` (modules, no build step). ``/`` is the
lobby and ``/t/CODE`` a table (the invite link); both load ``index.html``,
whose script reads the path. The page's words come from
``GET /api/i18n/{lang}``: every message id listed here with its translation
from the same catalog as the terminal (``locale/fr/LC_MESSAGES/eights.po``),
placeholders left in (``{name}``) for the page to fill:

>>> words = ui_catalog("fr")
>>> words["messages"]["Draw"], words["plurals"]["{n} card"]
('Piocher', ['{n} carte', '{n} cartes'])
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from eights.engine.cards import Rank
from eights.engine.errors import RulesError
from eights.engine.rules import MultiPlay, Rules, Scoring, load_rules, preset_names
from eights.i18n import LANGUAGES, translator
from eights.i18n.explain import card_effects, describe, match_goal
from eights.i18n.text import BOT_LEVELS, level_words
from eights.server.house import (
    change_words,
    error_field,
    form_schema,
    house_object,
    house_rules,
    house_toml,
    rank_words,
    read_toml,
    rules_words,
)
from eights.server.limits import TokenBucket
from eights.server.protocol import ErrorCode, ProtocolError, RulesCheck
from eights.server.thinking import BOTS, table_fits

__all__ = ["LEVELS", "MESSAGES", "PLURALS", "STATIC", "add_web_routes", "table_rules", "ui_catalog"]

STATIC = Path(str(resources.files("eights") / "server" / "static"))
"""The page's files."""

PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' "
    "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers of the page: scripts only from this server, the page never framed."""


def _(message: str) -> str:
    """Marks a message id for the catalog extractor (translated in :func:`ui_catalog`)."""
    return message


def plural(singular: str, many: str) -> tuple[str, str]:
    """Marks a plural message id for the catalog extractor."""
    return singular, many


MESSAGES: tuple[str, ...] = (
    # the lobby
    _("Crazy Eights"), _("Open tables"), _("No open table yet: create one."), _("New table"),
    _("Create a table"), _("Rules"), _("Players"), _("Bots"), _("Bot level"), _("easy"),
    _("normal"), _("hard"), _("Your name"), _("Create"), _("Cancel"), _("Join"), _("Watch"),
    _("Join this table"), _("Lobby"), _("Language"), _("Table {code}"),
    _("{title}, {n} players"), _("Match to {target} points"), _("waiting"), _("playing"),
    _("finished"), _("closed"), _("Could not reach the server: {message}"),
    _("This table does not exist. Check the invite link."), _("Back to the lobby"),
    _("Every seat is taken: you can watch."), _("This seat is no longer yours: join again or watch."),
    _("Resume"), _("Turn timer"), _("no timer"), _("{s} s"),
    # waiting for the match
    _("Invite friends with this link:"), _("Copy"), _("Copied"), _("Start the match"),
    _("Seat bots in the free seats"), _("Waiting for players…"),
    _("Waiting for the host to start the match…"), _("free seat"), _("bot"), _("connected"),
    _("away"), _("host"), _("You"), _("watching"), _("Reconnecting…"),
    _("The host closed the table."),
    # the host during the match
    _("Put a bot in"), _("{name} is away: a bot plays for them from now on."),
    _("Close the table"), _("Close the table?"),
    _("The match stops here for everyone; nobody can play at this table again."),
    # the rules panel
    _("Rules: {title}"), _("Lowest total wins"), _("Highest total wins"), _("How to win"),
    _("Special cards at this table"), _("No card has an effect: match the suit or the rank."),
    _("House rules at this table"), _("All the rules"),
    # the table
    _("Your hand"), _("Hand of {name}"), _("Stock"), _("Discard pile"), _("card back"),
    _("Up-card: {card} ({words})"), _("Suit to follow: {suit}"), _("Any card may be played"),
    _("Forced draw waiting: {n}"), _("Direction: {arrow}"), _("clockwise"), _("counter-clockwise"),
    _("Round {n}"), _("Log"), _("Score"), _("Scores"), _("Draw"), _("Pass"), _("Take"),
    _("Announce last card"), _("playable"), _("{card}, playable"), _("just drawn"),
    _("Your turn"), _("Your turn: play a highlighted card."), _("Nothing to play: draw a card."),
    _("Nothing to play and nothing to draw: pass."), _("{name} is playing…"),
    _("You drew {card}: play it or keep it (Pass)."), _("You drew {card}: play it."),
    _("Take the top card of the stock?"), _("You must play again."),
    _("Announce your last card with this play, or pay the penalty."),
    _("Name the suit to follow"), _("You play {card}: name the suit to follow."),
    _("Keys: ←/→ choose a card, Enter or Space plays it, d draws, p passes{more}."),
    _(", t takes"), _(", a announces"),
    _("Dealt: round {n}."), _("turn timer: {s} s"),
    # the family: plays of several cards, a starter's suit, skips passed on, players out
    _("Play {cards}"), _("{card}, on top"), _("Marked: {cards}. Mark more of the same rank, or play them."),
    _("Marked: {cards}. Mark another card to go with them."),
    _("Your turn: play a highlighted card, or mark several of one rank and play them together."),
    _("Several cards of one rank: m or Space marks a card, Enter plays the marked cards with "
      "that card on top, Esc clears."),
    _("Name the suit"), _("The starter {card} is wild: name the suit to follow."),
    _("{name} names the suit of the starter…"), _("Accept the skip"),
    _("{card} skips you: pass the skip on with a card of its rank, or accept it."),
    _("Call going out"), _("Call going out with this play, or pay the penalty."),
    _("Out: place {n}"), _("You are out in place {n}: the others play on."),
    _("You took the cards: play one that fits, or pass."),
    # the end of a round
    _("The round is over."), _("Round {n} is over: {name} went out."),
    _("Round {n} is over: blocked, nobody could play."), _("Player"), _("Hand"), _("Round"),
    _("Player {n}"), _("Total"), _("Next round"), _("Close"), _("The match is over."),
    _("Cards left"), _("Value"), _("Partners score together."),
    _("Every player scores the cards left in their own hand."),
    _("{name} went out and scores the cards left in the other hands: {sum}."),
    _("Blocked: the lowest hand ({names}) scores the cards left in the other hands: {sum}."),
    _("Blocked: the lowest hand ({names}) scores the difference to each other hand: {sum}."),
    _("Ahead: {names} with {score}."),
    _("{name} went out and wins the round: 1 point."),
    _("Blocked: the lowest hand wins the round and scores 1."), _("Place"), _("Placings: {list}"),
    _("Each player scores their place minus one: 0 for the first out, {n} for the last."),
    # words the log and the labels reuse
    _("J"), _("Q"), _("K"), _("ace"), _("two"), _("three"), _("four"), _("five"), _("six"),
    _("seven"), _("eight"),
    _("nine"), _("ten"), _("jack"), _("queen"), _("king"), _("joker"), _("clubs"),
    _("diamonds"), _("hearts"), _("spades"), _("{rank} of {suit}"), _("draw"), _("pass"),
    _("take a card"), _("{card}, naming {suit}"), _("{play} and announce the last card"),
    # bots as the terminal names them, their levels; keys where several cards go down at once
    _("Bot {n}"), _("very hard"), _("trained"), _("very hard, learned"),
    _("Keys: ←/→ choose a card, Enter plays it, d draws, p passes{more}."),
    _("{card} cannot go down with another card now."),
    # a rematch at the end of a match
    _("Rematch"), _("Go to the rematch"), _("Watch the rematch"),
    _("Rematch: a new table with the same rules, seats and bots; the players here move to it."),
    # the review of a round (review.js)
    _("Review my play"), _("The search is reviewing your play…"), _("Your play in round {n}"),
    _("You had no choice to make in this round."), _("better: {action}"),
    _("Your largest mistakes"), _("No mistake: every move was best, as good as the best, or good."),
    _("Record of table {code}"),
    _("Only the players of this table can review their play."), _("Download the record"),
    _("Back to the table"), _("Every round of the match and its review"),
    _("{name}: {count}"),  # the card counts of a reviewed position
    # house rules in the New table form (house.js), the lobby's badge
    _("House rules"), _("Loading…"), _("These rules cannot be played: see {field}."),
    _("No change: the preset as it is."),
    _("Every rule of the table, starting from the preset’s. The rules in words follow your "
      "changes."),
    _("Changed from the preset"), _("The rules in words"), _("Saved house rules"),
    _("Saved house rules…"), _("Name"), _("Name of these house rules"), _("Save"),
    _("Saved as {name}."), _("Forget"), _("Load a TOML file"), _("House rules as TOML"),
    _("Read this TOML"), _("Copy as TOML"),
    _("Copied: save it as house.toml and play it with: eights play -r house.toml"),
    _("Copy a link"), _("Link copied: it opens this form with these house rules."),
    _("Back to the preset"), _("Link to these house rules"), _("Which cards"),
    _("One card’s own table"), _("fewest"), _("most"), _("{list} or {last}"),
    _("No effect: it matches by suit or rank."),
    # the table: settings, practice, the rules as a file, the host of an API table
    _("Settings"), _("Sound"), _("Large four-colour cards"), _("Hint"), _("Undo"),
    _("Looking for a hint…"), _("hint asked"), _("These rules as a file"),
    _("Save it as house.toml and play it in the terminal: eights play -r house.toml"),
    _("Whoever made this table holds its host token. Made through the API? Open {link} with "
      "the host token in place of TOKEN to start it from this page (the answer’s host_link), "
      "or send start with it on the table’s WebSocket."),
    _("{cards} go down together only with {card} on top: mark it last."),
    _("You took back {move}."),
)
"""Every message id the page shows (the page falls back to the id itself)."""

PLURALS: tuple[tuple[str, str], ...] = (
    plural("{n} card", "{n} cards"),
    plural("{n} card to draw: answer with a card or draw it.",
           "{n} cards to draw: answer with a card or draw them."),
    plural("{n} card to draw.", "{n} cards to draw."),
    plural("{n} free seat", "{n} free seats"),
    plural("The match is over after {n} round.", "The match is over after {n} rounds."),
    plural("Winner: {names}.", "Winners: {names}."),
    plural("{n} player", "{n} players"),
    plural("{name}: {n} penalty point (overflow)", "{name}: {n} penalty points (overflow)"),
    plural("Match: the first to win {n} round", "Match: the first to win {n} rounds"),
    plural("{k}, {n} free seat", "{k}, {n} free seats"),
    plural("{n} move", "{n} moves"),
    plural("{n} change", "{n} changes"),
    plural("You asked for {n} hint this round.", "You asked for {n} hints this round."),
    plural("You took back {move} and {n} move after it.",
           "You took back {move} and {n} moves after it."),
)
"""Plural message ids: the page picks a form with the language's rule."""


def ui_catalog(lang: str) -> dict[str, Any]:
    """The page's words in ``lang``: ``{"lang", "messages": {id: text}, "plurals": {id: [one,
    many]}, "presets": {name: title}, "levels": {spec: [name, about]}}`` (a preset's title
    through the catalog too; the bots' levels as the terminal names them,
    :func:`eights.i18n.text.level_words`)."""
    tr = translator(lang)
    plurals: dict[str, list[str]] = {}
    for one, many in PLURALS:
        plurals[one] = list(tr.plural_forms(one, many))
    presets = {name: tr(load_rules(name).title) for name in preset_names()}
    levels = {level: list(level_words(level, tr)) for level in BOT_LEVELS}
    return {"lang": tr.lang, "messages": {m: tr(m) for m in MESSAGES}, "plurals": plurals,
            "presets": presets, "levels": levels}


def table_rules(rules: Rules, lang: str) -> dict[str, Any]:
    """The rules of a table (its preset with the table's overrides) for the page's rules panel
    and round summary: in words (``goal``, ``specials``, ``details``, from
    :mod:`eights.i18n.explain`) and as data (card ``points``, how rounds score, whether a
    card reverses the direction).

    >>> words = table_rules(load_rules("huit-fou"), "fr")
    >>> words["lowest_wins"], words["reverse"], words["points"]["K"]
    (True, True, 1)
    >>> "le sens du jeu s’inverse" in words["specials"][0]  # HF10: aces reverse
    True
    >>> "French rules text" in words["source"]  # the source is translated too
    False
    """
    tr = translator(lang)
    return {
        "lang": tr.lang,
        "name": rules.name,
        "title": tr(rules.title),
        "source": tr(rules.source) if rules.source else "",
        "goal": match_goal(rules, tr),
        "specials": card_effects(rules, tr),
        "details": describe(rules, tr)[1:],
        "lowest_wins": rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS),  # TS12
        "scoring": rules.scoring.value,
        "multi_play": rules.multi_play is not MultiPlay.NONE,  # SW3
        "play_on": rules.play_on,  # TS11
        "call_out": rules.call_out,  # MM9, TS10
        "take": rules.replace_after_play,  # LH5: the key t
        "announce": rules.announce_last_card or rules.call_out,  # HA13, MM9: the key a
        "blocked_scoring": rules.blocked_scoring.value,
        "points": {rank.letter: rules.points[rank] for rank in Rank},
        "reverse": any(rules.card(rank).reverse for rank in rules.cards),
        "teams": sorted(rules.teams),
        "target": rules.target,
        "rounds": rules.rounds,
    }


CHECKS_PER_SECOND = 10.0
CHECK_BURST = 40
"""Rules checks an address may ask for (the form asks once per change; one takes about
20 ms of a thread)."""

LEVELS = tuple(level for level in BOT_LEVELS if level.split(":")[0] in BOTS)
"""The bots' levels the new-table form offers (as the terminal's new-match screen does)."""


def check_rules(body: RulesCheck) -> dict[str, Any]:
    """``POST /api/rules/check`` (off the event loop: the learned levels read their model)."""
    if (body.rules is None) == (body.toml is None):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "send 'rules' (a rules object) or 'toml' (a "
                            "rules file's text), one of them")
    try:
        house = read_toml(body.toml) if body.toml is not None else dict(body.rules or {})
        rules = house_rules(house)
        players = rules.default_players if body.players is None else body.players
        rules.check_players(players)
    except RulesError as exc:
        message = str(exc)
        return {"ok": False, "error": message, "field": error_field(message)}
    return {"ok": True, "rules": house, "title": rules.title, "words": rules_words(rules, body.lang),
            "ranks": rank_words(rules, body.lang),
            "changes": change_words(house, body.lang), "toml": house_toml(house),
            "players": list(rules.players), "default_players": rules.default_players,
            "target": rules.target, "rounds": rules.rounds, "bot_players": table_fits(rules, LEVELS)}


TITLED = _("{title} with house rules")
"""The title of a table's rules where its house rules give none (not "Custom rules")."""


def _language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ProtocolError(ErrorCode.NOT_FOUND, f"no language {lang[:8]!r}; languages are "
                            f"{', '.join(LANGUAGES)}")
    return lang


def add_web_routes(app: FastAPI) -> None:
    """Serve the lobby at ``/``, a table at ``/t/{code}``, the files and the words of the page."""
    index = STATIC / "index.html"
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(index, headers=PAGE_HEADERS)

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(index, headers=PAGE_HEADERS)

    @app.get("/t/{code}/record", include_in_schema=False)
    async def record_page(code: str) -> FileResponse:  # a finished table's rounds, reviewed
        return FileResponse(index, headers=PAGE_HEADERS)

    @app.get("/api/i18n/{lang}")
    async def words(lang: str) -> dict[str, Any]:
        """The page's words in ``lang`` (``en`` or ``fr``), from the message catalogs."""
        return ui_catalog(_language(lang))

    @app.get("/api/tables/{code}/rules")
    async def rules(code: str, lang: str = "en") -> dict[str, Any]:
        """The table's rules in words, ``?lang=en`` or ``fr`` (``words``: as ``eights rules
        show`` says them), its ``overrides``, and its rules as a house-rules file: ``house``
        (the object, ``null`` for a preset as it is), ``toml`` (its text, for ``eights play
        -r``) and ``changes`` (what it changes from its preset, in words)."""
        _language(lang)
        room = await app.state.hub.look(code)
        answer = table_rules(room.rules, lang)
        answer["overrides"] = room.overrides
        house = house_object(room.preset, room.overrides, room.house)
        if house is not None and "title" not in house:  # not "Custom rules": its preset's, changed
            tr = translator(lang)
            answer["title"] = tr("{title} with house rules", title=tr(load_rules(room.preset).title)
                                 if room.preset in preset_names() else tr(room.rules.title))
        answer.update(words=rules_words(room.rules, lang), house=house,
                      toml=house_toml(house) if house is not None else None,
                      changes=change_words(house, lang) if house is not None else [])
        return answer

    @app.get("/api/rules/schema")
    async def rules_form(lang: str = "en") -> dict[str, Any]:
        """The house rules the New table form offers: every key of a rules file, grouped as
        a player thinks of them, with words in ``lang``, and every preset's values."""
        return form_schema(_language(lang))

    checks: dict[str, TokenBucket] = {}

    @app.post("/api/rules/check")
    async def rules_check(body: RulesCheck, request: Request) -> dict[str, Any]:
        """Check a rules object (or a rules file's ``toml`` text) as a rules file is: ``ok``
        with the rules in ``words`` and the object; else ``ok: false`` with the rules' own
        ``error`` and the ``field`` it is about."""
        address = request.client.host if request.client is not None else "unknown"
        bucket = checks.get(address)
        if bucket is None:
            if len(checks) > 10_000:
                checks.clear()
            bucket = checks[address] = TokenBucket(CHECKS_PER_SECOND, CHECK_BURST)
        if not bucket.take():
            raise ProtocolError(ErrorCode.RATE_LIMITED, f"at most {CHECKS_PER_SECOND:g} rules "
                                "checks a second from one address; wait a moment")
        return await asyncio.to_thread(check_rules, body)
