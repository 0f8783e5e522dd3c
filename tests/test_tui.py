"""The full-screen game, driven the way a person drives it: key presses.

Whole rounds are played through the keys for every preset (choose a card with
the digits or the arrows, Enter, the suit picker's c d h s, d p t), with the
HA13 announcement, undo, saving and resuming, the hot-seat handover, the rules
dialog, bot pacing, bots thinking in a worker thread, NO_COLOR, the replay
viewer, and snapshots of the table in English and French.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, RichLog, Static
from typer.testing import CliRunner

from eights.bots import Bot, GreedyBot, RandomBot, make_bot
from eights.engine.actions import DRAW, PASS, Action, Kind
from eights.engine.cards import Card, Rank, Suit
from eights.engine.errors import IllegalActionError
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.record import record_of
from eights.engine.rules import load_rules, preset_names
from eights.i18n import translator
from eights.i18n.text import card_label, match_words, suit_key, suit_words, table_words
from eights.session import Seat, Session
from eights.tui import app as tui_app
from eights.tui.app import EightsApp, TableScreen, is_wild
from eights.tui.cards import CardChips, Unbroken
from eights.tui.dialogs import (
    HandoverScreen,
    QuitScreen,
    RoundOverScreen,
    RulesScreen,
    SuitPicker,
)
from eights.tui.hand import CARD_WIDTH, HandFan, mini_face
from eights.tui.newmatch import NewMatchScreen
from eights.tui.panels import played_by, seat_lines, table_lines
from eights.tui.replay import ReplayApp, ReplayScreen
from stacked import stacked

KEYS = {Kind.DRAW: "d", Kind.PASS: "p", Kind.TAKE: "t"}
SIZE = (100, 32)

AppPilot = Pilot[None]
Policy = Callable[[Observation, random.Random], Action]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EIGHTS_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path


def start(tmp_path: Path, rules: str = "classic", *, seed: int = 1, lang: str = "en",
          players: int | None = None, humans: int = 1, names: tuple[str, ...] = (),
          bots: tuple[str, ...] = ("greedy",)) -> EightsApp:
    session = Session.start(rules, players, bots=list(bots), humans=humans, names=names,
                            seed=seed, save_dir=tmp_path, lang=lang)
    return EightsApp(session, translator(lang), speed="instant")


async def settle(pilot: AppPilot, app: EightsApp) -> None:
    """Wait until no bot is thinking (a bot chooses in a worker thread; instant speed)."""
    await pilot.pause()  # the screen is laid out
    for _step in range(200):
        if not app.is_running or not app.table.thinking:
            return
        await app.workers.wait_for_complete()
        await pilot.pause()  # the screen takes the choice and plays it
    raise AssertionError("the bots did not finish their moves")


async def click_card(pilot: AppPilot, app: EightsApp, index: int, *, button: int = 1,
                     control: bool = False) -> None:
    """Click the middle of the visible part of card ``index`` in the hand."""
    fan = app.table.query_one(HandFan)
    top = 0 if index == fan.selected else 1
    await pilot.click(HandFan, offset=(fan.lefts()[index] + 1, top + 2), button=button,
                      control=control)


def log_text(app: EightsApp) -> str:
    return "\n".join(app.table.log_lines)


def shown_hand(app: EightsApp) -> tuple[object, ...]:
    return app.table.query_one(HandFan).cards


def any_play(obs: Observation, rng: random.Random) -> Action:
    """A person who mostly plays (wild cards often, so the suit picker is used)."""
    legal = list(obs.legal)
    plays = [a for a in legal if a.card is not None and not a.announce]
    wild = [a for a in plays if a.suit is not None]
    if wild and rng.random() < 0.5:
        return rng.choice(wild)
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(legal)


def choose_keys(index: int, current: int, rng: random.Random) -> list[str]:
    """The keys that move the choice from card ``current`` to card ``index``."""
    distance = index - current
    if index >= 9 or (abs(distance) <= 2 and rng.random() < 0.5):
        return ["right" if distance > 0 else "left"] * abs(distance)
    return [str(index + 1)]


async def press_action(pilot: AppPilot, app: EightsApp, action: Action,
                       rng: random.Random) -> None:
    """Press the keys a person presses for ``action``, then check the game got it.

    A multi-card play (SW3) marks the cards under the top one (m or space), then
    chooses the top card and presses Enter; ``=s`` picks the suit in the picker that
    opens by itself for a wild starter (TS3).
    """
    table = app.table
    seat = table.viewer
    history = len(app.session.game.history)
    if action.kind is Kind.NAME:
        assert action.suit is not None
        keys = [] if isinstance(app.screen, SuitPicker) else ["enter"]
        keys.append(suit_key(action.suit, app.tr))  # the picker key of the language
    elif action.card is None:
        keys = [KEYS[action.kind]]
    else:
        hand = list(table.obs.hand)
        keys = ["a"] if action.announce != table.announce else []
        current = table.selected
        taken: set[int] = set()
        for card in action.cards[:-1]:  # SW3: mark the cards under the top one
            index = next(i for i, c in enumerate(hand) if c == card and i not in taken)
            taken.add(index)
            keys += choose_keys(index, current, rng)
            keys.append(rng.choice(["m", "space"]))
            current = index
        index = next(i for i, c in enumerate(hand) if c == action.card and i not in taken)
        keys += choose_keys(index, current, rng)
        keys.append("enter")
        if action.suit is not None:
            keys.append(suit_key(action.suit, app.tr))  # the picker is open: its key
    await pilot.press(*keys)
    assert app.session.game.history[history] == (seat, action), keys
    await settle(pilot, app)


async def play_until(pilot: AppPilot, app: EightsApp, done: Callable[[Observation], bool],
                     policy: Policy = any_play, *, seed: int = 0,
                     next_rounds: bool = True, limit: int = 400) -> Observation | None:
    """Play through the keys until ``done`` holds at a person's turn.

    Returns that observation, or ``None`` when a round summary appears and
    ``next_rounds`` is false (the summary stays on screen).
    """
    rng, keys = random.Random(seed), random.Random(-seed)
    for _turn in range(limit):
        await settle(pilot, app)
        screen = app.screen
        if isinstance(screen, RoundOverScreen):
            if not next_rounds:
                return None
            await pilot.press("enter")
            continue
        if isinstance(screen, HandoverScreen):
            await pilot.press("enter")
            continue
        assert isinstance(screen, TableScreen) or (
            isinstance(screen, SuitPicker) and screen.naming)  # TS3: it opens by itself
        obs = app.session.observe(app.table.seat)
        assert obs.legal, "a person is to play whenever the table is in front"
        if done(obs):
            return obs
        await press_action(pilot, app, policy(obs, rng), keys)
    raise AssertionError("the game did not get there")


# ---------------------------------------------------------------------- whole rounds


# Seeds whose first round is short and uses the suit picker (and take in les-huit); in
# switch, black-jack and last-card multi-card plays too, in uno-cards the =s naming.
ROUNDS = [("classic", 1), ("huit-fou", 43), ("huit-americain", 21), ("les-huit", 12),
          ("openspiel", 15), ("crazy-eights", 5), ("mau-mau", 40), ("switch", 9),
          ("black-jack", 13), ("last-card", 27), ("pesten", 5), ("tschau-sepp", 30),
          ("uno-cards", 53)]


def test_every_preset_is_played() -> None:
    assert sorted(rules for rules, _seed in ROUNDS) == sorted(preset_names())


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "seed"), ROUNDS)
async def test_a_round_played_with_keys(rules: str, seed: int, tmp_path: Path) -> None:
    app = start(tmp_path, rules, seed=seed)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        assert table.viewer == 0 and shown_hand(app) == app.session.observe(0).hand
        assert await play_until(pilot, app, lambda obs: False, seed=seed,
                                next_rounds=False) is None
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        text = " ".join(str(label.render()) for label in summary.query(".name"))
        for name in app.session.names:
            assert name in text
        revealed = summary.obs.revealed
        assert revealed is not None
        assert [c.cards for c in summary.query(CardChips)] == [tuple(h) for h in revealed]
        match_over = app.session.observe(0).match_over
        await pilot.press("enter")
        if match_over:  # openspiel: one round is the match; Enter leaves
            assert app.return_code == 0 and not app.is_running
        else:
            assert app.screen is table and app.session.observe(0).round == 2
            assert "Round 2" in log_text(app)


@pytest.mark.asyncio
async def test_les_huit_shows_teams_and_the_take_choice(tmp_path: Path) -> None:
    app = start(tmp_path, "les-huit", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        teams = str(app.table.query_one("#teams", Static).render())
        assert "Team 1: Player & Bot 2" in teams and "Team 2: Bot 1 & Bot 3" in teams
        obs = await play_until(pilot, app, lambda o: o.may_take, seed=1)
        assert obs is not None and set(obs.legal) == {Action.parse("take"),
                                                      Action.parse("pass")}
        assert "t: take it" in str(app.table.query_one("#prompt", Static).render())
        size = len(obs.hand)
        await press_action(pilot, app, Action.parse("take"), random.Random(0))
        assert len(app.session.observe(0).hand) == size + 1


# ---------------------------------------------------------------------- the suit picker


@pytest.mark.asyncio
async def test_suit_picker_names_the_suit_and_escape_cancels(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=4)  # an 8 in the first hand
    async with app.run_test(size=SIZE) as pilot:
        obs = await play_until(pilot, app, lambda o: any(a.suit is not None for a in o.legal))
        assert obs is not None
        eight = next(a.card for a in obs.legal if a.suit is not None)
        assert eight is not None and eight.rank is Rank.EIGHT
        history = len(app.session.game.history)
        await pilot.press(*(["right"] * ((obs.hand.index(eight) - app.table.selected)
                                         % len(obs.hand))))
        await pilot.press("enter")
        picker = app.screen
        assert isinstance(picker, SuitPicker)
        await pilot.press("escape")  # changed my mind: nothing is played
        assert app.screen is app.table and len(app.session.game.history) == history
        await click_card(pilot, app, obs.hand.index(eight))
        assert isinstance(app.screen, SuitPicker)  # a click plays the card too
        await pilot.click("#suit-h")
        assert app.session.game.history[history] == (0, Action.play(eight, Suit.HEARTS))
        assert f"You play {eight.pretty()} and name ♥" in log_text(app)


# ---------------------------------------------------------------------- HA13, undo


def two_cards_one_to_announce(obs: Observation) -> bool:
    return len(obs.hand) == 2 and any(
        a.announce and a.card is not None and a.card.rank is not Rank.TEN for a in obs.legal)


@pytest.mark.asyncio
async def test_announce_avoids_the_penalty_and_forgetting_draws_two(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-americain", seed=7)  # two cards after a few turns
    async with app.run_test(size=SIZE) as pilot:
        rng = random.Random(0)
        for _attempt in range(20):
            obs = await play_until(pilot, app, two_cards_one_to_announce, seed=_attempt)
            assert obs is not None
            announced = next(a for a in obs.legal if a.announce and a.card is not None
                             and a.card.rank is not Rank.TEN)
            before = app.session.game.to_json()
            await press_action(pilot, app, announced, rng)  # presses a first
            assert len(app.session.game.hands[0]) == 1
            assert "“last card!”" in log_text(app)
            assert not app.table.announce  # the key works for one play
            if isinstance(app.screen, RoundOverScreen):  # a bot went out: try again
                continue
            await pilot.press("u")
            assert app.session.game.to_json() == before
            forgot = announced.without_announce()
            await press_action(pilot, app, forgot, rng)
            assert len(app.session.game.hands[0]) == 1 + 2  # HA13: the penalty is 2 cards
            assert "you forgot to announce and draw" in log_text(app)
            return
        raise AssertionError("no round let the bots wait")


@pytest.mark.asyncio
async def test_undo_restores_the_state_before_your_move(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=8)
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        assert app.table.query_one("#undo").disabled
        before = session.game.to_json()
        hand = session.observe(0).hand
        play = next(a for a in session.observe(0).legal if a.card is not None)
        await press_action(pilot, app, play, random.Random(1))
        assert session.game.to_json() != before and session.can_undo
        await pilot.press("u")
        assert session.game.to_json() == before
        assert shown_hand(app) == hand
        assert "Your last move is taken back." in log_text(app)
        await pilot.press("u")  # nothing left to take back
        assert session.game.to_json() == before
        assert "Nothing to undo." in log_text(app)


# ---------------------------------------------------------------------- saving


@pytest.mark.asyncio
async def test_the_game_quits_when_its_terminal_goes_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A window closed under ``make play`` sends the game no hang-up: it notices that its
    terminal has gone, and quits (it used to spin on its input); the save is kept."""
    app = start(tmp_path, "classic", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        path = app.session.path
        app.check_terminal()  # under the test driver, standard output is no terminal
        await pilot.pause()
        assert not app.is_running
    assert path is not None and path.exists()
    alive = start(tmp_path, "classic", seed=3)
    monkeypatch.setattr(tui_app, "_terminal_alive", lambda: True)
    async with alive.run_test(size=SIZE) as pilot:
        alive.check_terminal()
        await pilot.pause()
        assert alive.is_running


@pytest.mark.asyncio
async def test_quit_keeping_the_save_and_resume(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-fou", seed=6)
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        path = session.path
        assert path is not None and str(path) in log_text(app)
        count = 0

        def three(obs: Observation) -> bool:
            nonlocal count
            count += 1
            return count > 3

        await play_until(pilot, app, three)
        state = session.game.to_json()
        await pilot.press("q")
        dialog = app.screen
        assert isinstance(dialog, QuitScreen)
        assert str(path) in " ".join(str(s.render()) for s in dialog.query(Static))
        await pilot.press("escape")  # stay
        assert app.screen is app.table and app.is_running
        await pilot.press("q", "k")
        assert not app.is_running
    assert path.exists()
    resumed = Session.resume(path)
    assert resumed.game.to_json() == state and resumed.names == session.names
    again = EightsApp(resumed, translator("en"), speed="instant")
    async with again.run_test(size=SIZE) as pilot:
        assert shown_hand(again) == resumed.observe(0).hand
        rng = random.Random(2)
        await press_action(pilot, again, any_play(resumed.observe(0), rng), rng)
        await pilot.press("q", "x")  # delete the save
        assert not again.is_running
    assert not path.exists()


# ---------------------------------------------------------------------- hot-seat


@pytest.mark.asyncio
async def test_hot_seat_hides_the_hand_between_people(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", players=3, humans=2, names=("Ana", "Ben"), seed=3)
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        first = app.screen
        assert isinstance(first, HandoverScreen)
        assert "Pass the keyboard to Ana" in str(first.query_one(Static).render())
        assert shown_hand(app) == ()
        await pilot.press("enter")
        assert app.screen is app.table and shown_hand(app) == session.observe(0).hand
        assert app.table.query_one("#hand-box").border_title == "Hand of Ana"
        assert not session.can_undo
        await pilot.press("d")  # Ana draws; Ben is next
        handover = app.screen
        assert isinstance(handover, HandoverScreen)
        assert "Pass the keyboard to Ben" in str(handover.query_one(Static).render())
        assert shown_hand(app) == () and app.table.viewer is None
        assert not app.table.query_one(HandFan).cards
        await pilot.press("d")  # keys do nothing behind the handover
        assert len(session.game.history) == 1
        await pilot.press("enter")
        assert shown_hand(app) == session.observe(1).hand
        assert app.table.query_one("#hand-box").border_title == "Hand of Ben"


# ---------------------------------------------------------------------- the rest of the keys


@pytest.mark.asyncio
async def test_rules_dialog_and_speed_keys(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-americain", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        rules = app.screen
        assert isinstance(rules, RulesScreen)
        text = " ".join(str(s.render()) for s in rules.query(".paragraph"))
        assert rules.rules_title == "Le 8 américain (huit-americain)" and "announce" in text
        await pilot.press("pagedown", "escape")
        assert app.screen is app.table
        assert app.table.speed == "instant"
        await pilot.press("minus", "minus")
        assert app.table.speed == "normal"
        assert "Speed: normal" in str(app.table.sub_title)
        await pilot.press("plus")
        assert app.table.speed == "fast"


@pytest.mark.asyncio
async def test_bots_move_one_at_a_time(tmp_path: Path) -> None:
    session = Session.start("classic", 4, bots=["random"], seed=9, save_dir=tmp_path)
    app = EightsApp(session, translator("en"), speed="slow")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")  # draw: the bots play next, one every 1.5 s
        assert len(session.game.history) == 1  # no bot has moved yet: they wait their turn
        assert "Bot 1 is playing" in str(app.table.query_one("#prompt", Static).render())
        await pilot.press("plus", "plus")  # fast: one every 0.3 s
        assert app.table.speed == "fast"
        seen = [len(session.game.history)]
        for _wait in range(60):
            await pilot.pause(0.1)
            seen.append(len(session.game.history))
            if session.human_to_play or session.observe(0).round_over:
                break
        assert seen[-1] >= 4  # three bots, one after the other


# ---------------------------------------------------------------------- bots think in a worker


class SlowBot:
    """A random bot that thinks until it is told to go on (``go``), in any thread."""

    name = "slow"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.thinking = threading.Event()
        """Set when a decision has begun."""
        self.done = threading.Event()
        """Set when a decision is made."""
        self.threads: list[int] = []

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        self.threads.append(threading.get_ident())
        self.thinking.set()
        self.go.wait(10)  # a failing test lets it go; this is only a safety net
        try:
            return RandomBot().choose(observation, legal, rng)
        finally:
            self.done.set()


def slow_table(tmp_path: Path, speed: str = "instant") -> tuple[EightsApp, SlowBot]:
    """Four players (seed 9: the person draws, then the bots play); every bot is slow."""
    session = Session.start("classic", 4, bots=["random"], seed=9, save_dir=tmp_path)
    slow = SlowBot()
    for seat in session.seats[1:]:
        seat.bot = slow
    return EightsApp(session, translator("en"), speed=speed), slow


async def thread_event(event: threading.Event) -> None:
    assert await asyncio.to_thread(event.wait, 10)


def prompt_text(app: EightsApp) -> str:
    return str(app.table.query_one("#prompt", Static).render())


async def until(pilot: AppPilot, done: Callable[[], bool], seconds: float = 10) -> None:
    """Let the screen run until ``done`` holds (timers and workers need real time)."""
    for _wait in range(int(seconds / 0.05)):
        if done():
            return
        await pilot.pause(0.05)
    raise AssertionError("it did not happen")


@pytest.mark.asyncio
async def test_the_screen_answers_while_a_bot_thinks(tmp_path: Path) -> None:
    app, slow = slow_table(tmp_path)
    session = app.session
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.press("d")  # the person draws; Bot 1 thinks (and waits for go)
            await thread_event(slow.thinking)
            assert slow.threads[0] != threading.get_ident()  # not on the screen's thread
            await until(pilot, lambda: "Bot 1 is thinking…" in prompt_text(app))
            assert len(session.game.history) == 1 and app.table.thinking
            assert shown_hand(app) == session.observe(0).hand  # with the card drawn
            selected = app.table.selected
            await pilot.press("right")  # keys are handled and the hand redrawn meanwhile
            assert app.table.selected == (selected + 1) % len(shown_hand(app))
            assert app.table.query_one(HandFan).selected == app.table.selected
            await pilot.press("minus")
            assert app.table.speed == "fast" and "Speed: fast" in str(app.table.sub_title)
            await pilot.press("question_mark")
            dialog = app.screen
            assert isinstance(dialog, RulesScreen)
            slow.go.set()  # Bot 1 has chosen, but waits for the dialog to close
            await thread_event(slow.done)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(session.game.history) == 1
            assert app.table.thinking and dialog.is_active
            await pilot.press("escape")
            assert app.screen is app.table
            await until(pilot, lambda: not app.table.thinking)  # the others 0.3 s apart
            assert len(session.game.history) >= 4
            assert session.human_to_play or session.observe(0).round_over
            assert "is thinking" not in prompt_text(app)
        finally:
            slow.go.set()


@pytest.mark.asyncio
async def test_undo_while_a_bot_thinks_drops_its_move(tmp_path: Path) -> None:
    app, slow = slow_table(tmp_path)
    session = app.session
    before, bots = session.game.to_json(), session.bot_rng.getstate()
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.press("d")
            await thread_event(slow.thinking)
            assert len(session.game.history) == 1 and app.table.thinking
            await pilot.press("u")  # taken back while Bot 1 is still thinking
            assert session.game.to_json() == before and not app.table.thinking
            slow.go.set()  # the stale choice is made now, and must be dropped
            await thread_event(slow.done)
            for _wait in range(3):
                await pilot.pause()
            assert session.game.to_json() == before and session.human_to_play
            assert session.bot_rng.getstate() == bots
            assert shown_hand(app) == session.observe(0).hand
            assert len(slow.threads) == 1
            await pilot.press("d")  # the same move again: the bots answer it as before
            await settle(pilot, app)
            assert len(session.game.history) >= 4
            assert len(slow.threads) == len(session.game.history)  # the dropped one, then one each
        finally:
            slow.go.set()
    again = Session.start("classic", 4, bots=["random"], seed=9, save_dir=None)
    again.play(DRAW)
    while again.bot_to_play:
        again.bot_move()
    assert again.game.to_json() == session.game.to_json()


@pytest.mark.asyncio
async def test_a_bot_that_has_chosen_waits_for_the_quit_dialog(tmp_path: Path) -> None:
    app, slow = slow_table(tmp_path)
    session = app.session
    async with app.run_test(size=SIZE) as pilot:
        try:
            await pilot.press("d")
            await thread_event(slow.thinking)
            await pilot.press("q")
            dialog = app.screen
            assert isinstance(dialog, QuitScreen)
            slow.go.set()
            await thread_event(slow.done)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(session.game.history) == 1  # nothing is played behind the dialog
            assert dialog.is_active
            await pilot.press("escape")  # stay: the bots play on
            await settle(pilot, app)
            assert app.screen is app.table and len(session.game.history) >= 4
        finally:
            slow.go.set()


def test_a_stale_bot_choice_is_refused() -> None:
    """What the screen relies on: a choice is played once, in the game it was made for."""
    session = Session.start("classic", 4, bots=["random"], seed=9, save_dir=None)
    session.play(DRAW)
    turn = session.bot_turn()
    choice = turn.choose()
    assert session.undo()
    with pytest.raises(IllegalActionError, match="moved on"):
        session.bot_play(turn, choice)
    assert len(session.game.history) == 0
    session.play(DRAW)
    turn = session.bot_turn()
    session.bot_play(turn, turn.choose())
    with pytest.raises(IllegalActionError, match="moved on"):
        session.bot_play(turn, choice)  # not twice
    assert len(session.game.history) == 2


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "seed"), [("classic", 11), ("huit-americain", 1)])
async def test_bots_in_workers_play_the_game_they_always_played(rules: str, seed: int,
                                                               tmp_path: Path) -> None:
    app = start(tmp_path, rules, seed=seed, players=4, bots=("greedy", "random"))
    async with app.run_test(size=SIZE) as pilot:
        assert await play_until(pilot, app, lambda obs: False, seed=seed,
                                next_rounds=False) is None
        assert isinstance(app.screen, RoundOverScreen)
        history, final = list(app.session.game.history), app.session.game.to_json()
        await pilot.press("enter")  # the next round: the bots keep playing
        await settle(pilot, app)
        assert app.session.observe(0).round == 2
        assert app.session.human_to_play or app.session.observe(0).round_over
    # The same round without a screen, bots choosing the way they always did: one
    # generator for every bot move, seeded from the game's seed.
    same = Game(rules, 4, seed=seed, dealer=3)
    rng = random.Random(f"{seed}/bots/0")
    bots: list[Bot] = [GreedyBot(), GreedyBot(), RandomBot(), GreedyBot()]
    for seat, action in history:
        if seat == 0:
            same.apply(action)
        else:
            assert bots[seat].choose(same.observe(seat), same.legal_actions(), rng) == action
            same.apply(action)
    assert same.to_json() == final


@pytest.mark.asyncio
async def test_no_color_keeps_playable_cards_apart(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = start(tmp_path, "classic", seed=1)
    async with app.run_test(size=SIZE):
        assert app.no_color
        hand = app.session.observe(0).hand
        playable = {a.card for a in app.session.observe(0).legal if a.card is not None}
        assert playable and len(playable) < len(hand)
        fan = app.table.query_one(HandFan)
        lines = str(fan.render()).splitlines()
        for i, card in enumerate(hand):  # heavy borders tell playable cards without colour
            left = fan.lefts()[i]
            top = 0 if i == fan.selected else 1
            assert lines[top + 3][left] == ("┗" if card in playable else "╰"), (i, card)


# ---------------------------------------------------------------------- the replay viewer


def finished_record(tmp_path: Path) -> tuple[Path, Game]:
    game = Game("huit-americain", 3, seed=12)
    rng = random.Random(12)
    while not game.over:
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])
    meta = {"seats": [{"name": n, "player": "random"} for n in ("Ana", "Ben", "Cy")]}
    path = tmp_path / "game.json"
    path.write_text(record_of(game, meta=meta).dumps(), "utf-8")
    return path, game


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_replay_viewer_shows_the_cards_played_before_at_80_by_24(lang: str,
                                                                      tmp_path: Path) -> None:
    """The table keeps its "Played before" list whole at 80×24 (it was cut off); the
    hands below scroll instead, and the keys line is whole."""
    from eights.engine.record import load_record

    path, _final = finished_record(tmp_path)
    app = ReplayApp(load_record(path), translator(lang))
    async with app.run_test(size=SMALL) as pilot:
        viewer = app.viewer
        for _step in range(12):
            await pilot.press("right")
        await pilot.pause()
        panel = viewer.query_one("#table")
        chips = viewer.query_one("#discard", CardChips)
        assert len(chips.cards) >= 5
        for selector in ("#table-info", "#discard-label", "#discard"):
            assert inside(viewer.query_one(selector), panel.content_region), selector
        label = viewer.query_one("#discard-label", Static)
        assert label.region.width * label.region.height >= cell_len(str(label.visual))
        hands = viewer.query_one("#hands")
        assert inside(hands, Region(0, 0, *app.size)) and hands.content_region.height >= 2
        keys = viewer.query_one("#keys", Static)
        assert cell_len(str(keys.visual)) <= keys.content_region.width


@pytest.mark.asyncio
async def test_replay_viewer_steps_through_the_record(tmp_path: Path) -> None:
    from eights.engine.record import load_record

    path, final = finished_record(tmp_path)
    app = ReplayApp(load_record(path), translator("en"))
    actions = len(final.history)
    assert len(app.frames) == actions + 1
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.viewer
        assert isinstance(viewer, ReplayScreen)
        await pilot.press("right", "right", "right")
        assert viewer.position == 3
        frame = app.frames[3]
        for s in range(3):  # every hand is shown
            chips = viewer.query_one(f"#cards-{s}", CardChips)
            assert chips.cards == tuple(frame.game.hand(s))
        assert len(viewer.query_one("#log", RichLog).lines) >= 3
        await pilot.press("left")
        assert viewer.position == 2
        await pilot.press("end")
        assert viewer.position == actions
        log = "\n".join(line.text for line in viewer.query_one("#log", RichLog).lines)
        assert "Round 1 is over" in log
        assert all(viewer.query_one(f"#cards-{s}", CardChips).cards == tuple(final.hand(s))
                   for s in range(3))
        await pilot.press("home")
        assert viewer.position == 0
        await pilot.press("q")
        assert not app.is_running


def test_replay_view_refuses_a_bad_record(tmp_path: Path) -> None:
    from eights.cli import app as cli

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "eights-record/1", "rules": "classic", "players": 2, '
                   '"dealer": 0, "seed": 1, "rounds": [{"actions": ["draw", "Zz"]}]}')
    result = CliRunner().invoke(cli, ["replay", str(bad), "--view"])
    assert result.exit_code == 2 and "Zz" in result.stderr


# ---------------------------------------------------------------------- snapshots


def snapshot_app(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> EightsApp:
    monkeypatch.chdir(tmp_path)
    session = Session.start("classic", 4, bots=["random"], seed=7, save_dir=None, lang=lang)
    session.path = Path("saves") / "classic-7.json"  # no date on screen
    return EightsApp(session, translator(lang), speed="instant")


def test_snapshot_english(snap_compare: Callable[..., bool], tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert snap_compare(snapshot_app("en", tmp_path, monkeypatch), press=["right"],
                        terminal_size=SIZE)


def test_snapshot_french(snap_compare: Callable[..., bool], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert snap_compare(snapshot_app("fr", tmp_path, monkeypatch), terminal_size=SIZE)


def test_snapshot_light_theme(snap_compare: Callable[..., bool], tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    def light(pilot: AppPilot) -> None:
        pilot.app.theme = "textual-light"

    assert snap_compare(snapshot_app("en", tmp_path, monkeypatch), terminal_size=SIZE,
                        run_before=light)


# ---------------------------------------------------------------------- the layout at 80×24


SMALL = (80, 24)
TABLES = [(rules, n) for rules in sorted(preset_names()) for n in (2, 4, 6)
          if load_rules(rules).players[0] <= n <= load_rules(rules).players[1]]


def inside(widget: Widget, outer: Region) -> bool:
    """The widget is shown and lies wholly inside ``outer`` (nothing clipped)."""
    region = widget.region
    return bool(region.area) and outer.contains_region(region)


def assert_table_fits(app: EightsApp, lang: str = "en") -> None:
    """Up-card, what to match, stock, goal, every player, the whole hand, prompt and keys."""
    table = app.table
    screen = Region(0, 0, *app.size)
    assert not table.has_class("-too-small")
    panel = table.query_one("#table")
    for selector in ("#up-card", "#table-info"):
        assert inside(table.query_one(selector), panel.content_region), selector
    _ = translator(lang)
    obs = app.session.observe(table.seat)
    info = str(table.query_one("#table-info", Static).render())
    for line in table_lines(obs, app.session.names, _, app.session.you):
        assert line in info
    assert match_words(obs.rules, _) in info
    players = table.query_one("#players")
    assert inside(players, screen)
    for label in players.query(".name"):
        assert inside(label, players.content_region)
    log = table.query_one("#log")
    assert inside(log, screen) and log.content_region.height >= 1
    for selector in ("#prompt", "#hand", "#actions"):
        assert inside(table.query_one(selector), screen), selector
    fan = table.query_one(HandFan)
    if fan.cards:
        assert fan.lefts()[-1] + fan.card_width <= fan.content_region.width
        assert fan.step >= 3  # each card shows its border, rank and suit
    for button in table.query("#actions > Button"):
        if button.display:
            assert inside(button, screen), button.id
    box = table.query_one("#hand-box")  # the hand's whole box, its bottom border too
    assert inside(box, screen) and box.styles.border_bottom[0] not in ("", "none")
    label, chips = table.query_one("#discard-label", Static), table.query_one("#discard")
    if label.display:  # the cards played before: the heading whole, the cards inside
        assert inside(label, panel.content_region) and inside(chips, panel.content_region)
        visual = label.visual
        text = str(visual)
        assert label.region.width * label.region.height >= cell_len(text)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("rules", "players"), TABLES)
async def test_every_table_fits_80_by_24(rules: str, players: int, lang: str,
                                         tmp_path: Path) -> None:
    app = start(tmp_path, rules, seed=3, players=players, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        assert_table_fits(app, lang)
        if load_rules(rules).announce_last_card:  # the longer label of the key, too
            app.table.announce = True
            await pilot.pause()
            assert_table_fits(app, lang)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("rules", ["classic", "switch", "huit-americain"])
async def test_80_by_24_keeps_every_key(rules: str, lang: str, tmp_path: Path) -> None:
    """Issue 35: in French the bar lost « Aide (?) » and « Nouvelle (n) », in English Switch
    lost « Help (?) ». Key first (``? Aide``), every key fits, the announcement's longer
    label too (the header: test_tui_players.py)."""
    app = start(tmp_path, rules, seed=3, players=4, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        for announcing in (False, True) if load_rules(rules).announce_last_card else (False,):
            app.table.announce = announcing
            await pilot.pause()
            bar = list(app.table.query("#actions > Button").results(Button))
            shown = {str(b.id) for b in bar if b.display}
            assert {"draw", "pass", "undo", "rules", "new", "quit"} <= shown, shown
            assert all(inside(b, Region(0, 0, *SMALL)) for b in bar if b.display)
            help_key = next(b for b in bar if b.id == "rules")
            assert str(help_key.label) == ("? Aide" if lang == "fr" else "? Help")


def test_plain_mode_and_the_full_screen_say_the_direction_alike() -> None:
    """Issue 35: plain mode said "Direction: →", the full screen "↓ clockwise"."""
    game = Game(load_rules("huit-fou"), 3, seed=2)
    session = Session(game, [Seat("Ana"), Seat("Bob"), Seat("Cy")], path=None, bot_seed="x")
    for lang in ("en", "fr"):
        _ = translator(lang)
        plain = table_words(game, session.names, _)
        screen = table_lines(game.observe(0), session.names, _, 0)
        direction = [line for line in plain if line.startswith(_("Direction: {arrow}", arrow=""))]
        assert direction and direction[0] in screen
    assert "Direction: ↓ clockwise" in table_words(game, session.names, translator("en"))


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_cards_played_before_and_the_hand_box_fit_80_by_24(lang: str,
                                                                     tmp_path: Path) -> None:
    """Later in a round, with cards played before the up-card: their heading is whole (it
    was cut in French: « Cartes déjà jouées (la plus récente en d… »), the cards inside the
    table, and the hand keeps its bottom border."""
    app = start(tmp_path, "classic", seed=4, players=4, lang=lang)
    async with app.run_test(size=SMALL) as pilot:
        obs = await play_until(pilot, app, lambda o: len(o.discard) >= 6)
        assert obs is not None
        assert app.table.query_one("#discard-label").display
        assert_table_fits(app, lang)


def test_a_no_break_space_never_starts_a_line() -> None:
    """Textual breaks at U+00A0 too, so a French « ; » could start a line; the TUI's text
    keeps it with the word before."""
    text = translator("fr")("Each player scores the cards left in their own hand; the lowest "
                            "total wins.")
    assert "\u00a0;" in text
    width = text.index("\u00a0;") + 1  # Textual's own wrap puts the « ; » first on a line
    assert any(line.plain.startswith(";") for line in Content(text).wrap(width))
    lines = Unbroken(text).lines(width)
    assert not any(line.startswith((";", ":", "!", "?", "»")) for line in lines), lines
    assert " ".join(lines) == text


@pytest.mark.asyncio
async def test_the_french_log_never_starts_a_line_with_its_punctuation(tmp_path: Path) -> None:
    """At 80×24 the first line of the log broke before « ? » (« Appuyez sur » / « ? pour
    les règles. »); every line of the log, as drawn, starts with a word."""
    app = start(tmp_path, "classic", seed=7, players=4, lang="fr")
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda o: len(o.history) >= 8)
        log = app.table.query_one("#log", RichLog)
        drawn = [strip.text.strip() for strip in log.lines]
        assert any("?" in line for line in drawn) and len(drawn) > len(app.table.log_lines)
        assert not any(line.startswith((":", ";", "!", "?", "»")) for line in drawn), drawn


@pytest.mark.asyncio
async def test_the_french_round_summary_keeps_its_semicolon_at_80_by_24(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-fou", seed=2, players=4, lang="fr")
    async with app.run_test(size=SMALL) as pilot:
        assert await play_until(pilot, app, lambda o: False, next_rounds=False) is None
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        how = summary.query_one(".how", Static)
        assert isinstance(how.visual, Unbroken)
        shown = how.visual.lines(how.content_region.width)
        assert len(shown) == how.content_region.height
        assert not any(line.startswith(";") for line in shown), shown


def test_every_preset_and_table_size_is_checked() -> None:
    assert {rules for rules, _n in TABLES} == set(preset_names())
    assert ("les-huit", 4) in TABLES and ("classic", 6) in TABLES and ("openspiel", 6) in TABLES


@pytest.mark.asyncio
async def test_a_long_hand_overlaps_and_stays_whole(tmp_path: Path) -> None:
    session = Session.start("classic", 2, bots=["random"], seed=5, save_dir=tmp_path)
    while len(session.game.hands[0]) < 22:  # draw until the hand is far wider than the screen
        if session.bot_to_play:
            session.bot_move()
        elif DRAW in session.legal():
            session.play(DRAW)
        else:
            session.play(session.legal()[0])
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        fan = app.table.query_one(HandFan)
        assert len(fan.cards) >= 22 and fan.step < CARD_WIDTH
        assert_table_fits(app)
        lines = str(fan.render()).splitlines()
        corners = "".join(line[left + 1:left + 3] for line in lines[1:4]
                          for left in fan.lefts())
        for card in fan.cards:  # every rank and suit can be read in the overlapped fan
            first, second = mini_face(card, translator("en"))
            assert first[:2].strip() in corners and second[0] in corners
        obs = session.observe(0)
        playable = {a.card for a in obs.legal if a.card is not None}
        stuck = max(i for i, card in enumerate(obs.hand) if card not in playable)
        history = len(session.game.history)
        await click_card(pilot, app, stuck)  # a click picks the card under the mouse, even
        assert app.table.selected == stuck  # half hidden under the next one
        assert len(session.game.history) == history
        assert prompt_of(app) == f"{card_label(obs.hand[stuck], translator('en'))} cannot be " \
                                 "played now."


@pytest.mark.asyncio
async def test_the_suit_picker_and_the_keys_are_whole_at_80_by_24(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=4, players=4, lang="fr")
    async with app.run_test(size=SMALL) as pilot:
        obs = await play_until(pilot, app, lambda o: any(a.suit is not None for a in o.legal))
        assert obs is not None
        eight = next(a.card for a in obs.legal if a.suit is not None)
        assert eight is not None
        await pilot.press(str(obs.hand.index(eight) + 1), "enter")
        picker = app.screen
        assert isinstance(picker, SuitPicker)
        screen = Region(0, 0, *SMALL)
        dialog = picker.query_one("#suit-dialog")
        assert inside(dialog, screen)
        for button in picker.query(Button):
            assert inside(button, dialog.content_region), button.label
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_below_the_minimum_size_a_message_says_so(tmp_path: Path) -> None:
    app = start(tmp_path, "les-huit", seed=3)
    async with app.run_test(size=(70, 20)) as pilot:
        table = app.table
        assert table.has_class("-too-small")
        message = table.query_one("#too-small", Static)
        assert message.display and "70×20" in str(message.render())
        assert "80×24" in str(message.render())
        assert not table.query_one("#top").display
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert not table.has_class("-too-small") and not message.display
        assert_table_fits(app)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(120, 40), (200, 60)])
async def test_large_terminals_give_the_log_and_the_table_more_room(
        size: tuple[int, int], tmp_path: Path) -> None:
    app = start(tmp_path, "les-huit", seed=3)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        assert_table_fits(app)
        table = app.table
        assert table.query_one("#log").region.height > size[1] // 3
        assert table.query_one("#players-grid > .head").display  # headings are back
        fan = table.query_one(HandFan)
        assert fan.big and fan.card_width > CARD_WIDTH  # tall screens: big cards
        assert fan.region.height == fan.card_height + 1
        assert fan.step == fan.card_width + 1  # the cards stand apart
        seats = table.query_one("#seats", Static)  # the other hands, around the table
        assert inside(seats, table.query_one("#table").content_region)
        text = str(seats.render()).splitlines()
        assert [line.split()[0:2] for line in text] == [["Bot", "1"], ["Bot", "2"], ["Bot", "3"]]
        assert all(line.rstrip().endswith(" 5") for line in text)  # five cards each


# ---------------------------------------------------------------------- feedback


def prompt_of(app: EightsApp) -> str:
    return str(app.table.query_one("#prompt", Static).render())


@pytest.mark.asyncio
async def test_keys_that_do_not_apply_say_why(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert PASS not in app.session.legal()
        await pilot.press("p")
        assert prompt_of(app) == "p: you cannot pass now; play a card or draw (d)."
        assert app.table.query_one("#prompt").has_class("-flash")
        await pilot.press("t")
        assert prompt_of(app).startswith("t does nothing here: these rules never let you take")
        await pilot.press("a")
        assert prompt_of(app).startswith("a does nothing here: these rules have no last-card")
        assert len(app.session.game.history) == 0
        await pilot.press("d")  # a key that applies clears the message
        await settle(pilot, app)
        assert not app.table.query_one("#prompt").has_class("-flash")
    app = start(tmp_path, "huit-americain", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert prompt_of(app) == ("a: announce only with the play that leaves you one card; "
                                  "you hold 7 cards.")
        assert not app.table.announce
    app = start(tmp_path, "les-huit", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        assert prompt_of(app).startswith("t: you may take the top card of the stock only right "
                                         "after playing a card")


@pytest.mark.asyncio
async def test_your_draw_is_named_and_the_new_card_marked(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        before = list(app.session.observe(0).hand)
        await pilot.press("d")
        await settle(pilot, app)
        hand = app.session.observe(0).hand
        [new] = [c for c in hand if c not in before]
        assert f"You draw {card_label(new, translator('en'))}" in log_text(app)
        fan = app.table.query_one(HandFan)
        assert fan.new == {hand.index(new)}
        lines = str(fan.render()).splitlines()
        i = hand.index(new)
        top = 0 if i == fan.selected else 1
        assert lines[top + 3][fan.lefts()[i] + 1] == "+"
        played = [line for line in app.table.log_lines if line.startswith("Bot ")]
        assert played and all("Player" not in line for line in played)
        info = str(app.table.query_one("#table-info", Static).render())
        by = played_by(app.session.observe(0))
        assert by is not None and f"played by Bot {by}" in info
        seats = str(app.table.query_one("#seats", Static).render())
        for line in played:  # what each bot did last is said around the table
            assert " ".join(line.split()[:2]) in seats
        assert "· last: " in seats


@pytest.mark.asyncio
async def test_the_chosen_card_is_never_a_wild_card_when_another_will_do(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-americain", seed=4, players=4)
    async with app.run_test(size=SIZE) as pilot:
        seen = 0

        def check(obs: Observation) -> bool:
            nonlocal seen
            hand = obs.hand
            chosen = hand[app.table.selected]
            playable = {a.card for a in obs.legal if a.card is not None}
            if any(c in playable and not is_wild(c, obs) for c in hand):
                assert chosen in playable and not is_wild(chosen, obs), (hand, chosen)
            elif playable:  # only wild cards play: the cursor is on one (issue 35)
                assert chosen in playable, (hand, chosen)
            elif not all(is_wild(c, obs) for c in hand):
                assert not is_wild(chosen, obs), (hand, chosen)
            seen += 1
            return seen > 12

        await play_until(pilot, app, check, seed=4)
        assert seen > 12


@pytest.mark.asyncio
async def test_undone_moves_are_struck_through_in_the_log(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=8)
    async with app.run_test(size=SIZE) as pilot:
        first = len(app.table.log_lines)
        await pilot.press("d")
        await settle(pilot, app)
        moves = len(app.table.log_lines) - first
        assert moves >= 2  # your draw and the bots' answers
        await pilot.press("u")
        table = app.table
        assert table.undone == set(range(first, first + moves))
        assert table.log_lines[-1] == "Your last move is taken back."
        log = table.query_one("#log", RichLog)
        assert sum(line.text.startswith("↶ ") for line in log.lines) >= moves


# ---------------------------------------------------------------------- resume: log and undo


@pytest.mark.asyncio
async def test_resume_restores_the_log_and_the_undo_history(tmp_path: Path) -> None:
    app = start(tmp_path, "huit-fou", seed=6)
    states: list[dict[str, Any]] = []
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        path = session.path
        assert path is not None
        count = 0

        def three(obs: Observation) -> bool:
            nonlocal count
            count += 1
            if count <= 3:
                states.append(session.game.to_json())
            return count > 3

        await play_until(pilot, app, three, next_rounds=False)
        told = [line for line in app.table.log_lines if "saved" not in line
                and "Press ?" not in line]
        await pilot.press("q", "k")
    resumed = Session.resume(path)
    again = EightsApp(resumed, translator("en"), speed="instant")
    async with again.run_test(size=SIZE) as pilot:
        log = again.table.log_lines
        assert log[-len(told):] == told  # the same story, in the same words
        assert resumed.can_undo
        for state in reversed(states[-resumed.undo_depth:]):
            await pilot.press("u")
            await settle(pilot, again)
            assert resumed.game.to_json() == state
        assert again.table.undone  # the lines taken back are marked
        assert "Your last move is taken back." in again.table.log_lines


# ---------------------------------------------------------------------- suit keys in two languages


@pytest.mark.asyncio
@pytest.mark.parametrize(("lang", "keys"), [
    ("en", {"1": Suit.CLUBS, "c": Suit.CLUBS, "d": Suit.DIAMONDS, "3": Suit.HEARTS,
            "s": Suit.SPADES, "h": Suit.HEARTS}),
    ("fr", {"t": Suit.CLUBS, "k": Suit.DIAMONDS, "c": Suit.HEARTS, "p": Suit.SPADES,
            "d": Suit.DIAMONDS, "4": Suit.SPADES}),
])
async def test_suit_keys_in_english_and_french(lang: str, keys: dict[str, Suit],
                                               tmp_path: Path) -> None:
    for key, suit in keys.items():
        app = start(tmp_path, "classic", seed=4, lang=lang)
        async with app.run_test(size=SIZE) as pilot:
            obs = await play_until(pilot, app,
                                   lambda o: any(a.suit is not None for a in o.legal))
            assert obs is not None
            eight = next(a.card for a in obs.legal if a.suit is not None)
            assert eight is not None
            history = len(app.session.game.history)
            await pilot.press(str(obs.hand.index(eight) + 1), "enter")
            picker = app.screen
            assert isinstance(picker, SuitPicker)
            labels = [str(b.label) for b in picker.query(Button)]
            letters = "tkcp" if lang == "fr" else "cdhs"
            assert labels == [f"{i + 1} {s.symbol} {suit_words(s, translator(lang))} "
                              f"({letters[i]})" for i, s in enumerate(Suit)]
            await pilot.press(key)
            assert app.session.game.history[history] == (0, Action.play(eight, suit)), key


def test_snapshot_les_huit_at_80_by_24(snap_compare: Callable[..., bool], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = Session.start("les-huit", 4, bots=["random"], seed=3, save_dir=None)
    session.path = Path("saves") / "les-huit-3.json"
    app = EightsApp(session, translator("en"), speed="instant")
    assert snap_compare(app, press=["d"], terminal_size=SMALL)


def test_snapshot_french_suit_picker_at_80_by_24(snap_compare: Callable[..., bool],
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = Session.start("classic", 4, bots=["random"], seed=3, save_dir=None, lang="fr")
    session.path = Path("saves") / "classic-3.json"
    eight = next(a.card for a in session.legal() if a.suit is not None)
    assert eight is not None
    key = str(session.observe(0).hand.index(eight) + 1)
    app = EightsApp(session, translator("fr"), speed="instant")
    assert snap_compare(app, press=[key, "enter"], terminal_size=SMALL)


def test_snapshot_too_small(snap_compare: Callable[..., bool], tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert snap_compare(snapshot_app("en", tmp_path, monkeypatch), terminal_size=(60, 16))


@pytest.mark.asyncio
@pytest.mark.parametrize(("rules", "players"), [("classic", 10), ("huit-americain", 6)])
async def test_the_round_summary_keeps_its_keys_in_view_at_80_by_24(
        rules: str, players: int, tmp_path: Path) -> None:
    session = Session.start(rules, players, bots=["greedy"], seed=2, save_dir=tmp_path)
    while not session.game.over:
        if session.bot_to_play:
            session.bot_move()
        else:
            session.play(session.legal()[0])
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        dialog = summary.query_one("#round-dialog")
        assert inside(dialog, Region(0, 0, *SMALL))
        for selector in (".dialog-title", ".hint"):
            assert inside(summary.query_one(selector), dialog.content_region), selector
        body = summary.query_one("#round-body")
        assert inside(body, dialog.content_region)
        await pilot.press("enter")
        assert app.session.observe(0).round == 2


def test_default_selection_rests_on_a_wild_card_only_when_nothing_else_plays() -> None:
    from dataclasses import replace

    from eights.engine.cards import Card
    from eights.tui.app import default_selection

    obs = Session.start("classic", 2, seed=1, save_dir=None).observe(0)

    def case(hand: str, legal: str, drawn: str | None = None, current: int = -1) -> int:
        return default_selection(replace(
            obs, hand=tuple(Card.parse(c) for c in hand.split()),
            legal=tuple(Action.parse(a) for a in legal.split()),
            drawn=Card.parse(drawn) if drawn else None), current)

    assert case("8h 7c 9d", "8h=c 8h=d 8h=h 8h=s 7c draw") == 1  # the 7, not the 8
    assert case("8h 7c 9d 9c", "8h=c 8h=d 8h=h 8h=s 7c 9c draw", current=3) == 3  # kept
    assert case("8h 7c 9d 9c", "8h=c 8h=d 8h=h 8h=s 7c 9c draw", current=0) == 1
    assert case("8h 7d 9d", "8h=c 8h=d 8h=h 8h=s draw") == 0  # the only play (issue 35)
    assert case("7d 8h 9d", "draw") == 0  # nothing plays: the first card that is not wild
    assert case("7d 8h 9d", "8h=c 8h=d 8h=h 8h=s pass", drawn="8h") == 1  # just drawn, alone
    assert case("7d 9c 9d", "9c pass", drawn="9c") == 1  # a drawn card that plays: chosen
    assert case("8h 8s", "8h=c 8h=d 8h=h 8h=s 8s=c 8s=d 8s=h 8s=s") == 0  # only eights



def keep_eights(obs: Observation, rng: random.Random) -> Action:
    """A person who keeps their 8s for the last card and announces the card before it."""
    plays = [a for a in obs.legal if a.card is not None and a.card.rank is not Rank.EIGHT]
    plays = [a for a in plays if a.announce] or plays
    if plays:
        return rng.choice(plays)
    return next((a for a in obs.legal if a.card is None), obs.legal[0])


@pytest.mark.asyncio
async def test_the_announce_key_makes_the_going_out_call(tmp_path: Path) -> None:
    """MM9, TS10: under ``call_out`` the announce key (a) makes the going-out call with the
    last card, a wild 8 too (the call names no suit, so no suit is asked)."""
    house = tmp_path / "call.toml"
    house.write_text('extends = "huit-americain"\ncall_out = true\nhand_size = 3\n')
    for seed in range(21, 60):  # seed 21: a wild last card after a few turns
        app = start(tmp_path, str(house), seed=seed, players=2)
        async with app.run_test(size=SIZE) as pilot:
            hand = app.session.observe(0).hand
            if not any(c.rank is Rank.EIGHT for c in hand):
                continue
            obs = await play_until(pilot, app, lambda o: len(o.hand) == 1 and any(
                a.announce and a.card is not None and a.card.rank is Rank.EIGHT
                for a in o.legal), keep_eights, seed=seed, next_rounds=False)
            if obs is None:
                continue
            called = next(a for a in obs.legal if a.announce)
            await press_action(pilot, app, called, random.Random(0))
            assert app.session.game.over and app.session.game.out == 0
            return
    raise AssertionError("no deal gave the person a wild last card")


# ---------------------------------------------------------------------- the family's mechanisms


def stacked_app(rules: str, hands: Sequence[str], starter: str, draws: str = "", *,
                dealer: int, overrides: Sequence[str] = (), speed: str = "instant",
                lang: str = "en") -> EightsApp:
    """The person in seat 0 against greedy bots, on a stacked deck (tests/stacked.py)."""
    game = stacked(rules, hands, starter, draws, dealer=dealer, overrides=overrides)
    seats = [Seat(translator(lang)("Player"))] + [
        Seat(f"Bot {s}", "greedy", make_bot("greedy")) for s in range(1, len(hands))]
    session = Session(game, seats, path=None, bot_seed="stacked")
    return EightsApp(session, translator(lang), speed=speed)


async def choose(pilot: AppPilot, app: EightsApp, card: str) -> None:
    """Choose ``card`` in the hand shown (with its digit)."""
    index = app.table.obs.hand.index(Card.parse(card))
    await pilot.press(str(index + 1))
    assert app.table.selected == index


def top_border(app: EightsApp, card: str) -> str:
    """The top border of ``card`` in the fan as drawn (number, then ✓ when marked)."""
    fan = app.table.query_one(HandFan)
    index = fan.cards.index(Card.parse(card))
    line = str(fan.render()).splitlines()[0 if index == fan.selected else 1]
    left = fan.lefts()[index]
    return line[left:left + 3]


@pytest.mark.asyncio
async def test_sw3_several_cards_marked_then_played_with_the_chosen_card_on_top(
        tmp_path: Path) -> None:
    """SW3: m (or space) marks only cards that can go down together; Enter plays the marked
    cards with the chosen card on top, and a play the rules refuse says why."""
    app = stacked_app("switch", ["7h 7c 7s Kd 9c", "3c 4c 5c 6c 9d"], "5h", dealer=1,
                      overrides=["hand_size=5"])
    async with app.run_test(size=SMALL) as pilot:
        table = app.table
        assert table.query_one("#mark").display and "m: mark" in prompt_of(app)
        assert_table_fits(app)
        await choose(pilot, app, "Kd")
        await pilot.press("m")  # a king goes with no other card here
        assert table.marked == [] and prompt_of(app) == "K♦ cannot go down with another card now."
        await choose(pilot, app, "7s")
        await pilot.press("enter")  # 7♠ does not follow 5♥ alone
        assert not app.session.game.history
        assert prompt_of(app) == "7♠ cannot be played alone now: mark (m) the cards to go under it."
        await choose(pilot, app, "7c")
        await pilot.press("space")
        assert [table.obs.hand[i] for i in table.marked] == [Card.parse("7c")]
        assert top_border(app, "7c") == "┏" + str(table.obs.hand.index(Card.parse("7c")) + 1) + "✓"
        assert prompt_of(app).startswith("Marked: 7♣. Enter plays them with the chosen card on top")
        await choose(pilot, app, "Kd")
        await pilot.press("m")
        assert prompt_of(app) == "K♦ cannot go down with 7♣."
        await choose(pilot, app, "7s")
        await pilot.press("enter")  # neither 7 under the top follows 5♥
        assert not app.session.game.history
        assert prompt_of(app) == "7♣ 7♠ cannot be played together now."
        await choose(pilot, app, "7h")
        await pilot.press("m")
        await choose(pilot, app, "7c")
        await pilot.press("m")  # unmarked
        assert [table.obs.hand[i] for i in table.marked] == [Card.parse("7h")]
        assert "✓" not in top_border(app, "7c") and "✓" in top_border(app, "7h")
        await pilot.press("m")
        await choose(pilot, app, "7s")
        await pilot.press("enter")  # 7♥ follows 5♥; the 7♠ goes on top
        assert app.session.game.history[0] == (0, Action.parse("7c+7h+7s"))
        assert table.marked == []
        await settle(pilot, app)
        assert [str(c) for c in app.session.observe(0).hand] == ["9c", "Kd"]


@pytest.mark.asyncio
async def test_sw3_the_refused_top_card_is_named(tmp_path: Path) -> None:
    """SW3: the cards under the top one must be playable; the message names the top card
    that works."""
    app = stacked_app("switch", ["7h 7s Kd 9c Qc", "3c 4c 5c 6c 9d"], "5h", dealer=1,
                      overrides=["hand_size=5"])
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "7s")
        await pilot.press("m")
        await choose(pilot, app, "7h")
        await pilot.press("enter")
        assert prompt_of(app) == ("7♠ 7♥ go down together only with 7♠ on top: choose it, "
                                  "then Enter.")
        assert not app.session.game.history


@pytest.mark.asyncio
async def test_sw3_sw8_sw9_marked_aces_name_a_suit_and_announce_the_last_card(
        tmp_path: Path) -> None:
    """SW8: a multi-card play whose top card names a suit opens the suit picker; SW9: a
    (announce) works with it: ``Ah+As=d!`` leaves one card."""
    app = stacked_app("switch", ["Ah As Kd", "3c 4c 5c"], "5h", dealer=1,
                      overrides=["hand_size=3"])
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, app, "Ah")
        await pilot.press("m")
        await choose(pilot, app, "As")
        await pilot.press("a", "enter")
        picker = app.screen
        assert isinstance(picker, SuitPicker) and not picker.naming
        await pilot.press("d")
        assert app.session.game.history[0] == (0, Action.parse("Ah+As=d!"))
        assert "“Last card!”" in log_text(app)
        assert app.session.game.hands[0] == [Card.parse("Kd")]


@pytest.mark.asyncio
async def test_marking_does_nothing_where_one_card_is_played_at_a_time(tmp_path: Path) -> None:
    app = start(tmp_path, "classic", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert not app.table.query_one("#mark").display
        await pilot.press("m")
        assert prompt_of(app) == "m does nothing here: these rules play one card at a time."
        assert app.table.marked == []


@pytest.mark.asyncio
async def test_ts3_the_dealer_names_the_suit_of_a_starter_jack(tmp_path: Path) -> None:
    """TS3: the suit picker opens by itself for the dealer's =s; Escape leaves it, Enter
    opens it again, and other keys say to name the suit first."""
    app = stacked_app("tschau-sepp", ["6c 7d 9h Qs Kc", "6d 9c Td Qh Ks"], "Jh", dealer=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, SuitPicker) and picker.naming
        title = str(picker.query_one(".dialog-title", Static).render())
        assert title == "The starter J♥ is wild: name the suit to follow."
        assert [b.id for b in picker.query(Button)] == ["suit-c", "suit-d", "suit-h", "suit-s"]
        assert inside(picker.query_one("#suit-dialog"), Region(0, 0, *SMALL))
        await pilot.press("escape")
        assert app.screen is app.table and not app.session.game.history
        assert prompt_of(app) == "The starter J♥ is wild: name the suit to follow (Enter)."
        assert "You name the suit to follow" in str(
            app.table.query_one("#table-info", Static).render())
        await pilot.press("d")
        assert prompt_of(app) == "Name the suit to follow first: Enter opens the suit picker."
        await pilot.press("enter")
        assert isinstance(app.screen, SuitPicker)
        await pilot.press("s")
        assert app.session.game.history[0] == (0, Action.name(Suit.SPADES))
        await settle(pilot, app)
        assert app.session.game.history[1][0] == 1  # then the first player plays on ♠


@pytest.mark.asyncio
async def test_uc3_the_first_player_names_the_suit_then_plays(tmp_path: Path) -> None:
    """UC3 (``starter_wild = "first-names"``): the first player names the suit with =s,
    then plays on it."""
    app = stacked_app("crazy-eights", ["7s 9s Kd 2c 3c", "4d 5d 6d 9d Td"], "8h", dealer=1,
                      overrides=["hand_size=5", 'starter_wild="first-names"',
                                 "starter_redraw=[]"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, SuitPicker) and picker.naming
        await pilot.press("s")
        assert app.session.game.history == [(0, Action.name(Suit.SPADES))]
        assert isinstance(app.screen, TableScreen) and app.table.my_turn()
        assert Action.parse("7s") in app.table.obs.legal
        await choose(pilot, app, "7s")
        await pilot.press("enter")
        assert app.session.game.history[1] == (0, Action.parse("7s"))


@pytest.mark.asyncio
async def test_mm5_a_skip_passed_on_or_accepted(tmp_path: Path) -> None:
    """MM5 (``pass_on``): the skipped player sees the skip waiting, may pass it on with a
    card of its rank (Enter) or accept it (p); d says why it does not apply."""
    app = stacked_app("mau-mau", ["8c 9d Tc Qs Ks", "7d 9s Td Jc Ad", "8h 9c Qc Kh Ah"], "9h",
                      dealer=1, overrides=["cards.8.pass_on=true"])
    app.session.game.apply("8h")  # seat 2 plays first: its 8 skips the person
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        table = app.table
        assert table.my_turn() and table.obs.skip_due == 1
        assert prompt_of(app) == ("A skip falls on you: pass it on with another eight (Enter), "
                                  "or p to miss your turn.")
        assert "Skip waiting: 1" in str(table.query_one("#table-info", Static).render())
        assert_table_fits(app)
        await pilot.press("d")
        assert prompt_of(app) == "d: a skip falls on you; pass it on with another eight or press p."
        await pilot.press("p")  # accepted: the person loses the turn
        assert app.session.game.history[1] == (0, PASS)
        await settle(pilot, app)
        await pilot.press("u")
        assert app.session.game.history == [(2, Action.parse("8h"))]
        assert app.table.obs.skip_due == 1
        await choose(pilot, app, "8c")
        await pilot.press("enter")  # passed on: it falls on Bot 1 (no 8: it accepts)
        await settle(pilot, app)
        history = app.session.game.history
        assert history[1:3] == [(0, Action.parse("8c")), (1, PASS)] and history[3][0] == 2


@pytest.mark.asyncio
async def test_ts10_ts11_ts12_calls_and_a_round_played_on_with_placings(tmp_path: Path) -> None:
    """TS10: a announces the last card ("Tschau", 9h!) and calls going out ("Sepp", 6h!);
    TS11: the person out is shown out with their place while the others play on; TS12:
    the round summary gives the placings."""
    app = stacked_app("tschau-sepp", ["6h 9h", "Qc Kd", "Qd Kc"], "9s", "Qs Ks", dealer=2,
                      overrides=["hand_size=2"])
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        await choose(pilot, app, "9h")
        await pilot.press("a", "enter")
        assert session.game.history[0] == (0, Action.parse("9h!"))
        await settle(pilot, app)
        assert [str(a) for _s, a in session.game.history[1:]] == ["draw", "draw"]
        await pilot.press("minus", "minus", "minus")  # slow: the bots wait, the screen shows
        assert app.table.speed == "slow"
        await pilot.press("a", "enter")
        assert session.game.history[3] == (0, Action.parse("6h!"))
        assert session.game.finished == [0] and not session.game.over
        assert prompt_of(app) == "You are out in place 1: the others play on."
        players = [str(label.render()) for label in app.table.query("#players-grid > .count")]
        assert players[1] == "Out: place 1"  # after the heading
        await pilot.press("plus", "plus", "plus")
        await settle(pilot, app)
        summary = app.screen
        assert isinstance(summary, RoundOverScreen)
        game = session.game
        assert game.over and game.finished[0] == 0 and len(game.finished) == 2
        second, last = game.finished[1], 3 - game.finished[1]
        names = session.names
        title = str(summary.query_one(".dialog-title", Static).render())
        assert title == (f"Round 1 is over: the placings are 1st Player, 2nd {names[second]}, "
                         f"3rd {names[last]}.")
        labels = [str(label.render()) for label in summary.query(".name")]
        assert labels[0] == "Player (1st)" and labels[second] == f"{names[second]} (2nd)"
        assert labels[last] == f"{names[last]} (3rd)"
        how = str(summary.query_one(".how", Static).render())
        assert how == "Each player scores their place minus one: 0 for the first out, 2 for the last."
        assert game.round_points == [0 if s == 0 else 1 if s == second else 2 for s in range(3)]


@pytest.mark.asyncio
async def test_the_key_bar_leaves_out_new_and_undo_before_it_is_cut(tmp_path: Path) -> None:
    """A house with every key of the bar (mark, take, announce) at 80 columns in French: New
    (n) gives way first, Help (?) stays; n still opens the new match, and a wider screen
    shows every key with its words first (« Piocher (d) »)."""
    house = tmp_path / "house.toml"
    house.write_text('extends = "switch"\nreplace_after_play = true\n', "utf-8")
    session = Session.start(load_rules(house), 4, bots=["greedy"], seed=3, save_dir=tmp_path,
                            lang="fr")
    app = EightsApp(session, translator("fr"), speed="instant")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot, app)
        bar = {b.id: b.display for b in app.table.query("#actions > Button")}
        assert bar["mark"] and bar["take"] and bar["announce"] and bar["rules"] and bar["quit"]
        assert not bar["new"]
        assert_table_fits(app, "fr")
        await pilot.press("n")
        assert isinstance(app.screen, NewMatchScreen)
        await pilot.press("escape")
        await pilot.resize_terminal(130, SIZE[1])  # the nine keys take 124 columns in French
        await pilot.pause()
        assert all(b.display for b in app.table.query("#actions > Button"))
        assert str(app.table.query_one("#draw", Button).label) == "Piocher (d)"
        assert_table_fits(app, "fr")


def test_ts11_around_the_table_a_seat_out_shows_its_place() -> None:
    game = stacked("tschau-sepp", ["6h 9h", "Qc Kd", "Qd Kc"], "9s", "Qs Ks", dealer=2,
                   overrides=["hand_size=2"])
    for action in ("9h!", "draw", "draw", "6h!"):
        game.apply(action)
    lines = seat_lines(game.observe(1), ["Player", "Bot 1", "Bot 2"], translator("en"))
    assert lines[0].startswith("  Bot 2 ") and lines[0].split()[2:4] == ["▒▒▒", "3"]
    assert lines[1].startswith("  Player  Out: place 1")


@pytest.mark.asyncio
async def test_the_replay_marks_every_card_of_a_multi_card_play(tmp_path: Path) -> None:
    """SW3 in the replay viewer: before ``7c+7h+7s`` the three 7s are marked in the hand."""
    from eights.engine.record import load_record

    game = stacked("switch", ["7h 7c 7s Kd 9c", "3c 4c 5c 6c 9d"], "5h", dealer=1,
                   overrides=["hand_size=5"])
    game.apply("7c+7h+7s")
    meta = {"seats": [{"name": n, "player": "random"} for n in ("Ana", "Ben")]}
    path = tmp_path / "switch.json"
    path.write_text(record_of(game, meta=meta).dumps(), "utf-8")
    app = ReplayApp(load_record(path), translator("en"))
    async with app.run_test(size=SIZE) as pilot:
        viewer = app.viewer
        assert isinstance(viewer, ReplayScreen)
        chips = viewer.query_one("#cards-0", CardChips)
        assert {str(chips.cards[i]) for i in chips.marked} == {"7c", "7h", "7s"}
        assert "Next: Ana — " in str(viewer.query_one("#prompt", Static).render())
        await pilot.press("right")
        assert chips.marked == frozenset() and len(chips.cards) == 2


def test_sw3_plays_of_counts_copies_from_two_decks() -> None:
    """SW3 with two decks: ``7h+7h+7s`` holds the 7♥ twice; the marked cards are matched
    as a multiset, whatever order they were marked in, and the top card decides."""
    from eights.tui.app import plays_of

    legal = [Action.parse(a) for a in ("7h", "7h+7s", "7h+7h+7s", "7h+7s+7h", "draw")]
    seven_h, seven_s = Card.parse("7h"), Card.parse("7s")
    assert plays_of(legal, [seven_h, seven_h, seven_s]) == [Action.parse("7h+7h+7s")]
    assert plays_of(legal, [seven_s, seven_h, seven_h]) == [Action.parse("7h+7s+7h")]
    assert plays_of(legal, [seven_h, seven_s]) == [Action.parse("7h+7s")]
    assert plays_of(legal, [seven_s, seven_s]) == []
    assert plays_of(legal, [seven_h]) == [Action.parse("7h")]


@pytest.mark.asyncio
async def test_sw1_sw3_two_copies_of_a_card_marked_by_position(tmp_path: Path) -> None:
    """SW1: six players play with two decks; SW3: the two 7♥ are marked one by one (by
    their place in the hand) and all three 7s go down, the chosen 7♥ on top."""
    hands = ["7h 7h 7s", "3c 4c 5c", "3d 4d 5d", "3s 4s 5s", "9c Tc Qc", "9d Td Qd"]
    app = stacked_app("switch", hands, "7d", dealer=5, overrides=["hand_size=3"])
    async with app.run_test(size=SIZE) as pilot:
        assert [str(c) for c in app.table.obs.hand] == ["7h", "7h", "7s"]
        await pilot.press("1", "m", "3", "m", "2")
        assert app.table.marked == [0, 2]
        assert prompt_of(app).startswith("Marked: 7♥ 7♠.")
        await pilot.press("enter")
        assert app.session.game.history[0] == (0, Action.parse("7h+7s+7h"))
        assert app.session.game.hands[0] == []


@pytest.mark.asyncio
async def test_sw3_a_right_click_or_ctrl_click_marks_a_card(tmp_path: Path) -> None:
    """SW3 with the mouse: a right click (or ctrl+click) marks a card, a click plays the
    marked cards with the clicked card on top."""
    app = stacked_app("switch", ["7h 7c 7s Kd 9c", "3c 4c 5c 6c 9d"], "5h", dealer=1,
                      overrides=["hand_size=5"])
    async with app.run_test(size=SIZE) as pilot:
        hand = app.table.obs.hand
        await click_card(pilot, app, hand.index(Card.parse("7h")), button=3)
        await click_card(pilot, app, hand.index(Card.parse("7c")), control=True)
        assert sorted(str(hand[i]) for i in app.table.marked) == ["7c", "7h"]
        assert not app.session.game.history
        await click_card(pilot, app, hand.index(Card.parse("Kd")), button=3)
        assert prompt_of(app) == "K♦ cannot go down with 7♥ 7♣."
        await click_card(pilot, app, hand.index(Card.parse("7s")))
        assert app.session.game.history[0] == (0, Action.parse("7c+7h+7s"))
