"""The terminal game as a new player meets it (issue 28, items 9 to 12), at 80x24 in English
and in French: what the bots are (their level, and their speed called speed), every key in
the help, ``n`` meaning a new match everywhere, the new-match screen's focus, one name for
the rules, the quit dialog's buttons, the log's saved-game path and the round summary's
values.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Button, Label, RichLog, Static
from textual.widgets._header import HeaderTitle

from eights.bots import make_bot
from eights.engine.game import Game
from eights.engine.rules import load_rules
from eights.i18n import translator
from eights.i18n.explain import describe
from eights.i18n.text import round_summary
from eights.session import Session
from eights.tui.app import EightsApp, TableScreen
from eights.tui.dialogs import QuitScreen, RoundOverScreen, RulesScreen, key_lines
from eights.tui.newmatch import NewMatchScreen
from test_tui import data_dir, settle

__all__ = ["data_dir"]  # the autouse fixture: games are saved in a temporary directory

SMALL = (80, 24)
NB = "\u00a0"


def start(save_dir: Path, rules: str = "classic", players: int = 4, *, lang: str = "en",
          bots: tuple[str, ...] = ("greedy",), seed: int = 5,
          to_round_end: bool = False) -> EightsApp:
    session = Session.start(rules, players, bots=list(bots), seed=seed, save_dir=save_dir,
                            lang=lang)
    if to_round_end:  # the person plays greedily too, until the round is over
        greedy, rng = make_bot("greedy"), random.Random(1)
        while not session.game.over:
            if session.human_to_play:
                obs = session.observe(session.humans[0])
                session.play(greedy.choose(obs, obs.legal, rng))
            else:
                turn = session.bot_turn()
                session.bot_play(turn, turn.choose())
    return EightsApp(session, translator(lang), speed="instant")


def header(app: EightsApp) -> str:
    return str(app.screen.query_one(HeaderTitle).render())


# ---------------------------------------------------------------- 9: what the bots are


@pytest.mark.asyncio
@pytest.mark.parametrize(("lang", "bots", "expected"), [
    ("en", ("greedy",), "Eights — Round 1 · Bots: Greedy · Speed: instant (+/−)"),
    ("en", ("expert", "random"), "Eights — Round 1 · Bots: Expert, Random · Speed: instant (+/−)"),
    ("fr", ("greedy",), f"Huit (règles anglaises) — Manche 1 · Robots{NB}: Glouton"),
])
async def test_the_header_says_the_bots_level_and_calls_their_speed_speed(
        tmp_path: Path, lang: str, bots: tuple[str, ...], expected: str) -> None:
    """At 80 columns the whole line shows; in French the speed gives way to the rules' title
    (issue 35: the title was lost), and the status line says a new speed."""
    app = start(tmp_path, lang=lang, bots=bots)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        title = app.screen.query_one(HeaderTitle)
        assert header(app) == expected
        assert cell_len(expected) <= title.content_region.width
        assert app.title == translator(lang)("Eights")
        await pilot.press("minus")
        fast = translator(lang)("Speed: {speed} (+/−)", speed=translator(lang)("fast"))
        if lang == "en":
            assert header(app).endswith(fast)
        else:
            assert header(app) == expected
        assert str(app.table.query_one("#prompt", Static).render()) == fast
        await pilot.resize_terminal(140, 30)  # room for the title too
        await pilot.pause()
        assert header(app).startswith(translator(lang)("Eights") + " — ")


# ---------------------------------------------------------------- 10: keys


SHOWN_AS = {"left": "← → 1–9", "right": "← → 1–9", "enter": "Enter", "m,space": "m space",
            "question_mark": "?", "plus,equals_sign": "+ −", "minus": "+ −"}
"""How the help writes the keys of the table's bindings (a key not here: as itself)."""


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "lang"), [("classic", "en"), ("classic", "fr"),
                                             ("les-huit", "en")])
async def test_the_help_shows_every_key_of_the_table(tmp_path: Path, rules: str,
                                                     lang: str) -> None:
    _ = translator(lang)
    app = start(tmp_path, rules, 3, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, RulesScreen)
        shown = [str(s.render()) for s in help_screen.query("#keys > .key").results(Static)]
        words = [str(s.render()) for s in help_screen.query("#keys > .words").results(Static)]
        for binding in TableScreen.BINDINGS:
            key = binding.key if not isinstance(binding, tuple) else binding[0]
            if key.isdigit():
                key = "left"
            assert _(SHOWN_AS.get(key, key)) in shown, key
        assert _("Esc") in shown  # and the dialogs' key
        assert shown[:2] == ["← → 1–9", _("Enter")]
        mark = words[shown.index(_("m space"))]
        take = words[shown.index("t")]
        unused = _("(not in these rules)")
        assert mark.endswith(unused)  # neither classic nor les-huit lays several cards at once
        assert take.endswith(unused) == (rules == "classic")  # LH5: les-huit takes
        await pilot.press("escape")
        assert app.screen is app.table


def test_the_help_says_which_keys_these_rules_use() -> None:
    _ = translator("en")
    switch = dict(key_lines(load_rules("switch"), _))
    assert switch["m space"] == "mark the chosen card to go down with others of its rank"
    assert switch["a"] == "announce your last card with the play that leaves you one"
    assert switch["t"] == ("take the top card of the stock after your play (not in these "
                           "rules)")


@pytest.mark.asyncio
async def test_n_on_the_round_summary_is_a_new_match_as_on_the_table(tmp_path: Path) -> None:
    """Enter goes on to the next round; n opens the new-match screen (Escape comes back to
    the summary); the hint says so word for word."""
    app = start(tmp_path, to_round_end=True)
    assert not app.session.game.match_over
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        hint = [str(s.render()) for s in summary.query(".hint").results(Static)]
        assert hint == ["Enter: next round · n: a new match · q: quit · r: review your play"]
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session.game.round == 2


# ---------------------------------------------------------------- 11: the new-match focus


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_tab_tab_down_enter_chooses_a_level_and_never_cancels(tmp_path: Path,
                                                                    lang: str) -> None:
    """The keys of the issue: Tab, Tab, Down x3, Enter went to Cancel and closed the screen
    without a word. Focus starts on the first field, Tab goes down the fields, the arrows
    choose a level; Cancel is Escape's (it takes no focus), and it is said in the log."""
    app = start(tmp_path, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewMatchScreen)
        assert app.focused is not None and app.focused.id == "new-rules"
        await pilot.press("tab", "tab", "down", "down", "down", "enter")
        await pilot.pause()
        assert screen.chosen_level == "learned"  # from greedy, 3 down
        assert app.screen is screen
        focused: set[str | None] = set()
        for _step in range(8):
            await pilot.press("tab")
            assert app.focused is not None
            focused.add(app.focused.id)
        assert focused == {"new-rules", "new-players", "new-levels", "new-start"}
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.table.log_lines[-1] == translator(lang)("No new match: this one goes on.")


# ---------------------------------------------------------------- 12: French and 80x24


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_quit_dialog_shows_its_three_buttons_whole_at_80_by_24(tmp_path: Path,
                                                                         lang: str) -> None:
    app = start(tmp_path, lang=lang)
    app.session.program = ".venv/bin/eights"  # as make play starts it (issue 35)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, QuitScreen)
        said = [str(w.render()) for w in dialog.query(Static)]
        assert translator(lang)("Resume it with: {command}", command=(
            f".venv/bin/eights play --resume {app.session.path}")) in said
        box = dialog.query_one("#quit-dialog").content_region
        buttons = list(dialog.query(Button).results(Button))
        assert [str(b.label) for b in buttons] == [translator(lang)(t) for t in (
            "Keep the save (k)", "Delete it (x)", "Stay (Esc)")]
        for button in buttons:
            assert box.contains_region(button.region), button.label
            assert cell_len(str(button.label)) <= button.content_region.width, button.label
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_french_gives_the_rules_one_name(tmp_path: Path) -> None:
    """The window's title, the new-match list and the help say the name the browser says."""
    _ = translator("fr")
    name = "Huit (règles anglaises)"
    assert _("Eights") == name
    app = start(tmp_path, lang="fr")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, app)
        assert app.title == name and header(app).startswith(name + " — Manche 1")
        assert app.table.log_lines[0].startswith(name + f"{NB}: 4 joueurs.")
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewMatchScreen)
        labels = dict((key, label) for label, key in screen._rules_options())
        assert labels["classic"] == f"{name} · classic"
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen) and app.screen.rules_title == f"{name} (classic)"


def test_french_undo_is_not_cancel() -> None:
    _ = translator("fr")
    assert _("Undo (u)") == "Reprendre (u)" and _("Cancel (Esc)") == "Annuler (Échap)"
    assert _("Nothing to undo.") == "Rien à reprendre."
    assert _("Your last move is taken back.") == "Votre dernier coup est repris."
    assert _("Crazy Eights") == "Huit américain"  # the page's name, as its title


def test_french_special_cards_have_their_article() -> None:
    text = "\n".join(describe(load_rules("classic"), translator("fr")))
    assert (f"Les 8{NB}: se posent sur n’importe quelle carte quand il n’y a pas de cartes à "
            f"piocher en attente{NB}; le joueur demande la couleur de son choix.") in text
    english = "\n".join(describe(load_rules("classic"), translator("en")))
    assert ("8s: may be played on any card when no forced draw is waiting; the player names "
            "the suit to follow.") in english
    aces = "\n".join(describe(load_rules("huit-fou"), translator("en")))
    assert "\n  Aces: " in aces  # capitalised once the line is made


@pytest.mark.asyncio
async def test_the_log_breaks_the_saved_games_path_after_a_slash(tmp_path: Path) -> None:
    save_dir = tmp_path / "a-long-folder-of-saved-games" / "eights" / "games"
    app = start(save_dir)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        path = str(app.session.path)
        assert len(path) > app.table.query_one("#log").content_region.width
        lines = [strip.text.rstrip() for strip in app.table.query_one("#log", RichLog).lines]
        first = next(i for i, line in enumerate(lines) if "/" in line)
        parts: list[str] = []
        for line in lines[first:]:
            parts.append(line.split(" ")[-1] if not parts else line)
            if "".join(parts) == path:
                break
        assert "".join(parts) == path, lines
        width = app.table.query_one("#log").scrollable_content_region.width
        # (pytest's folder names can be wider than a line with their "/": folded there)
        wider = {name for name in path.split("/") if cell_len(name) + 1 > width}
        for part in parts[:-1]:  # never inside a name, unless the name is wider than the log
            assert part.endswith("/") or part in wider, parts


def summary_app(save_dir: Path, game: Game, lang: str = "en") -> tuple[EightsApp, RoundOverScreen]:
    """The round summary of ``game`` (its round over) over a table at 80x24."""
    _ = translator(lang)
    app = start(save_dir, lang=lang)
    names = ["Player", "Bot 1", "Bot 2", "Bot 3"][:game.n]
    return app, RoundOverScreen(game.observe(0), names, round_summary(game, names, _), _)


def play_out(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    while not game.over:
        seat = game.to_play
        assert seat is not None
        obs = game.observe(seat)
        game.apply(greedy.choose(obs, obs.legal, rng) if seat else
                   obs.legal[int(rng.random() * len(obs.legal))])
    return game


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_round_summary_keeps_each_value_on_one_line_total_first(
        tmp_path: Path, lang: str) -> None:
    """Hands of many cards (a random player keeps drawing): each value is one line, its
    total first (a long sum is cut at the right, never wrapped)."""
    games = (play_out(Game("classic", 4, seed=seed), seed) for seed in range(40))
    game = next(g for g in games if max(len(h) for h in g.hands) >= 8)
    app, summary = summary_app(tmp_path, game, lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.push_screen(summary)
        await pilot.pause()
        values = list(summary.query("#round-grid > .value").results(Label))
        assert len(values) == 4
        points = game.rules.points
        for label, hand in zip(values, game.hands, strict=True):
            total = sum(points[c.rank] for c in hand)
            assert str(label.render()).startswith(str(total)), label.render()
            assert label.region.height == 1


@pytest.mark.asyncio
async def test_a_round_won_by_going_out_shows_no_hand_values(tmp_path: Path) -> None:
    """SW11: in Switch the round's winner scores one round, whatever the hands hold."""
    game = play_out(Game("switch", 4, seed=3), 3)
    assert any(not hand for hand in game.hands)  # somebody went out
    app, summary = summary_app(tmp_path, game)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        app.push_screen(summary)
        await pilot.pause()
        heads = [str(h.render()) for h in summary.query("#round-grid > .head").results(Label)]
        assert heads == ["Player", "Hand", "Round", "Total"]
        assert not summary.query("#round-grid > .value")
