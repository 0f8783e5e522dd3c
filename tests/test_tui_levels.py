"""The new-match screen of the terminal game: the rules, the player count and the
opponents' level (random to the search with learned parts), offered only where the level
plays, driven by keys; cancelling changes nothing; it fits 80×24 in English and French."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from textual.content import Content
from textual.geometry import Region
from textual.widgets import Button, RadioButton, Select, Static
from typer.testing import CliRunner

from eights.bots import ISMCTSBot, LearnedBot, check_table, make_bot
from eights.cli import app as cli
from eights.engine.rules import load_rules, preset_names
from eights.i18n import translator
from eights.session import Session
from eights.tui.app import EightsApp
from eights.tui.dialogs import QuitScreen, RoundOverScreen
from eights.tui.newmatch import CURRENT, LEVELS, NewMatchScreen, level_words, levels_at
from test_tui import SMALL, AppPilot, data_dir, inside, play_until, settle

__all__ = ["data_dir"]  # the autouse fixture: games are saved in a temporary directory

BUTTONS = {level: "level-" + level.replace(":", "-").replace("=", "-") for level in LEVELS}


def start(tmp_path: Path, rules: str = "classic", players: int = 4, *, lang: str = "en",
          bots: tuple[str, ...] = ("greedy",), humans: int = 1) -> EightsApp:
    session = Session.start(rules, players, bots=list(bots), humans=humans, seed=5,
                            save_dir=tmp_path, lang=lang)
    return EightsApp(session, translator(lang), speed="instant")


async def open_new(pilot: AppPilot, app: EightsApp) -> NewMatchScreen:
    await settle(pilot, app)
    await pilot.press("n")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, NewMatchScreen)
    return screen


async def pick(pilot: AppPilot, screen: NewMatchScreen, select_id: str, value: object) -> None:
    """Choose ``value`` in a list the way a person does: focus it, Enter, arrows, Enter."""
    select = screen.query_one(select_id, Select)
    values: list[object] = (list(screen.rules) if select_id == "#new-rules"
                            else list(screen.player_counts()))
    select.focus()
    await pilot.press("enter")
    await pilot.pause()
    steps = values.index(value) - values.index(select.value)
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await pilot.pause()
    assert select.value == value


def offered(screen: NewMatchScreen, levels: Sequence[str] = LEVELS) -> list[str]:
    """The levels a person can choose on the screen as drawn."""
    return [level for level in levels
            if (button := screen.query_one(f"#{screen.button_id(level)}", RadioButton)).display
            and not button.disabled]


@pytest.mark.asyncio
async def test_choosing_rules_players_and_a_level_starts_that_match(tmp_path: Path) -> None:
    """n, then huit-fou, 2 players and the learned bot, chosen with the keys: Start (s) gives
    a session of those rules whose bots are learned bots, on a new table."""
    app = start(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        old = app.session
        screen = await open_new(pilot, app)
        assert screen.choice().rules == old.game.rules and screen.choice().level == "greedy"
        await pick(pilot, screen, "#new-rules", "huit-fou")
        await pick(pilot, screen, "#new-players", 2)
        screen.query_one("#new-levels").focus()
        await pilot.press("down", "down", "down")  # from Greedy: Expert, Search, Learned
        await pilot.press("enter")
        assert screen.choice().level == "learned"
        about = str(screen.query_one("#new-about", Static).render())
        assert level_words("learned", app.tr)[1] in about
        await pilot.press("s")
        await settle(pilot, app)
        session = app.session
        assert session is not old and app.table.session is session
        assert session.game.rules.name == "huit-fou" and session.game.n == 2
        bots = [seat.bot for seat in session.seats if not seat.human]
        assert [seat.player for seat in session.seats] == ["human", "learned"]
        assert all(isinstance(bot, LearnedBot) for bot in bots)
        assert session.path is not None and session.path.parent == tmp_path
        assert old.path is not None and old.path.exists()  # nothing was played: no question
        await play_until(pilot, app, lambda o: len(o.history) >= 4)  # the learned bot plays


@pytest.mark.asyncio
async def test_the_search_with_the_learned_prior_is_started_from_the_buttons(
        tmp_path: Path) -> None:
    app = start(tmp_path, "classic", 2)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_new(pilot, app)
        assert offered(screen) == list(LEVELS)  # a model ships for classic at 2 players
        await pilot.click(f"#{BUTTONS['ismcts:prior=learned']}")
        await pilot.click("#new-start")
        await settle(pilot, app)
        bot = app.session.seats[1].bot
        assert isinstance(bot, ISMCTSBot) and isinstance(bot.prior, LearnedBot)


@pytest.mark.asyncio
async def test_the_learned_levels_are_offered_for_every_table(tmp_path: Path) -> None:
    """The family model plays every table: a house-rules file at 3 players, other counts,
    OpenSpiel's rules all offer Learned and Search + learned, and no line says a level is
    missing."""
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic"\nhand_size = 6\n[cards.7]\nskip = true\n', "utf-8")
    session = Session.start(load_rules(house), 3, bots=["learned"], seed=5, save_dir=tmp_path)
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_new(pilot, app)
        assert screen.chosen_rules == CURRENT and screen.choice().level == "learned"
        assert offered(screen) == list(LEVELS)
        assert not screen.query_one("#new-missing").display
        await pick(pilot, screen, "#new-players", 5)
        assert offered(screen) == list(LEVELS)
        await pick(pilot, screen, "#new-rules", "openspiel")
        assert offered(screen) == list(LEVELS)
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_a_match_started_with_a_model_keeps_it_on_the_new_match_screen(
        tmp_path: Path) -> None:
    """``learned:model=PATH`` is one more level, chosen at first, named by its folder; a
    model of one rule set (a specialist) is offered only at its own table, and the line of
    levels left out says so."""
    from eights.bots.learned import family_model

    folder = tmp_path / "my-bot"
    family_model().save(folder / "model.npz", half=True)
    house = tmp_path / "house.toml"
    house.write_text('extends = "switch"\njokers = 2\n[cards.X]\nwild = true\n', "utf-8")
    session = Session.start(load_rules(house), 3, bots=[f"learned:model={folder}"], seed=5,
                            save_dir=tmp_path)
    spec = f"learned:model={folder / 'model.npz'}"
    assert session.seats[1].player == spec
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()  # the header names the model as the screen does (issue 35)
        sub_title = str(app.table.sub_title)
        assert "Bots: Learned: my-bot" in sub_title and "model=" not in sub_title
        screen = await open_new(pilot, app)
        assert screen.levels == (*LEVELS, spec) and screen.choice().level == spec
        about = str(screen.query_one("#new-about", Static).render())
        assert "Learned: my-bot" in about and str(folder / "model.npz") in about
        await pick(pilot, screen, "#new-players", 4)
        await pilot.press("s")
        await settle(pilot, app)
        bots = [seat.bot for seat in app.session.seats if not seat.human]
        assert [s.player for s in app.session.seats[1:]] == [spec] * 3
        assert all(isinstance(b, LearnedBot) and b.path == folder / "model.npz" for b in bots)
    from test_learned import random_model

    specialist = tmp_path / "classic-2p.npz"  # a model of one rule set and player count
    random_model(load_rules("classic"), 2).save(specialist)
    app = start(tmp_path, "classic", 2, bots=(f"learned:model={specialist}",))
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_new(pilot, app)
        own = f"learned:model={specialist}"
        assert screen.choice().level == own and own in offered(screen, screen.levels)
        await pick(pilot, screen, "#new-players", 3)
        assert own not in offered(screen, screen.levels)
        missing = str(screen.query_one("#new-missing", Static).render())
        assert "Learned: classic-2p (with 2 players only)" in missing
        await pilot.press("escape")


@pytest.mark.parametrize("rules", sorted(preset_names()))
def test_the_levels_offered_are_those_the_bots_check_passes(rules: str) -> None:
    """The screen's offer is :func:`eights.bots.check_table`, the server's check too."""
    preset = load_rules(rules)
    for players in (2, 3, 4):
        if not preset.players[0] <= players <= preset.players[1]:
            continue
        expected = []
        for level in LEVELS:
            try:
                check_table(make_bot(level), preset, players)
            except ValueError:
                continue
            expected.append(level)
        assert levels_at(preset, players) == expected
        assert {"random", "greedy", "expert", "ismcts"} <= set(expected)
        assert ("learned" in expected) == ("ismcts:prior=learned" in expected)
    assert "learned" in levels_at(preset, preset.players[1])  # the family model: every count


@pytest.mark.asyncio
async def test_cancelling_leaves_the_match_untouched(tmp_path: Path) -> None:
    app = start(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda o: len(o.history) >= 6)
        session, table = app.session, app.table
        history = list(session.game.history)
        screen = await open_new(pilot, app)
        await pick(pilot, screen, "#new-rules", "les-huit")
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.session is session and app.table is table
        assert session.game.history == history and session.game.rules.name == "classic"
        await play_until(pilot, app, lambda o: len(o.history) >= len(history) + 4)


@pytest.mark.asyncio
@pytest.mark.parametrize(("key", "kept"), [("escape", None), ("k", True), ("x", False)])
async def test_a_match_in_progress_is_left_only_when_the_person_says_so(
        key: str, kept: bool | None, tmp_path: Path) -> None:
    """Starting a new match while one is being played asks, as q does: stay (Esc), keep
    the save (k) or delete it (x)."""
    app = start(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda o: len(o.history) >= 4)
        old = app.session
        history = list(old.game.history)
        assert old.path is not None
        await open_new(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "Leave this match for a new one?" in str(
            app.screen.query_one(".dialog-title", Static).render())
        await pilot.press(key)
        await settle(pilot, app)
        if kept is None:
            assert app.session is old and old.game.history == history
        else:
            assert app.session is not old and not app.session.game.history
            assert old.path.exists() is kept


@pytest.mark.asyncio
async def test_a_new_match_keeps_the_people_of_a_shared_screen(tmp_path: Path) -> None:
    """Three people at a table of four: the new match seats them again, so it offers
    from three players up, and the other seats get bots of the level chosen."""
    session = Session.start("les-huit", 4, bots=["greedy"], humans=3, names=("Ana", "Bo", "Cy"),
                            seed=2, save_dir=tmp_path)
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")  # the handover screen for Ana
        screen = await open_new(pilot, app)
        assert list(screen.player_counts()) == [3, 4]
        await pick(pilot, screen, "#new-rules", "huit-fou")
        assert list(screen.player_counts()) == [3, 4, 5, 6]
        await pick(pilot, screen, "#new-players", 5)
        await pilot.press("s")
        await pilot.pause()
        assert app.session.names[:3] == ["Ana", "Bo", "Cy"] and app.session.humans == [0, 1, 2]
        assert [seat.player for seat in app.session.seats[3:]] == ["greedy", "greedy"]


@pytest.mark.asyncio
async def test_the_end_of_a_match_offers_a_new_one(tmp_path: Path) -> None:
    session = Session.start(load_rules("classic", ["target=1"]), 2, bots=["greedy"], seed=1,
                            save_dir=tmp_path)
    while not session.observe(0).round_over:
        session.bot_move() if session.bot_to_play else session.play(session.legal()[0])
    assert session.observe(0).match_over
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        assert "n: a new match" in str(summary.query_one(".hint", Static).render())
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewMatchScreen)
        assert screen.chosen_rules == "current"  # target=1 is not a preset: kept as is
        await pilot.press("escape")  # back to the summary, the match unchanged
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen) and app.session is session
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("s")  # the match is over: no question
        await settle(pilot, app)
        assert app.session is not session and app.session.game.rules == session.game.rules
        assert not app.session.observe(0).match_over


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("rules", "players"), [("classic", 4), ("classic", 2), ("openspiel", 5)])
async def test_the_new_match_screen_fits_80_by_24(rules: str, players: int, lang: str,
                                                   tmp_path: Path) -> None:
    """Every field, level, line and button lies whole inside the dialog, the dialog inside
    the screen; the bottom bar shows New (n) beside Quit (q)."""
    app = start(tmp_path, rules, players, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        new_key = app.table.query_one("#new", Button)
        assert new_key.display and inside(new_key, Region(0, 0, *SMALL))
        screen = await open_new(pilot, app)
        dialog = screen.query_one("#new-dialog")
        assert inside(dialog, Region(0, 0, *SMALL))
        shown = [w for w in dialog.query("Label, Select, RadioButton, Static, Button")
                 if w.display]
        assert len(shown) >= 10
        for widget in shown:
            assert inside(widget, dialog.content_region), (widget, widget.region)
        for widget in dialog.query(Static):  # every line of its text drawn
            if widget.display and not isinstance(widget, Button):
                box = widget.content_region
                assert len(Content(str(widget.render())).wrap(box.width)) <= box.height, widget
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_a_seeded_match_leads_to_the_same_new_match(tmp_path: Path) -> None:
    """The new match's seed comes from the last one's: the same ``--seed`` deals the same
    next match, and a different one another."""
    deals = []
    for seed in (5, 5, 6):
        session = Session.start("classic", 2, bots=["greedy"], seed=seed, save_dir=tmp_path)
        app = EightsApp(session, translator("en"), speed="instant")
        async with app.run_test(size=SMALL) as pilot:
            await open_new(pilot, app)
            await pilot.press("s")
            await settle(pilot, app)
            assert app.session is not session
            deals.append((app.session.game.seed, app.session.observe(0).hand))
    assert deals[0] == deals[1] and deals[0] != deals[2]


@pytest.mark.parametrize("bots", ["learned", "greedy,ismcts:prior=learned"])
def test_eights_play_seats_the_learned_levels_at_any_table(tmp_path: Path, bots: str) -> None:
    """``--bots learned`` plays a preset changed by --set and a 3-player switch (the family
    model); a model of one rule set given as ``model=`` is refused before the game starts
    at another table, saying how to play every table."""
    data = tmp_path / "data"
    for args in (["-r", "classic", "-n", "2", "--set", "target=20"], ["-r", "switch", "-n", "3"]):
        result = CliRunner().invoke(cli, ["play", "--plain", *args, "--bots", bots, "--seed",
                                          "1"], env={"EIGHTS_DATA_DIR": str(data)},
                                    input="quit\n")
        assert result.exit_code == 0, (result.output, result.exception)
    from test_learned import random_model

    specialist = tmp_path / "classic-2p.npz"
    random_model(load_rules("classic"), 2).save(specialist)
    result = CliRunner().invoke(cli, ["play", "--plain", "-n", "3", "--bots",
                                      f"learned:model={specialist}"],
                                env={"EIGHTS_DATA_DIR": str(tmp_path / "none")}, input="quit\n")
    assert result.exit_code == 2, (result.output, result.exception)
    assert "plays 2 players, not 3" in result.stderr
    assert "leave model= out to play the family model, which plays every table" in result.stderr
    assert not (tmp_path / "none").exists() or not list((tmp_path / "none").iterdir())
